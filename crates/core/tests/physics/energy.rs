//! Acceptance 2 and 3: energy conservation of Explicit; Adaptive never gains energy where
//! Explicit blows up.

use crate::common::{GridSprings, grid_cloth};
use glam::{Vec3, Vec3A};
use springmesh_core::{Integrator, Simulation, SpringModel};

/// Moves every free node of `sim` by a deterministic pseudo-random offset of up to `amount` m.
fn perturb(sim: &mut Simulation, amount: f32) {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    };
    for p in sim.positions_mut() {
        *p += Vec3A::new(next(), next(), next()) * amount;
    }
}

fn cloth(k: f32, mass: f32, integrator: Integrator, gravity: bool) -> SpringModel {
    let mut m = grid_cloth(10, 0.1, mass, GridSprings { stiffness: k, damping: 0.0 });
    m.params.integrator = integrator;
    m.params.substeps = 1;
    m.params.damping = 0.0;
    // The integrators alone: tethers would take energy out and keep a blow-up bounded.
    m.params.tethers = None;
    if !gravity {
        m.params.gravity = Vec3::ZERO;
        m.anchors.clear();
    }
    m
}

#[test]
fn explicit_conserves_energy_of_an_undamped_cloth() {
    let model = cloth(10.0, 1.0, Integrator::Explicit, false);
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    perturb(&mut sim, 0.02);
    let e0 = sim.energy().total();
    assert!(e0 > 1e-4, "the perturbation stores energy: {e0}");
    let mut worst: f64 = 0.0;
    for _ in 0..10_000 {
        sim.step(1e-3).expect("finite");
        worst = worst.max((sim.energy().total() - e0).abs() / e0);
    }
    println!("explicit 10 s, E0 = {e0:.6} J, largest relative deviation {:.4}%", worst * 100.0);
    assert!(worst < 0.01, "energy drifted {:.3}%", worst * 100.0);
}

#[test]
fn adaptive_stays_finite_and_never_gains_energy_where_explicit_blows_up() {
    let (k, mass, dt) = (1e4, 0.01, 1.0 / 60.0);
    let explicit = cloth(k, mass, Integrator::Explicit, true);
    let mut sim =
        Simulation::new(&springmesh_core::ValidModel::new(explicit.clone()).expect("valid"));
    let blew_up = (0..600).any(|_| sim.step(dt).is_err());
    assert!(blew_up, "this model must be too stiff for Explicit at {dt} s");

    let adaptive = cloth(k, mass, Integrator::Adaptive, true);
    let mut sim =
        Simulation::new(&springmesh_core::ValidModel::new(adaptive.clone()).expect("valid"));
    let mut previous = sim.energy().total();
    let mut substeps = 0;
    for step in 0..120 {
        substeps += sim.step(dt).expect("adaptive stays finite").substeps;
        let e = sim.energy();
        let scale = (e.kinetic + e.elastic).max(1e-9);
        assert!(
            e.total() <= previous + 1e-6 * scale,
            "step {step}: energy rose from {previous} to {}",
            e.total()
        );
        previous = e.total();
        assert!(sim.positions().iter().all(|p| p.is_finite()));
    }
    println!("adaptive: 2 s in {substeps} sub-steps, final energy {previous:.6} J");
    assert!(sim.positions()[55].y < -0.05, "the cloth falls");
}

/// Many small Xpbd sub-steps must not gain energy from f32 rounding: second after second the
/// average energy of an undamped cloth may only fall (implicit projection dissipates; single
/// frames may wobble by a fraction of a percent). When the solver worked on absolute
/// positions, 128 sub-steps gained 160% in 10 s from this start.
#[test]
fn xpbd_with_many_substeps_never_gains_energy() {
    for substeps in [32, 128, 512] {
        let mut model = cloth(1000.0, 0.01, Integrator::Xpbd, false);
        model.params.substeps = substeps;
        let mut sim =
            Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
        // A small out-of-plane ripple: about 3 mJ, so rounding noise would show.
        for (i, p) in sim.positions_mut().iter_mut().enumerate() {
            p.y += 0.01 * ((i * 7919 % 13) as f32 / 13.0 - 0.5);
        }
        let e0 = sim.energy().total();
        let mut previous = e0;
        for second in 0..10 {
            let mean = (0..60)
                .map(|_| {
                    sim.step(1.0 / 60.0).expect("finite");
                    sim.energy().total()
                })
                .sum::<f64>()
                / 60.0;
            assert!(
                mean <= previous * (1.0 + 1e-3),
                "{substeps} sub-steps, second {second}: {previous} -> {mean}"
            );
            previous = mean;
        }
        println!(
            "xpbd {substeps} sub-steps: energy {e0:.4e} -> {previous:.4e} J (last second's mean)"
        );
    }
}

/// A hanging cloth comes to rest under Xpbd: no solver noise keeps it moving.
#[test]
fn hanging_xpbd_cloth_comes_to_rest() {
    let mut model = grid_cloth(20, 0.05, 0.01, GridSprings { stiffness: 1000.0, damping: 0.05 });
    model.params.substeps = 128;
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    let report = sim
        .settle(&springmesh_core::sim::SettleOptions {
            energy_threshold: 1e-7,
            quiet_seconds: 0.5,
            max_seconds: 90.0,
        })
        .expect("finite");
    println!(
        "hanging cloth at rest after {:.1} s, kinetic energy {:.2e} J",
        report.seconds, report.kinetic_energy
    );
    assert!(report.settled, "{report:?}");
}
