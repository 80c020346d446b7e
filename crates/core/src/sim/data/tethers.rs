//! The compiled tethers: each tethered node's nearest anchors and its rest geodesic distance
//! to each, measured through the springs and across the triangles when the model is compiled
//! (the physics and the measure: [`crate::sim::constraints::tethers`]).

use crate::NodeId;
use crate::model::Buckets;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Range;

/// How many anchors a node is tethered to at most: its nearest ones. A cloth held by two corners
/// needs both (tied to the nearer corner only, the two halves part along the middle, where the
/// stiff benchmark cloth's seam stretched 58% at five sub-steps); four covers a held edge's
/// neighbourhood without a long list per node on a model with hundreds of anchors.
pub(crate) const PER_NODE: usize = 4;

/// The shortest mean run, in tethers, that the layout by anchor is kept for ([`Tethers`]): two
/// runs of the vector loop's eight lanes. Shorter runs cost more in their setting up and
/// their lanes left over than the sweeps' gathering of each node's anchor (the walker's
/// cape, 4 by anchor: 5.8% fewer instructions a frame in sweeps; the 128 × 128 cloth held by
/// two corners, runs of thousands by anchor: its Xpbd frame took 25% longer in sweeps).
pub(crate) const LONG_RUN: usize = 16;

/// A model without faces gets its tethers measured across the triangles its springs close;
/// a node with more springs than this (a hub joined to everything) is left out of them and
/// keeps the springs' paths, which bounds the search at this many look-ups per spring end.
/// 64 is several times the springs a node of a cloth (12: structural, shear and skip-one
/// bend) or a filled lattice (14) has.
pub(crate) const MAX_CLOSING_DEGREE: usize = 64;

/// The tethers of every node that has some, as parallel columns in runs of consecutive
/// nodes whose pulls are independent (each moves its own node; anchors are tied to nothing),
/// which walk the nodes' arrays as they lie in memory. Each node's pulls come in its anchors'
/// order (their numbering), in one of two layouts:
///
/// - **by anchor**, sorted by anchor and node: a run is one anchor's, read once for all its
///   nodes. A cloth held by two corners has two runs of every node;
/// - **in sweeps**, when that gives runs shorter than [`LONG_RUN`] on average: the first
///   sweep holds each node's tether to its first anchor, the next to its second, and so on,
///   each sorted by node; a run's anchors are gathered node by node. A cape held along its
///   top row has as many anchors as columns, each near four nodes of a row, and runs of four
///   by anchor: in sweeps the walker's cape took 5.8% fewer instructions a frame.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tethers {
    /// The tethered node.
    pub(crate) node: Vec<u32>,
    /// Its anchor.
    pub(crate) anchor: Vec<u32>,
    /// The rest geodesic distance between them (m).
    pub(crate) length: Vec<f32>,
    /// The runs: each an index range into the columns, whose nodes follow one another.
    pub(crate) runs: Vec<Range<usize>>,
    /// Each tether's anchor as its index in the anchors' list.
    pub(crate) slot: Vec<u32>,
    /// The tethers (indices; `u32::MAX` pads) of each node that has more than one.
    pub(crate) groups: Vec<[u32; PER_NODE]>,
    /// True when each run is one anchor's (the layout by anchor), false in sweeps.
    pub(crate) by_anchor: bool,
}

impl Tethers {
    /// The tethers of `nodes` nodes to `anchors` through the springs `(a[i], b[i])` of rest
    /// lengths `rest[i]`, and across the triangles `faces` (those whose three edges are
    /// springs).
    pub fn new(
        nodes: usize,
        (a, b, rest): (&[u32], &[u32], &[f32]),
        anchors: &[u32],
        faces: &[[NodeId; 3]],
    ) -> Tethers {
        if anchors.is_empty() {
            return Tethers::default();
        }
        // Each node's neighbours through the springs, with the rest lengths.
        let edges = Buckets::in_order(nodes, || {
            let ends = a.iter().zip(b).zip(rest);
            ends.flat_map(|((&a, &b), &rest)| [(a, b, rest.max(0.0)), (b, a, rest.max(0.0))])
        });
        // Each usable triangle listed at each of its corners, as (the other two corners, the
        // three edge lengths: the two at this corner, then the opposite one).
        let length = |a: u32, b: u32| edges.get(a).iter().find(|e| e.0 == b).map(|e| e.1);
        // (The edge lengths are looked up once; the grouping walks its pairs twice.)
        let closed = if faces.is_empty() { closed_triangles(nodes, &edges) } else { Vec::new() };
        let corners = faces.iter().map(|f| f.map(|n| n.0)).chain(closed);
        let usable: Vec<([u32; 3], [f32; 3])> = corners
            .filter_map(|[a, b, c]| {
                Some(([a, b, c], [length(b, c)?, length(c, a)?, length(a, b)?]))
            })
            .collect();
        let triangles = Buckets::in_order(nodes, || {
            usable.iter().flat_map(|&([a, b, c], [bc, ca, ab])| {
                [(a, b, (c, [ab, ca, bc])), (b, c, (a, [bc, ab, ca])), (c, a, (b, [ca, bc, ab]))]
            })
        });
        // Dijkstra from all anchors at once, each node settling its PER_NODE nearest distinct
        // anchors; non-negative f32s order as their bits do.
        // Per node: the anchors settled (up to PER_NODE, nearest first; u32::MAX: none yet),
        // and the best distance offered so far from up to TENTATIVE anchors, so that an offer
        // no better than an earlier one is not queued.
        const NONE: u32 = u32::MAX;
        const TENTATIVE: usize = 2 * PER_NODE;
        let mut done = vec![[(NONE, 0f32); PER_NODE]; nodes];
        let mut best = vec![[(NONE, f32::INFINITY); TENTATIVE]; nodes];
        let mut heap = BinaryHeap::new();
        for &anchor in anchors {
            heap.push(Reverse((0u32, anchor, anchor)));
        }
        let open = |done: &[(u32, f32); PER_NODE], source: u32| {
            done[PER_NODE - 1].0 == NONE && done.iter().all(|&(s, _)| s != source)
        };
        let settled = |done: &[(u32, f32); PER_NODE], source: u32| {
            done.iter().find(|&&(s, _)| s == source).map(|&(_, d)| d)
        };
        while let Some(Reverse((bits, i, source))) = heap.pop() {
            if !open(&done[i as usize], source) {
                continue;
            }
            let d = f32::from_bits(bits);
            if let Some(slot) = done[i as usize].iter_mut().find(|s| s.0 == NONE) {
                *slot = (source, d);
            }
            let done = &done;
            let mut reach = |j: u32, dj: f32| {
                if !open(&done[j as usize], source) {
                    return;
                }
                let offers = &mut best[j as usize];
                if let Some(offer) = offers.iter_mut().find(|o| o.0 == source) {
                    if dj >= offer.1 {
                        return;
                    }
                    offer.1 = dj;
                } else if let Some(offer) = offers.iter_mut().find(|o| o.0 == NONE) {
                    *offer = (source, dj);
                }
                heap.push(Reverse((dj.to_bits(), j, source)));
            };
            for &(j, rest) in edges.get(i) {
                reach(j, d + rest);
            }
            for &(j, (k, [ij, ik, jk])) in triangles.get(i) {
                if let Some(dj) = settled(&done[j as usize], source)
                    && let Some(dk) = across(d, dj, ij, ik, jk)
                {
                    reach(k, dk);
                }
                if let Some(dk) = settled(&done[k as usize], source)
                    && let Some(dj) = across(d, dk, ik, ij, jk)
                {
                    reach(j, dj);
                }
            }
        }
        // Anchors are tied to nothing (they go where the game puts them).
        for &anchor in anchors {
            done[anchor as usize] = [(NONE, 0.0); PER_NODE];
        }
        let mut tethers: Vec<(u32, u32, f32)> = done
            .iter()
            .enumerate()
            .flat_map(|(i, l)| l.iter().map(move |&(a, d)| (a, i as u32, d)))
            .filter(|&(a, _, d)| a != NONE && d.is_finite() && d > 0.0)
            .collect();
        // By anchor, each node's tethers come in its anchors' order; a tether's rank is how
        // many of its node's anchors come before its own, its sweep.
        tethers.sort_unstable_by_key(|&(a, i, _)| (a, i));
        let runs_by_anchor =
            1 + tethers.windows(2).filter(|w| w[0].0 != w[1].0 || w[0].1 + 1 != w[1].1).count();
        let by_anchor = tethers.len() >= LONG_RUN * runs_by_anchor;
        let mut ranks = vec![0u32; nodes];
        let mut tethers: Vec<(u32, u32, u32, f32)> = tethers
            .into_iter()
            .map(|(a, i, d)| {
                let rank = ranks.get_mut(i as usize).map_or(0, |r| {
                    *r += 1;
                    *r - 1
                });
                (if by_anchor { a } else { rank }, i, a, d)
            })
            .collect();
        if !by_anchor {
            tethers.sort_unstable_by_key(|&(rank, i, _, _)| (rank, i));
        }
        let mut slot_of = vec![NONE; nodes];
        for (k, &a) in anchors.iter().enumerate() {
            if let Some(s) = slot_of.get_mut(a as usize) {
                *s = k as u32;
            }
        }
        let mut of_node = vec![[NONE; PER_NODE]; nodes];
        let mut out = Tethers { by_anchor, ..Tethers::default() };
        let mut last_group = None;
        for (k, &(group, i, a, d)) in tethers.iter().enumerate() {
            if let Some(free) = of_node[i as usize].iter_mut().find(|t| **t == NONE) {
                *free = k as u32;
            }
            out.slot.push(slot_of[a as usize]);
            if last_group != Some(group) || out.node.last().map(|&n| n + 1) != Some(i) {
                out.runs.push(k..k);
            }
            last_group = Some(group);
            if let Some(run) = out.runs.last_mut() {
                run.end = k + 1;
            }
            out.node.push(i);
            out.anchor.push(a);
            out.length.push(d);
        }
        out.groups = of_node.into_iter().filter(|g| g[1] != NONE).collect();
        out
    }

    /// How many tethers there are.
    pub fn len(&self) -> usize {
        self.node.len()
    }
}

/// Every triangle that three springs close, for a model without faces: each once, as
/// (a, b, c) with a < b < c, from `edges` (each of the `nodes` nodes' spring neighbours). Nodes with more than
/// [`MAX_CLOSING_DEGREE`] springs are left out of them, so the work is at most that many
/// look-ups per spring end.
fn closed_triangles(nodes: usize, edges: &Buckets<f32>) -> Vec<[u32; 3]> {
    let degree = |a: u32| edges.get(a).len();
    let mut mark = vec![false; nodes];
    let mut triangles = Vec::new();
    for a in 0..nodes as u32 {
        if degree(a) > MAX_CLOSING_DEGREE {
            continue;
        }
        let higher = |&&(b, _): &&(u32, f32)| b > a && degree(b) <= MAX_CLOSING_DEGREE;
        for &(b, _) in edges.get(a).iter().filter(higher) {
            mark[b as usize] = true;
        }
        for &(b, _) in edges.get(a).iter().filter(higher) {
            for &(c, _) in edges.get(b) {
                if c > b && mark[c as usize] {
                    triangles.push([a, b, c]);
                }
            }
        }
        for &(b, _) in edges.get(a) {
            mark[b as usize] = false;
        }
    }
    triangles.sort_unstable();
    triangles.dedup();
    triangles
}

/// The distance to corner C of a triangle ABC from a source whose distances to A and B are
/// `da` and `db`, when the shortest way crosses the edge AB: the triangle is laid flat beside
/// the source's (unfolded) position S, the point at distances `da` from A and `db` from B on
/// the other side of AB, and the answer is |S − C| if the segment S–C crosses AB between its
/// ends. `ab`, `ac`, `bc` are the edge lengths. `None` when no such S exists or the segment
/// misses AB (the springs' paths then give the distance). Kimmel & Sethian, "Computing
/// geodesic paths on manifolds" (PNAS 1998), the update of fast marching on triangles.
fn across(da: f32, db: f32, ab: f32, ac: f32, bc: f32) -> Option<f32> {
    if ab <= 0.0 {
        return None;
    }
    // A at the origin, B at (ab, 0), C above the x axis, S below it.
    let cx = (ac * ac - bc * bc + ab * ab) / (2.0 * ab);
    let cy = (ac * ac - cx * cx).max(0.0).sqrt();
    let sx = (da * da - db * db + ab * ab) / (2.0 * ab);
    let sy2 = da * da - sx * sx;
    if sy2 < 0.0 || cy <= 0.0 {
        return None;
    }
    let sy = -sy2.sqrt();
    // Where S–C crosses the x axis.
    let x = sx + (cx - sx) * (-sy) / (cy - sy);
    (0.0..=ab).contains(&x).then(|| (cx - sx).hypot(cy - sy))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn across_a_triangle_the_distance_is_straight() {
        // A source at (0, -1) below the edge A = (0, 0), B = (1, 0); C = (1, 1) above it.
        let (da, db) = (1.0, 2f32.sqrt());
        let dc = across(da, db, 1.0, 2f32.sqrt(), 1.0).expect("the segment crosses AB");
        assert!((dc - 5f32.sqrt()).abs() < 1e-6, "{dc}");
        // C = (-1, 1): the straight way from the source passes beside AB, which gives nothing.
        assert_eq!(across(da, db, 1.0, 2f32.sqrt(), 5f32.sqrt()), None);
        // Distances no point can have (|da − db| > |AB|) give nothing either.
        assert_eq!(across(0.0, 3.0, 1.0, 1.0, 1.0), None);
    }

    /// The tethers of a chain of `n` 1 m springs held at `anchors`.
    fn chain(n: u32, anchors: &[u32]) -> Tethers {
        let (a, b): (Vec<u32>, Vec<u32>) = (0..n - 1).map(|i| (i, i + 1)).unzip();
        Tethers::new(n as usize, (&a, &b, &vec![1.0; a.len()]), anchors, &[])
    }

    #[test]
    fn long_runs_keep_the_layout_by_anchor_and_short_ones_go_in_sweeps() {
        // Held at one end: one run of 39 nodes.
        let t = chain(40, &[0]);
        assert!(t.by_anchor);
        assert_eq!(t.runs, vec![0..39]);
        // Held at every fourth node: each node has the four nearest, in runs of three by
        // anchor. In sweeps, the first holds every node's first anchor, node by node.
        let anchors: Vec<u32> = (0..10).map(|k| 4 * k).collect();
        let t = chain(37, &anchors);
        assert!(!t.by_anchor);
        let first: Vec<(u32, u32)> =
            (0..t.len()).map(|k| (t.node[k], t.anchor[k])).take(3).collect();
        assert_eq!(first, vec![(1, 0), (2, 0), (3, 0)]);
        // Every node's tethers come in its anchors' order.
        for node in 0..37 {
            let mine: Vec<u32> =
                (0..t.len()).filter(|&k| t.node[k] == node).map(|k| t.anchor[k]).collect();
            assert!(mine.is_sorted(), "node {node}: {mine:?}");
            assert_eq!(mine.len(), if node % 4 == 0 { 0 } else { PER_NODE }, "node {node}");
        }
    }
}
