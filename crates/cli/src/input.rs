//! Opening what the commands are given: a model file, or a mesh to convert.

use anyhow::Result;
use springmesh_convert::{ConvertOptions, ConvertReport, MeshFormat, convert_file};
use springmesh_core::{ValidModel, io};
use std::path::Path;

/// A model, and the conversion report when it came from a mesh.
pub struct Opened {
    pub model: ValidModel,
    pub report: Option<ConvertReport>,
}

/// Loads a `.spring` / `.spring.json` model, or converts a mesh with `options`.
pub fn open(path: &Path, options: &ConvertOptions) -> Result<Opened> {
    if MeshFormat::is_mesh_path(path) {
        let c = convert_file(path, options)?;
        Ok(Opened { model: c.model, report: Some(c.report) })
    } else {
        Ok(Opened { model: io::load(path)?, report: None })
    }
}

/// Loads a model file (a mesh is converted with default options first).
pub fn model(path: &Path) -> Result<ValidModel> {
    Ok(open(path, &ConvertOptions::default())?.model)
}
