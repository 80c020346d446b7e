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
//! The explicit integrators add this force in their force pass. Xpbd takes it into the
//! constraint solve itself (XPBD's damping term; [`crate::sim::integrators::xpbd`] has the update): per
//! sub-step h, with the relative velocity along n approximated by the ends' motion in the
//! sub-step, u = n·(Δx_b − Δx_a)/h. For a spring of no stiffness that update is backward Euler
//! on u alone (inverse masses w_a, w_b):
//!
//! ```text
//! u' = u − h d (w_a + w_b) u'   ⇒   u' = u / (1 + h d (w_a + w_b))
//! ```
//!
//! which removes relative velocity but never reverses it, for any d and h (unconditionally
//! stable), as in Müller et al., "Detailed Rigid Body Simulation with Extended Position Based
//! Dynamics", SCA 2020; with stiffness, the spring and its damper are one implicit update.
//! Folding it into the solve costs two reads per spring instead of a pass of its own (which
//! took half of a converted model's frame: a square root and a division per spring, scalar).

/// The factor e^(−c·h) that global damping applies to velocities over a sub-step h.
#[inline]
pub(crate) fn global_factor(rate: f32, h: f32) -> f32 {
    (-rate * h).exp()
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
