//! New springs between selected nodes: the pair of two nodes, every pair within a radius, or
//! each node to its nearest neighbours among the selection.

use springmesh_core::{NodeId, Spring, SpringKind, SpringModel};
use std::collections::BTreeSet;

/// Which pairs of the selected nodes get a spring.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Connect {
    /// Every pair no farther apart than this (m); `f32::INFINITY` for every pair.
    Within(f32),
    /// Each node to this many of its nearest selected nodes.
    Nearest(usize),
}

/// Manual springs (rest length = the nodes' distance) of `stiffness` (N/m) and `damping`
/// (N·s/m) between the pairs of `nodes` that `how` picks, leaving out pairs already joined by
/// a spring. Nodes not in the model are ignored.
pub fn connecting_springs(
    model: &SpringModel,
    nodes: &BTreeSet<NodeId>,
    how: Connect,
    stiffness: f32,
    damping: f32,
) -> Vec<Spring> {
    let p = model.nodes.positions();
    let nodes: Vec<NodeId> = nodes.iter().copied().filter(|n| n.index() < p.len()).collect();
    let joined: BTreeSet<(NodeId, NodeId)> = model.springs.iter().map(|s| s.pair()).collect();
    let distance = |a: NodeId, b: NodeId| p[a.index()].distance(p[b.index()]);
    let mut pairs = BTreeSet::new();
    match how {
        Connect::Within(radius) => {
            for (i, &a) in nodes.iter().enumerate() {
                for &b in &nodes[i + 1..] {
                    if distance(a, b) <= radius {
                        pairs.insert((a, b));
                    }
                }
            }
        }
        Connect::Nearest(k) => {
            for &a in &nodes {
                let mut others: Vec<NodeId> = nodes.iter().copied().filter(|&b| b != a).collect();
                others.sort_by(|&x, &y| distance(a, x).total_cmp(&distance(a, y)));
                pairs.extend(others.into_iter().take(k).map(|b| (a.min(b), a.max(b))));
            }
        }
    }
    pairs
        .into_iter()
        .filter(|pair| !joined.contains(pair))
        .map(|(a, b)| {
            Spring::new(a, b, distance(a, b), stiffness, SpringKind::Manual).with_damping(damping)
        })
        .collect()
}
