//! # Pulling a node of the running test with the mouse
//!
//! While the artist drags a node of a playing test, a force on that node alone pulls it
//! towards the point under the cursor. It is a [`ForceField`], so the simulation evaluates it
//! once per step of length Δt and holds it over the step's sub-steps; chosen so that the step
//! changes the node's velocity by
//!
//! ```text
//! Δv = (x* − x) / (4 Δt) − v,      i.e.  F = m ((x* − x) / (4 Δt²) − v / Δt)
//! ```
//!
//! - x*, x, v: the cursor's point, the node's position and velocity; m its mass; Δt the step.
//!
//! The force ramps the velocity up over the step, so a free node at rest moves an eighth of
//! the gap g = x* − x in the first step, and then (v ending each step at g/(4Δt)) the gap
//! follows g_{k+1} = 7/8 g_k − 1/8 g_{k−1}, whose roots 0.70 and 0.18 are real and below one:
//! the pull settles in a few frames without overshooting, whatever the node's mass and the
//! frame step. Its springs pull back as usual, so a stiff model follows less than a loose one.

use glam::{Vec3, Vec3A};
use springmesh_core::{ForceField, NodeId};
use std::sync::Mutex;

/// The node being pulled and where to.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pull {
    node: usize,
    target: Vec3A,
    mass: f32,
    step: f32,
}

/// The pull of the mouse, shared between the editor and the simulation.
#[derive(Debug, Default)]
pub struct Grab {
    pull: Mutex<Option<Pull>>,
}

impl Grab {
    /// Pulls `node` of `mass` (kg) towards `target` (m) in steps of `step` (s), or lets go.
    pub fn set(&self, pull: Option<(NodeId, Vec3)>, mass: f32, step: f32) {
        if let Ok(mut current) = self.pull.lock() {
            *current = pull.map(|(node, target)| Pull {
                node: node.index(),
                target: target.into(),
                mass,
                step,
            });
        }
    }
}

impl Grab {
    /// The node being pulled.
    pub fn node(&self) -> Option<NodeId> {
        self.pull.lock().ok().and_then(|p| p.map(|p| NodeId::from_index(p.node)))
    }
}

impl ForceField for Grab {
    fn add_forces(&self, _time: f64, x: &[Vec3A], v: &[Vec3A], forces: &mut [Vec3A]) {
        let Some(p) = self.pull.lock().ok().and_then(|p| *p) else { return };
        let (Some(x), Some(v)) = (x.get(p.node), v.get(p.node)) else { return };
        if let Some(f) = forces.get_mut(p.node)
            && p.step > 0.0
        {
            *f += ((p.target - *x) / (4.0 * p.step * p.step) - *v / p.step) * p.mass;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_node_follows_the_cursor_without_overshooting() {
        use springmesh_core::{Node, Simulation, SpringModel};
        let mut model = SpringModel::default();
        model.nodes.push(Node { position: Vec3::ZERO, mass: 0.3 });
        model.params.gravity = Vec3::ZERO;
        model.params.damping = 0.0;
        let mut sim =
            Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
        let grab = std::sync::Arc::new(Grab::default());
        sim.add_force_field(grab.clone());
        let dt = 1.0 / 60.0;
        grab.set(Some((NodeId(0), Vec3::X)), 0.3, dt);
        sim.step(dt).expect("finite");
        // Δv = 1/(4 Δt), reached linearly over the step: Δx = Δt Δv / 2 = 1/8 m, times
        // (n + 1)/n for the n sub-steps of the ramp (0.1328 m at the default 16).
        let x = sim.positions()[0].x;
        let n = model.params.substeps as f32;
        assert!((x - 0.125 * (n + 1.0) / n).abs() < 1e-4, "{x}");
        let mut last = x;
        for _ in 0..60 {
            sim.step(dt).expect("finite");
            let x = sim.positions()[0].x;
            assert!(x >= last - 1e-6 && x <= 1.0 + 1e-4, "no overshoot: {last} -> {x}");
            last = x;
        }
        assert!((last - 1.0).abs() < 1e-3, "settles at the cursor: {last}");
        grab.set(None, 0.3, dt);
        let before = sim.positions()[0];
        sim.step(dt).expect("finite");
        assert!((sim.positions()[0] - before).length() < 1e-3, "let go, it stays nearly still");
    }
}
