//! The project's Blender-made figure with arms and legs walking, running, stopping dead and
//! turning round in its cape: Bevy's glTF loader spawns the figure and its `AnimationPlayer`
//! plays the clip in a loop; the cape, converted from the same file, is worn by it in one line
//! (`SoftBody::new(cape).worn_by(figure)`). At each loop the figure jumps back to where it
//! started, and the cape goes with it (a teleport). The camera follows the figure's hips. The
//! arrow keys turn the figure (left, right) and walk it forward or back (up, down): the cape
//! follows with no frame of lag, swinging out as it turns.
//!
//! `cargo run --release -p springmesh-bevy --features examples --example character [-- --screenshot OUT.png]`
//!
//! The cape is `assets/models/walker_cape.spring`: `springmesh convert
//! assets/characters/walker.glb --mesh Cape -o assets/models/walker_cape.spring`.

mod common;

use bevy::prelude::*;
use bevy::transform::TransformSystems;
use common::Args;
use springmesh_bevy::SoftBody;

/// The repository's `assets` folder, wherever the example is run from.
const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets");

/// The figure's file.
const FIGURE: &str = "characters/walker.glb";

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
    app.add_systems(Startup, setup).add_systems(Update, (play_walk, steer, hide_garments));
    app.add_systems(PostUpdate, follow_hips.after(TransformSystems::Propagate));
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
        SoftBody::new(assets.load("models/walker_cape.spring")).worn_by(figure),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::srgb(0.7, 0.1, 0.12),
            double_sided: true,
            cull_mode: None,
            ..default()
        })),
    ));
    common::stage(&mut commands, &mut meshes, &mut materials, Vec3::new(2.0, 5.0, -4.0));
    commands.spawn((Camera3d::default(), Transform::default()));
}

/// The camera 2.5 m behind the figure's hips and to the side, where the cape shows, looking
/// at them (the walk moves the hips, not the figure's root).
fn follow_hips(
    joints: Query<(&Name, &GlobalTransform)>,
    mut camera: Single<&mut Transform, With<Camera3d>>,
) {
    let Some((_, hips)) = joints.iter().find(|(name, _)| name.as_str() == "Hips") else { return };
    let (at, facing) = (hips.translation(), hips.forward());
    let side = facing.cross(Vec3::Y).normalize_or_zero();
    let eye = at + facing * 2.2 + side * 1.2 + Vec3::Y * 0.6;
    **camera = Transform::from_translation(eye).looking_at(at, Vec3::Y);
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

/// Meshes spawned this frame.
type NewMeshes = (With<Mesh3d>, Added<Name>);

/// The file's own garments, drawn skinned by Bevy: hidden, the simulated cape is shown instead
/// (the skirt and the scarf are other models of the same figure).
fn hide_garments(mut meshes: Query<(&Name, &mut Visibility), NewMeshes>) {
    for (name, mut visibility) in &mut meshes {
        if ["Cape", "Skirt", "Scarf"].iter().any(|g| name.as_str().starts_with(g)) {
            *visibility = Visibility::Hidden;
        }
    }
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
