//! The model's K and M over its free coordinates, and the shift-inverted operator built on
//! them (the parent module's docs give the equations).

use super::ordering::nested_dissection;
use super::{STRETCH_ROUND_OFF, modes_error};
use crate::ConvertError;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt::factor::LltRegularization;
use faer::perm::PermRef;
use faer::sparse::linalg::cholesky::{
    CholeskySymbolicParams, LltRef, SymbolicCholesky, SymmetricOrdering,
    factorize_symbolic_cholesky,
};
use faer::sparse::{SparseColMat, Triplet};
use faer::{Accum, Conj, Mat, MatMut, Par, Side};
use springmesh_core::SpringModel;

/// The model's stiffness and masses over its free coordinates.
pub(super) struct System {
    /// Each free coordinate's mass (kg).
    pub mass: Vec<f64>,
    /// The springs' K, its entries on and below the diagonal, summed per (row, column).
    springs: Vec<Triplet<usize, usize, f64>>,
    /// Shape matching's ω² (1/s²) and U = M_f Ψ_f, one column per rigid motion (n × r).
    shape: Option<(f64, Mat<f64>)>,
    /// The free nodes' elimination order ([`super::ordering`]).
    order: Vec<usize>,
}

impl System {
    pub fn of(model: &SpringModel) -> System {
        let nodes = model.nodes.len();
        let mut free = vec![true; nodes];
        for a in &model.anchors {
            if let Some(f) = free.get_mut(a.index()) {
                *f = false;
            }
        }
        let mut free_index = vec![usize::MAX; nodes];
        let mut mass = Vec::new();
        for (i, (&is_free, &m)) in free.iter().zip(model.nodes.masses()).enumerate() {
            if is_free {
                free_index[i] = mass.len();
                mass.extend([f64::from(m); 3]);
            }
        }
        let springs = spring_stiffness(model, &free_index);
        let free_positions: Vec<glam::DVec3> = (model.nodes.positions().iter().zip(&free))
            .filter(|(_, is_free)| **is_free)
            .map(|(p, _)| p.as_dvec3())
            .collect();
        let edges: Vec<(usize, usize)> = model
            .springs
            .iter()
            .filter_map(|s| {
                let (a, b) = (*free_index.get(s.a.index())?, *free_index.get(s.b.index())?);
                (a != usize::MAX && b != usize::MAX).then_some((a / 3, b / 3))
            })
            .collect();
        let order = nested_dissection(&free_positions, &edges);
        let shape = model.params.shape_matching.and_then(|s| {
            let omega = std::f64::consts::TAU * f64::from(s.frequency);
            let u = rigid_basis(model, &free_index, mass.len())?;
            (omega.is_finite() && omega > 0.0).then_some((omega * omega, u))
        });
        System { mass, springs, shape, order }
    }

    /// The largest K_ii / M_ii (1/s²): the scale of the model's λ.
    pub fn scale(&self) -> f64 {
        let diagonal = self.springs.iter().filter(|t| t.row == t.col);
        let largest =
            diagonal.map(|t| t.val / self.mass[t.row].max(f64::MIN_POSITIVE)).fold(0.0, f64::max);
        let largest = largest + self.shape.as_ref().map_or(0.0, |(w2, _)| *w2);
        if largest > 0.0 { largest } else { 1.0 }
    }

    /// T = M^½ (K − σ M)⁻¹ M^½, factorized once, for blocks of up to `block` vectors.
    pub fn shift_invert(self, sigma: f64, block: usize) -> Result<Operator, ConvertError> {
        let n = self.mass.len();
        // A = K_springs + (ω² − σ) M: K less shape matching's low-rank part.
        let diagonal_shift = self.shape.as_ref().map_or(0.0, |(w2, _)| *w2) - sigma;
        let mut entries = self.springs;
        let mut on_diagonal = vec![false; n];
        for t in &mut entries {
            if t.row == t.col {
                t.val += diagonal_shift * self.mass[t.row];
                on_diagonal[t.row] = true;
            }
        }
        let missing = (0..n).filter(|&i| !on_diagonal[i]);
        let extra: Vec<_> =
            missing.map(|i| Triplet::new(i, i, diagonal_shift * self.mass[i])).collect();
        entries.extend(extra);
        let a = SparseColMat::try_new_from_triplets(n, n, &entries)
            .map_err(|e| modes_error(format!("the stiffness matrix cannot be built: {e:?}")))?;
        // Each free node's three coordinates in its place of the order.
        let forward: Vec<usize> =
            self.order.iter().flat_map(|&node| [3 * node, 3 * node + 1, 3 * node + 2]).collect();
        let mut inverse = vec![0; n];
        for (k, &i) in forward.iter().enumerate() {
            inverse[i] = k;
        }
        let par = Par::rayon(0);
        let factor_error = |e: &dyn std::fmt::Debug| {
            modes_error(format!("the stiffness matrix cannot be factorized: {e:?}"))
        };
        // Nested dissection or minimum degree, whichever fills less (a solid: the first; a
        // surface: about the same).
        let symbolic = |ordering| {
            factorize_symbolic_cholesky(
                a.symbolic(),
                Side::Lower,
                ordering,
                CholeskySymbolicParams::default(),
            )
            .map_err(|e| factor_error(&e))
        };
        let dissected =
            symbolic(SymmetricOrdering::Custom(PermRef::new_checked(&forward, &inverse, n)))?;
        let minimum_degree = symbolic(SymmetricOrdering::Amd)?;
        let symbolic =
            if minimum_degree.len_val() < dissected.len_val() { minimum_degree } else { dissected };
        let mut values = Vec::new();
        values.try_reserve_exact(symbolic.len_val()).map_err(|e| factor_error(&e))?;
        values.resize(symbolic.len_val(), 0.0);
        let scratch = symbolic
            .factorize_numeric_llt_scratch::<f64>(par, Default::default())
            .or(symbolic.solve_in_place_scratch::<f64>(block.max(6), par));
        let mut scratch = MemBuffer::try_new(scratch).map_err(|e| factor_error(&e))?;
        symbolic
            .factorize_numeric_llt(
                &mut values,
                a.as_ref(),
                Side::Lower,
                LltRegularization::default(),
                par,
                MemStack::new(&mut scratch),
                Default::default(),
            )
            .map_err(|e| factor_error(&e))?;
        let mut operator = Operator {
            symbolic,
            values,
            scratch,
            woodbury: None,
            root_mass: self.mass.iter().map(|m| m.sqrt()).collect(),
        };
        if let Some((w2, u)) = self.shape {
            operator.woodbury = Some(Woodbury::new(&mut operator, w2, u)?);
        }
        Ok(operator)
    }
}

/// The springs' K at the rest positions (parent module docs), lower triangle, over the free
/// coordinates `free_index` numbers (`usize::MAX`: anchored).
fn spring_stiffness(model: &SpringModel, free_index: &[usize]) -> Vec<Triplet<usize, usize, f64>> {
    let positions = model.nodes.positions();
    let mut entries: Vec<(usize, usize, f64)> = Vec::new();
    let mut add = |a: usize, b: usize, block: &[[f64; 3]; 3], sign: f64| {
        let (ia, ib) = (free_index[a], free_index[b]);
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
    let mut summed: Vec<Triplet<usize, usize, f64>> = Vec::with_capacity(entries.len());
    for (r, c, v) in entries {
        match summed.last_mut() {
            Some(last) if last.row == r && last.col == c => last.val += v,
            _ => summed.push(Triplet::new(r, c, v)),
        }
    }
    summed
}

/// U = M_f Ψ_f: the rigid motions of all nodes at rest (three translations, three turns
/// about the centre of mass), made orthonormal in the mass metric (ΨᵀMΨ = I; a turn about
/// the line of a model whose nodes are all on it moves nothing and is left out), over the
/// free coordinates, times their masses. `None` without mass.
fn rigid_basis(model: &SpringModel, free_index: &[usize], n: usize) -> Option<Mat<f64>> {
    let masses: Vec<f64> = model.nodes.masses().iter().map(|&m| f64::from(m)).collect();
    let total: f64 = masses.iter().sum();
    if total.is_nan() || total <= 0.0 {
        return None;
    }
    let positions = model.nodes.positions();
    let centre =
        positions.iter().zip(&masses).map(|(p, m)| p.as_dvec3() * *m).sum::<glam::DVec3>() / total;
    // The six motions over every node's coordinates.
    let motions: Vec<Vec<f64>> = (0..6)
        .map(|k| {
            positions
                .iter()
                .flat_map(|p| {
                    let axis = glam::DVec3::AXES[k % 3];
                    let v = if k < 3 { axis } else { axis.cross(p.as_dvec3() - centre) };
                    v.to_array()
                })
                .collect()
        })
        .collect();
    let weight = |i: usize| masses[i / 3];
    let mass_dot = |a: &[f64], b: &[f64]| -> f64 {
        a.iter().zip(b).enumerate().map(|(i, (x, y))| weight(i) * x * y).sum()
    };
    // Modified Gram–Schmidt in the mass metric.
    let mut basis: Vec<Vec<f64>> = Vec::new();
    for mut v in motions {
        let norm0 = mass_dot(&v, &v);
        for q in &basis {
            let c = mass_dot(&v, q);
            v.iter_mut().zip(q).for_each(|(x, y)| *x -= c * y);
        }
        let norm = mass_dot(&v, &v);
        if norm0 > 0.0 && norm > 1e-12 * norm0 {
            let inverse = 1.0 / norm.sqrt();
            v.iter_mut().for_each(|x| *x *= inverse);
            basis.push(v);
        }
    }
    let mut u = Mat::<f64>::zeros(n, basis.len());
    for (col, psi) in basis.iter().enumerate() {
        for (node, &row) in free_index.iter().enumerate() {
            if row != usize::MAX {
                for axis in 0..3 {
                    u[(row + axis, col)] = masses[node] * psi[3 * node + axis];
                }
            }
        }
    }
    Some(u)
}

/// Shape matching's K = ω² (M_f − U Uᵀ) folded into the solve: (A − ω² U Uᵀ)⁻¹ =
/// A⁻¹ + W S⁻¹ Wᵀ with W = A⁻¹ U and S = I / ω² − Uᵀ W (Woodbury), r × r for r ≤ 6.
struct Woodbury {
    u: Mat<f64>,
    w: Mat<f64>,
    s_inverse: Mat<f64>,
}

impl Woodbury {
    fn new(operator: &mut Operator, w2: f64, u: Mat<f64>) -> Result<Woodbury, ConvertError> {
        let mut w = u.clone();
        operator.solve(w.as_mut());
        let r = u.ncols();
        let mut s = Mat::<f64>::from_fn(r, r, |i, j| if i == j { 1.0 / w2 } else { 0.0 });
        faer::linalg::matmul::matmul(s.as_mut(), Accum::Add, u.transpose(), &w, -1.0, Par::Seq);
        // S is positive definite where K − σM is (A is): invert it through its eigenvectors.
        let eigen = s
            .self_adjoint_eigen(Side::Lower)
            .map_err(|e| modes_error(format!("shape matching's correction failed: {e:?}")))?;
        let (values, vectors) = (eigen.S(), eigen.U());
        if (0..r).any(|i| values[i].is_nan() || values[i] <= 0.0) {
            return Err(modes_error("shape matching's correction is not positive definite"));
        }
        let s_inverse = Mat::<f64>::from_fn(r, r, |i, j| {
            (0..r).map(|k| vectors[(i, k)] * vectors[(j, k)] / values[k]).sum()
        });
        Ok(Woodbury { u, w, s_inverse })
    }

    /// y ← y + W S⁻¹ Uᵀ y, where y already holds A⁻¹ b.
    fn correct(&self, mut y: MatMut<'_, f64>) {
        let projected = self.u.transpose() * y.as_ref();
        let coefficients = &self.s_inverse * &projected;
        faer::linalg::matmul::matmul(y.as_mut(), Accum::Add, &self.w, &coefficients, 1.0, Par::Seq);
    }
}

/// T = M^½ (K − σ M)⁻¹ M^½ as a factorization and the masses.
pub(super) struct Operator {
    symbolic: SymbolicCholesky<usize>,
    values: Vec<f64>,
    /// Room for the factorization and for solves of a block.
    scratch: MemBuffer,
    woodbury: Option<Woodbury>,
    root_mass: Vec<f64>,
}

impl Operator {
    /// Each column v of `block` ← T v.
    pub fn apply(&mut self, mut block: MatMut<'_, f64>) {
        let scale = |block: &mut MatMut<'_, f64>, root_mass: &[f64]| {
            for c in 0..block.ncols() {
                for (i, &r) in root_mass.iter().enumerate() {
                    block[(i, c)] *= r;
                }
            }
        };
        scale(&mut block, &self.root_mass);
        self.solve(block.as_mut());
        if let Some(w) = &self.woodbury {
            w.correct(block.as_mut());
        }
        scale(&mut block, &self.root_mass);
    }

    /// Each column b of `block` ← A⁻¹ b.
    fn solve(&mut self, block: MatMut<'_, f64>) {
        let llt = LltRef::new(&self.symbolic, &self.values);
        llt.solve_in_place_with_conj(Conj::No, block, Par::Seq, MemStack::new(&mut self.scratch));
    }
}
