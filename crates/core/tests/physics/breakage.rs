//! Core II acceptance 5: pulling a chain apart breaks exactly its weakest spring, once; the
//! step reports and the break listener agree; the model stays finite.

use crate::common::chain;
use glam::Vec3;
use springmesh_core::{BreakEvent, Integrator, NodeId, Simulation, SpringId};
use std::sync::{Arc, Mutex};

#[test]
fn pulling_a_chain_breaks_the_weakest_spring_once() {
    for integrator in Integrator::ALL {
        // Six nodes 0.1 m apart; every spring breaks beyond 5% stretch, and spring 2 is half as
        // stiff as the others, so under the same tension it stretches twice as far.
        let mut model = chain(6, Vec3::ZERO, Vec3::new(0.5, 0.0, 0.0), 0.5, 0.01, 2000.0);
        model.params.gravity = Vec3::ZERO;
        model.params.damping = 1.0;
        model.params.integrator = integrator;
        // The springs alone decide where it breaks: tethers would hold every node within 1% of
        // its rest distance from both ends while the far end pulls 20% (see tethers.rs for
        // breakage with tethers).
        model.params.tethers = None;
        let mut springs: Vec<_> = model.springs.iter().collect();
        for s in &mut springs {
            s.break_max = Some(s.rest_length * 1.05);
        }
        springs[2].stiffness = 1000.0;
        model.springs = springs.into_iter().collect();

        let mut sim =
            Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
        let heard: Arc<Mutex<Vec<BreakEvent>>> = Arc::default();
        let log = heard.clone();
        sim.on_break(move |e| log.lock().expect("unpoisoned").push(*e));
        let mut reported = Vec::new();
        let end = NodeId(5);
        // Pull the far end out by 10 cm over two seconds, then hold it there for one.
        for frame in 1..=180 {
            let pulled = 0.5 + 0.1 * (frame as f32 / 120.0).min(1.0);
            sim.set_anchor_position(end, Vec3::new(pulled, 0.0, 0.0)).expect("an anchor");
            let report = sim.step(1.0 / 60.0).expect("finite");
            reported.extend(report.broken);
        }
        assert_eq!(reported, vec![SpringId(2)], "{integrator:?}");
        let heard = heard.lock().expect("unpoisoned");
        assert_eq!(heard.iter().map(|e| e.spring).collect::<Vec<_>>(), reported, "{integrator:?}");
        let e = heard[0];
        assert!(e.length > 0.105 && e.length < 0.12, "{integrator:?}: broke at {} m", e.length);
        assert!(sim.positions().iter().all(|p| p.is_finite()));
        // The two halves have come apart: the gap across spring 2 has opened.
        let gap = sim.positions()[3].distance(sim.positions()[2]);
        assert!(gap > 0.15, "{integrator:?}: gap {gap} m");
    }
}

#[test]
fn a_torn_balloon_loses_its_faces_and_its_gas() {
    use crate::common::uv_sphere;
    use springmesh_core::CoreError;
    use springmesh_core::model::Pressure;
    // A balloon whose skin breaks beyond 1% stretch, with 20 kPa inside: it pops at once.
    let mut model = uv_sphere(6, 8, 0.1, Vec3::ZERO, 0.01, 2000.0);
    model.params.gravity = Vec3::ZERO;
    let mut springs: Vec<_> = model.springs.iter().collect();
    for s in &mut springs {
        s.break_max = Some(s.rest_length * 1.01);
    }
    model.springs = springs.into_iter().collect();
    model.params.pressure = Some(Pressure { pressure: 20_000.0, gas_density: None });
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    assert_eq!(sim.faces().len(), 80);
    assert!(sim.enclosed_volume().is_ok());
    let mut broken = 0;
    for _ in 0..30 {
        broken += sim.step(1.0 / 60.0).expect("finite").broken.len();
    }
    assert!(broken > 0, "the skin tore");
    assert!(sim.faces().len() < 80, "torn triangles left: {} remain", sim.faces().len());
    assert!(
        matches!(sim.enclosed_volume(), Err(CoreError::OpenSurface { open_edges }) if open_edges > 0)
    );
    assert_eq!(sim.energy().gas, 0.0, "the gas escaped");
}
