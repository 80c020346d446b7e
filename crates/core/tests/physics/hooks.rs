//! Core II acceptance 6: a game's own force field (a vortex) and collider (a bowl), written
//! here against the public traits, work with every integrator.

use glam::{Vec3, Vec3A};
use springmesh_core::{Collider, Contact, ForceField, Integrator, Node, Simulation, SpringModel};
use std::sync::Arc;

/// A force of `strength` N per metre of distance from the y axis, around it
/// (counter-clockwise seen from above): torque k r² about the axis on a node at radius r.
struct Vortex {
    strength: f32,
}

impl ForceField for Vortex {
    fn add_forces(
        &self,
        _time: f64,
        positions: &[Vec3A],
        _velocities: &[Vec3A],
        forces: &mut [Vec3A],
    ) {
        for (f, p) in forces.iter_mut().zip(positions) {
            let radial = Vec3A::new(p.x, 0.0, p.z);
            *f += Vec3A::Y.cross(radial) * self.strength;
        }
    }
}

/// The inside of a sphere: nodes stay within `radius` of `center`.
struct Bowl {
    center: Vec3,
    radius: f32,
}

impl Collider for Bowl {
    fn contact(&self, _from: Vec3, to: Vec3, radius: f32) -> Option<Contact> {
        let d = to - self.center;
        let room = self.radius - radius;
        (d.length() > room).then(|| Contact {
            position: self.center + d.normalize() * room,
            normal: -d.normalize(),
            friction: 0.2,
            restitution: 0.0,
            velocity: Vec3::ZERO,
        })
    }
}

fn free_nodes(points: &[Vec3], mass: f32) -> SpringModel {
    let mut m = SpringModel::default();
    for &p in points {
        m.nodes.push(Node { position: p, mass });
    }
    m.params.damping = 0.0;
    m
}

#[test]
fn a_vortex_spins_nodes_up_at_its_torque() {
    let points = [Vec3::X, Vec3::NEG_X, Vec3::Z, Vec3::NEG_Z];
    let (k, mass, seconds) = (0.2f32, 0.5f32, 0.5f32);
    for integrator in Integrator::ALL {
        let mut model = free_nodes(&points, mass);
        model.params.gravity = Vec3::ZERO;
        model.params.integrator = integrator;
        let mut sim =
            Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
        sim.add_force_field(Arc::new(Vortex { strength: k }));
        for _ in 0..(seconds * 60.0) as usize {
            sim.step(1.0 / 60.0).expect("finite");
        }
        // Angular momentum about +y: L = Σ m (r × v)·ŷ; the torque on each node is k r², and r
        // stays within 1% of 1 m over half a second, so L ≈ 4 k t.
        let l: f32 =
            sim.positions().iter().zip(sim.velocities()).map(|(p, v)| mass * p.cross(*v).y).sum();
        let expected = 4.0 * k * seconds;
        println!("{integrator:?}: L = {l:.4}, expected {expected:.4}");
        assert!((l / expected - 1.0).abs() < 0.03, "{integrator:?}: L = {l}, expected {expected}");
    }
}

#[test]
fn nodes_dropped_into_a_bowl_stay_in_it_and_settle_at_the_bottom() {
    let bowl = Bowl { center: Vec3::new(0.0, 1.0, 0.0), radius: 1.0 };
    let points: Vec<Vec3> =
        (0..5).map(|i| Vec3::new(-0.4 + 0.2 * i as f32, 1.2, 0.1 * i as f32)).collect();
    for integrator in Integrator::ALL {
        let mut model = free_nodes(&points, 0.05);
        model.params.damping = 1.0;
        model.params.node_radius = 0.02;
        model.params.integrator = integrator;
        let mut sim =
            Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
        sim.add_collider(Arc::new(Bowl { center: bowl.center, radius: bowl.radius }));
        for step in 0..600 {
            sim.step(1.0 / 60.0).expect("finite");
            for p in sim.positions() {
                let d = Vec3::from(*p).distance(bowl.center);
                assert!(
                    d <= bowl.radius - 0.02 + 1e-4,
                    "{integrator:?} step {step}: {d} m from the centre"
                );
            }
        }
        for p in sim.positions() {
            assert!(p.y < 0.05, "{integrator:?}: settled near the bottom, at {p}");
        }
    }
}
