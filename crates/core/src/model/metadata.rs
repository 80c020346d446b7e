//! Where a model came from.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Descriptive data about a model; the solver ignores it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Metadata {
    /// Display name.
    #[serde(deserialize_with = "crate::bounded::string")]
    pub name: String,
    /// The mesh file the model was converted from, if any.
    #[serde(deserialize_with = "crate::bounded::option_string")]
    pub source: Option<String>,
    /// The conversion options used, as option name → value (written by springmesh-convert).
    #[serde(deserialize_with = "crate::bounded::string_map")]
    pub conversion: BTreeMap<String, String>,
}
