//! Issue 27: tuning a model by its lowest frequency or its sag, checked against the analytic
//! chain and by simulation.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code.

use glam::Vec3;
use springmesh_analysis::check::{CheckOptions, check};
use springmesh_analysis::modes::modes_hz;
use springmesh_analysis::stiffness_fit::{Choice, Target, fit_stiffness};
use springmesh_convert::samples::Sample;
use springmesh_core::{NodeId, Simulation, SpringKind, SpringModel, io};
use std::path::Path;

/// The authored chain: anchor – 100 N/m – 1 kg – 100 N/m – 1 kg along x, no gravity.
fn chain() -> SpringModel {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/models/chain.spring.json");
    io::load(&path).unwrap().into_inner()
}

#[test]
fn the_chain_tuned_to_two_hertz_has_the_analytic_stiffness() {
    // λ₁ = k/m (3 − √5)/2 = (2π · 2 Hz)²  =>  k = 413.42 N/m.
    let expected = (std::f64::consts::TAU * 2.0).powi(2) / ((3.0 - 5f64.sqrt()) / 2.0);
    let (tuned, report) =
        fit_stiffness(&chain(), Target::Frequency(2.0), &Choice::default(), |_| {}).unwrap();
    println!("{report:?}, expected k {expected}");
    for &k in tuned.springs.stiffnesses() {
        assert!((f64::from(k) - expected).abs() < 0.01 * expected, "k = {k}");
    }
    assert!((expected - 413.4).abs() < 0.05);
    assert!((report.factor - expected / 100.0).abs() < 1e-4 * report.factor);
    assert!((report.achieved - 2.0).abs() < 1e-4, "{}", report.achieved);
    assert!((report.before - 0.98363).abs() < 1e-4, "{}", report.before);
}

#[test]
fn the_tuned_chain_released_along_its_lowest_mode_swings_at_half_a_second() {
    let (tuned, _) =
        fit_stiffness(&chain(), Target::Frequency(2.0), &Choice::default(), |_| {}).unwrap();
    // K = k [[2, −1], [−1, 1]]: the lowest mode's shape is (1, (1 + √5)/2); 1 cm of it.
    let golden = (1.0 + 5f32.sqrt()) / 2.0;
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(tuned.clone()).unwrap());
    sim.positions_mut()[1].x += 0.01;
    sim.positions_mut()[2].x += 0.01 * golden;
    let dt = tuned.params.dt;
    // Times the last node passes its rest position (2 m) going out, interpolated.
    let mut crossings = Vec::new();
    let mut last = sim.positions()[2].x - 2.0;
    for frame in 1..=240 {
        sim.step(dt).unwrap();
        let now = sim.positions()[2].x - 2.0;
        if last < 0.0 && now >= 0.0 {
            let t = (frame - 1) as f32 * dt + dt * (-last / (now - last));
            crossings.push(f64::from(t));
        }
        last = now;
    }
    assert!(crossings.len() >= 6, "{crossings:?}");
    let periods: Vec<f64> = crossings.windows(2).map(|w| w[1] - w[0]).collect();
    println!("periods {periods:?}");
    // Each period, not just their mean: every swing keeps the tuned frequency.
    for p in &periods {
        assert!((p - 0.5).abs() < 0.02 * 0.5, "period {p} s against 0.5 s");
    }
}

#[test]
fn the_jelly_tuned_to_sag_three_percent_sags_three_percent_in_a_simulation() {
    let jelly = Sample::Jelly.model();
    let (tuned, report) =
        fit_stiffness(&jelly, Target::Sag(0.03), &Choice::default(), |_| {}).unwrap();
    println!("{report:?}");
    assert!(report.factor < 1.0, "3% is softer than the jelly's own 0.35%");
    // Measured independently: the check's gravity test with the model's own parameters,
    // long enough to come to rest, at its end.
    let options = CheckOptions { sag_seconds: 20.0, ..CheckOptions::default() };
    let measured = check(&tuned, &options).unwrap().course.end_error;
    println!("simulated sag {measured}");
    assert!((measured - 0.03).abs() < 0.003, "sag {measured}");
}

#[test]
fn a_subset_of_kinds_is_tuned_by_search_and_the_rest_left_alone() {
    let jelly = Sample::Jelly.model();
    let choice = Choice { kinds: vec![SpringKind::Vicinity], shape_matching: false };
    let (tuned, report) = fit_stiffness(&jelly, Target::Frequency(6.0), &choice, |_| {}).unwrap();
    println!("{report:?}");
    let lowest = modes_hz(&tuned, 1, |_| {}).unwrap()[0];
    assert!((lowest - 6.0).abs() < 0.006 * 6.0, "{lowest} Hz");
    for ((k0, k1), kind) in jelly
        .springs
        .stiffnesses()
        .iter()
        .zip(tuned.springs.stiffnesses())
        .zip(jelly.springs.kinds())
    {
        if *kind == SpringKind::Vicinity {
            assert!(
                (f64::from(*k1) - f64::from(*k0) * report.factor).abs() < 1e-3 * f64::from(*k1)
            );
        } else {
            assert_eq!(k0, k1, "a stretch spring is not tuned");
        }
    }
}

#[test]
fn unreachable_targets_are_refused_with_the_reason() {
    let error = |model: &SpringModel, target, choice: &Choice| {
        fit_stiffness(model, target, choice, |_| {}).unwrap_err().to_string()
    };
    // No bend springs in the jelly.
    let bend = Choice { kinds: vec![SpringKind::Bend], shape_matching: false };
    let e = error(&Sample::Jelly.model(), Target::Frequency(3.0), &bend);
    assert!(e.contains("none of the chosen"), "{e}");
    // Every node held: nothing sags whatever the stiffness.
    let mut held = Sample::Jelly.model();
    held.anchors = (0..held.nodes.len() as u32).map(NodeId).collect();
    let e = error(&held, Target::Sag(0.03), &Choice::default());
    assert!(e.contains("does not sag"), "{e}");
    // Two free nodes on a spring of no stiffness (and one on none): every motion is free.
    let mut lone = chain();
    lone.anchors.clear();
    lone.nodes.positions_mut()[2] = Vec3::new(10.0, 0.0, 0.0);
    lone.springs = Default::default();
    lone.springs.push(springmesh_core::Spring::new(
        NodeId(0),
        NodeId(1),
        1.0,
        0.0,
        SpringKind::Stretch,
    ));
    let e = error(&lone, Target::Frequency(2.0), &Choice::default());
    assert!(e.contains("no vibration"), "{e}");
    let e = error(&chain(), Target::Sag(1.5), &Choice::default());
    assert!(e.contains("between 0 and 1"), "{e}");
}
