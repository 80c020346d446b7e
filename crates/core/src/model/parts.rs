//! Connected parts of a model: the groups of nodes that springs join.

use super::SpringModel;
use crate::NodeId;

/// Union-find over node indices (path halving; the smaller root wins, so results do not
/// depend on the order of joins).
struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    fn root(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let grandparent = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grandparent;
            x = grandparent;
        }
        x
    }

    fn join(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra != rb {
            self.parent[ra.max(rb) as usize] = ra.min(rb);
        }
    }
}

/// The parts of a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parts {
    /// Per node, the smallest node index of its part.
    pub part_of: Vec<NodeId>,
    /// Number of parts (a node without springs is a part of its own).
    pub count: usize,
    /// Nodes that no spring touches.
    pub unconnected: Vec<NodeId>,
}

impl SpringModel {
    /// The groups of nodes joined by springs (ends out of range are ignored).
    pub fn parts(&self) -> Parts {
        let n = self.nodes.len();
        let mut uf = UnionFind { parent: (0..n as u32).collect() };
        let mut touched = vec![false; n];
        for (a, b) in self.springs.a().iter().zip(self.springs.b()) {
            if a.index() < n && b.index() < n {
                uf.join(a.0, b.0);
                touched[a.index()] = true;
                touched[b.index()] = true;
            }
        }
        let part_of: Vec<NodeId> = (0..n as u32).map(|x| NodeId(uf.root(x))).collect();
        let count = part_of.iter().enumerate().filter(|&(i, p)| p.index() == i).count();
        let unconnected = touched
            .iter()
            .enumerate()
            .filter(|&(_, t)| !t)
            .map(|(i, _)| NodeId::from_index(i))
            .collect();
        Parts { part_of, count, unconnected }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Node, NodeId, Spring, SpringKind, SpringModel};
    use glam::Vec3;

    #[test]
    fn two_parts_and_a_loose_node() {
        let mut m = SpringModel::default();
        for i in 0..5 {
            m.nodes.push(Node { position: Vec3::X * i as f32, mass: 1.0 });
        }
        for (a, b) in [(0, 1), (3, 1), (2, 4)] {
            m.springs.push(Spring::new(NodeId(a), NodeId(b), 1.0, 1.0, SpringKind::Manual));
        }
        let mut lone = m.clone();
        lone.springs.retain(|id, _| id.0 < 2);
        let parts = m.parts();
        assert_eq!(parts.count, 2);
        assert_eq!(parts.part_of, [0, 0, 2, 0, 2].map(NodeId).to_vec());
        let parts = lone.parts();
        assert_eq!((parts.count, parts.unconnected.clone()), (3, vec![NodeId(2), NodeId(4)]));
    }
}
