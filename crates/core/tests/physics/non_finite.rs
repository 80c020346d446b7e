//! Acceptance 8: zero-length springs give no NaN; a step that blows up is rejected and the
//! last good state stays.

use crate::common::{GridSprings, grid_cloth};
use glam::Vec3;
use springmesh_core::{
    CoreError, Integrator, Node, NodeId, Simulation, Spring, SpringKind, SpringModel,
};

#[test]
fn zero_length_springs_give_no_nan() {
    for integrator in Integrator::ALL {
        let mut m = SpringModel::default();
        for p in [Vec3::ZERO, Vec3::ZERO, Vec3::ZERO, Vec3::X] {
            m.nodes.push(Node { position: p, mass: 0.1 });
        }
        // Node 1 sits on node 0 with rest length 0; node 2 sits on node 0 but wants 0.5 m.
        m.springs.push(
            Spring::new(NodeId(0), NodeId(1), 0.0, 100.0, SpringKind::Manual).with_damping(1.0),
        );
        m.springs.push(Spring::new(NodeId(0), NodeId(2), 0.5, 100.0, SpringKind::Manual));
        m.springs.push(Spring::new(NodeId(1), NodeId(3), 1.0, 100.0, SpringKind::Manual));
        m.anchors = vec![NodeId(0)];
        m.params.integrator = integrator;
        let mut sim = Simulation::new(&springmesh_core::ValidModel::new(m.clone()).expect("valid"));
        for _ in 0..120 {
            sim.step(1.0 / 60.0).expect("finite");
        }
        assert!(sim.positions().iter().all(|p| p.is_finite()), "{integrator:?}");
        assert!(sim.energy().total().is_finite(), "{integrator:?}");
    }
}

#[test]
fn a_blown_up_step_is_rejected_and_the_last_good_state_kept() {
    let mut model = grid_cloth(8, 0.05, 0.001, GridSprings { stiffness: 1e6, damping: 0.0 });
    model.params.integrator = Integrator::Explicit;
    model.params.substeps = 1;
    model.params.tethers = None; // they would keep the blow-up within reach of the anchors
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    let mut failure = None;
    for step in 0..2000 {
        let (pos, vel, time) = (sim.positions().to_vec(), sim.velocities().to_vec(), sim.time());
        match sim.step(1.0 / 60.0) {
            Ok(_) => {}
            Err(e) => {
                assert_eq!(sim.positions(), &pos[..], "positions of the last good state");
                assert_eq!(sim.velocities(), &vel[..], "velocities of the last good state");
                assert_eq!(sim.time(), time);
                failure = Some((step, e));
                break;
            }
        }
    }
    let (step, error) = failure.expect("1e6 N/m on 1 g nodes is far too stiff for 60 Hz");
    println!("rejected at step {step}: {error}");
    assert!(matches!(error, CoreError::NonFinite { .. }), "{error:?}");
    assert!(sim.positions().iter().all(|p| p.is_finite()));
    // Trying again is rejected the same way, and still changes nothing.
    let kept = sim.positions().to_vec();
    assert!(sim.step(1.0 / 60.0).is_err());
    assert_eq!(sim.positions(), &kept[..]);
}
