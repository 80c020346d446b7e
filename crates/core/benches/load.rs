//! Loading at disk speed (issue 14): a 256 × 256 grid cloth (65,536 nodes, 390,150 springs,
//! 130,050 triangles; a sixth of a full Stanford dragon converted with bend springs).
//!
//! - `load/decode`: a `.spring` file's bytes, already in memory, to a validated model.
//! - `load/file`: the same from a file in the page cache ([`io::load`], which streams it).
//! - `load/compile`: a loaded model to a [`Simulation`] (solver order, faces; the model was
//!   validated once, when it was decoded).
//! - `load/validate`: one validation of the model: what `Simulation::new`, `io::save` and the
//!   end of a conversion each spent again before a model was validated once where it enters.
//!
//! Run with `cargo bench -p springmesh-core --bench load`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code: a failed expectation is a failed test.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{GridSprings, grid_cloth};
use criterion::{Criterion, criterion_group, criterion_main};
use springmesh_core::io::{self, FileFormat};
use springmesh_core::{Simulation, ValidModel};
use std::path::Path;

fn load(c: &mut Criterion) {
    let model = grid_cloth(256, 0.05, 0.001, GridSprings { stiffness: 1e4, damping: 0.05 });
    let name = Path::new("cloth.spring");
    let bytes = io::encode(&model, FileFormat::Binary, name).expect("encodes");
    let folder = std::env::temp_dir().join(format!("springmesh-load-bench-{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("temporary folder");
    let file = folder.join("cloth.spring");
    std::fs::write(&file, &bytes).expect("written");

    let mut group = c.benchmark_group("load");
    group.sample_size(20);
    group.bench_function("decode", |b| b.iter(|| io::decode(&bytes, name).expect("valid")));
    group.bench_function("file", |b| b.iter(|| io::load(&file).expect("valid")));
    group.bench_function("validate", |b| b.iter(|| model.validate().expect("valid")));
    let valid = ValidModel::new(model).expect("valid");
    group.bench_function("compile", |b| b.iter(|| Simulation::new(&valid)));
    group.finish();
    std::fs::remove_dir_all(&folder).ok();
}

criterion_group!(benches, load);
criterion_main!(benches);
