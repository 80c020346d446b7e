//! A balloon: an icosphere of 30 cm radius (162 nodes), kept round by springs from every
//! surface node to a centre node (the spokes stand in for gas pressure), on a 1 m string
//! whose end is held. The model's gravity points up at 2 m/s²: the lift of the gas.

use super::build::{chain, convert, join};
use crate::{ConvertOptions, RawMesh};
use glam::Vec3;
use springmesh_core::{Node, NodeId, SpringKind, SpringModel};
use std::collections::HashMap;

/// Radius (m).
const RADIUS: f32 = 0.3;

pub fn model() -> SpringModel {
    let centre = Vec3::new(0.0, 1.5, 0.0);
    let mut m = convert(icosphere(centre, RADIUS, 2), &ConvertOptions::default(), "balloon");
    let hub = m.nodes.push(Node { position: centre, mass: 0.01 });
    for i in 0..hub.0 {
        join(&mut m, NodeId(i), hub, 200.0, 0.05, SpringKind::Vicinity);
    }
    let bottom = (0..hub.0)
        .map(NodeId)
        .min_by(|a, b| {
            m.nodes.positions()[a.index()].y.total_cmp(&m.nodes.positions()[b.index()].y)
        })
        .unwrap_or(hub);
    let knot = m.nodes.positions()[bottom.index()];
    let string = chain(&mut m, bottom, knot - Vec3::Y, 12, 0.002, 500.0, 0.5);
    m.anchors = string.last().copied().into_iter().collect();
    m.params.gravity = Vec3::new(0.0, 2.0, 0.0);
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
