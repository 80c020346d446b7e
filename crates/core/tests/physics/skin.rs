//! A skinned model: the drawn surface follows its cage by its weights, and a model without a
//! skin draws its nodes.

use crate::common::files::{skinned_model, small_model};
use glam::Vec3;
use springmesh_core::model::{Problem, SkinVertex};
use springmesh_core::{NodeId, Simulation};

#[test]
fn the_surface_rides_on_the_cage_by_its_weights() {
    let model = skinned_model();
    let skin = model.skin.clone().expect("skin");
    let mut sim = Simulation::new(&model).expect("valid");
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
    let sim = Simulation::new(&model).expect("valid");
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
    *skin = springmesh_core::model::Skin::new(vertices, faces, uvs);
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
