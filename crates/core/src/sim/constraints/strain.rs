//! # Strain limiting: a worn cloth's edges never stretch past a bound
//!
//! A worn cloth is struck: a running leg kicks its hem, an arm swings into it, the character
//! stops dead and it swings round. The springs answer in a few sub-steps of one iteration each,
//! so a struck row stretches before its neighbours catch up (a cape's hem, kicked by a running
//! heel, stretched 14% with its edges kept out of the leg). Real cloth barely stretches at all.
//! So after the sub-step's constraints and the limbs' push on the edges, each edge of the
//! triangles longer than (1 + ε) times its rest length is put back to that length (Provot,
//! "Deformation Constraints in a Mass-Spring Model to Describe Rigid Cloth Behavior", Graphics
//! Interface 1995: the inverse dynamic procedure; as a PBD projection with zero compliance):
//!
//! ```text
//! d = x_j − x_i,   C = |d| − (1 + ε) L > 0:
//! x_i ← x_i + w_i / (w_i + w_j) C d/|d|,   x_j ← x_j − w_j / (w_i + w_j) C d/|d|
//! ```
//!
//! - x_i, x_j, w_i, w_j: the edge's nodes' positions (m) and inverse masses (0 for a kinematic
//!   node); L: its rest length (m);
//! - ε = [`STRAIN_LIMIT`]: 5%, under the 10% a cloth may be seen to stretch, with room for the
//!   node collisions that come after it in the sub-step and may stretch an edge again by the
//!   depth they push out (a few millimetres at a sub-step's motion): the Blender-made
//!   figure's scarf, its edges held by friction on the swinging chest, stretched 10.1% at
//!   6% and stays under 10% at 5%.
//!
//! What bounds the stretch: every edge is at most (1 + ε) L when the node collisions begin,
//! and a node collision moves a node by the depth it found, at most the collider's motion in
//! one sub-step; tethers bound each node's distance to the kinematic nodes along the cloth.
//! The limbs' push on the edges and the limit are taken [`PASSES`] times in turn, so that a
//! limb's push spreads to the struck edges' neighbours within the sub-step.
//! Only a worn model is limited (its bending is free, its stretch is what users see); a sheet
//! of another kind stretches as its springs say, as the design asks of every spring model.

use glam::Vec3A;

/// How many times a sub-step pushes the edges out of the limbs and limits the strain, one after
/// the other: the second pass carries the first's corrections on to the struck edges'
/// neighbours. Measured on the Blender-made figure's cape (`tests/worn_figure.rs`), at the
/// run's dead stop, when the legs swing back at about 9 m/s: its hem stretched 13.3% with one
/// pass, under 10% with two (and with three or four).
pub(crate) const PASSES: usize = 2;

/// The strain past which an edge of a worn cloth is put back (a fraction of its rest length).
pub const STRAIN_LIMIT: f32 = 0.05;

/// Puts every edge of `edges` (node pairs, rest lengths `rest`) back within
/// (1 + [`STRAIN_LIMIT`]) of its rest length; the nodes are at `base + u` (the Xpbd solver's
/// displacements), with inverse masses `w` (module doc).
pub(crate) fn limit(edges: &[[u32; 2]], rest: &[f32], base: &[Vec3A], u: &mut [Vec3A], w: &[f32]) {
    for (&[i, j], &l) in edges.iter().zip(rest) {
        let (i, j) = (i as usize, j as usize);
        let (Some(&xi0), Some(&xj0), Some(&wi), Some(&wj)) =
            (base.get(i), base.get(j), w.get(i), w.get(j))
        else {
            continue;
        };
        let total = wi + wj;
        if total == 0.0 {
            continue;
        }
        let d = (xj0 + u[j]) - (xi0 + u[i]);
        let length = d.length();
        let excess = length - (1.0 + STRAIN_LIMIT) * l;
        if excess <= 0.0 {
            continue;
        }
        let n = d * (excess / (length * total));
        u[i] += n * wi;
        u[j] -= n * wj;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edge_stretched_past_the_limit_comes_back_to_it_and_a_kinematic_end_stays() {
        // An edge of rest length 1 stretched to 2 along x: back to 1.05, each end half way.
        let base = [Vec3A::ZERO, Vec3A::new(2.0, 0.0, 0.0)];
        let mut u = [Vec3A::ZERO; 2];
        limit(&[[0, 1]], &[1.0], &base, &mut u, &[1.0, 1.0]);
        let length = (base[1] + u[1]).distance(base[0] + u[0]);
        assert!((length - 1.05).abs() < 1e-6, "{length}");
        assert!((u[0].x + u[1].x).abs() < 1e-6, "{u:?}");
        // The first end kinematic: the second comes all the way.
        let mut u = [Vec3A::ZERO; 2];
        limit(&[[0, 1]], &[1.0], &base, &mut u, &[0.0, 1.0]);
        assert_eq!(u[0], Vec3A::ZERO);
        assert!((u[1].x + 0.95).abs() < 1e-6, "{u:?}");
        // Within the limit: nothing moves.
        let mut u = [Vec3A::new(0.0, 0.0, 0.0), Vec3A::new(-0.95, 0.0, 0.0)];
        limit(&[[0, 1]], &[1.0], &base, &mut u, &[1.0, 1.0]);
        assert_eq!(u, [Vec3A::ZERO, Vec3A::new(-0.95, 0.0, 0.0)]);
    }
}
