//! The model's K and M over its free coordinates, and the shift-inverted operator built on
//! them (the parent module's docs give the equations).

use super::modes_error;
use super::ordering::{NodeGraph, minimum_degree, nested_dissection};
use super::stiffness::{NodeBlocks, Stiffness, spring_blocks};
use super::vectors::{BlockRows, Vectors};
use crate::AnalysisError;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt::factor::LltRegularization;
use faer::linalg::matmul::matmul;
use faer::perm::PermRef;
use faer::sparse::linalg::cholesky::{
    CholeskySymbolicParams, LltRef, SymbolicCholesky, SymbolicCholeskyRaw, SymmetricOrdering,
    factorize_symbolic_cholesky,
};
use faer::sparse::{SparseColMat, SparseColMatRef, SymbolicSparseColMat, SymbolicSparseColMatRef};
use faer::{Accum, Conj, Mat, MatMut, Par, Side};
use glam::DVec3;
use rayon::prelude::*;
use springmesh_core::SpringModel;

/// The model's stiffness and masses over its free coordinates.
pub(super) struct System {
    /// Each free coordinate's mass (kg).
    pub mass: Vec<f64>,
    /// The springs' K, its node blocks on and below the diagonal.
    springs: NodeBlocks,
    /// The free nodes' rest positions.
    pub positions: Vec<DVec3>,
    /// Whether any node is anchored (else the body moves freely: six rigid motions).
    pub anchored: bool,
    /// Shape matching's ω² (1/s²) and U = M_f Ψ_f, one column per rigid motion (n × r).
    shape: Option<(f64, Mat<f64>)>,
    /// U of a free body (no anchors) without shape matching (with it, `shape` holds U).
    rigid: Option<Mat<f64>>,
    /// The free nodes' graph and elimination orders of it to choose from
    /// ([`super::ordering`]).
    graph: NodeGraph,
    orders: Vec<Vec<usize>>,
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
        let springs = spring_blocks(model, &free_index, mass.len() / 3);
        let free_positions: Vec<DVec3> = (model.nodes.positions().iter().zip(&free))
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
        let free_nodes = free_positions.len();
        let graph = NodeGraph::of(free_nodes, &edges);
        let (dissected, minimum_degree) = rayon::join(
            || nested_dissection(&free_positions, &edges),
            || minimum_degree(free_nodes, &graph),
        );
        let orders = [Some(dissected), minimum_degree].into_iter().flatten().collect();
        let anchored = free_nodes < nodes;
        let shaped =
            model.params.shape_matching.map(|s| std::f64::consts::TAU * f64::from(s.frequency));
        let shaped = shaped.filter(|omega| omega.is_finite() && *omega > 0.0);
        let basis = (shaped.is_some() || !anchored)
            .then(|| rigid_basis(model, &free_index, mass.len()))
            .flatten();
        // One U: shape matching's when it has one, else a free body's own.
        let (shape, rigid) = match (shaped, basis) {
            (Some(omega), Some(u)) => (Some((omega * omega, u)), None),
            (_, u) => (None, u.filter(|_| !anchored)),
        };
        System { mass, springs, positions: free_positions, anchored, shape, rigid, graph, orders }
    }

    /// The largest K_ii / M_ii (1/s²): the scale of the model's λ.
    pub fn scale(&self) -> f64 {
        let ratios =
            self.mass.iter().enumerate().map(|(k, m)| {
                self.springs.column(k / 3)[0].1[k % 3][k % 3] / m.max(f64::MIN_POSITIVE)
            });
        let largest = ratios.fold(0.0, f64::max);
        let largest = largest + self.shape.as_ref().map_or(0.0, |(w2, _)| *w2);
        if largest > 0.0 { largest } else { 1.0 }
    }

    /// The elimination order, of those found, whose factorization takes least work, found
    /// on the nodes' graph (a ninth of the coordinates' entries: every spring couples its
    /// nodes' three coordinates alike, and their columns share one pattern).
    pub fn analyse(&self) -> Result<Analysis, AnalysisError> {
        let n = self.positions.len();
        let graph = SymbolicSparseColMatRef::new_checked(
            n,
            n,
            &self.graph.col_ptr,
            None,
            &self.graph.row_idx,
        );
        let sizes: Vec<f64> = self
            .orders
            .par_iter()
            .map(|order| {
                let inverse = inverse_order(order);
                let ordering = SymmetricOrdering::Custom(PermRef::new_checked(order, &inverse, n));
                let params = CholeskySymbolicParams::default();
                factorize_symbolic_cholesky(graph, Side::Lower, ordering, params)
                    .map(|symbolic| factor_work(&symbolic))
                    .map_err(|e| factor_error(&e))
            })
            .collect::<Result<_, _>>()?;
        let (best, &node_work) = sizes
            .iter()
            .enumerate()
            .min_by(|(_, a), (_, b)| a.total_cmp(b))
            .ok_or_else(|| modes_error("no elimination order"))?;
        Ok(Analysis { order: self.orders[best].clone(), node_work })
    }

    /// T = M^½ (K − σ M)⁻¹ M^½, factorized once in the order `analysis` chose, for blocks
    /// of up to `block` vectors.
    pub fn shift_invert(
        self,
        analysis: Analysis,
        sigma: f64,
        block: usize,
    ) -> Result<Operator, AnalysisError> {
        let n = self.mass.len();
        // A = K_springs + (ω² − σ) M: K less shape matching's low-rank part.
        let diagonal_shift = self.shape_stiffness() - sigma;
        let mut springs = Stiffness::of(&self.springs);
        springs.add_to_diagonal(self.mass.iter().map(|m| diagonal_shift * m));
        let Stiffness { col_ptr, row_idx, values } = springs;
        // Valid by construction (rows ascending in each column, all below n).
        let a = SparseColMat::new(
            SymbolicSparseColMat::new_checked(n, n, col_ptr, None, row_idx),
            values,
        );
        // Each free node's three coordinates in its place of the order.
        let forward: Vec<usize> = analysis
            .order
            .iter()
            .flat_map(|&node| [3 * node, 3 * node + 1, 3 * node + 2])
            .collect();
        let inverse = inverse_order(&forward);
        let ordering = SymmetricOrdering::Custom(PermRef::new_checked(&forward, &inverse, n));
        let params = CholeskySymbolicParams::default();
        let symbolic = factorize_symbolic_cholesky(a.symbolic(), Side::Lower, ordering, params)
            .map_err(|e| factor_error(&e))?;
        let values = factorize(&symbolic, a.as_ref())?;
        // Room to solve for half a block (or shape matching's up to six columns) per thread.
        let half = symbolic.solve_in_place_scratch::<f64>(block.div_ceil(2).max(6), Par::Seq);
        let room = || MemBuffer::try_new(half).map_err(|e| factor_error(&e));
        let mut operator = Operator {
            symbolic,
            values,
            halves: [room()?, room()?],
            woodbury: None,
            root_mass: self.mass.iter().map(|m| m.sqrt()).collect(),
        };
        if let Some((w2, u)) = self.shape {
            operator.woodbury = Some(Woodbury::new(&mut operator, w2, u)?);
        }
        Ok(operator)
    }

    /// The springs' K as whole rows of node blocks, `shift` times each mass added on its
    /// diagonal.
    pub fn spring_rows(&self, shift: f64) -> BlockRows {
        let mut rows = BlockRows::of(&self.springs);
        if shift != 0.0 {
            let diagonal: Vec<f64> = self.mass.iter().map(|m| shift * m).collect();
            rows.add_to_diagonal(&diagonal);
        }
        rows
    }

    /// A free body's rigid motions Ψ (M-orthonormal), as many vectors; `None` when anchored.
    pub fn rigid_motions(&self) -> Option<Vectors> {
        let shared = self.shape.as_ref().map(|(_, u)| u).filter(|_| !self.anchored);
        let u = self.rigid.as_ref().or(shared)?;
        Some(Vectors::from_fn(u.ncols(), u.nrows(), |j, i| u[(i, j)] / self.mass[i]))
    }

    /// Shape matching's ω² (0 without it).
    pub fn shape_stiffness(&self) -> f64 {
        self.shape.as_ref().map_or(0.0, |(w2, _)| *w2)
    }

    /// K x for every vector of `x`, given `springs` = [`Self::spring_rows`] with shift ω²:
    /// the springs, and shape matching's ω² (M − U Uᵀ).
    pub fn stiffness(&self, springs: &BlockRows, x: &Vectors) -> Vectors {
        let mut y = springs.apply(x);
        if let Some((w2, u)) = &self.shape {
            let along = x.rows() * u;
            matmul(y.rows_mut(), Accum::Add, &along, u.transpose(), -w2, Par::rayon(0));
        }
        y
    }
}

/// The elimination order chosen and the size of its factor.
pub(super) struct Analysis {
    order: Vec<usize>,
    /// The factorization's work on the nodes' graph ([`factor_work`]).
    node_work: f64,
}

impl Analysis {
    /// The factorization's multiply–adds on the coordinates: each node's column is three
    /// columns of three times its entries, and a column of c entries takes c² / 2.
    pub fn work(&self) -> f64 {
        13.5 * self.node_work
    }
}

/// Σ c² over the factor's columns of c entries each (diagonal included): twice its
/// multiply–adds.
fn factor_work(symbolic: &SymbolicCholesky<usize>) -> f64 {
    let square = |c: usize| (c as f64) * (c as f64);
    match symbolic.raw() {
        SymbolicCholeskyRaw::Simplicial(s) => {
            s.col_ptr().windows(2).map(|w| square(w[1] - w[0])).sum()
        }
        SymbolicCholeskyRaw::Supernodal(s) => {
            let (begin, end, rows) =
                (s.supernode_begin(), s.supernode_end(), s.col_ptr_for_row_idx());
            (0..s.n_supernodes())
                .map(|k| {
                    let (width, below) = (end[k] - begin[k], rows[k + 1] - rows[k]);
                    (0..width).map(|i| square(width - i + below)).sum::<f64>()
                })
                .sum()
        }
    }
}

/// `inverse[order[k]] = k`.
fn inverse_order(order: &[usize]) -> Vec<usize> {
    let mut inverse = vec![0; order.len()];
    for (k, &i) in order.iter().enumerate() {
        inverse[i] = k;
    }
    inverse
}

fn factor_error(e: &dyn std::fmt::Debug) -> AnalysisError {
    modes_error(format!("the stiffness matrix cannot be factorized: {e:?}"))
}

/// The numeric Cholesky factor of `a` (lower triangle) as `symbolic` lays it out, on all
/// cores.
pub(super) fn factorize(
    symbolic: &SymbolicCholesky<usize>,
    a: SparseColMatRef<'_, usize, f64>,
) -> Result<Vec<f64>, AnalysisError> {
    let par = Par::rayon(0);
    let mut values = Vec::new();
    values.try_reserve_exact(symbolic.len_val()).map_err(|e| factor_error(&e))?;
    values.resize(symbolic.len_val(), 0.0);
    let scratch = symbolic.factorize_numeric_llt_scratch::<f64>(par, Default::default());
    let mut scratch = MemBuffer::try_new(scratch).map_err(|e| factor_error(&e))?;
    symbolic
        .factorize_numeric_llt(
            &mut values,
            a,
            Side::Lower,
            LltRegularization::default(),
            par,
            MemStack::new(&mut scratch),
            Default::default(),
        )
        .map_err(|e| factor_error(&e))?;
    Ok(values)
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
        positions.iter().zip(&masses).map(|(p, m)| p.as_dvec3() * *m).sum::<DVec3>() / total;
    // The six motions over every node's coordinates.
    let motions: Vec<Vec<f64>> = (0..6)
        .map(|k| {
            positions
                .iter()
                .flat_map(|p| {
                    let axis = DVec3::AXES[k % 3];
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
    fn new(operator: &mut Operator, w2: f64, u: Mat<f64>) -> Result<Woodbury, AnalysisError> {
        let mut w = u.clone();
        operator.solve(w.as_mut());
        let r = u.ncols();
        let mut s = Mat::<f64>::from_fn(r, r, |i, j| if i == j { 1.0 / w2 } else { 0.0 });
        matmul(s.as_mut(), Accum::Add, u.transpose(), &w, -1.0, Par::Seq);
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
        matmul(y.as_mut(), Accum::Add, &self.w, &coefficients, 1.0, Par::Seq);
    }
}

/// T = M^½ (K − σ M)⁻¹ M^½ as a factorization and the masses.
pub(super) struct Operator {
    symbolic: SymbolicCholesky<usize>,
    values: Vec<f64>,
    /// Room for solving half a block on each of two threads.
    halves: [MemBuffer; 2],
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

    /// Each column b of `block` ← A⁻¹ b, the block's two halves on two threads: a solve
    /// reads the whole factor for every column alike (faer's own parallel solve was slower
    /// than one thread on a 50k-node surface's, 0.40 s against 0.30 s for 8 columns; two
    /// halves side by side take 0.15 s).
    fn solve(&mut self, block: MatMut<'_, f64>) {
        let llt = LltRef::new(&self.symbolic, &self.values);
        let middle = block.ncols().div_ceil(2);
        let (left, right) = block.split_at_col_mut(middle);
        let [first, second] = &mut self.halves;
        let solve = |half: MatMut<'_, f64>, room: &mut MemBuffer| {
            llt.solve_in_place_with_conj(Conj::No, half, Par::Seq, MemStack::new(room));
        };
        rayon::join(|| solve(left, first), || solve(right, second));
    }
}
