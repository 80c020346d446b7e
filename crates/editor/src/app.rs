//! The editor application: the document, the viewport, the live simulation, the loader, and
//! the panels around them. Panels return [`Action`]s; [`EditorApp::apply`] carries them out.

use crate::actions::Action;
use crate::commands::{self, Command};
use crate::document::{Document, Origin, file_name};
use crate::history::Direction;
use crate::live::Live;
use crate::loader::{Loader, Request};
use crate::panels::editing;
use crate::panels::model::ModelPanel;
use crate::panels::prompt::{self, Answer};
use crate::panels::side::SidePanel;
use crate::panels::{menu, messages, status};
use crate::recent::{self, RecentFiles};
use crate::screenshot::Screenshot;
use crate::timing::FrameTime;
use crate::viewport::Viewport;
use eframe::egui;
use springmesh_convert::samples::Sample;
use springmesh_core::{SpringModel, ValidModel, io};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How the editor starts.
#[derive(Default)]
pub struct Startup {
    /// A model or mesh to open (otherwise the cloth sample).
    pub file: Option<PathBuf>,
    /// Take a screenshot and exit.
    pub screenshot: Option<Screenshot>,
    /// Start simulating `file` once it is open.
    pub play: bool,
    /// Play this clip of the character a worn `file` is worn on (implies `play`).
    pub clip: Option<String>,
    /// What the springs' colour shows.
    pub colour: crate::viewport::SpringColour,
}

/// How far one press of an anchor key moves the anchors: 1% of the model's size, at least
/// 1 cm, along the world's axes: forward is −z, as the camera starts out
/// looking, left −x, up +y. Held down, the key repeats.
fn anchor_nudge(command: Command, model: &SpringModel) -> glam::Vec3 {
    let step = model.bounding_box().map_or(0.0, |b| b.diagonal()).max(1.0) * 0.01;
    let direction = match command {
        Command::AnchorsForward => glam::Vec3::NEG_Z,
        Command::AnchorsBack => glam::Vec3::Z,
        Command::AnchorsLeft => glam::Vec3::NEG_X,
        Command::AnchorsRight => glam::Vec3::X,
        Command::AnchorsUp => glam::Vec3::Y,
        Command::AnchorsDown => glam::Vec3::NEG_Y,
        _ => glam::Vec3::ZERO,
    };
    direction * step
}

/// Something that waits for the answer to "save unsaved changes?".
#[derive(Clone, Debug)]
enum Pending {
    Open(PathBuf),
    OpenSample(Sample),
    Quit,
}

impl Pending {
    fn doing(&self) -> &'static str {
        match self {
            Pending::Open(_) | Pending::OpenSample(_) => "opening another model",
            Pending::Quit => "quitting",
        }
    }
}

/// The editor.
pub struct EditorApp {
    /// The open document.
    pub doc: Document,
    /// The 3D view.
    pub viewport: Viewport,
    /// The test simulation.
    pub live: Live,
    loader: Loader,
    /// The left panel, with the conversion settings a mesh is converted with.
    pub model_panel: ModelPanel,
    /// The right panel: the inspector, the Edit section's values, the Test section.
    pub side_panel: SidePanel,
    /// Recently opened files.
    pub recent: RecentFiles,
    pending: Option<Pending>,
    /// Messages shown over the viewport (errors, mostly).
    pub messages: Vec<String>,
    frame_time: FrameTime,
    last_frame: Option<Instant>,
    /// Frame the camera on the model at the next frame (after opening).
    frame_next: bool,
    last_current: Option<springmesh_core::NodeId>,
    title: String,
    quit_confirmed: bool,
    screenshot: Option<Screenshot>,
    /// Play the next document installed (the startup file with `--play`).
    autoplay: bool,
    /// The clip to play on the next document installed (the startup file with `--clip`).
    autoclip: Option<String>,
}

impl EditorApp {
    /// A new editor; `cc` gives the stored recent files, `startup` what to open.
    pub fn new(cc: &eframe::CreationContext<'_>, startup: Startup) -> EditorApp {
        // A screenshot run starts from defaults (panel sizes, recent files) so that it shows
        // the same on every machine, and it stores nothing.
        let stored = startup.screenshot.is_none();
        if !stored {
            cc.egui_ctx.memory_mut(|m| *m = egui::Memory::default());
        }
        let recent = cc
            .storage
            .filter(|_| stored)
            .and_then(|s| eframe::get_value(s, recent::KEY))
            .unwrap_or_default();
        let mut app =
            EditorApp::with_document(Document::sample(Sample::Cloth), recent, startup.screenshot);
        app.viewport.settings.colour = startup.colour;
        app.viewport.settings.faces = startup.colour == crate::viewport::SpringColour::Kind;
        match startup.file {
            Some(path) => {
                app.doc = Document::new(
                    SpringModel::default(),
                    Origin::ModelFile,
                    None,
                    file_name(&path),
                );
                app.loader.start(Request::Open(path), &cc.egui_ctx);
                app.autoplay = startup.play || startup.clip.is_some();
                app.autoclip = startup.clip;
            }
            None => app.live.playing = true,
        }
        app
    }

    /// An editor showing `doc` (also how tests start one).
    pub fn with_document(
        doc: Document,
        recent: RecentFiles,
        screenshot: Option<Screenshot>,
    ) -> EditorApp {
        EditorApp {
            doc,
            viewport: Viewport::default(),
            live: Live::default(),
            loader: Loader::default(),
            model_panel: ModelPanel::default(),
            side_panel: SidePanel::default(),
            recent,
            pending: None,
            messages: Vec::new(),
            frame_time: FrameTime::default(),
            last_frame: None,
            frame_next: true,
            last_current: None,
            title: String::new(),
            quit_confirmed: false,
            screenshot,
            autoplay: false,
            autoclip: None,
        }
    }

    /// True while a file is being opened or converted.
    pub fn is_loading(&self) -> bool {
        self.loader.progress().is_some()
    }

    /// Opens a model or mesh file in the background (no unsaved-changes question).
    pub fn open(&mut self, path: PathBuf, ctx: &egui::Context) {
        self.loader.start(Request::Open(path), ctx);
    }

    /// Saves the model to `path` (JSON for `.json`, else binary) and makes it the document's
    /// file; false (with a message) when it failed.
    pub fn save_to(&mut self, path: &Path) -> bool {
        match ValidModel::new(self.doc.model().clone()).and_then(|m| io::save(&m, path)) {
            Ok(()) => {
                self.doc.mark_saved(path);
                self.recent.add(path);
                true
            }
            Err(e) => {
                self.messages.push(format!("Could not save: {e}"));
                false
            }
        }
    }

    /// Carries out one action.
    pub fn apply(&mut self, action: Action, ctx: &egui::Context) {
        match action {
            Action::Run(command) => self.run(command, ctx),
            Action::Open(path) => self.ask_or(Pending::Open(path), ctx),
            Action::OpenSample(sample) => self.ask_or(Pending::OpenSample(sample), ctx),
            Action::Convert(options) => {
                if let Origin::Mesh { path, .. } = &self.doc.origin {
                    self.loader.start(Request::Convert(path.clone(), options), ctx);
                }
            }
            Action::Reconvert => {
                if let Some(source) = self.doc.source_mesh() {
                    let old = Box::new(self.doc.model().clone());
                    self.loader.start(Request::Reconvert(source, old), ctx);
                }
            }
            Action::Notify(text) => self.messages.push(text),
            Action::Check => self.live.check.start(self.doc.model(), self.doc.revision(), ctx),
            Action::TestGround(on) => {
                self.live.bare = !on;
                self.live.reset();
            }
            Action::Brace(k, d) => {
                self.live.check.start_fix(self.doc.model(), self.doc.revision(), (k, d), ctx);
            }
            Action::Edit(edit, label) => {
                if let Err(e) = self.doc.edit(edit, label) {
                    self.messages.push(format!("Could not edit: {e}"));
                }
            }
            Action::EditContinued(edit, label) => {
                if let Err(e) = self.doc.edit_continued(edit, label) {
                    self.messages.push(format!("Could not edit: {e}"));
                }
            }
            Action::FindModes => {
                self.live.tuner.find_modes(self.doc.model(), self.doc.revision(), ctx)
            }
            Action::FitStiffness(target) => {
                self.live.tuner.start_fit(self.doc.model(), self.doc.revision(), target, ctx);
            }
            Action::Grab(pull) => self.live.grab(&self.doc, pull),
            Action::PlayClip(clip) => {
                self.live.clip = clip;
                self.live.reset();
                self.live.playing = clip.is_some();
                // A clip may walk the character away: the camera goes with it.
                self.viewport.settings.follow |= clip.is_some();
            }
            Action::Dismiss(i) => {
                if i < self.messages.len() {
                    self.messages.remove(i);
                }
            }
        }
    }

    fn run(&mut self, command: Command, ctx: &egui::Context) {
        match command {
            Command::Open => {
                let dialog = rfd::FileDialog::new()
                    .add_filter("Models and meshes", &["spring", "json", "obj", "gltf", "glb"])
                    .add_filter("All files", &["*"]);
                if let Some(path) = dialog.pick_file() {
                    self.ask_or(Pending::Open(path), ctx);
                }
            }
            Command::Save => {
                self.save();
            }
            Command::SaveAs => {
                self.save_as();
            }
            Command::ExportJson => self.export_json(),
            Command::Quit => self.ask_or(Pending::Quit, ctx),
            Command::FrameAll => self.viewport.frame_all(&self.doc, &self.live),
            Command::NextNode => self.doc.selection.step(1, self.doc.model().nodes.len()),
            Command::PreviousNode => self.doc.selection.step(-1, self.doc.model().nodes.len()),
            Command::ClearSelection => self.doc.selection.clear(),
            Command::TogglePlay => {
                self.live.playing = !self.live.playing;
                self.last_frame = None;
            }
            Command::Reset => self.live.reset(),
            // Nothing to undo or redo is not worth a message.
            Command::Undo => _ = self.doc.go(Direction::Undo),
            Command::Redo => _ = self.doc.go(Direction::Redo),
            Command::Step => self.live.step_once(&self.doc),
            Command::AnchorsForward
            | Command::AnchorsBack
            | Command::AnchorsLeft
            | Command::AnchorsRight
            | Command::AnchorsUp
            | Command::AnchorsDown => {
                let offset = anchor_nudge(command, self.doc.model());
                self.live.move_anchors(&self.doc, offset);
            }
            Command::Delete | Command::ToggleAnchor | Command::Connect => {
                if let Some((edit, label)) =
                    editing::command_edit(command, &self.doc, &self.side_panel.edit)
                {
                    self.apply(Action::Edit(edit, label), ctx);
                }
            }
        }
    }

    /// Does `what` at once, or first asks about unsaved changes.
    fn ask_or(&mut self, what: Pending, ctx: &egui::Context) {
        if self.doc.is_dirty() {
            self.pending = Some(what);
        } else {
            self.proceed(what, ctx);
        }
    }

    fn proceed(&mut self, what: Pending, ctx: &egui::Context) {
        match what {
            Pending::Open(path) => self.open(path, ctx),
            Pending::OpenSample(sample) => {
                self.loader.cancel();
                self.install(Document::sample(sample));
            }
            Pending::Quit => {
                self.quit_confirmed = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    /// Makes `doc` the open document.
    fn install(&mut self, doc: Document) {
        self.doc = doc;
        self.live = Live::default();
        self.live.playing = std::mem::take(&mut self.autoplay);
        if let Some(name) = self.autoclip.take() {
            let clips = self.doc.character.as_ref().map(|c| &c.clips[..]).unwrap_or_default();
            self.live.clip = clips.iter().position(|c| c.name == name);
            self.viewport.settings.follow |= self.live.clip.is_some();
            if self.live.clip.is_none() {
                let names: Vec<&str> = clips.iter().map(|c| c.name.as_str()).collect();
                let message = format!(
                    "No clip \"{name}\" to play: the character has {}.",
                    if names.is_empty() { "none".to_string() } else { names.join(", ") }
                );
                if let Some(shot) = &mut self.screenshot {
                    let unread = self.doc.notes.iter().filter(|n| n.contains("character"));
                    std::iter::once(&message).chain(unread).for_each(|m| shot.unmet(m.clone()));
                }
                self.messages.push(message);
            }
        }
        self.frame_next = true;
        self.model_panel.form.follow(&self.doc);
    }

    fn save(&mut self) -> bool {
        match self.doc.path.clone() {
            Some(path) => self.save_to(&path),
            None => self.save_as(),
        }
    }

    fn save_as(&mut self) -> bool {
        let stem = self.doc.name.split('.').next().unwrap_or("model").to_string();
        let dialog = rfd::FileDialog::new()
            .add_filter("Spring model", &["spring"])
            .add_filter("Spring model as JSON", &["json"])
            .set_file_name(format!("{stem}.spring"));
        match dialog.save_file() {
            Some(path) => self.save_to(&path),
            None => false,
        }
    }

    fn export_json(&mut self) {
        let stem = self.doc.name.split('.').next().unwrap_or("model").to_string();
        let dialog = rfd::FileDialog::new()
            .add_filter("Spring model as JSON", &["json"])
            .set_file_name(format!("{stem}.spring.json"));
        if let Some(path) = dialog.save_file()
            && let Err(e) =
                ValidModel::new(self.doc.model().clone()).and_then(|m| io::save(&m, &path))
        {
            self.messages.push(format!("Could not export: {e}"));
        }
    }

    /// Takes a finished load or conversion.
    fn receive(&mut self) {
        let Some(result) = self.loader.poll() else { return };
        match result {
            Ok(loaded) => {
                if let Some(path) = &loaded.path {
                    self.recent.add(path);
                }
                if let Origin::Mesh { path, .. } = &loaded.origin {
                    self.recent.add(path);
                }
                let same_mesh = matches!((&self.doc.origin, &loaded.origin), (Origin::Mesh { path: a, .. }, Origin::Mesh { path: b, .. }) if a == b);
                let reconverted =
                    matches!(loaded.origin, Origin::ModelFile) && loaded.path.is_none();
                if reconverted {
                    // The open model made again from its source: one undoable change.
                    self.doc.replace_model(loaded.model().clone());
                    self.doc.character = loaded.character.clone();
                    self.messages.extend(loaded.notes.iter().cloned());
                    self.live = Live::default();
                } else if same_mesh {
                    // A new conversion of the open mesh: the same document, changed.
                    let Document { origin, texture, notes, character, .. } = loaded.clone();
                    self.doc.replace_model(loaded.model().clone());
                    self.doc.character = character;
                    self.doc.origin = origin;
                    self.doc.texture = texture;
                    self.doc.notes = notes;
                    self.live = Live::default();
                } else {
                    self.install(loaded);
                }
            }
            Err(e) => self.messages.push(e),
        }
    }
}

impl EditorApp {
    /// The start of a frame: finished loads and checks taken, the keyboard's commands and a
    /// dropped file, a close request held for unsaved changes, the live test advanced.
    fn begin_frame(&mut self, ctx: &egui::Context) -> Vec<Action> {
        self.receive();
        if let Some(fix) = self.live.check.poll() {
            match self.doc.edit(fix, "Brace the worst region".to_string()) {
                Ok(()) => self.live.check.adopt(self.doc.revision()),
                Err(e) => self.messages.push(format!("Could not edit: {e}")),
            }
        }
        if let Some((tuned, label)) = self.live.tuner.poll(self.doc.revision())
            && let Err(e) = self.doc.edit(tuned, label)
        {
            self.messages.push(format!("Could not edit: {e}"));
        }
        self.live.tuner.follow(self.doc.model(), self.doc.revision(), ctx);
        let mut actions: Vec<Action> =
            commands::pressed(ctx).into_iter().map(Action::Run).collect();
        let dropped: Vec<PathBuf> =
            ctx.input(|i| i.raw.dropped_files.iter().map(|f| f.path().to_path_buf()).collect());
        actions.extend(dropped.into_iter().take(1).map(Action::Open));
        if ctx.input(|i| i.viewport().close_requested())
            && self.doc.is_dirty()
            && !self.quit_confirmed
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.pending = Some(Pending::Quit);
        }
        let now = Instant::now();
        let elapsed = self.last_frame.map_or(0.0, |t| now.duration_since(t).as_secs_f64());
        self.last_frame = Some(now);
        self.live.advance(&self.doc, elapsed);
        if self.live.playing
            || self.live.busy()
            || self.is_loading()
            || self.live.check.is_running()
        {
            ctx.request_repaint();
        }
        self.model_panel.form.follow(&self.doc);
        actions
    }

    /// Every panel, the viewport and the messages over it, each drawing itself; what they
    /// asked for. `render_error` is the 3D view's last failure.
    fn show_panels(&mut self, ui: &mut egui::Ui, render_error: Option<&str>) -> Vec<Action> {
        let mut actions = egui::Panel::top("menu")
            .show(ui, |ui| menu::show(ui, &self.recent, &self.doc.history))
            .inner;
        let (progress, frame_time) = (self.loader.progress(), self.frame_time);
        actions.extend(
            egui::Panel::bottom("status")
                .show(ui, |ui| status::show(ui, &self.doc, &self.live, progress, frame_time))
                .inner,
        );
        let busy = self.is_loading();
        let view = &mut self.viewport.settings;
        actions.extend(self.model_panel.ui(ui, &self.doc, &self.live.tuner, view, busy));
        actions.extend(self.side_panel.ui(ui, &mut self.doc, &self.live));
        let dragged = egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| {
            if self.frame_next && !self.is_loading() && ui.available_width() > 0.0 {
                self.viewport.frame_opened(&self.doc);
                self.frame_next = false;
            }
            self.viewport.show(ui, &mut self.doc, &self.live)
        });
        actions.extend(dragged.inner);
        let rect = self.viewport.rect;
        actions.extend(messages::show(ui.ctx(), rect, &self.messages, render_error));
        actions
    }

    /// Keeps a newly selected node in view.
    fn follow_selection(&mut self) {
        if self.doc.selection.current == self.last_current {
            return;
        }
        self.last_current = self.doc.selection.current;
        if let Some(n) = self.doc.selection.current {
            let positions = crate::viewport::geometry::current_positions(&self.doc, &self.live);
            if let Some(&p) = positions.get(n.index()) {
                self.viewport.camera.keep_visible(p, self.viewport.size);
            }
        }
    }

    /// Asks "save unsaved changes?" for what waits on the answer, and carries it out.
    fn answer_prompt(&mut self, ctx: &egui::Context) {
        let Some(pending) = self.pending.clone() else { return };
        match prompt::unsaved_changes(ctx, &self.doc.name, pending.doing()) {
            Some(Answer::Save) => {
                self.pending = None;
                if self.save() {
                    self.proceed(pending, ctx);
                }
            }
            Some(Answer::Discard) => {
                self.pending = None;
                self.proceed(pending, ctx);
            }
            Some(Answer::Cancel) => self.pending = None,
            None => {}
        }
    }

    /// The end of a frame: the window's title, the screenshot, the frame's times.
    fn end_frame(&mut self, ctx: &egui::Context, started: Instant) {
        let title = self.doc.title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
        let loading = self.is_loading();
        if let Some(shot) = &mut self.screenshot
            && !loading
            && shot.frame(ctx, self.viewport.rect, crate::viewport::BACKGROUND, self.frame_time)
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        self.frame_time.ui_ms = started.elapsed().as_secs_f32() * 1e3;
        self.frame_time.sim_ms = self.live.step_ms;
    }
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let started = Instant::now();
        let ctx = ui.ctx().clone();
        let mut actions = self.begin_frame(&ctx);
        // The previous frame's times: its paint callback and eframe's total ran after `ui`.
        let render = self.viewport.stats.lock().map(|s| s.clone()).unwrap_or_default();
        self.frame_time.upload_ms = render.upload_ms;
        self.frame_time.draw_ms = render.draw_ms;
        self.frame_time.total_ms = frame.info().cpu_usage.map(|s| s * 1e3);
        actions.extend(self.show_panels(ui, render.error.as_deref()));
        self.follow_selection();
        self.answer_prompt(&ctx);
        for action in actions {
            self.apply(action, &ctx);
        }
        self.end_frame(&ctx, started);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.screenshot.is_none() {
            eframe::set_value(storage, recent::KEY, &self.recent);
        }
    }

    fn persist_egui_memory(&self) -> bool {
        self.screenshot.is_none()
    }
}
