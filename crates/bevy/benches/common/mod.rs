//! What the plugin's pile benchmarks share: a compute task pool with a thread per core, and
//! soft bodies spawned until they have all started.

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;
use springmesh_bevy::{SoftBody, SoftBodyState, SpringModelAsset};
use springmesh_core::ValidModel;

/// Bevy's task pools with a compute thread per core. (Bevy's default gives the compute pool
/// what the IO and async pools leave, at least one thread each: on two cores, one thread, and
/// the bodies would step one after another; a game that steps its physics on every core gives
/// the pool the cores.)
pub fn compute_on_every_core() -> TaskPoolPlugin {
    let mut pools = TaskPoolOptions::default();
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    (pools.compute.min_threads, pools.compute.max_threads) = (cores, cores);
    TaskPoolPlugin { task_pool_options: pools }
}

/// Spawns a `SoftBody` of each of `models` and updates `app` until they have all started.
pub fn spawn_started(app: &mut App, models: &[ValidModel]) -> Vec<Entity> {
    let mut bodies = Vec::new();
    for model in models.iter().cloned() {
        let handle = app
            .world_mut()
            .resource_mut::<Assets<SpringModelAsset>>()
            .add(SpringModelAsset { model });
        bodies.push(app.world_mut().spawn(SoftBody::new(handle)).id());
    }
    while bodies.iter().any(|&b| app.world().get::<SoftBodyState>(b).is_none()) {
        app.update();
    }
    bodies
}
