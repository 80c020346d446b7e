//! Contacts: the ground, static colliders, the game's own collision callback, and the model
//! with itself.

pub(crate) mod body;
pub mod collision;
pub(crate) mod grid;
pub(crate) mod self_collision;
pub(crate) mod surface;
