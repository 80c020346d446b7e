//! The panels around the viewport, each reading the app state and returning actions.

pub mod editing;
pub mod inspector;
pub mod menu;
pub mod messages;
pub mod model;
pub mod prompt;
pub mod simulation;
pub mod status;
