//! Acceptance 5: a chain hanging between two anchors settles onto the catenary of its length.
//!
//! For span S between anchors at equal height and chain length L, the catenary
//! y = a·cosh(x/a) (x measured from the lowest point) has L = 2a·sinh(S/(2a)); a is found by
//! bisection. The point at arc length σ from the lowest point is (a·asinh(σ/a), √(a² + σ²)).
//! Each node is compared with the catenary point at its own arc length along the chain.

use crate::common::chain;
use glam::Vec3;
use springmesh_core::Simulation;
use springmesh_core::sim::SettleOptions;

/// The catenary parameter a for span `s` and length `l` > `s`.
fn catenary_parameter(s: f64, l: f64) -> f64 {
    let (mut lo, mut hi) = (1e-3, 1e3);
    for _ in 0..200 {
        let a = 0.5 * (lo + hi);
        if 2.0 * a * (s / (2.0 * a)).sinh() > l {
            lo = a;
        } else {
            hi = a;
        }
    }
    0.5 * (lo + hi)
}

#[test]
fn hanging_chain_matches_the_catenary() {
    let (nodes, span, length) = (21, 1.0f64, 1.5f64);
    let half = 0.5 * span as f32;
    let mut model = chain(
        nodes,
        Vec3::new(-half, 0.0, 0.0),
        Vec3::new(half, 0.0, 0.0),
        length as f32,
        0.01,
        1e5,
    );
    model.params.damping = 2.0;
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    let report = sim
        .settle(&SettleOptions {
            // Stiff constraints in f32 keep a noise floor of ~1e-7 J (mm/s) at rest.
            energy_threshold: 1e-6,
            quiet_seconds: 0.5,
            max_seconds: 60.0,
        })
        .expect("finite");
    assert!(report.settled, "{report:?}");

    let a = catenary_parameter(span, length);
    let top = (a * a + (length / 2.0).powi(2)).sqrt();
    let mut worst: f64 = 0.0;
    for (i, p) in sim.positions().iter().enumerate() {
        let sigma = length * i as f64 / (nodes - 1) as f64 - length / 2.0;
        let x = a * (sigma / a).asinh();
        let y = (a * a + sigma * sigma).sqrt() - top;
        let error = ((f64::from(p.x) - x).powi(2) + (f64::from(p.y) - y).powi(2)).sqrt();
        worst = worst.max(error / span);
    }
    println!(
        "settled in {:.1} s; a = {a:.4} m, sag {:.4} m; worst node {:.3}% of the span",
        report.seconds,
        top - a,
        worst * 100.0
    );
    assert!(worst < 0.01, "worst node off the catenary by {:.2}% of the span", worst * 100.0);
}
