//! The project's Blender-made figure walking in its cape: Bevy's glTF loader spawns the
//! figure and its `AnimationPlayer` plays the walk; the cape, converted from the same file,
//! is worn by it in one line (`SoftBody::new(cape).worn_by(figure)`). The arrow keys turn the
//! figure (left, right) and walk it forward or back (up, down): the cape follows with no frame
//! of lag, swinging out as it turns.
//!
//! `cargo run --release -p springmesh-bevy --example character [-- --screenshot OUT.png]`
//!
//! The cape is `assets/models/hero_cape.spring`: `springmesh convert
//! assets/characters/hero.glb --mesh Cape -o assets/models/hero_cape.spring`.

mod common;

use bevy::prelude::*;
use common::Args;
use springmesh_bevy::SoftBody;

/// The repository's `assets` folder, wherever the example is run from.
const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets");

/// The figure's file.
const FIGURE: &str = "characters/hero.glb";

/// How fast the arrow keys turn the figure (rad/s) and walk it (m/s).
const TURN_SPEED: f32 = 2.5;
const WALK_SPEED: f32 = 1.2;

fn main() -> AppExit {
    let args = Args::parse();
    if let Some(unknown) = args.rest.first() {
        eprintln!("unknown argument {unknown}; usage: character [--screenshot OUT.png]");
        return AppExit::from_code(2);
    }
    let mut app = common::app("Springmesh: a worn cape".into(), ASSETS.into(), &args);
    app.add_systems(Startup, setup).add_systems(Update, (play_walk, steer));
    app.run()
}

/// The figure's root.
#[derive(Component)]
struct Figure;

/// The walk, once its player is found.
#[derive(Resource)]
struct Walk {
    gltf: Handle<Gltf>,
    playing: bool,
}

fn setup(
    mut commands: Commands,
    assets: Res<AssetServer>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.insert_resource(Walk { gltf: assets.load(FIGURE), playing: false });
    let scene = assets.load(GltfAssetLabel::Scene(0).from_asset(FIGURE));
    let figure = commands.spawn((Figure, WorldAssetRoot(scene), Transform::default())).id();
    // The one line: the cape, worn by the figure.
    commands.spawn((
        SoftBody::new(assets.load("models/hero_cape.spring")).worn_by(figure),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::srgb(0.7, 0.1, 0.12),
            double_sided: true,
            cull_mode: None,
            ..default()
        })),
    ));
    common::stage(&mut commands, &mut meshes, &mut materials, Vec3::new(2.0, 5.0, -4.0));
    // From behind and to the side, where the cape shows.
    commands.spawn((
        Camera3d::default(),
        Transform::from_xyz(1.0, 1.5, -1.5).looking_at(Vec3::new(0.0, 1.1, 0.0), Vec3::Y),
    ));
}

/// Once the figure's scene is up: its player plays the walk in a loop.
fn play_walk(
    mut commands: Commands,
    mut walk: ResMut<Walk>,
    gltfs: Res<Assets<Gltf>>,
    mut graphs: ResMut<Assets<AnimationGraph>>,
    mut players: Query<(Entity, &mut AnimationPlayer)>,
) {
    if walk.playing {
        return;
    }
    let Some(clip) = gltfs.get(&walk.gltf).and_then(|g| g.named_animations.get("Walk")) else {
        return;
    };
    let Some((entity, mut player)) = players.iter_mut().next() else { return };
    let (graph, index) = AnimationGraph::from_clip(clip.clone());
    player.play(index).repeat();
    commands.entity(entity).insert(AnimationGraphHandle(graphs.add(graph)));
    walk.playing = true;
}

/// Arrow keys: left and right turn the figure, up and down walk it forward and back.
fn steer(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    mut figure: Single<&mut Transform, With<Figure>>,
) {
    let dt = time.delta_secs();
    let turn = f32::from(u8::from(keys.pressed(KeyCode::ArrowLeft)))
        - f32::from(u8::from(keys.pressed(KeyCode::ArrowRight)));
    figure.rotate_y(turn * TURN_SPEED * dt);
    let walk = f32::from(u8::from(keys.pressed(KeyCode::ArrowUp)))
        - f32::from(u8::from(keys.pressed(KeyCode::ArrowDown)));
    let forward = figure.forward();
    figure.translation += forward * walk * WALK_SPEED * dt;
}
