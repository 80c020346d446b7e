//! Soft bodies among avian's rigid bodies: jellies (the blob converted as a solid) and a cloth
//! draped over a crate, among avian crates and balls on avian's ground. Nothing here copies an
//! avian collider for the soft bodies: with the plugin's `avian` feature, `SpringmeshPlugin`
//! beside `PhysicsPlugins` is all it takes; the jellies push the crates and the crates push
//! back. The arrow keys push the red crate (along x and z).
//!
//! `cargo run --release -p springmesh-bevy --features examples --example crates [-- --screenshot OUT.png]`

mod common;

use avian3d::prelude::{Collider, LinearVelocity, Mass, PhysicsPlugins, RigidBody};
use bevy::prelude::*;
use common::Args;
use springmesh_bevy::{SoftBody, SpringModelAsset};
use springmesh_convert::convert_file;
use springmesh_convert::samples::Sample;
use springmesh_core::ValidModel;

/// The repository's `assets` folder, wherever the example is run from.
const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets");

/// The crate the arrow keys push.
#[derive(Component)]
struct Pushed;

/// How hard the arrow keys push the red crate (m/s²).
const PUSH: f32 = 8.0;

fn main() -> AppExit {
    let args = Args::parse();
    if let Some(unknown) = args.rest.first() {
        eprintln!("unknown argument {unknown}; usage: crates [--screenshot OUT.png]");
        return AppExit::from_code(2);
    }
    let mut app = common::app(
        "Springmesh: jellies and cloth among avian crates".into(),
        ASSETS.into(),
        &args,
    );
    app.add_plugins(PhysicsPlugins::default());
    app.add_systems(Startup, setup).add_systems(Update, push);
    app.run()
}

/// The arrow keys' push on the red crate.
fn push(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    mut pushed: Query<&mut LinearVelocity, With<Pushed>>,
) {
    let towards = common::arrows(&keys);
    for mut v in &mut pushed {
        v.0 += towards * PUSH * time.delta_secs();
    }
}

/// The blob as a solid jelly, its middle over the origin and its lowest point at 0, without a
/// ground of its own (avian's is the ground); `None` (logged) if it cannot be made.
fn jelly() -> Option<ValidModel> {
    let options = springmesh_convert::samples::pile::solid_options();
    let blob = std::path::Path::new(ASSETS).join("meshes/blob.obj");
    let mut model = convert_file(&blob, &options).map_err(|e| error!("{e}")).ok()?.model;
    let bounds = model.bounding_box()?;
    let centre = bounds.center();
    let to_origin = springmesh_core::glam::Vec3::new(-centre.x, -bounds.min.y, -centre.z);
    model
        .place(springmesh_core::glam::Quat::IDENTITY, to_origin)
        .map_err(|e| error!("{e}"))
        .ok()?;
    let mut params = model.params.clone();
    params.ground = None;
    model.set_params(params).map_err(|e| error!("{e}")).ok()?;
    Some(model)
}

/// The built-in 1 m cloth, let go of its two held corners, its middle at `at`.
fn cloth(at: Vec3) -> Option<ValidModel> {
    let mut model = Sample::Cloth.model();
    model.anchors.clear();
    model.params.ground = None;
    let mut model = ValidModel::new(model).map_err(|e| error!("{e}")).ok()?;
    let bounds = model.bounding_box()?;
    let to = springmesh_core::glam::Vec3::from_array(at.to_array()) - bounds.center();
    model.place(springmesh_core::glam::Quat::IDENTITY, to).map_err(|e| error!("{e}")).ok()?;
    Some(model)
}

fn setup(
    mut commands: Commands,
    mut models: ResMut<Assets<SpringModelAsset>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    // Avian's ground: the soft bodies meet it as every other avian collider.
    commands.spawn((
        RigidBody::Static,
        Collider::half_space(Vec3::Y),
        Mesh3d(meshes.add(Plane3d::default().mesh().size(12.0, 12.0))),
        MeshMaterial3d(materials.add(Color::srgb(0.35, 0.5, 0.3))),
    ));
    commands.spawn((
        DirectionalLight { illuminance: 8000.0, shadow_maps_enabled: true, ..default() },
        Transform::from_xyz(3.0, 6.0, 4.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    let Some(jelly) = jelly() else { return };
    let Some(bounds) = jelly.bounding_box() else { return };
    let size = bounds.diagonal();
    let jelly = models.add(SpringModelAsset { model: jelly });
    for k in 0..4 {
        let (x, z) = ((k % 2) as f32 - 0.5, (k / 2) as f32 - 0.5);
        let at = Transform::from_xyz(1.4 * size * x, 0.05, 1.4 * size * z)
            .with_rotation(Quat::from_rotation_y(0.7 * k as f32));
        let colour = materials.add(Color::hsl(90.0 * k as f32, 0.6, 0.55));
        commands.spawn((SoftBody::new(jelly.clone()), at, MeshMaterial3d(colour)));
    }
    // Crates: one on each jelly, one under the cloth, and the red one the keys push.
    let side = 0.35;
    let crate_mesh = meshes.add(Cuboid::new(side, side, side));
    let wood = materials.add(Color::srgb(0.6, 0.45, 0.25));
    let crate_at = |x: f32, y: f32, z: f32| {
        (
            RigidBody::Dynamic,
            Collider::cuboid(side, side, side),
            Mass(1.0),
            Mesh3d(crate_mesh.clone()),
            Transform::from_xyz(x, y, z),
        )
    };
    for k in 0..4 {
        let (x, z) = ((k % 2) as f32 - 0.5, (k / 2) as f32 - 0.5);
        let at = crate_at(1.4 * size * x, 0.8 * size + 0.5, 1.4 * size * z);
        commands.spawn((at, MeshMaterial3d(wood.clone())));
    }
    let under_cloth = Vec3::new(0.0, 0.5 * side, 1.6 * size);
    commands.spawn((crate_at(under_cloth.x, under_cloth.y, under_cloth.z), MeshMaterial3d(wood)));
    let red = materials.add(Color::srgb(0.8, 0.15, 0.1));
    let red_at = crate_at(-1.6 * size, 0.5 * side, 0.0);
    commands.spawn((red_at, MeshMaterial3d(red), Pushed));
    if let Some(cloth) = cloth(under_cloth + Vec3::Y * (side + 0.3)) {
        // Both sides drawn: a cloth is seen from above and below.
        let colour = materials.add(StandardMaterial {
            base_color: Color::srgb(0.85, 0.8, 0.7),
            double_sided: true,
            cull_mode: None,
            ..default()
        });
        commands.spawn((
            SoftBody::new(models.add(SpringModelAsset { model: cloth })),
            MeshMaterial3d(colour),
        ));
    }
    // Balls dropped onto the heap.
    let ball_mesh = meshes.add(Sphere::new(0.12));
    let rubber = materials.add(Color::srgb(0.2, 0.35, 0.85));
    for k in 0..3 {
        let x = (k as f32 - 1.0) * 0.5 * size;
        commands.spawn((
            RigidBody::Dynamic,
            Collider::sphere(0.12),
            Mass(0.3),
            Mesh3d(ball_mesh.clone()),
            MeshMaterial3d(rubber.clone()),
            Transform::from_xyz(x, 1.5 * size + 0.4 * k as f32, 0.2 * x),
        ));
    }
    commands.spawn((
        Camera3d::default(),
        Transform::from_xyz(1.4 * size, 1.5 * size, 3.0 * size)
            .looking_at(Vec3::new(0.0, 0.3 * size, 0.3 * size), Vec3::Y),
    ));
}
