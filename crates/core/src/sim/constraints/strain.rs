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
//! (the dancer's high kick with the skirt's hem painted 0.3 m: the kick lifts its front rows
//! 0.45 m), the stretch holds and the cloth goes into the limb. With the max distances once
//! more after the last limit, so that they had the last word, the runner's scarf stretched 49%
//! and its cape 10.5% at 1/48 s.
//!
//! **Which edges a pass looks at.** A pass over every edge mostly finds each within the limit,
//! and an edge found within it stays so until one of its nodes moves. So the [`Limiter`] keeps,
//! between its calls in a step, the nodes' places and one bit per edge that may be over the
//! limit: a call looks at the edges left marked by the last one and at those around each node
//! whose place changed since (compared to the bit), and a pass, after putting an edge back,
//! marks the edges at its two nodes: for this pass when they come after it in the list, for
//! the next when they came before (or are itself, which rounding may leave a hair over). Any
//! other edge would be found within the limit, so the passes move the nodes as passes over
//! every edge in order do, to the bit. The first limit of a sub-step, after its prediction and
//! springs moved every node, looks at every edge. Of the edges a frame's passes went over, the
//! walker's cape now looks at 7.6 thousand instead of 27.2, the dancer's skirt at 11.7 instead
//! of 28.9 (200 frames of their clips): the cape's frame 4% faster (its instructions 7%
//! fewer); the skirt's, whose limbs move more of its nodes between two calls, no faster.
//!
//! Only a worn model is limited (its bending is free, its stretch is what users see); a sheet
//! of another kind stretches as its springs say, as the design asks of every spring model.

use crate::sim::data::Incidence;
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

/// A worn cloth's strain limit, with what it keeps from one call to the next within a step:
/// the nodes' places and which edges may be over the limit (module doc, "Which edges a pass
/// looks at").
#[derive(Clone, Debug, Default)]
pub(crate) struct Limiter {
    /// The nodes' places `base + u` as the last call left them, kept to the bit as u moves:
    /// checking an edge (what a pass mostly does) reads two nodes, not four.
    places: Vec<Vec3A>,
    /// Whether every edge but those marked for the next pass was within the limit at those
    /// places.
    known: bool,
    /// One bit per edge, twice: the edges this pass looks at (the first half), and those the
    /// next one will (the second).
    marks: Vec<u64>,
    /// Scratch: the nodes that moved since the last call.
    moved: Vec<u32>,
}

/// The edges a limit applies to: node pairs, their rest lengths and each node's edges.
pub(crate) type Edges<'a> = (&'a [[u32; 2]], &'a [f32], &'a Incidence);

impl Limiter {
    /// Forgets where the nodes were: the next call looks at every edge (call it when every
    /// node may have moved since the last, or the edges or masses changed).
    pub fn forget(&mut self) {
        self.known = false;
    }

    /// Puts every edge of `edges` back within (1 + [`STRAIN_LIMIT`]) of its rest length; the
    /// nodes are at `base + u` (the Xpbd solver's displacements), with inverse masses `w`
    /// (module doc). Passes over the edges at most `passes` times, until one moves nothing;
    /// returns whether any moved a node. Each pass moves the nodes as a pass over every edge
    /// in order would, to the bit, but looks only at the edges that can be over the limit.
    pub fn limit(
        &mut self,
        (edges, rest, around): Edges,
        (base, u): (&[Vec3A], &mut [Vec3A]),
        w: &[f32],
        passes: usize,
    ) -> bool {
        let (words, fits) = (edges.len().div_ceil(64), around.fits(edges.len(), base.len()));
        if self.known && fits && self.places.len() == base.len() && self.marks.len() == 2 * words {
            // The edges left over the limit, and those at every node that moved since (the
            // nodes listed first without a branch on each: many move, in no pattern).
            let (moved, mut count) = (&mut self.moved, 0);
            moved.resize(base.len(), 0);
            let nodes = self.places.iter_mut().zip(base.iter().zip(&*u)).zip(0u32..);
            for ((place, (&x0, &u)), k) in nodes {
                let now = x0 + u;
                let changed = now.cmpne(*place).any();
                *place = now;
                moved[count] = k;
                count += usize::from(changed);
            }
            for &k in &moved[..count] {
                for e in around.of(k as usize) {
                    mark(&mut self.marks, e as usize);
                }
            }
        } else {
            self.places.clear();
            self.places.extend(base.iter().zip(&*u).map(|(&x0, &u)| x0 + u));
            self.marks.clear();
            self.marks.resize(2 * words, 0);
            self.marks[..words].fill(u64::MAX);
            if let Some(last) =
                self.marks.get_mut(words.wrapping_sub(1)).filter(|_| edges.len() % 64 != 0)
            {
                *last = (1u64 << (edges.len() % 64)) - 1;
            }
        }
        self.known = fits;
        let mut moved = false;
        for _ in 0..passes {
            let moved_now = self.pass((edges, rest, around), (base, u), w);
            self.marks.copy_within(words.., 0);
            self.marks[words..].fill(0);
            if !moved_now {
                break;
            }
            moved = true;
        }
        moved
    }

    /// One pass over the edges marked for it, in order: an edge put back marks the edges at
    /// its nodes, in this pass when they come after it, in the next when they came before (or
    /// are itself: rounding may leave it a hair over). Returns whether it moved a node.
    fn pass(
        &mut self,
        (edges, rest, around): Edges,
        (base, u): (&[Vec3A], &mut [Vec3A]),
        w: &[f32],
    ) -> bool {
        let Limiter { places, marks, .. } = self;
        let words = marks.len() / 2;
        let mut moved = false;
        for word in 0..words {
            while marks[word] != 0 {
                let bits = marks[word];
                marks[word] = bits & (bits - 1);
                let e = word * 64 + bits.trailing_zeros() as usize;
                let (Some(&[i, j]), Some(&l)) = (edges.get(e), rest.get(e)) else {
                    continue;
                };
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
                for f in around.of(i).chain(around.of(j)) {
                    // The next pass's half without a branch.
                    mark(marks, f as usize + 64 * words * usize::from(f as usize <= e));
                }
            }
        }
        moved
    }
}

/// Sets bit `at` of `bits`.
fn mark(bits: &mut [u64], at: usize) {
    if let Some(word) = bits.get_mut(at / 64) {
        *word |= 1 << (at % 64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A limiter over `edges` of `nodes` nodes, with the rows it needs.
    fn limited(edges: &[[u32; 2]], nodes: usize) -> (Limiter, Incidence) {
        (Limiter::default(), Incidence::new(edges, nodes))
    }

    #[test]
    fn an_edge_stretched_past_the_limit_comes_back_to_it_and_a_kinematic_end_stays() {
        // An edge of rest length 1 stretched to 2 along x: back to 1.05, each end half way.
        let base = [Vec3A::ZERO, Vec3A::new(2.0, 0.0, 0.0)];
        let (mut limiter, around) = limited(&[[0, 1]], 2);
        let edges: Edges = (&[[0, 1]], &[1.0], &around);
        let mut u = [Vec3A::ZERO; 2];
        limiter.limit(edges, (&base, &mut u), &[1.0, 1.0], 1);
        let length = (base[1] + u[1]).distance(base[0] + u[0]);
        assert!((length - 1.05).abs() < 1e-6, "{length}");
        assert!((u[0].x + u[1].x).abs() < 1e-6, "{u:?}");
        // The first end kinematic: the second comes all the way.
        let mut u = [Vec3A::ZERO; 2];
        limiter.forget();
        limiter.limit(edges, (&base, &mut u), &[0.0, 1.0], 1);
        assert_eq!(u[0], Vec3A::ZERO);
        assert!((u[1].x + 0.95).abs() < 1e-6, "{u:?}");
        // Within the limit: nothing moves.
        let mut u = [Vec3A::new(0.0, 0.0, 0.0), Vec3A::new(-0.95, 0.0, 0.0)];
        limiter.forget();
        limiter.limit(edges, (&base, &mut u), &[1.0, 1.0], 1);
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
        let (mut limiter, around) = limited(&edges, 4);
        let mut u = [Vec3A::ZERO; 4];
        assert!(limiter.limit((&edges, &[1.0; 3], &around), (&base, &mut u), &[1.0; 4], 1));
        assert!((worst(&u) - 1.475).abs() < 1e-5, "{}", worst(&u));
        let mut u = [Vec3A::ZERO; 4];
        limiter.forget();
        assert!(limiter.limit((&edges, &[1.0; 3], &around), (&base, &mut u), &[1.0; 4], 64));
        assert!(worst(&u) < 1.05 + 1e-4, "{}", worst(&u));
        // The whole chain, 3.15 long at most, still has its middle where it was.
        let middle = u.iter().map(|d| d.x).sum::<f32>();
        assert!(middle.abs() < 1e-4, "{u:?}");
    }

    /// One pass over every edge in order: what a pass of the limiter must do, to the bit.
    fn every_edge(
        edges: &[[u32; 2]],
        rest: &[f32],
        base: &[Vec3A],
        u: &mut [Vec3A],
        w: &[f32],
    ) -> bool {
        let mut moved = false;
        for (&[i, j], &l) in edges.iter().zip(rest) {
            let (i, j) = (i as usize, j as usize);
            let d = (base[j] + u[j]) - (base[i] + u[i]);
            let (length2, longest) = (d.length_squared(), (1.0 + STRAIN_LIMIT) * l);
            if length2 > longest * longest && w[i] + w[j] > 0.0 {
                let length = length2.sqrt();
                let n = d * ((length - longest) / (length * (w[i] + w[j])));
                u[i] += n * w[i];
                u[j] -= n * w[j];
                moved = true;
            }
        }
        moved
    }

    #[test]
    fn calls_that_look_at_the_marked_edges_move_the_nodes_as_passes_over_every_edge_do() {
        // A 6 × 6 grid of 10 cm cells cut into triangles, two rows kinematic, shaken by
        // pseudo-random moves of a few nodes (some calls, by up to 5 mm) or of all (others, by
        // up to 2 cm) between calls of 1 to 4 passes: the same displacements to the bit as
        // passes over every edge, and the same answer to whether any moved.
        let side = 6u32;
        let at = |r: u32, c: u32| r * side + c;
        let mut edges = Vec::new();
        for r in 0..side {
            for c in 0..side {
                if c + 1 < side {
                    edges.push([at(r, c), at(r, c + 1)]);
                }
                if r + 1 < side {
                    edges.push([at(r, c), at(r + 1, c)]);
                }
                if r + 1 < side && c + 1 < side {
                    edges.push([at(r, c + 1), at(r + 1, c)]);
                }
            }
        }
        let n = (side * side) as usize;
        let base: Vec<Vec3A> = (0..n as u32)
            .map(|k| Vec3A::new((k % side) as f32, (k / side) as f32, 0.0) * 0.1)
            .collect();
        let rest: Vec<f32> =
            edges.iter().map(|&[i, j]| base[i as usize].distance(base[j as usize])).collect();
        let w: Vec<f32> = (0..n).map(|k| if k < 2 * side as usize { 0.0 } else { 1.0 }).collect();
        let (mut limiter, around) = limited(&edges, n);
        let (mut u, mut plain) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
        let mut seed = 12345u32;
        let mut random = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1 << 24) as f32 - 0.5
        };
        let mut looked_fewer = false;
        for call in 0..200 {
            let everyone = call % 5 == 0;
            for k in 0..n {
                if everyone || random() > 0.35 {
                    let size = if everyone { 0.04 } else { 0.01 };
                    let kick = Vec3A::new(random(), random(), random()) * size;
                    u[k] += kick;
                    plain[k] += kick;
                }
            }
            if everyone {
                limiter.forget();
            }
            let passes = 1 + call % 4;
            let moved = limiter.limit((&edges, &rest, &around), (&base, &mut u), &w, passes);
            let mut moved_plain = false;
            for _ in 0..passes {
                if !every_edge(&edges, &rest, &base, &mut plain, &w) {
                    break;
                }
                moved_plain = true;
            }
            assert_eq!((moved, &u), (moved_plain, &plain), "call {call}");
            looked_fewer |= !everyone && limiter.marks.iter().all(|&bits| bits == 0);
        }
        assert!(looked_fewer, "no call left every edge within the limit");
    }
}
