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
//! **The solver.** Block Lanczos iteration with full reorthogonalization ([`lanczos`]) on the
//! shift-inverted operator
//!
//! ```text
//! T = M^½ (K − σ M)⁻¹ M^½,     θ = 1 / (λ − σ)
//! ```
//!
//! whose largest θ are the λ nearest σ (Ericsson & Ruhe 1980, the method of ARPACK's and
//! Abaqus's frequency steps). σ is a little below zero ([`SHIFT`] of the largest K_ii / M_ii),
//! so K − σM is positive definite even where K has zero modes, and a sparse Cholesky
//! factorization (faer's supernodal LLᵀ, chosen for being pure Rust, well kept and fast on
//! the sparse lattices conversions make; on all cores, in the order of [`ordering`]) solves
//! with it, once per Lanczos step for a whole block of [`BLOCK`] vectors, its two halves on
//! two threads. Zero modes all sit at θ = −1/σ, one cluster the first blocks take; the λ
//! wanted come next. Ritz values are accepted when their residual is below
//! [`TOLERANCE`] of θ, and the iteration stops once the `count` largest θ past the zero
//! cluster are all accepted (with none larger still unaccepted).

mod lanczos;
mod ordering;
mod stiffness;
mod system;

use crate::ConvertError;
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
    let block = BLOCK.max(count + 2);
    let mut operator = system.shift_invert(sigma, block)?;
    progress(0.3);
    let capacity = (VECTOR_BYTES / (8 * n)).clamp(2 * block, MAX_VECTORS.max(4 * block));
    let mut lanczos = BlockLanczos::start(n, block, capacity)?;
    let lambda = |theta: f64| sigma + 1.0 / theta;
    let zero = ZERO_MODE * scale;
    let steps = capacity.div_ceil(block).max(1);
    let mut step = 0;
    loop {
        let more = lanczos.step(&mut operator);
        step += 1;
        progress(0.3 + 0.7 * (step as f32 / steps as f32).min(1.0));
        let ritz = lanczos.ritz()?;
        // The largest θ in turn: zero modes skipped, done at `count` accepted vibrations;
        // an unaccepted one before them means a lower λ may still be on its way.
        let mut found = Vec::new();
        let mut settled = true;
        for r in ritz.iter().filter(|r| r.theta > 0.0) {
            if r.residual > TOLERANCE * r.theta && more {
                settled = false;
                break;
            }
            let l = lambda(r.theta);
            if l > zero {
                found.push(l);
                if found.len() == count {
                    break;
                }
            }
        }
        if (settled && found.len() == count) || !more {
            progress(1.0);
            found.sort_by(f64::total_cmp);
            return Ok(found.into_iter().map(|l| l.sqrt() / std::f64::consts::TAU).collect());
        }
    }
}

/// A [`ConvertError::Modes`] with `reason`.
fn modes_error(reason: impl Into<String>) -> ConvertError {
    ConvertError::Modes { reason: reason.into() }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // Test code.
    use super::*;
    use glam::Vec3;
    use springmesh_core::model::ShapeMatching;
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
