//! # The rig of a worn mesh: the skeleton and painted max distances
//!
//! A cloth a character wears (a cape) is skinned to the character's skeleton in the modeler
//! and exported with it (glTF: a skin's joints and inverse bind matrices, each vertex's
//! `JOINTS_0`/`WEIGHTS_0`). The converter keeps both in the model's
//! [`springmesh_core::model::Rig`], and reads how far each vertex may leave its skinned
//! position from a painted scalar attribute:
//!
//! - `_MAX_DISTANCE` (metres): Jolt's max distance, NvCloth's motion constraint radius,
//!   Unreal's MaxDistance map. 0 makes the node kinematic: it follows the skin exactly and is
//!   anchored (as `_PIN` makes it: a pinned vertex has max distance 0). So does any value under
//!   [`springmesh_core::model::KINEMATIC_DISTANCE`] (1 mm), stored as 0: a painted 0 reaches
//!   the file as 2.5e-8 or 1e-8 after the paint's arithmetic and the exporter's;
//! - vertices welded into one node take the smallest of their values (the strictest); a node
//!   without one is free;
//! - `_BACKSTOP_DISTANCE` and `_BACKSTOP_RADIUS` (metres): a sphere behind the node, towards
//!   the body, that it may not enter ([`springmesh_core::model::Backstop`]); a node painted a
//!   distance but no radius gets [`DEFAULT_BACKSTOP_RADIUS`]; welded vertices take the first
//!   vertex's values.
//!
//! Each node takes the joints and weights of the first vertex welded into it (welded
//! vertices share a position and, from a modeler, their weights).
//!
//! The skeleton's joints are put parents first (glTF does not promise that order) so that a
//! game can pose them in one pass.
//!
//! **The body.** The other meshes skinned to the same skeleton are the body the mesh is worn
//! on; the converter fits one capsule per joint to the body's vertices that follow that joint
//! most, stored as colliders riding on the joint ([`springmesh_core::model::JointCollider`]):
//!
//! ```text
//! axis  d = the joint's bone direction at rest (its +y, glTF's and Blender's convention)
//! centre c = the mean of the vertices
//! a, b  = c + d max(min_v (v − c)·d, (j − c)·d),   c + d max_v (v − c)·d
//! r     = max_v |(v − c) − ((v − c)·d) d|          (the farthest vertex from the axis)
//! ```
//!
//! with j the joint's position at rest: a part that turns about its joint (a thigh about the
//! hip) starts its axis there, not among its parent's vertices above it, where its far end
//! would sweep through the hips as the leg spreads (a root joint, which carries the figure,
//! keeps the whole part). So every vertex of that part past its joint is inside its capsule:
//! the cloth is kept off the drawn body, never let into it (a capsule bulges r past each end,
//! over the neighbouring part, which the neighbour's capsule covers anyway). A torso is wider than it is deep: one round capsule
//! wide enough for its shoulders would stand out behind its back, where a cape hangs. So when
//! the cross-section's half width a along its widest direction w (the principal axis of the
//! vertices' offsets from the axis) is more than [`FLAT`] times its half depth b, the part
//! gets two capsules side by side, their axes at c ± (a − b) w, each vertex held by the nearer
//! (r: the farthest vertex from its nearer axis).
//!
//! **A sparse body.** A joint the body leans on (some vertex has weight on it) but that fewer
//! than [`MIN_BODY_VERTICES`] vertices follow most — a body of cylinders with only their end
//! rings, whose spine has no vertex of its own — would get no capsule, and a cape sinks into
//! the torso there. Such a joint takes instead the points along the body's edges, sampled
//! [`BODY_SAMPLE_SPACING`] apart (at most [`MAX_BODY_SAMPLES`]), that are nearer its bone (the
//! joint to its children) than any other bone. A joint left with no capsule all the same is
//! named in the conversion's warnings.
//!
//! **The cloth at rest.** A capsule is round where the body is not: it stands out past a
//! tapering limb's thin end, over the neighbouring part by its radius, and past a flat chest's
//! sides. The artist modelled the cloth on the body at rest, outside it; a collider that holds
//! some of the cloth's free nodes at rest pushes them out at the first step and for as long as
//! a kinematic neighbour holds them back in (a skirt's upper rows inside the thigh capsules,
//! bulging up into the hips; a scarf's first row inside the chest's). So each capsule is shrunk
//! until no free node at rest is within it plus the node's radius and [`REST_CLEARANCE`]; one
//! left under [`MIN_RADIUS`] is dropped (the report counts both).

use crate::mesh::RawMesh;
use glam::{Mat4, Vec3};
use springmesh_core::geometry::along_segment;
use springmesh_core::model::{
    Backstop, Joint, JointCollider, Obstacle, RIG_WEIGHTS, Rig, Shape, Surface, is_kinematic,
};

/// Sub-steps per 60 Hz frame of a worn mesh. Its max distances hold it near its skin and its
/// strain limit has the last word in each sub-step ([`springmesh_core`]'s
/// `sim::constraints::strain`), so it needs fewer than a free cloth's 16. Measured on the
/// Blender-made figures (`tests/worn_figure.rs`, played in steps of 1/24, 1/48, 1/72 and
/// 1/96 s), the walker's cape, whose hem the legs strike at the run's dead stop, stretched at
/// most 5.9, 5.5, 5.2 and 5.1% with 8 sub-steps, 6.1, 5.7, 5.7 and 5.6% with 6, and 6.7, 6.9,
/// 6.0 and 6.4% with 4; every other garment and clip at most 6.8% with any of them (the
/// skirt's high kick aside: see its test). Six cost the cape 0.90 and the skirt 0.78 times
/// the instructions of a frame with eight, four 0.86 and 0.69 (self-collision's own bound
/// adds sub-steps to the cape's either way): six keep more of the margin under the 10% a
/// cloth may stretch, and more sub-steps for limbs faster than these figures'. The runner,
/// whose shins flick its long cape's hem as it runs at 4.5 m/s, is where fewer fail (steps of 1/24 and
/// 1/48 s): with five its cape went 10.8 mm past its max distances and 8.3 mm into a leg at
/// 1/24 s (six: 7.5 and 1.8 mm); with four, 10.9 mm past them and 11.8 mm deep at 1/48 s, and
/// its scarf crossed itself (5 pairs of triangles). The walker's garments and the dancer's
/// leap passed with either. Four, and more while a limb near the cloth moves against it
/// faster than one mean edge a sub-step, cost the skirt 13% and the cape 4% fewer
/// instructions a frame (the dancer's limbs never asked for more) and held the runner's cape
/// within 1 cm of its max distances at steps of 1/24 to 1/120 s, but 9.7 mm deep in a leg at
/// 1/48 s, and not better for asking more: at a quarter of an edge a sub-step it went 11.4 mm
/// past them. Six hold it with the most room (7.5 mm past, 1.8 mm deep at worst).
pub const WORN_SUBSTEPS: u32 = 6;

pub use springmesh_core::model::painted::{BACKSTOP_DISTANCE, BACKSTOP_RADIUS, MAX_DISTANCE};

/// Multiplies the painted distances of `mesh` (metres, like its positions) by `s`: the
/// mesh was scaled by `s` ([`RawMesh::prepare`]).
pub(crate) fn scale_distances(mesh: &mut RawMesh, s: f32) {
    for name in [MAX_DISTANCE, BACKSTOP_DISTANCE, BACKSTOP_RADIUS] {
        if let Some(values) = mesh.attributes.get_mut(name) {
            values.iter_mut().for_each(|v| *v *= s);
        }
    }
}

/// The back-stop radius of a node painted a distance but no radius (m): a sphere this large is
/// nearly flat under a cloth's few centimetres.
pub const DEFAULT_BACKSTOP_RADIUS: f32 = 1.0;

/// `joints` (name, parent index, inverse bind) put parents first, keeping their order
/// otherwise; and for each joint of the input, its index in the result. A parent that is not
/// an earlier joint of a chain (a cycle, an index out of range) is dropped: the joint is a root.
pub(crate) fn parents_first(joints: Vec<(String, Option<usize>, Mat4)>) -> (Vec<Joint>, Vec<u16>) {
    let n = joints.len();
    let mut depth = vec![0usize; n];
    for (k, d) in depth.iter_mut().enumerate() {
        let mut at = k;
        // Walk up at most n steps: a longer chain is a cycle.
        while let Some(p) = joints.get(at).and_then(|j| j.1).filter(|&p| p < n) {
            *d += 1;
            at = p;
            if *d > n {
                break;
            }
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&k| depth[k]);
    let mut new_index = vec![0u16; n];
    for (new, &old) in order.iter().enumerate() {
        new_index[old] = new as u16;
    }
    let skeleton = order
        .iter()
        .map(|&old| {
            let (name, parent, inverse_bind) = &joints[old];
            let parent = parent.filter(|&p| p < n && depth[old] <= n).map(|p| new_index[p]);
            let parent = parent.filter(|&p| usize::from(p) < usize::from(new_index[old]));
            Joint { name: name.clone(), parent, inverse_bind: *inverse_bind }
        })
        .collect();
    (skeleton, new_index)
}

/// The rig of a model of `nodes` nodes welded from `mesh` (`node_of[v]`: vertex v's node),
/// `pinned[i]` for the nodes painted as pins; `None` when the mesh has no skeleton.
pub(crate) fn rig(
    mesh: &RawMesh,
    node_of: &[Option<u32>],
    nodes: usize,
    pinned: &[bool],
) -> Option<Rig> {
    if mesh.skeleton.is_empty() {
        return None;
    }
    let mut bound = vec![false; nodes];
    let mut rig = Rig {
        joints: mesh.skeleton.clone(),
        node_joints: vec![[0; RIG_WEIGHTS]; nodes],
        node_weights: vec![[0.0; RIG_WEIGHTS]; nodes],
        max_distance: vec![None; nodes],
        backstop: Vec::new(),
        colliders: character_capsules((&mesh.character, &mesh.character_triangles), &mesh.skeleton),
    };
    let painted = mesh.attributes.get(MAX_DISTANCE);
    for (v, node) in node_of.iter().enumerate() {
        let Some(i) = node.map(|n| n as usize).filter(|&i| i < nodes) else { continue };
        if let Some(&(joints, weights)) = mesh.joint_weights.get(v)
            && !bound[i]
        {
            bound[i] = true;
            (rig.node_joints[i], rig.node_weights[i]) = (joints, weights);
        }
        if let Some(&r) = painted.and_then(|p| p.get(v)).filter(|r| r.is_finite()) {
            let r = if is_kinematic(Some(r)) { 0.0 } else { r };
            rig.max_distance[i] = Some(rig.max_distance[i].map_or(r, |m: f32| m.min(r)));
        }
    }
    for (r, _) in rig.max_distance.iter_mut().zip(pinned).filter(|(_, p)| **p) {
        *r = Some(0.0);
    }
    if let Some(distances) = mesh.attributes.get(BACKSTOP_DISTANCE) {
        let radii = mesh.attributes.get(BACKSTOP_RADIUS);
        rig.backstop = vec![None; nodes];
        for (v, node) in node_of.iter().enumerate() {
            let Some(i) = node.map(|n| n as usize).filter(|&i| i < nodes) else { continue };
            let distance = distances.get(v).copied().filter(|d| d.is_finite());
            let radius =
                radii.and_then(|r| r.get(v)).copied().filter(|r| r.is_finite() && *r > 0.0);
            if let (Some(distance), None) = (distance, rig.backstop[i]) {
                let radius = radius.unwrap_or(DEFAULT_BACKSTOP_RADIUS);
                rig.backstop[i] = Some(Backstop { distance, radius });
            }
        }
    }
    Some(rig)
}

/// A vertex of the body a mesh is worn on: its rest position, joints and weights.
type CharacterVertex = (Vec3, [u16; 4], [f32; 4]);

/// Fewest body vertices a joint needs for a capsule of its own.
pub const MIN_BODY_VERTICES: usize = 4;

/// One capsule per joint around the body's vertices `body` (rest position, joints, weights)
/// that follow it most (module doc).
pub(crate) fn character_capsules(
    (body, triangles): (&[CharacterVertex], &[[u32; 3]]),
    skeleton: &[Joint],
) -> Vec<JointCollider> {
    let mut parts: Vec<Vec<Vec3>> = vec![Vec::new(); skeleton.len()];
    let mut weighs = vec![false; skeleton.len()];
    for (p, joints, weights) in body {
        for (&j, _) in joints.iter().zip(weights).filter(|(_, w)| **w > 0.0) {
            if let Some(w) = weighs.get_mut(usize::from(j)) {
                *w = true;
            }
        }
        let most = (0..RIG_WEIGHTS).max_by(|&a, &b| weights[a].total_cmp(&weights[b]));
        if let Some(part) =
            most.filter(|&k| weights[k] > 0.0).and_then(|k| parts.get_mut(usize::from(joints[k])))
        {
            part.push(*p);
        }
    }
    // A joint the body leans on that too few vertices follow most (a body of cylinders with
    // only their end rings) takes the points along the body's edges nearest its bone.
    let sparse: Vec<bool> =
        weighs.iter().zip(&parts).map(|(&w, p)| w && p.len() < MIN_BODY_VERTICES).collect();
    if sparse.contains(&true) {
        let samples = edge_samples(body, triangles);
        for (joint, along) in nearest_bones(&samples, skeleton).into_iter().enumerate() {
            if sparse.get(joint) == Some(&true) {
                parts[joint] = along;
            }
        }
    }
    let mut out = Vec::new();
    for (joint, (part, j)) in parts.iter().zip(skeleton).enumerate() {
        let rest = j.inverse_bind.inverse();
        let Some(d) = rest.y_axis.truncate().try_normalize() else { continue };
        if part.len() < MIN_BODY_VERTICES {
            continue;
        }
        // A child turns about its joint; a root carries the whole figure.
        let pivot = j.parent.map(|_| rest.w_axis.truncate());
        for shape in fit(part, (pivot, d)) {
            if shape_is_finite(&shape) {
                let collider = Obstacle { shape, surface: Surface::default() };
                out.push(JointCollider { joint: joint as u16, collider });
            }
        }
    }
    out
}

/// Spacing of the points a sparse body's edges are sampled at (m), to fit capsules along
/// bones no vertex follows most: a tenth of a slim limb's girth.
pub const BODY_SAMPLE_SPACING: f32 = 0.02;

/// Most points a body's edges are sampled at: the spacing grows past [`BODY_SAMPLE_SPACING`]
/// on a body whose edges are longer in all than this many times it, so that the work stays
/// bounded by the file's size.
pub const MAX_BODY_SAMPLES: usize = 100_000;

/// Points along every edge of the body's triangles (indices into `body`), at most
/// [`BODY_SAMPLE_SPACING`] apart, their ends included; at most about [`MAX_BODY_SAMPLES`].
fn edge_samples(body: &[CharacterVertex], triangles: &[[u32; 3]]) -> Vec<Vec3> {
    let at = |v: u32| body.get(v as usize).map(|b| b.0);
    let edges = || {
        triangles
            .iter()
            .flat_map(|&[a, b, c]| [(a, b), (b, c), (c, a)])
            .filter_map(move |(a, b)| Some((at(a)?, at(b)?)))
    };
    let total: f32 = edges().map(|(a, b)| a.distance(b)).sum();
    let spacing = BODY_SAMPLE_SPACING.max(total / MAX_BODY_SAMPLES as f32);
    let mut out = Vec::new();
    for (a, b) in edges() {
        let n = (a.distance(b) / spacing).ceil().clamp(1.0, MAX_BODY_SAMPLES as f32) as usize;
        out.extend((0..=n).map(|k| a.lerp(b, k as f32 / n as f32)));
    }
    out
}

/// `points` shared out among the joints of `skeleton`, each point to the joint whose bone is
/// nearest it: the segment from the joint at rest to its children's mean (the joint itself
/// for a joint without children).
fn nearest_bones(points: &[Vec3], skeleton: &[Joint]) -> Vec<Vec<Vec3>> {
    let origin = |j: &Joint| j.inverse_bind.inverse().w_axis.truncate();
    let bones: Vec<(Vec3, Vec3)> = (0..skeleton.len())
        .map(|k| {
            let children: Vec<Vec3> = (skeleton.iter())
                .filter(|c| c.parent.is_some_and(|p| usize::from(p) == k))
                .map(origin)
                .collect();
            let a = origin(&skeleton[k]);
            let b = if children.is_empty() {
                a
            } else {
                children.iter().copied().sum::<Vec3>() / children.len() as f32
            };
            (a, b)
        })
        .collect();
    let mut parts = vec![Vec::new(); skeleton.len()];
    for &p in points {
        let off = |&(a, b): &(Vec3, Vec3)| p.distance_squared(a.lerp(b, along_segment(a, b, p)));
        let nearest = (0..bones.len()).min_by(|&i, &j| off(&bones[i]).total_cmp(&off(&bones[j])));
        if let Some(k) = nearest {
            parts[k].push(p);
        }
    }
    parts
}

/// The names of the joints that weigh on some vertex of the body `body` (rest position,
/// joints, weights) but have no collider among `colliders`: the parts of the body the cloth
/// can go through (too few vertices follow them most, as on a body of cylinders with only
/// their end rings, or their capsules were dropped to clear the cloth at rest).
pub(crate) fn bare_joints(
    body: &[CharacterVertex],
    skeleton: &[Joint],
    colliders: &[JointCollider],
) -> Vec<String> {
    let mut weighs = vec![false; skeleton.len()];
    for (_, joints, weights) in body {
        for (&j, _) in joints.iter().zip(weights).filter(|(_, w)| **w > 0.0) {
            if let Some(w) = weighs.get_mut(usize::from(j)) {
                *w = true;
            }
        }
    }
    for c in colliders {
        if let Some(w) = weighs.get_mut(usize::from(c.joint)) {
            *w = false;
        }
    }
    let bare = skeleton.iter().zip(weighs).filter(|(_, bare)| *bare);
    bare.map(|(j, _)| j.name.clone()).collect()
}

/// How much wider than deep a part's cross-section must be for two capsules side by side.
pub const FLAT: f32 = 1.25;

/// The capsules along `d` that hold every point of `part` (module doc): one, or two side by
/// side for a flat cross-section.
fn fit(part: &[Vec3], (pivot, d): (Option<Vec3>, Vec3)) -> Vec<Shape> {
    let c = part.iter().copied().sum::<Vec3>() / part.len() as f32;
    let (lo, hi) = part.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &v| {
        let along = (v - c).dot(d);
        (lo.min(along), hi.max(along))
    });
    // The axis starts no further back than the joint the part turns about.
    let lo = pivot.map_or(lo, |p| lo.max((p - c).dot(d).min(hi)));
    let across = |v: Vec3| (v - c) - d * (v - c).dot(d);
    // The cross-section's widest direction: the principal axis of the points' offsets.
    let (e1, e2) = d.any_orthonormal_pair();
    let (mut xx, mut yy, mut xy) = (0.0f32, 0.0f32, 0.0f32);
    for &v in part {
        let q = across(v);
        let (x, y) = (q.dot(e1), q.dot(e2));
        (xx, yy, xy) = (xx + x * x, yy + y * y, xy + x * y);
    }
    let angle = 0.5 * (2.0 * xy).atan2(xx - yy);
    let wide = e1 * angle.cos() + e2 * angle.sin();
    let narrow = d.cross(wide);
    let extent = |dir: Vec3| part.iter().map(|&v| across(v).dot(dir).abs()).fold(0.0f32, f32::max);
    let (a, b) = (extent(wide), extent(narrow));
    let axes: Vec<Vec3> =
        if a > FLAT * b { vec![c + wide * (a - b), c - wide * (a - b)] } else { vec![c] };
    // Each point belongs to its nearest axis; the radius holds every point.
    let off_axis = |v: Vec3, o: Vec3| ((v - o) - d * (v - o).dot(d)).length();
    let radius = part.iter().fold(0.0f32, |r, &v| {
        r.max(axes.iter().map(|&o| off_axis(v, o)).fold(f32::INFINITY, f32::min))
    });
    axes.into_iter()
        .map(|o| Shape::Capsule { a: o + d * lo, b: o + d * hi, radius: radius.max(1e-3) })
        .collect()
}

/// Most a body collider may reach to a free node of the cloth at rest (m): the node's radius
/// and a millimetre more.
pub const REST_CLEARANCE: f32 = 1e-3;

/// Shrinks every capsule of `colliders` so that none of the free nodes at rest `free` (the
/// cloth as the artist modelled it, on the body) is within it, with the nodes' radius `r` and
/// [`REST_CLEARANCE`] to spare; a collider left thinner than that is dropped. Returns how many
/// were shrunk and dropped (module doc, "The cloth at rest").
pub(crate) fn clear_of_rest(
    colliders: &mut Vec<JointCollider>,
    free: &[Vec3],
    r: f32,
) -> (usize, usize) {
    let (mut shrunk, before) = (0, colliders.len());
    colliders.retain_mut(|c| {
        let Shape::Capsule { a, b, radius } = &mut c.collider.shape else { return true };
        let nearest = free
            .iter()
            .map(|&p| p.distance(a.lerp(*b, along_segment(*a, *b, p))))
            .fold(f32::INFINITY, f32::min);
        let most = nearest - r - REST_CLEARANCE;
        if most < *radius {
            shrunk += 1;
            *radius = most;
        }
        *radius >= MIN_RADIUS
    });
    (shrunk, before - colliders.len())
}

/// The thinnest body collider kept (m): a centimetre, a finger.
pub const MIN_RADIUS: f32 = 0.01;

/// True when a fitted capsule's numbers are all finite.
fn shape_is_finite(shape: &Shape) -> bool {
    matches!(*shape, Shape::Capsule { a, b, radius } if a.is_finite() && b.is_finite() && radius.is_finite())
}

/// The nodes of `rig` that follow the skin exactly: skinned, with max distance 0.
pub(crate) fn kinematic(rig: &Rig) -> impl Iterator<Item = u32> + '_ {
    let nodes = rig.max_distance.iter().zip(&rig.node_weights).enumerate();
    nodes
        .filter(|(_, (r, w))| is_kinematic(**r) && w.iter().sum::<f32>() > 0.0)
        .map(|(i, _)| i as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joints_are_put_parents_first_and_their_indices_mapped() {
        // Given child first: Hand (parent Arm), Arm (parent Root), Root.
        let m = Mat4::IDENTITY;
        let joints = vec![
            ("Hand".to_string(), Some(1), m),
            ("Arm".to_string(), Some(2), m),
            ("Root".to_string(), None, m),
        ];
        let (skeleton, index) = parents_first(joints);
        let names: Vec<&str> = skeleton.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names, ["Root", "Arm", "Hand"]);
        assert_eq!(index, [2, 1, 0]);
        assert_eq!(skeleton.iter().map(|j| j.parent).collect::<Vec<_>>(), [None, Some(0), Some(1)]);
        // A cycle leaves roots, never a parent after its child.
        let cycle = vec![("A".to_string(), Some(1), m), ("B".to_string(), Some(0), m)];
        let (skeleton, _) = parents_first(cycle);
        assert!(
            skeleton.iter().enumerate().all(|(k, j)| j.parent.is_none_or(|p| usize::from(p) < k))
        );
    }

    #[test]
    fn welded_vertices_keep_the_strictest_max_distance_and_pins_are_kinematic() {
        let mut mesh = RawMesh {
            skeleton: vec![Joint { name: "J".into(), parent: None, inverse_bind: Mat4::IDENTITY }],
            joint_weights: vec![([0; 4], [1.0, 0.0, 0.0, 0.0]); 4],
            ..RawMesh::default()
        };
        mesh.attributes.insert(MAX_DISTANCE.into(), vec![0.2, 0.1, f32::NAN, 0.3]);
        mesh.attributes.insert(BACKSTOP_DISTANCE.into(), vec![0.01, 0.05, f32::NAN, 0.02]);
        mesh.attributes.insert(BACKSTOP_RADIUS.into(), vec![0.3, 0.3, f32::NAN, f32::NAN]);
        // Vertices 0 and 1 weld into node 0; 2 into node 1 (unpainted); 3 into node 2, pinned.
        let node_of = [Some(0), Some(0), Some(1), Some(2)];
        let rig = rig(&mesh, &node_of, 3, &[false, false, true]).expect("a skeleton");
        assert_eq!(rig.max_distance, vec![Some(0.1), None, Some(0.0)]);
        assert_eq!(kinematic(&rig).collect::<Vec<_>>(), [2]);
        let stop = |distance, radius| Some(Backstop { distance, radius });
        assert_eq!(rig.backstop, vec![stop(0.01, 0.3), None, stop(0.02, DEFAULT_BACKSTOP_RADIUS)]);
        assert!(super::rig(&RawMesh::default(), &node_of, 3, &[]).is_none());
    }

    #[test]
    fn painted_zeros_stored_as_float_noise_are_kinematic_and_stored_as_zero() {
        // As exporters write a painted 0: 1e-8 and 2.5e-8; a negative one; 0.9 mm, under the
        // tolerance; 2 mm and 5 cm, leashes.
        let painted = vec![1e-8, 2.5e-8, -1e-7, 9e-4, 2e-3, 0.05];
        let n = painted.len();
        let mut mesh = RawMesh {
            skeleton: vec![Joint { name: "J".into(), parent: None, inverse_bind: Mat4::IDENTITY }],
            joint_weights: vec![([0; 4], [1.0, 0.0, 0.0, 0.0]); n],
            ..RawMesh::default()
        };
        mesh.attributes.insert(MAX_DISTANCE.into(), painted);
        let node_of: Vec<Option<u32>> = (0..n as u32).map(Some).collect();
        let rig = rig(&mesh, &node_of, n, &[false; 6]).expect("a skeleton");
        let zero = Some(0.0);
        assert_eq!(rig.max_distance, vec![zero, zero, zero, zero, Some(2e-3), Some(0.05)]);
        assert_eq!(kinematic(&rig).collect::<Vec<_>>(), [0, 1, 2, 3]);
        let holds = rig.holds();
        assert_eq!((holds.kinematic, holds.leashed, holds.free), (4, 2, 0));
    }

    #[test]
    fn a_capsule_wraps_each_joints_part_of_the_body() {
        // A joint at (0, 1, 0) pointing up (+y); its part: two rings of radius 0.2 at y = 1
        // and 1.5, eight points each. The capsule runs up the axis from 1 to 1.5, radius 0.2.
        let joint = Joint {
            name: "Spine".into(),
            parent: None,
            inverse_bind: Mat4::from_translation(Vec3::Y).inverse(),
        };
        let ring = |y: f32| {
            (0..8).map(move |k| {
                let a = k as f32 * std::f32::consts::TAU / 8.0;
                (Vec3::new(0.2 * a.cos(), y, 0.2 * a.sin()), [0u16; 4], [1.0, 0.0, 0.0, 0.0])
            })
        };
        let body: Vec<_> = ring(1.0).chain(ring(1.5)).collect();
        let capsules = character_capsules((&body, &[]), &[joint]);
        assert_eq!(capsules.len(), 1);
        let Shape::Capsule { a, b, radius } = capsules[0].collider.shape else {
            panic!("a capsule")
        };
        assert!(
            (a - Vec3::Y).length() < 1e-5 && (b - Vec3::new(0.0, 1.5, 0.0)).length() < 1e-5,
            "{a} {b}"
        );
        assert!((radius - 0.2).abs() < 1e-5, "{radius}");
        assert!(
            character_capsules(
                (&body[..3], &[]),
                &capsules
                    .iter()
                    .map(|_| Joint {
                        name: String::new(),
                        parent: None,
                        inverse_bind: Mat4::IDENTITY
                    })
                    .collect::<Vec<_>>()
            )
            .is_empty(),
            "too few points"
        );
    }

    #[test]
    fn a_joint_that_weighs_on_the_body_but_gets_no_capsule_is_named() {
        // Two rings of eight points, the lower one on Hips, the upper one on Chest, each
        // leaning half on Spine: Spine follows no vertex most, so it gets no capsule; Head
        // weighs on nothing and is not named.
        let names = ["Hips", "Spine", "Chest", "Head"];
        let skeleton: Vec<Joint> = names
            .iter()
            .enumerate()
            .map(|(k, n)| Joint {
                name: (*n).into(),
                parent: k.checked_sub(1).map(|p| p as u16),
                inverse_bind: Mat4::from_translation(Vec3::Y * (1.0 + 0.2 * k as f32)).inverse(),
            })
            .collect();
        let ring = |y: f32, joint: u16| {
            (0..8).map(move |k| {
                let a = k as f32 * std::f32::consts::TAU / 8.0;
                let p = Vec3::new(0.15 * a.cos(), y, 0.1 * a.sin());
                (p, [joint, 1, 0, 0], [0.6, 0.4, 0.0, 0.0])
            })
        };
        let body: Vec<_> = ring(1.0, 0).chain(ring(1.4, 2)).collect();
        let capsules = character_capsules((&body, &[]), &skeleton);
        let joints: Vec<u16> = capsules.iter().map(|c| c.joint).collect();
        assert!(joints.contains(&0) && joints.contains(&2) && !joints.contains(&1), "{joints:?}");
        assert_eq!(bare_joints(&body, &skeleton, &capsules), ["Spine"]);
        assert!(bare_joints(&body[..0], &skeleton, &[]).is_empty(), "no body, nothing bare");
        // With its triangles, the rings joined into a tube: Spine takes the points along the
        // tube's sides nearest its bone (from 1.2 to 1.4 m), and the middle of the torso at
        // the spine joint, 12 cm in front of its axis, is inside a capsule (it was in none).
        let tube: Vec<[u32; 3]> = (0..8u32)
            .flat_map(|i| [[i, (i + 1) % 8, 8 + i], [(i + 1) % 8, 8 + (i + 1) % 8, 8 + i]])
            .collect();
        let inside = |capsules: &[JointCollider], p: Vec3| {
            capsules.iter().any(|c| {
                let Shape::Capsule { a, b, radius } = c.collider.shape else { return false };
                p.distance(a.lerp(b, along_segment(a, b, p))) <= radius
            })
        };
        let middle = Vec3::new(0.0, 1.2, 0.09);
        assert!(!inside(&capsules, middle), "without the triangles, the middle is in no capsule");
        let capsules = character_capsules((&body, &tube), &skeleton);
        assert!(capsules.iter().any(|c| c.joint == 1), "Spine has a capsule");
        assert!(inside(&capsules, middle), "the middle of the torso is held");
        assert!(bare_joints(&body, &skeleton, &capsules).is_empty());
    }

    #[test]
    fn a_flat_torso_gets_two_capsules_that_leave_its_back_free() {
        // An ellipse 0.6 m wide (x) and 0.2 m deep (z) at two heights: two capsules hold every
        // vertex, and a point 4 cm behind its back is outside both (one round capsule of the
        // half width, 0.3 m, would hold it).
        let ellipse = |y: f32| {
            (0..32).map(move |k| {
                let a = k as f32 * std::f32::consts::TAU / 32.0;
                (Vec3::new(0.3 * a.cos(), y, 0.1 * a.sin()), [0u16; 4], [1.0, 0.0, 0.0, 0.0])
            })
        };
        let torso: Vec<_> = ellipse(1.0).chain(ellipse(1.5)).collect();
        let inverse_bind = Mat4::from_translation(Vec3::Y).inverse();
        let joint = Joint { name: "Chest".into(), parent: None, inverse_bind };
        let capsules = character_capsules((&torso, &[]), &[joint]);
        assert_eq!(capsules.len(), 2);
        let inside = |p: Vec3| {
            capsules.iter().any(|c| {
                let Shape::Capsule { a, b, radius } = c.collider.shape else { return false };
                let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
                p.distance(a + (b - a) * t) <= radius + 1e-5
            })
        };
        assert!(torso.iter().all(|(p, ..)| inside(*p)), "every vertex held");
        assert!(!inside(Vec3::new(0.0, 1.25, 0.14)), "behind the back is outside");
    }
}
