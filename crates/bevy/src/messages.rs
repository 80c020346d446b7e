//! What the bodies tell the game, as Bevy messages (read them with `MessageReader`).

use bevy::ecs::entity::Entity;
use bevy::ecs::message::Message;
use springmesh_core::{Energy, SpringId};

/// A spring of a body broke (it was stretched past its breaking length).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct SpringBroken {
    /// The body's entity.
    pub body: Entity,
    /// The spring, by its index in the model.
    pub spring: SpringId,
    /// The body's simulated time (s) at the end of the step it broke in.
    pub time: f64,
}

/// A body's energy after a frame's steps, for bodies built
/// [`with_energy_messages`](crate::SoftBody::with_energy_messages).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct SoftBodyEnergy {
    /// The body's entity.
    pub body: Entity,
    /// Kinetic, elastic, gravitational and gas energy (J).
    pub energy: Energy,
}

/// A body could not start: the same failure as its [`SoftBodyFailed`](crate::SoftBodyFailed)
/// component, sent once, so a game hears of it without querying every body.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct SoftBodyFailure {
    /// The body's entity.
    pub body: Entity,
    /// Why, in words (the component keeps the error itself).
    pub reason: String,
}
