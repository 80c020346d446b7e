//! Reading mesh files into a [`RawMesh`].

mod accessor;
pub mod animation;
mod gltf;
mod obj;
pub use crate::limits::{DEFAULT_MAX_TRIANGLES, ImportLimits, MAX_IMPLICIT_ELEMENTS};
pub use obj::MAX_FACE_CORNERS;
pub mod polygon;
mod reference;

use crate::ConvertError;
use crate::mesh::RawMesh;
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

/// The mesh formats Springmesh reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeshFormat {
    /// Wavefront `.obj`.
    Obj,
    /// glTF 2.0: `.gltf` (JSON) or `.glb` (binary).
    Gltf,
}

impl MeshFormat {
    /// The format of a file: GLB by its magic bytes, otherwise by extension.
    pub fn of(path: &Path, bytes: &[u8]) -> Option<MeshFormat> {
        if bytes.starts_with(b"glTF") {
            return Some(MeshFormat::Gltf);
        }
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "obj" => Some(MeshFormat::Obj),
            "gltf" | "glb" => Some(MeshFormat::Gltf),
            _ => None,
        }
    }

    /// True when `path` names a file of a mesh format (by extension).
    pub fn is_mesh_path(path: &Path) -> bool {
        Self::of(path, &[]).is_some()
    }
}

/// Reads the mesh file `path` (whose contents are `bytes`) within `limits`: all of it, or with
/// `only` the meshes of a glTF file whose node or mesh has that name (an OBJ file has none).
///
/// The third-party parsers run behind `catch_unwind`: should one of them panic on a file it
/// does not expect, the result is an error naming the file, not a crash.
pub fn read(
    path: &Path,
    bytes: &[u8],
    limits: &ImportLimits,
    (only, character): (Option<&str>, &crate::CharacterMeshes),
) -> Result<RawMesh, ConvertError> {
    let format = MeshFormat::of(path, bytes)
        .ok_or_else(|| ConvertError::UnknownFormat { file: path.to_path_buf() })?;
    let parse = AssertUnwindSafe(|| match format {
        MeshFormat::Obj => match only {
            Some(name) => Err(ConvertError::NoSuchMesh {
                file: path.to_path_buf(),
                name: name.to_string(),
                meshes: Vec::new(),
            }),
            None => obj::read(path, bytes, limits),
        },
        MeshFormat::Gltf => gltf::read(path, bytes, limits, (only, character)),
    });
    PARSING.set(true);
    let parsed = catch_unwind(parse);
    PARSING.set(false);
    parsed.unwrap_or_else(|_| {
        let reason = "the reader failed on this file (it is malformed)".to_string();
        Err(match format {
            MeshFormat::Obj => ConvertError::Obj { file: path.to_path_buf(), reason },
            MeshFormat::Gltf => ConvertError::Gltf { file: path.to_path_buf(), reason },
        })
    })
}

thread_local! {
    static PARSING: Cell<bool> = const { Cell::new(false) };
}

/// True on a thread inside [`read`]'s parsers, where a panic becomes an error naming the file:
/// a panic hook (the CLI's "internal error, please report it") should stay quiet there.
pub fn in_isolated_parser() -> bool {
    PARSING.get()
}
