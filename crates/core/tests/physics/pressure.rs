//! Core II acceptance 2: a balloon keeps its volume lying on the ground; more pressure, more
//! volume; nothing goes non-finite; the volume of an open surface is an error.

use crate::common::{GridSprings, grid_cloth, uv_sphere};
use glam::Vec3;
use springmesh_core::model::{Ground, Pressure, Problem};
use springmesh_core::sim::SettleOptions;
use springmesh_core::{CoreError, Integrator, Simulation, SpringModel};

/// A balloon 0.3 m across of 164 nodes and 20 g, with `pressure` Pa inside.
fn balloon(pressure: f32) -> SpringModel {
    let mut m = uv_sphere(10, 18, 0.15, Vec3::new(0.0, 0.5, 0.0), 0.02, 5000.0);
    m.params.pressure = Some(Pressure { pressure, gas_density: None });
    m.params.damping = 2.0;
    m
}

/// The volume after settling (energy threshold per the model's mass).
fn settled_volume(model: &SpringModel) -> f32 {
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    let options = SettleOptions { energy_threshold: 1e-7, quiet_seconds: 0.5, max_seconds: 20.0 };
    let report = sim.settle(&options).expect("finite");
    assert!(report.settled, "{report:?}");
    sim.enclosed_volume().expect("closed")
}

#[test]
fn the_sphere_is_closed_and_wound_outwards() {
    let m = balloon(1000.0);
    assert_eq!((m.nodes.len(), m.faces.len(), m.open_edges()), (164, 324, 0));
    let v = m.enclosed_volume().expect("closed");
    let sphere = 4.0 / 3.0 * std::f32::consts::PI * 0.15f32.powi(3);
    assert!(v > 0.9 * sphere && v < sphere, "{v} inside the sphere's {sphere}");
    assert!(
        springmesh_core::sim::forces::pressure::signed_volume(m.nodes.positions(), m.faces.nodes())
            > 0.0
    );
}

#[test]
fn a_balloon_on_the_ground_keeps_its_volume() {
    let mut floating = balloon(2000.0);
    floating.params.gravity = Vec3::ZERO;
    let free = settled_volume(&floating);
    let mut grounded = balloon(2000.0);
    grounded.params.ground = Some(Ground::default());
    let mut sim =
        Simulation::new(&springmesh_core::ValidModel::new(grounded.clone()).expect("valid"));
    for _ in 0..600 {
        sim.step(1.0 / 60.0).expect("finite");
    }
    let lowest = sim.positions().iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
    assert!(lowest < 0.01, "it came down to the ground: lowest node at {lowest} m");
    let on_ground = sim.enclosed_volume().expect("closed");
    let change = on_ground / free - 1.0;
    println!("{on_ground:.5} m³ on the ground, {free:.5} m³ floating ({change:+.4})");
    assert!(change.abs() < 0.02, "{on_ground} m³ on the ground, {free} m³ floating ({change:+.4})");
}

#[test]
fn doubling_the_pressure_grows_the_volume() {
    let at = |pressure: f32| {
        let mut m = balloon(pressure);
        m.params.gravity = Vec3::ZERO;
        settled_volume(&m)
    };
    let (v1, v2) = (at(2000.0), at(4000.0));
    println!("{v1:.5} m³ at 2 kPa, {v2:.5} m³ at 4 kPa");
    assert!(v2 > v1 * 1.001, "{v2} m³ at 4 kPa, {v1} m³ at 2 kPa");
}

#[test]
fn every_integrator_keeps_a_grounded_balloon_finite_for_ten_seconds() {
    for integrator in Integrator::ALL {
        let mut m = balloon(2000.0);
        m.params.ground = Some(Ground::default());
        m.params.integrator = integrator;
        // 5000 N/m springs between 0.12 g nodes (and the gas, with 101 kPa behind it) need
        // sub-steps under 2/ω ≈ 0.06 ms from the explicit integrators: 512 per frame.
        if integrator != Integrator::Xpbd {
            m.params.substeps = 512;
        }
        let mut sim = Simulation::new(&springmesh_core::ValidModel::new(m.clone()).expect("valid"));
        for _ in 0..600 {
            sim.step(1.0 / 60.0).unwrap_or_else(|e| panic!("{integrator:?}: {e}"));
        }
        let v = sim.enclosed_volume().expect("closed");
        assert!(v.is_finite() && v > 0.01, "{integrator:?}: {v}");
        assert!(sim.positions().iter().all(|p| p.is_finite()));
    }
}

#[test]
fn an_open_surface_has_no_volume_and_no_pressure() {
    let mut cloth = grid_cloth(4, 0.1, 0.01, GridSprings { stiffness: 100.0, damping: 0.0 });
    assert!(matches!(cloth.enclosed_volume(), Err(CoreError::OpenSurface { .. })));
    let sim = Simulation::new(&springmesh_core::ValidModel::new(cloth.clone()).expect("valid"));
    assert!(matches!(sim.enclosed_volume(), Err(CoreError::OpenSurface { open_edges: 12 })));
    cloth.params.pressure = Some(Pressure::default());
    let problems = cloth.validate().expect_err("pressure on a cloth").0;
    assert_eq!(problems, vec![Problem::PressureOnOpenSurface { open_edges: 12 }]);
}
