//! # Support of the whole body: a solid takes the ground's push in one sub-step
//!
//! A contact moves only the nodes it touches ([`super::collision`], [`super::surface`]); the
//! rest of a body learns of it through its springs and its shape matching, one sweep of
//! corrections per sub-step. Gravity, meanwhile, moves every node g h² a sub-step, so a body
//! resting on the nodes that touch (a fraction φ of its mass) is held a little below where
//! its pull and springs alone would put it: with one iteration per sub-step, its touching
//! nodes end about g h² / φ above the rest of it, the weight of a body carried by a few of
//! its points. Measured: the test blob 1 cm across tipped over at 24 sub-steps a frame and
//! needed 232 where the same blob 1 m across needs 24, since g h² against the body's size is
//! 100× larger at 1 cm.
//!
//! A body with shape matching ([`crate::sim::forces::shape`]) moves nearly as a rigid body,
//! so its contacts are first answered as a rigid body's would be (the position-based rigid
//! body contact of Müller et al., "Detailed Rigid Body Simulation with Extended Position
//! Based Dynamics", SCA 2020, §3.3–3.5), every node takes the share β of the rigid motion that
//! answer asks for, and the contacts of single nodes then answer whatever is left, as before.
//! For a contact k at point p_k with outward normal n_k, in a body of mass M, centre of mass c
//! and inertia tensor I about c:
//!
//! ```text
//! r_k = p_k − c,   a_k = r_k × n_k
//! w_k = 1/M + a_kᵀ I⁻¹ a_k                      how far the point moves along n_k per unit impulse
//! e_k = d_k − n_k · (t + θ × r_k)               what is still to do at the point
//! Δλ_k = max(e_k / w_k, −λ_k),  λ_k ← λ_k + Δλ_k   (projected Gauss–Seidel: λ_k ≥ 0, no pull)
//! t ← t + n_k Δλ_k / M,   θ ← θ + I⁻¹ a_k Δλ_k     (translation and small turn of the body)
//! x_i ← x_i + β (t + θ × (x_i − c))             every node, once the sweeps are done
//! β = ω² h² / (1 + ω² h²)                        shape matching's own fraction per sub-step
//! ```
//!
//! once with d_k the depth of the point below the surface (positions), once with d_k the
//! speed its contact asks to add along n_k (velocities: stop, or bounce by the restitution;
//! see [`super::collision`]), so that, as for a single node, pushing a body out of the ground
//! adds no speed. Friction stays with the single nodes' answer.
//!
//! **Why β.** It is the fraction of the way to its goal the pull moves a node in one sub-step
//! (ω its angular frequency): the part of a contact's push that shape matching carries to the
//! rest of the body within the sub-step. A stiff pull (ω h ≫ 1: the body is rigid at that
//! time scale) shares all of it, a soft one little, so a body that deforms keeps its own
//! wobble after a fall. Resting on nodes that carry a fraction φ of its mass, held by the
//! pull alone, a body's touching nodes end above the rest of it by (fixed point of the
//! sub-step, worked out for a column in the tests):
//!
//! ```text
//! without the share:  (1 − φ) g / (φ ω²) · (1 + ω² h²)        the physics, and softer as h grows
//! with it:            (1 − φ) g / (φ ω²) / (1 + β (1 − φ)/φ)   never softer than the physics
//! ```
//!
//! so the solver's error no longer grows as ω² h², which at a given number of sub-steps grows
//! as 1/size. Measured with `springmesh check` (judged at every frame) at 8 sub-steps: the
//! blob of the tests 1 cm across 4.2% and upside down without it, 0.075% and upright with it
//! (0.096% at 1 m, 0.037% at 100 m); the four-legged stilts 1.05% and 3.8° without, 0.45%
//! and 0.65° with. With a share of 1 the body would never feel its weight at all, and land
//! from a fall dead, as a rigid body does.
//!
//! - p_k, n_k, d_k: a contact's point (m), unit normal and depth (m) or speed (m/s);
//!   λ_k: its accumulated impulse per step size (kg·m or kg·m/s); x_i: a node's position.
//! - M, c, I: Σ m_i, Σ m_i x_i / M and Σ m_i (|r_i|² 𝟙 − r_i r_iᵀ) with r_i = x_i − c, of the
//!   nodes where they are (kg, m, kg·m²); I as the sub-step began when the spin correction
//!   measured it then ([`crate::sim::integrators::spin`]: within a sub-step a body turns by a
//!   small fraction of a radian), its centre moved since by Σ m_i Δx_i / M; h: the sub-step
//!   (s).
//!
//! Only a body with shape matching and no anchors is answered as a whole: an anchored body
//! hangs from its anchors, and a body without shape matching may be as soft as a cloth. The
//! explicit integrators, whose sub-steps are far shorter, answer single nodes only.
//! [`SWEEPS`] sweeps over the contacts; what they leave goes to the single nodes.

use crate::sim::contacts::collision::Colliders;
use crate::sim::contacts::surface::{Frame, Near};
use crate::sim::data::Compiled;
use glam::{DMat3, DVec3, Mat3A, Vec3A};

/// Sweeps of the projected Gauss–Seidel over a body's contacts: a body resting flat on many
/// points is held within a few tenths of a per cent of its depth (test). Measured on a blob
/// lying on its side (30 contacts), the depths' answer still changes by about the same
/// amount in its last sweep as in its fourth, so the sweeps do not stop early.
const SWEEPS: usize = 8;

/// Nodes summed in f32 before their sum joins the f64 total.
const CHUNK: usize = 64;

/// One contact of the body: where, along which normal, how deep (m) and how much speed along
/// the normal (m/s) its answer asks for.
#[derive(Clone, Copy, Debug)]
struct Touch {
    point: Vec3A,
    normal: Vec3A,
    depth: f32,
    speed: f32,
}

/// The contacts of one sub-step, kept to avoid reallocating.
#[derive(Clone, Debug, Default)]
pub(crate) struct Support {
    touches: Vec<Touch>,
    /// Per contact: a_k = r_k × n_k, I⁻¹ a_k, 1 / w_k and the accumulated impulses λ_k (of the
    /// depths', and of the speeds' answer).
    arm: Vec<Vec3A>,
    turn: Vec<Vec3A>,
    inverse_w: Vec<f32>,
    impulse: Vec<[f32; 2]>,
}

/// True when the model's contacts are answered as a whole body first: shape matching on and
/// no anchors (module docs).
pub(crate) fn applies(c: &Compiled) -> bool {
    c.params.shape_matching.is_some() && c.anchors.is_empty()
}

/// The model's nodes taken as one rigid whole: their mass (kg), centre of mass (m) and inverse
/// inertia tensor about it (1/(kg·m²)).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Whole {
    pub mass: f32,
    pub centre: Vec3A,
    pub inverse_inertia: Mat3A,
}

impl Whole {
    /// The body of the nodes at `at(i)`, of masses `mass`.
    fn of(mass: &[f32], at: impl Fn(usize) -> Vec3A) -> Option<Whole> {
        let origin = at(0);
        let (mut total, mut first, mut second) = (0.0f64, DVec3::ZERO, DMat3::ZERO);
        for start in (0..mass.len()).step_by(CHUNK) {
            let (mut m_sum, mut x_sum, mut xx) = (0.0f32, Vec3A::ZERO, Mat3A::ZERO);
            for (i, &m) in mass.iter().enumerate().skip(start).take(CHUNK) {
                let x = at(i) - origin;
                let mx = x * m;
                m_sum += m;
                x_sum += mx;
                xx += Mat3A::from_cols(mx * x.x, mx * x.y, mx * x.z);
            }
            total += f64::from(m_sum);
            first += x_sum.as_dvec3();
            second +=
                DMat3::from_cols(xx.x_axis.as_dvec3(), xx.y_axis.as_dvec3(), xx.z_axis.as_dvec3());
        }
        if !(total.is_finite() && total > 0.0) {
            return None;
        }
        let centre = first / total;
        // Σ m r rᵀ about the centre, and I = tr(·) 𝟙 − (·).
        let spread = second
            - DMat3::from_cols(centre * centre.x, centre * centre.y, centre * centre.z) * total;
        let trace = spread.x_axis.x + spread.y_axis.y + spread.z_axis.z;
        let inertia = DMat3::from_diagonal(DVec3::splat(trace)) - spread;
        // A body with no extent about some axis (nodes on a line) cannot be turned about it by
        // a contact: it is answered by translation alone.
        let det = inertia.determinant();
        let scale = trace * trace * trace;
        let inverse =
            if det.is_finite() && det > 1e-9 * scale { inertia.inverse() } else { DMat3::ZERO };
        Some(Whole {
            mass: total as f32,
            centre: origin + centre.as_vec3a(),
            inverse_inertia: Mat3A::from_cols(
                inverse.x_axis.as_vec3a(),
                inverse.y_axis.as_vec3a(),
                inverse.z_axis.as_vec3a(),
            ),
        })
    }
}

impl Support {
    /// Answers the contacts of the nodes at `x` (in `frame`'s terms) moving at `v`, after a
    /// sub-step of `h`, as those of a rigid body, and moves every node by `share` of that
    /// answer (module docs). The body is `known`, when the caller has it (its inertia as the
    /// sub-step began: within a sub-step a body turns by a small fraction of a radian), or
    /// worked out from the nodes. A skin's points near a collider are found with `near` and
    /// kept there, for the skin's contacts that follow and the next sub-steps' support
    /// ([`super::surface`]). The caller has checked [`applies`].
    pub fn answer(
        &mut self,
        c: &Compiled,
        (colliders, frame): (&Colliders, &Frame),
        (x, v): (&mut [Vec3A], &mut [Vec3A]),
        (h, share): (f32, f32),
        (known, near): (Option<Whole>, &mut Near),
    ) {
        self.touches.clear();
        self.find(c, (colliders, frame), (x, v), h, near);
        if self.touches.is_empty() {
            return;
        }
        let body = known.or_else(|| Whole::of(&c.nodes.mass, |i| frame.at(x, i)));
        let Some(body) = body else { return };
        self.prepare(&body);
        let [(shift, tilt), (push, spin)] = self.solve(&body);
        let (shift, tilt, push, spin) = (shift * share, tilt * share, push * share, spin * share);
        let mut furthest = Vec3A::ZERO;
        for (i, (x, v)) in x.iter_mut().zip(v.iter_mut()).enumerate() {
            let r = frame.at_value(*x, i) - body.centre;
            furthest = furthest.max(r.abs());
            *x += shift + tilt.cross(r);
            *v += push + spin.cross(r);
        }
        near.moved(shift.length() + tilt.length() * furthest.length());
    }

    /// Each contact's a_k, I⁻¹ a_k and 1 / w_k in `body` (module docs).
    fn prepare(&mut self, body: &Whole) {
        self.arm.clear();
        self.turn.clear();
        self.inverse_w.clear();
        for t in &self.touches {
            let a = (t.point - body.centre).cross(t.normal);
            let turn = body.inverse_inertia * a;
            let w = 1.0 / body.mass + a.dot(turn);
            self.arm.push(a);
            self.turn.push(turn);
            self.inverse_w.push(if w > 0.0 { 1.0 / w } else { 0.0 });
        }
    }

    /// The contacts of the touching points (a cage's skin) or of the free nodes.
    fn find(
        &mut self,
        c: &Compiled,
        (colliders, frame): (&Colliders, &Frame),
        (x, v): (&[Vec3A], &[Vec3A]),
        h: f32,
        near: &mut Near,
    ) {
        let mut consider = |from: Vec3A, p: Vec3A, vp: Vec3A| {
            let (mut to, mut vt) = (p, vp);
            if let Some(normal) = colliders.resolve(from, &mut to, &mut vt, h) {
                let (depth, speed) = (normal.dot(to - p), normal.dot(vt - vp));
                if depth > 0.0 || speed > 0.0 {
                    self.touches.push(Touch { point: p, normal, depth, speed });
                }
            }
        };
        let Some(points) = &c.touch else {
            for (i, &free) in c.nodes.free.iter().enumerate() {
                if free != 0.0 {
                    consider(frame.start_of(i), frame.at(x, i), v[i]);
                }
            }
            return;
        };
        near.find(points, (colliders, frame), x, |i, p| {
            let (mut from, mut vp) = (Vec3A::ZERO, Vec3A::ZERO);
            for (&j, &w) in points.nodes[i].iter().zip(&points.weights[i]) {
                let j = j as usize;
                from += w * frame.start_of(j);
                vp += w * v[j];
            }
            consider(from, p, vp);
        });
    }

    /// The translations and turns (module docs) that meet every contact's depth, and its
    /// speed, as a rigid body's, after [`SWEEPS`] sweeps. The two answers are independent and
    /// are swept together: each contact's update waits on the one before it (Gauss–Seidel),
    /// so two chains side by side take about the time of one.
    fn solve(&mut self, body: &Whole) -> [(Vec3A, Vec3A); 2] {
        self.impulse.clear();
        self.impulse.resize(self.touches.len(), [0.0; 2]);
        let mut answers = [(Vec3A::ZERO, Vec3A::ZERO); 2];
        let inverse_mass = 1.0 / body.mass;
        for _ in 0..SWEEPS {
            let contacts = self.touches.iter().zip(&self.arm).zip(&self.turn);
            let weights = self.inverse_w.iter().zip(self.impulse.iter_mut());
            for (((t, &a), &turn), (&inverse_w, lambda)) in contacts.zip(weights) {
                for ((shift, tilt), (goal, lambda)) in
                    answers.iter_mut().zip([t.depth, t.speed].into_iter().zip(lambda))
                {
                    let left = goal - t.normal.dot(*shift) - a.dot(*tilt);
                    let step = (left * inverse_w).max(-*lambda);
                    *lambda += step;
                    *shift += t.normal * (step * inverse_mass);
                    *tilt += turn * step;
                }
            }
        }
        answers
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The corners of a cube of side 2 centred at `centre`: 8 nodes of 1 kg, I = 16 kg·m² 𝟙.
    fn cube(centre: Vec3A) -> Vec<Vec3A> {
        (0..8)
            .map(|c| {
                let s = |bit: usize| if c & bit != 0 { 1.0 } else { -1.0 };
                centre + Vec3A::new(s(1), s(2), s(4))
            })
            .collect()
    }

    #[test]
    fn the_body_of_a_cube_has_its_inertia_worked_out_by_hand() {
        let x = cube(Vec3A::new(3.0, 4.0, 5.0));
        let body = Whole::of(&[1.0; 8], |i| x[i]).expect("a body");
        assert_eq!(body.mass, 8.0);
        assert!((body.centre - Vec3A::new(3.0, 4.0, 5.0)).length() < 1e-6);
        // Each corner: |r|² = 3, so I = Σ (3 𝟙 − r rᵀ) = 24 𝟙 − 8 𝟙 = 16 𝟙.
        let expected = Mat3A::from_diagonal(glam::Vec3::splat(1.0 / 16.0));
        assert!(body.inverse_inertia.abs_diff_eq(expected, 1e-6), "{:?}", body.inverse_inertia);
    }

    #[test]
    fn one_corner_stops_and_the_body_turns_as_a_rigid_body_would() {
        // The cube falls at 1 m/s; only the corner r = (1, −1, 1) touches, with no depth.
        // a = r × y = (−1, 0, 1), w = 1/8 + |a|²/16 = 1/4, so λ = 1 / w = 4 kg·m/s:
        // the centre slows by λ/M = 0.5 m/s and the body turns at I⁻¹ a λ = (−¼, 0, ¼) rad/s.
        let centre = Vec3A::new(0.0, 1.0, 0.0);
        let mut support = Support::default();
        support.touches.push(Touch {
            point: centre + Vec3A::new(1.0, -1.0, 1.0),
            normal: Vec3A::Y,
            depth: 0.0,
            speed: 1.0,
        });
        let x = cube(centre);
        let body = Whole::of(&[1.0; 8], |i| x[i]).expect("a body");
        support.prepare(&body);
        let [_, (push, spin)] = support.solve(&body);
        assert!((push - Vec3A::new(0.0, 0.5, 0.0)).length() < 1e-6, "{push}");
        assert!((spin - Vec3A::new(-0.25, 0.0, 0.25)).length() < 1e-6, "{spin}");
        let corner = push + spin.cross(Vec3A::new(1.0, -1.0, 1.0));
        assert!((corner.y - 1.0).abs() < 1e-6, "the corner's fall is stopped: {corner}");
    }

    #[test]
    fn a_cube_resting_on_its_four_bottom_corners_is_lifted_and_stopped_whole() {
        // Every bottom corner 1 mm deep and falling at 1 m/s: the answer is a lift of 1 mm and
        // a stop, with no turn, within what the sweeps leave.
        let centre = Vec3A::new(0.0, 0.999, 0.0);
        let x = cube(centre);
        let mut support = Support::default();
        for p in x.iter().filter(|p| p.y < centre.y) {
            support.touches.push(Touch { point: *p, normal: Vec3A::Y, depth: 1e-3, speed: 1.0 });
        }
        assert_eq!(support.touches.len(), 4);
        let body = Whole::of(&[1.0; 8], |i| x[i]).expect("a body");
        support.prepare(&body);
        let [(shift, tilt), (push, spin)] = support.solve(&body);
        for t in &support.touches {
            let r = t.point - body.centre;
            let lifted = (shift + tilt.cross(r)).y;
            let stopped = (push + spin.cross(r)).y;
            assert!((lifted / 1e-3 - 1.0).abs() < 3e-3, "lifted {lifted}");
            assert!((stopped - 1.0).abs() < 3e-3, "stopped {stopped}");
        }
        assert!(tilt.length() < 1e-5 && spin.length() < 3e-3, "{tilt} {spin}");
    }
}
