//! A cape worn by a character that Bevy itself loads (its glTF loader) and animates (its
//! `AnimationPlayer`), headless: the project's Blender-made figure walking. The truth is Bevy's
//! own skinning of the cape's vertices: each joint's `GlobalTransform` × its inverse bind
//! matrix, blended by the vertex's weights, exactly as Bevy's skinned mesh draws it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code.

use bevy::animation::{AnimationPlayer, AnimationPlugin};
use bevy::asset::LoadState;
use bevy::gltf::{Gltf, GltfAssetLabel, GltfMesh, GltfPlugin};
use bevy::mesh::skinning::{SkinnedMesh, SkinnedMeshInverseBindposes};
use bevy::mesh::{Mesh, MeshPlugin, VertexAttributeValues};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::world_serialization::{WorldAssetRoot, WorldSerializationPlugin};
use springmesh_bevy::{
    SoftBody, SoftBodyFailed, SoftBodyFailure, SoftBodyState, SpringModelAsset,
    SpringmeshBevyError, SpringmeshPlugin, painted_attribute, with_painted_attributes,
};
use springmesh_convert::{ConvertOptions, convert_file};
use std::path::Path;
use std::time::Duration;

const DT: f32 = 1.0 / 60.0;

fn assets() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

/// A headless app with Bevy's glTF loader and animation, reading the project's assets.
fn app() -> App {
    app_with(GltfPlugin::default())
}

/// [`app`] with the glTF plugin `gltf`.
fn app_with(gltf: GltfPlugin) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin { file_path: assets().display().to_string(), ..Default::default() },
        TransformPlugin,
        MeshPlugin,
        WorldSerializationPlugin,
        gltf,
        AnimationPlugin,
        SpringmeshPlugin,
    ));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(DT)));
    app.finish();
    app.cleanup();
    app
}

/// The walking figure's cape converted as `springmesh convert walker.glb --mesh Cape` does, as
/// an asset.
fn cape(app: &mut App) -> Handle<SpringModelAsset> {
    let options = ConvertOptions { mesh: Some("Cape".into()), ..ConvertOptions::default() };
    let model = convert_file(&assets().join("characters/walker.glb"), &options).unwrap().model;
    app.world_mut().resource_mut::<Assets<SpringModelAsset>>().add(SpringModelAsset { model })
}

/// Updates until `done` holds (at most 5 s of wall time: the glTF loads on another thread).
fn until(app: &mut App, what: &str, done: impl Fn(&mut App) -> bool) {
    for _ in 0..5000 {
        app.update();
        if done(app) {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("{what} never happened");
}

/// The figure spawned from its glTF scene, its walk playing in a loop; returns its root.
fn figure(app: &mut App) -> Entity {
    let server = app.world().resource::<AssetServer>().clone();
    let gltf: Handle<Gltf> = server.load("characters/walker.glb");
    until(app, "the glTF load", |_| {
        matches!(server.load_state(&gltf), LoadState::Loaded | LoadState::Failed(_))
    });
    let walk =
        app.world().resource::<Assets<Gltf>>().get(&gltf).unwrap().named_animations["Walk"].clone();
    let (graph, index) = AnimationGraph::from_clip(walk);
    let graph = app.world_mut().resource_mut::<Assets<AnimationGraph>>().add(graph);
    let scene = server.load(GltfAssetLabel::Scene(0).from_asset("characters/walker.glb"));
    let root = app.world_mut().spawn((WorldAssetRoot(scene), Transform::default())).id();
    until(app, "the scene's players", |app| {
        let mut players = app.world_mut().query::<&AnimationPlayer>();
        players.iter(app.world()).next().is_some()
    });
    let mut players = app.world_mut().query::<(Entity, &mut AnimationPlayer)>();
    let (player, mut p) = players.single_mut(app.world_mut()).unwrap();
    p.play(index).repeat();
    app.world_mut().entity_mut(player).insert(AnimationGraphHandle(graph));
    root
}

/// Bevy's own skinning of the figure's Cape mesh: each vertex's world position.
fn bevy_skinned_cape(app: &mut App) -> Vec<Vec3> {
    let mut q = app.world_mut().query::<(&Name, &Mesh3d, &SkinnedMesh)>();
    let (_, mesh, skin) = q
        .iter(app.world())
        .find(|(n, ..)| n.as_str().starts_with("Cape"))
        .expect("the cape's skinned mesh");
    let (mesh, skin) = (mesh.0.clone(), skin.clone());
    let world = app.world();
    let mesh = world.resource::<Assets<Mesh>>().get(&mesh).unwrap();
    let binds = world
        .resource::<Assets<SkinnedMeshInverseBindposes>>()
        .get(&skin.inverse_bindposes)
        .unwrap();
    let Some(VertexAttributeValues::Float32x3(positions)) =
        mesh.attribute(Mesh::ATTRIBUTE_POSITION)
    else {
        panic!("positions");
    };
    let Some(VertexAttributeValues::Uint16x4(joints)) = mesh.attribute(Mesh::ATTRIBUTE_JOINT_INDEX)
    else {
        panic!("joints");
    };
    let Some(VertexAttributeValues::Float32x4(weights)) =
        mesh.attribute(Mesh::ATTRIBUTE_JOINT_WEIGHT)
    else {
        panic!("weights");
    };
    let matrices: Vec<Mat4> = skin
        .joints
        .iter()
        .zip(binds.iter())
        .map(|(&j, bind)| world.get::<GlobalTransform>(j).unwrap().to_matrix() * *bind)
        .collect();
    positions
        .iter()
        .zip(joints.iter().zip(weights))
        .map(|(p, (j, w))| {
            (0..4)
                .map(|k| w[k] * matrices[j[k] as usize].transform_point3(Vec3::from_array(*p)))
                .sum()
        })
        .collect()
}

#[test]
fn a_cape_worn_by_bevys_animated_figure_keeps_its_kinematic_nodes_on_bevys_skin() {
    let mut app = app();
    let handle = cape(&mut app);
    let root = figure(&mut app);
    let body = app.world_mut().spawn(SoftBody::new(handle).worn_by(root)).id();
    until(&mut app, "the cape's start", |app| app.world().get::<SoftBodyState>(body).is_some());
    let kinematic: Vec<usize> = {
        let sim = app.world().get::<SoftBodyState>(body).unwrap().simulation();
        sim.anchors().map(|n| n.index()).collect()
    };
    assert_eq!(kinematic.len(), 13, "the painted top row");
    // Each kinematic node is the Bevy mesh vertex it sits on now (nodes are welded vertices).
    let skinned = bevy_skinned_cape(&mut app);
    let positions = app.world().get::<SoftBodyState>(body).unwrap().positions().to_vec();
    let vertex: Vec<usize> = kinematic
        .iter()
        .map(|&n| {
            let d = |v: &usize| skinned[*v].distance(positions[n]);
            (0..skinned.len()).min_by(|a, b| d(a).total_cmp(&d(b))).unwrap()
        })
        .collect();
    let (mut worst, first) = (0.0f32, skinned[vertex[0]]);
    for frame in 0..150 {
        // At 1 s the character is teleported 5 m along x; at 1.5 s turned a quarter round.
        let mut at = app.world_mut().get_mut::<Transform>(root).unwrap();
        if frame == 60 {
            at.translation.x += 5.0;
        }
        if frame == 90 {
            at.rotate_y(std::f32::consts::FRAC_PI_2);
        }
        app.update();
        let skinned = bevy_skinned_cape(&mut app);
        if frame == 59 {
            let walked = skinned[vertex[0]].distance(first);
            assert!(walked > 0.05, "the walk moves the shoulders: {walked} m in 1 s");
        }
        let state = app.world().get::<SoftBodyState>(body).unwrap();
        assert!(state.failure().is_none(), "{:?}", state.failure());
        for (&n, &v) in kinematic.iter().zip(&vertex) {
            let off = state.positions()[n].distance(skinned[v]);
            assert!(off < 1e-3, "frame {frame}: kinematic node {n} is {off} m off Bevy's skin");
            worst = worst.max(off);
        }
    }
    eprintln!("kinematic nodes at most {worst} m off Bevy's skin over 150 frames");
}

#[test]
fn a_cape_worn_by_the_characters_skinned_mesh_entity_finds_the_joints_through_its_skin() {
    let mut app = app();
    let handle = cape(&mut app);
    figure(&mut app);
    let mut q = app.world_mut().query::<(Entity, &Name, &SkinnedMesh)>();
    let (mesh, ..) =
        q.iter(app.world()).find(|(_, n, _)| n.as_str().starts_with("Body")).expect("the body");
    let body = app.world_mut().spawn(SoftBody::new(handle.clone()).worn_by(mesh)).id();
    // A second cape of the same model on the same character: a crowd shares one compiled copy.
    let second = app.world_mut().spawn(SoftBody::new(handle).worn_by(mesh)).id();
    let started = |app: &mut App| {
        [body, second].iter().all(|&b| app.world().get::<SoftBodyState>(b).is_some())
    };
    until(&mut app, "the capes' start", started);
    for _ in 0..30 {
        app.update();
    }
    let state = app.world().get::<SoftBodyState>(body).unwrap();
    assert!(state.failure().is_none() && state.steps_this_frame() == 1);
    let other = app.world().get::<SoftBodyState>(second).unwrap();
    assert!(state.simulation().shares_compiled(other.simulation()), "one compiled cape");
}

#[test]
fn a_character_without_the_joints_fails_the_body_with_the_joints_name() {
    let mut app = app();
    let handle = cape(&mut app);
    let stranger = app.world_mut().spawn((Transform::default(), Name::new("Stranger"))).id();
    app.world_mut().spawn((Transform::default(), Name::new("Pelvis"), ChildOf(stranger)));
    let body = app.world_mut().spawn(SoftBody::new(handle).worn_by(stranger)).id();
    until(&mut app, "the failure", |app| app.world().get::<SoftBodyFailed>(body).is_some());
    // Sent as a message too, once, naming the body and the joint.
    let sent = app.world().resource::<Messages<SoftBodyFailure>>();
    let sent: Vec<&SoftBodyFailure> = sent.iter_current_update_messages().collect();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(sent[0].body == body && sent[0].reason.contains("\"Hips\""), "{sent:?}");
    let failed = app.world().get::<SoftBodyFailed>(body).unwrap();
    assert!(
        matches!(&failed.error, SpringmeshBevyError::MissingJoint { joint, .. } if joint == "Hips"),
        "{}",
        failed.error
    );
    assert!(failed.error.to_string().contains("\"Hips\""), "{}", failed.error);
}

#[test]
fn a_character_whose_skeleton_never_comes_fails_the_body_after_the_timeout() {
    // An entity with a transform and nothing under it: no scene was spawned there.
    let mut app = app();
    let handle = cape(&mut app);
    let empty = app.world_mut().spawn(Transform::default()).id();
    let body = app.world_mut().spawn(SoftBody::new(handle).worn_by(empty)).id();
    until(&mut app, "the failure", |app| app.world().get::<SoftBodyFailed>(body).is_some());
    let waited = app.world().resource::<Time>().elapsed_secs();
    let timeout = springmesh_bevy::START_TIMEOUT;
    assert!(waited >= timeout && waited <= timeout + 0.1, "failed after {waited} s");
    let failed = app.world().get::<SoftBodyFailed>(body).unwrap();
    assert!(
        matches!(&failed.error, SpringmeshBevyError::NoSkeleton { joint, character, .. } if joint == "Hips" && *character == empty),
        "{}",
        failed.error
    );
}

#[test]
fn the_first_frame_shows_the_cape_as_it_was_put_on_the_pose_of_that_frame() {
    // The frame the body starts in does not step it: every node is where Bevy skins its vertex
    // in that frame (the cape put on the walk's pose at that time, at rest), not a step on.
    let mut app = app();
    let handle = cape(&mut app);
    let root = figure(&mut app);
    for _ in 0..20 {
        app.update();
    }
    let body = app.world_mut().spawn(SoftBody::new(handle).worn_by(root)).id();
    until(&mut app, "the cape's start", |app| app.world().get::<SoftBodyState>(body).is_some());
    let state = app.world().get::<SoftBodyState>(body).unwrap();
    assert_eq!(state.steps_this_frame(), 0);
    assert_eq!(state.simulation().time(), 0.0);
    let positions = state.positions().to_vec();
    let skinned = bevy_skinned_cape(&mut app);
    let worst = positions
        .iter()
        .map(|p| skinned.iter().map(|v| v.distance(*p)).fold(f32::MAX, f32::min))
        .fold(0.0f32, f32::max);
    assert!(worst < 1e-4, "a node {worst} m from every vertex Bevy skins");
    app.update();
    assert_eq!(app.world().get::<SoftBodyState>(body).unwrap().steps_this_frame(), 1);
}

#[test]
fn the_character_examples_cape_is_the_cape_converted_today() {
    // assets/models/walker_cape.spring is `springmesh convert assets/characters/walker.glb
    // --mesh Cape`; a converter or format change that alters it fails here, and the fix is to
    // write it again with that command.
    let saved = springmesh_core::io::load(&assets().join("models/walker_cape.spring")).unwrap();
    let options = ConvertOptions { mesh: Some("Cape".into()), ..ConvertOptions::default() };
    let today = convert_file(&assets().join("characters/walker.glb"), &options).unwrap().model;
    assert_eq!(saved.nodes, today.nodes);
    assert_eq!(saved.springs, today.springs);
    assert_eq!(saved.faces, today.faces);
    assert_eq!(saved.rig, today.rig);
    assert_eq!(saved.params, today.params);
}

#[test]
fn bevys_gltf_loader_reads_the_painted_max_distance_once_told_its_name() {
    // The Blender-made figure's cape: its top row painted 0 (written 2.5e-8), its hem 0.35 m.
    // Told the names, Bevy's loader keeps the values as the mesh's attribute (and so does not
    // warn "Unknown vertex attribute"); not told, it drops them.
    for told in [true, false] {
        let gltf = if told {
            with_painted_attributes(GltfPlugin::default())
        } else {
            GltfPlugin::default()
        };
        let mut app = app_with(gltf);
        let server = app.world().resource::<AssetServer>().clone();
        let handle: Handle<Gltf> = server.load("characters/dancer.glb");
        until(&mut app, "the glTF load", |_| server.is_loaded_with_dependencies(&handle));
        let world = app.world();
        let gltf = world.resource::<Assets<Gltf>>().get(&handle).unwrap();
        let cape = world.resource::<Assets<GltfMesh>>().get(&gltf.named_meshes["Cape"]).unwrap();
        let mesh = world.resource::<Assets<Mesh>>().get(&cape.primitives[0].mesh).unwrap();
        let painted = mesh.attribute(painted_attribute("_MAX_DISTANCE").unwrap());
        match painted {
            Some(VertexAttributeValues::Float32(values)) => {
                assert!(told, "the name was not told");
                assert_eq!(values.len(), mesh.count_vertices());
                let (low, high) =
                    values.iter().fold((f32::MAX, f32::MIN), |(l, h), &v| (l.min(v), h.max(v)));
                assert!(low.abs() < 1e-7 && (high - 0.35).abs() < 1e-6, "{low} to {high}");
            }
            None => assert!(!told, "told the name, the loader kept no values"),
            Some(other) => panic!("not one float a vertex: {other:?}"),
        }
    }
}
