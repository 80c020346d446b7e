//! A heavy ball tearing a cloth: a 1 m square drum of 25 × 25 nodes held all round its edge,
//! with a 3 kg ball of 42 nodes (10 cm across) lying on its middle, tied to the nine cloth
//! nodes under it, 1.2 m above the ground. The cloth's springs break when stretched by a
//! tenth: the ball's weight tears the middle open (about 80 springs break within the first
//! second) and the ball drops through to the ground.

use super::balloon::icosphere;
use super::build::{convert, grid_mesh, join};
use crate::{ConvertOptions, MassMode};
use glam::Vec3;
use springmesh_core::model::Ground;
use springmesh_core::{NodeId, SpringKind, SpringModel};

/// Cloth nodes per side.
const N: usize = 25;
/// Height of the cloth (m).
const HEIGHT: f32 = 1.2;
/// Radius of the ball (m).
const BALL: f32 = 0.05;
/// Longest a cloth spring stretches before it breaks, as a multiple of its rest length.
const BREAKS_AT: f32 = 1.1;

pub fn model() -> SpringModel {
    let spacing = 1.0 / (N - 1) as f32;
    let origin = Vec3::new(-0.5, HEIGHT, -0.5);
    let mesh = grid_mesh(N, N, origin, Vec3::X * spacing, Vec3::Z * spacing);
    let options = ConvertOptions { quad_shear: true, ..ConvertOptions::default() };
    let mut cloth = convert(mesh, &options, "tear");
    let mut springs: Vec<_> = cloth.springs.iter().collect();
    for s in &mut springs {
        s.break_max = Some(s.rest_length * BREAKS_AT);
    }
    cloth.springs = springs.into_iter().collect();
    let edge = |i: usize, j: usize| i == 0 || j == 0 || i == N - 1 || j == N - 1;
    cloth.anchors = (0..N * N).filter(|&k| edge(k % N, k / N)).map(|k| NodeId(k as u32)).collect();

    let centre = Vec3::new(0.0, HEIGHT + BALL + 0.005, 0.0);
    let ball_options = ConvertOptions {
        mass: MassMode::TotalEven { mass: 3.0 },
        stretch: crate::SpringSettings { stiffness: 2e5, damping: 1.0 },
        bend_springs: crate::SpringSettings { stiffness: 2e5, damping: 1.0 },
        ..ConvertOptions::default()
    };
    let ball = convert(icosphere(centre, BALL, 1), &ball_options, "ball");
    let offset = cloth.nodes.len() as u32;
    for n in ball.nodes.iter() {
        cloth.nodes.push(n);
    }
    for mut s in ball.springs.iter() {
        s.a = NodeId(s.a.0 + offset);
        s.b = NodeId(s.b.0 + offset);
        cloth.springs.push(s);
    }
    for f in ball.faces.iter() {
        let mut f = f;
        f.nodes = f.nodes.map(|n| NodeId(n.0 + offset));
        f.uvs = None;
        cloth.faces.push(f);
    }
    // Tie the ball's lowest node to the nine cloth nodes around the middle.
    let lowest = (offset..cloth.nodes.len() as u32)
        .map(NodeId)
        .min_by(|a, b| {
            let p = cloth.nodes.positions();
            p[a.index()].y.total_cmp(&p[b.index()].y)
        })
        .unwrap_or(NodeId(offset));
    let middle = N / 2;
    for dj in 0..3 {
        for di in 0..3 {
            let k = (middle + dj - 1) * N + (middle + di - 1);
            join(&mut cloth, lowest, NodeId(k as u32), 2e4, 1.0, SpringKind::Manual);
        }
    }
    cloth.params.ground = Some(Ground::default());
    // It must stretch a tenth to tear; tethers would hold it within their slack (0.1%).
    cloth.params.tethers = None;
    cloth
}
