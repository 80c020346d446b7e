//! The plugin's systems, in the order they run in `PostUpdate`, after transform propagation
//! (so every `GlobalTransform` read here is this frame's: anchors and colliders do not lag):
//!
//! 1. [`start_bodies`]: a body whose model has loaded gets its [`SoftBodyState`] (and, when
//!    the app has meshes, its [`Mesh3d`]).
//! 2. [`step_bodies`]: each body owes the frame's virtual time; it takes as many steps of its
//!    model's `dt` as fit (at most [`SoftBody::max_steps_per_frame`]), its followed anchors
//!    moving in equal parts from where their targets were last frame to where they are now.
//! 3. [`report`]: broken springs and energies as messages.
//! 4. [`update_meshes`]: the meshes of bodies that moved.

use crate::body::Follow;
use crate::collider::SoftCollider;
use crate::convert::{quat_to_core, to_bevy, to_core};
use crate::mesh::SoftBodyMesh;
use crate::messages::{SoftBodyEnergy, SpringBroken};
use crate::{SoftBody, SoftBodyState, SpringModelAsset};
use bevy::asset::Assets;
use bevy::ecs::change_detection::{DetectChanges, Ref};
use bevy::ecs::component::Component;
use bevy::ecs::entity::Entity;
use bevy::ecs::message::MessageWriter;
use bevy::ecs::query::{Changed, Or, Without};
use bevy::ecs::system::{Commands, Query, Res, ResMut};
use bevy::log::{error, warn};
use bevy::mesh::{Mesh, Mesh3d};
use bevy::time::Time;
use bevy::transform::components::GlobalTransform;
use springmesh_core::model::Obstacle;
use springmesh_core::{CoreError, NodeId, Simulation, ValidModel};

/// Why a body could not start (its model cannot be simulated as placed); the body stays
/// without a [`SoftBodyState`].
#[derive(Component, Debug)]
pub struct SoftBodyFailed {
    /// The reason.
    pub error: CoreError,
}

/// How close to a whole step the owed time must be to take it: virtual time advances in
/// whole nanoseconds, so a frame of exactly `dt` may be a hair shorter than `dt`.
const STEP_SLACK: f64 = 1e-4;

/// Bodies not started yet (and not failed).
type Waiting = (Without<SoftBodyState>, Without<SoftBodyFailed>);

/// Bodies that may have moved since their mesh was written.
type Moved = Or<(Changed<SoftBodyState>, Changed<GlobalTransform>)>;

/// Starts every body whose model has loaded.
pub(crate) fn start_bodies(
    mut commands: Commands,
    bodies: Query<(Entity, &SoftBody, Option<&GlobalTransform>), Waiting>,
    models: Res<Assets<SpringModelAsset>>,
    targets: Query<&GlobalTransform>,
    mut meshes: Option<ResMut<Assets<Mesh>>>,
) {
    for (entity, body, placed) in &bodies {
        let Some(asset) = models.get(&body.model) else { continue };
        let mut model = asset.model.clone();
        match place(&mut model, placed.copied().unwrap_or_default()) {
            Ok(()) => {
                let follows = follows(&mut model, body, entity, &targets);
                let sim = Simulation::new(&model);
                let mut state = SoftBodyState::new(sim, follows);
                state.apply(body);
                let mut e = commands.entity(entity);
                if let Some(meshes) = meshes.as_deref_mut() {
                    let mesh = SoftBodyMesh::new(&model, &state.sim, meshes);
                    e.insert(Mesh3d(mesh.handle.clone()));
                    e.insert(mesh);
                }
                e.insert(state);
            }
            Err(error) => {
                error!("soft body {entity}: {error}");
                commands.entity(entity).insert(SoftBodyFailed { error });
            }
        }
    }
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
        let Ok(frame) = targets.get(target) else {
            warn!("soft body {entity}: {target}, which node {node} follows, has no transform");
            continue;
        };
        if model.anchor(id).is_err() {
            continue;
        }
        let last = to_bevy(at);
        let offset = frame.affine().inverse().transform_point3(last);
        follows.push(Follow { node: id, target, offset, last, goal: last });
    }
    follows
}

/// Steps every body by the frame's virtual time.
pub(crate) fn step_bodies(
    time: Res<Time>,
    mut bodies: Query<(Entity, Ref<SoftBody>, &mut SoftBodyState)>,
    colliders: Query<(&SoftCollider, &GlobalTransform)>,
    targets: Query<&GlobalTransform>,
) {
    let obstacles: Vec<Obstacle> = colliders.iter().map(|(c, at)| c.obstacle(at)).collect();
    let elapsed = time.delta_secs_f64();
    for (entity, body, mut state) in &mut bodies {
        let state = &mut *state;
        if body.is_changed() {
            state.apply(&body);
        }
        state.broken.clear();
        state.steps = 0;
        if state.failure.is_some() {
            continue;
        }
        let colliders = &mut state.sim.params_mut().colliders;
        colliders.truncate(state.own_colliders);
        colliders.extend_from_slice(&obstacles);
        for f in &mut state.follows {
            f.goal = targets.get(f.target).map_or(f.last, |t| t.transform_point(f.offset));
        }
        let steps = owed_steps(state, elapsed, body.max_steps_per_frame);
        for i in 1..=steps {
            let share = i as f32 / steps as f32;
            for f in &state.follows {
                // A node that is no longer an anchor (unpinned through `simulation_mut`)
                // simply stops following.
                let _ = state.sim.set_anchor_position(f.node, to_core(f.last.lerp(f.goal, share)));
            }
            let dt = state.sim.params().dt;
            match state.sim.step(dt) {
                Ok(report) => state.broken.extend(report.broken),
                Err(error) => {
                    error!("soft body {entity} stopped: {error}");
                    state.failure = Some(error);
                    break;
                }
            }
            state.steps += 1;
        }
        if steps > 0 {
            for f in &mut state.follows {
                f.last = f.goal;
            }
            state.read_positions();
        }
    }
}

/// How many steps of the model's `dt` the body takes now that `elapsed` more seconds are
/// owed, at most `cap`; time beyond the cap is forgiven.
fn owed_steps(state: &mut SoftBodyState, elapsed: f64, cap: u32) -> u32 {
    let dt = f64::from(state.sim.params().dt);
    state.owed += elapsed;
    let due = (state.owed / dt + STEP_SLACK).floor().max(0.0);
    if due > f64::from(cap) {
        state.owed = 0.0;
        return cap;
    }
    state.owed -= due * dt;
    due as u32
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

/// Rewrites the meshes of the bodies that stepped or moved.
pub(crate) fn update_meshes(
    mut bodies: Query<(Ref<SoftBodyState>, &mut SoftBodyMesh, Ref<GlobalTransform>), Moved>,
    meshes: Option<ResMut<Assets<Mesh>>>,
) {
    let Some(mut meshes) = meshes else { return };
    for (state, mut mesh, at) in &mut bodies {
        if state.steps > 0 || state.is_added() || at.is_changed() {
            mesh.update(&state.sim, &at.affine(), &mut meshes);
        }
    }
}
