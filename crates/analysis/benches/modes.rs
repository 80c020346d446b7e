//! Vibration modes (`info`'s `modes_hz`, `tune --frequency`) of 50k-node models: the whole
//! of `modes_hz` for the six lowest, on all cores.
//!
//! - `modes/surface_50k`: a UV sphere 1 m across of 49,752 vertices (200 rings × 250
//!   segments) converted with the defaults (stretch and bend springs, 2 g a node):
//!   factorization and Lanczos.
//! - `modes/cloth_50k`: a flat 224 × 224 grid 1 m square (50,176 nodes) converted with the
//!   defaults: factorization and Lanczos through the mechanisms of a sheet at rest.
//! - `modes/solid_50k`: a 2,927-vertex sphere 1 m across filled (`--solid`, lattice spacing
//!   28.1 mm, density 1000 kg/m³): 50,110 nodes, shape matching on: LOBPCG.
//!
//! Before timing, each model's node and spring counts and its six frequencies are printed.
#![allow(clippy::unwrap_used, clippy::expect_used)] // Bench code.

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use springmesh_analysis::modes::{DEFAULT_MODES, modes_hz};
use springmesh_convert::samples::grid_mesh;
use springmesh_convert::solid::SolidOptions;
use springmesh_convert::{ConvertOptions, MassMode, RawMesh, convert_mesh, shapes};
use springmesh_core::SpringModel;
use std::path::Path;

fn convert(mesh: RawMesh, options: &ConvertOptions) -> SpringModel {
    convert_mesh(mesh, options, Path::new("bench.obj")).expect("converts").model.into_inner()
}

fn bench(c: &mut Criterion) {
    let centre = Vec3::new(0.0, 0.5, 0.0);
    let surface = convert(shapes::sphere(centre, 0.5, 200, 250), &ConvertOptions::default());
    let solid_options = ConvertOptions {
        solid: Some(SolidOptions {
            spacing: Some(0.0281),
            max_nodes: Some(60_000),
            ..SolidOptions::default()
        }),
        bend: false,
        mass: MassMode::Density { density: 1000.0 },
        ..ConvertOptions::default()
    };
    let solid = convert(shapes::sphere(centre, 0.5, 40, 75), &solid_options);
    let h = 1.0 / 224.0;
    let grid = grid_mesh(224, 224, Vec3::ZERO, Vec3::X * h, Vec3::Z * h);
    let cloth = convert(grid, &ConvertOptions::default());
    let mut group = c.benchmark_group("modes");
    group.sample_size(10);
    for (name, model) in [("surface_50k", surface), ("cloth_50k", cloth), ("solid_50k", solid)] {
        let hz = modes_hz(&model, DEFAULT_MODES, |_| {}).expect("modes");
        println!(
            "{name}: {} nodes, {} springs; modes {:.4?} Hz",
            model.nodes.len(),
            model.springs.len(),
            hz
        );
        group.bench_function(name, |b| b.iter(|| modes_hz(&model, DEFAULT_MODES, |_| {})));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
