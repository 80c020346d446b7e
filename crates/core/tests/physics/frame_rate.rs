//! Acceptance 6: the same damped model simulated at different frame rates ends in the same
//! place. 240 Hz divides into the model's sub-step exactly (the same physics, so the results
//! must agree to rounding); 144 Hz does not (14 sub-steps of 1/2016 s per frame instead of 32
//! of 1/1920 s), which measures how much the result depends on the step.

use crate::common::{GridSprings, grid_cloth};
use springmesh_core::{Integrator, Simulation, SpringModel};

fn run(model: &SpringModel, hz: f32, seconds: f32) -> Vec<glam::Vec3A> {
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    for _ in 0..(hz * seconds).round() as usize {
        sim.step(1.0 / hz).expect("finite");
    }
    sim.positions().to_vec()
}

/// Largest node distance between runs at 60 Hz and at `hz` for 2 s, over the diagonal.
fn largest_difference(model: &SpringModel, hz: f32) -> f32 {
    let a = run(model, 60.0, 2.0);
    let b = run(model, hz, 2.0);
    let diagonal = model.bounding_box().expect("nodes").diagonal();
    let worst = a.iter().zip(&b).map(|(p, q)| p.distance(*q)).fold(0.0, f32::max);
    worst / diagonal
}

fn damped_cloth(integrator: Integrator) -> SpringModel {
    let mut m = grid_cloth(16, 0.05, 0.01, GridSprings { stiffness: 500.0, damping: 0.05 });
    // Damped enough that the swing has mostly died down after 2 s: at 1/s it is still
    // swinging and the 144 Hz run differs by 0.95% of the diagonal for Xpbd.
    m.params.damping = 2.0;
    m.params.integrator = integrator;
    m
}

fn check(integrator: Integrator) {
    let model = damped_cloth(integrator);
    for hz in [240.0, 144.0] {
        let relative = largest_difference(&model, hz);
        println!(
            "{integrator:?} 60 Hz vs {hz} Hz: largest difference {:.3}% of the diagonal",
            relative * 100.0
        );
        assert!(relative < 0.01, "{integrator:?} at {hz} Hz: {:.3}%", relative * 100.0);
    }
}

#[test]
fn xpbd_is_frame_rate_independent() {
    check(Integrator::Xpbd);
}

#[test]
fn explicit_is_frame_rate_independent() {
    check(Integrator::Explicit);
}
