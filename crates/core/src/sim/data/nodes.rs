//! Per-node constants.

/// Per-node constants, indexed by node.
#[derive(Clone, Debug)]
pub(crate) struct NodeData {
    /// Mass m (kg).
    pub mass: Vec<f32>,
    /// Inverse mass w = 1/m (1/kg); 0 for anchored nodes, which no force moves.
    pub inv_mass: Vec<f32>,
    /// 1 for a free node, 0 for an anchored one: multiplies gravity.
    pub free: Vec<f32>,
}
