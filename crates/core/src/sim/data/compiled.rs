//! Everything a step reads and does not write, in one value: what [`crate::sim::compile`]
//! builds from a model.
//!
//! A [`crate::Simulation`] goals it behind an `Arc`: its clones (a crowd of one cape) share
//! one copy, and each keeps only its own state, its [`super::Goals`] and its colliders'
//! places. The rare changes — parameters a game tunes, springs that break, tethers built for
//! new parameters — go through `Arc::make_mut`: the simulation that makes one gets its own
//! copy first, and the others never see it.

use crate::model::Skin;
use crate::sim::data::{Incidence, NodeData, Posed, SpringData, SurfaceData, Tethers, TouchPoints};
use crate::{NodeId, SimParams};
use glam::Vec3A;

/// Everything a step reads and does not write.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    pub nodes: NodeData,
    pub springs: SpringData,
    /// The anchored nodes (the order of [`super::Goals::anchors`]).
    pub anchors: Vec<u32>,
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
    /// Each node's edges, for a worn cloth: what its strain limit looks at again after it
    /// moves the node ([`crate::sim::constraints::strain`]).
    pub edges_at: Incidence,
    pub surface: SurfaceData,
    /// The drawn surface over a cage, when the model has one.
    pub skin: Option<Skin>,
    /// The skin's points that collide instead of the cage's nodes.
    pub touch: Option<TouchPoints>,
    /// Each node's rest offset from the rest centre of mass: shape matching's q_i
    /// ([`crate::sim::forces::shape`]).
    pub shape: Vec<Vec3A>,
    pub params: SimParams,
    /// The skeleton the model is worn on and the nodes it moves.
    pub rig: Option<Posed>,
}
