//! The plugin's cost over the core on many bodies in one world: 16 blobs
//! (`assets/meshes/blob.obj` converted `--solid`) dropped in two layers of 2 × 4 onto the
//! ground, after 3 s of piling up; one 60 Hz frame of the whole pile (issue 42), the mean of
//! the same [`WINDOW`] frames for both: each run is set back to the settled pile every
//! [`WINDOW`] frames (untimed), so that the core and the app, which step the pile alike, time
//! the same work (a pile still settling takes fewer world steps as it calms: a run left to go
//! on would time later, calmer frames the faster it is).
//!
//! - `pile16/core_world` and `pile16/core_world_parallel`: `springmesh_core::World::step` of
//!   the same 16 bodies, on one thread and on rayon's pool; `pile16/core_world_drawn` and
//!   `pile16/core_world_drawn_parallel`: the same, and every body's drawn surface worked out
//!   (`Simulation::surface`: positions and normals), as a game drawing the pile with the core
//!   alone does each frame.
//! - `pile16/app`: `App::update` of a headless app (`MinimalPlugins + AssetPlugin +
//!   TransformPlugin + SpringmeshPlugin`, a compute pool thread per core, meshes registered, so
//!   each body's mesh is rewritten too, as in a game that draws it) with the 16 bodies as
//!   `SoftBody` entities; `pile16/app_undrawn`: the same app without meshes.
//!
//! Run with `cargo bench -p springmesh-bevy --bench pile`, and on one core with the bench
//! binary under `taskset -c 0`. The plugin's own cost (target ≤ 0.15) is app /
//! core_world_drawn_parallel − 1, and app_undrawn / core_world_parallel − 1 for the step alone
//! (one core: against core_world_drawn and core_world); the app's speed-up on all cores is app
//! on one core / app (target ≥ 1.5 on 2 cores).
#![allow(clippy::unwrap_used, clippy::expect_used)] // Bench code.

mod common;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use criterion::{Criterion, criterion_group, criterion_main};
use springmesh_bevy::{SoftBodyState, SpringmeshPlugin};
use springmesh_convert::samples;
use springmesh_convert::samples::pile::{WINDOW, windowed};
use springmesh_core::sim::{Pool, Threads};
use springmesh_core::{Simulation, ValidModel, World};
use std::path::Path;
use std::time::Duration;

const DT: f32 = 1.0 / 60.0;
const BODIES: usize = 16;
/// Frames of piling up before the measured ones.
const SETTLE: usize = 180;

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
/// core ([`common::compute_on_every_core`]), after [`SETTLE`] frames.
fn app(blobs: &[ValidModel], drawn: bool) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(common::compute_on_every_core()),
        AssetPlugin::default(),
        TransformPlugin,
        SpringmeshPlugin,
    ));
    if drawn {
        app.init_asset::<Mesh>();
    }
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(DT)));
    common::spawn_started(&mut app, blobs);
    for _ in 0..SETTLE {
        app.update();
    }
    app
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

/// Rounds of [`paired`].
const ROUNDS: usize = 15;

/// The app against the core's world on all threads, both drawn, window by window in turns
/// ([`ROUNDS`] of each): on a machine whose speed drifts (a shared one), each round's two
/// windows see the same drift, so the median of the rounds' ratios is the plugin's own cost
/// with less noise than two runs apart. Printed.
fn paired(blobs: &[ValidModel]) {
    let (mut game, settled_world) = (app(blobs, true), core_world(blobs, Threads::All));
    let settled = simulations(&mut game);
    let mut world = settled_world.clone();
    let mut ratios = Vec::new();
    let mut times = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let reset = |w: &mut World| w.clone_from(&settled_world);
        let core = windowed(WINDOW, &mut world, reset, |w| frame(w, Threads::All, true));
        let app = windowed(WINDOW, &mut game, |app| restore(app, &settled), App::update);
        ratios.push(app.as_secs_f64() / core.as_secs_f64());
        times.0.push(core.as_secs_f64() * 1e3 / WINDOW as f64);
        times.1.push(app.as_secs_f64() * 1e3 / WINDOW as f64);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (ratio, core, app) = (median(&mut ratios), median(&mut times.0), median(&mut times.1));
    println!(
        "paired, {ROUNDS} rounds of {WINDOW} frames: core drawn {core:.2} ms, app {app:.2} ms a \
         frame (medians); app / core: median {ratio:.3}, from {:.3} to {:.3}",
        ratios[0],
        ratios[ratios.len() - 1]
    );
}

/// One frame of the core's world, and its bodies' drawn surfaces when `drawn`.
fn frame(world: &mut World, threads: Threads, drawn: bool) {
    world.step(DT).unwrap();
    if drawn {
        let bodies = world.bodies();
        let surfaces = threads.map(bodies.len(), |i| {
            let (mut positions, mut normals) = (Vec::new(), Vec::new());
            bodies[i].surface(&mut positions, &mut normals);
            (positions, normals)
        });
        drop(surfaces);
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
        for drawn in [false, true] {
            let name = if drawn { name.replace("world", "world_drawn") } else { name.into() };
            group.bench_function(name, |b| {
                b.iter_custom(|iters| {
                    let reset = |w: &mut World| w.clone_from(&settled);
                    windowed(iters, &mut world, reset, |w| frame(w, threads, drawn))
                });
            });
        }
    }
    paired(&blobs);
    for (name, drawn) in [("app", true), ("app_undrawn", false)] {
        let mut game = app(&blobs, drawn);
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
        println!(
            "{name}: the pile after the {WINDOW} frames is within {apart:.1e} m of the core's"
        );
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                windowed(iters, &mut game, |app| restore(app, &settled), App::update)
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
