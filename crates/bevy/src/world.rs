//! All the app's soft bodies in one world: stepped together, kept from passing through each
//! other, in parallel on Bevy's compute task pool.
//!
//! The core's [`Meeting`] does what [`springmesh_core::World`] does for bodies the plugin keeps
//! in components: each frame step is cut into as many world steps as the bodies' relative
//! speeds need (the core's module doc gives the rule), every body advances one world step (on
//! the task pool, one task per body), then the contacts between bodies are answered. A body
//! made [`SoftBody::alone`] takes its frame steps whole and meets no other body.
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
use springmesh_core::sim::{Meeting, Member, Pool, Threads};
use springmesh_core::{CoreError, StepReport};

/// How close to a whole step the owed time must be to take it: virtual time advances in
/// whole nanoseconds, so a frame of exactly `dt` may be a hair shorter than `dt`.
const STEP_SLACK: f64 = 1e-4;

/// The bodies' shared world: the simulated time owed to it, the core's contact scratch and
/// where each of the game's colliders was at the end of the last frame.
#[derive(Resource)]
pub(crate) struct SoftWorld {
    owed: f64,
    meeting: Meeting,
    colliders: HashMap<Entity, GlobalTransform>,
}

impl Default for SoftWorld {
    fn default() -> SoftWorld {
        SoftWorld { owed: 0.0, meeting: Meeting::default(), colliders: HashMap::default() }
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
    let mut running: Vec<(Entity, bool, &mut SoftBodyState)> = Vec::new();
    let (mut dt, mut cap) = (f32::INFINITY, u32::MAX);
    for (entity, body, state) in &mut bodies {
        // A body started this frame shows the pose it was put on: it steps from the next.
        let started = state.is_added();
        let state = state.into_inner();
        if body.is_changed() {
            state.apply(&body);
        }
        state.broken.clear();
        state.steps = 0;
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
        running.push((entity, body.meets_bodies, state));
    }
    if running.is_empty() {
        world.owed = 0.0;
        return;
    }
    let steps = owed_steps(&mut world.owed, time.delta_secs_f64(), f64::from(dt), cap);
    let pool = ComputeTaskPool::get_or_init(TaskPool::default);
    for i in 0..steps {
        // A look at every body's points, quicker on this thread than a scope's wake-up.
        let k = world.meeting.world_steps(&members(&mut running), dt, &Threads::One);
        let spans = world.meeting.spans(&members(&mut running), dt, k);
        let mut done = 0.0;
        for (j, &span) in spans.iter().enumerate() {
            done += span;
            let through = if j + 1 == spans.len() { 1.0 } else { done / dt };
            let share = (i as f32 + through) / steps as f32;
            let whole = (i + 1) as f32 / steps as f32;
            let moving = &moving;
            // The last world step's points, to be filled again.
            let mut spare = world.meeting.take_drawn();
            let outcomes = pool.scope(|scope| {
                for (_, meets, state) in running.iter_mut() {
                    // A body alone takes its frame step whole, with the first world step.
                    let (share, h) = match (*meets, j) {
                        (true, _) => (share, span),
                        (false, 0) => (whole, dt),
                        (false, _) => continue,
                    };
                    if state.failure.is_some() {
                        continue;
                    }
                    let (state, meets): (&mut SoftBodyState, bool) = (state, *meets);
                    let buffer = meets.then(|| spare.pop().unwrap_or_default());
                    scope.spawn(async move {
                        let outcome = advance(state, share, h, moving);
                        // Its points for the contacts, while the body is in this core's cache.
                        let drawn = buffer.map(|mut drawn| {
                            state.touching.draw(&state.sim, &mut drawn);
                            drawn
                        });
                        (outcome, drawn)
                    });
                }
            });
            let stepped = running
                .iter_mut()
                .filter(|(_, meets, s)| (*meets || j == 0) && s.failure.is_none());
            // The members' points, in the order `members` lends them.
            let mut drawn = Vec::new();
            for ((entity, _, state), (outcome, points)) in stepped.zip(outcomes) {
                match outcome {
                    Ok(report) => {
                        state.broken.extend(report.broken);
                        drawn.extend(points);
                    }
                    Err(e) => {
                        error!("soft body {entity} stopped: {e}");
                        state.failure = Some(e);
                    }
                }
            }
            world.meeting.answer_drawn(&mut members(&mut running), drawn, &Compute(pool));
        }
        for (_, _, state) in running.iter_mut().filter(|(_, _, s)| s.failure.is_none()) {
            state.steps += 1;
        }
    }
    for (_, _, state) in running {
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

/// The running bodies that meet the others (not alone, not failed), lent to the core.
fn members<'a>(running: &'a mut [(Entity, bool, &mut SoftBodyState)]) -> Vec<Member<'a>> {
    running
        .iter_mut()
        .filter(|(_, meets, s)| *meets && s.failure.is_none())
        .map(|(_, _, s)| Member { sim: &mut s.sim, touching: &s.touching })
        .collect()
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
    state.sim.step(h)
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
