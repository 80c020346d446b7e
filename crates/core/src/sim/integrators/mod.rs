//! The integrators: how a step advances the nodes, each with the corrections only it needs.

pub mod adaptive;
pub mod explicit;
pub(crate) mod spin;
pub mod xpbd;
