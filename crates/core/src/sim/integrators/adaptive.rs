//! # Adaptive: energy-checked sub-stepping of the explicit integrator
//!
//! The explicit integrator ([`crate::sim::integrators::explicit`]) blows up when a sub-step h exceeds 2/ω for the
//! fastest mode ω. Adaptive finds a working h by watching the mechanical energy
//! E = T + U_e + U_g ([`crate::sim::readout::energy`]), which an undamped system conserves and a damped one
//! loses, apart from the work W that moving anchors do on it:
//!
//! ```text
//! h ← min(2 h_last, Δt/n)               at the start of each step
//! repeat until the step is covered:
//!     try an explicit sub-step of h (at most what remains of the step)
//!     resolve collisions (their energy change counts into W, as done from outside)
//!     rise = E_after − E_before − W
//!     if the sub-step went non-finite, or rise > ε (T + U_e) before it, and h > h_min:
//!         reject it, h ← h/2, try again
//!     else accept it, and if rise > 0 scale the free velocities by √(1 − rise/T_after)
//! ```
//!
//! - Δt the step, n [`crate::SimParams::substeps`], h_last the sub-step the previous step ended
//!   with; h_min = Δt/(n·4096).
//! - W: work done on the model from outside during the sub-step — by moving anchors, by the
//!   external forces held over the step ([`crate::sim::forces::external`]), and by the colliders. The gas is
//!   part of E ([`crate::sim::readout::energy`]).
//! - Rises smaller than what rounding the positions can make are not rises: positions are f32,
//!   so the energy of a state is only known to about Σ_i m_i |g| |x_i| ε_f32 (and the spring
//!   energy to its own rounding). Far from the origin a sub-step can move a node by less than
//!   one unit in the last place of its coordinate; its velocity grows while its height does
//!   not, and without this floor every sub-step of a fall from 100 m would look like a rise.
//! - ε = 1%: symplectic Euler's energy oscillates by about (ωh)²/2 per sub-step even when stable,
//!   so a rise of that order is scaled away rather than halved away (halving until
//!   (ωh)²/2 < ε would cost tens of times more sub-steps). An unstable mode grows geometrically
//!   with every sub-step, so it crosses 1% soon after it carries any energy, and until then the
//!   scaling keeps the total from rising.
//! - The velocity scaling removes exactly the excess, so the total energy never rises (beyond
//!   the work of anchors): the method is energy-stable, at the price of extra damping in steps
//!   that needed it.
//!
//! Correcting velocities to keep an energy budget follows Su, Sheth & Fedkiw, "Energy
//! Conservation for the Simulation of Deformable Bodies", IEEE TVCG 19(2), 2013.

use crate::sim::data::Compiled;
use crate::sim::environment::Environment;
use crate::sim::integrators::explicit::{self, Scratch};
use crate::sim::readout::energy::measure;
use crate::sim::state::{State, States};
use crate::sim::threads::Threads;
use glam::Vec3A;

/// Energy rise per sub-step, relative to T + U_e, beyond which the sub-step is halved.
const TOLERANCE: f64 = 0.01;

/// h_min = Δt/(n · MIN_FRACTION).
const MIN_FRACTION: f32 = 4096.0;

/// A whole adaptive step of `dt` seconds. `h_next` carries the sub-step from step to step.
/// Returns the buffer holding the result and the number of sub-steps accepted, or `None` if a
/// sub-step went non-finite at the minimum sub-step.
#[allow(clippy::too_many_arguments)]
pub(crate) fn step(
    c: &Compiled,
    env: &Environment,
    states: &mut States,
    scratch: &mut Scratch,
    threads: Threads,
    h_next: &mut f32,
    dt: f32,
    n: u32,
) -> Option<(usize, u32)> {
    let h_max = dt / n as f32;
    let h_min = h_max / MIN_FRACTION;
    let mut h = if h_next.is_finite() && *h_next > 0.0 { h_next.min(h_max) } else { h_max };
    let mut src = states.committed_index();
    let mut before = measure(c, states.get(src));
    let mut done = 0.0f32;
    let mut accepted = 0;
    while dt - done > dt * 1e-6 {
        let h_try = h.min(dt - done);
        let span = (done / dt, (done + h_try) / dt, dt);
        let sub = explicit::substep(c, env, states, scratch, threads, src, h_try, span);
        let can_halve = h_try > h_min;
        let Some(dst) = sub.dst else {
            if can_halve {
                h *= 0.5;
                continue;
            }
            return None;
        };
        let before_contacts = (!env.colliders.is_empty()).then(|| {
            let energy = measure(c, states.get(dst)).total();
            explicit::collide(c, env, (states, &mut scratch.touched), (src, dst), h_try, span.1);
            energy
        });
        let mut after = measure(c, states.get(dst));
        let contact_work = before_contacts.map_or(0.0, |e| after.total() - e);
        let rise = after.total() - before.total() - sub.outside_work - contact_work;
        let noise = rounding(c, states.get(dst));
        let scale = before.kinetic + before.elastic;
        if rise > TOLERANCE * scale + noise && can_halve {
            h *= 0.5;
            continue;
        }
        if rise > noise && after.kinetic > 0.0 {
            let keep = (1.0 - rise / after.kinetic).max(0.0);
            scale_free_velocities(c, &mut states.get_mut(dst).vel, keep.sqrt() as f32);
            after.kinetic *= keep;
        }
        src = dst;
        before = after;
        done += h_try;
        accepted += 1;
    }
    *h_next = (2.0 * h).min(h_max);
    Some((src, accepted))
}

/// How much energy (J) rounding the positions of state `s` to f32 can hide: a rounding of
/// |x| ε_f32 in a node's position changes its gravitational energy by m |g| |x| ε_f32; the sum
/// is doubled as a margin for what the same rounding does to the springs' energy.
fn rounding(c: &Compiled, s: &State) -> f64 {
    let g = f64::from(c.params.gravity.length());
    let heights: f64 = c
        .nodes
        .mass
        .iter()
        .zip(&c.nodes.free)
        .zip(&s.pos)
        .map(|((&m, &free), x)| f64::from(m * free) * f64::from(x.abs().max_element()))
        .sum();
    2.0 * g * heights * f64::from(f32::EPSILON)
}

/// Multiplies the velocity of every free node by `s`.
fn scale_free_velocities(c: &Compiled, vel: &mut [Vec3A], s: f32) {
    for (v, &free) in vel.iter_mut().zip(&c.nodes.free) {
        if free > 0.0 {
            *v *= s;
        }
    }
}
