//! Constraints beyond the springs: tethers to the anchors. (The anchors themselves are
//! placed by each integrator from the compiled model's anchor table.)

pub(crate) mod tethers;
