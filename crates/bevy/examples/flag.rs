//! A textured flag on a pole, in the wind. The arrow keys move the pole; the flag's edge
//! follows it with no frame of lag and the cloth drapes over the ball in front.
//!
//! `cargo run --release -p springmesh-bevy --features examples --example flag [-- --screenshot OUT.png]`
//!
//! The flag is `assets/models/banner.spring`: `assets/meshes/banner.obj` converted with the
//! default options (`springmesh convert assets/meshes/banner.obj -o assets/models/banner.spring`).

mod common;

use bevy::prelude::*;
use common::Args;
use springmesh_bevy::{SoftBody, SoftCollider, SpringModelAsset};

/// The repository's `assets` folder, wherever the example is run from.
const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets");

/// The pole's speed under the arrow keys (m/s).
const POLE_SPEED: f32 = 1.5;

/// Where the ball stands: in front of the flag's middle, where moving the pole drags it.
const BALL: Vec3 = Vec3::new(0.2, 1.4, 0.45);
const BALL_RADIUS: f32 = 0.35;

fn main() -> AppExit {
    let args = Args::parse();
    if let Some(unknown) = args.rest.first() {
        eprintln!("unknown argument {unknown}; usage: flag [--screenshot OUT.png]");
        return AppExit::from_code(2);
    }
    let mut app = common::app("Springmesh: flag".into(), ASSETS.into(), &args);
    app.add_systems(Startup, setup).add_systems(Update, (raise_flag, move_pole));
    app.run()
}

#[derive(Component)]
struct Pole;

#[derive(Resource)]
struct Flag {
    model: Handle<SpringModelAsset>,
    raised: bool,
}

fn setup(
    mut commands: Commands,
    assets: Res<AssetServer>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.insert_resource(Flag { model: assets.load("models/banner.spring"), raised: false });
    // The pole stands where the banner's left edge is (x = -0.8), from the ground to 2.2 m.
    commands.spawn((Pole, Transform::from_xyz(-0.8, 0.0, 0.0), Visibility::default())).with_child(
        (
            Mesh3d(meshes.add(Cylinder::new(0.03, 2.2))),
            MeshMaterial3d(materials.add(Color::srgb(0.55, 0.55, 0.6))),
            Transform::from_xyz(0.0, 1.1, 0.0),
        ),
    );
    commands.spawn((
        SoftCollider::sphere(BALL_RADIUS),
        Mesh3d(meshes.add(Sphere::new(BALL_RADIUS - 0.01))),
        MeshMaterial3d(materials.add(Color::srgb(0.2, 0.45, 0.8))),
        Transform::from_translation(BALL),
    ));
    common::stage(&mut commands, &mut meshes, &mut materials, Vec3::new(3.0, 6.0, 4.0));
    commands.spawn((
        Camera3d::default(),
        Transform::from_xyz(0.6, 1.8, 3.6).looking_at(Vec3::new(0.0, 1.4, 0.0), Vec3::Y),
    ));
}

/// Once the model has loaded: the flag, its edge on the pole (the nodes at the smallest x),
/// in a breeze along +x.
fn raise_flag(
    mut commands: Commands,
    mut flag: ResMut<Flag>,
    models: Res<Assets<SpringModelAsset>>,
    pole: Single<Entity, With<Pole>>,
    assets: Res<AssetServer>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(asset) = models.get(&flag.model).filter(|_| !flag.raised) else { return };
    flag.raised = true;
    let positions = asset.model.nodes.positions();
    let edge = positions.iter().map(|p| p.x).fold(f32::MAX, f32::min);
    let mut body = SoftBody::new(flag.model.clone()).with_wind(Vec3::new(5.0, 0.0, 1.5));
    for (node, p) in positions.iter().enumerate() {
        if p.x <= edge + 1e-4 {
            body = body.follow(node as u32, *pole);
        }
    }
    commands.spawn((
        body,
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color_texture: Some(assets.load("meshes/banner.png")),
            double_sided: true,
            cull_mode: None,
            ..default()
        })),
    ));
}

fn move_pole(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    mut pole: Single<&mut Transform, With<Pole>>,
) {
    let direction = common::arrows(&keys);
    pole.translation += direction * POLE_SPEED * time.delta_secs();
}
