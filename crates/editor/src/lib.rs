//! # springmesh-editor
//!
//! The desktop tool an artist lives in: open a mesh or a model, convert it, see it, step
//! through its nodes, fix it by hand with undoable edits, and test it live. eframe runs the
//! window with the glow renderer; egui draws the panels; three-d draws the 3D viewport inside
//! egui's paint callback.
//!
//! State and drawing are kept apart so that everything but the GPU runs in tests: the
//! [`app::EditorApp`] owns a [`document::Document`] (the model, its file, its selection),
//! panels read it and return [`actions::Action`]s, the app applies them, and the viewport's
//! renderer lives on the GPU side only.

pub mod actions;
pub mod app;
pub mod behaviour_jobs;
pub mod camera;
pub mod commands;
pub mod document;
pub mod edit;
pub mod error;
pub mod grab;
pub mod history;
pub mod jobs;
pub mod live;
pub mod loader;
pub mod panels;
pub mod picking;
pub mod recent;
pub mod screenshot;
pub mod selection;
pub mod stability;
pub mod timing;
pub mod viewport;
