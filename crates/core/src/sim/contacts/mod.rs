//! Contacts: the ground, the model's colliders (still or moved by the game), the game's own
//! collision callback, the game's rigid bodies, the model's edges against round colliders (and which of them each node may touch), and the model with itself.

pub mod collision;
pub(crate) mod edges;
pub mod moving;
pub(crate) mod near;
pub(crate) mod rigid_bodies;
pub(crate) mod round;
pub(crate) mod self_collision;
pub(crate) mod sides;
pub(crate) mod support;
pub(crate) mod surface;
