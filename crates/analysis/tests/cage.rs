//! Solids denser than the node budget: a coarse cage is simulated and the mesh is its skin
//! (`springmesh_convert::solid::cage`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code.

use glam::Vec3;
use springmesh_analysis::check::{CheckOptions, check};
use springmesh_convert::{ConvertOptions, MassMode, RawMesh, SolidOptions, convert_mesh, shapes};
use springmesh_core::{Simulation, SpringModel};
use std::path::Path;

fn options(solid: bool, max_nodes: Option<usize>) -> ConvertOptions {
    ConvertOptions {
        solid: solid.then_some(SolidOptions { max_nodes, ..SolidOptions::default() }),
        bend: false,
        mass: MassMode::Density { density: 1000.0 },
        ..ConvertOptions::default()
    }
}

fn convert(mesh: RawMesh, options: &ConvertOptions) -> SpringModel {
    convert_mesh(mesh, options, Path::new("shape.obj")).expect("converts").model.into_inner()
}

/// A UV sphere of 1 m diameter with 40 rings of 75 segments: 2,927 vertices.
fn dense_sphere() -> RawMesh {
    shapes::sphere(Vec3::new(0.0, 0.5, 0.0), 0.5, 40, 75)
}

#[test]
fn a_dense_solid_is_a_cage_within_the_budget_and_its_mesh_the_skin_in_order() {
    let surface = convert(dense_sphere(), &options(false, None));
    for budget in [200, 500, 1000] {
        let model = convert(dense_sphere(), &options(true, Some(budget)));
        let skin = model.skin.as_ref().expect("over the budget: a cage");
        println!(
            "budget {budget}: {} cage nodes, {} springs",
            model.nodes.len(),
            model.springs.len()
        );
        assert!(model.nodes.len() <= budget && model.nodes.len() > budget / 4);
        // The skin is the mesh as a surface conversion numbers it: same vertices, same faces.
        assert_eq!(skin.positions(), surface.nodes.positions());
        assert_eq!(skin.faces.nodes(), surface.faces.nodes());
        assert!(model.faces.is_empty());
        // At rest the cage carries every vertex exactly where it is.
        let mut carried = Vec::new();
        skin.deform(model.nodes.positions(), &mut carried);
        let worst =
            carried.iter().zip(skin.positions()).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max);
        assert!(worst < 1e-5, "a vertex is carried {worst} m off its rest position");
    }
    // Below the budget every vertex stays a node, as before.
    let plain = convert(dense_sphere(), &options(true, Some(5000)));
    assert!(plain.skin.is_none() && plain.nodes.len() > surface.nodes.len());
}

#[test]
fn a_caged_body_on_four_thin_legs_stands_and_a_caged_ball_keeps_round() {
    // Judged at every frame of the check's 5 s on the ground. A ball has no base to stand on
    // (it may roll: only its shape is judged).
    for (name, mesh, budget) in [
        ("blob", shapes::blob(), Some(600)),
        ("blob", shapes::blob(), None),
        ("sphere", dense_sphere(), None),
    ] {
        let model = convert(mesh, &options(true, budget));
        assert!(model.skin.is_some());
        let report = check(&model, &CheckOptions::default()).expect("finite");
        println!(
            "{name} ({} cage nodes, {} sub-steps): worst sag {:.3}% at {:.2} s, tilt {:.1}°",
            model.nodes.len(),
            model.params.substeps,
            report.sag.error * 100.0,
            report.course.worst_at,
            report.course.tilt_degrees
        );
        assert!(report.sag.error < 0.01, "{name}: {:?}", report.course);
        if name == "blob" {
            assert!(report.stable && report.course.tilt_degrees < 5.0, "{:?}", report.course);
        }
    }
}

#[test]
fn painted_pins_anchor_the_cage_nodes_that_carry_them_and_hold_their_vertices() {
    let mut mesh = dense_sphere();
    let pins: Vec<f32> =
        mesh.positions.iter().map(|p| if p.y > 0.97 { 1.0 } else { 0.0 }).collect();
    let pinned: Vec<usize> = (0..pins.len()).filter(|&i| pins[i] > 0.5).collect();
    mesh.attributes.insert("_PIN".into(), pins);
    let model = convert(mesh, &options(true, Some(500)));
    let skin = model.skin.clone().expect("a cage");
    // The welded vertices keep the file's order here (the sphere has no seam to weld).
    let mut expected: Vec<u32> = pinned
        .iter()
        .flat_map(|&v| {
            let (n, w) = (skin.nodes()[v], skin.weights()[v]);
            (0..4).filter(move |&i| w[i] > 0.0).map(move |i| n[i].0)
        })
        .collect();
    expected.sort_unstable();
    expected.dedup();
    let mut anchors: Vec<u32> = model.anchors.iter().map(|a| a.0).collect();
    anchors.sort_unstable();
    assert_eq!(anchors, expected);
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    for _ in 0..60 {
        sim.step(model.params.dt).expect("steps");
    }
    let mut surface = Vec::new();
    sim.surface_positions(&mut surface);
    for &v in &pinned {
        assert!(surface[v].distance(skin.positions()[v]) < 1e-5, "pinned vertex {v} moved");
    }
    // The ball hangs from its top (a second of free fall would take it 4.9 m down), its
    // bottom stretched down a little: the material sags about 1% of the height.
    let lowest = surface.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
    assert!((-0.05..-1e-4).contains(&lowest), "it hangs: lowest {lowest}");
}
