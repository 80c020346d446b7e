//! The spring model: the authoring description that is converted, edited, saved and loaded.
//!
//! A [`SpringModel`] is plain data. It is never changed by simulating it: a
//! [`crate::Simulation`] is compiled from it and carries its own state.

mod buckets;
pub use buckets::Buckets;
pub(crate) mod closed;
pub(crate) mod environment;
mod faces;
#[cfg(test)]
pub(crate) mod fixtures;
mod metadata;
mod nodes;
pub mod painted;
mod params;
mod parts;
mod rig;
mod skin;
mod springs;
mod validate;

pub use environment::{AIR_DENSITY, Air, Ground, Obstacle, Pressure, Shape, Surface};
pub use faces::{Face, Faces};
pub use metadata::Metadata;
pub use nodes::{Node, Nodes};
pub use params::{
    DEFAULT_DAMPING, DEFAULT_DT, DEFAULT_NODE_RADIUS, DEFAULT_SELF_FRICTION, DEFAULT_SUBSTEPS,
    DEFAULT_TETHER_SLACK, Integrator, MAX_SUBSTEPS, STANDARD_GRAVITY, SelfCollision, ShapeMatching,
    SimParams, Tethers,
};
pub use parts::Parts;
pub use rig::{
    Backstop, Holds, Joint, JointCollider, KINEMATIC_DISTANCE, MAX_JOINT_NAME, MAX_JOINTS,
    RIG_WEIGHTS, Rig, blend, is_kinematic,
};
pub use skin::{SKIN_WEIGHT_TOLERANCE, SKIN_WEIGHTS, Skin, SkinVertex};
pub(crate) use springs::SpringColumns;
pub use springs::{Spring, SpringKind, Springs};
pub use validate::{MAX_COORDINATE, MAX_DT, MAX_LENGTH, MIN_DT, MIN_SUBSTEP, Problem, Problems};

use crate::NodeId;
use glam::{Vec2, Vec3};

/// A mass-spring model: nodes, springs between them, pinned nodes, the triangles that give it a
/// surface, and the parameters to simulate it with.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpringModel {
    /// Point masses.
    pub nodes: Nodes,
    /// Springs between pairs of nodes.
    pub springs: Springs,
    /// Pinned nodes: they stay at their anchor position (initially their rest position).
    pub anchors: Vec<NodeId>,
    /// Triangles, for drawing, normals, air and pressure.
    pub faces: Faces,
    /// Texture coordinates that face corners refer to, glTF's convention: (0, 0) is the
    /// top-left corner of the image and v grows downwards (the OBJ importer flips its v).
    pub uvs: Vec<Vec2>,
    /// How to simulate the model.
    pub params: SimParams,
    /// Where the model came from.
    pub metadata: Metadata,
    /// The surface drawn over a cage, when the nodes are a coarse cage rather than the mesh's
    /// own vertices ([`Skin`]).
    pub skin: Option<Skin>,
    /// The skeleton the model is worn on, and each node's binding to it ([`Rig`]).
    pub rig: Option<Rig>,
}

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Smallest corner.
    pub min: Vec3,
    /// Largest corner.
    pub max: Vec3,
}

impl Aabb {
    /// The smallest box holding every point; `None` for no points.
    pub fn from_points(points: &[Vec3]) -> Option<Aabb> {
        let first = *points.first()?;
        let (min, max) = points.iter().fold((first, first), |(lo, hi), &p| (lo.min(p), hi.max(p)));
        Some(Aabb { min, max })
    }

    /// Length of the diagonal (m).
    pub fn diagonal(&self) -> f32 {
        (self.max - self.min).length()
    }

    /// Centre point.
    pub fn center(&self) -> Vec3 {
        0.5 * (self.min + self.max)
    }
}

impl SpringModel {
    /// Bounding box of the rest positions; `None` for a model without nodes.
    pub fn bounding_box(&self) -> Option<Aabb> {
        Aabb::from_points(self.nodes.positions())
    }

    /// Sum of the node masses (kg).
    pub fn total_mass(&self) -> f64 {
        // Folding from +0.0: `sum` of no floats is -0.0, which prints as "-0".
        self.nodes.masses().iter().fold(0.0, |total, &m| total + f64::from(m))
    }

    /// Distance (m) between two nodes' rest positions; `None` when either index is out of range.
    pub fn distance(&self, a: NodeId, b: NodeId) -> Option<f32> {
        let p = self.nodes.positions();
        Some(p.get(a.index())?.distance(*p.get(b.index())?))
    }

    /// How many vertices the drawn surface has: the skin's, or the nodes themselves.
    pub fn surface_vertex_count(&self) -> usize {
        self.skin.as_ref().map_or(self.nodes.len(), Skin::len)
    }

    /// Rest positions of the drawn surface's vertices: the skin's, or the nodes'.
    pub fn surface_positions(&self) -> &[Vec3] {
        self.skin.as_ref().map_or(self.nodes.positions(), Skin::positions)
    }

    /// The height of a ground plane on which the model rests: the collision radius below its
    /// lowest node, or its lowest surface vertex for a cage (whose skin is what collides).
    pub fn ground_under(&self) -> f32 {
        let lowest = self.surface_positions().iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        let lowest = if lowest.is_finite() { lowest } else { 0.0 };
        lowest - self.params.node_radius.max(0.0)
    }

    /// The drawn surface's triangles, over its vertices: the skin's, or the model's faces.
    pub fn surface_faces(&self) -> &Faces {
        self.skin.as_ref().map_or(&self.faces, |s| &s.faces)
    }

    /// The texture coordinates the drawn surface's triangles refer to.
    pub fn surface_uvs(&self) -> &[Vec2] {
        self.skin.as_ref().map_or(&self.uvs, |s| &s.uvs)
    }

    /// True when node `id` is pinned.
    pub fn is_anchor(&self, id: NodeId) -> bool {
        self.anchors.contains(&id)
    }
}
