//! A 1 m square cloth of 25 × 25 nodes, starting horizontal, held at the two corners of its
//! back edge; quads keep both diagonals (shear) and bend springs cross every edge.

use super::build::{convert, grid_mesh};
use crate::ConvertOptions;
use glam::Vec3;
use springmesh_core::{NodeId, SpringModel};

/// Nodes per side.
const N: usize = 25;

pub fn model() -> SpringModel {
    let spacing = 1.0 / (N - 1) as f32;
    let mesh = grid_mesh(N, N, Vec3::new(-0.5, 1.5, -0.5), Vec3::X * spacing, Vec3::Z * spacing);
    let options = ConvertOptions { quad_shear: true, ..ConvertOptions::default() };
    let mut m = convert(mesh, &options, "cloth");
    m.anchors = vec![NodeId(0), NodeId(N as u32 - 1)];
    m
}
