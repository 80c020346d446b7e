//! What can be wrong with a model: each [`Problem`] names the element it is in, and
//! [`Problems`] lists every one that validation ([`crate::model::SpringModel::validate`])
//! finds; with the documented limits they refer to. Below the model and the crate's error,
//! which both name them.

use crate::{FaceId, NodeId, SpringId};
pub use limits::{MAX_COORDINATE, MAX_DT, MAX_LENGTH, MIN_DT, MIN_SUBSTEP};
use std::fmt;

/// The documented limits (docs/file-format.md, "Validity").
mod limits {
    /// Largest |coordinate| of a node's rest position (m): a thousand kilometres, where an f32
    /// still resolves 6 cm.
    pub const MAX_COORDINATE: f32 = 1e6;
    /// Largest rest length or break limit (m): the longest distance between two nodes within
    /// [`MAX_COORDINATE`], rounded up.
    pub const MAX_LENGTH: f32 = 4e6;
    /// Shortest frame step (s): a microsecond. Shorter ones make a second of simulated time
    /// take millions of steps.
    pub const MIN_DT: f32 = 1e-6;
    /// Longest frame step (s).
    pub const MAX_DT: f32 = 1.0;
    /// Shortest sub-step, `dt / substeps` (s): a microsecond too. Without it a model of
    /// `dt` = 1e-6 s and 10,000 sub-steps asks `check` (5 s of simulated time) for 5·10¹⁰
    /// sub-steps; the shortest any real model needs is tens of microseconds.
    pub const MIN_SUBSTEP: f32 = 1e-6;
}

/// One thing wrong with a model, naming the element it is in.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// A node position has a NaN or infinite coordinate.
    NonFinitePosition {
        /// The node.
        node: NodeId,
    },
    /// A node's rest position is farther than [`MAX_COORDINATE`] from the origin along an axis.
    FarPosition {
        /// The node.
        node: NodeId,
    },
    /// A node mass is not a finite number > 0.
    BadMass {
        /// The node.
        node: NodeId,
        /// Its mass.
        mass: f32,
    },
    /// A spring end names a node that does not exist.
    SpringEndOutOfRange {
        /// The spring.
        spring: SpringId,
        /// The end it names.
        node: NodeId,
        /// How many nodes the model has.
        nodes: usize,
    },
    /// Both ends of a spring are the same node.
    SpringToItself {
        /// The spring.
        spring: SpringId,
        /// The node at both ends.
        node: NodeId,
    },
    /// A spring number is NaN or infinite, or negative where it must not be.
    BadSpringValue {
        /// The spring.
        spring: SpringId,
        /// Which field (`rest_length`, `stiffness`, `damping`, `break_min`, `break_max`).
        field: &'static str,
        /// Its value.
        value: f32,
    },
    /// A spring's rest length or break limit is longer than [`MAX_LENGTH`].
    LongSpringValue {
        /// The spring.
        spring: SpringId,
        /// Which field (`rest_length`, `break_min`, `break_max`).
        field: &'static str,
        /// Its value.
        value: f32,
    },
    /// A spring breaks when shorter than a length above the one it breaks longer than.
    CrossedBreakLimits {
        /// The spring.
        spring: SpringId,
        /// Its `break_min`.
        min: f32,
        /// Its `break_max`.
        max: f32,
    },
    /// A second spring joins a pair of nodes that an earlier spring already joins.
    DuplicateSpring {
        /// The later spring.
        spring: SpringId,
        /// The earlier spring between the same nodes.
        first: SpringId,
    },
    /// An anchor names a node that does not exist.
    AnchorOutOfRange {
        /// Position in the anchor list.
        anchor: usize,
        /// The node it names.
        node: NodeId,
        /// How many nodes the model has.
        nodes: usize,
    },
    /// A node is listed as an anchor twice.
    DuplicateAnchor {
        /// Position in the anchor list of the second mention.
        anchor: usize,
        /// The node.
        node: NodeId,
    },
    /// A triangle corner names a node that does not exist.
    FaceNodeOutOfRange {
        /// The triangle.
        face: FaceId,
        /// The node it names.
        node: NodeId,
        /// How many nodes the model has.
        nodes: usize,
    },
    /// Two corners of a triangle are the same node.
    DegenerateFace {
        /// The triangle.
        face: FaceId,
    },
    /// A triangle corner names a texture coordinate that does not exist.
    FaceUvOutOfRange {
        /// The triangle.
        face: FaceId,
        /// The uv index it names.
        uv: u32,
        /// How many uvs the model has.
        uvs: usize,
    },
    /// A texture coordinate is NaN or infinite.
    NonFiniteUv {
        /// Index in the uv table.
        uv: usize,
    },
    /// A simulation parameter is out of its range.
    BadParam {
        /// Parameter name as in the file (`dt`, `air.density`, `colliders[2].radius`, ...).
        name: String,
        /// What it must be.
        expected: &'static str,
    },
    /// A skin vertex's rest position is not finite, or farther than [`MAX_COORDINATE`] from
    /// the origin along an axis.
    BadSkinPosition {
        /// The skin vertex.
        vertex: usize,
    },
    /// A skin vertex rides on a node that does not exist.
    SkinNodeOutOfRange {
        /// The skin vertex.
        vertex: usize,
        /// The node it names.
        node: NodeId,
        /// How many nodes the model has.
        nodes: usize,
    },
    /// A skin vertex's weights are not finite and ≥ 0, or do not sum to one (within
    /// [`crate::model::SKIN_WEIGHT_TOLERANCE`]).
    BadSkinWeights {
        /// The skin vertex.
        vertex: usize,
        /// The sum of its weights.
        sum: f32,
    },
    /// A skin triangle's corner names a skin vertex that does not exist.
    SkinFaceOutOfRange {
        /// The skin triangle.
        face: FaceId,
        /// The vertex it names.
        vertex: u32,
        /// How many vertices the skin has.
        vertices: usize,
    },
    /// A skin triangle's corner names a texture coordinate the skin does not have, or a skin
    /// uv is not finite.
    BadSkinUv {
        /// The skin triangle, or `None` for a uv that is not finite.
        face: Option<FaceId>,
        /// The uv index.
        uv: u32,
    },
    /// The rig breaks its rules ([`crate::model::Rig`]): the reason names the joint or node.
    BadRig {
        /// What is wrong, e.g. "joint 3 (Spine): parent 5 is not before it".
        reason: String,
    },
    /// Pressure is set but the triangles do not close a volume.
    PressureOnOpenSurface {
        /// Open directed edges (see [`crate::SpringModel::open_edges`]).
        open_edges: usize,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NonFinitePosition { node } => {
                write!(f, "node {node}: position is not finite")
            }
            Problem::FarPosition { node } => {
                write!(f, "node {node}: position is more than {MAX_COORDINATE} m from the origin")
            }
            Problem::BadMass { node, mass } => {
                write!(f, "node {node}: mass {mass} is not a finite number > 0")
            }
            Problem::SpringEndOutOfRange { spring, node, nodes } => write!(
                f,
                "spring {spring}: node index {node} out of range (the model has {nodes} nodes)"
            ),
            Problem::SpringToItself { spring, node } => {
                write!(f, "spring {spring}: both ends are node {node}")
            }
            Problem::BadSpringValue { spring, field, value } => {
                write!(f, "spring {spring}: {field} {value} is not a finite number ≥ 0")
            }
            Problem::LongSpringValue { spring, field, value } => {
                write!(f, "spring {spring}: {field} {value} m is longer than {MAX_LENGTH} m")
            }
            Problem::CrossedBreakLimits { spring, min, max } => write!(
                f,
                "spring {spring}: break_min {min} is above break_max {max} (it would break at any length)"
            ),
            Problem::DuplicateSpring { spring, first } => {
                write!(f, "spring {spring}: joins the same two nodes as spring {first}")
            }
            Problem::AnchorOutOfRange { anchor, node, nodes } => write!(
                f,
                "anchor {anchor}: node index {node} out of range (the model has {nodes} nodes)"
            ),
            Problem::DuplicateAnchor { anchor, node } => {
                write!(f, "anchor {anchor}: node {node} is already an anchor")
            }
            Problem::FaceNodeOutOfRange { face, node, nodes } => write!(
                f,
                "face {face}: node index {node} out of range (the model has {nodes} nodes)"
            ),
            Problem::DegenerateFace { face } => {
                write!(f, "face {face}: two corners are the same node")
            }
            Problem::FaceUvOutOfRange { face, uv, uvs } => {
                write!(f, "face {face}: uv index {uv} out of range (the model has {uvs} uvs)")
            }
            Problem::NonFiniteUv { uv } => write!(f, "uv {uv}: not finite"),
            Problem::BadParam { name, expected } => {
                write!(f, "params: {name} must be {expected}")
            }
            Problem::BadSkinPosition { vertex } => write!(
                f,
                "skin vertex {vertex}: position is not finite or more than {MAX_COORDINATE} m from the origin"
            ),
            Problem::SkinNodeOutOfRange { vertex, node, nodes } => write!(
                f,
                "skin vertex {vertex}: node index {node} out of range (the model has {nodes} nodes)"
            ),
            Problem::BadSkinWeights { vertex, sum } => write!(
                f,
                "skin vertex {vertex}: weights must be finite, ≥ 0 and sum to 1 (they sum to {sum})"
            ),
            Problem::SkinFaceOutOfRange { face, vertex, vertices } => write!(
                f,
                "skin face {face}: vertex index {vertex} out of range (the skin has {vertices} vertices)"
            ),
            Problem::BadSkinUv { face: Some(face), uv } => {
                write!(f, "skin face {face}: uv index {uv} out of range")
            }
            Problem::BadSkinUv { face: None, uv } => write!(f, "skin uv {uv}: not finite"),
            Problem::BadRig { reason } => write!(f, "rig: {reason}"),
            Problem::PressureOnOpenSurface { open_edges } => write!(
                f,
                "params: pressure needs a closed surface, but {open_edges} triangle edges are open"
            ),
        }
    }
}

/// Every problem found in a model, in the order: nodes, springs, anchors, faces, uvs, skin,
/// params.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Problems(pub Vec<Problem>);

/// How many problems [`Problems`]' `Display` lists before summarising the rest.
const SHOWN: usize = 8;

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        if n != 1 {
            write!(f, "{n} problems: ")?;
        }
        for (i, p) in self.0.iter().take(SHOWN).enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        if n > SHOWN {
            write!(f, "; and {} more", n - SHOWN)?;
        }
        Ok(())
    }
}
