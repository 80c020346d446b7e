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
//!   Anchors are held: their coordinates are left out.
//! - Shape matching ([`springmesh_core::model::ShapeMatching`]) pulls each free node towards
//!   g_i = c + R q_i with stiffness m_i ω². Near rest, the goal moves with the best rigid
//!   motion of the displacement u in the mass metric, which is its projection P u onto the
//!   rigid motions Ψ (ΨᵀMΨ = I: P = Ψ Ψᵀ M; the linearized polar decomposition and the
//!   mass-weighted least-squares turn solve the same equation, (tr S · I − S) δθ = Σ m q × u).
//!   So it adds
//!
//!   ```text
//!   K_shape = ω² (M_f − M_f Ψ_f Ψ_fᵀ M_f)
//!   ```
//!
//!   (f: free coordinates; anchored nodes count in Ψ, as they count in c and R): the full
//!   stiffness ω² M off the rigid motions, none along them. It is dense but of rank ≤ 6 below
//!   its diagonal part, so the solve folds it in by the Woodbury identity.
//! - Gas pressure is not in K: a balloon's modes are its membrane's.
//!
//! A model that can move without stretching any spring has λ = 0 there: a free body's six
//! rigid motions, and mechanisms (a string without tension has no sideways stiffness, a flat
//! sheet none out of its plane at rest). Those are not vibrations and are left out: the modes
//! reported are the lowest with λ above [`ZERO_MODE`] of the largest K_ii / M_ii.
//!
//! **Two solvers.** Which is faster depends on how a Cholesky factor of K fills: a surface's
//! little, a solid's 3D lattice much (its separators are planes of nodes, and eliminating
//! them is dense work that grows as the square of the nodes). The orders of `ordering` are
//! analysed on the nodes' graph first, and the factorization's multiply–adds foreseen.
//!
//! - **Factorization and shift-invert Lanczos** (surfaces, small solids, and whatever has
//!   mechanisms). Block Lanczos iteration with full reorthogonalization (`lanczos`) on the
//!   shift-inverted operator
//!
//!   ```text
//!   T = M^½ (K − σ M)⁻¹ M^½,     θ = 1 / (λ − σ)
//!   ```
//!
//!   whose largest θ are the λ nearest σ (Ericsson & Ruhe 1980, the method of ARPACK's and
//!   Abaqus's frequency steps). σ is a little below zero (`SHIFT` of the largest
//!   K_ii / M_ii), so K − σM is positive definite even where K has zero modes, and a sparse
//!   Cholesky factorization (faer's supernodal LLᵀ, chosen for being pure Rust, well kept and
//!   fast on the sparse lattices conversions make; on all cores, in the order that takes
//!   least work) solves with it, once per Lanczos step for a whole block of `BLOCK`
//!   vectors, its two halves on two threads. Zero modes all sit at θ = −1/σ, one cluster the
//!   first blocks take; the λ wanted come next. Ritz values are accepted when their residual
//!   is below `TOLERANCE` of θ, and the iteration stops once the `count` largest θ past the
//!   zero cluster are all accepted (with none larger still unaccepted).
//! - **LOBPCG with a two-level preconditioner** (solids whose factorization would take more
//!   than `DIRECT_WORK`). `lobpcg` improves a block of `count` + `GUARD` vectors (and
//!   a free body's six rigid motions, started exactly) by preconditioned residuals, the
//!   preconditioner a smoothed-aggregation two-level cycle (`multigrid`) whose coarse space
//!   is the rigid motions of patches of nodes; it never factorizes K, only a coarse matrix a
//!   few percent of its size, so its cost grows with the nodes: a 50k-node solid's modes in
//!   3 s where its factorization alone took 14 s. Should it not settle (a sheet's mechanisms
//!   fill its block with zero modes, or `ITERATIONS` steps pass), the factorization answers.
//!
//! Both accept the same modes the same way (`settle`): from the lowest λ up, every pair
//! converged, zero modes (λ below [`ZERO_MODE`] of the scale) skipped, until `count`.

mod lanczos;
mod lobpcg;
mod multigrid;
mod ordering;
mod stiffness;
mod system;
mod vectors;

use crate::AnalysisError;
use lanczos::BlockLanczos;
use springmesh_core::SpringModel;
use system::System;

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

/// Relative residual at which a Ritz value counts as converged: its θ is then off by about
/// the square of it over the gap to the rest of the spectrum, 1e-5 relative and less (a
/// 50k-node surface sphere's six frequencies agree to 3e-7 with those at 1e-4, a 50k-node
/// solid's to 4e-6), far below the four decimals `info` prints and the 1% a tune aims at;
/// 1e-4 took one Lanczos step more for the surface (10 against 9) and two for the solid.
const TOLERANCE: f64 = 3e-3;

/// Vectors per Lanczos block: more than the modes reported by default, so a frequency shared
/// by more modes than are reported still fills the report, and a solve with 8 right-hand
/// sides costs about 1.6 single ones (a 35k-node sphere: 111 ms against 71).
const BLOCK: usize = 8;

/// Most Lanczos vectors of a run: beyond the modes asked for, room for the zero-mode cluster
/// and convergence.
const MAX_VECTORS: usize = 320;

/// Most free nodes whose modes are found: a 50k-node cage is well within it, and a file of
/// more (a million-node surface) is refused with this reason rather than factorized.
pub const MAX_NODES: usize = 200_000;

/// Most bytes of Lanczos vectors kept at once (n coordinates × 8 bytes each): the vectors of
/// a run are cut to fit, so a large model cannot take all memory.
const VECTOR_BYTES: usize = 1 << 30;

/// A factorization foreseen to take more multiply–adds than this (about 2 s on two cores)
/// is not made first: the modes are looked for by LOBPCG ([`lobpcg`], [`multigrid`]). A
/// solid's factorization grows as the square of its nodes (a 50k-node solid: 6e11, 14 s)
/// while LOBPCG grows with them (the same solid: 3 s); a surface's grows slower (a 50k-node
/// sphere: 4e10, 3.7 s in all) and LOBPCG converges slower on it (9 s), and a flat sheet's
/// mechanisms fill LOBPCG's block with zero modes, so below this the factorization is used.
const DIRECT_WORK: f64 = 6e10;

/// LOBPCG steps before the factorization is used instead (a 50k-node solid takes 11, a
/// 50k-node sphere's surface 43).
const ITERATIONS: usize = 60;

/// LOBPCG vectors beyond the modes asked for (and a free body's six rigid motions): the
/// block's last vectors converge slowest, so a few more than are reported.
const GUARD: usize = 4;

/// How many modes `modes_hz` reports at most by default.
pub const DEFAULT_MODES: usize = 6;

/// The lowest `count` vibration frequencies (Hz, ascending) of `model` at its rest positions
/// with its anchors held (module docs); fewer when the model has fewer. `progress` is called
/// with the fraction done (0 to 1) as the work goes on.
pub fn modes_hz(
    model: &SpringModel,
    count: usize,
    progress: impl FnMut(f32),
) -> Result<Vec<f64>, AnalysisError> {
    modes(model, count, progress, DIRECT_WORK)
}

/// [`modes_hz`], with LOBPCG tried first when the factorization would take more than
/// `direct_work` multiply–adds.
fn modes(
    model: &SpringModel,
    count: usize,
    mut progress: impl FnMut(f32),
    direct_work: f64,
) -> Result<Vec<f64>, AnalysisError> {
    let free = model.nodes.len() - model.anchors.len().min(model.nodes.len());
    if free > MAX_NODES {
        return Err(modes_error(format!(
            "{free} free nodes, more than the {MAX_NODES} whose modes are found (the factorization and the Lanczos vectors grow with them)"
        )));
    }
    let system = System::of(model);
    let n = system.mass.len();
    if n == 0 || count == 0 {
        return Ok(Vec::new());
    }
    let scale = system.scale();
    let sigma = -SHIFT * scale;
    let zero = ZERO_MODE * scale;
    let analysis = system.analyse()?;
    progress(0.1);
    let try_lobpcg = analysis.work() > direct_work && system.mass.iter().all(|&m| m > 0.0);
    if try_lobpcg && let Some(hz) = iterative(&system, count, sigma, zero, &mut progress)? {
        return Ok(hz);
    }
    let block = BLOCK.max(count + 2);
    let mut operator = system.shift_invert(analysis, sigma, block)?;
    progress(0.3);
    let capacity = (VECTOR_BYTES / (8 * n)).clamp(2 * block, MAX_VECTORS.max(4 * block));
    let mut lanczos = BlockLanczos::start(n, block, capacity)?;
    let steps = capacity.div_ceil(block).max(1);
    let mut step = 0;
    loop {
        let more = lanczos.step(&mut operator);
        step += 1;
        progress(0.3 + 0.7 * (step as f32 / steps as f32).min(1.0));
        // The largest θ first: the lowest λ. Once nothing is left to apply, every pair is
        // as converged as it will be.
        let ritz = lanczos.ritz()?;
        let pairs = ritz
            .iter()
            .filter(|r| r.theta > 0.0)
            .map(|r| (sigma + 1.0 / r.theta, r.residual <= TOLERANCE * r.theta || !more));
        let (found, settled) = settle(pairs, zero, count);
        if settled || !more {
            progress(1.0);
            return Ok(hertz(found));
        }
    }
}

/// The lowest `count` vibrations by LOBPCG with the two-level preconditioner; `None` when
/// it does not settle within [`ITERATIONS`] steps or its block fills with zero modes (the
/// caller then factorizes).
fn iterative(
    system: &System,
    count: usize,
    sigma: f64,
    zero: f64,
    progress: &mut impl FnMut(f32),
) -> Result<Option<Vec<f64>>, AnalysisError> {
    let w2 = system.shape_stiffness();
    let springs = system.spring_rows(w2);
    // The preconditioner's A = K_springs + (ω² − σ) M: the same rows, −σ M more.
    let mut shifted = springs.clone();
    shifted.add_to_diagonal(&system.mass.iter().map(|m| -sigma * m).collect::<Vec<_>>());
    let preconditioner = multigrid::TwoLevel::new(shifted, &system.positions)?;
    progress(0.2);
    let stiffness = |x: &vectors::Vectors| system.stiffness(&springs, x);
    let precondition = |r: &vectors::Vectors| preconditioner.apply(r);
    let problem =
        lobpcg::Problem { stiffness: &stiffness, precondition: &precondition, mass: &system.mass };
    let rigid = if system.anchored { 0 } else { 6 };
    let width = count + rigid + GUARD;
    let mut found = Vec::new();
    let known = system.rigid_motions();
    let pairs =
        lobpcg::lowest(&problem, known.as_ref(), width, ITERATIONS, zero, |pairs, converged| {
            let (lowest, settled) =
                settle(pairs.iter().zip(converged).map(|(p, &c)| (p.lambda, c)), zero, count);
            progress(0.2 + 0.8 * lowest.len() as f32 / count as f32);
            found = lowest;
            settled || converged.iter().all(|&c| c)
        });
    Ok(pairs.filter(|_| found.len() == count).map(|_| hertz(std::mem::take(&mut found))))
}

/// Of Ritz pairs (λ and whether it has converged) from the lowest λ up: the vibrations
/// (λ above `zero`) up to the first pair not converged, at most `count`, and whether all
/// `count` were found (an unconverged pair before them means a lower λ may be on its way).
fn settle(pairs: impl Iterator<Item = (f64, bool)>, zero: f64, count: usize) -> (Vec<f64>, bool) {
    let mut found = Vec::new();
    for (lambda, converged) in pairs {
        if !converged {
            return (found, false);
        }
        if lambda > zero {
            found.push(lambda);
            if found.len() == count {
                return (found, true);
            }
        }
    }
    (found, false)
}

/// Frequencies (Hz, ascending) of eigenvalues λ (1/s²).
fn hertz(mut lambda: Vec<f64>) -> Vec<f64> {
    lambda.sort_by(f64::total_cmp);
    lambda.into_iter().map(|l| l.sqrt() / std::f64::consts::TAU).collect()
}

/// A [`AnalysisError::Modes`] with `reason`.
fn modes_error(reason: impl Into<String>) -> AnalysisError {
    AnalysisError::Modes { reason: reason.into() }
}

#[cfg(test)]
pub(super) mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // Test code.
    use super::*;
    use glam::Vec3;
    use springmesh_convert::solid::SolidOptions;
    use springmesh_convert::{ConvertOptions, MassMode, convert_mesh};
    use springmesh_core::model::ShapeMatching;
    use springmesh_core::{Node, NodeId, Spring, SpringKind};
    use std::path::Path;

    /// A ball 1 m across filled as a lattice (`--solid`, 0.15 m spacing: a few hundred
    /// nodes), as converted: free, with shape matching.
    pub(in crate::modes) fn ball() -> SpringModel {
        let solid =
            SolidOptions { spacing: Some(0.15), max_nodes: Some(5000), ..Default::default() };
        let options = ConvertOptions {
            solid: Some(solid),
            bend: false,
            mass: MassMode::Density { density: 1000.0 },
            ..ConvertOptions::default()
        };
        let mesh = springmesh_convert::shapes::sphere(Vec3::ZERO, 0.5, 12, 16);
        convert_mesh(mesh, &options, Path::new("ball.obj")).unwrap().model.into_inner()
    }

    /// The modes by the factorization alone.
    fn factorized(model: &SpringModel) -> Vec<f64> {
        modes(model, DEFAULT_MODES, |_| {}, f64::INFINITY).unwrap()
    }

    /// The modes by LOBPCG alone; `None` where it leaves them to the factorization.
    fn by_lobpcg(model: &SpringModel) -> Option<Vec<f64>> {
        let system = System::of(model);
        let scale = system.scale();
        iterative(&system, DEFAULT_MODES, -SHIFT * scale, ZERO_MODE * scale, &mut |_| {}).unwrap()
    }

    #[test]
    fn lobpcg_finds_the_frequencies_the_factorization_finds() {
        // Free with shape matching (its six rigid motions the lowest, known in advance), then
        // held at its bottom without it.
        let free = ball();
        assert!(free.nodes.len() > 300 && free.params.shape_matching.is_some());
        let mut held = ball();
        held.params.shape_matching = None;
        let bottom = held.nodes.positions().iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        let positions = held.nodes.positions();
        let low = (0..positions.len()).filter(|&i| positions[i].y < bottom + 0.1);
        held.anchors = low.map(|i| NodeId(i as u32)).collect();
        assert!(!held.anchors.is_empty());
        for model in [free, held] {
            let (expected, found) = (factorized(&model), by_lobpcg(&model).unwrap());
            assert_eq!(found.len(), DEFAULT_MODES, "{found:?}");
            for (f, e) in found.iter().zip(&expected) {
                assert!((f - e).abs() < 1e-5 * e, "{found:?} against {expected:?}");
            }
        }
    }

    #[test]
    fn a_sheets_mechanisms_leave_the_modes_to_the_factorization() {
        // A flat sheet at rest does not resist bending out of its plane: its 144 nodes'
        // sideways motions are all zero modes, more than LOBPCG's block holds, so it gives
        // up and the factorization answers even when LOBPCG is tried first.
        let mesh = springmesh_convert::samples::grid_mesh(
            12,
            12,
            Vec3::ZERO,
            Vec3::X * 0.1,
            Vec3::Z * 0.1,
        );
        let sheet = convert_mesh(mesh, &ConvertOptions::default(), Path::new("sheet.obj")).unwrap();
        assert!(by_lobpcg(&sheet.model).is_none());
        let first = modes(&sheet.model, DEFAULT_MODES, |_| {}, 0.0).unwrap();
        assert_eq!(first, factorized(&sheet.model));
        assert_eq!(first.len(), DEFAULT_MODES);
    }

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
    fn shape_matching_stiffens_every_motion_but_the_rigid_ones() {
        // Two free 1 kg nodes 1 m apart pulled to their goals at 2 Hz: of their six motions,
        // three translations and two turns are rigid (the turn about their line moves
        // nothing), and the stretch along the line swings at the pull's own ω² = (2π 2)².
        let mut pair = chain(100.0, 1.0);
        pair.nodes.remove(NodeId(2));
        pair.springs = Default::default();
        pair.anchors.clear();
        pair.params.shape_matching = Some(ShapeMatching { frequency: 2.0 });
        // (To 1e-5: the rigid motions' θ = 1/|σ| is 1e10 times this mode's, so round-off in
        // T leaves it 1e-16 × 1e10 relative; a model's own modes lie far below its largest
        // K_ii / M_ii and keep all their digits.)
        let hz = modes_hz(&pair, DEFAULT_MODES, |_| {}).unwrap();
        assert_eq!(hz.len(), 1, "{hz:?}");
        assert!((hz[0] - 2.0).abs() < 1e-5, "{hz:?}");
        // A spring k between them adds 2k/m along the line: λ = ω² + 2k/m.
        pair.springs.push(Spring::new(NodeId(0), NodeId(1), 1.0, 100.0, SpringKind::Stretch));
        let hz = modes_hz(&pair, DEFAULT_MODES, |_| {}).unwrap();
        let expected =
            ((4.0 * std::f64::consts::PI).powi(2) + 200.0).sqrt() / std::f64::consts::TAU;
        assert!(hz.len() == 1 && (hz[0] - expected).abs() < 1e-5 * expected, "{hz:?}");
        // One node anchored: the goal moves half the free node's stretch (c moves half of
        // it), so the pull is ω²/2 along the line; sideways the goal turns with the node.
        pair.springs = Default::default();
        pair.anchors = vec![NodeId(0)];
        let hz = modes_hz(&pair, DEFAULT_MODES, |_| {}).unwrap();
        assert!(hz.len() == 1 && (hz[0] - 2.0 / 2f64.sqrt()).abs() < 1e-5, "{hz:?}");
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
