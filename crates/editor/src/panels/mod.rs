//! The panels around the viewport, each reading the app state and returning actions. A panel
//! that keeps state between frames owns it and draws itself with one `ui(&mut self, …)` call
//! ([`model::ModelPanel`], [`side::SidePanel`]), as in egui's demo app; the others are functions.

pub mod behaviour;
pub mod colliders;
pub mod editing;
pub mod inspector;
pub mod menu;
pub mod messages;
pub mod model;
pub mod prompt;
pub mod side;
pub mod simulation;
pub mod status;
pub mod worn;
