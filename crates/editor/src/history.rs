//! Undo and redo: two stacks of edits that take the model back and forth, each with the
//! document revision it returns to, so that undoing back to the saved state clears the
//! unsaved-changes mark.

use crate::edit::{self, Edit};
use crate::error::EditorError;
use springmesh_core::SpringModel;

/// The most steps kept: the oldest go first. Removing nodes keeps a whole model per step, so
/// a long history of a large model stays within a few hundred megabytes.
pub const MAX_STEPS: usize = 100;

/// One step of history: the edit that goes back over it, and where that leads.
#[derive(Clone, Debug)]
struct Entry {
    /// What the artist did, for the Edit menu ("Add spring", "Delete 3 nodes", ...).
    label: String,
    /// The edit that reverses the step.
    edit: Edit,
    /// The document revision after reversing it.
    revision: u64,
}

/// Which way to go through the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Back over the last step.
    Undo,
    /// Forward over the last undone step.
    Redo,
}

/// The undo and redo stacks.
#[derive(Clone, Debug, Default)]
pub struct History {
    undo: Vec<Entry>,
    redo: Vec<Entry>,
}

impl History {
    /// Records a step done at revision `revision` whose reverse is `inverse`; the redo stack
    /// is forgotten. With `join`, a step with the same label as the last one (a value dragged
    /// on, a node moved further in the same drag) joins it: the last step's reverse already
    /// goes back to before both, so one drag is one undo step.
    pub fn record(&mut self, label: String, inverse: Edit, revision: u64, join: bool) {
        self.redo.clear();
        if join && self.undo.last().is_some_and(|top| top.label == label) {
            return;
        }
        if self.undo.len() == MAX_STEPS {
            self.undo.remove(0);
        }
        self.undo.push(Entry { label, edit: inverse, revision });
    }

    /// Goes one step in `direction` on `model`, now at `revision`: returns the step's label,
    /// the revision the model is at afterwards, and whether more than parameters changed.
    pub fn go(
        &mut self,
        direction: Direction,
        model: &mut SpringModel,
        revision: u64,
    ) -> Result<(String, u64, bool), EditorError> {
        let (from, to, what) = match direction {
            Direction::Undo => (&mut self.undo, &mut self.redo, "undo"),
            Direction::Redo => (&mut self.redo, &mut self.undo, "redo"),
        };
        let entry = from.pop().ok_or(EditorError::NothingTo { what })?;
        let structural = entry.edit.is_structural();
        let back = edit::apply(model, entry.edit)?;
        to.push(Entry { label: entry.label.clone(), edit: back, revision });
        Ok((entry.label, entry.revision, structural))
    }

    /// Labels of the steps that can be undone, oldest first.
    pub fn undo_labels(&self) -> impl DoubleEndedIterator<Item = &str> {
        self.undo.iter().map(|e| e.label.as_str())
    }

    /// Labels of the steps that can be redone, next first.
    pub fn redo_labels(&self) -> impl DoubleEndedIterator<Item = &str> {
        self.redo.iter().rev().map(|e| e.label.as_str())
    }
}
