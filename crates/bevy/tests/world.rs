//! Soft bodies in one world, from outside the crate, in a headless app (`MinimalPlugins +
//! AssetPlugin + TransformPlugin + SpringmeshPlugin`, no window): two solids dropped one on
//! the other never pass through each other (judged by geometry, not by the solver:
//! [`springmesh_core::depth`]); a capsule on a moving joint drags a cloth along.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use springmesh_bevy::{SoftBody, SoftBodyState, SoftCollider, SpringModelAsset, SpringmeshPlugin};
use springmesh_convert::samples::Sample;
use springmesh_convert::{convert_mesh, samples, shapes};
use springmesh_core::depth::deepest_inside;
use springmesh_core::model::Ground;
use springmesh_core::{Simulation, ValidModel};
use std::path::Path;
use std::time::Duration;

const DT: f32 = 1.0 / 60.0;

/// A headless app whose frames are `DT` long.
fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), TransformPlugin, SpringmeshPlugin));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(DT)));
    app
}

/// `model` as an asset of `app`.
fn asset(app: &mut App, model: ValidModel) -> Handle<SpringModelAsset> {
    app.world_mut().resource_mut::<Assets<SpringModelAsset>>().add(SpringModelAsset { model })
}

/// Updates until every one of `bodies` has started.
fn until_started(app: &mut App, bodies: &[Entity]) {
    for _ in 0..100 {
        app.update();
        if bodies.iter().all(|&b| app.world().get::<SoftBodyState>(b).is_some()) {
            return;
        }
    }
    panic!("the bodies never started");
}

/// The blob converted as a solid (as `springmesh convert --solid` does) on a ground at y = 0,
/// centred on the y axis with its lowest point at y = 0.
fn blob() -> ValidModel {
    let options = samples::pile::solid_options();
    let mut model =
        convert_mesh(shapes::blob(), &options, Path::new("blob.obj")).expect("converts").model;
    let mut params = model.params.clone();
    params.ground = Some(Ground { height: 0.0, ..Ground::default() });
    model.set_params(params).expect("a ground");
    let mut at = Vec::new();
    Simulation::new(&model).surface_positions(&mut at);
    let low = at.iter().map(|p| p.y).fold(f32::MAX, f32::min);
    let centre = at.iter().copied().sum::<springmesh_core::glam::Vec3>() / at.len() as f32;
    let shift = springmesh_core::glam::Vec3::new(-centre.x, -low, -centre.z);
    model.place(springmesh_core::glam::Quat::IDENTITY, shift).expect("moved");
    model
}

/// The deepest any drawn vertex of one of two blobs gets inside the other over 3 s (or until
/// it is deeper than `enough`), the upper dropped crosswise from just above the lower; `upper`
/// makes the upper body.
fn drop(upper: impl Fn(Handle<SpringModelAsset>) -> SoftBody, enough: f32) -> (f32, Vec3, Vec3) {
    let model = blob();
    let mut at = Vec::new();
    Simulation::new(&model).surface_positions(&mut at);
    let top = at.iter().map(|p| p.y).fold(f32::MIN, f32::max);
    let mut app = app();
    let handle = asset(&mut app, model);
    let lower = app.world_mut().spawn(SoftBody::new(handle.clone())).id();
    let turned = Transform::from_xyz(0.0, top + 0.1, 0.0)
        .with_rotation(Quat::from_rotation_y(std::f32::consts::FRAC_PI_2));
    let upper = app.world_mut().spawn((upper(handle), turned)).id();
    until_started(&mut app, &[lower, upper]);
    let faces = |e: Entity| -> Vec<[usize; 3]> {
        let sim = app.world().get::<SoftBodyState>(e).unwrap().simulation();
        sim.surface_faces().iter().map(|f| f.map(|n| n.index())).collect()
    };
    let (faces_lower, faces_upper) = (faces(lower), faces(upper));
    let drawn = |app: &App, e: Entity| {
        let mut out = Vec::new();
        app.world().get::<SoftBodyState>(e).unwrap().simulation().surface_positions(&mut out);
        out
    };
    let mut deepest = 0.0f32;
    for _ in 0..180 {
        app.update();
        let (a, b) = (drawn(&app, lower), drawn(&app, upper));
        deepest = deepest.max(deepest_inside(&a, (&b, &faces_upper)));
        deepest = deepest.max(deepest_inside(&b, (&a, &faces_lower)));
        if deepest > enough {
            break;
        }
    }
    let centre = |p: Vec<springmesh_core::glam::Vec3>| {
        Vec3::from_array(
            (p.iter().copied().sum::<springmesh_core::glam::Vec3>() / p.len() as f32).to_array(),
        )
    };
    (deepest, centre(drawn(&app, lower)), centre(drawn(&app, upper)))
}

#[test]
fn two_bodies_dropped_on_each_other_never_pass_through() {
    // Alone, it is judged until it is 10 cm inside: that is all the test asks of it.
    let (apart, ..) = drop(|h| SoftBody::new(h).alone(), 0.1);
    assert!(apart > 0.1, "a body alone falls into the other: {apart} m deep");
    let (deepest, lower, upper) = drop(SoftBody::new, f32::INFINITY);
    eprintln!("deepest vertex inside the other body: {deepest} m (alone: {apart} m)");
    assert!(deepest < 0.01, "no vertex 1 cm inside the other: {deepest} m");
    assert!(upper.y > lower.y, "the upper blob ends on the lower one: {upper} over {lower}");
}

#[test]
fn a_capsule_on_a_moving_joint_drags_a_draped_cloth_along() {
    // The cloth sample, let go, draped over a capsule along x on a child of a "joint" entity
    // that slides along x at 1 m/s after the cloth has settled for a second: friction at the
    // capsule's velocity drags the cloth along (a collider put there each frame without a
    // velocity would slide out from under it).
    let mut model = Sample::Cloth.model();
    model.anchors.clear();
    let mut app = app();
    let handle = asset(&mut app, ValidModel::new(model).unwrap());
    let joint = app.world_mut().spawn(Transform::from_xyz(0.0, 1.3, 0.0)).id();
    let bone = Transform::from_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2));
    let capsule = (SoftCollider::capsule(0.1, 1.0).with_friction(1.0), bone, ChildOf(joint));
    app.world_mut().spawn(capsule);
    let body = app.world_mut().spawn(SoftBody::new(handle)).id();
    until_started(&mut app, &[body]);
    let mut lowest_gap = f32::MAX;
    for frame in 0..120 {
        if frame >= 60 {
            app.world_mut().get_mut::<Transform>(joint).unwrap().translation.x += DT;
        }
        app.update();
        let x = app.world().get::<Transform>(joint).unwrap().translation.x;
        let state = app.world().get::<SoftBodyState>(body).unwrap();
        for p in state.positions() {
            // Distance from the capsule's axis (y = 1.3, z = 0, x within ±1 of the joint).
            let along = (p.x - x).clamp(-1.0, 1.0);
            let gap = Vec3::new(p.x - x - along, p.y - 1.3, p.z).length() - 0.1;
            lowest_gap = lowest_gap.min(gap);
        }
    }
    let state = app.world().get::<SoftBodyState>(body).unwrap();
    let sim = state.simulation();
    let mean = sim.velocities().iter().map(|v| v.x).sum::<f32>() / sim.node_count() as f32;
    eprintln!(
        "mean x velocity after 1 s of the joint sliding at 1 m/s: {mean} m/s; closest {lowest_gap} m"
    );
    assert!(mean > 0.8, "the cloth is dragged along at the capsule's speed: {mean} m/s");
    assert!(lowest_gap > -0.01, "no node deep inside the capsule: {lowest_gap} m");
}
