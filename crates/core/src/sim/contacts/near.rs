//! # Which colliders each node may touch: masks kept while nothing has moved far
//!
//! A worn cloth's nodes and edges are tested against every sphere and capsule of the body in
//! every sub-step ([`super::collision`], [`super::edges`]), yet a cape on a back is within reach
//! of a few of a figure's seventeen colliders. Each node keeps a bit mask of the colliders that
//! may be near it, worked out at a reference place x̂_i of the node and â, b̂ of each axis, and
//! kept while neither has moved further than a margin M from there (Verlet's neighbour lists,
//! "Computer 'Experiments' on Classical Fluids", Phys. Rev. 159, 1967, for colliders):
//!
//! ```text
//! bit k of node i:   dist(x̂_i, [â_k, b̂_k]) < R_k + r + 2M
//! kept while:        |x_i − x̂_i| ≤ M   and   max(|a_k − â_k|, |b_k − b̂_k|) + |R_k − R̂_k| ≤ M
//! ```
//!
//! The distance from a point to a segment changes by no more than the point moves, nor more
//! than the further end of the segment moves, so a bit left clear still means
//! dist(x_i, [a_k, b_k]) ≥ R_k + r: no point within r of the node (an edge's points, r half
//! its longest) touches collider k. A node that moved further gets a new reference and its bits
//! again; a collider that moved further, a new reference and its bit in every node. The node
//! collisions, which come after the sub-step's other constraints have moved the nodes again,
//! test every collider for a node that is by then further than M from its reference.
//!
//! The node's own collisions need no reach: a collider pushes a node only from inside it
//! ([`super::collision::leave`]). So each node keeps a second mask, its own, of the bits with
//! r = 0, worked out from the same references and distances. It takes the walker's cape from
//! 5.22 to 5.19 M instructions a frame and the dancer's skirt from 6.28 to 6.12, the same
//! pushes bit for bit (callgrind, 200 frames).
//!
//! - x_i: node i's position (m); a_k, b_k, R_k: collider k's axis ends (a sphere's centre
//!   twice) and radius with the nodes' (m); r: the reach asked ([`NearColliders::refresh`]);
//! - r: [`REACH_ROOM`] times the reach asked when the masks were all worked out (at least
//!   [`MIN_REACH`]); asked for more, they are all worked out again. The solver asks for half
//!   its longest edge: each point of an edge lies within half the edge of its nearer end, and
//!   an edge is tested against the colliders of both its ends' masks
//!   ([`crate::sim::contacts::edges`]). Asked for the whole longest edge, as they first were,
//!   the masks held more colliders than any edge can touch: the same pushes, bit for bit, cost
//!   the walker's cape 5.78 M instructions a frame against 5.22 at half, the dancer's skirt
//!   7.08 against 6.28 (callgrind, 200 frames of their walk and leap, self-collision on; M at
//!   3/8 or 1/2 of r took 5.23 and 5.28 M for the cape, 6.39 and 6.51 for the skirt; at 0.15,
//!   5.33 and 6.23).
//! - M = [`MARGIN`] r: the larger, the fewer refreshes, the more colliders in each mask. On the
//!   Blender-made figure's cape (`crates/convert/benches/frame.rs`, its walk, run and turn,
//!   without self-collision), a frame cost 0.55 ms with every collider's ball tested for every
//!   node and edge, 0.47 with masks of margin a quarter of r, 0.48 with an eighth, 0.51 with a
//!   half.
//!
//! Places are measured from the nodes' mean, which carries a walking figure's translation:
//! distances do not change when everything moves together, so a running figure's cape and
//! body move their masks' references as little as they move against each other.
//!
//! Colliders past the 31st, and every one that is not a sphere or a capsule, share bit 31,
//! which every node has: they are always tested.

use crate::geometry::along_segment;
use crate::sim::contacts::round::RoundAxis;
use glam::Vec3A;

/// The bit of obstacle `i` in a node's mask (module doc: the last one is shared).
#[inline]
pub(crate) fn bit(i: usize) -> u32 {
    1 << i.min(ALWAYS)
}

/// How much further than asked the masks reach when all are worked out (module doc): room
/// for a worn cloth's edges to stretch before they are all worked out again.
const REACH_ROOM: f32 = 1.25;

/// The margin M in times the reach r (module doc).
const MARGIN: f32 = 0.25;

/// The least reach the masks are worked out for (m): a model without edges asks for none,
/// and a margin of nothing would refresh every node in every sub-step.
const MIN_REACH: f32 = 0.01;

/// The bit every node has: obstacles past the others, and those not round.
pub(crate) const ALWAYS: usize = 31;

/// The obstacles below [`ALWAYS`] whose bits `mask` has, in increasing order.
#[inline]
pub(crate) fn obstacles(mask: u32) -> impl Iterator<Item = usize> + Clone {
    let mut bits = mask & !bit(ALWAYS);
    std::iter::from_fn(move || {
        let o = bits.trailing_zeros() as usize;
        bits &= bits.wrapping_sub(1);
        (o < ALWAYS).then_some(o)
    })
}

/// Each node's mask and the references it was worked out at (module doc).
#[derive(Clone, Debug, Default)]
pub(crate) struct NearColliders {
    /// Per node: bit k set when obstacle k may be within reach.
    pub mask: Vec<u32>,
    /// Per node: bit k set when obstacle k may touch the node itself (reach 0).
    pub own: Vec<u32>,
    /// The nodes' mean at the last refresh: what the places below are relative to.
    frame: Vec3A,
    /// Where each node was when its bits were worked out.
    at: Vec<Vec3A>,
    /// Each round obstacle's axis ends and radius when its bits were worked out, by obstacle
    /// index (`None`: not round).
    axes: Vec<Option<(Vec3A, Vec3A, f32)>>,
    /// The points each bit is set within, for those references (`None`: not round).
    balls: Vec<Option<Ball>>,
    /// The reach r the bits hold for, and the margin M.
    reach: f32,
    margin: f32,
}

impl NearColliders {
    /// Brings the masks up to date for nodes at `x` (x0 + u) among `obstacles` colliders, of
    /// which `axes` are the round ones, for points within `reach` of a node.
    pub fn refresh(
        &mut self,
        obstacles: usize,
        axes: &[RoundAxis],
        x: impl Fn(usize) -> Vec3A,
        nodes: usize,
        reach: f32,
    ) {
        let reach = reach.max(MIN_REACH);
        // Places are kept relative to the nodes' mean, which a figure's walk carries with it.
        let sum = (0..nodes).fold(Vec3A::ZERO, |sum, i| sum + x(i));
        self.frame = if nodes > 0 { sum / nodes as f32 } else { Vec3A::ZERO };
        let f = self.frame;
        let x = |i: usize| x(i) - f;
        let fresh = self.mask.len() != nodes || self.axes.len() != obstacles || reach > self.reach;
        if fresh {
            self.reach = reach * REACH_ROOM;
            self.margin = MARGIN * self.reach;
            self.axes.clear();
            self.axes.resize(obstacles, None);
            self.balls.clear();
            self.balls.resize(obstacles, None);
            for axis in axes {
                self.set_reference(axis.obstacle, (axis.a - f, axis.b - f, axis.radius));
            }
            self.at.clear();
            self.at.extend((0..nodes).map(&x));
            self.mask.clear();
            self.mask.resize(nodes, 0);
            self.own.clear();
            self.own.resize(nodes, 0);
            for i in 0..nodes {
                (self.mask[i], self.own[i]) = self.bits(self.at[i]);
            }
            return;
        }
        let margin = self.margin;
        for axis in axes {
            let Some(Some((a, b, radius))) = self.axes.get(axis.obstacle).copied() else {
                continue;
            };
            let (a_now, b_now) = (axis.a - f, axis.b - f);
            let moved = a.distance(a_now).max(b.distance(b_now)) + (radius - axis.radius).abs();
            if moved > margin {
                let ball = self.set_reference(axis.obstacle, (a_now, b_now, axis.radius));
                let k = bit(axis.obstacle);
                let Some(ball) = ball.filter(|_| k != bit(ALWAYS)) else {
                    continue;
                };
                let masks = self.mask.iter_mut().zip(&mut self.own);
                for ((mask, own), &at) in masks.zip(&self.at) {
                    let (near, touches) = ball.near(at);
                    *mask = (*mask & !k) | if near { k } else { 0 };
                    *own = (*own & !k) | if touches { k } else { 0 };
                }
            }
        }
        for i in 0..nodes {
            let now = x(i);
            if now.distance_squared(self.at[i]) > margin * margin {
                self.at[i] = now;
                (self.mask[i], self.own[i]) = self.bits(now);
            }
        }
    }

    /// True when the node `i` now at `x` is still within the margin of its reference: its
    /// mask holds for it.
    #[inline]
    pub fn holds(&self, i: usize, x: Vec3A) -> bool {
        let x = x - self.frame;
        self.at.get(i).is_some_and(|&at| at.distance_squared(x) <= self.margin * self.margin)
    }

    /// How near a round obstacle of radius `radius` a node's reference must be for its bit
    /// in the node's mask and in its own: its radius, the reach and twice the margin, and
    /// its radius and twice the margin (module doc).
    fn within(&self, radius: f32) -> (f32, f32) {
        let own = radius + 2.0 * self.margin;
        (own + self.reach, own)
    }

    /// Takes `(a, b, radius)` as obstacle `k`'s reference; its ball, when it has one.
    fn set_reference(&mut self, k: usize, (a, b, radius): (Vec3A, Vec3A, f32)) -> Option<Ball> {
        let ball = Ball::round((a, b), self.within(radius));
        let (axis, slot) = (self.axes.get_mut(k)?, self.balls.get_mut(k)?);
        (*axis, *slot) = (Some((a, b, radius)), Some(ball));
        Some(ball)
    }

    /// The bits of a node at `x` against the axes' references: its mask and its own.
    fn bits(&self, x: Vec3A) -> (u32, u32) {
        let (mut mask, mut own) = (bit(ALWAYS), bit(ALWAYS));
        for (k, ball) in self.balls.iter().enumerate() {
            match ball {
                Some(ball) => {
                    let (near, touches) = ball.near(x);
                    mask |= if near { bit(k) } else { 0 };
                    own |= if touches { bit(k) } else { 0 };
                }
                None => {
                    mask |= bit(k);
                    own |= bit(k);
                }
            }
        }
        (mask, own)
    }
}

/// The points within two distances of a segment, the larger first, and the ball round the
/// larger: a point clearly outside the ball (by a thousandth, more than any rounding) is told
/// so without the segment, which most are.
#[derive(Clone, Copy, Debug)]
struct Ball {
    ends: (Vec3A, Vec3A),
    within: (f32, f32),
    centre: Vec3A,
    radius2: f32,
}

impl Ball {
    #[inline]
    fn round((a, b): (Vec3A, Vec3A), within: (f32, f32)) -> Ball {
        let radius = (0.5 * a.distance(b) + within.0) * 1.001;
        Ball { ends: (a, b), within, centre: (a + b) * 0.5, radius2: radius * radius }
    }

    /// Whether `x` is within each of the distances of the segment.
    #[inline]
    fn near(&self, x: Vec3A) -> (bool, bool) {
        if x.distance_squared(self.centre) >= self.radius2 {
            return (false, false);
        }
        let (a, b) = self.ends;
        let d2 = x.distance_squared(a.lerp(b, along_segment(a, b, x)));
        (d2 < self.within.0 * self.within.0, d2 < self.within.1 * self.within.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::contacts::round::within_segment;

    /// A capsule along x of radius 0.1, its axis from `a` to `a + (0.4, 0, 0)`, obstacle `k`.
    fn capsule(a: Vec3A, k: usize) -> RoundAxis {
        let axis = RoundAxis::new(
            (a, a + Vec3A::new(0.4, 0.0, 0.0), 0.1),
            (Vec3A::ZERO, Vec3A::ZERO),
            0.0,
        );
        RoundAxis { obstacle: k, ..axis }
    }

    #[test]
    fn no_node_within_reach_of_a_collider_ever_lacks_its_bit_and_far_ones_have_none() {
        // Two capsules and a box (obstacle 1, not round) among 200 nodes that drift and
        // jitter, the first capsule sweeping across them: every sub-step, each node within
        // the reach of a capsule's surface has its bit, checked against the distance itself.
        let reach = 0.05;
        let mut nodes: Vec<Vec3A> = (0..200)
            .map(|k| Vec3A::new((k % 20) as f32 * 0.05, (k / 20) as f32 * 0.05, 0.0))
            .collect();
        let mut masks = NearColliders::default();
        let (mut kept, mut far, mut left) = (0, 0, 0);
        for step in 0..400 {
            let s = step as f32;
            let drift = Vec3A::new(0.01 * s, 0.0, 0.0);
            for (k, x) in nodes.iter_mut().enumerate() {
                let k = k as f32;
                *x += Vec3A::new((s * 0.7 + k).sin(), (s * 1.3 + k).cos(), 0.0) * 0.004;
            }
            let axes = [
                capsule(Vec3A::new(-0.5 + 0.005 * s, 0.2, 0.0) + drift, 0),
                capsule(Vec3A::new(0.5, 0.6, 0.05) + drift, 2),
            ];
            let moved: Vec<Vec3A> = nodes.iter().map(|&x| x + drift).collect();
            masks.refresh(3, &axes, |i| moved[i], moved.len(), reach);
            for (i, &x) in moved.iter().enumerate() {
                assert!(masks.holds(i, x));
                assert_ne!(masks.mask[i] & bit(1), 0, "a box is always tested");
                assert_ne!(masks.own[i] & bit(1), 0, "by the node itself too");
                for axis in &axes {
                    let touches = within_segment(x, (axis.a, axis.b), axis.radius + reach);
                    let has = masks.mask[i] & bit(axis.obstacle) != 0;
                    assert!(
                        has || !touches,
                        "step {step}: node {i} lacks collider {}",
                        axis.obstacle
                    );
                    kept += usize::from(has && !touches);
                    far += usize::from(!has);
                    // The node's own mask: every collider the node itself is in.
                    let inside = within_segment(x, (axis.a, axis.b), axis.radius);
                    let own = masks.own[i] & bit(axis.obstacle) != 0;
                    assert!(own || !inside, "step {step}: node {i} in {}", axis.obstacle);
                    assert!(has || !own, "a node's own colliders are in its mask");
                    left += usize::from(has && !own);
                }
            }
        }
        // The masks leave out most pairs (the quick test's worth), and refreshes keep few.
        assert!(far > 400 * 200, "{far} pairs left out");
        assert!(kept < far, "{kept} kept that do not touch, {far} left out");
        assert!(left > 0, "a node's own mask leaves out colliders its mask holds");
    }

    #[test]
    fn obstacles_past_the_31st_share_one_bit_that_every_mask_has() {
        assert_eq!(bit(0), 1);
        assert_eq!(bit(30), 1 << 30);
        assert_eq!(bit(31), bit(1000));
        assert_eq!(obstacles(0b1010 | bit(31)).collect::<Vec<_>>(), [1, 3]);
        let axes: Vec<RoundAxis> =
            (0..40).map(|k| capsule(Vec3A::splat(k as f32 * 10.0), k)).collect();
        let mut masks = NearColliders::default();
        masks.refresh(40, &axes, |_| Vec3A::splat(1e4), 1, 0.01);
        assert_eq!(masks.mask, [bit(31)]);
    }
}
