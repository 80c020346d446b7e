//! Rigid bodies a game's physics engine owns, met by a simulation's nodes
//! ([`Simulation::set_rigid_bodies`]). The tests play the engine: a body of known mass and
//! inertia, set before each step, given the step's impulses after it, then moved by
//! semi-implicit Euler. Judged at every frame, each against the same run with the impulses
//! not applied to the body (what the tests must catch):
//!
//! - a free cloth thrown at a resting box without gravity: the total momentum of cloth and box
//!   stays what it was, and the total energy never rises;
//! - a ball thrown at a hanging cloth is caught and slowed, and no node is ever inside it;
//! - a box dropped on a cloth hammock is held by it, and the hammock sags.

use crate::common::{GridSprings, grid};
use glam::{Mat3, Mat4, Quat, Vec3};
use springmesh_core::model::{Shape, Surface};
use springmesh_core::{
    CoreError, Integrator, NodeId, RigidBody, RigidImpulse, Simulation, SpringModel, ValidModel,
};

const DT: f32 = 1.0 / 60.0;
const NODE_RADIUS: f32 = 0.01;

/// A rigid body as a game's engine keeps it: its shape about its centre of mass (at the
/// origin), where it is, how it moves, its mass and inertia (principal, about the centre).
#[derive(Clone, Copy, Debug)]
struct Engine {
    local: Shape,
    position: Vec3,
    rotation: Quat,
    v: Vec3,
    omega: Vec3,
    mass: f32,
    inertia: Vec3,
}

impl Engine {
    /// A solid ball of `radius` and `mass` at `position`.
    fn ball(radius: f32, mass: f32, position: Vec3) -> Engine {
        let i = 0.4 * mass * radius * radius;
        let local = Shape::Sphere { center: Vec3::ZERO, radius };
        Engine {
            local,
            position,
            rotation: Quat::IDENTITY,
            v: Vec3::ZERO,
            omega: Vec3::ZERO,
            mass,
            inertia: Vec3::splat(i),
        }
    }

    /// A solid cube of side `side` and `mass` at `position`.
    fn cube(side: f32, mass: f32, position: Vec3) -> Engine {
        let i = mass * side * side / 6.0;
        let half_extents = Vec3::splat(side / 2.0);
        let local = Shape::Box { center: Vec3::ZERO, half_extents, rotation: Quat::IDENTITY };
        Engine {
            local,
            position,
            rotation: Quat::IDENTITY,
            v: Vec3::ZERO,
            omega: Vec3::ZERO,
            mass,
            inertia: Vec3::splat(i),
        }
    }

    fn inverse_inertia(&self) -> Mat3 {
        let r = Mat3::from_quat(self.rotation);
        r * Mat3::from_diagonal(self.inertia.recip()) * r.transpose()
    }

    /// What the simulation is told of it.
    fn body(&self) -> RigidBody {
        RigidBody {
            shape: self
                .local
                .transformed(Mat4::from_rotation_translation(self.rotation, self.position)),
            center_of_mass: self.position,
            linear_velocity: self.v,
            angular_velocity: self.omega,
            inverse_mass: 1.0 / self.mass,
            inverse_inertia: self.inverse_inertia(),
            surface: Surface::default(),
        }
    }

    /// The engine's frame: the impulses applied when `applied`, then gravity `g`, then the move.
    fn step(&mut self, impulse: RigidImpulse, applied: bool, g: Vec3) {
        if applied {
            self.v += impulse.linear / self.mass;
            self.omega += self.inverse_inertia() * impulse.angular;
        }
        self.position += self.v * DT;
        let spin = self.omega * DT;
        if spin.length() > 0.0 {
            self.rotation = (Quat::from_scaled_axis(spin) * self.rotation).normalize();
        }
        self.v += g * DT;
    }

    fn kinetic(&self) -> f64 {
        let spin = self.rotation.inverse() * self.omega;
        let e = 0.5 * self.mass * self.v.length_squared() + 0.5 * (self.inertia * spin).dot(spin);
        f64::from(e)
    }
}

/// A sheet of n × n nodes `spacing` apart placed by `at(i, j)`, 0.5 kg in all, its springs
/// damped, no tethers, the node radius of the tests, gravity `g`.
fn sheet(n: usize, spacing: f32, g: Vec3, at: impl Fn(f32, f32) -> Vec3) -> SpringModel {
    let springs = GridSprings { stiffness: 2000.0, damping: 0.02 };
    let mut model = grid(n, n, 0.5 / (n * n) as f32, springs, |i, j| {
        at(i as f32 * spacing, j as f32 * spacing)
    });
    model.params.integrator = Integrator::Xpbd;
    model.params.tethers = None;
    model.params.node_radius = NODE_RADIUS;
    model.params.gravity = g;
    model.params.ground = None;
    model
}

fn simulation(model: SpringModel) -> Simulation {
    Simulation::new(&ValidModel::new(model).expect("valid"))
}

/// Momentum Σ m v of the simulation's nodes.
fn momentum(sim: &Simulation, model: &SpringModel) -> Vec3 {
    let masses = model.nodes.iter().map(|n| n.mass);
    sim.velocities().iter().zip(masses).map(|(&v, m)| Vec3::from(v) * m).sum()
}

/// The worst drift of the total momentum (as a fraction of the start's) and the largest rise of
/// the total energy (J) over a free 0.3 kg... cloth thrown at 3 m/s at a resting 1 kg box, and
/// the box's speed at the end.
fn thrown_at_a_box(applied: bool) -> (f32, f64, f32) {
    let mut model = sheet(11, 0.04, Vec3::ZERO, |a, b| Vec3::new(a - 0.2, b - 0.2, -0.5));
    // The global damping takes momentum by design (a drag on every node): off here.
    model.params.damping = 0.0;
    let mut sim = simulation(model.clone());
    sim.velocities_mut().iter_mut().for_each(|v| *v = glam::Vec3A::new(0.0, 0.0, 3.0));
    let mut cube = Engine::cube(0.3, 1.0, Vec3::new(0.05, 0.0, 0.0));
    let start = momentum(&sim, &model) + cube.v * cube.mass;
    let energy = |sim: &Simulation, cube: &Engine| sim.energy().total() + cube.kinetic();
    let first = energy(&sim, &cube);
    let (mut drift, mut rise) = (0.0f32, 0.0f64);
    for _ in 0..60 {
        sim.set_rigid_bodies(&[cube.body()]).expect("a valid body");
        sim.step(DT).expect("finite");
        cube.step(sim.rigid_impulses()[0], applied, Vec3::ZERO);
        let total = momentum(&sim, &model) + cube.v * cube.mass;
        drift = drift.max((total - start).length() / start.length());
        rise = rise.max(energy(&sim, &cube) - first);
    }
    (drift, rise, cube.v.length())
}

#[test]
fn a_cloth_thrown_at_a_box_keeps_the_momentum_of_both_and_gains_no_energy() {
    let (drift, rise, speed) = thrown_at_a_box(true);
    println!(
        "momentum within {:.3}%, energy rose at most {rise:.2e} J, box at {speed:.3} m/s",
        drift * 100.0
    );
    assert!(drift < 0.01, "momentum kept within 1% ({:.3}%)", drift * 100.0);
    assert!(rise < 1e-4, "the energy never rises ({rise:e} J)");
    assert!(speed > 0.3, "the box was pushed ({speed} m/s)");
    let (drift, _, _) = thrown_at_a_box(false);
    assert!(drift > 0.1, "without the box's impulses the momentum is lost ({drift})");
}

/// A ball of 0.2 kg and 10 cm thrown at 6 m/s at a 1 × 1 m cloth of 0.5 kg hanging from its
/// top row: its speed towards the cloth 0.25 s after the throw, and the deepest any node was
/// inside it.
fn thrown_at_a_curtain(applied: bool) -> (f32, f32) {
    let g = Vec3::new(0.0, -9.81, 0.0);
    let mut model = sheet(21, 0.05, g, |a, b| Vec3::new(a, -b, 0.0));
    model.anchors = (0..21).map(NodeId).collect();
    let mut sim = simulation(model);
    let radius = 0.1;
    let mut ball = Engine::ball(radius, 0.2, Vec3::new(0.5, -0.4, -0.6));
    ball.v = Vec3::new(0.0, 0.0, 6.0);
    let (mut forward, mut deepest) = (0.0, 0.0f32);
    for frame in 1..=60 {
        sim.set_rigid_bodies(&[ball.body()]).expect("a valid body");
        sim.step(DT).expect("finite");
        // The ball where the engine puts it after the impulses, as the game draws it.
        ball.step(sim.rigid_impulses()[0], applied, g);
        let inside = sim
            .positions()
            .iter()
            .map(|&p| radius + NODE_RADIUS - ball.position.distance(p.into()));
        deepest = deepest.max(inside.fold(0.0, f32::max));
        if frame == 15 {
            forward = ball.v.z;
        }
    }
    (forward, deepest)
}

#[test]
fn a_ball_thrown_at_a_hanging_cloth_is_caught_and_slowed() {
    let (forward, deepest) = thrown_at_a_curtain(true);
    println!(
        "the ball at {forward:.2} m/s towards the cloth 0.25 s after the throw; nodes at most {deepest:.4} m inside"
    );
    assert!(forward < 2.0, "slowed from 6 m/s ({forward} m/s)");
    assert!(deepest < 0.005, "no node inside the ball ({deepest} m)");
    let (forward, _) = thrown_at_a_curtain(false);
    assert!(forward > 5.9, "without its impulses the ball is not slowed ({forward} m/s)");
}

/// A 1 kg box of 0.2 m dropped from 0.3 m onto a 1 × 1 m hammock of 0.5 kg held along two
/// edges: how far the hammock's middle sagged, how low the box's centre got, how far its
/// height ranged over the last second, and the deepest any node got inside it.
fn dropped_on_a_hammock(applied: bool) -> (f32, f32, f32, f32) {
    let g = Vec3::new(0.0, -9.81, 0.0);
    let n = 21;
    let mut model = sheet(n, 0.05, g, |a, b| Vec3::new(a, 0.0, b));
    model.anchors = (0..n).flat_map(|j| [j * n, j * n + n - 1]).map(|i| NodeId(i as u32)).collect();
    let mut sim = simulation(model);
    let mut cube = Engine::cube(0.2, 1.0, Vec3::new(0.5, 0.3, 0.5));
    let (mut lowest, mut deepest) = (f32::MAX, 0.0f32);
    let (mut low, mut high) = (f32::MAX, f32::MIN);
    for frame in 0..180 {
        sim.set_rigid_bodies(&[cube.body()]).expect("a valid body");
        sim.step(DT).expect("finite");
        cube.step(sim.rigid_impulses()[0], applied, g);
        let local = |p: Vec3| cube.rotation.inverse() * (p - cube.position);
        let depth = sim.positions().iter().map(|&p| {
            let q = local(p.into()).abs();
            (0.1 + NODE_RADIUS - q.max_element()).max(0.0)
                * f32::from(q.cmple(Vec3::splat(0.1 + NODE_RADIUS)).all())
        });
        deepest = deepest.max(depth.fold(0.0, f32::max));
        lowest = lowest.min(cube.position.y);
        if frame >= 120 {
            (low, high) = (low.min(cube.position.y), high.max(cube.position.y));
        }
    }
    let middle = sim.positions()[n * n / 2];
    (-middle.y, lowest, high - low, deepest)
}

#[test]
fn a_box_dropped_on_a_hammock_is_held_and_sags_it() {
    let (sag, lowest, range, deepest) = dropped_on_a_hammock(true);
    println!(
        "sagged {sag:.3} m, the box's centre at least {lowest:.3} m high and within {range:.4} m in its last second, nodes at most {deepest:.4} m inside"
    );
    assert!(sag > 0.02, "the hammock sags ({sag} m)");
    assert!(lowest > -0.2, "the box is held ({lowest} m)");
    assert!(range < 0.02, "the box rides on the hammock ({range} m)");
    assert!(deepest < 0.005, "no node inside the box ({deepest} m)");
    let (_, lowest, _, _) = dropped_on_a_hammock(false);
    assert!(lowest < -1.0, "without its impulses the box falls through ({lowest} m)");
}

#[test]
fn bodies_that_are_not_valid_or_meet_another_integrator_are_refused() {
    let model = sheet(3, 0.1, Vec3::ZERO, |a, b| Vec3::new(a, b, 0.0));
    let mut sim = simulation(model.clone());
    let mut body = Engine::ball(0.1, 1.0, Vec3::ZERO).body();
    body.inverse_mass = -1.0;
    assert!(matches!(sim.set_rigid_bodies(&[body]), Err(CoreError::BadRigidBody { index: 0, .. })));
    body.inverse_mass = 1.0;
    body.shape = Shape::Plane { point: Vec3::ZERO, normal: Vec3::Y };
    assert!(matches!(sim.set_rigid_bodies(&[body]), Err(CoreError::BadRigidBody { index: 0, .. })));
    let mut explicit = model;
    explicit.params.integrator = Integrator::Explicit;
    let mut sim = simulation(explicit);
    let body = Engine::ball(0.1, 1.0, Vec3::ZERO).body();
    assert!(matches!(sim.set_rigid_bodies(&[body]), Err(CoreError::RigidBodiesNeedXpbd)));
    assert!(sim.set_rigid_bodies(&[]).is_ok());
}
