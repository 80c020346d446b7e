//! What avian's rigid bodies cost the soft side (issue 67, acceptance 3): 16 jellies (the
//! blob converted `--solid`, in two layers of 2 × 4 as the pile bench) and 16 avian boxes of
//! 0.3 m and 1 kg, one dropped onto each jelly, piled up for 3 s on avian's ground. Then, from
//! that heap, the soft side's frame (the time in [`SpringmeshSystems`] within avian's physics
//! steps: meeting the colliders, stepping the jellies, pushing the boxes) two ways:
//!
//! - `rigid`: as a game has it, the boxes avian's dynamic `RigidBody`s, met with their
//!   effective mass and pushed back;
//! - `fixed`: the same boxes where the heap left them, as the plugin's fixed `SoftCollider`
//!   boxes (no rigid body: the jellies meet them as the core's obstacles, nothing pushes
//!   back).
//!
//! Both are set back to the settled heap every [`WINDOW`] frames (untimed), and timed in turns,
//! a window each, for [`ROUNDS`] rounds: the median of the rounds' ratios rigid / fixed is
//! printed (target ≤ 1.2), with each way's median time a frame. Run with
//! `cargo bench -p springmesh-bevy --bench avian`, and on one core with the bench binary under
//! `taskset -c 0` (the app then has one compute thread).
#![allow(clippy::unwrap_used, clippy::expect_used)] // Bench code.

use avian3d::prelude::{
    AngularVelocity, Collider, LinearVelocity, Mass, PhysicsPlugins, PhysicsSchedule,
    PhysicsStepSystems, Position, RigidBody, Rotation,
};
mod common;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use criterion::{Criterion, criterion_group, criterion_main};
use springmesh_bevy::{SoftBodyState, SoftCollider, SpringmeshPlugin, SpringmeshSystems};
use springmesh_convert::samples;
use springmesh_convert::samples::pile::WINDOW;
use springmesh_core::{Simulation, ValidModel};
use std::path::Path;
use std::time::{Duration, Instant};

const DT: f32 = 1.0 / 60.0;
const BODIES: usize = 16;
/// Frames of piling up before the measured ones.
const SETTLE: usize = 180;
/// Rounds of the two ways, a window each.
const ROUNDS: usize = 15;
/// The boxes' half size (m).
const HALF: f32 = 0.15;

/// The soft side's time in the frames run since it was last taken.
#[derive(Resource, Default)]
struct SoftSide {
    began: Option<Instant>,
    spent: Duration,
}

fn begin(mut soft: ResMut<SoftSide>) {
    soft.began = Some(Instant::now());
}

fn end(mut soft: ResMut<SoftSide>) {
    if let Some(began) = soft.began.take() {
        soft.spent += began.elapsed();
    }
}

/// The jellies, without a ground of their own (avian's is the ground).
fn jellies() -> Vec<ValidModel> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/meshes/blob.obj");
    let blob = samples::pile::solid(&path).unwrap();
    let mut jellies = samples::pile::pile(&blob, BODIES, (4, 2));
    for jelly in &mut jellies {
        let mut params = jelly.params.clone();
        params.ground = None;
        jelly.set_params(params).unwrap();
    }
    jellies
}

/// A headless app with avian and the plugin, a compute thread per core, avian's ground, and
/// the soft side's timer around [`SpringmeshSystems`].
fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(common::compute_on_every_core()),
        AssetPlugin::default(),
        TransformPlugin,
        PhysicsPlugins::default(),
        SpringmeshPlugin,
    ));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(DT)));
    app.finish();
    app.cleanup();
    app.init_resource::<SoftSide>().add_systems(
        PhysicsSchedule,
        (
            begin.after(PhysicsStepSystems::First).before(SpringmeshSystems),
            end.after(SpringmeshSystems).before(PhysicsStepSystems::BroadPhase),
        ),
    );
    app.world_mut().spawn((RigidBody::Static, Collider::half_space(Vec3::Y)));
    app
}

/// The settled heap: each jelly's simulation and each box's pose.
struct Heap {
    jellies: Vec<Simulation>,
    boxes: Vec<(Vec3, Quat)>,
}

/// The heap as `rigid` boxes, piled up for [`SETTLE`] frames; the app, its jellies and boxes.
fn rigid(jellies: &[ValidModel]) -> (App, Vec<Entity>, Vec<Entity>) {
    let mut app = app();
    let bodies = common::spawn_started(&mut app, jellies);
    let mut boxes = Vec::new();
    for jelly in jellies {
        let bounds = jelly.bounding_box().unwrap();
        let (min, max) = (bounds.min, bounds.max);
        let at = Transform::from_xyz(0.5 * (min.x + max.x), max.y + 0.3, 0.5 * (min.z + max.z));
        let cube = (RigidBody::Dynamic, Collider::cuboid(2.0 * HALF, 2.0 * HALF, 2.0 * HALF));
        boxes.push(app.world_mut().spawn((cube, Mass(1.0), at)).id());
    }
    for _ in 0..SETTLE {
        app.update();
    }
    (app, bodies, boxes)
}

fn settled(app: &App, bodies: &[Entity], boxes: &[Entity]) -> Heap {
    let world = app.world();
    let jellies =
        bodies.iter().map(|&b| world.get::<SoftBodyState>(b).unwrap().simulation().clone());
    let boxes = boxes
        .iter()
        .map(|&b| (world.get::<Position>(b).unwrap().0, world.get::<Rotation>(b).unwrap().0));
    Heap { jellies: jellies.collect(), boxes: boxes.collect() }
}

/// Puts the jellies (and the boxes, when they are rigid bodies) back to `heap`.
fn reset(app: &mut App, bodies: &[Entity], boxes: &[Entity], heap: &Heap) {
    let world = app.world_mut();
    for (&b, sim) in bodies.iter().zip(&heap.jellies) {
        world.get_mut::<SoftBodyState>(b).unwrap().simulation_mut().clone_from(sim);
    }
    for (&b, &(at, turn)) in boxes.iter().zip(&heap.boxes) {
        let mut entity = world.entity_mut(b);
        if entity.contains::<RigidBody>() {
            entity.insert((
                Position(at),
                Rotation(turn),
                LinearVelocity::ZERO,
                AngularVelocity::ZERO,
            ));
        }
        entity.insert(Transform::from_translation(at).with_rotation(turn));
    }
}

/// The soft side's time a frame over one window from the heap.
fn window(app: &mut App, bodies: &[Entity], boxes: &[Entity], heap: &Heap) -> f64 {
    reset(app, bodies, boxes, heap);
    app.update();
    app.world_mut().resource_mut::<SoftSide>().spent = Duration::ZERO;
    for _ in 0..WINDOW {
        app.update();
    }
    app.world().resource::<SoftSide>().spent.as_secs_f64() / WINDOW as f64
}

fn bench(_: &mut Criterion) {
    let jellies = jellies();
    let (mut with_rigid, bodies, boxes) = rigid(&jellies);
    let heap = settled(&with_rigid, &bodies, &boxes);
    let mut with_fixed = app();
    let fixed_bodies = common::spawn_started(&mut with_fixed, &jellies);
    let fixed_boxes: Vec<Entity> = heap
        .boxes
        .iter()
        .map(|&(at, turn)| {
            let pose = Transform::from_translation(at).with_rotation(turn);
            with_fixed.world_mut().spawn((SoftCollider::cuboid(Vec3::splat(HALF)), pose)).id()
        })
        .collect();
    let low = heap.boxes.iter().map(|(at, _)| at.y).fold(f32::INFINITY, f32::min);
    println!("the heap after {SETTLE} frames: the lowest box's centre {low:.2} m above the ground");
    let (mut ratios, mut rigid_ms, mut fixed_ms) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let r = window(&mut with_rigid, &bodies, &boxes, &heap);
        let f = window(&mut with_fixed, &fixed_bodies, &fixed_boxes, &heap);
        ratios.push(r / f);
        rigid_ms.push(r * 1e3);
        fixed_ms.push(f * 1e3);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (ratio, r, f) = (median(&mut ratios), median(&mut rigid_ms), median(&mut fixed_ms));
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    println!(
        "soft side, {cores} compute threads, {ROUNDS} rounds of {WINDOW} frames: rigid {r:.2} ms, fixed \
         {f:.2} ms a frame (medians); rigid / fixed: median {ratio:.3}, from {:.3} to {:.3}",
        ratios[0],
        ratios[ratios.len() - 1]
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
