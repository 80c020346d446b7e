//! The one error type of `springmesh-convert`.

use std::path::PathBuf;

/// Everything that can stop a conversion. Variants about a file carry its path, and their
/// message starts with it: `path: what is wrong`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConvertError {
    /// Reading the file failed.
    #[error("{}: {cause}", file.display())]
    Io {
        /// The file.
        file: PathBuf,
        /// What the operating system said (part of the message, so not also a `source()`).
        cause: std::io::Error,
    },
    /// The file is not a mesh format Springmesh reads.
    #[error("{}: unknown mesh format (expected .obj, .gltf or .glb)", file.display())]
    UnknownFormat {
        /// The file.
        file: PathBuf,
    },
    /// The OBJ reader refused the file.
    #[error("{}: not a readable OBJ file: {reason}", file.display())]
    Obj {
        /// The file.
        file: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The glTF reader refused the file.
    #[error("{}: not a readable glTF file: {reason}", file.display())]
    Gltf {
        /// The file.
        file: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// `--clip` names no animation of the file.
    #[error("{}: no animation called \"{name}\" (the file's animations: {})", file.display(), if clips.is_empty() { "none".to_string() } else { clips.join(", ") })]
    NoSuchClip {
        /// The file.
        file: PathBuf,
        /// The name asked for.
        name: String,
        /// The names of its animations.
        clips: Vec<String>,
    },
    /// `--mesh` names no mesh of the file.
    #[error("{}: no mesh called \"{name}\" (the file's meshes by name: {})", file.display(), if meshes.is_empty() { "none".to_string() } else { meshes.join(", ") })]
    NoSuchMesh {
        /// The file.
        file: PathBuf,
        /// The name asked for.
        name: String,
        /// The names of the meshes it has (node names, or mesh names).
        meshes: Vec<String>,
    },
    /// The file's meshes are Draco-compressed.
    #[error(
        "{}: uses Draco mesh compression (KHR_draco_mesh_compression), which Springmesh cannot read: re-export without Draco",
        file.display()
    )]
    Draco {
        /// The file.
        file: PathBuf,
    },
    /// The file requires a glTF extension Springmesh does not implement.
    #[error("{}: requires the glTF extension {extension}, which Springmesh does not support", file.display())]
    UnsupportedExtension {
        /// The file.
        file: PathBuf,
        /// The extension's name.
        extension: String,
    },
    /// A glTF accessor does not fit its buffer or has an unusable type.
    #[error("{}: accessor {accessor}: {reason}", file.display())]
    Accessor {
        /// The file.
        file: PathBuf,
        /// Accessor index.
        accessor: usize,
        /// What is wrong.
        reason: String,
    },
    /// The file has nothing to make springs from.
    #[error("{}: no triangles to convert ({points} points, {lines} lines)", file.display())]
    NoTriangles {
        /// The file.
        file: PathBuf,
        /// Points skipped.
        points: usize,
        /// Lines skipped.
        lines: usize,
    },
    /// A vertex coordinate is NaN or infinite.
    #[error("{}: vertex {vertex} has a coordinate that is not a finite number", file.display())]
    NonFinite {
        /// The file.
        file: PathBuf,
        /// Vertex index in the file (counting from 0).
        vertex: usize,
    },
    /// A vertex lies farther from the origin than a model may (after `--scale`).
    #[error(
        "{}: vertex {vertex} is more than {limit} m from the origin (after scaling); a model must fit within ±{limit} m (a mesh in millimetres wants --scale 0.001)",
        file.display()
    )]
    FarVertex {
        /// The file.
        file: PathBuf,
        /// Vertex index in the file (counting from 0).
        vertex: usize,
        /// The limit (m): [`springmesh_core::model::MAX_COORDINATE`].
        limit: f32,
    },
    /// The conversion options are out of range.
    #[error("invalid conversion options: {reason}")]
    Options {
        /// What is wrong.
        reason: String,
    },
    /// The model would have more nodes or springs than a `u32` index holds.
    #[error("{}: too large: {what}", file.display())]
    TooLarge {
        /// The file.
        file: PathBuf,
        /// What overflowed.
        what: String,
    },
    /// A solid fill was asked of a surface that encloses no volume.
    #[error(
        "{}: the surface encloses no volume, so there is nothing to fill as a solid (it is flat, or open with no inside); convert it without --solid",
        file.display()
    )]
    NotSolid {
        /// The file.
        file: PathBuf,
    },
    /// The converted model broke a model rule (a bug of the converter; please report it).
    #[error("{}: the converted model is invalid: {problems}", file.display())]
    Invalid {
        /// The source.
        file: PathBuf,
        /// What is wrong with the model.
        problems: springmesh_core::model::Problems,
    },
    /// Simulating the model failed (it diverged, or its data is unusable).
    #[error("the model cannot be simulated: {0}")]
    Simulation(#[from] springmesh_core::CoreError),
    /// A conversion was cancelled through its [`crate::Control`].
    #[error("cancelled")]
    Cancelled,
}
