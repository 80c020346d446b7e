//! All the app's soft bodies in one world: stepped together, kept from passing through each
//! other, in parallel on Bevy's compute task pool.
//!
//! The core's frame loop ([`Meeting::step_frame`]), the one [`springmesh_core::World`] runs,
//! steps the bodies the plugin keeps in components: each frame step is cut into as many world
//! steps as the bodies' relative speeds need (the core's module doc gives the rule), every
//! body advances one world step (on the task pool, one task per body), then the contacts
//! between bodies are answered. A body made [`SoftBody::alone`] takes its frame steps whole
//! and meets no other body.
//!
//! Within a frame everything a body follows moves in equal parts across its steps, from where
//! it was at the end of the last frame to where it is now: followed anchors, the joints of the
//! character a body is worn by (each matrix's scale, rotation and translation interpolated),
//! and the game's colliders, which the core then moves at constant velocity across each step
//! ([`Simulation::move_collider`]): a collider on a swinging bone pushes and drags the cloth
//! at the bone's speed, and the body ends the frame exactly where its targets are: no lag.

use crate::collider::SoftCollider;
use crate::convert::{blend, from_core_matrix, to_core, to_core_matrix};
use crate::{SoftBody, SoftBodyState};
use bevy::ecs::change_detection::{DetectChanges, Ref};
use bevy::ecs::entity::Entity;
use bevy::ecs::resource::Resource;
use bevy::ecs::system::{Query, Res, ResMut};
use bevy::log::error;
use bevy::platform::collections::HashMap;
use bevy::tasks::{ComputeTaskPool, TaskPool};
use bevy::time::Time;
use bevy::transform::components::GlobalTransform;
use springmesh_core::sim::{Body, Meeting, Member, Pool};
use springmesh_core::{CoreError, StepReport};

/// How close to a whole step the owed time must be to take it: virtual time advances in
/// whole nanoseconds, so a frame of exactly `dt` may be a hair shorter than `dt`.
const STEP_SLACK: f64 = 1e-4;

/// The bodies' shared world: its clock, the simulated time owed to it, the core's contact
/// scratch and where each of the game's colliders was at the end of the last frame.
#[derive(Resource)]
pub(crate) struct SoftWorld {
    pub clock: Clock,
    owed: f64,
    meeting: Meeting,
    colliders: HashMap<Entity, GlobalTransform>,
}

impl Default for SoftWorld {
    fn default() -> SoftWorld {
        let (owed, meeting, colliders) = (0.0, Meeting::default(), HashMap::default());
        SoftWorld { clock: Clock::Frame, owed, meeting, colliders }
    }
}

/// What the bodies step by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Clock {
    /// Each frame's virtual time, in `PostUpdate`: whole steps of the models' `dt`, the rest
    /// owed to the next frame.
    Frame,
    /// A physics engine's steps (the `avian` module), each taken whole: cut into the fewest
    /// equal steps no longer than the models' `dt`.
    Physics,
}

/// True when the bodies step by the frame ([`Clock::Frame`]).
pub(crate) fn on_frame_clock(world: Res<SoftWorld>) -> bool {
    world.clock == Clock::Frame
}

/// Before a frame's physics steps, on a physics engine's clock: the frame's broken springs and
/// step count start again (several physics steps may fall in one frame).
pub(crate) fn begin_frame(mut bodies: Query<&mut SoftBodyState>) {
    for mut state in &mut bodies {
        state.broken.clear();
        state.steps = 0;
    }
}

/// Bevy's compute task pool as the core's [`Pool`]: the contacts between bodies are searched
/// where the bodies step. (On rayon's pool, the core's `Threads::All`, rayon's workers, which
/// spin a while after their work before they sleep, held the cores Bevy's threads needed for
/// the next steps: the 16-blob pile bench's frame on two cores varied by 30% from sample to
/// sample; on the system's thread alone the search made the frame 3–5% longer than here.)
struct Compute<'a>(&'a TaskPool);

impl Pool for Compute<'_> {
    fn map<T: Send + 'static, F: Fn(usize) -> T + Sync + Send>(&self, n: usize, f: F) -> Vec<T> {
        let f = &f;
        self.0.scope(|scope| {
            for i in 0..n {
                scope.spawn(async move { f(i) });
            }
        })
    }

    /// One task per job (per body stepped).
    fn each<J: Send, T: Send + 'static, F: Fn(J) -> T + Sync + Send>(
        &self,
        jobs: Vec<J>,
        f: F,
    ) -> Vec<T> {
        let f = &f;
        self.0.scope(|scope| {
            for job in jobs {
                scope.spawn(async move { f(job) });
            }
        })
    }
}

/// A running body as the core's frame loop steps it ([`Meeting::step_frame`]): its state,
/// whether it meets the others, the game's colliders, and which of the frame's owed steps
/// is being taken (the `i`th of `steps`), for where its targets are.
struct Running<'a> {
    entity: Entity,
    meets: bool,
    state: &'a mut SoftBodyState,
    moving: &'a [Moving],
    owed: (u32, u32),
}

impl Body for Running<'_> {
    fn member(&mut self) -> Member<'_> {
        Member { sim: &mut self.state.sim, touching: &self.state.touching }
    }

    fn meets(&self) -> bool {
        self.meets
    }

    fn advance(&mut self, h: f32, through: f32) -> Result<StepReport, CoreError> {
        let (i, steps) = self.owed;
        let share = (i as f32 + through) / steps as f32;
        advance(self.state, share, h, self.moving)
    }
}

/// A game collider this frame: its shape, and where it was and is.
type Moving = (SoftCollider, GlobalTransform, GlobalTransform);

/// Steps every body by the frame's virtual time (module doc).
pub(crate) fn step_bodies(
    time: Res<Time>,
    mut world: ResMut<SoftWorld>,
    mut bodies: Query<(Entity, Ref<SoftBody>, &mut SoftBodyState)>,
    colliders: Query<(Entity, &SoftCollider, &GlobalTransform)>,
    targets: Query<&GlobalTransform>,
) {
    let world = &mut *world;
    let entities: Vec<Entity> = colliders.iter().map(|(e, ..)| e).collect();
    let moving: Vec<Moving> = colliders
        .iter()
        .map(|(e, c, &now)| (*c, world.colliders.get(&e).copied().unwrap_or(now), now))
        .collect();
    world.colliders = colliders.iter().map(|(e, _, &t)| (e, t)).collect();
    let mut running: Vec<Running> = Vec::new();
    let (mut dt, mut cap) = (f32::INFINITY, u32::MAX);
    for (entity, body, state) in &mut bodies {
        // A body started this frame shows the pose it was put on: it steps from the next.
        let started = state.is_added();
        let state = state.into_inner();
        if body.is_changed() {
            state.apply(&body);
        }
        if world.clock == Clock::Frame {
            state.broken.clear();
            state.steps = 0;
        }
        if state.failure.is_some() || started {
            continue;
        }
        for f in &mut state.follows {
            f.goal = targets.get(f.target).map_or(f.last, |t| t.transform_point(f.offset));
        }
        if let Some(worn) = &mut state.worn {
            for (goal, joint) in worn.goal.iter_mut().zip(&worn.joints) {
                if let Ok(at) = targets.get(*joint) {
                    *goal = to_core_matrix(at.to_matrix());
                }
            }
        }
        if state.game_colliders != entities {
            let own = state.own_colliders;
            let list = &mut state.sim.params_mut().colliders;
            list.truncate(own);
            list.extend(moving.iter().map(|(c, last, _)| c.obstacle(last)));
            state.game_colliders.clone_from(&entities);
        }
        dt = dt.min(state.sim.params().dt);
        cap = cap.min(body.max_steps_per_frame);
        let (meets, moving) = (body.meets_bodies, &moving[..]);
        running.push(Running { entity, meets, state, moving, owed: (0, 0) });
    }
    if running.is_empty() {
        world.owed = 0.0;
        return;
    }
    let (steps, dt) = match world.clock {
        Clock::Frame => {
            (owed_steps(&mut world.owed, time.delta_secs_f64(), f64::from(dt), cap), dt)
        }
        Clock::Physics => steps_within(time.delta_secs_f64(), dt, cap),
    };
    let pool = Compute(ComputeTaskPool::get_or_init(TaskPool::default));
    for i in 0..steps {
        running.retain(|r| r.state.failure.is_none());
        running.iter_mut().for_each(|r| r.owed = (i, steps));
        let frame = world.meeting.step_frame(&mut running, dt, &pool, None);
        for (r, result) in running.iter_mut().zip(frame.bodies) {
            match result {
                Ok(report) => {
                    r.state.broken.extend(report.broken);
                    r.state.steps += 1;
                }
                Err(e) => {
                    error!("soft body {} stopped: {e}", r.entity);
                    r.state.failure = Some(e);
                }
            }
        }
    }
    for Running { state, .. } in running {
        for f in &mut state.follows {
            f.last = f.goal;
        }
        if let Some(worn) = &mut state.worn {
            worn.last.clone_from(&worn.goal);
        }
        if state.steps > 0 {
            state.read_positions();
        }
    }
}

/// One world step of `h` seconds for a body whose targets are at `share` of the way from
/// last frame's to this frame's: its followed anchors, its character's pose and the game's
/// colliders are moved there over the step.
fn advance(
    state: &mut SoftBodyState,
    share: f32,
    h: f32,
    colliders: &[Moving],
) -> Result<StepReport, CoreError> {
    for f in &state.follows {
        // A node that is no longer an anchor (unpinned through `simulation_mut`) simply
        // stops following.
        let _ = state.sim.set_anchor_position(f.node, to_core(f.last.lerp(f.goal, share)));
    }
    if let Some(worn) = &state.worn {
        let pose: Vec<_> =
            worn.last.iter().zip(&worn.goal).map(|(&a, &b)| blend(a, b, share)).collect();
        state.sim.set_pose(&pose)?;
    }
    for (k, (collider, last, now)) in colliders.iter().enumerate() {
        let at = blend(to_core_matrix(last.to_matrix()), to_core_matrix(now.to_matrix()), share);
        let shape = collider.obstacle(&GlobalTransform::from(from_core_matrix(at))).shape;
        // A collider the game replaced through `simulation_mut` is no longer moved.
        let _ = state.sim.move_collider(state.own_colliders + k, shape);
    }
    let report = state.sim.step(h)?;
    state.rigid.took(state.sim.rigid_impulses());
    Ok(report)
}

/// The fewest equal steps, at most `cap`, that take `elapsed` seconds whole with none longer
/// than `dt`, and their length; past the cap, `cap` steps of `dt` (the rest is forgiven).
fn steps_within(elapsed: f64, dt: f32, cap: u32) -> (u32, f32) {
    let due = (elapsed / f64::from(dt) - STEP_SLACK).ceil().max(1.0);
    if due > f64::from(cap) {
        return (cap, dt);
    }
    (due as u32, (elapsed / due) as f32)
}

/// How many steps of `dt` the world takes now that `elapsed` more seconds are owed, at most
/// `cap`; time beyond the cap is forgiven.
fn owed_steps(owed: &mut f64, elapsed: f64, dt: f64, cap: u32) -> u32 {
    *owed += elapsed;
    let due = (*owed / dt + STEP_SLACK).floor().max(0.0);
    if due > f64::from(cap) {
        *owed = 0.0;
        return cap;
    }
    *owed -= due * dt;
    due as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_physics_step_is_taken_whole_in_the_fewest_steps_no_longer_than_dt() {
        // avian's 64 Hz against models of 60 Hz and 120 Hz: one step of 1/64 s, two of 1/128.
        assert_eq!(steps_within(1.0 / 64.0, 1.0 / 60.0, 8), (1, 1.0 / 64.0));
        assert_eq!(steps_within(1.0 / 64.0, 1.0 / 120.0, 8), (2, 1.0 / 128.0));
        // A step a nanosecond over dt is one step; a long hitch is capped at whole dt steps.
        assert_eq!(steps_within(0.01 + 1e-9, 0.01, 8).0, 1);
        assert_eq!(steps_within(1.0, 0.01, 8), (8, 0.01));
    }
}
