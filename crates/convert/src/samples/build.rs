//! Small helpers shared by the samples.

use crate::{ConvertOptions, RawMesh, convert_mesh};
use glam::{Vec2, Vec3};
use springmesh_core::{Node, NodeId, Spring, SpringKind, SpringModel};
use std::path::Path;

/// A grid mesh of `nx` × `ny` nodes at `origin + i·du + j·dv`, as quads (split along one
/// diagonal) with uvs from (0, 0) to (1, 1). Node (i, j) is vertex `j·nx + i`.
pub fn grid_mesh(nx: usize, ny: usize, origin: Vec3, du: Vec3, dv: Vec3) -> RawMesh {
    let mut mesh = RawMesh::default();
    for j in 0..ny {
        for i in 0..nx {
            mesh.positions.push(origin + du * i as f32 + dv * j as f32);
            mesh.uvs.push(Vec2::new(i as f32 / (nx - 1) as f32, j as f32 / (ny - 1) as f32));
        }
    }
    let id = |i: usize, j: usize| (j * nx + i) as u32;
    for j in 0..ny - 1 {
        for i in 0..nx - 1 {
            let q = [id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)];
            mesh.quads.push(q);
            mesh.push_triangle([q[0], q[1], q[2]], Some([q[0], q[1], q[2]]));
            mesh.push_triangle([q[0], q[2], q[3]], Some([q[0], q[2], q[3]]));
        }
    }
    mesh
}

/// Converts a mesh the samples build themselves; these always convert.
pub fn convert(mesh: RawMesh, options: &ConvertOptions, name: &str) -> SpringModel {
    match convert_mesh(mesh, options, Path::new(name)) {
        Ok(c) => c.model.into_inner(),
        // The sample meshes are made in code and have triangles, finite positions and valid
        // options; this arm is unreachable but keeps the samples free of panics.
        Err(_) => SpringModel::default(),
    }
}

/// Appends a chain of nodes from `from` (exclusive) towards `to` (inclusive), `segments` long,
/// starting at the existing node `start`, with stretch springs of `k` N/m and skip-one bend
/// springs of `bend` N/m. Returns the chain's nodes, `start` first.
pub fn chain(
    model: &mut SpringModel,
    start: NodeId,
    to: Vec3,
    segments: usize,
    mass: f32,
    k: f32,
    bend: f32,
) -> Vec<NodeId> {
    let from = model.nodes.positions()[start.index()];
    let mut ids = vec![start];
    for s in 1..=segments {
        let position = from.lerp(to, s as f32 / segments as f32);
        ids.push(model.nodes.push(Node { position, mass }));
    }
    for w in ids.windows(2) {
        join(model, w[0], w[1], k, 0.05, SpringKind::Stretch);
    }
    for w in ids.windows(3) {
        join(model, w[0], w[2], bend, 0.02, SpringKind::Bend);
    }
    ids
}

/// Adds a spring between `a` and `b` at their current distance.
pub fn join(
    model: &mut SpringModel,
    a: NodeId,
    b: NodeId,
    stiffness: f32,
    damping: f32,
    kind: SpringKind,
) {
    let rest = model.distance(a, b).unwrap_or(0.0);
    model.springs.push(Spring::new(a, b, rest, stiffness, kind).with_damping(damping));
}
