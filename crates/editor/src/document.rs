//! The open document: the model being edited, where it came from, where it is saved, what is
//! selected, and whether it has unsaved changes.
//!
//! Panels read a `Document`; the model changes only through [`Document::edit`] (and undo and
//! redo), which bump its revision: that is how the viewport knows when to re-upload geometry,
//! the live simulation when to restart, and the title when to show `*`.

use crate::edit::{self, Edit};
use crate::error::EditorError;
use crate::history::{Direction, History};
use crate::selection::Selection;
use springmesh_convert::character::Character;
use springmesh_convert::samples::Sample;
use springmesh_convert::{ConvertOptions, ConvertReport};
use springmesh_core::SpringModel;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A revision number never handed out before, in any document: caches keyed by revision
/// (the viewport's geometry, the live simulation) then never take one model for another.
fn fresh_revision() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Where a document's model came from.
#[derive(Clone, Debug)]
pub enum Origin {
    /// A built-in sample.
    Sample(Sample),
    /// A `.spring` or `.spring.json` file.
    ModelFile,
    /// A mesh, converted with these options (kept so that it can be converted again).
    Mesh {
        /// The mesh file.
        path: PathBuf,
        /// The options of the conversion that made the model.
        options: Box<ConvertOptions>,
        /// What the conversion found.
        report: Box<ConvertReport>,
    },
}

/// An RGBA8 image for the faces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Pixels, row by row from the top, four bytes each.
    pub rgba: Vec<u8>,
}

/// The open document.
#[derive(Clone, Debug)]
pub struct Document {
    model: SpringModel,
    /// Where the model came from.
    pub origin: Origin,
    /// The model file Save writes to (`None` until saved or loaded from one).
    pub path: Option<PathBuf>,
    /// The name shown in the title.
    pub name: String,
    /// What is selected.
    pub selection: Selection,
    /// The faces' texture, if the mesh had one that could be read.
    pub texture: Option<TextureImage>,
    /// The character a worn model is worn on (its mesh and clips), read from the source
    /// file for the live test to play ([`springmesh_convert::character`]).
    pub character: Option<std::sync::Arc<Character>>,
    /// Things noticed while opening (a texture that could not be read, ...).
    pub notes: Vec<String>,
    /// Undo and redo.
    pub history: History,
    revision: u64,
    /// Changes with every change of the model other than its simulation parameters.
    structure: u64,
    saved_revision: u64,
}

impl Document {
    /// A document for `model`, unchanged since it was opened.
    pub fn new(
        model: SpringModel,
        origin: Origin,
        path: Option<PathBuf>,
        name: String,
    ) -> Document {
        let revision = fresh_revision();
        Document {
            model,
            origin,
            path,
            name,
            selection: Selection::default(),
            texture: None,
            character: None,
            notes: Vec::new(),
            history: History::default(),
            revision,
            structure: revision,
            saved_revision: revision,
        }
    }

    /// A built-in sample.
    pub fn sample(sample: Sample) -> Document {
        Document::new(sample.model(), Origin::Sample(sample), None, sample.name().to_string())
    }

    /// The model.
    pub fn model(&self) -> &SpringModel {
        &self.model
    }

    /// Changes with every change of the model (and differs between documents); the viewport
    /// re-uploads geometry when it moves.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Changes with every change of the model's nodes, springs, anchors or faces, but not of
    /// its parameters: a running test takes new parameters without starting over.
    pub fn structure(&self) -> u64 {
        self.structure
    }

    /// True when the model differs from what was last opened or saved.
    pub fn is_dirty(&self) -> bool {
        self.revision != self.saved_revision
    }

    /// Applies `edit` as one undoable step called `label`; on error nothing changes.
    pub fn edit(&mut self, edit: Edit, label: impl Into<String>) -> Result<(), EditorError> {
        self.change(edit, label.into(), false)
    }

    /// Applies `edit` as part of the last step when that has the same label (a drag going
    /// on), else as a new step.
    pub fn edit_continued(
        &mut self,
        edit: Edit,
        label: impl Into<String>,
    ) -> Result<(), EditorError> {
        self.change(edit, label.into(), true)
    }

    fn change(&mut self, edit: Edit, label: String, join: bool) -> Result<(), EditorError> {
        let structural = edit.is_structural();
        let inverse = edit::apply(&mut self.model, edit)?;
        self.history.record(label, inverse, self.revision, join);
        self.revision = fresh_revision();
        self.after_change(structural);
        Ok(())
    }

    /// Undoes or redoes one step; returns its label.
    pub fn go(&mut self, direction: Direction) -> Result<String, EditorError> {
        let (label, revision, structural) =
            self.history.go(direction, &mut self.model, self.revision)?;
        self.revision = revision;
        self.after_change(structural);
        Ok(label)
    }

    /// The mesh a model file was converted from, when its metadata names one that exists and
    /// records the conversion (so it can be made again with its edits kept).
    pub fn source_mesh(&self) -> Option<PathBuf> {
        if !matches!(self.origin, Origin::ModelFile) {
            return None;
        }
        let m = self.model();
        ConvertOptions::from_metadata(&m.metadata.conversion)?;
        self.source_meshes().into_iter().next()
    }

    /// The files the model's source mesh may be: as recorded (absolute, or relative to where
    /// it was converted), then the file of that name beside the model; those that exist.
    pub fn source_meshes(&self) -> Vec<PathBuf> {
        if !matches!(self.origin, Origin::ModelFile) {
            return Vec::new();
        }
        let Some(source) = self.model().metadata.source.as_ref().map(PathBuf::from) else {
            return Vec::new();
        };
        let beside = self.path.as_ref().and_then(|p| Some(folder(p).join(source.file_name()?)));
        std::iter::once(source).chain(beside).filter(|p| p.is_file()).collect()
    }

    /// True when the model file is older than its source mesh: the mesh was re-exported.
    pub fn source_changed(&self) -> bool {
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        match (self.source_mesh(), &self.path) {
            (Some(source), Some(path)) => modified(&source) > modified(path),
            _ => false,
        }
    }

    pub fn replace_model(&mut self, model: SpringModel) {
        // Replacing a model cannot fail: it names no index.
        let _ = self.edit(Edit::Replace(Box::new(model)), "Convert");
    }

    /// Keeps what of the selection still exists, and notes a change of structure.
    fn after_change(&mut self, structural: bool) {
        self.selection.retain_within(self.model.nodes.len(), self.model.springs.len());
        if structural {
            self.structure = fresh_revision();
        }
    }

    /// Records that the model was saved to `path`, which Save writes to from now on.
    pub fn mark_saved(&mut self, path: &Path) {
        self.path = Some(path.to_path_buf());
        self.name = file_name(path);
        self.saved_revision = self.revision;
    }

    /// The window title: the name, `*` when there are unsaved changes.
    pub fn title(&self) -> String {
        let star = if self.is_dirty() { "*" } else { "" };
        format!("{}{star} — Springmesh", self.name)
    }
}

/// The file name of `path`, for titles.
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// The folder holding `path`: its parent, or the current folder for a bare file name (whose
/// parent is empty).
pub fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_file_names_folder_is_the_current_one() {
        assert_eq!(folder(Path::new("cape.spring")), Path::new("."));
        assert_eq!(folder(Path::new("worn/cape.spring")), Path::new("worn"));
        assert_eq!(folder(Path::new("/cape.spring")), Path::new("/"));
    }

    #[test]
    fn dirty_follows_changes_and_saves() {
        let mut doc = Document::sample(Sample::String);
        assert!(!doc.is_dirty());
        assert_eq!(doc.title(), "string — Springmesh");
        let mut smaller = doc.model().clone();
        smaller.springs.retain(|id, _| id.0 < 3);
        doc.selection.pick(crate::selection::Item::Spring(springmesh_core::SpringId(10)), false);
        doc.replace_model(smaller);
        assert!(doc.is_dirty() && doc.selection.springs.is_empty());
        assert_eq!(doc.title(), "string* — Springmesh");
        doc.mark_saved(Path::new("/tmp/rope.spring"));
        assert!(!doc.is_dirty());
        assert_eq!(doc.title(), "rope.spring — Springmesh");
    }

    #[test]
    fn the_dirty_mark_follows_undo_and_redo() {
        let mut doc = Document::sample(Sample::String);
        let original = doc.model().clone();
        doc.edit(Edit::ToggleAnchors(vec![springmesh_core::NodeId(3)]), "Anchor").expect("fits");
        assert!(doc.is_dirty());
        assert_eq!(doc.go(Direction::Undo), Ok("Anchor".to_string()));
        assert!(!doc.is_dirty(), "back at the opened state");
        assert_eq!(doc.model(), &original);
        doc.go(Direction::Redo).expect("one to redo");
        assert!(doc.is_dirty());
        doc.mark_saved(Path::new("/tmp/anchored.spring"));
        doc.go(Direction::Undo).expect("one to undo");
        assert!(doc.is_dirty(), "the saved state had the anchor");
        doc.go(Direction::Redo).expect("one to redo");
        assert!(!doc.is_dirty(), "redone to the saved state");
        assert_eq!(doc.go(Direction::Redo), Err(EditorError::NothingTo { what: "redo" }));
        let bad = Edit::RemoveSprings(vec![springmesh_core::SpringId(99_999)]);
        assert!(doc.edit(bad, "Delete").is_err());
        assert!(!doc.is_dirty(), "a failed edit changes nothing");
    }
}
