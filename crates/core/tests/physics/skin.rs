//! A skinned model: the drawn surface follows its cage by its weights, and a model without a
//! skin draws its nodes.

use crate::common::files::{skinned_model, small_model};
use glam::Vec3;
use springmesh_core::model::{Ground, Problem, Skin, SkinVertex, Surface};
use springmesh_core::{Integrator, Node, NodeId, Simulation, Spring, SpringKind, SpringModel};

#[test]
fn the_surface_rides_on_the_cage_by_its_weights() {
    let model = skinned_model();
    let skin = model.skin.clone().expect("skin");
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    assert_eq!((sim.surface_vertex_count(), sim.surface_faces().len()), (3, 1));
    for _ in 0..30 {
        sim.step(model.params.dt).expect("steps");
    }
    let nodes: Vec<Vec3> = sim.positions().iter().map(|&p| p.into()).collect();
    assert!(nodes[0].y < -0.1, "the cage falls: {:?}", nodes[0]);
    let (mut positions, mut normals) = (Vec::new(), Vec::new());
    sim.surface(&mut positions, &mut normals);
    for (v, p) in skin.vertices().zip(&positions) {
        // Worked out from the node positions, independently of the deform loop.
        let expected: Vec3 = (0..4).map(|i| v.weights[i] * nodes[v.nodes[i].index()]).sum();
        assert!(p.distance(expected) < 1e-6, "{p} against {expected}");
    }
    // The one triangle's normal, (b − a) × (c − a) normalised, at all three corners.
    let n = (positions[1] - positions[0]).cross(positions[2] - positions[0]).normalize();
    assert!(normals.iter().all(|m| m.distance(n) < 1e-5), "{normals:?} against {n}");
    let mut alone = Vec::new();
    sim.surface_normals(&mut alone);
    assert_eq!(alone, normals);
}

#[test]
fn a_model_without_a_skin_draws_its_nodes() {
    let model = small_model();
    let sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    let (mut positions, mut normals, mut node_normals) = (Vec::new(), Vec::new(), Vec::new());
    sim.surface(&mut positions, &mut normals);
    sim.vertex_normals(&mut node_normals);
    assert_eq!(sim.surface_vertex_count(), model.nodes.len());
    assert_eq!(positions, model.nodes.positions());
    assert_eq!(normals, node_normals);
    assert_eq!(sim.surface_faces(), sim.faces());
}

#[test]
fn a_skin_is_validated() {
    let mut model = skinned_model();
    let skin = model.skin.as_mut().expect("skin");
    let mut vertices: Vec<SkinVertex> = skin.vertices().collect();
    vertices[0].weights = [0.5, 0.6, 0.0, 0.0];
    vertices[1].nodes[3] = NodeId(9);
    vertices[2].position.x = f32::NAN;
    let (faces, uvs) = (skin.faces.clone(), skin.uvs.clone());
    *skin = Skin::new(vertices, faces, uvs);
    let problems = model.validate().expect_err("invalid").0;
    assert_eq!(
        problems,
        vec![
            Problem::BadSkinWeights { vertex: 0, sum: 1.1 },
            Problem::SkinNodeOutOfRange { vertex: 1, node: NodeId(9), nodes: 4 },
            Problem::BadSkinPosition { vertex: 2 },
        ]
    );
}

/// A braced cube cage of 1 m (8 nodes of 1 kg, every pair joined by a 2000 N/m spring) at
/// y ∈ [1, 2] over a ground at y = 0, carrying a skin box half its height inside it: vertices
/// on its vertical edges, a quarter of the way in from each end (y ∈ [1.25, 1.75]).
fn caged_box(integrator: Integrator) -> SpringModel {
    let mut m = SpringModel::default();
    let corner = |c: usize| Vec3::new((c & 1) as f32, 1.0 + ((c >> 1) & 1) as f32, (c >> 2) as f32);
    for c in 0..8 {
        m.nodes.push(Node { position: corner(c), mass: 1.0 });
    }
    for a in 0..8u32 {
        for b in a + 1..8 {
            let rest = corner(a as usize).distance(corner(b as usize));
            m.springs.push(Spring::new(NodeId(a), NodeId(b), rest, 2000.0, SpringKind::Manual));
        }
    }
    // Corner c with bit 1 clear is at the bottom; c | 2 is the one above it.
    let mut vertices = Vec::new();
    for low in [0u32, 1, 4, 5] {
        for (w_low, w_high) in [(0.75, 0.25), (0.25, 0.75)] {
            let position = corner(low as usize) * w_low + corner(low as usize | 2) * w_high;
            vertices.push(SkinVertex {
                position,
                nodes: [NodeId(low), NodeId(low | 2), NodeId(0), NodeId(0)],
                weights: [w_low, w_high, 0.0, 0.0],
            });
        }
    }
    m.skin = Some(Skin::new(vertices, Default::default(), Vec::new()));
    m.params.ground = Some(Ground { height: 0.0, surface: Surface::default() });
    m.params.integrator = integrator;
    m.params.damping = 2.0;
    m
}

#[test]
fn a_cage_stands_on_its_skin_not_on_its_nodes() {
    for integrator in [Integrator::Xpbd, Integrator::Explicit] {
        let model = caged_box(integrator);
        let r = model.params.node_radius;
        let mut sim =
            Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
        let mut surface = Vec::new();
        let mut fastest_at_rest = 0.0f32;
        for frame in 0..480 {
            sim.step(model.params.dt).expect("steps");
            if frame >= 420 {
                fastest_at_rest =
                    sim.velocities().iter().fold(fastest_at_rest, |m, v| m.max(v.length()));
            }
        }
        sim.surface_positions(&mut surface);
        let skin_low = surface.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        let cage_low = sim.positions().iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        // The skin's bottom rests on the ground (one radius up); the cage reaches 0.25 m
        // below it, into the ground, which it does not touch.
        assert!((skin_low - r).abs() < 2e-3, "{integrator:?}: skin at {skin_low}");
        assert!((cage_low - (skin_low - 0.25)).abs() < 5e-3, "{integrator:?}: cage at {cage_low}");
        assert!(fastest_at_rest < 0.01, "{integrator:?}: at rest, {fastest_at_rest} m/s");
    }
}
