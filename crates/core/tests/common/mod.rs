//! Models built in code for the tests and benchmarks of springmesh-core.
#![allow(dead_code)] // Each test binary uses a different subset.

pub mod files;

use glam::Vec3;
use springmesh_core::model::Tethers;
use springmesh_core::{Face, Node, NodeId, Spring, SpringKind, SpringModel};

/// Which springs a [`grid_cloth`] gets.
#[derive(Clone, Copy, Debug)]
pub struct GridSprings {
    /// Stiffness (N/m) of every spring.
    pub stiffness: f32,
    /// Damping (N·s/m) of every spring.
    pub damping: f32,
}

/// A sheet of `columns` × `rows` nodes, node (i, j) at `position(i, j)`, each of `node_mass`
/// kg, with structural springs (to the next node along i and along j), shear springs (both
/// diagonals of each cell) and skip-one bend springs, and two triangles per cell wound
/// (i, j), (i, j + 1), (i + 1, j) and (i + 1, j), (i, j + 1), (i + 1, j + 1). No anchors.
pub fn grid(
    columns: usize,
    rows: usize,
    node_mass: f32,
    springs: GridSprings,
    position: impl Fn(usize, usize) -> Vec3,
) -> SpringModel {
    let mut m = SpringModel::default();
    let id = |i: usize, j: usize| NodeId((j * columns + i) as u32);
    for j in 0..rows {
        for i in 0..columns {
            m.nodes.push(Node { position: position(i, j), mass: node_mass });
        }
    }
    let add = |m: &mut SpringModel, a: NodeId, b: NodeId, kind: SpringKind| {
        let rest = m.distance(a, b).unwrap_or(0.0);
        m.springs
            .push(Spring::new(a, b, rest, springs.stiffness, kind).with_damping(springs.damping));
    };
    for j in 0..rows {
        for i in 0..columns {
            if i + 1 < columns {
                add(&mut m, id(i, j), id(i + 1, j), SpringKind::Stretch);
            }
            if j + 1 < rows {
                add(&mut m, id(i, j), id(i, j + 1), SpringKind::Stretch);
            }
            if i + 1 < columns && j + 1 < rows {
                add(&mut m, id(i, j), id(i + 1, j + 1), SpringKind::Vicinity);
                add(&mut m, id(i + 1, j), id(i, j + 1), SpringKind::Vicinity);
                m.faces.push(Face { nodes: [id(i, j), id(i, j + 1), id(i + 1, j)], uvs: None });
                m.faces.push(Face {
                    nodes: [id(i + 1, j), id(i, j + 1), id(i + 1, j + 1)],
                    uvs: None,
                });
            }
            if i + 2 < columns {
                add(&mut m, id(i, j), id(i + 2, j), SpringKind::Bend);
            }
            if j + 2 < rows {
                add(&mut m, id(i, j), id(i, j + 2), SpringKind::Bend);
            }
        }
    }
    m
}

/// An n × n horizontal cloth in the x–z plane at height 0, `spacing` metres apart, each node of
/// `node_mass` kg, with the springs and triangles of [`grid`] (normals up), and the two corners
/// of the edge z = 0 anchored; tethers on, as the converter makes a sheet.
///
/// Spring counts: structural 2n(n−1), shear 2(n−1)², bend 2n(n−2); n = 128 gives 97,026.
pub fn grid_cloth(n: usize, spacing: f32, node_mass: f32, springs: GridSprings) -> SpringModel {
    let mut m = grid(n, n, node_mass, springs, |i, j| {
        Vec3::new(i as f32 * spacing, 0.0, j as f32 * spacing)
    });
    m.anchors = vec![NodeId(0), NodeId(n as u32 - 1)];
    m.params.tethers = Some(Tethers::default());
    m
}

/// `model` with its nodes numbered in a shuffled order (a Fisher–Yates shuffle driven by
/// xorshift from `seed`), as a mesh exported with no care for vertex order has them. A grid
/// shuffled so has no long runs of springs at one index offset: its springs stay out of the
/// explicit pass's bands, in the colour batches.
pub fn shuffled(model: &SpringModel, seed: u64) -> SpringModel {
    let n = model.nodes.len();
    let mut state = seed | 1;
    let mut order: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        order.swap(i, (state % (i as u64 + 1)) as usize);
    }
    let new = |id: NodeId| NodeId(order[id.index()]);
    let mut m = model.clone();
    for (i, node) in model.nodes.iter().enumerate() {
        let to = new(NodeId(i as u32)).index();
        m.nodes.positions_mut()[to] = node.position;
        m.nodes.masses_mut()[to] = node.mass;
    }
    m.springs = model.springs.iter().map(|s| Spring { a: new(s.a), b: new(s.b), ..s }).collect();
    for face in m.faces.nodes_mut() {
        *face = face.map(new);
    }
    m.anchors = model.anchors.iter().map(|&a| new(a)).collect();
    m
}

/// A chain of `nodes` nodes from `from` to `to` along a straight line, `mass` kg each, joined by
/// springs of `stiffness` N/m whose rest lengths add up to `length`; both ends anchored.
pub fn chain(
    nodes: usize,
    from: Vec3,
    to: Vec3,
    length: f32,
    mass: f32,
    stiffness: f32,
) -> SpringModel {
    let mut m = SpringModel::default();
    for i in 0..nodes {
        let t = i as f32 / (nodes - 1) as f32;
        m.nodes.push(Node { position: from.lerp(to, t), mass });
    }
    let rest = length / (nodes - 1) as f32;
    for i in 0..nodes - 1 {
        m.springs.push(Spring::new(
            NodeId(i as u32),
            NodeId(i as u32 + 1),
            rest,
            stiffness,
            SpringKind::Stretch,
        ));
    }
    m.anchors = vec![NodeId(0), NodeId(nodes as u32 - 1)];
    m
}

/// One free node of `mass` kg at `start` on a spring of rest length `rest` and stiffness `k`
/// to an anchored node at the origin; no gravity, no damping, no tethers (the spring alone).
pub fn oscillator(mass: f32, k: f32, rest: f32, start: Vec3) -> SpringModel {
    let mut m = SpringModel::default();
    m.nodes.push(Node { position: Vec3::ZERO, mass });
    m.nodes.push(Node { position: start, mass });
    m.springs.push(Spring::new(NodeId(0), NodeId(1), rest, k, SpringKind::Manual));
    m.anchors = vec![NodeId(0)];
    m.params.gravity = Vec3::ZERO;
    m.params.damping = 0.0;
    m.params.tethers = None;
    m
}

/// A closed sphere of triangles wound outwards, `rings` bands from pole to pole of `segments`
/// quads each (triangles at the poles), on the sphere of `radius` around `center`. Every edge
/// is a stretch spring of `stiffness` N/m, and every pair of triangles sharing an edge gets a
/// bend spring across it; the `mass` kg is shared evenly by the nodes. No anchors.
///
/// Counts: (rings − 1)·segments + 2 nodes, 2·(rings − 1)·segments triangles.
pub fn uv_sphere(
    rings: u32,
    segments: u32,
    radius: f32,
    center: Vec3,
    mass: f32,
    stiffness: f32,
) -> SpringModel {
    use std::collections::BTreeMap;
    // Node 0 is the north pole, then the rings of `segments` nodes southwards, then the south
    // pole.
    let mut points = vec![Vec3::Y];
    for r in 1..rings {
        let (sin_t, cos_t) = (std::f32::consts::PI * r as f32 / rings as f32).sin_cos();
        for k in 0..segments {
            let (sin_p, cos_p) = (std::f32::consts::TAU * k as f32 / segments as f32).sin_cos();
            points.push(Vec3::new(sin_t * cos_p, cos_t, sin_t * sin_p));
        }
    }
    points.push(Vec3::NEG_Y);
    let south = points.len() as u32 - 1;
    let at = |r: u32, k: u32| 1 + (r - 1) * segments + k % segments;
    let mut triangles = Vec::new();
    for k in 0..segments {
        // Counter-clockwise seen from outside (φ turns from +x towards +z).
        triangles.push([0, at(1, k + 1), at(1, k)]);
        for r in 1..rings - 1 {
            let (a, b, c, d) = (at(r, k), at(r, k + 1), at(r + 1, k + 1), at(r + 1, k));
            triangles.push([a, b, c]);
            triangles.push([a, c, d]);
        }
        triangles.push([south, at(rings - 1, k), at(rings - 1, k + 1)]);
    }
    let mut m = SpringModel::default();
    let node_mass = mass / points.len() as f32;
    for p in &points {
        m.nodes.push(Node { position: center + *p * radius, mass: node_mass });
    }
    // Each directed edge a→b of a triangle, with the triangle's third corner.
    let mut opposite: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    for &[a, b, c] in &triangles {
        m.faces.push(Face { nodes: [a, b, c].map(NodeId), uvs: None });
        for (x, y, z) in [(a, b, c), (b, c, a), (c, a, b)] {
            opposite.insert((x, y), z);
        }
    }
    for (&(a, b), &c) in &opposite {
        if a < b {
            let (a, b) = (NodeId(a), NodeId(b));
            let rest = m.distance(a, b).unwrap_or(0.0);
            m.springs.push(Spring::new(a, b, rest, stiffness, SpringKind::Stretch));
            if let Some(&d) = opposite.get(&(b.0, a.0)) {
                let (c, d) = (NodeId(c), NodeId(d));
                let rest = m.distance(c, d).unwrap_or(0.0);
                m.springs.push(Spring::new(c, d, rest, stiffness, SpringKind::Bend));
            }
        }
    }
    m
}
