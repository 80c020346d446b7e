//! What the panels ask the app to do. Panels read the document and return actions; the app
//! carries them out in one place, so every path through the UI (menus, keys, buttons, drops)
//! does the same thing.

use crate::commands::Command;
use crate::edit::Edit;
use springmesh_convert::ConvertOptions;
use springmesh_convert::samples::Sample;
use std::path::PathBuf;

/// A request from the UI.
#[derive(Clone, Debug)]
pub enum Action {
    /// A command from the table (menus and shortcuts).
    Run(Command),
    /// Open a model or mesh file.
    Open(PathBuf),
    /// Open a built-in sample.
    OpenSample(Sample),
    /// Convert the open mesh again with these options.
    Convert(ConvertOptions),
    /// Make the open model again from its source mesh, keeping its hand edits.
    Reconvert,
    /// Show a message.
    Notify(String),
    /// Dismiss the message at this index.
    Dismiss(usize),
    /// Run the stability check on the model.
    Check,
    /// Test a free model on a ground just under it (true) or bare (false).
    TestGround(bool),
    /// Try bracing the worst region with vicinity springs of this stiffness (N/m) and damping
    /// (N·s/m); keep them only if the check's error falls.
    Brace(f32, f32),
    /// Change the model: one undoable step with this label.
    Edit(Edit, String),
    /// Change the model as part of the last step if it has this label (a drag going on).
    EditContinued(Edit, String),
    /// Find the model's vibration modes (done by itself for small models).
    FindModes,
    /// Scale every stiffness so the model rings at this frequency or sags this much: one
    /// undoable step once it is worked out.
    FitStiffness(springmesh_analysis::stiffness_fit::Target),
    /// Play this clip of the character in the test (`None`: hold the rest pose); the test
    /// starts over.
    PlayClip(Option<usize>),
    /// Pull a node of the running test towards a point (m), or let go (`None`).
    Grab(Option<(springmesh_core::NodeId, glam::Vec3)>),
}
