//! A two-level smoothed-aggregation preconditioner B ≈ A⁻¹ for the iterative solver
//! ([`super::lobpcg`]), A = K_springs + (ω² + s) M symmetric positive definite (Vaněk,
//! Mandel & Brezina 1996, "Algebraic multigrid by smoothed aggregation for second and
//! fourth order elliptic problems"; the elasticity setting of Vaněk, Brezina & Mandel 2001).
//!
//! A spring network's slow motions are smooth: over a patch of a few dozen nodes they are
//! close to a rigid motion of the patch. So:
//!
//! - **Aggregates.** The free nodes are cut in halves at the median of their longest
//!   extent ([`super::ordering::halve`]) until each part has at most [`AGGREGATE`] nodes.
//! - **Coarse space.** Each aggregate contributes its six rigid motions (three
//!   translations, three turns about its centroid) over its own nodes, made orthonormal
//!   (a turn that moves none of them, as about the line of a straight aggregate, left
//!   out): the tentative prolongation P₀, n × 6·aggregates. Smoothing it once by damped
//!   block Jacobi, P = (I − ω D⁻¹ A) P₀ with ω = 4 / (3 ρ(D⁻¹ A)), makes the coarse
//!   motions bend smoothly across aggregates instead of jumping at their borders (D: A's
//!   3 × 3 diagonal blocks). The coarse matrix A_c = Pᵀ A P is factorized once (sparse
//!   Cholesky; it is about a fiftieth of A's size).
//! - **Smoother.** A Chebyshev polynomial of degree [`DEGREE`] in D⁻¹ A that damps its
//!   eigenvalues in [ρ / [`SMOOTHED_RANGE`], ρ] (Adams, Brezina, Hu & Tuminaro 2003,
//!   "Parallel multigrid smoothing: polynomial versus Gauss–Seidel"): the fast motions the
//!   coarse space cannot represent. A polynomial is a few products with A, all on all
//!   cores, where Gauss–Seidel runs node after node.
//!
//! B b: smooth from zero, correct by P A_c⁻¹ Pᵀ on the residual, smooth the residual again
//! (the same polynomial before and after, so B is symmetric, as the solver needs).

use super::modes_error;
use super::ordering::halve;
use super::stiffness::Block;
use super::system::factorize;
use super::vectors::{BlockRows, Vectors, multiply_add};
use crate::AnalysisError;
use crate::random::Xorshift64;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::sparse::linalg::cholesky::{
    CholeskySymbolicParams, LltRef, SymbolicCholesky, SymmetricOrdering,
    factorize_symbolic_cholesky,
};
use faer::sparse::{SparseColMat, SymbolicSparseColMat};
use faer::{Conj, MatMut, Par, Side};
use glam::{DMat3, DVec3};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// Most nodes in one aggregate (halving gives parts of half this to this many): a patch of
/// about 4 × 4 × 4 cells of a solid's lattice, whose six rigid motions make a coarse space of
/// about a fiftieth of the coordinates. For a 50k-node solid, 64 took one LOBPCG step fewer
/// (10) for a coarse factor four times as large, about as fast in all; 32, 9 steps and half
/// as slow again.
const AGGREGATE: usize = 128;

/// The smoother's polynomial degree: each degree above one is one more product with A per
/// smoothing. A 50k-node solid took 10 LOBPCG steps at degree 2 and 3 (3 the slower by
/// 0.5 s), 14 at degree 1.
const DEGREE: usize = 2;

/// The smoother damps D⁻¹A's eigenvalues between ρ / this and ρ (the value of Adams et
/// al. and of the ML and MueLu libraries' defaults); below that the coarse space works.
const SMOOTHED_RANGE: f64 = 30.0;

/// Power iterations estimating ρ(D⁻¹ A), and the margin over the estimate (power
/// iteration approaches ρ from below; a smoother whose range stops short of ρ amplifies
/// what lies above it).
const POWER_STEPS: usize = 20;
const RHO_MARGIN: f64 = 1.1;

/// A node's three coordinates × an aggregate's six rigid motions.
type Columns = [[f64; 6]; 3];

/// P by node rows: node i's blocks `entries[start[i]..start[i + 1]]`, one per aggregate its
/// row reaches.
struct Prolongation {
    start: Vec<usize>,
    entries: Vec<(u32, Columns)>,
    /// Coarse coordinates: six per aggregate.
    coarse: usize,
}

pub(super) struct TwoLevel {
    a: BlockRows,
    diagonal_inverse: Vec<Block>,
    /// The smoother's range [lower, upper] of D⁻¹ A's eigenvalues.
    lower: f64,
    upper: f64,
    p: Prolongation,
    symbolic: SymbolicCholesky<usize>,
    values: Vec<f64>,
}

impl TwoLevel {
    /// The preconditioner for `a` over free nodes at `positions`.
    pub fn new(a: BlockRows, positions: &[DVec3]) -> Result<TwoLevel, AnalysisError> {
        let nodes = a.nodes();
        let diagonal_inverse: Vec<Block> = (0..nodes).map(|i| inverse(a.diagonal(i))).collect();
        let rho = spectral_radius(&a, &diagonal_inverse);
        let (aggregate_of, count) = aggregates(positions);
        let (tentative, dropped) = tentative(positions, &aggregate_of, count);
        // P = (I − ω D⁻¹ A) P₀, row by row.
        let omega = 4.0 / (3.0 * rho);
        let rows: Vec<Vec<(u32, Columns)>> = (0..nodes)
            .into_par_iter()
            .map(|i| {
                let mut row = vec![(aggregate_of[i], tentative[i])];
                for (k, block) in a.row(i) {
                    let mut pulled = [[0.0; 6]; 3];
                    let product = multiply(block, &tentative[k]);
                    let product = multiply(&diagonal_inverse[i], &product);
                    for (p, q) in pulled.iter_mut().zip(product) {
                        p.iter_mut().zip(q).for_each(|(p, q)| *p -= omega * q);
                    }
                    accumulate(&mut row, aggregate_of[k], &pulled);
                }
                row
            })
            .collect();
        let mut p = Prolongation {
            start: Vec::with_capacity(nodes + 1),
            entries: Vec::new(),
            coarse: 6 * count,
        };
        p.start.push(0);
        for row in rows {
            p.entries.extend(row);
            p.start.push(p.entries.len());
        }
        let matrix = coarse_matrix(&a, &p, &dropped);
        let params = CholeskySymbolicParams::default();
        let symbolic = factorize_symbolic_cholesky(
            matrix.symbolic(),
            Side::Lower,
            SymmetricOrdering::Amd,
            params,
        )
        .map_err(|e| modes_error(format!("the coarse matrix cannot be factorized: {e:?}")))?;
        let values = factorize(&symbolic, matrix.as_ref())?;
        Ok(TwoLevel {
            a,
            diagonal_inverse,
            lower: RHO_MARGIN * rho / SMOOTHED_RANGE,
            upper: RHO_MARGIN * rho,
            p,
            symbolic,
            values,
        })
    }

    /// B b for every vector of `b`.
    pub fn apply(&self, b: &Vectors) -> Vectors {
        let mut x = self.smooth(b);
        let mut residual = b.clone();
        residual.add_scaled(-1.0, &self.a.apply(&x));
        x.add_scaled(1.0, &self.p.prolong(&self.coarse_solve(self.p.restrict(&residual))));
        let mut residual = b.clone();
        residual.add_scaled(-1.0, &self.a.apply(&x));
        x.add_scaled(1.0, &self.smooth(&residual));
        x
    }

    /// The Chebyshev smoother from zero (Saad, *Iterative Methods for Sparse Linear
    /// Systems*, 2nd ed., Algorithm 12.1, on D⁻¹ A).
    fn smooth(&self, b: &Vectors) -> Vectors {
        let theta = (self.upper + self.lower) / 2.0;
        let delta = (self.upper - self.lower) / 2.0;
        let sigma = theta / delta;
        let mut rho = 1.0 / sigma;
        let mut d = self.block_jacobi(b);
        d.scale(1.0 / theta);
        let mut x = d.clone();
        let mut residual = b.clone();
        for _ in 1..DEGREE {
            residual.add_scaled(-1.0, &self.a.apply(&d));
            let next = 1.0 / (2.0 * sigma - rho);
            let mut step = self.block_jacobi(&residual);
            step.scale(2.0 * next / delta);
            step.add_scaled(next * rho, &d);
            d = step;
            x.add_scaled(1.0, &d);
            rho = next;
        }
        x
    }

    /// D⁻¹ v.
    fn block_jacobi(&self, v: &Vectors) -> Vectors {
        let width = v.width();
        let mut out = Vectors::zeros(width, v.len());
        out.par_nodes_mut().enumerate().for_each(|(i, out)| {
            multiply_add(out, &self.diagonal_inverse[i], v.node(i), width);
        });
        out
    }

    /// A_c⁻¹ c in place (`c` as [`Prolongation::restrict`] lays it out).
    fn coarse_solve(&self, mut c: Vec<f64>) -> Vec<f64> {
        let width = c.len() / self.p.coarse.max(1);
        let llt = LltRef::new(&self.symbolic, &self.values);
        let scratch = self.symbolic.solve_in_place_scratch::<f64>(width, Par::Seq);
        // The room is a few coarse vectors; without it the coarse correction is left out
        // (B is then the smoother alone: a weaker preconditioner, still a symmetric one).
        if let Ok(mut room) = MemBuffer::try_new(scratch) {
            let rhs = MatMut::from_column_major_slice_mut(&mut c, width, self.p.coarse);
            llt.solve_in_place_with_conj(
                Conj::No,
                rhs.transpose_mut(),
                Par::Seq,
                MemStack::new(&mut room),
            );
        }
        c
    }
}

impl Prolongation {
    /// Node i's blocks.
    fn row(&self, i: usize) -> &[(u32, Columns)] {
        &self.entries[self.start[i]..self.start[i + 1]]
    }

    /// Pᵀ r, the coarse coordinates' values `width` at a time.
    fn restrict(&self, r: &Vectors) -> Vec<f64> {
        let width = r.width();
        let nodes = self.start.len() - 1;
        let chunk = nodes.div_ceil(rayon::current_num_threads().max(1)).max(1);
        let parts: Vec<Vec<f64>> = (0..nodes.div_ceil(chunk))
            .into_par_iter()
            .map(|part| {
                let mut sum = vec![0.0; self.coarse * width];
                for i in part * chunk..((part + 1) * chunk).min(nodes) {
                    let values = r.node(i);
                    for (a, columns) in self.row(i) {
                        for (row, column) in columns.iter().enumerate() {
                            let v = &values[row * width..][..width];
                            for (j, &p) in column.iter().enumerate() {
                                let at = (6 * *a as usize + j) * width;
                                sum[at..at + width]
                                    .iter_mut()
                                    .zip(v)
                                    .for_each(|(s, v)| *s += p * v);
                            }
                        }
                    }
                }
                sum
            })
            .collect();
        let mut parts = parts.into_iter();
        let mut total = parts.next().unwrap_or_else(|| vec![0.0; self.coarse * width]);
        for part in parts {
            total.iter_mut().zip(part).for_each(|(t, p)| *t += p);
        }
        total
    }

    /// P e for coarse values `e` (as [`Self::restrict`] lays them out).
    fn prolong(&self, e: &[f64]) -> Vectors {
        let width = e.len() / self.coarse.max(1);
        let mut x = Vectors::zeros(width, 3 * (self.start.len() - 1));
        x.par_nodes_mut().enumerate().for_each(|(i, out)| {
            for (a, columns) in self.row(i) {
                for (row, column) in columns.iter().enumerate() {
                    let out = &mut out[row * width..][..width];
                    for (j, &p) in column.iter().enumerate() {
                        let at = (6 * *a as usize + j) * width;
                        out.iter_mut().zip(&e[at..at + width]).for_each(|(o, v)| *o += p * v);
                    }
                }
            }
        });
        x
    }
}

/// A_c = Pᵀ A P, its lower triangle in compressed columns; a rigid motion an aggregate
/// left out (`dropped`) gets 1 on its diagonal (its column of P is zero).
fn coarse_matrix(
    a: &BlockRows,
    p: &Prolongation,
    dropped: &[[bool; 6]],
) -> SparseColMat<usize, f64> {
    let nodes = p.start.len() - 1;
    // Aggregate pairs (a ≥ b) and their 6 × 6 blocks, summed over the nodes.
    let blocks = (0..nodes)
        .into_par_iter()
        .fold(FxHashMap::<(u32, u32), [[f64; 6]; 6]>::default, |mut blocks, i| {
            // (A P)_i, one 3 × 6 block per aggregate.
            let mut ap: Vec<(u32, Columns)> = Vec::new();
            for (k, block) in a.row(i) {
                for (b, columns) in p.row(k) {
                    accumulate(&mut ap, *b, &multiply(block, columns));
                }
            }
            for (a, pa) in p.row(i) {
                for (b, q) in &ap {
                    if a < b {
                        continue;
                    }
                    let sum = blocks.entry((*a, *b)).or_insert([[0.0; 6]; 6]);
                    for (r, sum) in sum.iter_mut().enumerate() {
                        for (c, sum) in sum.iter_mut().enumerate() {
                            *sum += (0..3).map(|k| pa[k][r] * q[k][c]).sum::<f64>();
                        }
                    }
                }
            }
            blocks
        })
        .reduce(FxHashMap::default, |mut all, part| {
            for (key, block) in part {
                let sum = all.entry(key).or_insert([[0.0; 6]; 6]);
                for (s, b) in sum.iter_mut().flatten().zip(block.iter().flatten()) {
                    *s += b;
                }
            }
            all
        });
    let mut by_column: Vec<Vec<(u32, [[f64; 6]; 6])>> = vec![Vec::new(); p.coarse / 6];
    for ((a, b), block) in blocks {
        by_column[b as usize].push((a, block));
    }
    let mut col_ptr = vec![0usize];
    let (mut row_idx, mut values) = (Vec::new(), Vec::new());
    for (b, mut column) in by_column.into_iter().enumerate() {
        column.sort_unstable_by_key(|&(a, _)| a);
        for c in 0..6 {
            for &(a, block) in &column {
                let a = a as usize;
                for (r, row) in block.iter().enumerate() {
                    if a == b && r < c {
                        continue;
                    }
                    let mut v = row[c];
                    if a == b && r == c && dropped[b][c] {
                        v += 1.0;
                    }
                    row_idx.push(6 * a + r);
                    values.push(v);
                }
            }
            col_ptr.push(row_idx.len());
        }
    }
    let n = p.coarse;
    // Valid by construction: rows ascending in each column (aggregates sorted, then
    // their six rows), all below n.
    SparseColMat::new(SymbolicSparseColMat::new_checked(n, n, col_ptr, None, row_idx), values)
}

/// The aggregate of each node (parent module docs) and how many there are.
fn aggregates(positions: &[DVec3]) -> (Vec<u32>, usize) {
    let mut aggregate_of = vec![0u32; positions.len()];
    let mut nodes: Vec<usize> = (0..positions.len()).collect();
    let mut count = 0;
    let mut parts = vec![nodes.as_mut_slice()];
    while let Some(part) = parts.pop() {
        if part.len() <= AGGREGATE {
            part.iter().for_each(|&i| aggregate_of[i] = count as u32);
            count += 1;
        } else {
            let middle = halve(positions, part);
            let (lower, upper) = part.split_at_mut(middle);
            parts.extend([lower, upper]);
        }
    }
    (aggregate_of, count)
}

/// P₀ at each node (its own aggregate's rigid motions, orthonormal over the aggregate) and
/// which of each aggregate's six motions were left out as moving none of its nodes.
fn tentative(
    positions: &[DVec3],
    aggregate_of: &[u32],
    count: usize,
) -> (Vec<Columns>, Vec<[bool; 6]>) {
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (i, &a) in aggregate_of.iter().enumerate() {
        members[a as usize].push(i);
    }
    let mut columns = vec![[[0.0; 6]; 3]; positions.len()];
    let mut dropped = vec![[false; 6]; count];
    for (a, nodes) in members.iter().enumerate() {
        let centre = nodes.iter().map(|&i| positions[i]).sum::<DVec3>() / nodes.len().max(1) as f64;
        // Column j over the aggregate's coordinates, node by node.
        let motion = |j: usize, i: usize| -> DVec3 {
            let axis = DVec3::AXES[j % 3];
            if j < 3 { axis } else { axis.cross(positions[i] - centre) }
        };
        let mut basis: Vec<Vec<f64>> = Vec::new();
        for j in 0..6 {
            let mut v: Vec<f64> = nodes.iter().flat_map(|&i| motion(j, i).to_array()).collect();
            let before = dot(&v, &v).sqrt();
            for _ in 0..2 {
                for q in &basis {
                    let c = dot(&v, q);
                    v.iter_mut().zip(q).for_each(|(x, y)| *x -= c * y);
                }
            }
            let norm = dot(&v, &v).sqrt();
            if before > 0.0 && norm > 1e-8 * before {
                v.iter_mut().for_each(|x| *x /= norm);
                for (k, &i) in nodes.iter().enumerate() {
                    (0..3).for_each(|r| columns[i][r][j] = v[3 * k + r]);
                }
                basis.push(v);
            } else {
                dropped[a][j] = true;
            }
        }
    }
    (columns, dropped)
}

/// ρ(D⁻¹ A) by power iteration from a fixed random start.
fn spectral_radius(a: &BlockRows, diagonal_inverse: &[Block]) -> f64 {
    let n = 3 * a.nodes();
    let mut random = Xorshift64::new(0x2545_f491_4f6c_dd1d);
    let mut v = Vectors::from_fn(1, n, |_, _| random.unit() - 0.5);
    let mut rho = 0.0;
    for _ in 0..POWER_STEPS {
        let av = a.apply(&v);
        let mut next = Vectors::zeros(1, n);
        next.par_nodes_mut().enumerate().for_each(|(i, out)| {
            multiply_add(out, &diagonal_inverse[i], av.node(i), 1);
        });
        let norm = |v: &Vectors| v.rows().norm_l2();
        let (before, after) = (norm(&v), norm(&next));
        if !(after > 0.0 && before > 0.0) || after.is_nan() {
            break;
        }
        rho = after / before;
        next.scale(1.0 / after);
        v = next;
    }
    if rho > 0.0 { rho } else { 1.0 }
}

/// A symmetric 3 × 3 block's inverse; where it is singular, the inverse of its diagonal
/// (zero where that is zero), so a node no spring or mass holds is left alone.
fn inverse(block: &Block) -> Block {
    let m = DMat3::from_cols_array_2d(block);
    let det = m.determinant();
    let scale = block.iter().enumerate().map(|(r, row)| row[r].abs()).fold(0.0, f64::max);
    if det.is_finite() && det > 1e-12 * scale * scale * scale {
        m.inverse().to_cols_array_2d()
    } else {
        std::array::from_fn(|r| {
            std::array::from_fn(
                |c| if r == c && block[r][r] > 0.0 { 1.0 / block[r][r] } else { 0.0 },
            )
        })
    }
}

/// A 3 × 3 block times a node's 3 × 6 columns.
fn multiply(block: &Block, columns: &Columns) -> Columns {
    std::array::from_fn(|r| {
        std::array::from_fn(|j| (0..3).map(|k| block[r][k] * columns[k][j]).sum())
    })
}

/// Adds `columns` to the entry of aggregate `a` in `row`.
fn accumulate(row: &mut Vec<(u32, Columns)>, a: u32, columns: &Columns) {
    match row.iter_mut().find(|(b, _)| *b == a) {
        Some((_, sum)) => {
            for (s, c) in sum.iter_mut().flatten().zip(columns.iter().flatten()) {
                *s += c;
            }
        }
        None => row.push((a, *columns)),
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // Test code.
    use super::*;
    use crate::modes::system::System;

    /// A small solid's A = K_springs + ω² M (shape matching's diagonal) and its nodes.
    fn solid() -> (BlockRows, Vec<DVec3>) {
        let system = System::of(&crate::modes::tests::ball());
        (system.spring_rows(system.shape_stiffness()), system.positions)
    }

    fn dot(a: &Vectors, b: &Vectors) -> f64 {
        a.coordinates().zip(b.coordinates()).map(|(x, y)| x[0] * y[0]).sum()
    }

    fn wavy(n: usize, k: usize) -> Vectors {
        Vectors::from_fn(1, n, |_, i| ((i * k) % 97) as f64 / 97.0 - 0.5)
    }

    #[test]
    fn the_coarse_correction_is_a_projection() {
        // C = P A_c⁻¹ Pᵀ A with A_c = Pᵀ A P: C C = P A_c⁻¹ (Pᵀ A P) A_c⁻¹ Pᵀ A = C, so a
        // second correction of what one made changes nothing.
        let (a, positions) = solid();
        let two = TwoLevel::new(a.clone(), &positions).unwrap();
        let correct = |x: &Vectors| two.p.prolong(&two.coarse_solve(two.p.restrict(&a.apply(x))));
        let once = correct(&wavy(3 * positions.len(), 31));
        let mut twice = correct(&once);
        twice.add_scaled(-1.0, &once);
        let (change, size) = (twice.rows().norm_l2(), once.rows().norm_l2());
        assert!(size > 0.0 && change < 1e-9 * size, "{change} against {size}");
    }

    #[test]
    fn the_preconditioner_is_symmetric_and_its_iteration_converges() {
        // LOBPCG needs B symmetric: ⟨u, B v⟩ = ⟨B u, v⟩ (the same polynomial smooths before
        // and after the coarse correction).
        let (a, positions) = solid();
        let n = 3 * positions.len();
        let two = TwoLevel::new(a.clone(), &positions).unwrap();
        let (u, v) = (wavy(n, 31), wavy(n, 53));
        let (ubv, buv) = (dot(&u, &two.apply(&v)), dot(&two.apply(&u), &v));
        assert!((ubv - buv).abs() < 1e-10 * ubv.abs().max(buv.abs()), "{ubv} against {buv}");
        // x ← x + B (b − A x) solves A x = b: a thousandth of the residual is left after
        // twenty steps (a two-level method's error shrinks by a fixed factor each step,
        // whatever the size; here by about 0.6).
        let b = wavy(n, 7);
        let mut x = Vectors::zeros(1, n);
        let residual = |x: &Vectors| {
            let mut r = b.clone();
            r.add_scaled(-1.0, &a.apply(x));
            r
        };
        for _ in 0..20 {
            x.add_scaled(1.0, &two.apply(&residual(&x)));
        }
        let (left, start) = (residual(&x).rows().norm_l2(), b.rows().norm_l2());
        assert!(left < 1e-3 * start, "{left} of {start} left");
    }
}
