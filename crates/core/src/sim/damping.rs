//! # Damping
//!
//! ## Global damping
//!
//! Every free node's velocity decays as dv/dt = −c·v, with c the global damping rate (1/s,
//! [`crate::SimParams::damping`]). Its exact solution over a sub-step h is
//!
//! ```text
//! v(t + h) = v(t) · e^(−c·h)
//! ```
//!
//! and the solvers multiply by that factor once per sub-step. The product over a frame is
//! e^(−c·Δt) however Δt is cut into sub-steps, so the damping does not depend on the time step
//! (the classic `v *= 0.99` per step damps twice as hard at 120 Hz as at 60 Hz).
//!
//! ## Spring damping
//!
//! A spring with damping coefficient d (N·s/m) resists the relative velocity of its ends along
//! its direction n = (x_b − x_a)/|x_b − x_a|:
//!
//! ```text
//! F_a = d ((v_b − v_a)·n) n,   F_b = −F_a
//! ```
//!
//! The explicit integrators add this force in their force pass. Xpbd applies it after the
//! position solve, to velocities, implicitly (backward Euler on the normal relative velocity
//! u = (v_b − v_a)·n, with inverse masses w_a, w_b):
//!
//! ```text
//! u' = u − h d (w_a + w_b) u'   ⇒   u' = u / (1 + h d (w_a + w_b))
//! p  = h d u'                    (impulse, N·s)
//! v_a ← v_a + w_a p n,   v_b ← v_b − w_b p n
//! ```
//!
//! which removes relative velocity but never reverses it, for any d and h (unconditionally
//! stable), as in Müller et al., "Detailed Rigid Body Simulation with Extended Position Based
//! Dynamics", SCA 2020.

use super::compile::SpringData;
use glam::Vec3A;

/// The factor e^(−c·h) that global damping applies to velocities over a sub-step h.
#[inline]
pub(crate) fn global_factor(rate: f32, h: f32) -> f32 {
    (-rate * h).exp()
}

/// Applies implicit spring damping over a sub-step `h` to `vel`, along the springs'
/// directions: spring s points from b to a along `offset[s] + u[a] − u[b]` (the Xpbd
/// workspace's step-start offset plus displacements).
pub(crate) fn damp_springs(
    springs: &SpringData,
    inv_mass: &[f32],
    offset: &[Vec3A],
    u: &[Vec3A],
    vel: &mut [Vec3A],
    h: f32,
) {
    for (i, &d) in springs.damping.iter().enumerate() {
        if d <= 0.0 {
            continue;
        }
        let (a, b) = (springs.a()[i] as usize, springs.b()[i] as usize);
        let delta = -(offset[i] + u[a] - u[b]);
        let len = delta.length();
        if len <= f32::MIN_POSITIVE {
            continue;
        }
        let n = delta / len;
        let (wa, wb) = (inv_mass[a], inv_mass[b]);
        let u = (vel[b] - vel[a]).dot(n);
        let p = h * d * u / (1.0 + h * d * (wa + wb));
        vel[a] += n * (wa * p);
        vel[b] -= n * (wb * p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn global_damping_is_step_independent() {
        let c = 0.7;
        let one = global_factor(c, 0.1);
        let ten: f32 = (0..10).map(|_| global_factor(c, 0.01)).product();
        assert!((one - ten).abs() < 1e-6, "{one} vs {ten}");
        assert!((one - (-0.07f32).exp()).abs() < 1e-7);
    }
}
