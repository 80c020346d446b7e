//! Constraints beyond the springs: tethers to the anchors. (The anchors themselves are
//! placed by each integrator from [`crate::sim::compile`]'s anchor table.)

pub(crate) mod tethers;
