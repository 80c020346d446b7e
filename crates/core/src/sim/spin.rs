//! # Keeping a model's spin through Xpbd's spring pass
//!
//! Springs pull along the line between their nodes, so they cannot change a model's angular
//! momentum. Xpbd's velocities are differences of positions, v = (x − x₀)/h, so the angular
//! momentum after a sub-step is
//!
//! ```text
//! L = Σ_i m_i x₀_i × v_i = Σ_i m_i x₀_i × x_i / h
//! ```
//!
//! and a spring's correction Δx_a = w_a Δλ n, Δx_b = −w_b Δλ n changes it by
//! Δλ (x₀_a − x₀_b) × n / h: zero only if the spring still points where it pointed at the start
//! of the sub-step. A stretched spring on a turning model does not, so each correction leaks a
//! little angular momentum, in the direction of the turn. For a model under constant stress
//! and free to turn — a balloon, whose skin holds the gas back — the leak outgrows global
//! damping: a floating balloon spun up to about a third of a radian a second by itself.
//! (Gauss–Seidel position solvers conserve angular momentum only to first order; SHAKE avoids
//! the leak by projecting along the start-of-step directions, at the price of more work per
//! spring.)
//!
//! For a model without anchors, the solver measures the angular momentum the spring pass
//! changed, ΔL = Σ m_i r₀_i × Δx_i / h (r₀ from the centre of mass c at the start of the
//! sub-step), and turns the corrected positions back by the small rotation θ that undoes it:
//!
//! ```text
//! I = Σ m_i (|r₀_i|² 𝟙 − r₀_i r₀_iᵀ),   θ = −h I⁻¹ ΔL,   x_i ← x_i + θ × r₀_i
//! ```
//!
//! which moves no centre of mass (Σ m θ × r₀ = 0) and costs four passes over the nodes.
//!
//! An anchored model cannot be treated so: its anchors rightly change its angular momentum, so
//! the measured change is not all leak, and turning the whole model to undo it (tried: about
//! the string's anchor) traded a balloon's spin for circling the anchor. Instead, for an
//! anchored model with gas — a skin under constant stress, the case that spins — the spring
//! pass adds up the leak of each correction as it goes,
//!
//! ```text
//! ΔL h = Σ_springs (x₀_a − x₀_b) × Δλ n,   Δλ n = s d / (w_a + w_b + α̃)
//! ```
//!
//! (an anchored end stays at its anchor, so a spring to an anchor leaks only the part of its
//! moment that its start direction does not explain), and the free nodes are turned back by
//! the same rotation θ about their centre of mass. That pass goes one spring at a time and
//! costs an extra read of both ends' start positions per spring, so other models keep the
//! batched kernel. Measured on the balloon sample after 5 s under Xpbd at 128 sub-steps: it
//! turns at 0.035 rad/s instead of 2.0. At 32 sub-steps it no longer drifts sideways but its
//! skin, stretched several times further than at 128 (one iteration per sub-step leaves stiff
//! springs soft), still wobbles at 1–2 rad/s; the explicit integrators have neither problem,
//! which is why the balloon sample uses one.

use glam::{DMat3, DVec3, Vec3A};

/// The centre of mass and inverse inertia of a free model at the start of a sub-step.
pub(crate) struct FreeBody {
    centre: DVec3,
    inverse_inertia: DMat3,
}

impl FreeBody {
    /// The body of nodes of `mass` at `base + u_old`; `None` when its inertia cannot be
    /// inverted (all nodes on one line).
    pub fn new(mass: &[f32], base: &[Vec3A], u_old: &[Vec3A]) -> Option<FreeBody> {
        let at = |i: usize| (base[i] + u_old[i]).as_dvec3();
        let total: f64 = mass.iter().map(|&m| f64::from(m)).sum();
        let weighted: DVec3 = mass.iter().enumerate().map(|(i, &m)| at(i) * f64::from(m)).sum();
        let centre = weighted / total;
        let mut inertia = DMat3::ZERO;
        for (i, &m) in mass.iter().enumerate() {
            let r = at(i) - centre;
            let outer = DMat3::from_cols(r * r.x, r * r.y, r * r.z);
            inertia += (DMat3::IDENTITY * r.length_squared() - outer) * f64::from(m);
        }
        let scale = inertia.x_axis.x + inertia.y_axis.y + inertia.z_axis.z;
        (inertia.determinant() > 1e-9 * scale * scale * scale)
            .then(|| FreeBody { centre, inverse_inertia: inertia.inverse() })
    }

    /// Σ m r₀ × u: the angular momentum of displacements `u` times h, about the centre.
    pub fn moment(&self, mass: &[f32], base: &[Vec3A], u_old: &[Vec3A], u: &[Vec3A]) -> DVec3 {
        mass.iter()
            .enumerate()
            .map(|(i, &m)| {
                let r = (base[i] + u_old[i]).as_dvec3() - self.centre;
                r.cross(u[i].as_dvec3()) * f64::from(m)
            })
            .sum()
    }

    /// Turns `u` so that its moment is `before` again.
    pub fn restore(
        &self,
        before: DVec3,
        mass: &[f32],
        base: &[Vec3A],
        u_old: &[Vec3A],
        u: &mut [Vec3A],
    ) {
        let leak = self.moment(mass, base, u_old, u) - before;
        self.undo(leak, mass, base, u_old, u);
    }

    /// Turns the nodes of nonzero `mass` by the small rotation about the centre that takes
    /// `leak` (a moment, as [`FreeBody::moment`]) out of `u`.
    pub fn undo(
        &self,
        leak: DVec3,
        mass: &[f32],
        base: &[Vec3A],
        u_old: &[Vec3A],
        u: &mut [Vec3A],
    ) {
        let theta = self.inverse_inertia * -leak;
        for (i, (u, &m)) in u.iter_mut().zip(mass).enumerate() {
            if m > 0.0 {
                let r = (base[i] + u_old[i]).as_dvec3() - self.centre;
                *u += theta.cross(r).as_vec3a();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leaked_turn_is_undone_and_the_centre_stays() {
        let base = [Vec3A::X, Vec3A::NEG_X, Vec3A::Y, Vec3A::NEG_Y, Vec3A::Z];
        let old = [Vec3A::ZERO; 5];
        let mass = [1.0, 2.0, 1.0, 1.0, 0.5];
        let body = FreeBody::new(&mass, &base, &old).expect("not on a line");
        let u = [Vec3A::new(0.0, 0.01, 0.0), Vec3A::ZERO, Vec3A::ZERO, Vec3A::ZERO, Vec3A::ZERO];
        let before = body.moment(&mass, &base, &old, &u);
        let mut turned = u;
        // A pass that adds a turn about z (and a stretch along x, which has no moment).
        turned[0] += Vec3A::new(0.002, 0.003, 0.0);
        turned[1] += Vec3A::new(-0.001, -0.0015, 0.0);
        body.restore(before, &mass, &base, &old, &mut turned);
        let after = body.moment(&mass, &base, &old, &turned);
        assert!((after - before).length() < 1e-9, "{after} vs {before}");
        let shift: Vec3A = turned.iter().zip(&u).zip(&mass).map(|((t, u), &m)| (*t - *u) * m).sum();
        assert!(
            (shift - Vec3A::new(0.0, 0.0, 0.0)).length() < 1e-6,
            "the centre moves only by the stretch: {shift}"
        );
        assert!(FreeBody::new(&[1.0, 1.0], &[Vec3A::ZERO, Vec3A::X], &[Vec3A::ZERO; 2]).is_none());
    }
}
