//! The nodes of a model, one column per field.

use crate::NodeId;
use glam::Vec3;

/// One node as a record: its rest position (m) and its mass (kg).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node {
    /// Rest position in metres.
    pub position: Vec3,
    /// Mass in kilograms; must be > 0.
    pub mass: f32,
}

/// All nodes of a model, stored column-wise: `positions[i]` and `masses[i]` belong to node `i`.
///
/// The columns always have the same length; only methods of this type change that length.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Nodes {
    positions: Vec<Vec3>,
    masses: Vec<f32>,
}

impl Nodes {
    /// An empty node table with room for `n` nodes.
    pub fn with_capacity(n: usize) -> Self {
        Self { positions: Vec::with_capacity(n), masses: Vec::with_capacity(n) }
    }

    /// Nodes from their columns; `None` when the columns differ in length.
    pub(crate) fn from_columns(positions: Vec<Vec3>, masses: Vec<f32>) -> Option<Self> {
        (positions.len() == masses.len()).then_some(Self { positions, masses })
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// True when the model has no nodes.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Appends a node and returns its id.
    pub fn push(&mut self, node: Node) -> NodeId {
        let id = NodeId::from_index(self.len());
        self.positions.push(node.position);
        self.masses.push(node.mass);
        id
    }

    /// The node `id`, or `None` when out of range.
    pub fn get(&self, id: NodeId) -> Option<Node> {
        Some(Node {
            position: *self.positions.get(id.index())?,
            mass: *self.masses.get(id.index())?,
        })
    }

    /// Overwrites node `id`; returns `false` (and changes nothing) when out of range.
    pub fn set(&mut self, id: NodeId, node: Node) -> bool {
        match (self.positions.get_mut(id.index()), self.masses.get_mut(id.index())) {
            (Some(p), Some(m)) => {
                *p = node.position;
                *m = node.mass;
                true
            }
            _ => false,
        }
    }

    /// Inserts a node at `id`, shifting the later nodes up by one. `id` may equal `len()`.
    pub fn insert(&mut self, id: NodeId, node: Node) {
        let i = id.index().min(self.len());
        self.positions.insert(i, node.position);
        self.masses.insert(i, node.mass);
    }

    /// Removes node `id`, shifting the later nodes down by one; `None` when out of range.
    pub fn remove(&mut self, id: NodeId) -> Option<Node> {
        let node = self.get(id)?;
        self.positions.remove(id.index());
        self.masses.remove(id.index());
        Some(node)
    }

    /// Rest positions (m).
    pub fn positions(&self) -> &[Vec3] {
        &self.positions
    }

    /// Rest positions (m), writable in place.
    pub fn positions_mut(&mut self) -> &mut [Vec3] {
        &mut self.positions
    }

    /// Masses (kg).
    pub fn masses(&self) -> &[f32] {
        &self.masses
    }

    /// Masses (kg), writable in place.
    pub fn masses_mut(&mut self) -> &mut [f32] {
        &mut self.masses
    }

    /// The nodes as records, in index order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Node> + '_ {
        self.positions.iter().zip(&self.masses).map(|(&position, &mass)| Node { position, mass })
    }
}

impl FromIterator<Node> for Nodes {
    fn from_iter<I: IntoIterator<Item = Node>>(iter: I) -> Self {
        let mut nodes = Nodes::default();
        for node in iter {
            nodes.push(node);
        }
        nodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_stay_in_step() {
        let mut nodes: Nodes = (0..3)
            .map(|i| Node { position: Vec3::splat(i as f32), mass: 1.0 + i as f32 })
            .collect();
        assert_eq!(nodes.len(), 3);
        let removed = nodes.remove(NodeId(1));
        assert_eq!(removed.map(|n| n.mass), Some(2.0));
        assert_eq!(nodes.masses(), &[1.0, 3.0]);
        assert_eq!(nodes.positions()[1], Vec3::splat(2.0));
        nodes.insert(NodeId(1), Node { position: Vec3::ONE, mass: 2.0 });
        assert_eq!(nodes.masses(), &[1.0, 2.0, 3.0]);
        assert!(nodes.remove(NodeId(9)).is_none());
        assert!(!nodes.set(NodeId(3), Node { position: Vec3::ZERO, mass: 1.0 }));
    }
}
