//! What the artist has selected, and the node that stepping is on.

use springmesh_core::{NodeId, SpringId};
use std::collections::BTreeSet;

/// The selection: nodes and springs, and the node the inspector shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// Selected nodes.
    pub nodes: BTreeSet<NodeId>,
    /// Selected springs.
    pub springs: BTreeSet<SpringId>,
    /// The node the inspector shows and next/previous step from.
    pub current: Option<NodeId>,
}

/// One thing that can be clicked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// A node.
    Node(NodeId),
    /// A spring.
    Spring(SpringId),
}

impl Selection {
    /// True when nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty() && self.springs.is_empty()
    }

    /// Clears everything, the current node too.
    pub fn clear(&mut self) {
        *self = Selection::default();
    }

    /// Selects `item` alone, or adds it (toggles it) when `add` is set, as Shift+click does.
    pub fn pick(&mut self, item: Item, add: bool) {
        if !add {
            self.nodes.clear();
            self.springs.clear();
        }
        match item {
            Item::Node(n) => {
                if add && !self.nodes.insert(n) {
                    self.nodes.remove(&n);
                } else {
                    self.nodes.insert(n);
                    self.current = Some(n);
                }
            }
            Item::Spring(s) => {
                if add && !self.springs.insert(s) {
                    self.springs.remove(&s);
                } else {
                    self.springs.insert(s);
                }
            }
        }
    }

    /// Makes node `n` current and the only selected node.
    pub fn go_to(&mut self, n: NodeId) {
        self.nodes.clear();
        self.springs.clear();
        self.nodes.insert(n);
        self.current = Some(n);
    }

    /// Moves the current node by `delta` (wrapping around `count` nodes) and selects it alone.
    pub fn step(&mut self, delta: i64, count: usize) {
        if count == 0 {
            return;
        }
        let n = count as i64;
        let next = match self.current {
            Some(c) => (i64::from(c.0) + delta).rem_euclid(n),
            None if delta >= 0 => 0,
            None => n - 1,
        };
        self.go_to(NodeId(next as u32));
    }

    /// Drops what no longer exists in a model of `nodes` nodes and `springs` springs.
    pub fn retain_within(&mut self, nodes: usize, springs: usize) {
        self.nodes.retain(|n| n.index() < nodes);
        self.springs.retain(|s| s.index() < springs);
        if self.current.is_some_and(|c| c.index() >= nodes) {
            self.current = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stepping_wraps_and_selects_the_node_alone() {
        let mut s = Selection::default();
        s.step(1, 3);
        assert_eq!(s.current, Some(NodeId(0)));
        s.step(-1, 3);
        assert_eq!(s.current, Some(NodeId(2)));
        s.pick(Item::Spring(SpringId(4)), true);
        s.step(1, 3);
        assert_eq!((s.current, s.nodes.len(), s.springs.len()), (Some(NodeId(0)), 1, 0));
    }

    #[test]
    fn shift_click_toggles_and_plain_click_replaces() {
        let mut s = Selection::default();
        s.pick(Item::Node(NodeId(1)), false);
        s.pick(Item::Node(NodeId(2)), true);
        s.pick(Item::Spring(SpringId(0)), true);
        assert_eq!((s.nodes.len(), s.springs.len()), (2, 1));
        s.pick(Item::Node(NodeId(2)), true);
        assert_eq!(s.nodes.iter().copied().collect::<Vec<_>>(), vec![NodeId(1)]);
        s.pick(Item::Spring(SpringId(3)), false);
        assert_eq!((s.nodes.len(), s.springs.len()), (0, 1));
        s.retain_within(5, 2);
        assert!(s.is_empty());
    }
}
