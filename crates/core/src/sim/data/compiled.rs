//! Everything a step reads and does not write, in one value: what [`crate::sim::compile`]
//! builds from a model.

use crate::model::Skin;
use crate::sim::data::{Anchors, NodeData, Posed, SpringData, SurfaceData, Tethers, TouchPoints};
use crate::{NodeId, SimParams};
use glam::Vec3A;

/// Everything a step reads and does not write.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    pub nodes: NodeData,
    pub springs: SpringData,
    pub anchors: Anchors,
    /// Each tethered node's nearest anchors and rest geodesic distances to them; `None` until
    /// needed (built when the parameters turn tethers on, again after springs break).
    pub tethers: Option<Tethers>,
    /// The model's triangles, reordered so that neighbours share no node ([`colour_faces`]).
    pub faces: Vec<[NodeId; 3]>,
    /// The triangles' edges, each once: what round colliders keep out
    /// ([`crate::sim::contacts::edges`]).
    pub edges: Vec<[u32; 2]>,
    /// Their rest lengths (m): what a worn cloth's strain is limited against
    /// ([`crate::sim::constraints::strain`]).
    pub edge_rest: Vec<f32>,
    pub surface: SurfaceData,
    /// The drawn surface over a cage, when the model has one.
    pub skin: Option<Skin>,
    /// The skin's points that collide instead of the cage's nodes.
    pub touch: Option<TouchPoints>,
    /// Each node's rest offset from the rest centre of mass: shape matching's q_i
    /// ([`crate::sim::forces::shape`]).
    pub shape: Vec<Vec3A>,
    pub params: SimParams,
    /// The skeleton the model is worn on and where its last pose puts the nodes.
    pub rig: Option<Posed>,
}
