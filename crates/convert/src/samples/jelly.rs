//! A 30 cm jelly cube: a 6 × 6 × 6 lattice whose cells are braced by both diagonals of every
//! face and all four body diagonals, so no cell can shear flat (a lattice of edges alone can:
//! each cell is a mechanism). Its bottom face is held, as if stuck to a plate (held at its four
//! corners only, its soft 60 N/m springs let the bottom sag between them by a tenth of its size).

use super::build::join;
use glam::Vec3;
use springmesh_core::{Face, Node, NodeId, SpringKind, SpringModel};

/// Nodes per side.
const N: usize = 6;

pub fn model() -> SpringModel {
    let spacing = 0.3 / (N - 1) as f32;
    let mut m = SpringModel::default();
    let id = |i: usize, j: usize, k: usize| NodeId(((k * N + j) * N + i) as u32);
    for k in 0..N {
        for j in 0..N {
            for i in 0..N {
                let position = Vec3::new(i as f32, j as f32 + 2.0, k as f32) * spacing
                    - Vec3::new(0.15, 0.0, 0.15);
                m.nodes.push(Node { position, mass: 0.005 });
            }
        }
    }
    // Every pair of corners of every cell, once: 12 edges (shared between cells, so each is
    // added only from the cell where it is the lowest), 12 face and 4 body diagonals.
    let mut pairs = Vec::new();
    for k in 0..N - 1 {
        for j in 0..N - 1 {
            for i in 0..N - 1 {
                let corners: Vec<NodeId> =
                    (0..8).map(|c| id(i + (c & 1), j + ((c >> 1) & 1), k + (c >> 2))).collect();
                for (x, &a) in corners.iter().enumerate() {
                    for &b in &corners[x + 1..] {
                        pairs.push(if a < b { (a, b) } else { (b, a) });
                    }
                }
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    for (a, b) in pairs {
        let along_an_axis = m.distance(a, b).is_some_and(|d| d < 1.01 * spacing);
        let kind = if along_an_axis { SpringKind::Stretch } else { SpringKind::Vicinity };
        join(&mut m, a, b, 60.0, 0.02, kind);
    }
    add_surface(&mut m, id);
    m.anchors =
        (0..N).flat_map(|k| (0..N).map(move |i| (i, k))).map(|(i, k)| id(i, 0, k)).collect();
    m
}

/// The six faces of the cube as outward-wound triangles.
fn add_surface(m: &mut SpringModel, id: impl Fn(usize, usize, usize) -> NodeId) {
    let last = N - 1;
    // For each face: a function from (u, v) in the face grid to a node, wound outward.
    let faces: [Box<dyn Fn(usize, usize) -> NodeId>; 6] = [
        Box::new(|u, v| id(0, v, u)),
        Box::new(|u, v| id(last, u, v)),
        Box::new(|u, v| id(u, 0, v)),
        Box::new(|u, v| id(v, last, u)),
        Box::new(|u, v| id(v, u, 0)),
        Box::new(|u, v| id(u, v, last)),
    ];
    for f in faces {
        for u in 0..last {
            for v in 0..last {
                let (a, b, c, d) = (f(u, v), f(u + 1, v), f(u + 1, v + 1), f(u, v + 1));
                m.faces.push(Face { nodes: [a, b, c], uvs: None });
                m.faces.push(Face { nodes: [a, c, d], uvs: None });
            }
        }
    }
}
