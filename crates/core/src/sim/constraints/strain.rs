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
//! **At the sub-step's end, once more.** The node collisions and the tethers come after that
//! limit and move nodes again: a limb swinging at 9 m/s pushes a node by up to its travel in
//! a sub-step, 2 cm, and an edge of the cape's hem is a few centimetres long (the Blender-made
//! walker's cape stretched 7.5–11.5% at the run's dead stop, depending on the game's step,
//! 1/96 to 1/24 s). So after them the edges are limited again, in up to [`SETTLE_PASSES`]
//! passes (fewer when one finds nothing to do). A limb's push can also press one layer of the
//! cloth into another, which the sub-step's self-collision, before it, did not see: the
//! Blender-made runner's shins flick its long cape's hem up into the rows above, and the hem
//! crossed them (9 pairs of triangles at 1/24 s, 17 at 1/72 s). So the layers are pushed
//! apart once more ([`crate::sim::contacts::self_collision`], without friction: the
//! sub-step's own pass had it). The limit and that push draw some nodes past their max
//! distances (the cape's by up to 8 mm), so the max distances are projected once more, the
//! limbs first as before them ([`crate::sim::constraints::rig`]), and the edges limited
//! again. All of it in every sub-step, whether or not the first limit found an edge to put
//! back: skipped when it found none, the runner's cape still crossed itself at 1/24 s (2
//! pairs). Each node's correction Δx becomes velocity, Δx/h, as any Xpbd constraint's does
//! when it is solved before the velocity is derived ([`crate::sim::integrators::xpbd`]): the
//! sub-step ends as if these had come last, and the next prediction carries them on. They
//! cost the walker's cape 2% more instructions a frame, the dancer's skirt 6%.
//!
//! What bounds the stretch: at the end of every sub-step, so at every sample a game draws,
//! every edge is within (1 + ε) L up to what [`SETTLE_PASSES`] Gauss–Seidel passes leave of a
//! chain of corrections; tethers bound each node's distance to the kinematic nodes along the
//! cloth. Measured on the Blender-made figures' garments and clips (`tests/worn_figure.rs`),
//! in steps of 1/24 to 1/120 s with 6 sub-steps a 60 Hz frame: at most 7.8% (the dancer's
//! high kick aside, 8.4%: see the order below), each node within 0.5 mm of its max distance on
//! the walk and the leap (the walker's cape: 6.0, 6.9, 6.4, 5.6 and 5.7% at 1/24, 1/48, 1/72,
//! 1/96 and 1/120 s) and within 7.5 mm on the runner's long cape.
//!
//! The order this makes: in a sub-step the stretch has the last word, then the max distances,
//! then the limbs. A limb that presses an edge's end further than the edge's neighbours follow
//! loses a little of its push to the limit, which the next sub-step's collision gives back
//! (the figures' cloth stays within 4 mm of the body's skin). Where the three cannot all hold
//! (the dancer's high kick, whose thigh rises above the skirt's kinematic waistband), the
//! stretch holds and the cloth goes into the limb.
//!
//! Only a worn model is limited (its bending is free, its stretch is what users see); a sheet
//! of another kind stretches as its springs say, as the design asks of every spring model.

use glam::Vec3A;

/// How many passes over the edges each limit at a sub-step's end takes at most (module doc).
/// Measured on the Blender-made walker's cape at the run's dead stop, with steps of 1/24 to
/// 1/96 s and the limit once at the end (no max distances after it): one pass left its hem
/// stretched up to 10.7%, two up to 8.6%, four up to 6.8%. With the sub-step's end as it is
/// now (two limits), two passes each saved 3–4% of the walker's cape's and the dancer's
/// skirt's instructions a frame, but the runner's long cape stretched 12.5% and went 23 mm
/// into a leg at 1/24 s, and crossed itself at 1/48 s (14 pairs of triangles); its scarf
/// stretched 15.7%.
pub(crate) const SETTLE_PASSES: usize = 4;

/// The strain past which an edge of a worn cloth is put back (a fraction of its rest length).
pub const STRAIN_LIMIT: f32 = 0.05;

/// Puts every edge of `edges` (node pairs, rest lengths `rest`) back within
/// (1 + [`STRAIN_LIMIT`]) of its rest length; the nodes are at `base + u` (the Xpbd solver's
/// displacements), with inverse masses `w` (module doc). Passes over the edges at most
/// `passes` times, until one moves nothing; returns whether any moved a node. `places` is
/// scratch: the nodes' places `base + u`, kept as u moves, so that checking an edge (what a
/// pass mostly does) reads two nodes, not four.
pub(crate) fn limit(
    (edges, rest): (&[[u32; 2]], &[f32]),
    (base, u): (&[Vec3A], &mut [Vec3A]),
    w: &[f32],
    passes: usize,
    places: &mut Vec<Vec3A>,
) -> bool {
    places.clear();
    places.extend(base.iter().zip(&*u).map(|(&x0, &u)| x0 + u));
    let mut pass = |u: &mut [Vec3A]| {
        let mut moved = false;
        for (&[i, j], &l) in edges.iter().zip(rest) {
            let (i, j) = (i as usize, j as usize);
            let (Some(&xi), Some(&xj)) = (places.get(i), places.get(j)) else {
                continue;
            };
            // Most edges are within the limit: told so without a square root.
            let d = xj - xi;
            let (length2, longest) = (d.length_squared(), (1.0 + STRAIN_LIMIT) * l);
            if length2 <= longest * longest {
                continue;
            }
            let (Some(&wi), Some(&wj)) = (w.get(i), w.get(j)) else {
                continue;
            };
            let total = wi + wj;
            if total == 0.0 {
                continue;
            }
            let length = length2.sqrt();
            let n = d * ((length - longest) / (length * total));
            // The places hold base + u as it is, to the bit.
            u[i] += n * wi;
            u[j] -= n * wj;
            places[i] = base[i] + u[i];
            places[j] = base[j] + u[j];
            moved = true;
        }
        moved
    };
    let mut moved = false;
    for _ in 0..passes {
        if !pass(u) {
            break;
        }
        moved = true;
    }
    moved
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edge_stretched_past_the_limit_comes_back_to_it_and_a_kinematic_end_stays() {
        // An edge of rest length 1 stretched to 2 along x: back to 1.05, each end half way.
        let base = [Vec3A::ZERO, Vec3A::new(2.0, 0.0, 0.0)];
        let mut u = [Vec3A::ZERO; 2];
        limit((&[[0, 1]], &[1.0]), (&base, &mut u), &[1.0, 1.0], 1, &mut Vec::new());
        let length = (base[1] + u[1]).distance(base[0] + u[0]);
        assert!((length - 1.05).abs() < 1e-6, "{length}");
        assert!((u[0].x + u[1].x).abs() < 1e-6, "{u:?}");
        // The first end kinematic: the second comes all the way.
        let mut u = [Vec3A::ZERO; 2];
        limit((&[[0, 1]], &[1.0]), (&base, &mut u), &[0.0, 1.0], 1, &mut Vec::new());
        assert_eq!(u[0], Vec3A::ZERO);
        assert!((u[1].x + 0.95).abs() < 1e-6, "{u:?}");
        // Within the limit: nothing moves.
        let mut u = [Vec3A::new(0.0, 0.0, 0.0), Vec3A::new(-0.95, 0.0, 0.0)];
        limit((&[[0, 1]], &[1.0]), (&base, &mut u), &[1.0, 1.0], 1, &mut Vec::new());
        assert_eq!(u, [Vec3A::ZERO, Vec3A::new(-0.95, 0.0, 0.0)]);
    }

    #[test]
    fn passes_over_a_chain_carry_a_correction_on_until_every_edge_is_within_the_limit() {
        // Four nodes on x at 0, 1, 3, 4, edges of rest 1 in order (0 1), (1 2), (2 3): one
        // pass puts (1 2) back to 1.05 by moving 1 to 1.475, which stretches (0 1) behind it
        // to 1.475 (its turn came first), so (0 1) is over the limit after one pass, and
        // within it after enough.
        let edges: [[u32; 2]; 3] = [[0, 1], [1, 2], [2, 3]];
        let base = [0.0, 1.0, 3.0, 4.0].map(|x| Vec3A::new(x, 0.0, 0.0));
        let worst = |u: &[Vec3A; 4]| {
            let at = |k: usize| base[k] + u[k];
            let length = |&[i, j]: &[u32; 2]| at(j as usize).distance(at(i as usize));
            edges.iter().map(length).fold(0.0, f32::max)
        };
        let mut u = [Vec3A::ZERO; 4];
        assert!(limit((&edges, &[1.0; 3]), (&base, &mut u), &[1.0; 4], 1, &mut Vec::new()));
        assert!((worst(&u) - 1.475).abs() < 1e-5, "{}", worst(&u));
        let mut u = [Vec3A::ZERO; 4];
        assert!(limit((&edges, &[1.0; 3]), (&base, &mut u), &[1.0; 4], 64, &mut Vec::new()));
        assert!(worst(&u) < 1.05 + 1e-4, "{}", worst(&u));
        // The whole chain, 3.15 long at most, still has its middle where it was.
        let middle = u.iter().map(|d| d.x).sum::<f32>();
        assert!(middle.abs() < 1e-4, "{u:?}");
    }
}
