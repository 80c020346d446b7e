//! # Tethers: long-range attachments to the anchors
//!
//! A cloth hanging from its anchors is held by chains of springs, and a spring pass with few
//! sub-steps lets the chain as a whole stretch: each spring moves its ends only part of the way
//! back each sub-step, and the error piles up along the chain (the 128 × 128 stiff benchmark
//! cloth at five 60 Hz sub-steps stretched 364%). Kim, Chentanez & Müller ("Long Range
//! Attachments — A Method to Simulate Inextensible Clothing in Computer Games", SCA 2012)
//! observed that a node can never be farther from an anchor than the rest length of the
//! shortest spring path between them, and enforce just that, in one pass over the nodes:
//!
//! ```text
//! L_i = min over anchors a of  g(i, a)           (rest geodesic distance through the springs)
//! C_i(x) = |x_i − x_a(i)| − (1 + s) L_i ≤ 0      (a unilateral constraint per free node)
//! ```
//!
//! - `x_i`: the node's position; `x_a(i)`: its nearest anchor's position *now* (an anchor a
//!   game moves carries its tethers along);
//! - `g(i, a)`: the shortest path from `i` to `a` with each spring weighted by its rest length
//!   (Dijkstra from all anchors at once, O(S log N) for S springs and N nodes, when the
//!   simulation is compiled and again after springs break — a piece torn off has no path left
//!   to any anchor and falls free);
//! - `s`: [`crate::model::Tethers::slack`] (default 1%).
//!
//! A violated constraint is projected with zero compliance (anchors have infinite mass, so the
//! node alone moves onto the sphere of radius (1 + s) L_i around its anchor). Under Xpbd the
//! projection happens after the spring pass and before velocities are derived from positions,
//! so the velocity follows; the explicit integrators project the position after integration
//! and remove the velocity's outward radial part, as a contact with the sphere would
//! (inelastic; the tangential part is kept).
//!
//! Each node is tied to its [`PER_NODE`] nearest anchors (Dijkstra settling up to that many
//! distinct sources per node, O(k S log(kN))), and the constraints are projected one after the
//! other.

use crate::sim::compile::SpringData;
use glam::Vec3A;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How many anchors a node is tethered to at most: its nearest ones. A cloth held by two corners
/// needs both (tied to the nearer corner only, the two halves part along the middle, where the
/// stiff benchmark cloth's seam stretched 58% at five sub-steps); four covers a held edge's
/// neighbourhood without a long list per node on a model with hundreds of anchors.
pub(crate) const PER_NODE: usize = 4;

/// The tethers of every node that has some, as parallel columns.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tethers {
    /// The tethered node.
    node: Vec<u32>,
    /// Its nearest anchor.
    anchor: Vec<u32>,
    /// The rest geodesic distance between them (m).
    length: Vec<f32>,
}

impl Tethers {
    /// The tethers of `nodes` nodes to `anchors` through `springs`.
    pub fn new(nodes: usize, springs: &SpringData, anchors: &[u32]) -> Tethers {
        if anchors.is_empty() {
            return Tethers::default();
        }
        // Neighbours of each node with the rest lengths, compressed (CSR).
        let (a, b) = (springs.a(), springs.b());
        let mut start = vec![0u32; nodes + 1];
        for (&a, &b) in a.iter().zip(b) {
            start[a as usize + 1] += 1;
            start[b as usize + 1] += 1;
        }
        for i in 0..nodes {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut edges = vec![(0u32, 0f32); start[nodes] as usize];
        for ((&a, &b), &rest) in a.iter().zip(b).zip(&springs.rest) {
            for (from, to) in [(a, b), (b, a)] {
                edges[next[from as usize] as usize] = (to, rest);
                next[from as usize] += 1;
            }
        }
        // Dijkstra from all anchors at once, each node settling its PER_NODE nearest distinct
        // anchors; non-negative f32s order as their bits do.
        let mut labels: Vec<Vec<(u32, f32)>> = vec![Vec::new(); nodes];
        let mut heap = BinaryHeap::new();
        for &anchor in anchors {
            heap.push(Reverse((0u32, anchor, anchor)));
        }
        let open = |labels: &[(u32, f32)], source: u32| {
            labels.len() < PER_NODE && labels.iter().all(|&(s, _)| s != source)
        };
        while let Some(Reverse((bits, i, source))) = heap.pop() {
            if !open(&labels[i as usize], source) {
                continue;
            }
            let d = f32::from_bits(bits);
            labels[i as usize].push((source, d));
            let (s, e) = (start[i as usize] as usize, start[i as usize + 1] as usize);
            for &(j, rest) in &edges[s..e] {
                if open(&labels[j as usize], source) {
                    heap.push(Reverse(((d + rest.max(0.0)).to_bits(), j, source)));
                }
            }
        }
        // Anchors are tied to nothing (they go where the game puts them).
        for &anchor in anchors {
            labels[anchor as usize].clear();
        }
        let mut out = Tethers::default();
        for (i, node_labels) in labels.iter().enumerate() {
            for &(a, d) in node_labels {
                if d.is_finite() && d > 0.0 {
                    out.node.push(i as u32);
                    out.anchor.push(a);
                    out.length.push(d);
                }
            }
        }
        out
    }

    /// How many nodes are tethered.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.node.len()
    }

    /// Moves every node beyond `(1 + slack) ×` its tether length from its anchor back onto
    /// that sphere. Positions are `base + u` (Xpbd's displacements), or `u` alone when `base`
    /// is empty; `moved(i, n)` is told each node moved with the outward unit direction `n`.
    pub fn pull(
        &self,
        slack: f32,
        base: &[Vec3A],
        u: &mut [Vec3A],
        mut moved: impl FnMut(usize, Vec3A),
    ) {
        let factor = 1.0 + slack;
        let origin = |i: usize| base.get(i).copied().unwrap_or(Vec3A::ZERO);
        for ((&i, &a), &length) in self.node.iter().zip(&self.anchor).zip(&self.length) {
            let (i, a) = (i as usize, a as usize);
            let (xi, xa) = (origin(i) + u[i], origin(a) + u[a]);
            let d = xi - xa;
            let max = length * factor;
            let squared = d.length_squared();
            if squared > max * max {
                let n = d * squared.sqrt().recip();
                u[i] = xa + n * max - origin(i);
                moved(i, n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::compile::Compiled;
    use crate::{Node, NodeId, Spring, SpringKind, SpringModel};
    use glam::Vec3;

    /// A chain 0-1-2-3 of 1 m springs with a 2.5 m shortcut 0-3, anchored at 0, and a node 4
    /// joined to nothing.
    fn chain() -> Compiled {
        let mut m = SpringModel::default();
        for x in 0..5 {
            m.nodes.push(Node { position: Vec3::new(x as f32, 0.0, 0.0), mass: 1.0 });
        }
        for (a, b, rest) in [(0, 1, 1.0), (1, 2, 1.0), (2, 3, 1.0), (0, 3, 2.5)] {
            m.springs.push(Spring::new(NodeId(a), NodeId(b), rest, 10.0, SpringKind::Stretch));
        }
        m.anchors = vec![NodeId(0)];
        Compiled::new(&m)
    }

    #[test]
    fn lengths_are_shortest_rest_paths_to_the_nearest_anchors() {
        let c = chain();
        let t = Tethers::new(5, &c.springs, &c.anchors.nodes);
        let mut found: Vec<(u32, u32, f32)> =
            (0..t.len()).map(|k| (t.node[k], t.anchor[k], t.length[k])).collect();
        found.sort_by_key(|e| e.0);
        // Node 3 through the shortcut (2.5 m), not the chain (3 m); node 4 has no path.
        assert_eq!(found, vec![(1, 0, 1.0), (2, 0, 2.0), (3, 0, 2.5)]);
        // With node 3 anchored too, nodes 1 and 2 are tied to both anchors.
        let mut c = chain();
        c.anchors.nodes.push(3);
        let t = Tethers::new(5, &c.springs, &c.anchors.nodes);
        let mut found: Vec<(u32, u32, f32)> =
            (0..t.len()).map(|k| (t.node[k], t.anchor[k], t.length[k])).collect();
        found.sort_by_key(|e| (e.0, e.1));
        let expected = vec![(1, 0, 1.0), (1, 3, 2.0), (2, 0, 2.0), (2, 3, 1.0)];
        assert_eq!(found, expected, "anchors themselves are tied to nothing");
    }

    #[test]
    fn displacements_from_a_base_are_pulled_the_same() {
        let c = chain();
        let t = Tethers::new(5, &c.springs, &c.anchors.nodes);
        let base = vec![Vec3A::X; 5];
        let mut u =
            vec![Vec3A::ZERO, Vec3A::ZERO, Vec3A::new(0.0, 3.0, 0.0), Vec3A::ZERO, Vec3A::ZERO];
        t.pull(0.0, &base, &mut u, |_, _| {});
        assert!((base[2] + u[2] - Vec3A::new(1.0, 2.0, 0.0)).length() < 1e-6);
    }

    #[test]
    fn a_node_too_far_is_pulled_onto_its_sphere_and_others_stay() {
        let c = chain();
        let t = Tethers::new(5, &c.springs, &c.anchors.nodes);
        let mut x = vec![
            Vec3A::ZERO,
            Vec3A::new(0.0, 1.005, 0.0),
            Vec3A::new(0.0, 3.0, 0.0),
            Vec3A::new(0.0, 0.0, 1.0),
            Vec3A::splat(100.0),
        ];
        let mut moved = Vec::new();
        t.pull(0.01, &[], &mut x, |i, n| moved.push((i, n)));
        // Node 1 is within its 1% slack, node 2 is pulled back to 2.02 m, node 3 is near.
        assert_eq!(moved, vec![(2, Vec3A::Y)]);
        assert!((x[2] - Vec3A::new(0.0, 2.02, 0.0)).length() < 1e-6);
        assert_eq!(x[4], Vec3A::splat(100.0), "an untethered node is free");
    }
}
