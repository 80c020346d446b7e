//! A helium balloon: an icosphere of 30 cm radius (162 nodes, 40 g of skin) filled with gas
//! at 2 kPa over the outside air, whose buoyancy (1.06 kg/m³ lighter than air, 0.11 m³) lifts
//! it by about 1.2 N, on a 1 m string of twelve 1 g beads whose end is held.
//!
//! It runs on the explicit integrator at 128 sub-steps (about 1 ms a frame). Xpbd holds it
//! still too at 128 sub-steps but costs three times as much, and at its usual 32 the skin,
//! fighting the gas with one Gauss–Seidel pass per sub-step, wobbles (see `springmesh_core`'s
//! `sim::integrators::spin`).

use super::build::{chain, convert};
use crate::{ConvertOptions, MassMode, RawMesh};
use glam::Vec3;
use springmesh_core::model::Pressure;
use springmesh_core::{Integrator, NodeId, SpringModel};
use std::collections::HashMap;

/// Radius (m).
const RADIUS: f32 = 0.3;

/// Density of helium at 15 °C (kg/m³).
const HELIUM: f32 = 0.166;

pub fn model() -> SpringModel {
    let centre = Vec3::new(0.0, 1.5, 0.0);
    let options =
        ConvertOptions { mass: MassMode::TotalEven { mass: 0.04 }, ..ConvertOptions::default() };
    let mut m = convert(icosphere(centre, RADIUS, 2), &options, "balloon");
    let skin = m.nodes.len() as u32;
    let bottom = (0..skin)
        .map(NodeId)
        .min_by(|a, b| {
            m.nodes.positions()[a.index()].y.total_cmp(&m.nodes.positions()[b.index()].y)
        })
        .unwrap_or(NodeId(0));
    let knot = m.nodes.positions()[bottom.index()];
    let string = chain(&mut m, bottom, knot - Vec3::Y, 12, 0.001, 500.0, 0.5);
    m.anchors = string.last().copied().into_iter().collect();
    m.params.pressure = Some(Pressure { pressure: 2000.0, gas_density: Some(HELIUM) });
    m.params.integrator = Integrator::Explicit;
    m.params.substeps = 128;
    // The gas stretches the skin past its rest shape, which tethers (made for cloth that must
    // not stretch) would fight.
    m.params.tethers = None;
    m
}

/// An icosahedron subdivided `levels` times, projected on a sphere.
pub fn icosphere(centre: Vec3, radius: f32, levels: usize) -> RawMesh {
    let t = (1.0 + 5f32.sqrt()) / 2.0;
    let mut points: Vec<Vec3> = [
        (-1.0, t, 0.0),
        (1.0, t, 0.0),
        (-1.0, -t, 0.0),
        (1.0, -t, 0.0),
        (0.0, -1.0, t),
        (0.0, 1.0, t),
        (0.0, -1.0, -t),
        (0.0, 1.0, -t),
        (t, 0.0, -1.0),
        (t, 0.0, 1.0),
        (-t, 0.0, -1.0),
        (-t, 0.0, 1.0),
    ]
    .into_iter()
    .map(|(x, y, z)| Vec3::new(x, y, z).normalize())
    .collect();
    let mut triangles: Vec<[u32; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..levels {
        let mut middle: HashMap<(u32, u32), u32> = HashMap::new();
        let mut midpoint = |a: u32, b: u32, points: &mut Vec<Vec3>| {
            *middle.entry((a.min(b), a.max(b))).or_insert_with(|| {
                points.push(((points[a as usize] + points[b as usize]) * 0.5).normalize());
                points.len() as u32 - 1
            })
        };
        triangles = triangles
            .iter()
            .flat_map(|&[a, b, c]| {
                let (ab, bc, ca) = (
                    midpoint(a, b, &mut points),
                    midpoint(b, c, &mut points),
                    midpoint(c, a, &mut points),
                );
                [[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]
            })
            .collect();
    }
    let mut mesh = RawMesh {
        positions: points.iter().map(|p| centre + *p * radius).collect(),
        ..RawMesh::default()
    };
    for t in triangles {
        mesh.push_triangle(t, None);
    }
    mesh
}
