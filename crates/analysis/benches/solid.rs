//! Solids (`--solid`): the fill of a 100k-triangle mesh, and a 60 Hz frame of filled models
//! resting on the ground, with their own default parameters, on one thread.
//!
//! - `fill/sphere_100k`: the solid stage alone (winding numbers, lattice, binding, material)
//!   on a UV sphere of 99,224 triangles; rayon's threads as set (`RAYON_NUM_THREADS=1` for one).
//! - `frame/sphere_3k`: one frame of a 2,927-vertex sphere, 1 m across, filled.
//! - `frame/blob`: one frame of `assets/meshes/blob.obj`'s blob (1,418 vertices), filled.
//!
//! The same sphere converted as a surface is in `frame.rs` (`frame/sphere_3k`).
//!
//! Before timing, the node and spring counts of each model with and without the fill are
//! printed, and for each timed frame the quality it buys: `check`'s gravity test, 5 s on the
//! ground judged at every frame (the worst shape error and when, the tilt).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Bench code.

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use springmesh_analysis::check::{CheckOptions, check};
use springmesh_convert::solid::{SolidOptions, fill};
use springmesh_convert::{ConvertOptions, MassMode, RawMesh, convert_mesh, shapes};
use springmesh_core::model::Ground;
use springmesh_core::{Simulation, SpringKind, SpringModel};
use std::path::Path;

fn convert(mesh: &RawMesh, solid: bool) -> SpringModel {
    let options = ConvertOptions {
        solid: solid.then(SolidOptions::default),
        bend: !solid,
        mass: MassMode::Density { density: 1000.0 },
        ..ConvertOptions::default()
    };
    convert_mesh(mesh.clone(), &options, Path::new("bench.obj"))
        .expect("converts")
        .model
        .into_inner()
}

fn counts(name: &str, mesh: &RawMesh) -> SpringModel {
    let surface = convert(mesh, false);
    let solid = convert(mesh, true);
    let interior = solid.springs.count_by_kind()[SpringKind::Interior as usize];
    println!(
        "{name}: {} triangles; surface only {} nodes, {} springs; solid {} nodes, {} springs ({interior} interior), {} sub-steps",
        mesh.triangles.len(),
        surface.nodes.len(),
        surface.springs.len(),
        solid.nodes.len(),
        solid.springs.len(),
        solid.params.substeps
    );
    solid
}

/// `model` on a ground just under it, after a second of settling.
fn resting(mut model: SpringModel) -> Simulation {
    model.params.ground = Some(Ground { height: model.ground_under(), ..Ground::default() });
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    for _ in 0..60 {
        sim.step(model.params.dt).expect("finite");
    }
    sim
}

fn bench(c: &mut Criterion) {
    let big = shapes::sphere(Vec3::ZERO, 0.5, 158, 316);
    counts("sphere_100k", &big);
    let mut group = c.benchmark_group("solid");
    group.sample_size(10);
    group.bench_function("fill/sphere_100k", |b| {
        b.iter(|| {
            fill(
                &big.positions,
                &big.triangles,
                &SolidOptions::default(),
                MassMode::Density { density: 1000.0 },
            )
            .expect("fills")
        })
    });
    for (name, mesh) in [
        ("frame/sphere_3k", shapes::sphere(Vec3::new(0.0, 0.5, 0.0), 0.5, 40, 75)),
        ("frame/blob", shapes::blob()),
    ] {
        let model = counts(name, &mesh);
        let report = check(&model, &CheckOptions::default()).expect("finite");
        let c = report.course;
        println!(
            "{name}: on the ground for 5 s, worst shape error {:.3}% of the diagonal at {:.2} s (end {:.3}%), tilt up to {:.1}°; {}",
            report.sag.error * 100.0,
            c.worst_at,
            c.end_error * 100.0,
            c.tilt_degrees,
            if report.stable { "stable" } else { "UNSTABLE" }
        );
        let dt = model.params.dt;
        let mut sim = resting(model);
        group.bench_function(name, |b| b.iter(|| sim.step(dt).expect("finite")));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
