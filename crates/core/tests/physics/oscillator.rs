//! Acceptance 1: the period of a mass on a spring, against T = 2π√(m/k).

use crate::common;
use glam::Vec3;
use springmesh_core::{Integrator, Simulation};

/// Steps `sim` by `dt` for `seconds` and returns the times at which the free node's x
/// coordinate crosses `rest` upwards, linearly interpolated between steps.
fn upward_crossings(sim: &mut Simulation, dt: f32, seconds: f32, rest: f32) -> Vec<f64> {
    let mut crossings = Vec::new();
    let mut prev = sim.positions()[1].x - rest;
    for _ in 0..(seconds / dt).round() as usize {
        let t0 = sim.time();
        sim.step(dt).expect("finite");
        let x = sim.positions()[1].x - rest;
        if prev < 0.0 && x >= 0.0 {
            let frac = f64::from(-prev / (x - prev));
            crossings.push(t0 + frac * f64::from(dt));
        }
        prev = x;
    }
    crossings
}

fn measured_period(integrator: Integrator, dt: f32) -> f64 {
    let (m, k, rest) = (1.0, 100.0, 1.0);
    let mut model = common::oscillator(m, k, rest, Vec3::new(rest + 0.2, 0.0, 0.0));
    model.params.integrator = integrator;
    if integrator == Integrator::Explicit {
        model.params.substeps = 1;
    }
    let mut sim = Simulation::new(&model).expect("valid");
    let crossings = upward_crossings(&mut sim, dt, 7.0, rest);
    assert!(crossings.len() >= 10, "{} crossings", crossings.len());
    let (first, last) = (crossings[0], crossings[crossings.len() - 1]);
    (last - first) / (crossings.len() - 1) as f64
}

/// Asserts that `integrator` at step `dt` has the period 2π√(m/k) of m = 1 kg, k = 100 N/m
/// within 1%.
fn check_period(integrator: Integrator, dt: f32) {
    let expected = 2.0 * std::f64::consts::PI * (1.0f64 / 100.0).sqrt();
    let period = measured_period(integrator, dt);
    let error = (period / expected - 1.0).abs();
    println!(
        "{integrator:?}: period {period:.6} s, expected {expected:.6} s, error {:.4}%",
        error * 100.0
    );
    assert!(error < 0.01, "period {period:.5} s, error {:.3}%", error * 100.0);
}

#[test]
fn explicit_period_within_one_percent() {
    check_period(Integrator::Explicit, 1e-3);
}

#[test]
fn xpbd_period_within_one_percent_at_60_hz() {
    check_period(Integrator::Xpbd, 1.0 / 60.0);
}
