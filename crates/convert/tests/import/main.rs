//! Acceptance 2: every import case on small files the tests write themselves.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code.

mod builder;
mod gltf;
mod hostile;
#[path = "../../../core/tests/common/mutate.rs"]
mod mutate;
mod mutation;
mod obj;
mod painted;
mod rigs;
mod skins;

use springmesh_convert::{Conversion, ConvertError, ConvertOptions, convert_file};
use std::path::{Path, PathBuf};

/// A fresh directory for one test's files.
pub fn scratch(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("springmesh-import-{}", std::process::id())).join(test);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes `bytes` to `dir/name` and returns the path.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path
}

/// Converts with default options.
pub fn convert(path: &Path) -> Result<Conversion, ConvertError> {
    convert_file(path, &ConvertOptions::default())
}

/// Node positions of a conversion, sorted, rounded to 1e-4 for comparison.
pub fn sorted_positions(c: &Conversion) -> Vec<[i64; 3]> {
    let mut p: Vec<[i64; 3]> = c
        .model
        .nodes
        .positions()
        .iter()
        .map(|v| v.to_array().map(|x| (x * 1e4).round() as i64))
        .collect();
    p.sort();
    p
}
