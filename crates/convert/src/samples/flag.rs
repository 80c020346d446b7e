//! A 1.2 m × 0.8 m flag on a 2.4 m flexible pole.
//!
//! The pole is a thin triangular truss, 7 cm across: three nodes per level every 10 cm, joined
//! around each level, straight up, and crosswise between levels. A truss resists bending by
//! stretching its outer members, which springs do well; a single chain of nodes with
//! skip-one springs resists bending only to second order and folds under the flag. Its two
//! lowest levels are held, as if planted in the ground. The flag's edge nodes sit on the
//! pole's axis, each tied to the three nodes of its level.
//!
//! A 6 m/s breeze along the flag, gusting by 35%, makes it stream out and flutter (air drag and
//! lift on every face).
//!
//! The model steps with 96 Xpbd sub-steps per frame instead of the default 32: with one
//! constraint iteration per sub-step a correction travels about one level per sub-step, and
//! carrying the flag's bending moment up 25 levels needs more of them (at 32 the pole folds;
//! at 96 its top sways about 5 cm). The model is small, so this costs little.

use super::build::{convert, grid_mesh, join};
use crate::ConvertOptions;
use glam::Vec3;
use springmesh_core::model::Air;
use springmesh_core::{Node, NodeId, SpringKind, SpringModel};

/// Flag nodes along the pole.
const ROWS: usize = 9;
/// Flag nodes away from the pole.
const COLUMNS: usize = 13;
/// Distance (m) between flag nodes and between pole levels.
const SPACING: f32 = 0.1;
/// Pole levels: 0 m to 2.4 m.
const LEVELS: usize = 25;
/// Distance (m) of the pole's nodes from its axis.
const RADIUS: f32 = 0.04;
/// Xpbd sub-steps per frame (see the module docs).
const SUBSTEPS: u32 = 96;
/// Stiffness (N/m) of the pole's members. The flag (1.2 kg, its centre 0.6 m out) puts about
/// 7 N·m on the foot of the pole, about 120 N on a member 6 cm from the opposite one: at
/// 2e6 N/m that is 0.06 mm, and the pole's top sways a few centimetres, as a flagpole does.
const POLE_STIFFNESS: f32 = 2e6;

pub fn model() -> SpringModel {
    let top = SPACING * (LEVELS - 1) as f32;
    // Column 0 of the flag grid runs down the pole's axis from its top.
    let mesh = grid_mesh(
        COLUMNS,
        ROWS,
        Vec3::new(0.0, top, 0.0),
        Vec3::X * SPACING,
        Vec3::NEG_Y * SPACING,
    );
    let options = ConvertOptions { quad_shear: true, ..ConvertOptions::default() };
    let mut m = convert(mesh, &options, "flag");
    let levels: Vec<[NodeId; 3]> = (0..LEVELS)
        .map(|l| {
            [0.0f32, 1.0, 2.0].map(|k| {
                let angle = k * std::f32::consts::TAU / 3.0 + std::f32::consts::FRAC_PI_2;
                let position =
                    Vec3::new(angle.cos() * RADIUS, SPACING * l as f32, angle.sin() * RADIUS);
                m.nodes.push(Node { position, mass: 0.02 })
            })
        })
        .collect();
    let member =
        |m: &mut SpringModel, a, b| join(m, a, b, POLE_STIFFNESS, 0.1, SpringKind::Stretch);
    for (l, ring) in levels.iter().enumerate() {
        for k in 0..3 {
            member(&mut m, ring[k], ring[(k + 1) % 3]);
            if let Some(up) = levels.get(l + 1) {
                member(&mut m, ring[k], up[k]);
                member(&mut m, ring[k], up[(k + 1) % 3]);
            }
        }
    }
    for row in 0..ROWS {
        let edge = NodeId((row * COLUMNS) as u32);
        for &n in &levels[LEVELS - 1 - row] {
            member(&mut m, edge, n);
        }
    }
    m.anchors = levels[..2].iter().flatten().copied().collect();
    m.params.substeps = SUBSTEPS;
    m.params.air = Some(Air { wind: Vec3::new(6.0, 0.0, 0.5), gusts: 0.35, ..Air::default() });
    m
}
