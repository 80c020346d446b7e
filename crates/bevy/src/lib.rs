//! # springmesh-bevy
//!
//! Springmesh models in a Bevy 0.19 game: load a `.spring` (or `.spring.json`) file as an
//! asset, put a [`SoftBody`] on an entity, and it simulates and draws itself.
//!
// The example draws, so it is compiled with the renderer (the `examples` feature, as CI does).
#![cfg_attr(feature = "examples", doc = "```no_run")]
#![cfg_attr(not(feature = "examples"), doc = "```ignore")]
//! use bevy::prelude::*;
//! use springmesh_bevy::{SoftBody, SpringmeshPlugin};
//!
//! fn main() {
//!     App::new().add_plugins((DefaultPlugins, SpringmeshPlugin)).add_systems(Startup, setup).run();
//! }
//!
//! fn setup(mut commands: Commands, assets: Res<AssetServer>) {
//!     // The one line: a model that simulates and draws itself (a material makes it visible).
//!     commands.spawn((SoftBody::new(assets.load("flag.spring")), MeshMaterial3d::<StandardMaterial>::default()));
//! }
//! ```
//!
//! - [`SpringModelAsset`]: the loaded model ([`asset`] says how files are read; a file that
//!   is not a model fails to load with the reason, it never panics).
//! - [`SoftBody`]: the component a game adds: the model, anchors that follow entities
//!   ([`SoftBody::follow`]), gravity and wind.
//! - [`SoftBodyState`]: inserted once the model has loaded: node positions and the drawn
//!   surface in world space, energy, broken springs, and the [`springmesh_core::Simulation`]
//!   itself.
//! - [`SoftCollider`]: a sphere, box or plane on any entity that every body collides with.
//! - [`SpringBroken`], [`SoftBodyEnergy`] and [`SoftBodyFailure`]: messages to the game.
//! - With the `avian` feature and avian 0.7's `PhysicsPlugins` in the app, the soft bodies
//!   meet avian's colliders and push its rigid bodies, stepped in avian's schedule on its
//!   clock (the `avian` module's doc gives the contract).
//!
//! Each body steps its model's own `dt` with its model's integrator and parameters, exactly
//! as [`springmesh_core::Simulation::step`] does, as many times as the frame's virtual time
//! allows ([`systems`] gives the order). With a renderer, the body's [`Mesh3d`](bevy::mesh::Mesh3d)
//! follows its surface ([`mesh`]); without one (a server, a test) nothing is drawn and the rest
//! works the same.

pub mod asset;
#[cfg(feature = "avian")]
mod avian;
mod body;
mod collider;
mod convert;
mod error;
pub mod mesh;
mod messages;
#[cfg(feature = "gltf")]
pub mod painted;
pub mod systems;
mod world;

pub use asset::{SpringModelAsset, SpringModelLoader};
pub use body::{MAX_STEPS_PER_FRAME, START_TIMEOUT, SoftBody, SoftBodyState};
pub use collider::{SoftCollider, SoftColliderShape};
pub use error::SpringmeshBevyError;
pub use messages::{SoftBodyEnergy, SoftBodyFailure, SpringBroken};
#[cfg(feature = "gltf")]
pub use painted::{painted_attribute, with_painted_attributes};
pub use springmesh_core;
pub use systems::SoftBodyFailed;

use bevy::app::{App, Plugin, PostUpdate};
use bevy::asset::AssetApp;
use bevy::ecs::schedule::{IntoScheduleConfigs, SystemSet};
use bevy::transform::TransformSystems;

/// The plugin's systems, in `PostUpdate` after transform propagation. Order a system that
/// reads [`SoftBodyState::positions`] in the same frame `.after(SpringmeshSystems)`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SpringmeshSystems;

/// Loads `.spring` and `.spring.json` assets and steps and draws every [`SoftBody`].
/// Needs `AssetPlugin`, `TransformPlugin` and a `TimePlugin` (all in `DefaultPlugins`, and
/// in `MinimalPlugins` plus the first two for a headless app).
pub struct SpringmeshPlugin;

impl Plugin for SpringmeshPlugin {
    fn build(&self, app: &mut App) {
        app.init_asset::<SpringModelAsset>()
            .init_asset_loader::<SpringModelLoader>()
            .add_message::<SpringBroken>()
            .add_message::<SoftBodyEnergy>()
            .add_message::<SoftBodyFailure>()
            .init_resource::<world::SoftWorld>()
            .configure_sets(PostUpdate, SpringmeshSystems.after(TransformSystems::Propagate))
            .add_systems(
                PostUpdate,
                (
                    systems::start_bodies,
                    world::step_bodies.run_if(world::on_frame_clock),
                    systems::report,
                    systems::update_meshes,
                )
                    .chain()
                    .in_set(SpringmeshSystems),
            );
    }

    /// With the `avian` feature and avian's plugins in the app, the bodies step in avian's
    /// schedule and meet its bodies (`avian` module).
    #[cfg(feature = "avian")]
    fn finish(&self, app: &mut App) {
        avian::join(app);
    }
}
