//! The readable `.spring.json` form: the same schema as the binary payload, as JSON.

use super::schema::ModelFile;
use crate::{CoreError, SpringModel, ValidModel};
use std::path::Path;

/// Encodes `model` as pretty-printed JSON. `file` only names the target in errors.
pub fn encode(model: &SpringModel, file: &Path) -> Result<Vec<u8>, CoreError> {
    let mut out = serde_json::to_vec_pretty(&ModelFile::from(model))
        .map_err(|e| CoreError::Encode { file: file.to_path_buf(), reason: e.to_string() })?;
    out.push(b'\n');
    Ok(out)
}

/// Decodes and validates a model from JSON text. Absent fields take their defaults; a spring
/// without `rest_length` rests at its nodes' distance. `file` only names the source in errors.
pub fn decode(text: &[u8], file: &Path) -> Result<ValidModel, CoreError> {
    let model_file: ModelFile = serde_json::from_slice(text).map_err(|e| CoreError::Json {
        file: file.to_path_buf(),
        line: e.line(),
        column: e.column(),
        reason: e.to_string(),
    })?;
    let model = SpringModel::from(model_file);
    model
        .validate()
        .map_err(|problems| CoreError::InvalidFile { file: file.to_path_buf(), problems })?;
    Ok(ValidModel::validated(model))
}
