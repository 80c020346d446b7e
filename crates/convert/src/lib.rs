//! # springmesh-convert
//!
//! Turns a modeller's mesh into a [`springmesh_core::SpringModel`]:
//!
//! ```text
//! import (OBJ via tobj, glTF/GLB via gltf)  →  scale  →  weld  →  topology  →  springs  →  vicinity
//!     →  solid fill (optional)  →  masses
//! ```
//!
//! - [`import`]: files into a [`RawMesh`] (triangles with uvs, quads remembered).
//! - [`weld`]: coincident vertices into one node, so uv seams do not tear the model.
//! - [`topology`] and [`springs`]: the exact counting rules for stretch, shear and bend springs.
//! - [`vicinity`]: springs between nearby nodes, found with a grid.
//! - [`solid`]: with `--solid`, a lattice of interior springs found by winding numbers, bound to
//!   the surface, with stiffness and masses from a material.
//! - [`masses`]: per node, or a total shared evenly or by area, or from a density.
//! - [`samples`]: the built-in models (string, cloth, jelly, balloon, flag).
//!
//! ```no_run
//! use springmesh_convert::{ConvertOptions, convert_file};
//! # fn main() -> Result<(), springmesh_convert::ConvertError> {
//! let conversion = convert_file("flag.obj".as_ref(), &ConvertOptions::default())?;
//! println!("{} nodes, {} springs", conversion.report.nodes, conversion.report.springs.total);
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs)]

mod assemble;
pub mod character;
mod error;
pub mod import;
pub mod keep;
mod limits;
pub mod masses;
mod mesh;
mod options;
pub mod painted;
mod pipeline;
mod report;
pub mod rigging;
pub mod samples;
pub mod shapes;
mod skinned;
pub mod solid;
pub mod springs;
pub mod topology;
pub mod vicinity;
pub mod weld;

pub use assemble::self_collision;
pub use error::ConvertError;
pub use import::{
    DEFAULT_MAX_TRIANGLES, ImportLimits, MAX_FACE_CORNERS, MAX_IMPLICIT_ELEMENTS, MeshFormat,
    in_isolated_parser,
};
pub use masses::MassMode;
pub use mesh::{RawMesh, Texture};
pub use options::{
    CharacterMeshes, ConvertOptions, DEFAULT_BEND, DEFAULT_NODE_MASS, DEFAULT_RELATIVE_WELD,
    DEFAULT_STRETCH, DEFAULT_VICINITY, SpringSettings, THICKNESS_PER_EDGE, Thickness,
};
pub use painted::PinColor;
pub use pipeline::{
    Control, Conversion, Stage, convert_file, convert_file_with, convert_mesh, convert_mesh_with,
};
pub use report::{ConvertReport, SolidReport, SpringCounts, Warning, WornReport};
pub use solid::SolidOptions;

/// The name of [`CharacterMeshes`] before 0.2, kept for one version.
#[deprecated(since = "0.2.0", note = "renamed `CharacterMeshes`")]
pub type Body = CharacterMeshes;
