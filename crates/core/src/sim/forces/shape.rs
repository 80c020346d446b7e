//! # Shape matching: every node pulled towards the rest shape's best rigid motion
//!
//! Springs carry a load across a body one spring at a time: a position solver with one
//! iteration per sub-step needs about as many sub-steps as the body is springs across before
//! the weight on a leg reaches the ground, and the smaller the body, the stiffer its springs
//! must be to sag the same fraction, so the more sub-steps (a 1 cm blob needed 232 where the
//! same blob at 1 m needed 24; with shape matching and the support of the whole body,
//! `crate::sim::contacts::support`, both need 8). Shape matching (Müller, Heidelberger, Teschner & Gross,
//! "Meshless Deformations Based on Shape Matching", SIGGRAPH 2005) ties every node directly to
//! where the rest shape would be if it had moved rigidly, so it holds in one pass at any size:
//!
//! ```text
//! c = Σ m_i x_i / Σ m_i                          centre of mass now
//! A = Σ m_i (x_i − c) q_iᵀ,   q_i = x̄_i − c̄      (x̄, c̄: rest positions and their centre)
//! R = the rotation of A's polar decomposition A = R S (S symmetric)
//! g_i = c + R q_i                                 the node's goal
//! F_i = m_i ω² (g_i − x_i)                        the pull, ω = 2π f
//! ```
//!
//! R is the rotation that best maps the rest shape onto the present one (least squares, mass
//! weighted), found by the iteration of Müller, Bender, Chentanez & Macklin, "A Robust Method
//! to Extract the Rotational Part of Deformations", MIG 2016, warm-started from the last
//! sub-step's R (a few iterations; [`MAX_ITERATIONS`] at most):
//!
//! ```text
//! ω_R = Σ_k r_k × a_k / (|Σ_k r_k · a_k| + ε)      (r_k, a_k: the k-th columns of R and A)
//! R ← exp(ω_R) R                                   until |ω_R| < ANGLE_TOLERANCE
//! ```
//!
//! The pull is the gradient of the energy U = Σ ½ m_i ω² |g_i − x_i|² (R minimises it, so R's
//! own change does not count): conservative, and because it pulls every node by the same
//! ω² per metre and c is the centre of mass, it moves no centre of mass and turns nothing
//! (R Sᵀ Rᵀ is symmetric, so Σ m_i (x_i − c) × R q_i = 0): a body does not start to roll on
//! its own.
//!
//! The explicit integrators add F_i to the forces. Xpbd treats the pull as a compliant
//! constraint C_i = x_i − g_i with compliance 1 / (m_i ω²), solved after the springs with g
//! held fixed (XPBD, Macklin et al. 2016):
//!
//! ```text
//! Δx_i = β (g_i − x_i),    β = ω² h² / (1 + ω² h²)
//! ```
//!
//! the same fraction for every free node, so a stiff pull (ω h ≫ 1) snaps nodes to their goals
//! and a soft one moves them a little each sub-step, stably at any ω.
//!
//! - x_i, m_i: a node's position (m) and mass (kg); x̄_i its rest position; h the sub-step (s).
//! - f: [`crate::model::ShapeMatching::frequency`] (Hz). Its pull gives every node the same
//!   restoring acceleration ω² per metre out of place, so a node pressed by a force F sits
//!   F / (m ω²) off its goal. The pull moves no centre of mass, so a ground reaches the rest
//!   of a body only through the pull of the nodes it touches: held up by the pull alone, a
//!   body whose nodes on the ground carry a fraction φ of its mass sinks onto them by about
//!   g / (φ ω²) (a test works a column out exactly; Xpbd's answer to a free body's contacts
//!   as a whole takes a little of that off: `crate::sim::contacts::support`). Springs carry most of a solid's weight;
//!   the pull keeps its thin parts from buckling. The converter chooses f from the body's
//!   size (`convert::solid`).
//!
//! Anchored nodes count in c and R where they are, and do not move.

use crate::model::ShapeMatching;
use glam::{Mat3A, Quat, Vec3A};

/// Most rotation iterations per sub-step, warm-started from the last one's rotation.
const MAX_ITERATIONS: usize = 8;

/// Most rotation iterations of a fit from scratch (the energy readout): enough to turn the
/// identity to any rotation.
const COLD_ITERATIONS: usize = 64;

/// Rotation change (rad) below which the iteration stops: far below what a node could show.
const ANGLE_TOLERANCE: f32 = 1e-6;

/// Nodes summed in f32 before their sum joins the f64 total.
const CHUNK: usize = 64;

/// The rest shape's offsets from its centre of mass: q_i = x̄_i − c̄.
pub(crate) fn rest_offsets(rest: &[glam::Vec3], mass: &[f32]) -> Vec<Vec3A> {
    let total: f64 = mass.iter().map(|&m| f64::from(m)).sum();
    let weighted: glam::DVec3 =
        rest.iter().zip(mass).map(|(p, &m)| p.as_dvec3() * f64::from(m)).sum();
    let centre = if total > 0.0 { (weighted / total).as_vec3a() } else { Vec3A::ZERO };
    rest.iter().map(|&p| Vec3A::from(p) - centre).collect()
}

/// The best rigid motion of the rest shape onto the nodes at `position(i)`, kept between
/// sub-steps to warm-start the rotation.
#[derive(Clone, Debug, Default)]
pub(crate) struct ShapeFit {
    rotation: Quat,
    /// R as a matrix, for the goals: a node's R q_i is three products and two sums, a
    /// quaternion's rotation of it two cross products besides (on the converted blob the pull
    /// took a tenth of its frame with the quaternion).
    turn: Mat3A,
    /// c: the centre of mass now (m).
    centre: Vec3A,
}

impl ShapeFit {
    /// Fits c and R to the `n` nodes at `position(i)` with masses `mass` and rest offsets
    /// `rest` (module docs). Positions may be relative to any origin; c is in the same terms.
    pub fn fit(&mut self, rest: &[Vec3A], mass: &[f32], position: impl Fn(usize) -> Vec3A) {
        self.fit_within(MAX_ITERATIONS, rest, mass, position);
    }

    /// [`ShapeFit::fit`] with at most `iterations` rotation iterations.
    fn fit_within(
        &mut self,
        iterations: usize,
        rest: &[Vec3A],
        mass: &[f32],
        position: impl Fn(usize) -> Vec3A,
    ) {
        let n = rest.len().min(mass.len());
        // One pass: Σ m, Σ m x and A = Σ m (x − c) qᵀ = Σ m x qᵀ (the rest offsets q are taken
        // from the rest centre of mass, so Σ m q = 0 and c drops out). Columns of A: Σ m x q.x,
        // … q.y, … q.z.
        let (mut total, mut weighted, mut a) = (0.0f64, glam::DVec3::ZERO, [glam::DVec3::ZERO; 3]);
        for start in (0..n).step_by(CHUNK) {
            let (mut m_sum, mut x_sum, mut part) = (0.0f32, Vec3A::ZERO, [Vec3A::ZERO; 3]);
            for i in start..(start + CHUNK).min(n) {
                let d = position(i) * mass[i];
                let q = rest[i];
                m_sum += mass[i];
                x_sum += d;
                part[0] += d * q.x;
                part[1] += d * q.y;
                part[2] += d * q.z;
            }
            total += f64::from(m_sum);
            weighted += x_sum.as_dvec3();
            for (a, p) in a.iter_mut().zip(part) {
                *a += p.as_dvec3();
            }
        }
        if total.is_nan() || total <= 0.0 {
            return;
        }
        self.centre = (weighted / total).as_vec3a();
        let scale = a.iter().map(|c| c.length()).sum::<f64>().max(f64::MIN_POSITIVE);
        let a = a.map(|c| (c / scale).as_vec3a());
        let mut q = if self.rotation.is_finite() { self.rotation } else { Quat::IDENTITY };
        for _ in 0..iterations {
            let r = Mat3A::from_quat(q);
            let columns = [r.x_axis, r.y_axis, r.z_axis];
            let torque: Vec3A = columns.iter().zip(&a).map(|(r, a)| r.cross(*a)).sum();
            let along: f32 = columns.iter().zip(&a).map(|(r, a)| r.dot(*a)).sum();
            let turn = torque / (along.abs() + 1e-9);
            let angle = turn.length();
            if !angle.is_finite() || angle < ANGLE_TOLERANCE {
                break;
            }
            q = (Quat::from_axis_angle((turn / angle).into(), angle) * q).normalize();
        }
        self.rotation = q;
        self.turn = Mat3A::from_quat(q);
    }

    /// g_i − x_i: from `x` (in the terms `fit` was given) to its goal, for rest offset `q`.
    #[inline]
    pub fn to_goal(&self, q: Vec3A, x: Vec3A) -> Vec3A {
        self.centre + self.turn * q - x
    }
}

/// ω² = (2π f)² of the model's shape matching `params`, when it is on with a usable frequency.
pub(crate) fn omega_squared(params: Option<&ShapeMatching>) -> Option<f32> {
    let f = params?.frequency;
    let omega = std::f32::consts::TAU * f;
    (omega.is_finite() && omega > 0.0).then_some(omega * omega)
}

/// Xpbd's fraction β = ω² h² / (1 + ω² h²) of the way to the goal per sub-step `h`.
pub(crate) fn blend(omega_squared: f32, h: f32) -> f32 {
    let s = omega_squared * h * h;
    s / (1.0 + s)
}

/// Adds the pull F_i = m_i ω² (g_i − x_i) of the rest offsets `q` on the nodes of masses
/// `mass` at `pos` to `forces` (the explicit integrators), fitting `fit` first.
pub(crate) fn add_forces(
    omega_squared: f32,
    (q, mass): (&[Vec3A], &[f32]),
    fit: &mut ShapeFit,
    pos: &[Vec3A],
    forces: &mut [Vec3A],
) {
    let origin = pos.first().copied().unwrap_or(Vec3A::ZERO);
    fit.fit(q, mass, |i| pos[i] - origin);
    let nodes = q.iter().zip(mass).zip(pos);
    for (((&q, &m), &x), f) in nodes.zip(forces.iter_mut()) {
        *f += fit.to_goal(q, x - origin) * (m * omega_squared);
    }
}

/// U = Σ ½ m_i ω² |g_i − x_i|² of the rest offsets `q` of the nodes of masses `mass` at
/// `pos` (J).
pub(crate) fn energy(omega_squared: f32, (q, mass): (&[Vec3A], &[f32]), pos: &[Vec3A]) -> f64 {
    let mut fit = ShapeFit::default();
    let origin = pos.first().copied().unwrap_or(Vec3A::ZERO);
    fit.fit_within(COLD_ITERATIONS, q, mass, |i| pos[i] - origin);
    let nodes = q.iter().zip(mass).zip(pos);
    let twice: f64 = nodes
        .map(|((&q, &m), &x)| f64::from(m) * f64::from(fit.to_goal(q, x - origin).length_squared()))
        .sum();
    0.5 * f64::from(omega_squared) * twice
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn the_fit_finds_a_rigid_motion_and_its_goals_are_the_moved_rest_shape() {
        let rest = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z * 2.0, Vec3::ONE];
        let mass = [1.0, 2.0, 1.0, 0.5, 1.0];
        let q = rest_offsets(&rest, &mass);
        let turn = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 0.5).normalize(), 2.5);
        let shift = Vec3A::new(3.0, -1.0, 7.0);
        let moved: Vec<Vec3A> = rest.iter().map(|&p| turn * Vec3A::from(p) + shift).collect();
        let mut fit = ShapeFit::default();
        // From the identity to a turn of 2.5 rad: more than one sub-step's worth of
        // iterations; warm-started from sub-step to sub-step, it gets there.
        for _ in 0..8 {
            fit.fit(&q, &mass, |i| moved[i]);
        }
        for (&q, &x) in q.iter().zip(&moved) {
            assert!(fit.to_goal(q, x).length() < 1e-4, "{}", fit.to_goal(q, x));
        }
    }

    #[test]
    fn the_pull_of_a_sheared_body_moves_no_centre_and_turns_nothing() {
        let rest = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z, Vec3::new(1.0, 1.0, 0.0)];
        let mass = [1.0, 2.0, 1.0, 0.5, 1.5];
        let q = rest_offsets(&rest, &mass);
        // Sheared along x by y, and turned.
        let turn = Quat::from_rotation_z(0.3);
        let x: Vec<Vec3A> =
            rest.iter().map(|&p| turn * Vec3A::new(p.x + 0.4 * p.y, p.y, p.z)).collect();
        let mut fit = ShapeFit::default();
        for _ in 0..4 {
            fit.fit(&q, &mass, |i| x[i]);
        }
        let pull: Vec<Vec3A> =
            q.iter().zip(&x).zip(&mass).map(|((&q, &x), &m)| fit.to_goal(q, x) * m).collect();
        let force: Vec3A = pull.iter().sum();
        let centre: Vec3A = x.iter().zip(&mass).map(|(&x, &m)| x * m).sum::<Vec3A>() / 6.0;
        let torque: Vec3A = x.iter().zip(&pull).map(|(&x, &f)| (x - centre).cross(f)).sum();
        assert!(force.length() < 1e-5, "{force}");
        assert!(torque.length() < 1e-5, "{torque}");
        assert!(pull.iter().any(|f| f.length() > 0.05), "a sheared body is pulled back");
    }
}
