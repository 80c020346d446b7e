//! Acceptance 1: the period of a mass on a spring, against T = 2π√(m/k); and a damped one's
//! decay rate and period against the exact solution.

use crate::common;
use glam::Vec3;
use springmesh_core::model::DEFAULT_SUBSTEPS;
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
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
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

/// The decay rate σ and damped period T_d of a mass on a damped spring, measured from the
/// peaks of its swing: m = 1 kg, k = 100 N/m, d = 2 N·s/m (ζ = 0.1).
fn damped_decay(integrator: Integrator, dt: f32, substeps: u32) -> (f64, f64) {
    let (m, k, rest) = (1.0, 100.0, 1.0);
    let mut model = common::oscillator(m, k, rest, Vec3::new(rest + 0.2, 0.0, 0.0));
    model.springs.dampings_mut()[0] = 2.0;
    model.params.integrator = integrator;
    model.params.substeps = substeps;
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    // Peaks: local maxima of the stretch, with their times (parabola through three samples).
    let mut samples: Vec<(f64, f64)> = vec![(0.0, 0.2)];
    for _ in 0..(3.0 / dt).round() as usize {
        sim.step(dt).expect("finite");
        samples.push((sim.time(), f64::from(sim.positions()[1].x - rest)));
    }
    let peaks: Vec<(f64, f64)> = samples
        .windows(3)
        .filter(|w| w[1].1 > w[0].1 && w[1].1 >= w[2].1 && w[1].1 > 0.0)
        .map(|w| {
            let (y0, y1, y2) = (w[0].1, w[1].1, w[2].1);
            let h = w[1].0 - w[0].0;
            let offset = 0.5 * (y0 - y2) / (y0 - 2.0 * y1 + y2);
            (w[1].0 + offset * h, y1 - 0.25 * (y0 - y2) * offset)
        })
        .collect();
    assert!(peaks.len() >= 3, "{} peaks", peaks.len());
    let (first, last) = (peaks[0], peaks[peaks.len() - 1]);
    let periods = (peaks.len() - 1) as f64;
    let period = (last.0 - first.0) / periods;
    let sigma = (first.1 / last.1).ln() / (last.0 - first.0);
    (sigma, period)
}

/// Xpbd's projection is implicit in the spring, which costs energy even without damping: a
/// mode of angular frequency ω decays at about ω² h / 2 for a sub-step h (backward Euler's
/// rate). The damped oscillator is held to the exact σ plus that, at the default 32 sub-steps,
/// and to the exact σ alone at 256, where the scheme's own share is a tenth of a percent.
#[test]
fn a_damped_oscillator_decays_at_the_exact_rate() {
    // x(t) = A e^(−σt) cos(ω_d t): σ = d / (2m) = 1 /s, ω_d = √(k/m − σ²).
    let sigma_exact = 1.0;
    let period_exact = 2.0 * std::f64::consts::PI / (100.0f64 - 1.0).sqrt();
    let dt = 1.0 / 60.0;
    for (integrator, dt, substeps) in [
        (Integrator::Explicit, 1e-3, 1),
        (Integrator::Xpbd, dt, DEFAULT_SUBSTEPS),
        (Integrator::Xpbd, dt, 256),
    ] {
        let (sigma, period) = damped_decay(integrator, dt, substeps);
        let h = f64::from(dt) / f64::from(substeps);
        let scheme = if integrator == Integrator::Xpbd { 100.0 * h / 2.0 } else { 0.0 };
        let (e_sigma, e_period) =
            ((sigma - scheme) / sigma_exact - 1.0, period / period_exact - 1.0);
        println!(
            "{integrator:?} at {substeps} sub-steps: decay {sigma:.4} /s (exact {sigma_exact} + the scheme's {scheme:.4}), period {period:.5} s (exact {period_exact:.5}); errors {:.2}%, {:.3}%",
            e_sigma * 100.0,
            e_period * 100.0
        );
        assert!(e_sigma.abs() < 0.02, "{integrator:?}: decay rate off by {:.2}%", e_sigma * 100.0);
        assert!(e_period.abs() < 0.01, "{integrator:?}: period off by {:.2}%", e_period * 100.0);
        if substeps == 256 {
            assert!((sigma / sigma_exact - 1.0).abs() < 0.01, "converges: {sigma}");
        }
    }
}
