//! Models built in code for the tests and benchmarks of springmesh-core.
#![allow(dead_code)] // Each test binary uses a different subset.

pub mod files;

use glam::Vec3;
use springmesh_core::{Face, Node, NodeId, Spring, SpringKind, SpringModel};

/// Which springs a [`grid_cloth`] gets.
#[derive(Clone, Copy, Debug)]
pub struct GridSprings {
    /// Stiffness (N/m) of every spring.
    pub stiffness: f32,
    /// Damping (N·s/m) of every spring.
    pub damping: f32,
}

/// An n × n horizontal cloth in the x–z plane at height 0, `spacing` metres apart, each node of
/// `node_mass` kg, with structural springs (to the right and front neighbours), shear springs
/// (both diagonals of each cell) and skip-one bend springs (two to the right, two to the front),
/// two triangles per cell, and the two corners of the edge z = 0 anchored.
///
/// Spring counts: structural 2n(n−1), shear 2(n−1)², bend 2n(n−2); n = 128 gives 97,026.
pub fn grid_cloth(n: usize, spacing: f32, node_mass: f32, springs: GridSprings) -> SpringModel {
    let mut m = SpringModel::default();
    let id = |i: usize, j: usize| NodeId((j * n + i) as u32);
    for j in 0..n {
        for i in 0..n {
            m.nodes.push(Node {
                position: Vec3::new(i as f32 * spacing, 0.0, j as f32 * spacing),
                mass: node_mass,
            });
        }
    }
    let add = |m: &mut SpringModel, a: NodeId, b: NodeId, kind: SpringKind| {
        let rest = m.distance(a, b).unwrap_or(0.0);
        m.springs
            .push(Spring::new(a, b, rest, springs.stiffness, kind).with_damping(springs.damping));
    };
    for j in 0..n {
        for i in 0..n {
            if i + 1 < n {
                add(&mut m, id(i, j), id(i + 1, j), SpringKind::Stretch);
            }
            if j + 1 < n {
                add(&mut m, id(i, j), id(i, j + 1), SpringKind::Stretch);
            }
            if i + 1 < n && j + 1 < n {
                add(&mut m, id(i, j), id(i + 1, j + 1), SpringKind::Vicinity);
                add(&mut m, id(i + 1, j), id(i, j + 1), SpringKind::Vicinity);
                m.faces.push(Face { nodes: [id(i, j), id(i, j + 1), id(i + 1, j)], uvs: None });
                m.faces.push(Face {
                    nodes: [id(i + 1, j), id(i, j + 1), id(i + 1, j + 1)],
                    uvs: None,
                });
            }
            if i + 2 < n {
                add(&mut m, id(i, j), id(i + 2, j), SpringKind::Bend);
            }
            if j + 2 < n {
                add(&mut m, id(i, j), id(i, j + 2), SpringKind::Bend);
            }
        }
    }
    m.anchors = vec![id(0, 0), id(n - 1, 0)];
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
/// to an anchored node at the origin; no gravity, no damping.
pub fn oscillator(mass: f32, k: f32, rest: f32, start: Vec3) -> SpringModel {
    let mut m = SpringModel::default();
    m.nodes.push(Node { position: Vec3::ZERO, mass });
    m.nodes.push(Node { position: start, mass });
    m.springs.push(Spring::new(NodeId(0), NodeId(1), rest, k, SpringKind::Manual));
    m.anchors = vec![NodeId(0)];
    m.params.gravity = Vec3::ZERO;
    m.params.damping = 0.0;
    m
}
