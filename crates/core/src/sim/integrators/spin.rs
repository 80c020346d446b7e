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
//! which moves no centre of mass (Σ m θ × r₀ = 0) and costs three light passes over the nodes:
//! one for c and I (which also keeps the displacements the spring pass starts from), one for the
//! leak (taken of the displacements the pass made, not as a difference of moments) and one to
//! turn the nodes back.
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

//!
//! The sums run in f32 over chunks of [`CHUNK`] nodes, each chunk's sum added in f64 (as the gas
//! sums of [`crate::sim::forces::pressure`] do), with the node offsets r_o from the first node o
//! computed once per sub-step and kept: on a converted model resting on the ground this
//! correction took a fifth of the frame in f64. The moments are taken about o in the same pass
//! as c, and moved to c by the parallel axes (Σ m r r = Σ m r_o r_o − M c_o c_o, with c_o = c − o;
//! r₀ = r_o − c_o where it is used): a pass less than taking c first, 9.5 against 15.5 µs of a
//! blob's 150 µs frame. The chunks' sums may be taken on several threads; they are added in
//! chunk order on one, so the result does not depend on the threads ([`crate::sim::threads`]).
//! On one thread the passes are plain loops over the same chunks: rayon's driver, even unsplit,
//! cost the blob's three passes 4 of their 21 µs a frame.

use crate::sim::threads::{NODES_PER_TASK, Threads};
use glam::{DMat3, DVec3, Mat3A, Vec3A, Vec3Swizzles};
use rayon::prelude::*;

/// Nodes summed in f32 before their sum joins the f64 total.
const CHUNK: usize = 64;

/// The centre of mass, inverse inertia and node offsets of a free model at the start of a
/// sub-step; kept between sub-steps to reuse its buffer.
#[derive(Clone, Debug, Default)]
pub(crate) struct FreeBody {
    /// Σ m (kg) and the centre of mass (m) at the start of the sub-step.
    mass: f64,
    centre: Vec3A,
    inverse_inertia: DMat3,
    /// Each node's offset from the first node at the start of the sub-step, and the centre
    /// of mass's: r₀_i is their difference.
    r: Vec<Vec3A>,
    offset: Vec3A,
    /// The displacements the spring pass starts from (what [`FreeBody::restore`] compares
    /// with).
    before: Vec<Vec3A>,
    /// The threads the passes of this sub-step may use.
    threads: Threads,
    /// Per chunk of [`CHUNK`] nodes, its sums (up to four), before they are added in order.
    sums: Vec<[DVec3; 4]>,
}

/// Adds the chunks' sums `parts` (up to four per chunk), collected into `sums`, in chunk
/// order.
fn in_order<I>(parts: I, sums: &mut Vec<[DVec3; 4]>) -> [DVec3; 4]
where
    I: IndexedParallelIterator<Item = [DVec3; 4]>,
{
    parts.collect_into_vec(sums);
    in_turn(sums.iter().copied())
}

/// Adds the chunks' sums `parts` in chunk order as they come, on this thread: the same bits
/// as [`in_order`].
fn in_turn(parts: impl Iterator<Item = [DVec3; 4]>) -> [DVec3; 4] {
    let add = |a: [DVec3; 4], b: [DVec3; 4]| std::array::from_fn(|k| a[k] + b[k]);
    parts.fold([DVec3::ZERO; 4], add)
}

/// A chunk of the measuring pass: offsets written, start displacements, masses, displacements
/// kept and the displacements to keep.
type Measured<'a> =
    ((&'a mut [Vec3A], (&'a [Vec3A], &'a [Vec3A])), (&'a [f32], (&'a mut [Vec3A], &'a [Vec3A])));

impl FreeBody {
    /// Takes the body of nodes of `mass` at `base + u_old`, and keeps the displacements `u`
    /// the spring pass starts from; false when its inertia cannot be inverted (all nodes on
    /// one line, or no mass). Its passes in this sub-step use `threads`.
    pub fn measure(
        &mut self,
        mass: &[f32],
        (base, u_old, u): (&[Vec3A], &[Vec3A], &[Vec3A]),
        threads: Threads,
    ) -> bool {
        self.threads = threads;
        let n = mass.len().min(base.len()).min(u_old.len()).min(u.len());
        let (mass, base, u_old, u) = (&mass[..n], &base[..n], &u_old[..n], &u[..n]);
        // Positions relative to the first node: no cancellation of large coordinates.
        let origin = match (base.first(), u_old.first()) {
            (Some(&b), Some(&u)) => b + u,
            _ => return false,
        };
        // One pass for the offsets from the origin o and their moments: Σ m, Σ m r·r per axis
        // and Σ m r·r.yzx, all about o; those about the centre c follow (parallel axes).
        self.r.resize(n, Vec3A::ZERO);
        self.before.resize(n, Vec3A::ZERO);
        let moments = |((r, (base, u_old)), (m, (kept, u))): Measured| {
            kept.copy_from_slice(u);
            let (mut weighted, mut sq, mut pr) = (Vec3A::ZERO, Vec3A::ZERO, Vec3A::ZERO);
            for (((r, &b), &u), &m) in r.iter_mut().zip(base).zip(u_old).zip(m) {
                *r = b + u - origin;
                let mr = *r * m;
                weighted += mr;
                sq += mr * *r;
                pr += mr * r.yzx();
            }
            let total = DVec3::new(f64::from(m.iter().sum::<f32>()), 0.0, 0.0);
            [weighted.as_dvec3(), total, sq.as_dvec3(), pr.as_dvec3()]
        };
        let [weighted, total, squares, products] = if threads == Threads::One {
            let at = base.chunks(CHUNK).zip(u_old.chunks(CHUNK));
            let kept = self.before.chunks_mut(CHUNK).zip(u.chunks(CHUNK));
            let parts = self.r.chunks_mut(CHUNK).zip(at).zip(mass.chunks(CHUNK).zip(kept));
            in_turn(parts.map(moments))
        } else {
            let at = base.par_chunks(CHUNK).zip(u_old.par_chunks(CHUNK));
            let kept = self.before.par_chunks_mut(CHUNK).zip(u.par_chunks(CHUNK));
            let parts = self.r.par_chunks_mut(CHUNK).zip(at).zip(mass.par_chunks(CHUNK).zip(kept));
            let parts = parts.with_min_len(threads.min_len(NODES_PER_TASK / CHUNK));
            in_order(parts.map(moments), &mut self.sums)
        };
        if !(total.x.is_finite() && total.x > 0.0) {
            return false;
        }
        let centre = weighted / total.x;
        (self.mass, self.offset) = (total.x, centre.as_vec3a());
        self.centre = origin + self.offset;
        // I = Σ m (|r|² 𝟙 − r rᵀ): diagonal (y² + z², z² + x², x² + y²), off-diagonal −xy, −yz,
        // −zx, of r = r_o − c: Σ m r∘r = Σ m r_o∘r_o − M c∘c, likewise for the products.
        let sq = squares - centre * centre * total.x;
        let p = products - centre * centre.yzx() * total.x;
        let inertia = DMat3::from_cols(
            DVec3::new(sq.y + sq.z, -p.x, -p.z),
            DVec3::new(-p.x, sq.z + sq.x, -p.y),
            DVec3::new(-p.z, -p.y, sq.x + sq.y),
        );
        let scale = inertia.x_axis.x + inertia.y_axis.y + inertia.z_axis.z;
        if inertia.determinant() > 1e-9 * scale * scale * scale {
            self.inverse_inertia = inertia.inverse();
            true
        } else {
            false
        }
    }

    /// The mass (kg), centre of mass (m) and inverse inertia about it (1/(kg·m²)) taken by the
    /// last [`FreeBody::measure`] that returned true.
    pub fn rigid(&self) -> (f32, Vec3A, Mat3A) {
        let i = self.inverse_inertia;
        let inverse =
            Mat3A::from_cols(i.x_axis.as_vec3a(), i.y_axis.as_vec3a(), i.z_axis.as_vec3a());
        (self.mass as f32, self.centre, inverse)
    }

    /// Σ m r₀ × (to − from): the angular momentum (times h) that moving the nodes from
    /// displacements `from` to `to` adds, about the centre. Taken of the difference, not as a
    /// difference of two moments, so that f32 loses nothing to cancellation.
    pub fn turn(&mut self, mass: &[f32], from: &[Vec3A], to: &[Vec3A]) -> DVec3 {
        let offset = self.offset;
        type Chunk<'a> = ((&'a [Vec3A], &'a [f32]), (&'a [Vec3A], &'a [Vec3A]));
        let turned = |((r, m), (from, to)): Chunk| {
            let moved = r.iter().zip(m).zip(from.iter().zip(to));
            let sum = moved.map(|((&r, &m), (&f, &t))| (r - offset).cross(t - f) * m);
            [sum.sum::<Vec3A>().as_dvec3(), DVec3::ZERO, DVec3::ZERO, DVec3::ZERO]
        };
        if self.threads == Threads::One {
            let chunks = self.r.chunks(CHUNK).zip(mass.chunks(CHUNK));
            let moved = chunks.zip(from.chunks(CHUNK).zip(to.chunks(CHUNK)));
            return in_turn(moved.map(turned))[0];
        }
        let chunks = self.r.par_chunks(CHUNK).zip(mass.par_chunks(CHUNK));
        let moved = chunks.zip(from.par_chunks(CHUNK).zip(to.par_chunks(CHUNK)));
        let moved = moved.with_min_len(self.threads.min_len(NODES_PER_TASK / CHUNK));
        in_order(moved.map(turned), &mut self.sums)[0]
    }

    /// Turns `u` so that its moment is that of the displacements [`FreeBody::measure`] kept
    /// again.
    pub fn restore(&mut self, mass: &[f32], u: &mut [Vec3A]) {
        let before = std::mem::take(&mut self.before);
        let leak = self.turn(mass, &before, u);
        self.before = before;
        self.undo(leak, mass, u);
    }

    /// Turns the nodes of nonzero `mass` by the small rotation about the centre that takes
    /// `leak` (a moment, as [`FreeBody::turn`]) out of `u`.
    pub fn undo(&self, leak: DVec3, mass: &[f32], u: &mut [Vec3A]) {
        let (theta, offset) = ((self.inverse_inertia * -leak).as_vec3a(), self.offset);
        let turn = |((u, &m), &r): ((&mut Vec3A, &f32), &Vec3A)| {
            if m > 0.0 {
                *u += theta.cross(r - offset);
            }
        };
        if self.threads == Threads::One {
            u.iter_mut().zip(mass).zip(&self.r).for_each(turn);
        } else {
            let nodes = u.par_iter_mut().zip(mass).zip(&self.r);
            nodes.with_min_len(self.threads.min_len(NODES_PER_TASK)).for_each(turn);
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
        let u = [Vec3A::new(0.0, 0.01, 0.0), Vec3A::ZERO, Vec3A::ZERO, Vec3A::ZERO, Vec3A::ZERO];
        let mut body = FreeBody::default();
        assert!(body.measure(&mass, (&base, &old, &u), Threads::One), "not on a line");

        let mut turned = u;
        // A pass that adds a turn about z (and a stretch along x, which has no moment).
        turned[0] += Vec3A::new(0.002, 0.003, 0.0);
        turned[1] += Vec3A::new(-0.001, -0.0015, 0.0);
        body.restore(&mass, &mut turned);
        let left = body.turn(&mass, &u, &turned);
        assert!(left.length() < 1e-9, "{left}");
        let shift: Vec3A = turned.iter().zip(&u).zip(&mass).map(|((t, u), &m)| (*t - *u) * m).sum();
        assert!(
            (shift - Vec3A::new(0.0, 0.0, 0.0)).length() < 1e-6,
            "the centre moves only by the stretch: {shift}"
        );
        assert!(!body.measure(
            &[1.0, 1.0],
            (&[Vec3A::ZERO, Vec3A::X], &[Vec3A::ZERO; 2], &[Vec3A::ZERO; 2]),
            Threads::One
        ));
    }
}
