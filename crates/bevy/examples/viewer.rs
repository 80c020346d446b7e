//! Any model on a ground, with an orbit camera: drag with the left mouse button to turn
//! around it, scroll to come closer.
//!
//! `cargo run --release -p springmesh-bevy --features examples --example viewer -- MODEL.spring [--screenshot OUT.png]`
//!
//! The ground is the model's own when it has one, else a plane just under its lowest node;
//! either way it is a [`SoftCollider`] the model rests on.

mod common;

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use common::Args;
use springmesh_bevy::{SoftBody, SoftCollider, SpringModelAsset};
use std::path::Path;

fn main() -> AppExit {
    let args = Args::parse();
    let [model] = args.rest.as_slice() else {
        eprintln!("usage: viewer MODEL.spring [--screenshot OUT.png]");
        return AppExit::from_code(2);
    };
    // The model's folder is the asset folder: the model is read from there, and nothing
    // outside it.
    let path = match Path::new(model).canonicalize() {
        Ok(path) => path,
        Err(e) => {
            eprintln!("cannot open {model}: {e}");
            return AppExit::from_code(1);
        }
    };
    let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    let mut app = common::app(format!("Springmesh: {file}"), folder.display().to_string(), &args);
    app.insert_resource(Viewed { file, model: Handle::default(), placed: false })
        .insert_resource(Orbit { target: Vec3::ZERO, distance: 3.0, yaw: 0.6, pitch: 0.35 })
        .add_systems(Startup, setup)
        .add_systems(Update, (place, orbit));
    app.run()
}

#[derive(Resource)]
struct Viewed {
    file: String,
    model: Handle<SpringModelAsset>,
    placed: bool,
}

#[derive(Resource)]
struct Orbit {
    target: Vec3,
    distance: f32,
    yaw: f32,
    pitch: f32,
}

fn setup(mut commands: Commands, assets: Res<AssetServer>, mut viewed: ResMut<Viewed>) {
    viewed.model = assets.load(viewed.file.clone());
    commands.spawn((
        DirectionalLight { illuminance: 8000.0, shadow_maps_enabled: true, ..default() },
        Transform::from_xyz(3.0, 6.0, 4.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((Camera3d::default(), Transform::default()));
}

/// Once the model has loaded: the body, the ground under it and the camera on it.
fn place(
    mut commands: Commands,
    mut viewed: ResMut<Viewed>,
    models: Res<Assets<SpringModelAsset>>,
    mut orbit: ResMut<Orbit>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(asset) = models.get(&viewed.model).filter(|_| !viewed.placed) else { return };
    viewed.placed = true;
    let model = &asset.model;
    let Some(bounds) = model.bounding_box() else { return };
    let (min, max) =
        (Vec3::from_array(bounds.min.to_array()), Vec3::from_array(bounds.max.to_array()));
    let ground = model.params.ground.map_or(min.y, |g| g.height);
    let size = (max - min).length().max(0.1);
    commands.spawn((
        SoftCollider::plane(Vec3::Y),
        Transform::from_xyz(0.0, ground, 0.0),
        Mesh3d(meshes.add(Plane3d::default().mesh().size(size * 8.0, size * 8.0))),
        MeshMaterial3d(materials.add(Color::srgb(0.35, 0.5, 0.3))),
    ));
    commands.spawn((
        SoftBody::new(viewed.model.clone()),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::srgb(0.85, 0.45, 0.3),
            double_sided: true,
            cull_mode: None,
            ..default()
        })),
    ));
    orbit.target = (min + max) / 2.0;
    orbit.distance = size * 1.6;
}

/// Left drag turns the camera around the model; the wheel brings it closer.
fn orbit(
    mut orbit: ResMut<Orbit>,
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    mut camera: Single<&mut Transform, With<Camera3d>>,
) {
    if buttons.pressed(MouseButton::Left) {
        orbit.yaw -= motion.delta.x * 0.005;
        orbit.pitch = (orbit.pitch + motion.delta.y * 0.005).clamp(-1.5, 1.5);
    }
    orbit.distance = (orbit.distance * (1.0 - scroll.delta.y * 0.1)).max(0.05);
    let offset = Quat::from_euler(EulerRot::YXZ, orbit.yaw, -orbit.pitch, 0.0) * Vec3::Z;
    **camera = Transform::from_translation(orbit.target + offset * orbit.distance)
        .looking_at(orbit.target, Vec3::Y);
}
