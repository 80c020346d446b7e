//! Acceptance 1 and 4: spring counts worked out by hand for small meshes, and the invariants
//! of random meshes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code.

use glam::{Vec2, Vec3};
use proptest::prelude::*;
use springmesh_convert::{ConvertOptions, ConvertReport, RawMesh, convert_mesh};
use springmesh_core::SpringModel;
use std::collections::HashSet;
use std::path::Path;

fn mesh(positions: &[[f32; 3]], triangles: &[[u32; 3]]) -> RawMesh {
    let mut m = RawMesh {
        positions: positions.iter().map(|&p| Vec3::from(p)).collect(),
        ..RawMesh::default()
    };
    for &t in triangles {
        m.push_triangle(t, None);
    }
    m
}

fn convert(m: RawMesh) -> (SpringModel, ConvertReport) {
    let c = convert_mesh(m, &ConvertOptions::default(), Path::new("test")).expect("converts");
    (c.model.into_inner(), c.report)
}

/// (nodes, stretch, bend) of a conversion with default options.
fn counts(positions: &[[f32; 3]], triangles: &[[u32; 3]]) -> (usize, usize, usize) {
    let (_, r) = convert(mesh(positions, triangles));
    (r.nodes, r.springs.stretch, r.springs.bend)
}

#[test]
fn one_triangle() {
    assert_eq!(counts(&[[0., 0., 0.], [1., 0., 0.], [0., 1., 0.]], &[[0, 1, 2]]), (3, 3, 0));
}

#[test]
fn two_triangles_sharing_an_edge() {
    let p = [[0., 0., 0.], [1., 0., 0.], [0., 1., 0.], [1., 1., 0.]];
    assert_eq!(counts(&p, &[[0, 1, 2], [2, 1, 3]]), (4, 5, 1));
}

#[test]
fn tetrahedron() {
    let p = [[0., 0., 0.], [1., 0., 0.], [0., 1., 0.], [0., 0., 1.]];
    // Every pair of the 4 nodes is an edge; no bend pair is new.
    assert_eq!(counts(&p, &[[0, 2, 1], [0, 1, 3], [1, 2, 3], [2, 0, 3]]), (4, 6, 0));
}

/// A closed unit cube of 12 triangles. Vertex i is at (i & 1, (i >> 1) & 1, (i >> 2) & 1).
/// Faces touching vertex 0 are split along the diagonal through 0, faces touching vertex 7
/// along the diagonal through 7:
///
/// ```text
/// face  corners    diagonal  triangles
/// z=0   0 1 2 3    0-3       {0,1,3} {0,2,3}
/// y=0   0 1 4 5    0-5       {0,1,5} {0,4,5}
/// x=0   0 2 4 6    0-6       {0,2,6} {0,4,6}
/// x=1   1 3 5 7    1-7       {1,3,7} {1,5,7}
/// y=1   2 3 6 7    2-7       {2,3,7} {2,6,7}
/// z=1   4 5 6 7    4-7       {4,5,7} {4,6,7}
/// ```
///
/// Stretch: 12 cube edges + 6 diagonals = 18. Bend, edge by edge (the two corners opposite):
/// across each diagonal, the face's other diagonal: 1-2, 1-4, 2-4, 3-5, 3-6, 5-6. Across the
/// cube edges 0-1: 3-5; 0-2: 3-6; 0-4: 5-6; 1-3, 1-5, 2-3, 2-6, 4-5, 4-6: 0-7 (six times);
/// 3-7: 1-2; 5-7: 1-4; 6-7: 2-4. None is an edge. Distinct pairs: the six other diagonals and
/// 0-7: 7 bend springs.
#[test]
fn closed_cube() {
    let p: Vec<[f32; 3]> =
        (0..8).map(|i| [(i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32]).collect();
    let t = [
        [0, 3, 1],
        [0, 2, 3],
        [0, 1, 5],
        [0, 5, 4],
        [0, 4, 6],
        [0, 6, 2],
        [1, 3, 7],
        [1, 7, 5],
        [2, 7, 3],
        [2, 6, 7],
        [4, 5, 7],
        [4, 7, 6],
    ];
    assert_eq!(counts(&p, &t), (8, 18, 7));
    let (_, report) = convert(mesh(&p, &t));
    assert_eq!((report.boundary_edges, report.non_manifold_edges, report.components), (0, 0, 1));
}

#[test]
fn quad_split_by_a_uv_seam_welds_to_four_nodes() {
    // Corners A B C D; the seam runs along A-C, so A and C exist twice with different uvs.
    let positions =
        [[0., 0., 0.], [1., 0., 0.], [1., 1., 0.], [0., 0., 0.], [1., 1., 0.], [0., 1., 0.]];
    let mut m = mesh(&positions, &[]);
    m.uvs = (0..6).map(|i| Vec2::new(i as f32 * 0.1, 0.0)).collect();
    m.push_triangle([0, 1, 2], Some([0, 1, 2]));
    m.push_triangle([3, 4, 5], Some([3, 4, 5]));
    let (model, report) = convert(m);
    assert_eq!(
        (report.nodes, report.welded, report.springs.stretch, report.springs.bend),
        (4, 2, 5, 1)
    );
    let faces: Vec<_> = model.faces.iter().collect();
    assert_eq!(faces[0].nodes.map(|n| n.0), [0, 1, 2]);
    assert_eq!(faces[1].nodes.map(|n| n.0), [0, 2, 3], "welded corners, same nodes");
    assert_eq!(faces[1].uvs, Some([3, 4, 5]), "each corner keeps its own uv");
}

#[test]
fn dropped_triangles_and_vertices_are_counted() {
    // Triangle 1 collapses (two corners on one point); vertex 5 is used by nothing.
    let p = [[0., 0., 0.], [1., 0., 0.], [0., 1., 0.], [1., 0., 0.], [0., 0., 0.], [9., 9., 9.]];
    let (_, r) = convert(mesh(&p, &[[0, 1, 2], [3, 4, 0]]));
    assert_eq!(
        (r.nodes, r.faces, r.dropped_triangles, r.dropped_vertices, r.welded),
        (3, 1, 1, 1, 2)
    );
    let kinds: Vec<&str> = r.warnings.iter().map(|w| w.kind).collect();
    assert!(
        kinds.contains(&"degenerate_triangles") && kinds.contains(&"unreferenced_vertices"),
        "{kinds:?}"
    );
}

#[test]
fn vicinity_radius_and_cap() {
    // Two parallel triangles 0.5 apart: vicinity pairs join each node to the one above it.
    let p = [[0., 0., 0.], [1., 0., 0.], [0., 1., 0.], [0., 0., 0.5], [1., 0., 0.5], [0., 1., 0.5]];
    let options = ConvertOptions { vicinity_radius: Some(0.6), ..ConvertOptions::default() };
    let c = convert_mesh(mesh(&p, &[[0, 1, 2], [3, 4, 5]]), &options, Path::new("t"))
        .expect("converts");
    assert_eq!(c.report.springs.vicinity, 3);
    assert_eq!(c.report.components, 1);
    // Radius 1.2 also reaches 0-4, 1-3, 0-5 and 2-3 (√1.25 ≈ 1.118 apart) but not 1-5 and
    // 2-4 (√2.25 = 1.5): 3 + 4 pairs.
    let options = ConvertOptions { vicinity_radius: Some(1.2), ..ConvertOptions::default() };
    let c = convert_mesh(mesh(&p, &[[0, 1, 2], [3, 4, 5]]), &options, Path::new("t"))
        .expect("converts");
    assert_eq!(c.report.springs.vicinity, 7);
    // A cap of 1 keeps each node's nearest: the one above or below it.
    let options = ConvertOptions {
        vicinity_radius: Some(1.2),
        vicinity_cap: Some(1),
        ..ConvertOptions::default()
    };
    let c = convert_mesh(mesh(&p, &[[0, 1, 2], [3, 4, 5]]), &options, Path::new("t"))
        .expect("converts");
    assert_eq!(c.report.springs.vicinity, 3);
}

/// A random triangle soup over a small point set (with repeats, so welding and degenerate
/// triangles happen).
fn random_mesh() -> impl Strategy<Value = RawMesh> {
    (3usize..30).prop_flat_map(|n| {
        (
            prop::collection::vec((0u8..4, 0u8..4, 0u8..3), n),
            prop::collection::vec((0..n as u32, 0..n as u32, 0..n as u32), 1..60),
            prop::bool::ANY,
        )
            .prop_map(|(points, tris, quads)| {
                let mut m = RawMesh {
                    positions: points
                        .iter()
                        .map(|&(x, y, z)| Vec3::new(x.into(), y.into(), z.into()) * 0.1)
                        .collect(),
                    ..RawMesh::default()
                };
                for (a, b, c) in tris {
                    m.push_triangle([a, b, c], None);
                }
                if quads {
                    m.quads = m
                        .triangles
                        .chunks_exact(2)
                        .map(|t| [t[0][0], t[0][1], t[0][2], t[1][2]])
                        .collect();
                }
                m
            })
    })
}

proptest! {
    #[test]
    fn springs_join_distinct_valid_nodes_once_at_rest(m in random_mesh(), radius in prop::option::of(0.05f32..0.4)) {
        let options = ConvertOptions { vicinity_radius: radius, quad_shear: !m.quads.is_empty(), ..ConvertOptions::default() };
        match convert_mesh(m, &options, Path::new("random")) {
            Err(e) => prop_assert!(e.to_string().contains("no triangles"), "{}", e),
            Ok(c) => {
                let model = c.model;
                prop_assert_eq!(model.validate(), Ok(()));
                let mut seen = HashSet::new();
                for s in model.springs.iter() {
                    prop_assert!(s.a != s.b && s.a.index() < model.nodes.len() && s.b.index() < model.nodes.len());
                    prop_assert!(seen.insert(s.pair()), "pair {:?} twice", s.pair());
                    let d = model.distance(s.a, s.b).unwrap();
                    prop_assert!((s.rest_length - d).abs() <= 1e-6 * d.max(1.0));
                }
                let r = c.report;
                prop_assert_eq!(r.springs.total, model.springs.len());
                prop_assert_eq!(r.springs.stretch + r.springs.bend + r.springs.vicinity, r.springs.total);
            }
        }
    }
}
