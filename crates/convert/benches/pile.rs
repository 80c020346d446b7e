//! Many soft bodies in one world ([`springmesh_core::World`]): 32 blobs
//! (`assets/meshes/blob.obj` converted `--solid`: a 491-node cage under a 1,418-vertex skin,
//! 316 kg each) dropped in two layers of 4 × 4 onto the ground, the upper one shifted 0.3 m
//! so that it lands on the lower's backs, after 1.5, 3 and 4.5 s of piling up (printed: the
//! contacts and world steps of the next frame, and the fastest node); one 60 Hz frame of the
//! whole world, the bodies stepped on one thread (`pile/32_blobs`) and on all
//! (`pile/32_blobs_parallel`; issue 40: ≤ 5 ms on 2 cores, ≥ 1.6 × faster than on one), the
//! mean over the same [`samples::pile::WINDOW`] frames from each of those piles in turn
//! ([`samples::pile::windowed`]). Before them it prints the two timed in turns, window by
//! window, and their ratio (`same_sitting`): the figure to hold the ratio to.
//!
//! Run with `cargo bench -p springmesh-convert --bench pile`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Bench code.

use criterion::{Criterion, criterion_group, criterion_main};
use springmesh_convert::samples;
use springmesh_convert::samples::pile::{WINDOW, windowed};
use springmesh_core::World;
use springmesh_core::sim::Threads;
use std::path::Path;
use std::time::Duration;

/// The pile after 1.5, 3 and 4.5 s (stepped on all threads: a world steps to the same bits on
/// any number).
fn piles() -> Vec<World> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/meshes/blob.obj");
    let blob = samples::pile::solid(&path).expect("converts");
    let mut world = World::new();
    // Two layers of 4 × 4 ([`samples::pile::pile`]): the upper lands on the lower's backs.
    for body in samples::pile::pile(&blob, 32, (4, 4)) {
        world.add(&body);
    }
    world.set_threads(Threads::All);
    let mut piles = Vec::new();
    for at in WINDOWS_FROM {
        while world.time() < f64::from(at) - 1e-6 {
            world.step(1.0 / 60.0).expect("finite");
        }
        let fastest = world.bodies().iter().flat_map(|b| b.velocities().iter().map(|v| v.length()));
        let fastest = fastest.fold(0.0f32, f32::max);
        let report = world.clone().step(1.0 / 60.0).expect("finite");
        println!(
            "32 blobs after {at} s: the next frame {} contacts in {} world steps; fastest node {fastest:.3} m/s",
            report.contacts, report.world_steps,
        );
        piles.push(world.clone());
    }
    piles
}

/// When the timed windows start (s): the pile falling onto itself, settling, and nearly
/// settled; a pile is chaotic, so one window alone measures one chance state of it.
const WINDOWS_FROM: [f32; 3] = [1.5, 3.0, 4.5];

/// Rounds of [`same_sitting`].
const ROUNDS: usize = 30;

/// One thread against all, a window of each in turn from each pile in turn, [`ROUNDS`] times:
/// printed as the same-sitting ratio. Criterion times the two one after the other, seconds
/// apart, and this machine's speed drifts by a third over seconds (the seed loop's `naive`
/// went from 5.2 to 7.9 ns across one run of this benchmark), which its ratio takes in whole.
fn same_sitting(piles: &[World]) {
    let mut time = [Duration::ZERO; 2];
    for round in 0..ROUNDS {
        for (time, threads) in time.iter_mut().zip([Threads::One, Threads::All]) {
            let mut world = piles[round % piles.len()].clone();
            world.set_threads(threads);
            let frame = |w: &mut World| drop(w.step(1.0 / 60.0).expect("finite"));
            *time += windowed(WINDOW, &mut world, |_| (), frame);
        }
    }
    let [one, all] = time.map(|t| t.as_secs_f64() * 1e3 / (ROUNDS as f64 * WINDOW as f64));
    let faster = one / all;
    println!(
        "32 blobs, one thread and all in turns: {one:.2} and {all:.2} ms a frame, {faster:.2} ×"
    );
}

fn bench(c: &mut Criterion) {
    let piles = piles();
    same_sitting(&piles);
    let mut group = c.benchmark_group("pile");
    group.sample_size(15);
    for (name, threads) in [("32_blobs", Threads::One), ("32_blobs_parallel", Threads::All)] {
        let mut world = piles[0].clone();
        let mut next = 0;
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let reset = |w: &mut World| {
                    w.clone_from(&piles[next % piles.len()]);
                    w.set_threads(threads);
                    next += 1;
                };
                windowed(iters, &mut world, reset, |w| drop(w.step(1.0 / 60.0).expect("finite")))
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
