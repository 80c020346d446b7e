//! The plugin's cost over the bare core step: the 128 × 128 cloth of issue 28 (a grid mesh
//! with uvs converted with the default options: damped stretch and bend springs, Xpbd at 16
//! sub-steps, tethers on; two corners held), one 60 Hz frame each.
//!
//! - `plugin/core_step`: `Simulation::step(dt)`, nothing else.
//! - `plugin/hand_written_frame`: what a game would write without the plugin: the same
//!   headless app minus the plugin, one `PostUpdate` system stepping a `Simulation` kept in a
//!   resource (no mesh): the bare step where Bevy runs it, on its task pool.
//! - `plugin/app_frame`: `App::update` of a headless app (`MinimalPlugins + AssetPlugin +
//!   TransformPlugin + SpringmeshPlugin`, meshes registered) whose virtual clock advances
//!   `dt` per update: the body takes one step, then its mesh's positions and normals are
//!   rewritten, as in a game that draws it.
//! - `plugin/app_frame_single_threaded`: the same app with every schedule on Bevy's
//!   single-threaded executor: the plugin's own cost without the multi-threaded executor's
//!   (on a two-core machine its worker threads waking each frame slow the step itself).
//!
//! Run with `cargo bench -p springmesh-bevy --bench plugin`; the plugin's cost is app_frame /
//! hand_written_frame − 1 (and app_frame_single_threaded / core_step − 1 without the
//! executor).
#![allow(clippy::unwrap_used, clippy::expect_used)] // Bench code.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use criterion::{Criterion, criterion_group, criterion_main};
use springmesh_bevy::{SoftBody, SoftBodyState, SpringModelAsset, SpringmeshPlugin};
use springmesh_convert::samples::grid_mesh;
use springmesh_convert::{ConvertOptions, convert_mesh};
use springmesh_core::glam::Vec3 as CoreVec3;
use springmesh_core::{NodeId, Simulation, ValidModel};
use std::path::Path;
use std::time::Duration;

/// Nodes per side.
const N: usize = 128;

fn cloth() -> ValidModel {
    let spacing = 1.0 / (N - 1) as f32;
    let mesh = grid_mesh(
        N,
        N,
        CoreVec3::new(-0.5, 1.5, -0.5),
        CoreVec3::X * spacing,
        CoreVec3::Z * spacing,
    );
    let mut model =
        convert_mesh(mesh, &ConvertOptions::default(), Path::new("cloth.obj")).unwrap().model;
    model.anchor(NodeId(0)).unwrap();
    model.anchor(NodeId(N as u32 - 1)).unwrap();
    model
}

/// The simulation of the hand-written integration.
#[derive(Resource)]
struct Bare(Simulation);

fn bench(c: &mut Criterion) {
    let model = cloth();
    let dt = model.params.dt;
    let mut group = c.benchmark_group("plugin");
    group.sample_size(30);

    let mut sim = Simulation::new(&model);
    group.bench_function("core_step", |b| b.iter(|| sim.step(dt).unwrap()));

    let mut bare = App::new();
    bare.add_plugins((MinimalPlugins, AssetPlugin::default(), TransformPlugin));
    bare.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(dt)));
    bare.insert_resource(Bare(Simulation::new(&model)));
    bare.add_systems(PostUpdate, move |mut bare: ResMut<Bare>| {
        bare.0.step(dt).unwrap();
    });
    group.bench_function("hand_written_frame", |b| b.iter(|| bare.update()));

    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), TransformPlugin, SpringmeshPlugin));
    app.init_asset::<Mesh>();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(dt)));
    let handle =
        app.world_mut().resource_mut::<Assets<SpringModelAsset>>().add(SpringModelAsset { model });
    let body = app.world_mut().spawn(SoftBody::new(handle)).id();
    while app.world().get::<SoftBodyState>(body).is_none() {
        app.update();
    }
    group.bench_function("app_frame", |b| {
        b.iter(|| {
            app.update();
            assert_eq!(app.world().get::<SoftBodyState>(body).unwrap().steps_this_frame(), 1);
        })
    });
    for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
        schedule.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
    }
    group.bench_function("app_frame_single_threaded", |b| b.iter(|| app.update()));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
