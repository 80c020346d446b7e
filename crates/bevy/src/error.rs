use springmesh_core::CoreError;
use std::path::PathBuf;

/// Why a model could not be loaded or played.
#[derive(Debug, thiserror::Error)]
pub enum SpringmeshBevyError {
    /// The asset's bytes could not be read.
    #[error("cannot read {file}: {cause}")]
    Read {
        /// The asset's path.
        file: PathBuf,
        /// What the reader said.
        cause: std::io::Error,
    },
    /// The bytes are not a valid model, or the model cannot be simulated; the core error names
    /// the file and the reason.
    #[error(transparent)]
    Model(#[from] CoreError),
}
