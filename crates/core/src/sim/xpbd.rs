//! # Xpbd: springs as compliant distance constraints, solved in many small sub-steps
//!
//! The default integrator, stable for stiff springs at a game's 60 Hz frame step. Each spring
//! is a distance constraint C = |x_a − x_b| − L with compliance α = 1/k (XPBD: Macklin, Müller
//! & Chentanez, "XPBD: Position-Based Simulation of Compliant Constrained Dynamics", MIG 2016).
//! A frame step Δt is cut into n sub-steps of h = Δt/n with one constraint iteration each
//! (Macklin et al., "Small Steps in Physics Simulation", SCA 2019), which converges faster than
//! many iterations of one big step because every sub-step also shrinks the linearisation error:
//!
//! ```text
//! for each sub-step:
//!     x_prev ← x
//!     x ← x + h (v + h g)                                   (predict; free nodes)
//!     for each spring, in colour order (λ = 0: one iteration):
//!         d = x_a − x_b,  C = |d| − L,  n = d/|d|
//!         α̃ = α / h² = 1 / (k h²)
//!         Δλ = −C / (w_a + w_b + α̃)
//!         x_a ← x_a + w_a Δλ n,   x_b ← x_b − w_b Δλ n
//!     v ← (x − x_prev) / h · e^(−c h)                      (global damping)
//!     spring damping on v                                   (see super::damping)
//! ```
//!
//! - x, v, w: position (m), velocity (m/s), inverse mass (1/kg, 0 for anchors) of a node.
//! - k, L: stiffness (N/m) and rest length (m) of a spring; α̃ its compliance per sub-step².
//! - g: gravity (m/s²); c: the global damping rate (1/s).
//!
//! With α̃ ≪ w the spring acts as a rod, with α̃ ≫ w as a soft spring; in between XPBD
//! reproduces the spring's stiffness independently of h, unlike plain PBD. The weights
//! w/(w_a + w_b + α̃) only change with h, so they are computed once per sub-step size and
//! the inner loop is a square root, a division and two scaled vector updates per spring.
//!
//! A spring of zero current length has no direction and is skipped. Anchors are placed at
//! their (interpolated) anchor positions before the constraint pass, so the constraints pull
//! the free nodes towards them in the same sub-step.

use super::compile::Compiled;
use super::damping::{damp_springs, global_factor};
use super::explicit::place_anchors;
use super::kernels::{Threads, project_springs};
use super::state::States;
use glam::Vec3A;

/// The constraint weights g_a = w_a / (w_a + w_b + α̃) and g_b likewise, for one sub-step.
#[derive(Clone, Debug, Default)]
pub(crate) struct Weights {
    /// Sub-step the weights are for; NaN when they must be recomputed.
    h: f32,
    ga: Vec<f32>,
    gb: Vec<f32>,
}

impl Weights {
    /// Marks the weights stale (after masses, anchors or stiffnesses changed).
    pub fn invalidate(&mut self) {
        self.h = f32::NAN;
    }

    /// Recomputes the weights unless they are already those of sub-step `h`.
    fn ensure(&mut self, c: &Compiled, h: f32) {
        if self.h == h && self.ga.len() == c.springs.len() {
            return;
        }
        let s = &c.springs;
        let w = &c.nodes.inv_mass;
        self.ga.clear();
        self.gb.clear();
        for i in 0..s.len() {
            let (wa, wb) = (w[s.a()[i] as usize], w[s.b()[i] as usize]);
            let compliance = 1.0 / (s.stiffness[i] * h * h);
            let denominator = wa + wb + compliance;
            // k = 0 gives α̃ = ∞ and weights 0: a broken or slack spring does nothing.
            self.ga.push(wa / denominator);
            self.gb.push(wb / denominator);
        }
        self.h = h;
    }
}

/// A whole Xpbd step of `dt` seconds in `n` sub-steps. Returns the buffer holding the result,
/// or `None` if it went non-finite.
pub(crate) fn step(
    c: &Compiled,
    states: &mut States,
    weights: &mut Weights,
    threads: Threads,
    dt: f32,
    n: u32,
) -> Option<usize> {
    let h = dt / n as f32;
    weights.ensure(c, h);
    let gravity_h = Vec3A::from(c.params.gravity) * h;
    let decay = global_factor(c.params.damping, h);
    let inv_h = 1.0 / h;
    let mut src = states.committed_index();
    for i in 1..=n {
        let (from, to, dst) = states.pair(src);
        let node_in = from.pos.iter().zip(&from.vel).zip(&c.nodes.free);
        for (((&x, &v), &free), x_out) in node_in.zip(to.pos.iter_mut()) {
            *x_out = x + (v + gravity_h * free) * h;
        }
        place_anchors(c, to, i as f32 / n as f32, dt);
        project_springs(&c.springs, &weights.ga, &weights.gb, &mut to.pos, threads);
        let mut finite = true;
        let moved = to.pos.iter().zip(&from.pos);
        for ((&x, &x_prev), v_out) in moved.zip(to.vel.iter_mut()) {
            let v = (x - x_prev) * (inv_h * decay);
            *v_out = v;
            finite &= (x + v).is_finite();
        }
        place_anchors(c, to, i as f32 / n as f32, dt);
        if c.springs.has_damping {
            damp_springs(&c.springs, &c.nodes.inv_mass, &to.pos, &mut to.vel, h);
        }
        if !finite {
            return None;
        }
        src = dst;
    }
    Some(src)
}
