//! Every built-in sample is valid and simulates for 5 s with the default integrator without
//! NaN, without flying apart, and (the closed ones) without turning inside out.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code.

use glam::Vec3A;
use springmesh_convert::samples::Sample;
use springmesh_core::{Integrator, NodeId, Simulation};

/// Signed volume enclosed by outward-wound triangles (divergence theorem): positive when the
/// surface faces out.
fn signed_volume(p: &[Vec3A], faces: &[[NodeId; 3]]) -> f32 {
    faces.iter().map(|f| p[f[0].index()].dot(p[f[1].index()].cross(p[f[2].index()])) / 6.0).sum()
}

#[test]
fn samples_simulate_for_five_seconds() {
    for sample in Sample::ALL {
        let model = sample.model();
        assert_eq!(model.validate(), Ok(()), "{sample:?}");
        assert_eq!(model.params.integrator, Integrator::Xpbd, "{sample:?} uses the default");
        assert!(!model.anchors.is_empty(), "{sample:?} is held somewhere");
        let mut sim = Simulation::new(&model).expect("valid");
        let start: Vec<Vec3A> = sim.positions().to_vec();
        let closed = matches!(sample, Sample::Jelly | Sample::Balloon);
        let v0 = signed_volume(sim.positions(), model.faces.nodes());
        for _ in 0..300 {
            sim.step(model.params.dt).unwrap_or_else(|e| panic!("{sample:?}: {e}"));
        }
        let p = sim.positions();
        assert!(p.iter().all(|x| x.is_finite()), "{sample:?}");
        let travel = p.iter().zip(&start).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max);
        let v1 = signed_volume(p, model.faces.nodes());
        println!(
            "{:8}: {:4} nodes {:5} springs {:4} faces; farthest node moved {travel:.2} m; volume {v0:.4} -> {v1:.4} m³",
            sample.name(),
            model.nodes.len(),
            model.springs.len(),
            model.faces.len()
        );
        assert!(travel < 5.0, "{sample:?} flew apart: a node moved {travel} m");
        if closed {
            assert!(v0 > 0.0, "{sample:?} is wound outward");
            assert!(
                v1 > 0.5 * v0,
                "{sample:?} collapsed or turned inside out: volume {v0} -> {v1}"
            );
        }
    }
}

#[test]
fn names_round_trip() {
    for s in Sample::ALL {
        assert_eq!(Sample::from_name(s.name()), Some(s));
    }
    assert_eq!(Sample::from_name("kite"), None);
}
