//! Solver throughput on the grid cloth of acceptance test 4 (structural, shear and skip-one
//! bend springs; two corners of one edge anchored; gravity; 1 kg nodes 5 cm apart).
//!
//! - `explicit/N`: one Explicit step (k = 1000 N/m, dt = 1/600 s, one sub-step), tethers off:
//!   the spring loop and integration that `shared/bench/massspring.c` times in plain C.
//!   Criterion's throughput is springs per second; ns per spring per step = 1e9 /
//!   throughput. `explicit/128-tethered`: the same with the default tethers.
//! - `xpbd/N`: one 60 Hz Xpbd frame with 5 sub-steps (k = 1e5 N/m), tethers on (the
//!   default); `xpbd/128-untethered`: the same without tethers, for their cost.
//!
//! - `parallel/explicit/128`, `parallel/xpbd/128`: the same at N = 128 with
//!   [`Threads::All`] (rayon's pool, one thread per core).
//!
//! Run with `cargo bench -p springmesh-core`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code: a failed expectation is a failed test.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{GridSprings, grid_cloth};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use springmesh_core::sim::Threads;
use springmesh_core::{Integrator, Simulation};

const SIZES: [usize; 3] = [32, 64, 128];

fn cloth(n: usize, integrator: Integrator, stiffness: f32, substeps: u32) -> Simulation {
    let mut model = grid_cloth(n, 0.05, 1.0, GridSprings { stiffness, damping: 0.0 });
    model.params.integrator = integrator;
    model.params.substeps = substeps;
    Simulation::new(
        &springmesh_core::ValidModel::new(model.clone()).expect("the grid cloth is valid"),
    )
}

fn explicit(c: &mut Criterion) {
    let mut group = c.benchmark_group("explicit");
    let dt = 1.0 / 600.0;
    for n in SIZES {
        let mut sim = cloth(n, Integrator::Explicit, 1000.0, 1);
        sim.params_mut().tethers = None;
        let springs = (2 * n * (n - 1) + 2 * (n - 1) * (n - 1) + 2 * n * (n - 2)) as u64;
        group.throughput(Throughput::Elements(springs));
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| sim.step(dt).expect("stable at this step"));
        });
    }
    let mut sim = cloth(128, Integrator::Explicit, 1000.0, 1);
    group.bench_function("128-tethered", |b| {
        b.iter(|| sim.step(dt).expect("stable at this step"));
    });
    group.finish();
}

fn xpbd(c: &mut Criterion) {
    let mut group = c.benchmark_group("xpbd");
    let dt = 1.0 / 60.0;
    for n in SIZES {
        let mut sim = cloth(n, Integrator::Xpbd, 1e5, 5);
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| sim.step(dt).expect("stable at this step"));
        });
    }
    let mut sim = cloth(128, Integrator::Xpbd, 1e5, 5);
    sim.params_mut().tethers = None;
    group.bench_function("128-untethered", |b| {
        b.iter(|| sim.step(dt).expect("stable at this step"));
    });
    group.finish();
}

fn parallel(c: &mut Criterion) {
    let mut group = c.benchmark_group("parallel");
    let mut sim = cloth(128, Integrator::Explicit, 1000.0, 1);
    sim.params_mut().tethers = None;
    sim.set_threads(Threads::All);
    group.bench_function("explicit/128", |b| b.iter(|| sim.step(1.0 / 600.0).expect("stable")));
    let mut sim = cloth(128, Integrator::Xpbd, 1e5, 5);
    sim.set_threads(Threads::All);
    group.bench_function("xpbd/128", |b| b.iter(|| sim.step(1.0 / 60.0).expect("stable")));
    group.finish();
}

criterion_group!(benches, explicit, xpbd, parallel);
criterion_main!(benches);
