//! Contacts: the ground, static colliders and the game's own collision callback.

pub(crate) mod body;
pub mod collision;
pub(crate) mod surface;
