//! Contacts between bodies answered as between rigid bodies, for bodies with shape matching.
//!
//! A push on a few points of a stiff solid moves only the nodes under them; the rest of the
//! body learns of it through its springs and shape matching in its next steps, which spring
//! the pushed region back out and set the whole body ringing: two blobs of the tests resting
//! one on the other kept nodes moving at 1 to 4 m/s after 3 s, and a pile of 32 needed the
//! most world steps a frame. So a body with shape matching (a converted solid) answers the
//! contacts of other bodies as a rigid body (the position-based rigid body contact of Müller
//! et al., "Detailed Rigid Body Simulation with Extended Position Based Dynamics", SCA 2020,
//! §3.3–3.5, as the ground does for such a body, [`crate::sim::contacts::body`]): each body of
//! mass M, centre c and inertia I is moved by a translation t and a small turn θ, accumulated
//! by projected Gauss–Seidel over the contacts (λ_k ≥ 0: no pull), once for the depths and
//! once for the approach speeds, and the point contacts then answer what is left (the
//! contacts with bodies without shape matching: cloth, ropes).
//!
//! ```text
//! r = p − c,   w = 1/M + (r × n)ᵀ I⁻¹ (r × n)          (per body; a body answered by points: 0)
//! e_k = d_k − n · (u_a(p_a) − u_b(p_b)),   u(p) = t + θ × (p − c)
//! Δλ = max(e_k / (w_a + w_b), −λ_k),   t ± n Δλ / M,   θ ± I⁻¹ (r × n) Δλ
//! x_i ← c + t + R(θ) (x_i − c),   v_i ← v_i + Δv + Δω × (x_i − c)
//! ```
//!
//! **The ground in the same sweeps.** A body's own steps hold it on the ground, but the
//! contacts between bodies come after them: answered alone, a push from the body above moved
//! the body below half into the ground (as if nothing held it), the ground pushed it back in
//! its next step, and a stack of two blobs rang at 0.32 m/s for as long as it stood. So the
//! drawn points of a body in contact that are on its ground or within half its contact
//! distance of it are contacts too, with the ground, whose side does not move (w = 0 there),
//! e_k = h_g + r − p_y − u(p)_y (positions; h_g the ground's height, r the node radius) and
//! −(v_p + u(p))_y (velocities). Being λ_k ≥ 0, one above the ground only answers a push
//! that would take it below: the weight of the body above goes into the ground within the
//! world step (between bodies of very different masses, only with the shock pass of
//! `sweeps.rs`, where the sweeps are). The stack comes to rest at 0.08 m/s (0.02 m/s with the
//! friction below).
//!
//! **Friction at the ground.** A push up at a point off the centre turns the body about its
//! centre, which also moves its points on the ground sideways: with nothing in the sweeps to
//! hold them, a stack of two blobs slid along the ground at 13 mm a second for as long as it
//! stood. So each such point's sideways motion (what the answer moved it by; in the
//! velocities' phase its velocity too) is stopped in the same sweeps by an impulse along the
//! ground against it, of at most μ times the push up it has taken so far (Coulomb, μ the
//! ground's friction), with the point's lever for that direction: the stack now slides 3 mm
//! in its third second and 1.5 mm a second after (test).
//!
//! Measured on the two blobs, the upper one's fastest node over its last 1.5 s: 1 to 4 m/s
//! answered point by point; 0.2 to 0.4 m/s with half the rigid motion given to every node (as
//! the ground shares it, by shape matching's fraction per sub-step, which at a world step is
//! a few per cent and changed nothing); 0.1 to 0.2 m/s with all of it. Between bodies a solid
//! therefore does not squash where it touches another; it still sags under its own weight
//! and rings when it lands.

use crate::sim::Simulation;
use crate::sim::forces::shape::omega_squared;
use glam::{Mat3A, Quat, Vec3A};

/// A body's rigid frame for one world step: what a contact's push does to it as a whole.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rigid {
    inverse_mass: f32,
    centre: Vec3A,
    inverse_inertia: Mat3A,
    /// The translation and turn accumulated (positions, then velocities).
    t: Vec3A,
    theta: Vec3A,
}

/// A point's hold on a rigid frame for pushes along one normal n ([`Rigid::lever`]).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Lever {
    /// r = p − c: the point from the centre (m).
    r: Vec3A,
    /// I⁻¹ (r × n): the turn per unit impulse.
    turn: Vec3A,
    /// w = 1/M + (r × n)ᵀ I⁻¹ (r × n): how far the point moves along n per unit impulse.
    pub light: f32,
}

/// A point's hold on a rigid frame for pushes along the ground (x and z): its levers along
/// each, and how much a push along one moves it along the other ([`Rigid::sideways`]).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Sideways {
    x: Lever,
    z: Lever,
    /// (r × x)ᵀ I⁻¹ (r × z).
    xz: f32,
}

impl Sideways {
    /// How far the point moves along the unit direction `d` on the ground per unit impulse:
    /// w(d) = dₓ² wₓ + 2 dₓ d_z w_xz + d_z² w_z.
    pub fn lightness(&self, d: Vec3A) -> f32 {
        d.x * d.x * self.x.light + 2.0 * d.x * d.z * self.xz + d.z * d.z * self.z.light
    }
}

impl Rigid {
    /// The frame of `sim`, or `None` for a body answered point by point: no shape matching,
    /// anchored, or without an invertible inertia.
    pub fn of(sim: &Simulation) -> Option<Rigid> {
        omega_squared(sim.params().shape_matching.as_ref())?;
        if sim.anchors().len() > 0 {
            return None;
        }
        let (x, m) = (sim.positions(), &sim.c.nodes.mass);
        let mass: f32 = m.iter().sum();
        let origin = x.first().copied()?;
        let weighted: Vec3A = x.iter().zip(m).map(|(&p, &m)| (p - origin) * m).sum();
        let centre = origin + weighted / mass;
        let mut inertia = Mat3A::ZERO;
        for (&p, &m) in x.iter().zip(m) {
            let r = p - centre;
            let rr = r.dot(r);
            inertia += Mat3A::from_diagonal(glam::Vec3::splat(rr * m))
                - Mat3A::from_cols(r * (r.x * m), r * (r.y * m), r * (r.z * m));
        }
        let scale = inertia.x_axis.x + inertia.y_axis.y + inertia.z_axis.z;
        let invertible = inertia.determinant() > 1e-9 * scale * scale * scale;
        let usable = mass.is_finite() && mass > 0.0 && invertible;
        usable.then(|| Rigid {
            inverse_mass: 1.0 / mass,
            centre,
            inverse_inertia: inertia.inverse(),
            t: Vec3A::ZERO,
            theta: Vec3A::ZERO,
        })
    }

    /// Point `p`'s lever on the body for pushes along `n`.
    pub fn lever(&self, p: Vec3A, n: Vec3A) -> Lever {
        let r = p - self.centre;
        let a = r.cross(n);
        let turn = self.inverse_inertia * a;
        Lever { r, turn, light: self.inverse_mass + a.dot(turn) }
    }

    /// Point `p`'s levers for pushes along the ground.
    pub fn sideways(&self, p: Vec3A) -> Sideways {
        let (x, z) = (self.lever(p, Vec3A::X), self.lever(p, Vec3A::Z));
        Sideways { x, z, xz: x.r.cross(Vec3A::X).dot(z.turn) }
    }

    /// The motion accumulated so far at the point of `s`, along the ground.
    pub fn moved_sideways(&self, s: &Sideways) -> Vec3A {
        self.moved_at(&s.x) * Vec3A::new(1.0, 0.0, 1.0)
    }

    /// Takes an impulse along the ground (the x and z of `impulse`) at the point of `s`.
    pub fn take_sideways(&mut self, s: &Sideways, impulse: Vec3A) {
        self.t += Vec3A::new(impulse.x, 0.0, impulse.z) * self.inverse_mass;
        self.theta += s.x.turn * impulse.x + s.z.turn * impulse.z;
    }

    /// How far point `p` moves along `n` per unit impulse.
    pub fn lightness(&self, p: Vec3A, n: Vec3A) -> f32 {
        self.lever(p, n).light
    }

    /// The motion accumulated so far at point `p`.
    pub fn moved(&self, p: Vec3A) -> Vec3A {
        self.t + self.theta.cross(p - self.centre)
    }

    /// The motion accumulated so far at the point of `lever`.
    pub fn moved_at(&self, lever: &Lever) -> Vec3A {
        self.t + self.theta.cross(lever.r)
    }

    /// Takes an impulse `impulse` along `n` at point `p`.
    pub fn take(&mut self, p: Vec3A, n: Vec3A, impulse: f32) {
        self.take_at(&self.lever(p, n), n, impulse);
    }

    /// Takes an impulse `impulse` along `n` at the point of `lever` (a lever along `n`):
    /// with the lever worked out once, a sweep's update is a few multiply-adds.
    pub fn take_at(&mut self, lever: &Lever, n: Vec3A, impulse: f32) {
        self.t += n * (impulse * self.inverse_mass);
        self.theta += lever.turn * impulse;
    }

    /// Moves every node of `x` by the accumulated translation and turn (the turn as a true
    /// rotation by θ about the centre: θ × r alone would also stretch a body turned far), and
    /// starts accumulating again. The rotation as a matrix: three products and two sums a
    /// node, where a quaternion's takes two cross products besides.
    pub fn move_nodes(&mut self, x: &mut [Vec3A]) {
        let turn = Mat3A::from_quat(Quat::from_scaled_axis(self.theta.into()));
        for x in x.iter_mut() {
            *x = self.centre + self.t + turn * (*x - self.centre);
        }
        self.t = Vec3A::ZERO;
        self.theta = Vec3A::ZERO;
    }

    /// Adds the accumulated velocity change and turning rate to every node's velocity `v`,
    /// at `x`, and starts accumulating again.
    pub fn change_velocities(&mut self, x: &[Vec3A], v: &mut [Vec3A]) {
        for (v, &p) in v.iter_mut().zip(x) {
            *v += self.t + self.theta.cross(p - self.centre);
        }
        self.t = Vec3A::ZERO;
        self.theta = Vec3A::ZERO;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_push_along_the_ground_does_what_a_lever_along_its_direction_does() {
        // A frame of 4 kg with a skewed (symmetric) inverse inertia, and a point off its
        // centre: for any direction on the ground, the x and z levers combined give the
        // lightness and the motion of a lever worked out along that direction.
        let inverse_inertia = Mat3A::from_cols(
            Vec3A::new(0.5, 0.1, -0.05),
            Vec3A::new(0.1, 0.3, 0.02),
            Vec3A::new(-0.05, 0.02, 0.4),
        );
        let centre = Vec3A::new(0.1, 0.5, -0.2);
        let (t, theta) = (Vec3A::ZERO, Vec3A::ZERO);
        let frame = Rigid { inverse_mass: 0.25, centre, inverse_inertia, t, theta };
        let p = Vec3A::new(0.7, -0.3, 0.4);
        let sideways = frame.sideways(p);
        for angle in [0.0f32, 0.7, 2.0, 4.0] {
            let d = Vec3A::new(angle.cos(), 0.0, angle.sin());
            let lever = frame.lever(p, d);
            assert!((sideways.lightness(d) - lever.light).abs() < 1e-6, "{angle}");
            let (mut both, mut one) = (frame, frame);
            both.take_sideways(&sideways, d * 2.0);
            one.take_at(&lever, d, 2.0);
            assert!((both.moved(p) - one.moved(p)).length() < 1e-6, "{angle}");
        }
    }
}
