//! Many soft bodies in one world ([`springmesh_core::World`]): 32 blobs
//! (`assets/meshes/blob.obj` converted `--solid`: a 491-node cage under a 1,418-vertex skin,
//! 316 kg each) dropped in two layers of 4 × 4 onto the ground, the upper one shifted 0.3 m
//! so that it lands on the lower's backs, after 3 s of piling up (printed: the contacts and
//! world steps of the last frame, and its fastest node); one 60 Hz frame of the whole world, the bodies
//! stepped on one thread (`pile/32_blobs`) and on all (`pile/32_blobs_parallel`; issue 40:
//! ≤ 5 ms on 2 cores, ≥ 1.6 × faster than on one), the mean of the same
//! [`samples::pile::WINDOW`] frames from the settled pile ([`samples::pile::windowed`]).
//!
//! Run with `cargo bench -p springmesh-convert --bench pile`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Bench code.

use criterion::{Criterion, criterion_group, criterion_main};
use springmesh_convert::samples;
use springmesh_convert::samples::pile::windowed;
use springmesh_core::World;
use springmesh_core::sim::Threads;
use std::path::Path;

/// The pile after 3 s, its bodies stepped on `threads`.
fn pile(threads: Threads) -> World {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/meshes/blob.obj");
    let blob = samples::pile::solid(&path).expect("converts");
    let mut world = World::new();
    // Two layers of 4 × 4 ([`samples::pile::pile`]): the upper lands on the lower's backs.
    for body in samples::pile::pile(&blob, 32, (4, 4)) {
        world.add(&body);
    }
    world.set_threads(threads);
    let mut contacts = 0;
    for _ in 0..180 {
        contacts = world.step(1.0 / 60.0).expect("finite").contacts;
    }
    let report = world.step(1.0 / 60.0).expect("finite");
    let fastest = world.bodies().iter().flat_map(|b| b.velocities().iter().map(|v| v.length()));
    println!(
        "32 blobs after 3 s: {contacts} contacts in the last frame, {} world steps, fastest node {:.3} m/s",
        report.world_steps,
        fastest.fold(0.0f32, f32::max)
    );
    world
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("pile");
    group.sample_size(10);
    for (name, threads) in [("32_blobs", Threads::One), ("32_blobs_parallel", Threads::All)] {
        let settled = pile(threads);
        let mut world = settled.clone();
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let reset = |w: &mut World| w.clone_from(&settled);
                windowed(iters, &mut world, reset, |w| drop(w.step(1.0 / 60.0).expect("finite")))
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
