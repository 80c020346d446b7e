//! # Adaptive: energy-checked sub-stepping of the explicit integrator
//!
//! The explicit integrator ([`super::explicit`]) blows up when a sub-step h exceeds 2/ω for the
//! fastest mode ω. Adaptive finds a working h by watching the mechanical energy
//! E = T + U_e + U_g ([`super::energy`]), which an undamped system conserves and a damped one
//! loses, apart from the work W that moving anchors do on it:
//!
//! ```text
//! h ← min(2 h_last, Δt/n)               at the start of each step
//! repeat until the step is covered:
//!     try an explicit sub-step of h (at most what remains of the step)
//!     rise = E_after − E_before − W
//!     if the sub-step went non-finite, or rise > ε (T + U_e) before it, and h > h_min:
//!         reject it, h ← h/2, try again
//!     else accept it, and if rise > 0 scale the free velocities by √(1 − rise/T_after)
//! ```
//!
//! - Δt the step, n [`crate::SimParams::substeps`], h_last the sub-step the previous step ended
//!   with; h_min = Δt/(n·4096).
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

use super::compile::Compiled;
use super::energy::measure;
use super::explicit;
use super::kernels::Threads;
use super::state::States;
use glam::Vec3A;

/// Energy rise per sub-step, relative to T + U_e, beyond which the sub-step is halved.
const TOLERANCE: f64 = 0.01;

/// h_min = Δt/(n · MIN_FRACTION).
const MIN_FRACTION: f32 = 4096.0;

/// A whole adaptive step of `dt` seconds. `h_next` carries the sub-step from step to step.
/// Returns the buffer holding the result and the number of sub-steps accepted, or `None` if a
/// sub-step went non-finite at the minimum sub-step.
pub(crate) fn step(
    c: &Compiled,
    states: &mut States,
    forces: &mut [Vec3A],
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
        let sub = explicit::substep(c, states, forces, threads, src, h_try, span);
        let can_halve = h_try > h_min;
        let Some(dst) = sub.dst else {
            if can_halve {
                h *= 0.5;
                continue;
            }
            return None;
        };
        let mut after = measure(c, states.get(dst));
        let rise = after.total() - before.total() - sub.anchor_work;
        let scale = before.kinetic + before.elastic;
        if rise > TOLERANCE * scale && can_halve {
            h *= 0.5;
            continue;
        }
        if rise > 0.0 && after.kinetic > 0.0 {
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

/// Multiplies the velocity of every free node by `s`.
fn scale_free_velocities(c: &Compiled, vel: &mut [Vec3A], s: f32) {
    for (v, &free) in vel.iter_mut().zip(&c.nodes.free) {
        if free > 0.0 {
            *v *= s;
        }
    }
}
