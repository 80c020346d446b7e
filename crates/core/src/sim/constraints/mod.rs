//! Constraints beyond the springs: tethers to the anchors, the rig's max distances, and a worn
//! cloth's strain limit. (The
//! anchors themselves, kinematic nodes included, are placed by each integrator from the
//! compiled model's anchor table.)

pub mod rig;
pub(crate) mod strain;
pub(crate) mod tethers;
