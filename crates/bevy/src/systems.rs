//! The plugin's systems, in the order they run in `PostUpdate`, after transform propagation
//! (so every `GlobalTransform` read here is this frame's: anchors and colliders do not lag):
//!
//! 1. [`start_bodies`]: a body whose model has loaded gets its [`SoftBodyState`] (and, when
//!    the app has meshes, its [`Mesh3d`]).
//!    A body worn by a character starts once the character's hierarchy is there, put on its
//!    joints where they are, and one whose anchors follow entities once they have transforms;
//!    after [`START_TIMEOUT`] without them it fails, naming what it did not find. A body does
//!    not step in the frame it starts: that frame shows it as it was put on, on the pose of the
//!    character's clip at that frame's time.
//! 2. `step_bodies` (the `world` module): the bodies' world owes the frame's virtual time; it
//!    takes as many steps of the models' `dt` as fit (at most
//!    [`SoftBody::max_steps_per_frame`]), each cut into world steps for the bodies that meet,
//!    the bodies stepped in parallel; followed anchors, worn bodies' joints and colliders move
//!    in equal parts from where they were last frame to where they are now.
//! 3. [`report`]: broken springs and energies as messages.
//! 4. [`update_meshes`]: the meshes of bodies that moved.

use crate::SpringmeshBevyError;
use crate::body::{Follow, Worn};
use crate::convert::{quat_to_core, to_bevy, to_core, to_core_matrix};
use crate::mesh::SoftBodyMesh;
use crate::messages::{SoftBodyEnergy, SoftBodyFailure, SpringBroken};
use crate::{START_TIMEOUT, SoftBody, SoftBodyState, SpringModelAsset};
use bevy::asset::{AssetEvent, AssetId, AssetServer, Assets, LoadState};
use bevy::ecs::change_detection::{DetectChanges, Ref};
use bevy::ecs::component::Component;
use bevy::ecs::entity::Entity;
use bevy::ecs::hierarchy::Children;
use bevy::ecs::message::{MessageReader, MessageWriter};
use bevy::ecs::name::Name;
use bevy::ecs::query::{Changed, Or, Without};
use bevy::ecs::system::{Commands, Local, Query, Res, ResMut};
use bevy::log::{error, warn};
use bevy::mesh::skinning::SkinnedMesh;
use bevy::mesh::{Mesh, Mesh3d};
use bevy::platform::collections::HashMap;
use bevy::time::Time;
use bevy::transform::components::GlobalTransform;
use springmesh_core::{CoreError, NodeId, Simulation, ValidModel};

/// Why a body could not start (its model failed to load or cannot be simulated as placed, the
/// character it is worn by lacks a joint); the body stays without a [`SoftBodyState`].
#[derive(Component, Debug)]
pub struct SoftBodyFailed {
    /// The reason.
    pub error: SpringmeshBevyError,
}

/// Per model, a simulation of it never stepped, that bodies worn as loaded are cloned from.
type Prototypes = HashMap<AssetId<SpringModelAsset>, Simulation>;

/// Bodies not started yet (and not failed).
type Waiting = (Without<SoftBodyState>, Without<SoftBodyFailed>);

/// Bodies that may have moved since their mesh was written.
type Moved = Or<(Changed<SoftBodyState>, Changed<GlobalTransform>)>;

/// The character hierarchy a worn body looks its joints up in: children, names, and a
/// skinned mesh's joints.
type Hierarchy<'w, 's> = (
    Query<'w, 's, &'static Children>,
    Query<'w, 's, &'static Name>,
    Query<'w, 's, &'static SkinnedMesh>,
);

/// Marks `entity` failed with `error`: logged, kept as its [`SoftBodyFailed`] and sent as a
/// [`SoftBodyFailure`].
fn fail(
    commands: &mut Commands,
    failures: &mut MessageWriter<SoftBodyFailure>,
    entity: Entity,
    error: SpringmeshBevyError,
) {
    error!("soft body {entity}: {error}");
    failures.write(SoftBodyFailure { body: entity, reason: error.to_string() });
    commands.entity(entity).insert(SoftBodyFailed { error });
}

/// Starts every body whose model has loaded (and whose character is there).
#[allow(clippy::too_many_arguments)] // A system: each argument is a query or resource it reads.
pub(crate) fn start_bodies(
    mut commands: Commands,
    mut failures: MessageWriter<SoftBodyFailure>,
    bodies: Query<(Entity, &SoftBody, Option<&GlobalTransform>), Waiting>,
    models: Res<Assets<SpringModelAsset>>,
    targets: Query<&GlobalTransform>,
    hierarchy: Hierarchy,
    server: Option<Res<AssetServer>>,
    mut meshes: Option<ResMut<Assets<Mesh>>>,
    (time, mut waiting): (Res<Time>, Local<HashMap<Entity, f64>>),
    (mut prototypes, mut changes): (Local<Prototypes>, MessageReader<AssetEvent<SpringModelAsset>>),
) {
    waiting.retain(|&e, _| bodies.contains(e));
    for change in changes.read() {
        if let AssetEvent::Modified { id } | AssetEvent::Removed { id } = change {
            prototypes.remove(id);
        }
    }
    let now = time.elapsed_secs_f64();
    for (entity, body, placed) in &bodies {
        let Some(asset) = models.get(&body.model) else {
            if let Some(LoadState::Failed(e)) = server.as_ref().map(|s| s.load_state(&body.model)) {
                let error = SpringmeshBevyError::Asset { reason: e.to_string() };
                fail(&mut commands, &mut failures, entity, error);
            }
            continue;
        };
        // How long the body has waited for its character's skeleton and its targets.
        let seconds = (now - *waiting.entry(entity).or_insert(now)) as f32;
        let late = seconds > START_TIMEOUT;
        let mut model = asset.model.clone();
        let worn = match body.worn_by.map(|c| joints(&model, c, &hierarchy, &targets)) {
            None => None,
            Some(Ok(Some(worn))) => Some(worn),
            // The character's scene has not been spawned yet.
            Some(Ok(None)) if !late => continue,
            Some(Ok(None)) => {
                let (joint, character) = (first_joint(&model), body.worn_by.unwrap_or(entity));
                let error = SpringmeshBevyError::NoSkeleton { joint, character, seconds };
                fail(&mut commands, &mut failures, entity, error);
                continue;
            }
            Some(Err(error)) => {
                fail(&mut commands, &mut failures, entity, error);
                continue;
            }
        };
        if let Some(&(node, target)) = body.follows.iter().find(|(_, t)| !targets.contains(*t)) {
            if late {
                let error = SpringmeshBevyError::NoTarget { node, target, seconds };
                fail(&mut commands, &mut failures, entity, error);
            }
            continue;
        }
        waiting.remove(&entity);
        let placed = match &worn {
            // A worn body is put on its joints, in world space.
            Some(_) => Ok(()),
            None => place(&mut model, placed.copied().unwrap_or_default()),
        };
        let started = placed.and_then(|()| {
            let follows = follows(&mut model, body, entity, &targets);
            let mut sim = match &worn {
                // Worn as loaded (no node follows an entity): a crowd wearing one model
                // shares one compiled copy of it (clones of a Simulation do).
                Some(_) if follows.is_empty() => (prototypes.entry(body.model.id()))
                    .or_insert_with(|| Simulation::new(&model))
                    .clone(),
                _ => Simulation::new(&model),
            };
            if let Some(w) = &worn {
                sim.reset(&w.goal)?;
            }
            Ok(SoftBodyState::new(sim, follows, worn))
        });
        match started {
            Ok(mut state) => {
                state.apply(body);
                let mut e = commands.entity(entity);
                if let Some(meshes) = meshes.as_deref_mut() {
                    let mesh = SoftBodyMesh::new(&model, &state.sim, meshes);
                    e.insert(Mesh3d(mesh.handle.clone()));
                    e.insert(mesh);
                }
                e.insert(state);
            }
            Err(error) => fail(&mut commands, &mut failures, entity, error.into()),
        }
    }
}

/// The joints of `model`'s skeleton among `character`, its descendants and, for a skinned
/// mesh, its joints, found by name, with their world matrices now; `None` while the character
/// has neither descendants nor a skin yet (its scene is still loading). Errors: a model worn on
/// no skeleton, no such character, a joint missing.
fn joints(
    model: &ValidModel,
    character: Entity,
    (children, names, skins): &Hierarchy,
    targets: &Query<&GlobalTransform>,
) -> Result<Option<Worn>, SpringmeshBevyError> {
    let rig = model.rig.as_ref().ok_or(SpringmeshBevyError::NotWorn)?;
    if targets.get(character).is_err() {
        return Err(SpringmeshBevyError::NoCharacter { character });
    }
    let skin = skins.get(character).map(|s| &s.joints[..]).unwrap_or_default();
    if children.get(character).is_err() && skin.is_empty() {
        return Ok(None);
    }
    let mut named: HashMap<&str, Entity> = HashMap::default();
    let below = std::iter::once(character).chain(children.iter_descendants(character));
    for e in below.chain(skin.iter().copied()) {
        if let Ok(name) = names.get(e) {
            named.entry(name.as_str()).or_insert(e);
        }
    }
    let mut worn = Worn { joints: Vec::new(), last: Vec::new(), goal: Vec::new() };
    for joint in &rig.joints {
        let found = named.get(joint.name.as_str()).copied();
        let (Some(e), Some(at)) = (found, found.and_then(|e| targets.get(e).ok())) else {
            return Err(SpringmeshBevyError::MissingJoint { joint: joint.name.clone(), character });
        };
        worn.joints.push(e);
        worn.goal.push(to_core_matrix(at.to_matrix()));
    }
    worn.last.clone_from(&worn.goal);
    Ok(Some(worn))
}

/// The name of the first joint of `model`'s skeleton (its root, as converted), or "" for a
/// model worn on none.
fn first_joint(model: &ValidModel) -> String {
    let joint = model.rig.as_ref().and_then(|rig| rig.joints.first());
    joint.map(|j| j.name.clone()).unwrap_or_default()
}

/// Moves the model's nodes rigidly to where the entity is (rotation and translation); an
/// error when that would take them out of a model's bounds.
fn place(model: &mut ValidModel, at: GlobalTransform) -> Result<(), CoreError> {
    if at == GlobalTransform::IDENTITY {
        return Ok(());
    }
    let (_, rotation, translation) = at.to_scale_rotation_translation();
    model.place(quat_to_core(rotation), to_core(translation))
}

/// The anchors that follow entities, each made an anchor if the model had not pinned it.
fn follows(
    model: &mut ValidModel,
    body: &SoftBody,
    entity: Entity,
    targets: &Query<&GlobalTransform>,
) -> Vec<Follow> {
    let mut follows = Vec::with_capacity(body.follows.len());
    for &(node, target) in &body.follows {
        let id = NodeId(node);
        let Some(&at) = model.nodes.positions().get(id.index()) else {
            warn!("soft body {entity}: node {node} to follow {target} is not in the model");
            continue;
        };
        // Every target has a transform: the body waited for them.
        let Ok(frame) = targets.get(target) else { continue };
        if model.anchor(id).is_err() {
            continue;
        }
        let last = to_bevy(at);
        let offset = frame.affine().inverse().transform_point3(last);
        follows.push(Follow { node: id, target, offset, last, goal: last });
    }
    follows
}

/// Sends the frame's broken springs and energies.
pub(crate) fn report(
    bodies: Query<(Entity, &SoftBody, &SoftBodyState)>,
    mut broken: MessageWriter<SpringBroken>,
    mut energies: MessageWriter<SoftBodyEnergy>,
) {
    for (entity, body, state) in &bodies {
        let time = state.sim.time();
        broken.write_batch(state.broken.iter().map(|&spring| SpringBroken {
            body: entity,
            spring,
            time,
        }));
        if body.report_energy && state.steps > 0 {
            energies.write(SoftBodyEnergy { body: entity, energy: state.energy() });
        }
    }
}

/// Rewrites the meshes of the bodies that stepped or moved: their surfaces worked out in
/// parallel on the compute task pool, then copied into the mesh assets.
pub(crate) fn update_meshes(
    mut bodies: Query<(Ref<SoftBodyState>, &mut SoftBodyMesh, Ref<GlobalTransform>), Moved>,
    meshes: Option<ResMut<Assets<Mesh>>>,
) {
    let Some(mut meshes) = meshes else { return };
    let due = |state: &Ref<SoftBodyState>, at: &Ref<GlobalTransform>| {
        state.steps > 0 || state.is_added() || at.is_changed()
    };
    bodies.par_iter_mut().for_each(|(state, mut mesh, at)| {
        if due(&state, &at) {
            mesh.prepare(&state.sim, &at.affine());
        }
    });
    for (state, mut mesh, at) in &mut bodies {
        if due(&state, &at) {
            mesh.update(&state.sim, &mut meshes);
        }
    }
}
