//! # Vibration modes: the frequencies a model rings at
//!
//! Near its rest shape a model moves as a sum of independent vibrations, each a shape φ that
//! swings at one frequency. They are the solutions of the generalized eigenproblem
//!
//! ```text
//! K φ = λ M φ,        f = √λ / 2π  (Hz)
//! ```
//!
//! - M: the diagonal mass matrix (each free node's mass on its three coordinates, kg);
//! - K: the stiffness matrix, the springs' forces linearized at the model's rest positions
//!   (N/m). A spring of stiffness k and rest length L between nodes a and b, d = x_b − x_a,
//!   ℓ = |d|, n = d / ℓ, adds the 3 × 3 block
//!
//!   ```text
//!   B = k [ n nᵀ + (1 − L/ℓ)(I − n nᵀ) ]
//!   ```
//!
//!   to K_aa and K_bb and −B to K_ab and K_ba: along the spring its stiffness, across it its
//!   tension over its length (none for a spring at its rest length). A compressed spring
//!   (ℓ < L) would add a negative stiffness across it; that part is left out (1 − L/ℓ taken
//!   as 0), as implicit cloth solvers do to keep K positive semi-definite (Choi & Ko 2002),
//!   since a model at rest with its springs as drawn is not in equilibrium there anyway.
//!   Anchors are held: their coordinates are left out. Shape matching and gas pressure are
//!   not in K.
//!
//! A model that can move without stretching any spring has λ = 0 there: a free body's six
//! rigid motions, and mechanisms (a string without tension has no sideways stiffness, a flat
//! sheet none out of its plane at rest). Those are not vibrations and are left out: the modes
//! reported are the lowest with λ above [`ZERO_MODE`] of the largest K_ii / M_ii.
//!
//! **The solver.** Lanczos iteration with full reorthogonalization (Golub & Van Loan,
//! *Matrix Computations*, 4th ed., §10.1) on the shift-inverted operator
//!
//! ```text
//! T = M^½ (K − σ M)⁻¹ M^½,     θ = 1 / (λ − σ)
//! ```
//!
//! whose largest θ are the λ nearest σ (Ericsson & Ruhe 1980, the method of ARPACK's and
//! Abaqus's frequency steps). σ is a little below zero ([`SHIFT`] of the largest K_ii / M_ii),
//! so K − σM is positive definite even where K has zero modes, and a sparse Cholesky
//! factorization (faer's supernodal LLᵀ, chosen for being pure Rust, well kept and fast on
//! the sparse lattices conversions make) solves with it once per Lanczos step. Zero modes all
//! sit at θ = −1/σ, one cluster that Lanczos resolves in a few steps whatever its size; the
//! λ wanted come next. Ritz values are accepted when their residual |β_j s_{j,i}| is below
//! [`TOLERANCE`] of θ.

use crate::ConvertError;
use faer::linalg::solvers::Solve;
use faer::sparse::{SparseColMat, Triplet};
use faer::{Mat, Side};
use springmesh_core::SpringModel;

/// Zero modes: λ below this fraction of the largest K_ii / M_ii (module docs). A mechanism's λ
/// is round-off (1e-12 of it and below); the slowest vibration of a model that holds its
/// shape is far above (a 100 × 100 cloth of equal springs: 1e-5 of it).
pub const ZERO_MODE: f64 = 1e-9;

/// A spring stretched less than this fraction is taken as at its rest length: rest lengths
/// and positions are f32, whose round-off (1.2e-7 of a value, more through a difference)
/// would otherwise give a string at rest a sideways stiffness of 1e-7 k and its mechanisms
/// a few thousandths of a hertz.
const STRETCH_ROUND_OFF: f64 = 1e-5;

/// The shift σ, as a fraction of the largest K_ii / M_ii, below zero (module docs).
const SHIFT: f64 = 1e-10;

/// Relative residual at which a Ritz value counts as converged.
const TOLERANCE: f64 = 1e-9;

/// Most Lanczos steps of a round: beyond the modes asked for, room for the zero-mode cluster
/// and convergence.
const MAX_STEPS: usize = 300;

/// Most free nodes whose modes are found: a 50k-node cage is well within it, and a file of
/// more (a million-node surface) is refused with this reason rather than factorized.
pub const MAX_NODES: usize = 200_000;

/// Most bytes of Lanczos and mode vectors kept at once (n coordinates × 8 bytes each): the
/// steps of a round are cut to fit, so a large model cannot take all memory.
const VECTOR_BYTES: usize = 1 << 30;

/// Most rounds of Lanczos (each finds the next copy of a frequency several modes share).
const MAX_ROUNDS: usize = 8;

/// How many modes `modes_hz` reports at most by default.
pub const DEFAULT_MODES: usize = 6;

/// The lowest `count` vibration frequencies (Hz, ascending) of `model` at its rest positions
/// with its anchors held (module docs); fewer when the model has fewer. `progress` is called
/// with the fraction done (0 to 1) as the work goes on.
pub fn modes_hz(
    model: &SpringModel,
    count: usize,
    mut progress: impl FnMut(f32),
) -> Result<Vec<f64>, ConvertError> {
    let free = model.nodes.len() - model.anchors.len().min(model.nodes.len());
    if free > MAX_NODES {
        return Err(ConvertError::Modes {
            reason: format!(
                "{free} free nodes, more than the {MAX_NODES} whose modes are found (the factorization and the Lanczos vectors grow with them)"
            ),
        });
    }
    let system = System::of(model);
    let n = system.mass.len();
    if n == 0 || count == 0 {
        return Ok(Vec::new());
    }
    let scale = system.scale();
    let sigma = -SHIFT * scale;
    let shifted = system.shifted(sigma)?;
    let llt = shifted.sp_cholesky(Side::Lower).map_err(|e| ConvertError::Modes {
        reason: format!("the stiffness matrix cannot be factorized: {e:?}"),
    })?;
    progress(0.1);
    let root_mass: Vec<f64> = system.mass.iter().map(|m| m.sqrt()).collect();
    // T v = M^½ (K − σM)⁻¹ M^½ v.
    let mut z = Mat::<f64>::zeros(n, 1);
    let mut apply = |v: &[f64], out: &mut Vec<f64>| {
        for (i, (&r, &v)) in root_mass.iter().zip(v).enumerate() {
            z[(i, 0)] = r * v;
        }
        llt.solve_in_place(z.as_mut());
        out.clear();
        out.extend((0..n).map(|i| root_mass[i] * z[(i, 0)]));
    };
    // Vectors kept at once (this round's basis and the modes found) within VECTOR_BYTES.
    let budget = (VECTOR_BYTES / (8 * n)).max(2 * count + 2);
    let lambda = |theta: f64| sigma + 1.0 / theta;
    let zero = ZERO_MODE * scale;
    // The lowest `count` vibrating λ among the pairs found.
    let lowest = |found: &[(f64, Vec<f64>)], count: usize, zero: f64| {
        let mut l: Vec<f64> = found.iter().map(|(t, _)| lambda(*t)).filter(|&l| l > zero).collect();
        l.sort_by(f64::total_cmp);
        l.truncate(count);
        l
    };
    // Rounds of Lanczos, each kept orthogonal to the modes found before (deflation), so that
    // a frequency shared by several modes (a symmetric body's, a string's two sideways
    // directions) is found as often as it occurs: one Krylov space holds one of them.
    let mut found: Vec<(f64, Vec<f64>)> = Vec::new();
    let mut w = Vec::with_capacity(n);
    for round in 0..MAX_ROUNDS {
        let deflate: Vec<&[f64]> = found.iter().map(|(_, v)| v.as_slice()).collect();
        let Some(mut lanczos) = Lanczos::start(n, round as u64, &deflate) else { break };
        let room = budget.saturating_sub(found.len());
        let steps = (n - found.len()).min(MAX_STEPS).min(room);
        if steps == 0 {
            break;
        }
        let mut pairs = Vec::new();
        for step in 0..steps {
            apply(lanczos.last(), &mut w);
            let more = lanczos.extend(&mut w, &deflate);
            let done = !more || step + 1 == steps;
            if done || (step + 1) % 10 == 0 {
                pairs = lanczos.converged(done)?;
                let vibrating = pairs.iter().filter(|(theta, _)| lambda(*theta) > zero).count();
                if vibrating >= count || done {
                    break;
                }
            }
        }
        let before = lowest(&found, count, zero);
        found.extend(pairs);
        let after = lowest(&found, count, zero);
        progress((0.1 + 0.9 * (round + 1) as f32 / MAX_ROUNDS as f32).min(1.0));
        // Done once a round changes none of the lowest `count` and finds no new one.
        if after == before || found.len() >= n {
            break;
        }
    }
    progress(1.0);
    let hz = lowest(&found, count, zero).into_iter();
    Ok(hz.map(|l| l.sqrt() / std::f64::consts::TAU).collect())
}

/// The model's stiffness and masses over its free coordinates.
struct System {
    /// Each free coordinate's mass (kg).
    mass: Vec<f64>,
    /// K's entries on and below the diagonal, summed per (row, column).
    stiffness: Vec<Triplet<usize, usize, f64>>,
}

impl System {
    fn of(model: &SpringModel) -> System {
        let nodes = model.nodes.len();
        let mut free = vec![true; nodes];
        for a in &model.anchors {
            if let Some(f) = free.get_mut(a.index()) {
                *f = false;
            }
        }
        let mut index = vec![usize::MAX; nodes];
        let mut mass = Vec::new();
        for (i, (&is_free, &m)) in free.iter().zip(model.nodes.masses()).enumerate() {
            if is_free {
                index[i] = mass.len();
                mass.extend([f64::from(m); 3]);
            }
        }
        let positions = model.nodes.positions();
        let mut entries: Vec<(usize, usize, f64)> = Vec::new();
        let mut add = |a: usize, b: usize, block: &[[f64; 3]; 3], sign: f64| {
            let (ia, ib) = (index[a], index[b]);
            if ia == usize::MAX || ib == usize::MAX {
                return;
            }
            for (r, row) in block.iter().enumerate() {
                for (c, &v) in row.iter().enumerate() {
                    let (row, col) = (ia + r, ib + c);
                    if row >= col && v != 0.0 {
                        entries.push((row, col, sign * v));
                    }
                }
            }
        };
        for s in model.springs.iter() {
            let (a, b) = (s.a.index(), s.b.index());
            let (Some(&pa), Some(&pb)) = (positions.get(a), positions.get(b)) else { continue };
            let d = (pb - pa).as_dvec3();
            let length = d.length();
            if length.is_nan() || length <= 0.0 || a == b {
                continue;
            }
            let n = d / length;
            let k = f64::from(s.stiffness);
            let stretch = 1.0 - f64::from(s.rest_length) / length;
            // Below STRETCH_ROUND_OFF it is the round-off of f32 lengths: no tension.
            let tension = if stretch > STRETCH_ROUND_OFF { stretch } else { 0.0 };
            let mut block = [[0.0; 3]; 3];
            for (r, row) in block.iter_mut().enumerate() {
                for (c, v) in row.iter_mut().enumerate() {
                    let outer = n[r] * n[c];
                    let identity = if r == c { 1.0 } else { 0.0 };
                    *v = k * (outer + tension * (identity - outer));
                }
            }
            add(a, a, &block, 1.0);
            add(b, b, &block, 1.0);
            // K_ab and K_ba = −B: whichever lies below the diagonal is kept.
            add(a, b, &block, -1.0);
            add(b, a, &block, -1.0);
        }
        entries.sort_unstable_by_key(|&(r, c, _)| (c, r));
        let mut stiffness: Vec<Triplet<usize, usize, f64>> = Vec::with_capacity(entries.len());
        for (r, c, v) in entries {
            match stiffness.last_mut() {
                Some(last) if last.row == r && last.col == c => last.val += v,
                _ => stiffness.push(Triplet::new(r, c, v)),
            }
        }
        System { mass, stiffness }
    }

    /// The largest K_ii / M_ii (1/s²): the scale of the model's λ.
    fn scale(&self) -> f64 {
        let diagonal = self.stiffness.iter().filter(|t| t.row == t.col);
        let largest =
            diagonal.map(|t| t.val / self.mass[t.row].max(f64::MIN_POSITIVE)).fold(0.0, f64::max);
        if largest > 0.0 { largest } else { 1.0 }
    }

    /// K − σ M, its lower triangle.
    fn shifted(&self, sigma: f64) -> Result<SparseColMat<usize, f64>, ConvertError> {
        let n = self.mass.len();
        let mut entries = self.stiffness.clone();
        let mut on_diagonal = vec![false; n];
        for t in &mut entries {
            if t.row == t.col {
                t.val -= sigma * self.mass[t.row];
                on_diagonal[t.row] = true;
            }
        }
        let missing = (0..n).filter(|&i| !on_diagonal[i]);
        let extra: Vec<_> = missing.map(|i| Triplet::new(i, i, -sigma * self.mass[i])).collect();
        entries.extend(extra);
        SparseColMat::try_new_from_triplets(n, n, &entries).map_err(|e| ConvertError::Modes {
            reason: format!("the stiffness matrix cannot be built: {e:?}"),
        })
    }
}

/// Lanczos vectors q_1 … q_j with full reorthogonalization, and the tridiagonal of α, β.
struct Lanczos {
    basis: Vec<Vec<f64>>,
    alpha: Vec<f64>,
    beta: Vec<f64>,
}

impl Lanczos {
    /// A start vector with a part along every coordinate (no mode left out by symmetry),
    /// drawn from `seed`, orthogonal to `deflate`; `None` when nothing is left.
    fn start(n: usize, seed: u64, deflate: &[&[f64]]) -> Option<Lanczos> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64 ^ seed.wrapping_mul(0x2545_f491_4f6c_dd1d);
        let mut q: Vec<f64> = (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                0.5 + (state >> 11) as f64 / (1u64 << 53) as f64
            })
            .collect();
        orthogonalize(&mut q, deflate.iter().copied());
        let norm = dot(&q, &q).sqrt();
        if norm.is_nan() || norm <= 1e-8 {
            return None;
        }
        q.iter_mut().for_each(|x| *x /= norm);
        Some(Lanczos { basis: vec![q], alpha: Vec::new(), beta: Vec::new() })
    }

    fn last(&self) -> &[f64] {
        self.basis.last().map_or(&[], |q| q.as_slice())
    }

    /// Takes w = T q_j, adds α_j and β_j and q_{j+1}, kept orthogonal to the basis and to
    /// `deflate`; false when the Krylov space is whole.
    fn extend(&mut self, w: &mut [f64], deflate: &[&[f64]]) -> bool {
        let alpha = dot(w, self.last());
        self.alpha.push(alpha);
        // Twice over the whole basis (Gram–Schmidt, "twice is enough").
        for _ in 0..2 {
            orthogonalize(
                w,
                self.basis.iter().map(|q| q.as_slice()).chain(deflate.iter().copied()),
            );
        }
        let beta = dot(w, w).sqrt();
        let scale = self.alpha.iter().map(|a| a.abs()).fold(0.0, f64::max);
        if beta.is_nan() || beta <= 1e-12 * scale {
            return false;
        }
        self.beta.push(beta);
        self.basis.push(w.iter().map(|x| x / beta).collect());
        true
    }

    /// The converged Ritz pairs (θ, y) with θ > 0 (all of them when `all`).
    fn converged(&self, all: bool) -> Result<Vec<(f64, Vec<f64>)>, ConvertError> {
        let j = self.alpha.len();
        let t = Mat::<f64>::from_fn(j, j, |r, c| {
            if r == c {
                self.alpha[r]
            } else if r == c + 1 || c == r + 1 {
                self.beta[r.min(c)]
            } else {
                0.0
            }
        });
        let eigen = t.self_adjoint_eigen(Side::Lower).map_err(|e| ConvertError::Modes {
            reason: format!("the modes' eigenproblem did not converge: {e:?}"),
        })?;
        let (values, vectors) = (eigen.S(), eigen.U());
        let last_beta = self.beta.get(j - 1).copied().unwrap_or(0.0);
        let n = self.basis.first().map_or(0, Vec::len);
        Ok((0..j)
            .filter(|&i| {
                let (theta, residual) = (values[i], (last_beta * vectors[(j - 1, i)]).abs());
                theta > 0.0 && (all || residual <= TOLERANCE * theta)
            })
            .map(|i| {
                let mut y = vec![0.0; n];
                for (k, q) in self.basis.iter().take(j).enumerate() {
                    let c = vectors[(k, i)];
                    y.iter_mut().zip(q).for_each(|(y, q)| *y += c * q);
                }
                (values[i], y)
            })
            .collect())
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `w` less its parts along each of the orthonormal `against`.
fn orthogonalize<'a>(w: &mut [f64], against: impl Iterator<Item = &'a [f64]>) {
    for q in against {
        let c = dot(w, q);
        w.iter_mut().zip(q).for_each(|(x, y)| *x -= c * y);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // Test code.
    use super::*;
    use glam::Vec3;
    use springmesh_core::{Node, NodeId, Spring, SpringKind};

    /// anchor – k – m – k – m along x (1 m springs at rest).
    fn chain(k: f32, m: f32) -> SpringModel {
        let mut model = SpringModel::default();
        for i in 0..3 {
            model.nodes.push(Node { position: Vec3::X * i as f32, mass: m });
        }
        for i in 0..2 {
            let spring = Spring::new(NodeId(i), NodeId(i + 1), 1.0, k, SpringKind::Stretch);
            model.springs.push(spring);
        }
        model.anchors = vec![NodeId(0)];
        model
    }

    #[test]
    fn an_anchored_chain_rings_at_its_two_longitudinal_frequencies() {
        // K = k [[2, −1], [−1, 1]], M = m I: λ = k/m (3 ∓ √5)/2. The four sideways
        // coordinates are mechanisms (no tension): left out.
        let hz = modes_hz(&chain(100.0, 1.0), DEFAULT_MODES, |_| {}).unwrap();
        let expected = [(3.0 - 5f64.sqrt()) / 2.0, (3.0 + 5f64.sqrt()) / 2.0]
            .map(|l: f64| (100.0 * l).sqrt() / std::f64::consts::TAU);
        assert_eq!(hz.len(), 2, "{hz:?}");
        for (f, e) in hz.iter().zip(expected) {
            assert!((f - e).abs() < 1e-6 * e, "{f} Hz against {e} Hz");
        }
        assert!((expected[0] - 0.9836).abs() < 1e-4 && (expected[1] - 2.575).abs() < 1e-3);
    }

    #[test]
    fn a_stretched_string_rings_sideways_and_a_free_body_has_no_rigid_modes() {
        // A string of 1 m springs pulled to 2 m between two anchors: the middle node's
        // sideways stiffness is 2 k (1 − L/ℓ) = k, its longitudinal 2 k.
        let mut string = chain(100.0, 1.0);
        string.nodes.positions_mut()[1] = Vec3::X * 2.0;
        string.nodes.positions_mut()[2] = Vec3::X * 4.0;
        string.anchors = vec![NodeId(0), NodeId(2)];
        let hz = modes_hz(&string, DEFAULT_MODES, |_| {}).unwrap();
        let f = |l: f64| l.sqrt() / std::f64::consts::TAU;
        let expected = [f(100.0), f(100.0), f(200.0)];
        assert_eq!(hz.len(), 3, "{hz:?}");
        for (got, e) in hz.iter().zip(expected) {
            assert!((got - e).abs() < 1e-6 * e, "{got} Hz against {e} Hz");
        }
        // The chain set free: three nodes in a line have one longitudinal pair of modes
        // (λ = k/m and 3 k/m) and nothing else that stretches a spring.
        let mut free = chain(100.0, 1.0);
        free.anchors.clear();
        let hz = modes_hz(&free, DEFAULT_MODES, |_| {}).unwrap();
        let expected = [f(100.0), f(300.0)];
        assert_eq!(hz.len(), 2, "{hz:?}");
        for (got, e) in hz.iter().zip(expected) {
            assert!((got - e).abs() < 1e-6 * e, "{got} Hz against {e} Hz");
        }
    }

    #[test]
    fn a_model_of_more_nodes_than_the_limit_is_refused_with_the_reason() {
        let mut model = SpringModel::default();
        for i in 0..=MAX_NODES {
            model.nodes.push(Node { position: Vec3::X * i as f32, mass: 1.0 });
        }
        let error = modes_hz(&model, DEFAULT_MODES, |_| {}).unwrap_err().to_string();
        assert!(error.contains("200001 free nodes"), "{error}");
    }
}
