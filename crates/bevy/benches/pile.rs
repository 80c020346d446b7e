//! The plugin's cost over the core on many bodies in one world: 16 blobs
//! (`assets/meshes/blob.obj` converted `--solid`) dropped in two layers of 2 × 4 onto the
//! ground, after 3 s of piling up; one 60 Hz frame of the whole pile (issue 42), the mean of
//! the same [`WINDOW`] frames for both: each run is set back to the settled pile every
//! [`WINDOW`] frames (untimed), so that the core and the app, which step the pile alike, time
//! the same work (a pile still settling takes fewer world steps as it calms: a run left to go
//! on would time later, calmer frames the faster it is).
//!
//! - `pile16/core_world` and `pile16/core_world_parallel`: `springmesh_core::World::step` of
//!   the same 16 bodies, on one thread and on rayon's pool.
//! - `pile16/app`: `App::update` of a headless app (`MinimalPlugins + AssetPlugin +
//!   TransformPlugin + SpringmeshPlugin`, a compute pool thread per core, meshes registered, so
//!   each body's mesh is rewritten too, as in a game that draws it) with the 16 bodies as
//!   `SoftBody` entities.
//!
//! Run with `cargo bench -p springmesh-bevy --bench pile`, and on one core with the bench
//! binary under `taskset -c 0` (filter `'pile16/app$|core_world$'`). The plugin's own cost is
//! app / core_world_parallel − 1 (one core: app / core_world − 1; target ≤ 0.15); the app's
//! speed-up on all cores is app on one core / app (target ≥ 1.5 on 2 cores).
#![allow(clippy::unwrap_used, clippy::expect_used)] // Bench code.

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use criterion::{Criterion, criterion_group, criterion_main};
use springmesh_bevy::{SoftBody, SoftBodyState, SpringModelAsset, SpringmeshPlugin};
use springmesh_convert::samples;
use springmesh_core::sim::Threads;
use springmesh_core::{Simulation, ValidModel, World};
use std::path::Path;
use std::time::{Duration, Instant};

const DT: f32 = 1.0 / 60.0;
const BODIES: usize = 16;
/// Frames of piling up before the measured ones.
const SETTLE: usize = 180;
/// Frames timed from the settled pile before it is set back to it.
const WINDOW: u64 = 60;

/// The 16 blobs, each placed where it starts: two layers of 2 × 4, the upper landing on the
/// lower's backs ([`samples::pile::pile`], as the core's pile bench).
fn blobs() -> Vec<ValidModel> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/meshes/blob.obj");
    let blob = samples::pile::solid(&path).unwrap();
    samples::pile::pile(&blob, BODIES, (4, 2))
}

/// The pile in the core's world, after [`SETTLE`] frames.
fn core_world(blobs: &[ValidModel], threads: Threads) -> World {
    let mut world = World::new();
    for body in blobs {
        world.add(body);
    }
    world.set_threads(threads);
    for _ in 0..SETTLE {
        world.step(DT).unwrap();
    }
    world
}

/// The pile as `SoftBody` entities of a headless app whose compute task pool has a thread per
/// core, after [`SETTLE`] frames. (Bevy's default gives the compute pool what the IO and async
/// pools leave, at least one thread each: on two cores, one thread, and the bodies would step
/// one after another; a game that steps its physics on every core gives the pool the cores.)
fn app(blobs: &[ValidModel]) -> App {
    let mut app = App::new();
    let mut pools = TaskPoolOptions::default();
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    (pools.compute.min_threads, pools.compute.max_threads) = (cores, cores);
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin { task_pool_options: pools }),
        AssetPlugin::default(),
        TransformPlugin,
        SpringmeshPlugin,
    ));
    app.init_asset::<Mesh>();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(DT)));
    let mut bodies = Vec::new();
    for model in blobs.iter().cloned() {
        let handle = app
            .world_mut()
            .resource_mut::<Assets<SpringModelAsset>>()
            .add(SpringModelAsset { model });
        bodies.push(app.world_mut().spawn(SoftBody::new(handle)).id());
    }
    while bodies.iter().any(|&b| app.world().get::<SoftBodyState>(b).is_none()) {
        app.update();
    }
    for _ in 0..SETTLE {
        app.update();
    }
    app
}

/// The time of `iters` frames stepped by `frame` from the settled pile, which `reset` puts
/// `pile` back to (untimed) before the first and every [`WINDOW`] frames.
fn windowed<T>(
    iters: u64,
    pile: &mut T,
    mut reset: impl FnMut(&mut T),
    mut frame: impl FnMut(&mut T),
) -> Duration {
    let mut total = Duration::ZERO;
    for i in 0..iters {
        if i % WINDOW == 0 {
            reset(pile);
        }
        let start = Instant::now();
        frame(pile);
        total += start.elapsed();
    }
    total
}

/// The app's bodies' simulations, in query order.
fn simulations(app: &mut App) -> Vec<Simulation> {
    let mut states = app.world_mut().query::<&SoftBodyState>();
    states.iter(app.world()).map(|s| s.simulation().clone()).collect()
}

/// Puts the app's bodies back to `sims` (as [`simulations`] gave them).
fn restore(app: &mut App, sims: &[Simulation]) {
    let mut states = app.world_mut().query::<&mut SoftBodyState>();
    for (mut state, sim) in states.iter_mut(app.world_mut()).zip(sims) {
        state.simulation_mut().clone_from(sim);
    }
}

fn bench(c: &mut Criterion) {
    let blobs = blobs();
    let mut group = c.benchmark_group("pile16");
    group.sample_size(10);
    for (name, threads) in [("core_world", Threads::One), ("core_world_parallel", Threads::All)] {
        let settled = core_world(&blobs, threads);
        let mut world = settled.clone();
        let steps: u32 = (0..WINDOW).map(|_| world.step(DT).unwrap().world_steps).sum();
        println!("{name}: {steps} world steps in the {WINDOW} frames timed");
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let reset = |w: &mut World| w.clone_from(&settled);
                windowed(iters, &mut world, reset, |w| drop(w.step(DT).unwrap()))
            });
        });
    }
    let mut game = app(&blobs);
    let settled = simulations(&mut game);
    // The app steps the pile as the core does: the same work in the frames timed.
    let mut world = core_world(&blobs, Threads::All);
    for _ in 0..WINDOW {
        game.update();
        world.step(DT).unwrap();
    }
    let apart = simulations(&mut game)
        .iter()
        .zip(world.bodies())
        .flat_map(|(sim, body)| {
            sim.positions().iter().zip(body.positions()).map(|(a, b)| a.distance(*b))
        })
        .fold(0.0f32, f32::max);
    println!("app: the pile after the {WINDOW} frames is within {apart:.1e} m of the core's");
    group.bench_function("app", |b| {
        b.iter_custom(|iters| {
            windowed(iters, &mut game, |app| restore(app, &settled), App::update)
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
