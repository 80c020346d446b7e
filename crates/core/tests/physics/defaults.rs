//! Default parameters never make a model stiffer than its springs (issue 26): with
//! `SimParams::default()` a soft rope hangs where its springs' static solution puts it, and a
//! mass released on a spring swings with the spring's period and peak speed.

use crate::common;
use glam::Vec3;
use springmesh_core::model::SimParams;
use springmesh_core::{Integrator, Node, NodeId, Simulation, Spring, SpringKind, SpringModel};

#[test]
fn a_soft_rope_hangs_where_its_springs_put_it() {
    // Ten 0.1 kg nodes 0.1 m apart on 200 N/m springs (damping 0.5 N·s/m), hanging from the
    // top one. Spring i (from the top, 0..9) carries the 9 − i nodes below it, so it stretches
    // (9 − i) · 0.981 N / 200 N/m; together 45 · 0.004905 = 0.2207 m over the 0.9 m at rest.
    let mut m = SpringModel::default();
    for i in 0..10 {
        m.nodes.push(Node { position: Vec3::new(0.0, -0.1 * i as f32, 0.0), mass: 0.1 });
    }
    for i in 0..9 {
        let s = Spring::new(NodeId(i), NodeId(i + 1), 0.1, 200.0, SpringKind::Stretch);
        m.springs.push(s.with_damping(0.5));
    }
    m.anchors = vec![NodeId(0)];
    assert_eq!(m.params, SimParams::default());
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(m.clone()).expect("valid"));
    for _ in 0..20 * 60 {
        sim.step(m.params.dt).expect("finite");
    }
    let hang = -sim.positions()[9].y;
    let expected = 0.9 + 45.0 * 0.1 * 9.81 / 200.0;
    println!("rope: bottom node {hang:.4} m below the anchor, springs' solution {expected:.4} m");
    assert!((hang / expected - 1.0).abs() < 0.01, "{hang} m against {expected} m");
}

/// The period (from upward crossings of the rest length) and the fastest speed over 3 s of
/// 1 kg released at 1.1 m on a 1 m, 100 N/m spring, no gravity, undamped, with `integrator`
/// at frame step `dt`, and otherwise the default parameters (tethers included).
fn swing(integrator: Integrator, dt: f32, substeps: u32) -> (f64, f32) {
    let mut m = common::oscillator(1.0, 100.0, 1.0, Vec3::new(1.1, 0.0, 0.0));
    m.params.tethers = SimParams::default().tethers;
    (m.params.integrator, m.params.dt, m.params.substeps) = (integrator, dt, substeps);
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(m.clone()).expect("valid"));
    let (mut crossings, mut fastest) = (Vec::new(), 0.0f32);
    let mut prev = sim.positions()[1].x - 1.0;
    for _ in 0..(3.0 / dt).round() as usize {
        let t0 = sim.time();
        sim.step(dt).expect("finite");
        let x = sim.positions()[1].x - 1.0;
        if prev < 0.0 && x >= 0.0 {
            crossings.push(t0 + f64::from(-prev / (x - prev)) * f64::from(dt));
        }
        prev = x;
        fastest = fastest.max(sim.velocities()[1].length());
    }
    assert!(crossings.len() >= 3, "it swings: {} crossings", crossings.len());
    let period = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64;
    (period, fastest)
}

#[test]
fn a_mass_on_a_spring_swings_with_the_springs_period_and_speed() {
    // T = 2π √(m/k) = 0.6283 s; released 0.1 m out, it peaks at ω A = 10 /s · 0.1 m = 1 m/s.
    let expected = std::f64::consts::TAU * (1.0f64 / 100.0).sqrt();
    let defaults = SimParams::default();
    for (integrator, dt, substeps) in
        [(defaults.integrator, defaults.dt, defaults.substeps), (Integrator::Explicit, 1e-3, 1)]
    {
        let (period, fastest) = swing(integrator, dt, substeps);
        println!(
            "{integrator:?} at {dt} s: period {period:.4} s (expected {expected:.4}), peak speed {fastest:.4} m/s (expected 1.0)"
        );
        assert!((period / expected - 1.0).abs() < 0.01, "{integrator:?}: period {period}");
        assert!((fastest - 1.0).abs() < 0.05, "{integrator:?}: peak speed {fastest}");
    }
}
