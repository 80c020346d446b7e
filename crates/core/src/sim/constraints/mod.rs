//! Constraints beyond the springs: tethers to the anchors, and the rig's max distances. (The
//! anchors themselves, kinematic nodes included, are placed by each integrator from the
//! compiled model's anchor table.)

pub mod rig;
pub(crate) mod tethers;
