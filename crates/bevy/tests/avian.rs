//! Soft bodies among avian's rigid bodies (the `avian` feature), in a headless app with
//! avian's own plugins and nothing else of ours (`MinimalPlugins + AssetPlugin +
//! TransformPlugin + PhysicsPlugins + SpringmeshPlugin`): the rigid bodies are avian's
//! `RigidBody` and `Collider` only, the ground an avian half-space. Judged at every frame,
//! and against the same run with the soft bodies' impulses taken back off the rigid body
//! before avian's solver moves it, which must fail:
//!
//! - a 1 kg box dropped on a resting jelly comes to rest on it, no corner 1 cm inside;
//! - a ball thrown at a hanging cloth is caught and slowed, no node inside it;
//! - a sensor box, and a box on a layer the jelly's `CollisionLayers` do not meet, fall
//!   through the jelly;
//! - a jelly dropped on a static triangle mesh (a ramp of two triangles) stays on it, never
//!   1 cm through (against: without the ramp, it falls).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code.

use avian3d::prelude::{
    Collider, CollisionLayers, LayerMask, LinearVelocity, Mass, PhysicsPlugins, PhysicsSchedule,
    PhysicsStepSystems, RigidBody, Sensor,
};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use springmesh_bevy::{
    SoftBody, SoftBodyState, SpringModelAsset, SpringmeshPlugin, SpringmeshSystems,
};
use springmesh_convert::{ConvertOptions, MassMode, convert_mesh, samples, shapes};
use springmesh_core::depth::deepest_inside;
use springmesh_core::glam;
use springmesh_core::{Integrator, NodeId, Simulation, ValidModel};
use std::path::Path;
use std::time::Duration;

const DT: f32 = 1.0 / 60.0;

/// Marks a rigid body whose velocity the soft bodies must not change (the failing run).
#[derive(Component)]
struct Unpushed;

/// The unpushed bodies' velocities when the physics step began.
#[derive(Resource, Default)]
struct Held(Vec<(Entity, Vec3)>);

fn hold(mut held: ResMut<Held>, bodies: Query<(Entity, &LinearVelocity), With<Unpushed>>) {
    held.0 = bodies.iter().map(|(e, v)| (e, v.0)).collect();
}

fn restore(held: Res<Held>, mut bodies: Query<&mut LinearVelocity, With<Unpushed>>) {
    for &(e, v) in &held.0 {
        if let Ok(mut now) = bodies.get_mut(e) {
            now.0 = v;
        }
    }
}

/// A headless app whose frames are `DT` long, with avian at its default 64 Hz; when
/// `unpushed`, the soft bodies' impulses on [`Unpushed`] bodies are undone before avian moves
/// them.
fn app(unpushed: bool) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        TransformPlugin,
        PhysicsPlugins::default(),
        SpringmeshPlugin,
    ));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(DT)));
    // What `App::run` does first, and a test that updates by hand must: the plugins finish
    // (avian's and ours, which then steps the soft bodies in avian's schedule).
    app.finish();
    app.cleanup();
    if unpushed {
        app.init_resource::<Held>().add_systems(
            PhysicsSchedule,
            (
                hold.before(PhysicsStepSystems::First),
                restore.after(SpringmeshSystems).before(PhysicsStepSystems::BroadPhase),
            ),
        );
    }
    app
}

/// Spawns a soft body of `model` and updates until it has started.
fn spawn(app: &mut App, model: ValidModel) -> Entity {
    let handle =
        app.world_mut().resource_mut::<Assets<SpringModelAsset>>().add(SpringModelAsset { model });
    let body = app.world_mut().spawn(SoftBody::new(handle)).id();
    for _ in 0..100 {
        app.update();
        if app.world().get::<SoftBodyState>(body).is_some() {
            return body;
        }
    }
    panic!("the body never started");
}

fn sim(app: &App, body: Entity) -> &Simulation {
    app.world().get::<SoftBodyState>(body).unwrap().simulation()
}

/// The blob converted as a solid, its lowest drawn point `lowest` m over the origin, without
/// a ground of its own.
fn jelly(lowest: f32) -> ValidModel {
    let options = samples::pile::solid_options();
    let mut model =
        convert_mesh(shapes::blob(), &options, Path::new("blob.obj")).expect("converts").model;
    let mut drawn = Vec::new();
    Simulation::new(&model).surface_positions(&mut drawn);
    let low = drawn.iter().map(|p| p.y).fold(f32::MAX, f32::min);
    model.place(glam::Quat::IDENTITY, glam::Vec3::Y * (lowest - low)).expect("moved");
    let mut params = model.params.clone();
    params.ground = None;
    model.set_params(params).expect("no ground");
    model
}

/// A 1 kg box of 0.2 m dropped from 0.4 m above the back of a resting jelly (the blob
/// converted as a solid, without a ground of its own) on avian's ground, for 3 s: the deepest
/// a corner of the box got inside the jelly's drawn surface, and the box's and the jelly's
/// fastest over the last second (the box's move in a frame: its `LinearVelocity` at the end of
/// a physics step reads what the solver's gravity added after the step's contact impulses,
/// about half of g Δt at rest; the jelly's fastest node).
/// How the box is dropped.
#[derive(Clone, Copy, PartialEq)]
enum Dropped {
    /// As a game does.
    Pushed,
    /// Its impulses undone before avian moves it.
    Unpushed,
    /// A sensor, which nothing meets.
    Sensor,
    /// On a layer the jelly's layers do not interact with.
    OtherLayer,
}

fn dropped_on_a_jelly(how: Dropped) -> (f32, f32, f32) {
    let model = jelly(0.0);
    let mut drawn = Vec::new();
    let mut app = app(how == Dropped::Unpushed);
    app.world_mut().spawn((RigidBody::Static, Collider::half_space(Vec3::Y)));
    let jelly = spawn(&mut app, model);
    let (box_layer, jelly_layer) = (LayerMask(1 << 1), LayerMask(1 << 2));
    app.world_mut().entity_mut(jelly).insert(CollisionLayers::new(jelly_layer, LayerMask::ALL));
    let faces: Vec<[usize; 3]> =
        sim(&app, jelly).surface_faces().iter().map(|f| f.map(|n| n.index())).collect();
    sim(&app, jelly).surface_positions(&mut drawn);
    let top = drawn.iter().map(|p| p.y).fold(f32::MIN, f32::max);
    let centre = drawn.iter().sum::<glam::Vec3>() / drawn.len() as f32;
    let at = Transform::from_xyz(centre.x, top + 0.4, centre.z);
    let cube = (RigidBody::Dynamic, Collider::cuboid(0.2, 0.2, 0.2), Mass(1.0), at, Unpushed);
    let cube = app.world_mut().spawn(cube).id();
    match how {
        Dropped::Sensor => {
            app.world_mut().entity_mut(cube).insert(Sensor);
        }
        Dropped::OtherLayer => {
            let layers = CollisionLayers::new(box_layer, LayerMask::ALL ^ jelly_layer);
            app.world_mut().entity_mut(cube).insert(layers);
        }
        Dropped::Pushed | Dropped::Unpushed => {}
    }
    let (mut deepest, mut box_fastest, mut jelly_fastest) = (0.0f32, 0.0f32, 0.0f32);
    let mut was = at.translation;
    for f in 0..180 {
        app.update();
        let at = app.world().get::<GlobalTransform>(cube).unwrap().compute_transform();
        let corners: Vec<glam::Vec3> = (0..8)
            .map(|c| {
                let s =
                    Vec3::new([-0.1, 0.1][c & 1], [-0.1, 0.1][(c >> 1) & 1], [-0.1, 0.1][c >> 2]);
                glam::Vec3::from_array(at.transform_point(s).to_array())
            })
            .collect();
        sim(&app, jelly).surface_positions(&mut drawn);
        deepest = deepest.max(deepest_inside(&corners, (&drawn, &faces)));
        if f >= 120 {
            box_fastest = box_fastest.max(at.translation.distance(was) / DT);
            let fastest =
                sim(&app, jelly).velocities().iter().map(|v| v.length()).fold(0.0, f32::max);
            jelly_fastest = jelly_fastest.max(fastest);
        }
        was = at.translation;
    }
    (deepest, box_fastest, jelly_fastest)
}

#[test]
fn an_avian_box_dropped_on_a_jelly_comes_to_rest_on_it() {
    let (deepest, box_fastest, jelly_fastest) = dropped_on_a_jelly(Dropped::Pushed);
    println!(
        "a corner at most {deepest:.4} m inside; in the last second the box at most {box_fastest:.3} m/s, the jelly {jelly_fastest:.3} m/s"
    );
    assert!(deepest < 0.01, "no corner 1 cm inside the jelly ({deepest} m)");
    assert!(box_fastest < 0.05, "the box at rest ({box_fastest} m/s)");
    assert!(jelly_fastest < 0.05, "the jelly at rest ({jelly_fastest} m/s)");
    let (deepest, ..) = dropped_on_a_jelly(Dropped::Unpushed);
    assert!(deepest > 0.05, "without its impulses the box sinks in ({deepest} m)");
}

#[test]
fn a_sensor_box_or_one_on_a_layer_the_jelly_does_not_meet_falls_through_it() {
    for how in [Dropped::Sensor, Dropped::OtherLayer] {
        let (deepest, ..) = dropped_on_a_jelly(how);
        assert!(deepest > 0.1, "the box falls into the jelly ({deepest} m)");
    }
}

/// A ball of 0.2 kg and 10 cm thrown at 6 m/s at a 0.5 kg cloth of 1 m hanging from its top
/// row: its speed towards the cloth 0.25 s after the throw, and the deepest any node was
/// inside it over 1 s.
fn thrown_at_a_curtain(pushed: bool) -> (f32, f32) {
    let strip = shapes::strip(1.0, 1.0, 0.05);
    let mass = MassMode::PerNode { mass: 0.5 / strip.positions.len() as f32 };
    let options = ConvertOptions { mass, ..ConvertOptions::default() };
    let mut model = convert_mesh(strip, &options, Path::new("cloth.obj")).expect("converts").model;
    model.place(glam::Quat::IDENTITY, glam::Vec3::new(0.0, -1.0, 0.0)).expect("placed");
    let mut params = model.params.clone();
    (params.integrator, params.ground) = (Integrator::Xpbd, None);
    model.set_params(params).expect("no ground");
    let top: Vec<usize> = (model.nodes.positions().iter().enumerate())
        .filter(|(_, p)| p.y > -1e-3)
        .map(|(i, _)| i)
        .collect();
    for i in top {
        model.anchor(NodeId(i as u32)).expect("a node");
    }
    let radius = model.params.node_radius + 0.1;
    let mut app = app(!pushed);
    let cloth = spawn(&mut app, model);
    let at = Transform::from_xyz(0.5, -0.4, -0.6);
    let ball = (RigidBody::Dynamic, Collider::sphere(0.1), Mass(0.2), at, Unpushed);
    let ball = app.world_mut().spawn((ball, LinearVelocity(Vec3::new(0.0, 0.0, 6.0)))).id();
    let (mut forward, mut deepest) = (0.0, 0.0f32);
    for f in 1..=60 {
        app.update();
        let centre = app.world().get::<GlobalTransform>(ball).unwrap().translation();
        let centre = glam::Vec3::from_array(centre.to_array());
        let inside =
            sim(&app, cloth).positions().iter().map(|&p| radius - centre.distance(p.into()));
        deepest = deepest.max(inside.fold(0.0, f32::max));
        if f == 15 {
            forward = app.world().get::<LinearVelocity>(ball).unwrap().z;
        }
    }
    (forward, deepest)
}

#[test]
fn an_avian_ball_thrown_at_a_hanging_cloth_is_caught_and_slowed() {
    let (forward, deepest) = thrown_at_a_curtain(true);
    println!(
        "the ball at {forward:.2} m/s towards the cloth 0.25 s after the throw; nodes at most {deepest:.4} m inside"
    );
    assert!(forward < 2.0, "slowed from 6 m/s ({forward} m/s)");
    assert!(deepest < 0.005, "no node inside the ball ({deepest} m)");
    let (forward, _) = thrown_at_a_curtain(false);
    assert!(forward > 5.9, "without its impulses the ball is not slowed ({forward} m/s)");
}

/// The blob's jelly (no ground) dropped from 0.3 m onto a static avian triangle mesh, a 3 × 3 m
/// square of two triangles turned 15° about z (a level's ramp), or onto nothing, for 2 s: the
/// deepest any drawn point over the square got under its plane, and the drawn surface's mean
/// height over the plane at the end.
fn dropped_on_a_ramp(ramp: bool) -> (f32, f32) {
    let model = jelly(0.3);
    let mut drawn = Vec::new();
    let mut app = app(false);
    let turn = Quat::from_rotation_z(15f32.to_radians());
    if ramp {
        let corners = vec![
            Vec3::new(-1.5, 0.0, -1.5),
            Vec3::new(1.5, 0.0, -1.5),
            Vec3::new(1.5, 0.0, 1.5),
            Vec3::new(-1.5, 0.0, 1.5),
        ];
        let mesh = Collider::trimesh(corners, vec![[0, 2, 1], [0, 3, 2]]);
        app.world_mut().spawn((RigidBody::Static, mesh, Transform::from_rotation(turn)));
    }
    let jelly = spawn(&mut app, model);
    let (up, along) = (turn * Vec3::Y, turn * Vec3::X);
    let mut deepest = 0.0f32;
    for _ in 0..120 {
        app.update();
        sim(&app, jelly).surface_positions(&mut drawn);
        for p in &drawn {
            let p = Vec3::from_array(p.to_array());
            if p.dot(along).abs() < 1.5 && p.z.abs() < 1.5 {
                deepest = deepest.max(-p.dot(up));
            }
        }
    }
    let up = glam::Vec3::from_array(up.to_array());
    let height = drawn.iter().map(|p| p.dot(up)).sum::<f32>() / drawn.len() as f32;
    (deepest, height)
}

#[test]
fn a_jelly_dropped_on_an_avian_triangle_mesh_ramp_stays_on_it() {
    let (deepest, height) = dropped_on_a_ramp(true);
    println!("at most {deepest:.4} m under the ramp, its mean {height:.3} m over it");
    assert!(deepest < 0.01, "never 1 cm through the ramp ({deepest} m)");
    assert!(height > 0.0, "on the ramp ({height} m)");
    let (deepest, height) = dropped_on_a_ramp(false);
    assert!(deepest > 1.0 && height < -1.0, "falls without it ({deepest}, {height})");
}
