//! Block Lanczos with full reorthogonalization (Golub & Van Loan, *Matrix Computations*, 4th
//! ed., §10.3.6): an orthonormal basis Q of the block Krylov space of T, and the projected
//! matrix H = Qᵀ T Q whose eigenvalues (Ritz values) approach T's largest.
//!
//! Each step applies T to the last block of b columns at once (one sparse solve with b
//! right-hand sides costs about what two single ones do, since reading the factor is the
//! work), takes their parts along every column so far out twice ("twice is enough"), and
//! makes what is left the next block. The parts taken out are H's entries, so H is known
//! exactly, not assumed block tridiagonal; a Ritz pair (θ, s) leaves T Q s − θ Q s in the
//! columns not yet applied, whose length is the pair's residual. A block of b finds an
//! eigenvalue as often as it occurs up to b times, so a frequency several modes share (a
//! symmetric body's, a string's two sideways directions) is counted as often as it occurs.

use super::system::Operator;
use crate::AnalysisError;
use crate::random::Xorshift64;
use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par, Side};

/// A column whose remainder after orthogonalization is below this fraction of its length
/// lies in the space already spanned: it is replaced by a random direction.
const DEPENDENT: f64 = 1e-10;

pub(super) struct BlockLanczos {
    /// Q: its first `used` columns orthonormal, room reserved for `capacity` (columns are
    /// written as they come: a run that converges early touches no more memory).
    basis: Mat<f64>,
    capacity: usize,
    used: usize,
    /// Columns of Q whose T q is known: their entries of H are.
    applied: usize,
    /// h[(r, c)] = q_rᵀ T q_c for every applied c and r < `used`.
    h: Mat<f64>,
    random: Xorshift64,
}

/// A Ritz value of T and the length of its residual.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ritz {
    pub theta: f64,
    pub residual: f64,
}

impl BlockLanczos {
    /// A random start block of `block` columns and room for `capacity` columns (both cut to
    /// n; the room to whole blocks unless it is all n).
    pub fn start(n: usize, block: usize, capacity: usize) -> Result<BlockLanczos, AnalysisError> {
        let block = block.clamp(1, n.max(1));
        let capacity = if capacity >= n { n } else { (capacity / block).max(1) * block };
        let mut basis = Mat::new();
        basis.try_reserve(n, capacity).map_err(|e| {
            super::modes_error(format!("no room for {capacity} Lanczos vectors: {e:?}"))
        })?;
        basis.resize_with(n, 0, |_, _| 0.0);
        let mut lanczos = BlockLanczos {
            basis,
            capacity,
            used: 0,
            applied: 0,
            h: Mat::zeros(capacity, capacity),
            random: Xorshift64::new(0x9e37_79b9_7f4a_7c15),
        };
        let start = Mat::<f64>::zeros(n, block.min(capacity));
        lanczos.absorb(start);
        Ok(lanczos)
    }

    /// Applies T to the block not yet applied and adds the next block; false when nothing is
    /// left to apply (the space is whole or the capacity reached: a block is applied only
    /// where what it leaves can be kept, or nothing is left, so every residual is known).
    pub fn step(&mut self, operator: &mut Operator) -> bool {
        let (from, count) = (self.applied, self.used - self.applied);
        let (n, room) = (self.basis.nrows(), self.capacity - self.used);
        // With room for all n columns, whatever does not fit lies in the span already.
        if count == 0 || (room < count && self.capacity < n) {
            return false;
        }
        let mut w = self.basis.as_ref().subcols(from, count).to_owned();
        operator.apply(w.as_mut());
        let (old, new) = self.absorb(w);
        for c in 0..count {
            for r in 0..old.nrows() {
                self.h[(r, from + c)] = old[(r, c)];
            }
            for r in 0..new.nrows() {
                self.h[(old.nrows() + r, from + c)] = new[(r, c)];
            }
        }
        self.applied += count;
        self.used > self.applied
    }

    /// Ritz values of the applied columns, largest θ first.
    pub fn ritz(&self) -> Result<Vec<Ritz>, AnalysisError> {
        let k = self.applied;
        if k == 0 {
            return Ok(Vec::new());
        }
        // H's lower triangle: q_rᵀ T q_c = q_cᵀ T q_r, known from applying q_r (r ≥ c).
        let projected = Mat::<f64>::from_fn(k, k, |r, c| self.h[(c.min(r), c.max(r))]);
        let eigen = projected.self_adjoint_eigen(Side::Lower).map_err(|e| {
            super::modes_error(format!("the modes' eigenproblem did not converge: {e:?}"))
        })?;
        let (values, vectors) = (eigen.S(), eigen.U());
        let outside = self.h.as_ref().submatrix(k, 0, self.used - k, k);
        let mut ritz: Vec<Ritz> = (0..k)
            .map(|i| {
                let leak = outside * vectors.col(i);
                Ritz { theta: values[i], residual: leak.norm_l2() }
            })
            .collect();
        ritz.sort_by(|a, b| b.theta.total_cmp(&a.theta));
        Ok(ritz)
    }

    /// Adds `w`'s columns, less their parts along the basis, as new orthonormal columns (as
    /// many as fit); returns their coefficients along the old columns and the new ones.
    fn absorb(&mut self, mut w: Mat<f64>) -> (Mat<f64>, Mat<f64>) {
        let (used, count) = (self.used, w.ncols());
        let norms: Vec<f64> = (0..count).map(|c| w.col(c).norm_l2()).collect();
        let mut old = Mat::<f64>::zeros(used, count);
        let par = Par::rayon(0);
        for _ in 0..2 {
            let q = self.basis.as_ref().subcols(0, used);
            let mut c = Mat::<f64>::zeros(used, count);
            matmul(c.as_mut(), Accum::Replace, q.transpose(), w.as_ref(), 1.0, par);
            matmul(w.as_mut(), Accum::Add, q, &c, -1.0, par);
            old += &c;
        }
        let room = self.capacity - used;
        let mut new = Mat::<f64>::zeros(count.min(room), count);
        for c in 0..count.min(room) {
            // Twice against the block's earlier columns.
            for _ in 0..2 {
                let q = self.basis.as_ref().subcols(used, c);
                let mut along = Mat::<f64>::zeros(c, 1);
                matmul(along.as_mut(), Accum::Replace, q.transpose(), w.col(c).as_mat(), 1.0, par);
                matmul(w.col_mut(c).as_mat_mut(), Accum::Add, q, &along, -1.0, par);
                for r in 0..c {
                    new[(r, c)] += along[(r, 0)];
                }
            }
            let norm = w.col(c).norm_l2();
            if norm > DEPENDENT * norms[c] && norm > 0.0 {
                new[(c, c)] = norm;
                self.column(used + c).copy_from(w.col(c) / norm);
            } else if !self.random_column(used + c) {
                // Nothing orthogonal is left: the space is whole.
                self.used = used + c;
                return (old, new.as_ref().subrows(0, c).to_owned());
            }
        }
        self.used = used + count.min(room);
        (old, new)
    }

    /// Fills column `at` with a random unit vector orthogonal to the columns before it;
    /// false when they span the whole space.
    fn random_column(&mut self, at: usize) -> bool {
        let n = self.basis.nrows();
        let mut v = Mat::<f64>::from_fn(n, 1, |_, _| 0.5 + self.random.unit());
        let before = v.norm_l2();
        for _ in 0..2 {
            let q: MatRef<'_, f64> = self.basis.as_ref().subcols(0, at);
            let c = q.transpose() * v.as_ref();
            matmul(v.as_mut(), Accum::Add, q, &c, -1.0, Par::Seq);
        }
        let norm = v.norm_l2();
        if norm.is_nan() || norm <= 1e-8 * before {
            return false;
        }
        self.column(at).copy_from(v.col(0) / norm);
        true
    }

    /// Column `at` of Q (within the capacity), the columns up to it made present.
    fn column(&mut self, at: usize) -> faer::ColMut<'_, f64> {
        if self.basis.ncols() <= at {
            self.basis.resize_with(self.basis.nrows(), at + 1, |_, _| 0.0);
        }
        self.basis.col_mut(at)
    }
}
