//! Random valid models for property tests.

use glam::{Mat4, Quat, Vec2, Vec3};
use proptest::prelude::*;
use springmesh_core::model::{
    Air, Ground, Joint, MAX_COORDINATE, MAX_DT, MAX_LENGTH, MIN_DT, MIN_SUBSTEP, Obstacle, Rig,
    SelfCollision, Shape, ShapeMatching, Surface, Tethers,
};
use springmesh_core::{
    Face, Integrator, Metadata, Node, NodeId, SimParams, Spring, SpringKind, SpringModel,
};
use std::collections::BTreeSet;

/// Any finite f32, including subnormals and both zeros.
fn finite() -> impl Strategy<Value = f32> {
    prop::num::f32::NORMAL | prop::num::f32::SUBNORMAL | prop::num::f32::ZERO
}

/// A finite f32 ≥ 0.
fn non_negative() -> impl Strategy<Value = f32> {
    prop::num::f32::POSITIVE | prop::num::f32::ZERO
}

/// A coordinate within the limit validation allows, extremes included.
fn coordinate() -> impl Strategy<Value = f32> {
    finite().prop_map(|x| x.clamp(-MAX_COORDINATE, MAX_COORDINATE))
}

/// A length within the limit validation allows, extremes included.
fn length() -> impl Strategy<Value = f32> {
    non_negative().prop_map(|x| x.min(MAX_LENGTH))
}

fn kind() -> impl Strategy<Value = SpringKind> {
    prop::sample::select(SpringKind::ALL.to_vec())
}

fn vec3() -> impl Strategy<Value = Vec3> {
    (finite(), finite(), finite()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn positive() -> impl Strategy<Value = f32> {
    prop::num::f32::POSITIVE
}

fn surface() -> impl Strategy<Value = Surface> {
    (non_negative(), 0.0f32..=1.0)
        .prop_map(|(friction, restitution)| Surface { friction, restitution })
}

fn air() -> impl Strategy<Value = Air> {
    (
        (non_negative(), vec3(), non_negative(), non_negative()),
        (non_negative(), positive(), any::<u64>()),
    )
        .prop_map(|((density, wind, drag, lift), (gusts, gust_period, seed))| Air {
            density,
            wind,
            drag,
            lift,
            gusts,
            gust_period,
            seed,
        })
}

/// A shape with a positive size (vectors of positive components are never zero).
fn shape() -> impl Strategy<Value = Shape> {
    let away = || (positive(), positive(), positive()).prop_map(|(x, y, z)| Vec3::new(x, y, z));
    let corner = || (-1e4f32..1e4, -1e4f32..1e4, -1e4f32..1e4).prop_map(Vec3::from);
    prop_oneof![
        (vec3(), away()).prop_map(|(point, normal)| Shape::Plane { point, normal }),
        (vec3(), positive()).prop_map(|(center, radius)| Shape::Sphere { center, radius }),
        (vec3(), vec3(), positive()).prop_map(|(a, b, radius)| Shape::Capsule { a, b, radius }),
        (vec3(), away(), (positive(), finite(), finite(), finite())).prop_map(
            |(center, half_extents, q)| {
                Shape::Box { center, half_extents, rotation: Quat::from_xyzw(q.1, q.2, q.3, q.0) }
            }
        ),
        // Corners a, a + x, a + y: never in a line (a within ±10 km, where f32 still resolves
        // the shortest side of 0.1 m).
        (corner(), 0.1f32..1e3, 0.1f32..1e3).prop_map(|(a, x, y)| Shape::Triangle {
            a,
            b: a + Vec3::X * x,
            c: a + Vec3::Y * y
        }),
    ]
}

fn params() -> impl Strategy<Value = SimParams> {
    (
        (vec3(), non_negative(), prop::sample::select(Integrator::ALL.to_vec())),
        (prop_oneof![MIN_DT..=MAX_DT, Just(MIN_DT), Just(MAX_DT)], 1u32..=1000, non_negative()),
        (prop::option::of(air()), prop::option::of((finite(), surface()))),
        (prop::collection::vec((shape(), surface()), 0..3), prop::option::of(0f32..=1.0)),
        (prop::option::of(positive()), prop::option::of((0.001f32..=1.0, non_negative()))),
    )
        .prop_map(
            |(
                (gravity, damping, integrator),
                (dt, substeps, node_radius),
                (air, ground),
                (colliders, tethers),
                (shape, layers),
            )| {
                SimParams {
                    gravity,
                    damping,
                    integrator,
                    dt,
                    // Sub-steps no shorter than validation allows.
                    substeps: substeps.min(((dt / MIN_SUBSTEP) as u32).max(1)),
                    node_radius,
                    air: air.map(|a| Air { gust_period: a.gust_period.max(dt), ..a }),
                    pressure: None,
                    ground: ground.map(|(height, surface)| Ground { height, surface }),
                    colliders: colliders
                        .into_iter()
                        .map(|(shape, surface)| Obstacle { shape, surface })
                        .collect(),
                    tethers: tethers.map(|slack| Tethers { slack }),
                    shape_matching: shape.map(|frequency| ShapeMatching { frequency }),
                    // The thickness as a share of the body's diagonal, set with the nodes.
                    self_collision: layers
                        .map(|(thickness, friction)| SelfCollision { thickness, friction }),
                }
            },
        )
}

fn metadata() -> impl Strategy<Value = Metadata> {
    (".*", prop::option::of(".*"), prop::collection::btree_map(".{0,12}", ".{0,12}", 0..4))
        .prop_map(|(name, source, conversion)| Metadata { name, source, conversion })
}

/// A rig of one to three joints (a chain, each parent the one before) over `n` nodes, each
/// bound to up to four of them (or to none) with a max distance or none.
fn rig(n: usize) -> impl Strategy<Value = Rig> {
    (1u16..4).prop_flat_map(move |joints| {
        let joint = ((-10.0f32..10.0, -10.0f32..10.0, -10.0f32..10.0), -3.0f32..3.0, ".{0,8}");
        let binding = (
            [0..joints, 0..joints, 0..joints, 0..joints],
            [0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0],
            prop::option::of(0.0f32..1.0),
        );
        (prop::collection::vec(joint, joints as usize), prop::collection::vec(binding, n)).prop_map(
            |(joints, bindings)| {
                let joints = joints.into_iter().enumerate().map(|(i, ((x, y, z), turn, name))| {
                    let rest = Mat4::from_rotation_translation(
                        Quat::from_rotation_y(turn),
                        Vec3::new(x, y, z),
                    );
                    Joint {
                        name,
                        parent: i.checked_sub(1).map(|p| p as u16),
                        inverse_bind: rest.inverse(),
                    }
                });
                let mut rig = Rig { joints: joints.collect(), ..Rig::default() };
                for (js, ws, r) in bindings {
                    let sum: f32 = ws.iter().sum();
                    let ws = if sum > 0.1 { ws.map(|w| w / sum) } else { [0.0; 4] };
                    rig.node_joints.push(js);
                    rig.node_weights.push(ws);
                    rig.max_distance.push(r);
                }
                rig
            },
        )
    })
}

/// A valid model of up to 12 nodes.
pub fn model() -> impl Strategy<Value = SpringModel> {
    (1usize..12)
        .prop_flat_map(|n| {
            let node = ((coordinate(), coordinate(), coordinate()), prop::num::f32::POSITIVE)
                .prop_map(|(p, mass)| Node { position: Vec3::new(p.0, p.1, p.2), mass });
            let spring = (
                0..n,
                0..n,
                (length(), non_negative(), non_negative(), kind()),
                (prop::option::of(length()), prop::option::of(length())),
            );
            let uv_count = 0usize..6;
            (
                prop::collection::vec(node, n),
                prop::collection::vec(spring, 0..3 * n),
                prop::collection::vec(0..n, 0..n),
                uv_count.prop_flat_map(move |uvs| {
                    let corner_uvs = if uvs == 0 {
                        Just(None).boxed()
                    } else {
                        prop::option::of([0..uvs as u32, 0..uvs as u32, 0..uvs as u32]).boxed()
                    };
                    (
                        prop::collection::vec((finite(), finite()), uvs),
                        prop::collection::vec(([0..n, 0..n, 0..n], corner_uvs), 0..2 * n),
                    )
                }),
                params(),
                metadata(),
                prop::option::of(rig(n)),
            )
        })
        .prop_map(|(nodes, springs, anchors, (uvs, faces), params, metadata, rig)| {
            let mut m = SpringModel {
                nodes: nodes.into_iter().collect(),
                params,
                metadata,
                rig,
                ..SpringModel::default()
            };
            let mut pairs = BTreeSet::new();
            for (a, b, (rest, k, d, kind), (lo, hi)) in springs {
                if a != b && pairs.insert((a.min(b), a.max(b))) {
                    let mut s = Spring::new(NodeId(a as u32), NodeId(b as u32), rest, k, kind)
                        .with_damping(d);
                    // A spring breaks shorter than its minimum or longer than its maximum.
                    let (lo, hi) = match (lo, hi) {
                        (Some(lo), Some(hi)) => (Some(lo.min(hi)), Some(lo.max(hi))),
                        limits => limits,
                    };
                    s.break_min = lo;
                    s.break_max = hi;
                    m.springs.push(s);
                }
            }
            let mut seen = BTreeSet::new();
            m.anchors =
                anchors.into_iter().filter(|a| seen.insert(*a)).map(|a| NodeId(a as u32)).collect();
            let diagonal = m.bounding_box().map_or(0.0, |b| b.diagonal());
            m.params.self_collision = m.params.self_collision.and_then(|share| {
                let thickness = share.thickness * diagonal;
                (thickness > 0.0).then_some(SelfCollision { thickness, ..share })
            });
            m.uvs = uvs.into_iter().map(|(u, v)| Vec2::new(u, v)).collect();
            for ([a, b, c], corner_uvs) in faces {
                if a != b && b != c && a != c {
                    m.faces
                        .push(Face { nodes: [a, b, c].map(|i| NodeId(i as u32)), uvs: corner_uvs });
                }
            }
            m
        })
}
