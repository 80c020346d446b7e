//! Acceptance 7: anchors stay exactly put; moving an anchor moves the model, within the step.

use crate::common::{GridSprings, grid_cloth};
use glam::{Vec3, Vec3A};
use springmesh_core::sim::SettleOptions;
use springmesh_core::{Integrator, NodeId, Simulation};

#[test]
fn anchors_stay_exactly_at_their_positions() {
    for integrator in Integrator::ALL {
        let mut model = grid_cloth(12, 0.05, 0.01, GridSprings { stiffness: 300.0, damping: 0.0 });
        model.params.integrator = integrator;
        let mut sim =
            Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
        for _ in 0..120 {
            sim.step(1.0 / 60.0).expect("finite");
            for a in &model.anchors {
                let rest = Vec3A::from(model.nodes.positions()[a.index()]);
                assert_eq!(sim.positions()[a.index()], rest, "{integrator:?}");
            }
        }
        assert!(sim.positions()[100].y < -0.1, "{integrator:?}: the free part fell");
    }
}

#[test]
fn moving_the_anchors_drags_the_model_without_a_jolt() {
    let mut model = grid_cloth(12, 0.05, 0.01, GridSprings { stiffness: 300.0, damping: 0.0 });
    model.params.damping = 2.0;
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    sim.settle(&SettleOptions { energy_threshold: 1e-6, ..Default::default() }).expect("finite");
    let centroid =
        |sim: &Simulation| sim.positions().iter().copied().sum::<Vec3A>() / sim.node_count() as f32;
    let start = centroid(&sim);
    let anchors: Vec<NodeId> = sim.anchors().collect();
    // Carry both anchors 0.5 m along x in one second: 0.5 m/s.
    let mut fastest: f32 = 0.0;
    for frame in 1..=60 {
        for &a in &anchors {
            let rest = model.nodes.positions()[a.index()];
            let target = rest + Vec3::new(0.5 * frame as f32 / 60.0, 0.0, 0.0);
            sim.set_anchor_position(a, target).expect("an anchor");
        }
        sim.step(1.0 / 60.0).expect("finite");
        for &a in &anchors {
            let expected = sim.anchor_position(a).expect("an anchor");
            assert_eq!(Vec3::from(sim.positions()[a.index()]), expected, "no lag of a frame");
        }
        fastest = sim.velocities().iter().map(|v| v.length()).fold(fastest, f32::max);
    }
    for _ in 0..180 {
        sim.step(1.0 / 60.0).expect("finite");
    }
    let moved = centroid(&sim) - start;
    println!(
        "centroid moved {moved:?}; fastest node {fastest:.3} m/s while the anchors moved at 0.5 m/s"
    );
    assert!((moved.x - 0.5).abs() < 0.05, "the model followed: {moved:?}");
    assert!(fastest < 1.5, "no jolt: a node reached {fastest} m/s");
    assert!(sim.set_anchor_position(NodeId(5), Vec3::ZERO).is_err(), "node 5 is not an anchor");
}
