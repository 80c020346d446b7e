//! Acceptance 4: a stiff 64 × 64 cloth under gravity converges with Xpbd at 60 Hz.

use crate::common::{GridSprings, grid_cloth};
use springmesh_core::{Integrator, Simulation, SpringKind};

#[test]
fn stiff_cloth_converges() {
    let model = grid_cloth(64, 0.05, 0.001, GridSprings { stiffness: 1e5, damping: 0.0 });
    assert_eq!(model.params.integrator, Integrator::Xpbd, "the default");
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    for _ in 0..600 {
        sim.step(model.params.dt).expect("finite");
    }
    let p = sim.positions();
    assert!(p.iter().all(|x| x.is_finite()));
    let mut worst: f32 = 0.0;
    for s in model.springs.iter().filter(|s| s.kind == SpringKind::Stretch) {
        let len = p[s.a.index()].distance(p[s.b.index()]);
        worst = worst.max((len / s.rest_length - 1.0).abs());
    }
    let lowest = p.iter().map(|x| x.y).fold(f32::INFINITY, f32::min);
    println!(
        "64×64 cloth, {} sub-steps: worst structural strain {:.3}%, lowest node y = {lowest:.3} m",
        model.params.substeps,
        worst * 100.0
    );
    assert!(lowest < -2.0, "the cloth hangs down from its corners");
    assert!(worst < 0.05, "structural strain {:.2}%", worst * 100.0);
}
