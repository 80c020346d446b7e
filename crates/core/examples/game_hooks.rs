//! A game's own physics around a spring model: a [`ForceField`] (a fan blowing along x that
//! fades with distance), a [`Collider`] (a paddle the game moves every frame) and a break
//! listener, added to a chain of 1 g beads held at one end.
//!
//! ```text
//! cargo run --release -p springmesh-core --example game_hooks
//! ```

use glam::{Vec3, Vec3A};
use springmesh_core::{
    BreakEvent, Collider, Contact, ForceField, Node, NodeId, Simulation, Spring, SpringKind,
    SpringModel,
};
use std::error::Error;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

/// A fan at the origin blowing along +x with `strength` N per node at 1 m, fading as 1/d².
struct Fan {
    strength: f32,
}

impl ForceField for Fan {
    fn add_forces(
        &self,
        _time: f64,
        positions: &[Vec3A],
        _velocities: &[Vec3A],
        forces: &mut [Vec3A],
    ) {
        for (f, p) in forces.iter_mut().zip(positions) {
            let d2 = p.length_squared().max(0.04);
            *f += Vec3A::X * (self.strength / d2);
        }
    }
}

/// A horizontal paddle: the half-space below `height`, which the game raises over time.
struct Paddle {
    height: Mutex<f32>,
}

impl Collider for Paddle {
    fn contact(&self, _from: Vec3, to: Vec3, radius: f32) -> Option<Contact> {
        let top = *self.height.lock().ok()? + radius;
        (to.y < top).then(|| Contact {
            position: Vec3::new(to.x, top, to.z),
            normal: Vec3::Y,
            friction: 0.8,
            restitution: 0.2,
            velocity: Vec3::ZERO,
        })
    }
}

/// Ten beads 5 cm apart hanging from the first; the links break beyond 50% stretch.
fn chain() -> SpringModel {
    let mut m = SpringModel::default();
    for i in 0..10 {
        m.nodes.push(Node { position: Vec3::new(0.3, 1.0 - 0.05 * i as f32, 0.0), mass: 0.001 });
    }
    for i in 0..9 {
        let mut s = Spring::new(NodeId(i), NodeId(i + 1), 0.05, 50.0, SpringKind::Stretch);
        s.break_max = Some(0.075);
        m.springs.push(s);
    }
    m.anchors = vec![NodeId(0)];
    m
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(chain())?);
    sim.add_force_field(Arc::new(Fan { strength: 0.002 }));
    let paddle = Arc::new(Paddle { height: Mutex::new(0.0) });
    sim.add_collider(paddle.clone());
    let broken = Arc::new(AtomicU32::new(0));
    let count = broken.clone();
    sim.on_break(move |e: &BreakEvent| {
        count.fetch_add(1, Ordering::Relaxed);
        println!("  spring {} broke at {:.3} m, t = {:.2} s", e.spring, e.length, e.time);
    });
    println!("  time   paddle m   lowest free bead y m   tip x m");
    for frame in 1..=240 {
        // The game moves its paddle up 0.5 m/s; the beads ride on it.
        if let Ok(mut h) = paddle.height.lock() {
            *h = 0.5 * frame as f32 / 60.0;
        }
        sim.step(1.0 / 60.0)?;
        if frame % 30 == 0 {
            let free = &sim.positions()[1..];
            let lowest = free.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
            let tip = sim.positions()[9];
            let height = paddle.height.lock().map(|h| *h).unwrap_or(0.0);
            println!("{:6.2} {height:10.3} {lowest:22.3} {:9.3}", sim.time(), tip.x);
        }
    }
    println!("{} springs broke", broken.load(Ordering::Relaxed));
    Ok(())
}
