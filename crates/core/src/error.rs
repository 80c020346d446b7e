//! The one error type of `springmesh-core`.

use crate::NodeId;
use crate::problems::Problems;
use std::path::PathBuf;

/// Everything that can go wrong in `springmesh-core`. Variants about a file carry the file's
/// path, and their message starts with it: `path: what is wrong`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CoreError {
    /// Reading or writing the file failed.
    #[error("{}: {cause}", file.display())]
    Io {
        /// The file.
        file: PathBuf,
        /// What the operating system said (part of the message, so not also a `source()`).
        cause: std::io::Error,
    },
    /// The file is shorter than the fixed `.spring` header.
    #[error("{}: not a .spring file: {found} bytes, shorter than the {expected}-byte header", file.display())]
    TooShort {
        /// The file.
        file: PathBuf,
        /// Header size in bytes.
        expected: usize,
        /// File size in bytes.
        found: usize,
    },
    /// The file does not start with the `.spring` magic bytes.
    #[error("{}: not a .spring file: it starts with {found:02x?}, expected {expected:02x?}", file.display())]
    BadMagic {
        /// The file.
        file: PathBuf,
        /// The magic bytes.
        expected: [u8; 8],
        /// The first bytes of the file.
        found: [u8; 8],
    },
    /// The file was written by a newer Springmesh.
    #[error("{}: file format version {found} is newer than this build supports (version {supported})", file.display())]
    NewerVersion {
        /// The file.
        file: PathBuf,
        /// Highest version this build reads.
        supported: u32,
        /// Version in the file.
        found: u32,
    },
    /// The header's version field is 0, which no writer produces.
    #[error("{}: file format version 0 is not a valid version", file.display())]
    ZeroVersion {
        /// The file.
        file: PathBuf,
    },
    /// The header's payload length does not match the bytes that follow it.
    #[error("{}: the header announces {expected} payload bytes but {found} follow it (truncated or padded file)", file.display())]
    LengthMismatch {
        /// The file.
        file: PathBuf,
        /// Payload length in the header.
        expected: u64,
        /// Bytes after the header.
        found: u64,
    },
    /// The payload's CRC-32 does not match the header's.
    #[error("{}: checksum mismatch (header CRC-32 {expected:08x}, payload CRC-32 {found:08x}): the file is corrupt", file.display())]
    Checksum {
        /// The file.
        file: PathBuf,
        /// CRC-32 in the header.
        expected: u32,
        /// CRC-32 of the payload.
        found: u32,
    },
    /// The binary payload is not a well-formed model.
    #[error("{}: cannot decode the model: {reason}", file.display())]
    Decode {
        /// The file.
        file: PathBuf,
        /// What the decoder said.
        reason: String,
    },
    /// The JSON text is not a well-formed model.
    #[error("{}:{line}:{column}: {reason}", file.display())]
    Json {
        /// The file.
        file: PathBuf,
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// What the parser said.
        reason: String,
    },
    /// The model could not be encoded.
    #[error("{}: cannot encode the model: {reason}", file.display())]
    Encode {
        /// The file.
        file: PathBuf,
        /// What the encoder said.
        reason: String,
    },
    /// The file decoded, but the model in it breaks the model's rules.
    #[error("{}: invalid model: {problems}", file.display())]
    InvalidFile {
        /// The file.
        file: PathBuf,
        /// Everything wrong with it.
        problems: Problems,
    },
    /// A model handed to the solver (or to be saved) breaks the model's rules.
    #[error("invalid model: {problems}")]
    InvalidModel {
        /// Everything wrong with it.
        problems: Problems,
    },
    /// A step would have produced a NaN or infinite position or velocity; it was rejected and
    /// the simulation kept the state from before it.
    #[error(
        "step rejected at t = {time:.4} s: node {node} would become non-finite (the springs are too stiff for this integrator and step; try xpbd or a smaller step)"
    )]
    NonFinite {
        /// The first node found with a non-finite value.
        node: NodeId,
        /// Simulated time (s) at the start of the rejected step.
        time: f64,
    },
    /// A node index passed to the simulation does not exist.
    #[error("node {node} does not exist (the model has {nodes} nodes)")]
    NoSuchNode {
        /// The index.
        node: NodeId,
        /// Number of nodes.
        nodes: usize,
    },
    /// A node passed as an anchor is not one.
    #[error("node {node} is not an anchor (the model has {nodes} nodes)")]
    NotAnchor {
        /// The node.
        node: NodeId,
        /// Number of nodes.
        nodes: usize,
    },
    /// A collider index passed to the simulation does not exist.
    #[error("collider {index} does not exist (the model has {count} colliders)")]
    NoSuchCollider {
        /// The index.
        index: usize,
        /// Number of the model's colliders.
        count: usize,
    },
    /// A collider cannot be moved to the shape asked.
    #[error("collider {index} cannot be moved there: {reason}")]
    BadCollider {
        /// The collider's index.
        index: usize,
        /// Why.
        reason: String,
    },
    /// A rigid body given to the simulation is not valid.
    #[error("rigid body {index} cannot be met: {reason}")]
    BadRigidBody {
        /// The body's index in the slice given.
        index: usize,
        /// Why.
        reason: String,
    },
    /// Rigid bodies were given to a simulation whose integrator does not meet them.
    #[error(
        "rigid bodies are met by the Xpbd integrator only (the model's parameters choose another)"
    )]
    RigidBodiesNeedXpbd,
    /// A pose with another number of joint matrices than the rig has joints (0 for a model
    /// without a rig).
    #[error("the pose has {found} joint matrices, but the model's rig has {expected} joints")]
    PoseJoints {
        /// The rig's joints.
        expected: usize,
        /// The matrices given.
        found: usize,
    },
    /// A pose whose joint matrix is not finite.
    #[error("the pose's matrix for joint {joint} is not finite")]
    NonFinitePose {
        /// The joint.
        joint: usize,
    },
    /// A pose that puts a joint further from the origin than a model's coordinates may be.
    #[error(
        "the pose puts joint {joint} {distance} m from the origin, beyond the ±{limit} m a model's \
         coordinates may reach"
    )]
    PoseOutOfBounds {
        /// The joint.
        joint: usize,
        /// Its largest coordinate's size (m).
        distance: f32,
        /// [`crate::model::MAX_COORDINATE`].
        limit: f32,
    },
    /// A step size that is not a finite number > 0.
    #[error("time step {dt} is not a finite number > 0")]
    BadTimeStep {
        /// The step.
        dt: f32,
    },
    /// A volume was asked of triangles that do not close one.
    #[error(
        "the surface is not closed: {open_edges} triangle edges are not shared by exactly two consistently wound triangles"
    )]
    OpenSurface {
        /// Directed edges without exactly one opposite partner (see `SpringModel::open_edges`).
        open_edges: usize,
    },
}
