//! Opening and converting off the UI thread.
//!
//! Each request runs on a thread of its own and reports back through a channel; the window
//! keeps drawing meanwhile, with the conversion's stage as a progress message. Starting a new
//! request cancels the running one (the converter stops at its next stage) and results of
//! older requests are dropped, so a second open wins.

use crate::document::{Document, Origin, TextureImage, file_name, folder};
use eframe::egui;
use springmesh_convert::character::Character;
use springmesh_convert::keep::keep_edits;
use springmesh_convert::{Control, ConvertOptions, MeshFormat, Stage, Texture, convert_file_with};
use springmesh_core::{SpringModel, io};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// What to open.
#[derive(Clone, Debug)]
pub enum Request {
    /// A model or mesh file (a mesh is converted with default options).
    Open(PathBuf),
    /// A mesh, converted with these options.
    Convert(PathBuf, ConvertOptions),
    /// The source mesh of a model, converted again with the model's recorded options, the
    /// model's hand edits carried over ([`springmesh_convert::keep`]).
    Reconvert(PathBuf, Box<SpringModel>),
}

impl Request {
    fn path(&self) -> &PathBuf {
        match self {
            Request::Open(p) | Request::Convert(p, _) | Request::Reconvert(p, _) => p,
        }
    }
}

/// A request being worked on.
struct Running {
    id: u64,
    cancel: Arc<AtomicBool>,
    stage: Arc<Mutex<Option<Stage>>>,
    path: PathBuf,
    started: Instant,
}

/// What the running request is doing, for the progress display.
pub struct Progress {
    /// The file.
    pub path: PathBuf,
    /// The conversion stage, for meshes.
    pub stage: Option<Stage>,
    /// Seconds since it started.
    pub seconds: f32,
}

/// The background opener.
pub struct Loader {
    next_id: u64,
    running: Option<Running>,
    sender: Sender<(u64, Result<Document, String>)>,
    receiver: Receiver<(u64, Result<Document, String>)>,
}

impl Default for Loader {
    fn default() -> Self {
        let (sender, receiver) = channel();
        Loader { next_id: 0, running: None, sender, receiver }
    }
}

impl Loader {
    /// Starts `request`, cancelling the one running. `ctx` is woken when it is done.
    pub fn start(&mut self, request: Request, ctx: &egui::Context) {
        self.cancel();
        self.next_id += 1;
        let id = self.next_id;
        let cancel = Arc::new(AtomicBool::new(false));
        let stage = Arc::new(Mutex::new(None));
        self.running = Some(Running {
            id,
            cancel: cancel.clone(),
            stage: stage.clone(),
            path: request.path().clone(),
            started: Instant::now(),
        });
        let (sender, ctx) = (self.sender.clone(), ctx.clone());
        std::thread::spawn(move || {
            let on_stage = |s: Stage| {
                if let Ok(mut slot) = stage.lock() {
                    *slot = Some(s);
                }
                ctx.request_repaint();
            };
            let control = Control { cancel: Some(&cancel), on_stage: Some(&on_stage) };
            let result = open(request, control);
            // The receiver lives as long as the app; if it is gone there is no one to tell.
            let _ = sender.send((id, result));
            ctx.request_repaint();
        });
    }

    /// Stops the running request, if any.
    pub fn cancel(&mut self) {
        if let Some(r) = self.running.take() {
            r.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// The running request's progress.
    pub fn progress(&self) -> Option<Progress> {
        let r = self.running.as_ref()?;
        let stage = r.stage.lock().ok().and_then(|s| *s);
        Some(Progress { path: r.path.clone(), stage, seconds: r.started.elapsed().as_secs_f32() })
    }

    /// The result of the running request once it has finished; results of cancelled requests
    /// are dropped.
    pub fn poll(&mut self) -> Option<Result<Document, String>> {
        while let Ok((id, result)) = self.receiver.try_recv() {
            if self.running.as_ref().is_some_and(|r| r.id == id) {
                self.running = None;
                return Some(result);
            }
        }
        None
    }
}

/// Does the work of a request (on the loader's thread).
fn open(request: Request, control: Control) -> Result<Document, String> {
    let (path, options) = match request {
        Request::Open(path) if !MeshFormat::is_mesh_path(&path) => {
            let model = io::load(&path).map_err(|e| e.to_string())?.into_inner();
            let name = file_name(&path);
            let mut doc = Document::new(model, Origin::ModelFile, Some(path), name);
            let recorded = ConvertOptions::from_metadata(&doc.model().metadata.conversion);
            // A model file may come from anywhere: the file its metadata names is read by
            // itself only inside the model's folder.
            let folder = doc.path.as_deref().and_then(|p| folder(p).canonicalize().ok());
            let inside = |source: &PathBuf| {
                let source = source.canonicalize().ok();
                folder.as_ref().zip(source).is_some_and(|(f, s)| s.starts_with(f))
            };
            let sources = doc.source_meshes();
            let within = sources.iter().find(|&s| inside(s)).cloned();
            match (within, sources.first(), recorded) {
                (Some(source), _, Some(options)) => read_character(&mut doc, &source, &options),
                (None, Some(source), Some(_)) if doc.model().rig.is_some() => {
                    doc.notes.push(format!(
                        "the character is not shown: {} is outside the model's folder (put the \
                     glTF beside the model)",
                        source.display()
                    ))
                }
                _ => {}
            }
            return Ok(doc);
        }
        Request::Open(path) => (path, ConvertOptions::default()),
        Request::Convert(path, options) => (path, options),
        Request::Reconvert(source, old) => return reconvert(&source, &old, control),
    };
    let c = convert_file_with(&path, &options, control).map_err(|e| e.to_string())?;
    let name = file_name(&path);
    let mut doc = Document::new(c.model.into_inner(), Origin::ModelFile, None, name);
    read_character(&mut doc, &path, &options);
    doc.origin = Origin::Mesh { path, options: Box::new(options), report: Box::new(c.report) };
    match c.texture.map(decode) {
        Some(Ok(image)) => doc.texture = Some(image),
        Some(Err(e)) => doc.notes.push(format!("texture not shown: {e}")),
        None => {}
    }
    Ok(doc)
}

/// The model `old` made again from its source mesh `source`, its edits kept; what could not
/// be kept is in the document's notes. The document is marked as a reconversion (its origin
/// is a model file, its path none: the app puts the result into the open document).
fn reconvert(
    source: &std::path::Path,
    old: &SpringModel,
    control: Control,
) -> Result<Document, String> {
    let options = ConvertOptions::from_metadata(&old.metadata.conversion)
        .ok_or("the model records no conversion to repeat")?;
    let mut c = convert_file_with(source, &options, control).map_err(|e| e.to_string())?;
    let kept = keep_edits(old, &mut c, &options, source).map_err(|e| e.to_string())?;
    let mut doc = Document::new(c.model.into_inner(), Origin::ModelFile, None, file_name(source));
    read_character(&mut doc, source, &options);
    let counts: Vec<String> = kept.kept.iter().map(|(k, n)| format!("{k} {n}")).collect();
    doc.notes.push(format!(
        "reconverted from {}: kept {}; dropped {}",
        source.display(),
        if counts.is_empty() { "no edits".to_string() } else { counts.join(", ") },
        kept.dropped.len()
    ));
    doc.notes.extend(kept.dropped.iter().map(|d| format!("dropped {}: {}", d.edit, d.reason)));
    Ok(doc)
}

/// Reads the character the model of `doc` is worn on from its source `source` (converted
/// with `options`), when the model has a skeleton; what went wrong goes into the notes (the
/// model is whole without it: only the preview of the character and its clips is lost).
fn read_character(doc: &mut Document, source: &std::path::Path, options: &ConvertOptions) {
    if doc.model().rig.is_none() {
        return;
    }
    match Character::read(source, options) {
        Ok(c) => {
            let notes = c
                .clips
                .iter()
                .flat_map(|clip| clip.notes.iter().map(|n| format!("clip \"{}\": {n}", clip.name)));
            doc.notes.extend(notes);
            doc.character = Some(Arc::new(c));
        }
        Err(e) => doc.notes.push(format!("the character is not shown: {e}")),
    }
}

/// Decodes a mesh's texture into RGBA8.
fn decode(texture: Texture) -> Result<TextureImage, String> {
    let image = match &texture {
        Texture::File(path) => image::open(path).map_err(|e| format!("{}: {e}", path.display()))?,
        Texture::Embedded { bytes, .. } => {
            image::load_from_memory(bytes).map_err(|e| e.to_string())?
        }
    };
    let rgba = image.to_rgba8();
    Ok(TextureImage { width: rgba.width(), height: rgba.height(), rgba: rgba.into_raw() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use springmesh_core::NodeId;

    /// A 3 × 3 grid OBJ in `dir`, vertex 4 raised by `lift` m.
    fn grid(dir: &std::path::Path, lift: f32) -> PathBuf {
        let mut obj = String::new();
        for i in 0..9 {
            let y = if i == 4 { lift } else { 0.0 };
            obj += &format!("v {} {y} {}\n", (i % 3) as f32 * 0.1, (i / 3) as f32 * 0.1);
        }
        obj += "f 1 4 2\nf 2 4 5\nf 2 5 3\nf 3 5 6\nf 4 7 5\nf 5 7 8\nf 5 8 6\nf 6 8 9\n";
        let path = dir.join("grid.obj");
        std::fs::write(&path, obj).expect("writes");
        path
    }

    #[test]
    fn reconverting_keeps_the_edits_and_says_what_it_did() {
        let dir = std::env::temp_dir().join(format!("springmesh-reconvert-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        let source = grid(&dir, 0.0);
        let mut model = convert_file_with(&source, &ConvertOptions::default(), Control::default())
            .expect("converts")
            .model
            .into_inner();
        model.anchors = vec![NodeId(0), NodeId(2)];
        let saved = dir.join("grid.spring");
        io::save(&springmesh_core::ValidModel::new(model.clone()).unwrap(), &saved).expect("saves");
        let doc = Document::new(model.clone(), Origin::ModelFile, Some(saved), "grid".into());
        assert_eq!(doc.source_mesh(), Some(source.clone()));
        grid(&dir, 0.02); // re-exported with the middle vertex raised
        assert!(doc.source_mesh().is_some());
        let request = Request::Reconvert(source, Box::new(model));
        let again = open(request, Control::default()).expect("reconverts");
        assert!(matches!(again.origin, Origin::ModelFile) && again.path.is_none());
        assert_eq!(again.model().anchors, vec![NodeId(0), NodeId(2)]);
        let middle = again
            .model()
            .nodes
            .positions()
            .iter()
            .find(|p| (p.x - 0.1).abs() < 1e-6 && (p.z - 0.1).abs() < 1e-6);
        assert_eq!(
            middle.map(|p| p.y),
            Some(0.02),
            "the re-exported vertex is where the mesh puts it"
        );
        assert!(again.notes[0].contains("kept anchors 2; dropped 0"), "{:?}", again.notes);
    }
}
