//! A cloth worn on a skeleton ([`Simulation::set_pose`]): a strip hanging from a shoulder
//! joint that runs at 3 m/s and turns a quarter round in a quarter second. Judged at every
//! frame against the skinning formula written out here: the top row (max distance 0) is on its
//! skinned positions and moves at their speed; every other node is within its max distance of
//! its own; and the strip really swings (its hem leaves its skinned position).

use crate::common::{GridSprings, grid};
use glam::{Mat4, Quat, Vec3};
use springmesh_core::model::{Joint, JointCollider, Obstacle, Rig, Shape, Surface};
use springmesh_core::{CoreError, NodeId, Simulation, SpringModel, ValidModel};

const DT: f32 = 1.0 / 60.0;
const COLUMNS: usize = 5;
const ROWS: usize = 12;

/// The joint's world matrix at rest: at (0, 1, 0), unturned.
fn rest_joint() -> Mat4 {
    Mat4::from_translation(Vec3::Y)
}

/// A 0.2 × 0.55 m strip hanging from y = 1 in the x–y plane, every node on the one joint;
/// the top row kinematic, row j free to move 2 cm × j from its skinned position.
fn strip() -> SpringModel {
    let springs = GridSprings { stiffness: 2000.0, damping: 0.05 };
    let mut m = grid(COLUMNS, ROWS, 0.005, springs, |i, j| {
        Vec3::new(0.05 * i as f32, 1.0 - 0.05 * j as f32, 0.0)
    });
    m.anchors = (0..COLUMNS as u32).map(NodeId).collect();
    let n = m.nodes.len();
    m.rig = Some(Rig {
        joints: vec![Joint {
            name: "Shoulder".into(),
            parent: None,
            inverse_bind: rest_joint().inverse(),
        }],
        node_joints: vec![[0; 4]; n],
        node_weights: vec![[1.0, 0.0, 0.0, 0.0]; n],
        max_distance: (0..n).map(|k| Some(0.02 * (k / COLUMNS) as f32)).collect(),
        backstop: Vec::new(),
        colliders: Vec::new(),
    });
    m
}

/// The joint at time `t`: running along −z at 3 m/s for 0.5 s, turning a quarter round about
/// y between 0.25 and 0.5 s, then standing.
fn joint_at(t: f32) -> Mat4 {
    let run = t.min(0.5) * 3.0;
    let turn = ((t - 0.25) / 0.25).clamp(0.0, 1.0) * std::f32::consts::FRAC_PI_2;
    Mat4::from_rotation_translation(Quat::from_rotation_y(turn), Vec3::new(0.0, 1.0, -run))
}

#[test]
fn a_worn_strip_follows_its_joint_within_its_max_distances() {
    let model = strip();
    let rest: Vec<Vec3> = model.nodes.positions().to_vec();
    let reach: Vec<f32> =
        model.rig.as_ref().unwrap().max_distance.iter().map(|r| r.unwrap()).collect();
    let mut sim = Simulation::new(&ValidModel::new(model).expect("valid"));
    let skinned =
        |t: f32, i: usize| (joint_at(t) * rest_joint().inverse()).transform_point3(rest[i]);
    let (mut hem_off, mut worst_top, mut worst_speed) = (0.0f32, 0.0f32, 0.0f32);
    for frame in 0..60 {
        let t = (frame + 1) as f32 * DT;
        sim.set_pose(&[joint_at(t)]).expect("one joint");
        sim.step(DT).expect("finite");
        for (i, (&x, &v)) in sim.positions().iter().zip(sim.velocities()).enumerate() {
            let s = skinned(t, i);
            let off = Vec3::from(x).distance(s);
            if i < COLUMNS {
                worst_top = worst_top.max(off);
                let expected = (s - skinned(t - DT, i)) / DT;
                worst_speed = worst_speed.max(Vec3::from(v).distance(expected));
            } else {
                assert!(
                    off <= reach[i] + 1e-4,
                    "frame {frame}: node {i} is {off} m off, allowed {}",
                    reach[i]
                );
            }
            if i >= COLUMNS * (ROWS - 1) {
                hem_off = hem_off.max(off);
            }
        }
    }
    println!(
        "top row within {worst_top:.2e} m and {worst_speed:.2e} m/s of the skin; hem up to {hem_off:.3} m off"
    );
    assert!(worst_top < 1e-3, "the top row is on the skin ({worst_top} m)");
    assert!(worst_speed < 1e-2, "at the skin's speed ({worst_speed} m/s off)");
    assert!(hem_off > 0.05, "the hem swings ({hem_off} m)");
}

#[test]
fn a_pose_of_the_wrong_size_or_not_finite_is_refused() {
    let mut sim = Simulation::new(&ValidModel::new(strip()).expect("valid"));
    let e = sim.set_pose(&[]).expect_err("no joints");
    assert!(matches!(e, CoreError::PoseJoints { expected: 1, found: 0 }), "{e}");
    let e = sim.set_pose(&[Mat4::NAN]).expect_err("NaN");
    assert!(matches!(e, CoreError::NonFinitePose { joint: 0 }), "{e}");
    // Finite, but a key of 1e30 m as a careless exporter writes: beyond a model's limit.
    let far = Mat4::from_translation(Vec3::new(0.0, 1e30, 0.0));
    let e = sim.set_pose(&[far]).expect_err("beyond the limit");
    assert!(matches!(e, CoreError::PoseOutOfBounds { joint: 0, .. }), "{e}");
    assert!(sim.positions().iter().all(|p| p.abs().max_element() < 10.0), "nothing moved");
    let mut unrigged = strip();
    unrigged.rig = None;
    let mut sim = Simulation::new(&ValidModel::new(unrigged).expect("valid"));
    let e = sim.set_pose(&[Mat4::IDENTITY]).expect_err("no rig");
    assert!(e.to_string().contains("has 0 joints"), "{e}");
}

#[test]
fn a_strip_pressed_onto_its_back_stops_stays_out_of_them_and_never_speeds_up_on_them() {
    // Gravity along −z presses the strip (its faces' normals are +z) back onto back-stops
    // 1 cm behind its skin, spheres of 0.5 m; the joint runs and turns as above, then stands
    // (from frame 30): from then on, nothing but damping acts along the back-stops.
    let (distance, radius) = (0.01, 0.5);
    let mut model = strip();
    model.params.gravity = Vec3::new(0.0, 0.0, -9.81);
    let n = model.nodes.len();
    if let Some(rig) = &mut model.rig {
        rig.backstop = (0..n)
            .map(|i| {
                (i >= COLUMNS).then_some(springmesh_core::model::Backstop { distance, radius })
            })
            .collect();
    }
    let rest: Vec<Vec3> = model.nodes.positions().to_vec();
    let mut sim = Simulation::new(&ValidModel::new(model).expect("valid"));
    let (mut deepest, mut settling, mut last_speed) = (0.0f32, 0.0f32, 0.0f32);
    for frame in 0..120 {
        let t = (frame + 1) as f32 * DT;
        sim.set_pose(&[joint_at(t)]).expect("one joint");
        sim.step(DT).expect("finite");
        let m = joint_at(t) * rest_joint().inverse();
        let normal = m.transform_vector3(Vec3::Z).normalize();
        for (i, &x) in sim.positions().iter().enumerate().skip(COLUMNS) {
            let centre = m.transform_point3(rest[i]) - normal * (distance + radius);
            deepest = deepest.max(radius - Vec3::from(x).distance(centre));
        }
        let fastest = sim.velocities().iter().map(|v| v.length()).fold(0.0, f32::max);
        match frame {
            40..80 => settling = settling.max(fastest),
            80.. => last_speed = last_speed.max(fastest),
            _ => {}
        }
    }
    println!(
        "deepest into a back-stop {deepest:.2e} m; fastest node {settling:.3} m/s in the \
         second after the stop, {last_speed:.3} m/s in the next"
    );
    assert!(deepest < 1e-4, "out of the back-stops ({deepest} m in)");
    assert!(last_speed < settling, "resting on them, no speed grows ({last_speed} m/s)");
}

#[test]
fn reset_on_a_joint_far_away_the_strip_starts_on_its_skin_at_rest_and_stays_there() {
    // The joint 10 m along x and turned half round: put on there, every node is at its
    // skinned position and at rest; a step later the top row has not moved and no node is
    // faster than gravity makes it in one step.
    let model = strip();
    let rest: Vec<Vec3> = model.nodes.positions().to_vec();
    let mut sim = Simulation::new(&ValidModel::new(model).expect("valid"));
    let far =
        Mat4::from_rotation_translation(Quat::from_rotation_y(3.0), Vec3::new(10.0, 1.0, 0.0));
    let skinned = |i: usize| (far * rest_joint().inverse()).transform_point3(rest[i]);
    sim.reset(&[far]).expect("one joint");
    for (i, (&x, &v)) in sim.positions().iter().zip(sim.velocities()).enumerate() {
        assert!(Vec3::from(x).distance(skinned(i)) < 1e-5, "node {i} at {x}");
        assert_eq!(Vec3::from(v), Vec3::ZERO);
    }
    sim.set_pose(&[far]).expect("one joint");
    sim.step(DT).expect("finite");
    for (i, (&x, &v)) in sim.positions().iter().zip(sim.velocities()).enumerate() {
        if i < COLUMNS {
            assert!(Vec3::from(x).distance(skinned(i)) < 1e-5, "top node {i} moved to {x}");
        }
        assert!(v.length() <= 9.81 * DT + 1e-3, "node {i} at {v} m/s");
    }
    assert!(matches!(sim.reset(&[]), Err(CoreError::PoseJoints { .. })));
}

/// The strip run and turned as in the tests above, standing from 0.5 s, then at 2 s its
/// character moved 10 m along x and turned 180° about y in one frame, by `jump` (the pose
/// given to it: set_pose or teleport); then standing there for a second. Returns, from the
/// jump on, the worst stretch of any spring (a fraction of its rest length), the fastest node
/// (m/s), and the worst distance of a kinematic node from its skin.
fn jumped(jump: impl Fn(&mut Simulation, &[Mat4]), teleport: bool) -> (f32, f32, f32) {
    let mut model = strip();
    model.params.tethers = Some(springmesh_core::model::Tethers::default());
    let rest: Vec<Vec3> = model.nodes.positions().to_vec();
    let springs: Vec<(usize, usize, f32)> =
        model.springs.iter().map(|s| (s.a.index(), s.b.index(), s.rest_length)).collect();
    let mut sim = Simulation::new(&ValidModel::new(model).expect("valid"));
    if !teleport {
        sim.set_teleport(None);
    }
    let away = Mat4::from_rotation_translation(
        Quat::from_rotation_y(std::f32::consts::PI),
        Vec3::X * 10.0,
    );
    let (mut stretch, mut fastest, mut top) = (0.0f32, 0.0f32, 0.0f32);
    for frame in 0..180 {
        let t = (frame + 1) as f32 * DT;
        let joint = if frame >= 120 { away * joint_at(t) } else { joint_at(t) };
        if frame == 120 {
            jump(&mut sim, &[joint]);
        } else {
            sim.set_pose(&[joint]).expect("one joint");
        }
        sim.step(DT).expect("finite");
        if frame < 120 {
            continue;
        }
        let x = sim.positions();
        for &(a, b, l) in &springs {
            stretch = stretch.max(Vec3::from(x[a]).distance(Vec3::from(x[b])) / l - 1.0);
        }
        let v = sim.velocities().iter().map(|v| v.length()).fold(0.0, f32::max);
        fastest = fastest.max(v);
        for (i, &p) in x.iter().enumerate().take(COLUMNS) {
            let s = (joint * rest_joint().inverse()).transform_point3(rest[i]);
            top = top.max(Vec3::from(p).distance(s));
        }
    }
    (stretch, fastest, top)
}

#[test]
fn a_character_teleported_10_m_and_turned_round_carries_its_strip_unstretched() {
    // The character stands after the jump: no node may be faster than 1 m/s, no spring
    // longer than 10% past its rest length at any frame, and the top row stays on its skin.
    let by_hand = jumped(|sim, pose| sim.teleport(pose).expect("one joint"), true);
    let on_its_own = jumped(
        |sim, pose| {
            let posing = sim.set_pose(pose).expect("one joint");
            assert_eq!(posing, springmesh_core::Posing::Teleported);
        },
        true,
    );
    let swept = jumped(
        |sim, pose| {
            let posing = sim.set_pose(pose).expect("one joint");
            assert_eq!(posing, springmesh_core::Posing::Swept);
        },
        false,
    );
    println!(
        "(stretch, fastest m/s, top row off m): teleport {by_hand:?}, on its own {on_its_own:?}, swept {swept:?}"
    );
    for (stretch, fastest, top) in [by_hand, on_its_own] {
        assert!(stretch < 0.10, "a spring stretched {:.1}%", stretch * 100.0);
        assert!(fastest < 1.0, "a node at {fastest} m/s after the jump");
        assert!(top < 1e-3, "the top row {top} m off its skin");
    }
    // Swept across one frame instead, the jump flings the strip (the test can fail).
    assert!(swept.1 > 100.0, "swept: fastest {} m/s", swept.1);
}

#[test]
fn reset_puts_a_swinging_strip_back_on_its_skin_at_rest() {
    let model = strip();
    let rest: Vec<Vec3> = model.nodes.positions().to_vec();
    let mut sim = Simulation::new(&ValidModel::new(model).expect("valid"));
    for frame in 0..20 {
        sim.set_pose(&[joint_at((frame + 1) as f32 * DT)]).expect("one joint");
        sim.step(DT).expect("finite");
    }
    assert!(sim.velocities().iter().any(|v| v.length() > 0.5), "swinging before the reset");
    let there = joint_at(1.0);
    sim.reset(&[there]).expect("one joint");
    let skin = there * rest_joint().inverse();
    for (i, (&x, &v)) in sim.positions().iter().zip(sim.velocities()).enumerate() {
        assert!(Vec3::from(x).distance(skin.transform_point3(rest[i])) < 1e-5, "node {i}");
        assert_eq!(Vec3::from(v), Vec3::ZERO);
    }
}

/// The strip of the tests above with a second joint, a leg, whose capsule (radius 4 cm, along
/// x) rests 8 cm behind the strip's rows at y = 0.7 and is moved `forward(t)` (m) through
/// them at time `t`: the worn cloth's body, met by the strip's nodes and edges.
fn strip_before_a_leg(forward: impl Fn(f32) -> f32) -> (SpringModel, impl Fn(f32) -> [Mat4; 2]) {
    let mut model = strip();
    let leg_rest = Mat4::from_translation(Vec3::new(0.1, 0.7, -0.08));
    if let Some(rig) = &mut model.rig {
        rig.joints.push(Joint {
            name: "Leg".into(),
            parent: Some(0),
            inverse_bind: leg_rest.inverse(),
        });
        let shape = Shape::Capsule {
            a: Vec3::new(-0.2, 0.7, -0.08),
            b: Vec3::new(0.4, 0.7, -0.08),
            radius: 0.04,
        };
        let collider = Obstacle { shape, surface: Surface::default() };
        rig.colliders.push(JointCollider { joint: 1, collider });
    }
    let pose = move |t: f32| {
        let leg = Mat4::from_translation(Vec3::Z * forward(t)) * leg_rest;
        [rest_joint(), leg]
    };
    (model, pose)
}

#[test]
fn a_leg_swung_through_a_strip_past_its_max_distances_carries_it_on_its_surface() {
    // The leg swings 20 cm forward in 0.2 s and stays: the rows it meets are carried past
    // their max distances. The order of the max distances' module doc ("Limbs first"): the
    // leg, then the stretch, then the max distances. At every frame no node is inside the
    // leg, no spring is stretched past 10%, the leg holds rows past their max distances, and
    // a node off the leg is past its max distance by less than a row (5 cm), where the rows
    // the leg holds pull it. Without the order the strip stretched 20%.
    let (model, pose) = strip_before_a_leg(|t| (t / 0.2).min(1.0) * 0.2);
    let rest: Vec<Vec3> = model.nodes.positions().to_vec();
    let rig = model.rig.clone().expect("worn");
    let springs: Vec<(usize, usize, f32)> =
        model.springs.iter().map(|s| (s.a.index(), s.b.index(), s.rest_length)).collect();
    let mut sim = Simulation::new(&ValidModel::new(model).expect("valid"));
    let (mut deepest, mut stretch, mut loose, mut carried) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
    for frame in 0..60 {
        let t = (frame + 1) as f32 * DT;
        let joints = pose(t);
        sim.set_pose(&joints).expect("two joints");
        sim.step(DT).expect("finite");
        let axis_z = joints[1].w_axis.z;
        let x: Vec<Vec3> = sim.positions().iter().map(|&p| p.into()).collect();
        for (i, p) in x.iter().enumerate() {
            let off_leg = Vec3::new(0.0, p.y - 0.7, p.z - axis_z).length() - 0.04;
            deepest = deepest.max(-off_leg);
            let over = p.distance(rest[i]) - rig.max_distance[i].unwrap_or(f32::INFINITY);
            if off_leg > 0.01 + 0.005 {
                loose = loose.max(over);
            } else {
                carried = carried.max(over);
            }
        }
        for &(a, b, l) in &springs {
            stretch = stretch.max(x[a].distance(x[b]) / l - 1.0);
        }
    }
    println!(
        "deepest in the leg {deepest:.4} m; stretch {:.1}%; past the max distance: {loose:.4} m \
         off the leg, {carried:.3} m on it",
        stretch * 100.0
    );
    assert!(carried > 0.03, "the leg carries rows past their max distances ({carried} m)");
    assert!(deepest < 1e-3, "no node inside the leg ({deepest} m)");
    assert!(stretch < 0.10, "stretch ≤ 10% ({:.1}%)", stretch * 100.0);
    assert!(loose < 0.05, "off the leg, within a row of the max distances ({loose} m over)");
}
