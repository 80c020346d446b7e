//! Reading and writing model files: binary `.spring` and readable `.spring.json`.

pub mod binary;

pub mod json;
mod rig;

mod atomic;
mod flat;
mod records;
mod schema;

pub use atomic::{AtomicFile, write_atomic, write_atomic_with};

use crate::{CoreError, SpringModel, ValidModel};
use std::io::Read;
use std::path::Path;

/// The two model file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileFormat {
    /// `.spring`: a header, then the model as flat arrays and records.
    Binary,
    /// `.spring.json`: readable JSON.
    Json,
}

impl FileFormat {
    /// The format a file name asks for: JSON when it ends in `.json` (so `.spring.json`),
    /// binary otherwise.
    pub fn from_path(path: &Path) -> FileFormat {
        let is_json = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
        if is_json { FileFormat::Json } else { FileFormat::Binary }
    }

    /// The format of file contents: binary when they start with the `.spring` magic, JSON when
    /// the first non-blank byte is `{`, otherwise what the name says.
    pub fn sniff(bytes: &[u8], path: &Path) -> FileFormat {
        if bytes.starts_with(&binary::MAGIC) {
            return FileFormat::Binary;
        }
        match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
            Some(b'{') => FileFormat::Json,
            _ => FileFormat::from_path(path),
        }
    }
}

/// Encodes a model in `format`. `file` only names the target in errors.
pub fn encode(model: &SpringModel, format: FileFormat, file: &Path) -> Result<Vec<u8>, CoreError> {
    match format {
        FileFormat::Binary => binary::encode(model, file),
        FileFormat::Json => json::encode(model, file),
    }
}

/// Decodes and validates a model from a file's bytes, whichever of the two formats they are in.
/// `file` names the source in errors and breaks ties (see [`FileFormat::sniff`]).
pub fn decode(bytes: &[u8], file: &Path) -> Result<ValidModel, CoreError> {
    match FileFormat::sniff(bytes, file) {
        FileFormat::Binary => binary::decode(bytes, file),
        FileFormat::Json => json::decode(bytes, file),
    }
}

/// Loads and validates a `.spring` or `.spring.json` file. A binary file is read straight
/// into the model ([`binary::read`]), without a copy of the whole file in memory.
pub fn load(path: &Path) -> Result<ValidModel, CoreError> {
    let error = |cause| CoreError::Io { file: path.to_path_buf(), cause };
    let (mut file, len) = open_regular(path)?;
    let mut start = Vec::with_capacity(binary::MAGIC.len());
    (&mut file).take(binary::MAGIC.len() as u64).read_to_end(&mut start).map_err(error)?;
    if start == binary::MAGIC {
        return binary::read(start.chain(file), len, path);
    }
    let mut bytes = start;
    file.read_to_end(&mut bytes).map_err(error)?;
    decode(&bytes, path)
}

/// The bytes of the regular file `path`. Anything else is refused before it is opened: a
/// device such as `/dev/zero` would never end, a FIFO might never answer.
pub fn read_file(path: &Path) -> Result<Vec<u8>, CoreError> {
    let (mut file, len) = open_regular(path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.read_to_end(&mut bytes)
        .map_err(|cause| CoreError::Io { file: path.to_path_buf(), cause })?;
    Ok(bytes)
}

/// Opens the regular file `path` and tells its length; anything else is refused unopened.
fn open_regular(path: &Path) -> Result<(std::fs::File, u64), CoreError> {
    let error = |cause| CoreError::Io { file: path.to_path_buf(), cause };
    let metadata = std::fs::metadata(path).map_err(error)?;
    if !metadata.is_file() {
        let kind = if metadata.is_dir() { "a folder" } else { "not a regular file" };
        return Err(error(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("is {kind}"),
        )));
    }
    Ok((std::fs::File::open(path).map_err(error)?, metadata.len()))
}

/// Saves a valid model atomically, as JSON when `path` ends in `.json` and as binary `.spring`
/// otherwise.
pub fn save(model: &ValidModel, path: &Path) -> Result<(), CoreError> {
    let bytes = encode(model, FileFormat::from_path(path), path)?;
    write_atomic(path, &bytes)
}
