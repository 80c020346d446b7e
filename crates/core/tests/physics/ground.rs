//! Core II acceptance 3: a dropped cloth ends above the ground; a node on a 30° slope stays put
//! with friction 0.7 and slides with 0.3, as tan 30° = 0.577 says.

use crate::common::{GridSprings, grid_cloth};
use glam::Vec3;
use springmesh_core::model::{Ground, Obstacle, Shape, Surface};
use springmesh_core::{Integrator, Node, Simulation, SpringModel};

#[test]
fn a_dropped_cloth_ends_above_the_ground() {
    for integrator in Integrator::ALL {
        let mut model =
            grid_cloth(10, 0.05, 0.005, GridSprings { stiffness: 500.0, damping: 0.02 });
        model.anchors.clear();
        for p in model.nodes.positions_mut() {
            p.y = 0.3;
        }
        let (height, radius) = (0.1, 0.01);
        model.params.ground = Some(Ground { height, surface: Surface::default() });
        model.params.node_radius = radius;
        model.params.integrator = integrator;
        let mut sim =
            Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
        for step in 0..180 {
            sim.step(1.0 / 60.0).expect("finite");
            let lowest = sim.positions().iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
            assert!(
                lowest >= height + radius - 1e-5,
                "{integrator:?}, step {step}: a node at {lowest} m"
            );
        }
        let highest = sim.positions().iter().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max);
        assert!(
            highest < height + radius + 0.01,
            "{integrator:?}: it lies flat (highest {highest} m)"
        );
    }
}

/// One free node resting on a plane through the origin tilted 30° about z, rising towards −x.
fn on_slope(friction: f32, integrator: Integrator) -> SpringModel {
    let (s, c) = 30f32.to_radians().sin_cos();
    let normal = Vec3::new(s, c, 0.0);
    let radius = 0.01;
    let mut m = SpringModel::default();
    m.nodes.push(Node { position: normal * radius, mass: 0.1 });
    m.params.node_radius = radius;
    m.params.damping = 0.0;
    m.params.integrator = integrator;
    m.params.colliders = vec![Obstacle {
        shape: Shape::Plane { point: Vec3::ZERO, normal },
        surface: Surface { friction, restitution: 0.0 },
    }];
    m
}

#[test]
fn friction_holds_a_node_on_a_slope_only_above_the_tangent() {
    let seconds = 2.0f32;
    for integrator in Integrator::ALL {
        let travelled = |friction: f32| {
            let model = on_slope(friction, integrator);
            let mut sim =
                Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
            for _ in 0..(seconds * 60.0) as usize {
                sim.step(1.0 / 60.0).expect("finite");
            }
            Vec3::from(sim.positions()[0]).distance(model.nodes.positions()[0])
        };
        let held = travelled(0.7);
        assert!(held < 1e-4, "{integrator:?}: μ = 0.7 > tan 30°, yet it moved {held} m");
        // μ = 0.3 < tan 30°: it slides with acceleration g (sin 30° − μ cos 30°).
        let (s, c) = 30f32.to_radians().sin_cos();
        let expected = 0.5 * 9.81 * (s - 0.3 * c) * seconds * seconds;
        let slid = travelled(0.3);
        println!(
            "{integrator:?}: μ 0.7 moved {held:.6} m; μ 0.3 slid {slid:.4} m of {expected:.4}"
        );
        assert!(
            (slid / expected - 1.0).abs() < 0.02,
            "{integrator:?}: slid {slid} m, expected {expected} m"
        );
    }
}
