//! The editor driven headless through its UI with egui_kittest: clicks by label, keys, and the
//! app state checked after each step. No GPU is needed: the 3D viewport's paint callback is
//! never run here (the screenshot smoke test covers drawing).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use eframe::egui;
use egui::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use springmesh_convert::samples::Sample;
use springmesh_core::{NodeId, SpringKind};
use springmesh_editor::app::EditorApp;
use springmesh_editor::document::{Document, Origin};
use springmesh_editor::recent::RecentFiles;
use springmesh_editor::viewport::geometry::GeometryCache;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn editor(sample: Sample) -> Harness<'static, EditorApp> {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1400.0, 860.0))
        .with_max_steps(100)
        .build_eframe(move |_| {
            EditorApp::with_document(Document::sample(sample), RecentFiles::default(), None)
        });
    wait_for_loader(&mut harness);
    harness
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("springmesh-editor-ui-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Steps frames until the background open or conversion is done (the loader thread wakes the
/// UI when it finishes), and the model's vibration modes, which the model panel lists above
/// the view's toggles, are found: a click aimed at a widget the list then moves down would land
/// elsewhere. The first frame lets a clicked button start it.
fn wait_for_loader(harness: &mut Harness<'_, EditorApp>) {
    let deadline = Instant::now() + Duration::from_secs(60);
    harness.step();
    while harness.state().is_loading() || harness.state().live.tuner.finding_modes() {
        assert!(Instant::now() < deadline, "loading did not finish");
        std::thread::sleep(Duration::from_millis(5));
        harness.step();
    }
    harness.run();
}

/// Opens `path` the way File ▸ Open does once the dialog has answered.
fn open_file(harness: &mut Harness<'_, EditorApp>, path: PathBuf) {
    let ctx = harness.ctx.clone();
    harness.state_mut().open(path, &ctx);
    wait_for_loader(harness);
}

fn open_sample(harness: &mut Harness<'_, EditorApp>, name: &str) {
    harness.get_by_label("File").click();
    harness.run();
    harness.get_by_label("Open Sample").click();
    harness.run();
    harness.get_by_label(name).click();
    harness.run();
}

fn banner() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/meshes/banner.obj")
}

#[test]
fn opens_a_sample_through_the_menu() {
    let mut harness = editor(Sample::Cloth);
    open_sample(&mut harness, "jelly");
    let app = harness.state();
    assert_eq!(app.doc.name, "jelly");
    assert_eq!(app.doc.model().nodes.len(), 6 * 6 * 6, "the jelly is a 6 × 6 × 6 lattice");
    assert!(!app.doc.is_dirty());
    let m = app.doc.model();
    let counts = format!("216 nodes · {} springs · {} faces", m.springs.len(), m.faces.len());
    assert!(harness.query_by_label(&counts).is_some(), "the status bar shows {counts}");
}

#[test]
fn a_caged_model_counts_the_faces_of_its_skin() {
    // The blob (1,418 vertices, 2,832 triangles) over the default budget of 600 nodes is a
    // cage with the mesh skinned to it: the faces drawn are the skin's.
    let options = springmesh_convert::ConvertOptions {
        solid: Some(springmesh_convert::SolidOptions::default()),
        ..springmesh_convert::ConvertOptions::default()
    };
    let blob = springmesh_convert::shapes::blob();
    let model =
        springmesh_convert::convert_mesh(blob, &options, Path::new("blob.obj")).unwrap().model;
    assert!(model.skin.is_some() && model.faces.is_empty(), "a cage");
    let path = scratch("cage").join("blob.spring");
    springmesh_core::io::save(&model, &path).unwrap();
    let mut harness = editor(Sample::Cloth);
    open_file(&mut harness, path);
    let m = harness.state().doc.model();
    let counts = format!(
        "{} nodes · {} springs · 2832 faces on a skin of 1418 vertices",
        m.nodes.len(),
        m.springs.len()
    );
    assert!(harness.query_by_label(&counts).is_some(), "the status bar shows {counts}");
}

#[test]
fn steps_through_nodes_and_selects_a_spring_in_the_inspector() {
    let mut harness = editor(Sample::String);
    assert!(harness.query_by_label("No current node: click one, or step with Next.").is_some());
    harness.get_by_label("Next ▶").click();
    harness.run();
    assert_eq!(harness.state().doc.selection.current, Some(NodeId(0)));
    assert!(harness.query_by_label("Node 0").is_some(), "the inspector shows node 0");

    // The N key steps on; the string's node 1 hangs between nodes 0 and 2.
    harness.key_press(egui::Key::N);
    harness.run();
    assert!(harness.query_by_label("Node 1").is_some());
    let model = harness.state().doc.model().clone();
    let of_node_1: Vec<_> =
        model.springs.iter().filter(|s| s.a == NodeId(1) || s.b == NodeId(1)).collect();
    assert!(
        harness.query_by_label(&format!("{} springs", of_node_1.len())).is_some(),
        "the spring count is listed"
    );

    // Its spring to node 2 is a row of the list; clicking it selects that spring.
    harness.get_by_label("2").click();
    harness.run();
    let selected: Vec<_> = harness.state().doc.selection.springs.iter().copied().collect();
    assert_eq!(selected.len(), 1);
    let s = model.springs.get(selected[0]).unwrap();
    assert_eq!((s.a.min(s.b), s.a.max(s.b)), (NodeId(1), NodeId(2)));
    assert_eq!(s.kind, SpringKind::Stretch);
    assert!(
        harness.query_by_label(&format!("Spring {}", selected[0])).is_some(),
        "the spring's own view"
    );

    // P steps back; Escape clears.
    harness.key_press(egui::Key::P);
    harness.run();
    assert_eq!(harness.state().doc.selection.current, Some(NodeId(0)));
    harness.key_press(egui::Key::Escape);
    harness.run();
    assert!(
        harness.state().doc.selection.is_empty() && harness.state().doc.selection.current.is_none()
    );
}

#[test]
fn jumps_to_a_node_by_index_and_reports_a_bad_one() {
    let mut harness = editor(Sample::Cloth);
    harness.get_by_label("Go to node").click();
    harness.run();
    harness.get_by_label("Go to node").type_text("312");
    harness.get_by_label("Go").click();
    harness.run();
    assert_eq!(harness.state().doc.selection.current, Some(NodeId(312)));
    harness.get_by_label("Go to node").click();
    harness.get_by_label("Go to node").type_text("0");
    harness.get_by_label("Go").click();
    harness.run();
    assert_eq!(harness.state().doc.selection.current, Some(NodeId(312)), "3120 is not a node");
    assert!(
        harness.state().messages.iter().any(|m| m.contains("3120")),
        "{:?}",
        harness.state().messages
    );
}

#[test]
fn view_toggles_change_what_is_drawn() {
    let mut harness = editor(Sample::Cloth);
    assert!(harness.state().viewport.settings.faces);
    harness.get_by_label("faces").click();
    harness.run();
    assert!(!harness.state().viewport.settings.faces);
    harness.get_by_label("bend").click();
    harness.run();
    assert_eq!(harness.state().viewport.settings.kinds, [true, false, true, true, true]);
}

#[test]
fn saves_to_a_file_and_loads_it_back() {
    let dir = scratch("save");
    let mut harness = editor(Sample::Flag);
    let path = dir.join("flag.spring");
    assert!(harness.state_mut().save_to(&path));
    harness.run();
    assert_eq!(harness.state().doc.name, "flag.spring");
    assert!(!harness.state().doc.is_dirty());
    let saved = harness.state().doc.model().clone();

    open_sample(&mut harness, "string");
    assert_eq!(harness.state().doc.name, "string");
    open_file(&mut harness, path.clone());
    let app = harness.state();
    assert_eq!(app.doc.name, "flag.spring");
    assert_eq!(app.doc.path.as_deref(), Some(path.as_path()));
    assert_eq!(app.doc.model(), &saved, "the model came back identical");
    assert!(app.recent.0.first() == Some(&path), "it is the most recent file");

    let json = dir.join("flag.spring.json");
    assert!(harness.state_mut().save_to(&json));
    assert_eq!(
        springmesh_core::io::load(&json).unwrap(),
        saved,
        "the JSON form holds the same model"
    );
}

#[test]
fn opening_over_unsaved_changes_asks_first() {
    let mut harness = editor(Sample::Cloth);
    open_file(&mut harness, banner());
    harness.get_by_role_and_label(Role::CheckBox, "bend springs").click();
    harness.run();
    harness.get_by_label("Convert").click();
    wait_for_loader(&mut harness);
    assert!(harness.state().doc.is_dirty(), "a new conversion is an unsaved change");
    assert_eq!(harness.state().doc.title(), "banner.obj* — Springmesh");

    open_sample(&mut harness, "string");
    assert!(harness.query_by_label("Unsaved changes").is_some(), "the question is asked");
    harness.get_by_label("Cancel").click();
    harness.run();
    assert_eq!(harness.state().doc.name, "banner.obj", "Cancel keeps the document");

    open_sample(&mut harness, "string");
    harness.get_by_label("Don't save").click();
    harness.run();
    assert_eq!(harness.state().doc.name, "string");
}

#[test]
fn a_mesh_shows_its_conversion_settings_and_converts_again() {
    let mut harness = editor(Sample::Cloth);
    open_file(&mut harness, banner());
    {
        let app = harness.state();
        let Origin::Mesh { report, .. } = &app.doc.origin else { panic!("a mesh is open") };
        // 9 × 6 vertices in 8 × 5 quads split in two: 8·6 + 9·5 + 40 diagonals = 133 edges,
        // 80 triangles with 133 − 26 boundary edges = 107 interior edges, one bend each.
        assert_eq!(
            (report.nodes, report.faces, report.springs.stretch, report.springs.bend),
            (54, 80, 133, 107)
        );
        assert!(app.doc.texture.is_some(), "banner.png is found through banner.mtl");
        assert!(app.doc.model().uvs.iter().any(|t| t.y == 0.0), "uvs are kept");
    }
    assert!(harness.query_by_label("Conversion").is_some());
    assert!(harness.query_by_label("133").is_some(), "the report lists the stretch springs");

    harness.get_by_role_and_label(Role::CheckBox, "bend springs").click();
    harness.get_by_label("quad shear (both diagonals)").click();
    harness.run();
    harness.get_by_label("Convert").click();
    wait_for_loader(&mut harness);
    let Origin::Mesh { report, .. } = &harness.state().doc.origin else { panic!("still the mesh") };
    // The 40 quads get their second diagonal too (the shear springs): 133 + 40 stretch
    // springs, and no bend springs.
    assert_eq!((report.springs.stretch, report.springs.shear, report.springs.bend), (173, 40, 0));
    assert_eq!(harness.state().doc.model().springs.len(), 173);
}

#[test]
fn a_bad_file_is_a_message_not_a_crash() {
    let dir = scratch("bad");
    let path = dir.join("broken.spring");
    std::fs::write(&path, b"this is not a spring model").unwrap();
    let mut harness = editor(Sample::Cloth);
    open_file(&mut harness, path);
    let app = harness.state();
    assert_eq!(app.doc.name, "cloth", "the open document stays");
    assert_eq!(app.messages.len(), 1, "{:?}", app.messages);
    assert!(harness.query_by_label_contains("broken.spring").is_some(), "the message is shown");
    harness.get_by_label("×").click();
    harness.run();
    assert!(harness.state().messages.is_empty(), "and can be dismissed");
}

#[test]
fn a_second_open_cancels_the_first() {
    let dir = scratch("second");
    let path = dir.join("string.spring");
    springmesh_core::io::save(
        &springmesh_core::ValidModel::new(Sample::String.model()).unwrap(),
        &path,
    )
    .unwrap();
    let mut harness = editor(Sample::Cloth);
    let ctx = harness.ctx.clone();
    harness.state_mut().open(banner(), &ctx);
    harness.state_mut().open(path, &ctx);
    wait_for_loader(&mut harness);
    std::thread::sleep(Duration::from_millis(100));
    harness.run();
    assert_eq!(harness.state().doc.name, "string.spring", "the first open's result is dropped");
}

/// A file dropped on the window, as the windowing layer reports it.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn dropping_a_file_on_the_window_opens_it() {
    let dir = scratch("drop");
    let path = dir.join("dropped.spring");
    springmesh_core::io::save(
        &springmesh_core::ValidModel::new(Sample::Jelly.model()).unwrap(),
        &path,
    )
    .unwrap();
    let mut harness = editor(Sample::Cloth);
    harness.input_mut().dropped_files.push(std::sync::Arc::new(Dropped(path)));
    harness.step();
    wait_for_loader(&mut harness);
    assert_eq!(harness.state().doc.name, "dropped.spring");
    assert_eq!(harness.state().doc.model(), &Sample::Jelly.model());
}

#[test]
fn clicking_a_node_in_the_viewport_selects_it() {
    let mut harness = editor(Sample::Cloth);
    let app = harness.state();
    let node = NodeId(312);
    let p = app.doc.model().nodes.positions()[node.index()];
    let rect = app.viewport.rect;
    let size = glam::Vec2::new(rect.width(), rect.height());
    let (pixel, _) = app.viewport.camera.project(p, size).expect("in view");
    let at = rect.min + egui::vec2(pixel.x, pixel.y);
    harness.hover_at(at);
    harness.run();
    harness.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    harness.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.run();
    assert_eq!(harness.state().doc.selection.current, Some(node));
    assert!(harness.query_by_label("Node 312").is_some());
}

/// Selects nodes as Shift+clicks in the viewport would.
fn select_nodes(harness: &mut Harness<'_, EditorApp>, nodes: &[u32]) {
    let selection = &mut harness.state_mut().doc.selection;
    selection.clear();
    for &n in nodes {
        selection.pick(springmesh_editor::selection::Item::Node(NodeId(n)), true);
    }
    harness.run();
}

#[test]
fn connects_two_nodes_then_undoes_and_redoes_it() {
    let mut harness = editor(Sample::Cloth);
    let before = harness.state().doc.model().clone();
    select_nodes(&mut harness, &[0, 50]);
    harness.get_by_label("Connect selected nodes (C)").click();
    harness.run();
    let after = harness.state().doc.model().clone();
    assert_eq!(after.springs.len(), before.springs.len() + 1);
    let added = after.springs.get(springmesh_core::SpringId::from_index(before.springs.len()));
    let added = added.expect("appended");
    assert_eq!((added.a, added.b, added.kind), (NodeId(0), NodeId(50), SpringKind::Manual));
    assert_eq!(added.rest_length, before.distance(NodeId(0), NodeId(50)).unwrap());
    assert!(harness.state().doc.is_dirty());
    harness.get_by_label("Edit").click();
    harness.run();
    assert!(harness.query_by_label("Add 1 spring").is_some(), "the history lists the step");
    harness.key_press(egui::Key::Escape);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run();
    assert_eq!(harness.state().doc.model(), &before, "undone");
    assert!(!harness.state().doc.is_dirty(), "undone to the opened state");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    harness.run();
    assert_eq!(harness.state().doc.model(), &after, "redone with Ctrl+Y");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z);
    harness.run();
    assert_eq!(harness.state().doc.model(), &after, "redone with Ctrl+Shift+Z");
}

#[test]
fn the_a_key_toggles_anchors_and_delete_removes_nodes() {
    let mut harness = editor(Sample::String);
    let before = harness.state().doc.model().clone();
    let last = before.nodes.len() as u32 - 1;
    assert!(!before.is_anchor(NodeId(last)));
    select_nodes(&mut harness, &[last]);
    harness.key_press(egui::Key::A);
    harness.run();
    assert!(harness.state().doc.model().is_anchor(NodeId(last)), "anchored");
    harness.key_press(egui::Key::A);
    harness.run();
    assert!(!harness.state().doc.model().is_anchor(NodeId(last)), "freed again");
    harness.key_press(egui::Key::Delete);
    harness.run();
    let m = harness.state().doc.model().clone();
    assert_eq!(m.nodes.len(), before.nodes.len() - 1);
    assert_eq!(m.validate(), Ok(()), "every index still valid");
    assert!(harness.state().doc.selection.is_empty());
    for _ in 0..3 {
        harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    }
    harness.run();
    assert_eq!(harness.state().doc.model(), &before);
}

#[test]
fn plays_a_few_frames_pauses_and_plots_the_energy() {
    let mut harness = editor(Sample::Cloth);
    harness.get_by_label("Play").click();
    for _ in 0..5 {
        std::thread::sleep(Duration::from_millis(20));
        harness.step();
    }
    harness.get_by_label("Pause").click();
    harness.run();
    let app = harness.state();
    assert!(!app.live.playing);
    let t = app.live.time().expect("it ran");
    assert!(t > 0.0, "simulated {t} s");
    let points = app.live.energy().len();
    assert!(points >= 2, "the energy plot has {points} points");
    assert!(app.live.energy().iter().all(|e| e[1] >= 0.0 && e[2] >= 0.0));
    harness.get_by_label("Step").click();
    harness.run();
    let stepped = harness.state().live.time().expect("still there");
    assert!((stepped - t - 1.0 / 60.0).abs() < 1e-9, "one step: {t} -> {stepped}");
}

#[test]
fn tuning_gravity_is_an_undoable_edit_that_the_running_test_takes() {
    let mut harness = editor(Sample::Cloth);
    harness.get_by_label("Play").click();
    // Let the run get going (it advances with the wall clock; bounded wait) well past what
    // a restarted run could reach in the few steps below.
    let mut before = 0.0;
    for _ in 0..400 {
        harness.step();
        before = harness.state().live.time().unwrap_or(0.0);
        if before > 0.1 {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(before > 0.1, "the run went on: {before} s");
    harness.get_by_role_and_label(Role::ComboBox, "gravity").click();
    harness.run_steps(3);
    harness.get_by_label("reversed").click();
    harness.step();
    std::thread::sleep(Duration::from_millis(20));
    harness.step();
    let app = harness.state();
    assert_eq!(app.doc.model().params.gravity, glam::Vec3::new(0.0, 9.81, 0.0));
    let after = app.live.time().expect("running");
    assert!(after >= before, "kept running, not restarted: {before} s, then {after} s");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.step();
    assert_eq!(harness.state().doc.model().params.gravity, glam::Vec3::new(0.0, -9.81, 0.0));
    assert!(!harness.state().doc.is_dirty());
}

#[test]
fn the_check_gives_a_verdict_and_colours_the_nodes() {
    let mut harness = editor(Sample::String);
    harness.get_by_label("Check stability").scroll_to_me();
    harness.run();
    harness.get_by_label("Check stability").click();
    let deadline = Instant::now() + Duration::from_secs(60);
    harness.step();
    while harness.state().live.check.report.is_none() {
        assert!(Instant::now() < deadline, "the check did not finish");
        std::thread::sleep(Duration::from_millis(10));
        harness.step();
    }
    harness.run_steps(2);
    let app = harness.state();
    let (_, result) = app.live.check.report.as_ref().expect("a report");
    let report = result.as_ref().expect("the string can be checked");
    let verdict = if report.stable { "stable: " } else { "unstable: " };
    assert!(harness.query_by_label_contains(verdict).is_some(), "the verdict is shown");
    let styles = GeometryCache::default().styles(&app.doc, &app.live, false);
    assert_eq!(styles.nodes.len(), app.doc.model().nodes.len());
    assert!(styles.nodes.iter().all(|&s| s >= 16.0), "every node carries its error level");
}

/// Clicks `label` and waits (at most a minute) for the check or fix it starts to finish.
fn click_and_wait_for_check(harness: &mut Harness<'_, EditorApp>, label: &str) {
    harness.get_by_label(label).scroll_to_me();
    harness.run();
    harness.get_by_label(label).click();
    let deadline = Instant::now() + Duration::from_secs(60);
    harness.step();
    while harness.state().live.check.is_running() {
        assert!(Instant::now() < deadline, "{label} did not finish");
        std::thread::sleep(Duration::from_millis(10));
        harness.step();
    }
    harness.run_steps(2);
}

#[test]
fn a_hollow_blob_sags_and_filled_as_a_solid_it_stands() {
    let mut harness = editor(Sample::Cloth);
    open_file(
        &mut harness,
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/meshes/blob.obj")),
    );
    click_and_wait_for_check(&mut harness, "Check stability");
    let sag = |h: &Harness<'_, EditorApp>| {
        let (_, result) = h.state().live.check.report.as_ref().expect("a report");
        result.as_ref().expect("checked").sag.error
    };
    let hollow = sag(&harness);
    assert!(hollow > 0.05, "the hollow blob sags: {hollow}");
    assert!(harness.query_by_label_contains("unstable: shake").is_some());
    // The fix is tried and, as vicinity springs cannot hold up a hollow body, not applied.
    let springs = harness.state().doc.model().springs.len();
    click_and_wait_for_check(&mut harness, "Brace the worst region");
    let note = harness.state().live.check.fix_note.clone().expect("the fix says what it did");
    let after = sag(&harness);
    println!("hollow sag {hollow:.4}; fix: {note}");
    if note.starts_with("Added") {
        assert!(after < hollow, "a kept fix lowers the error: {after} vs {hollow}");
    } else {
        assert_eq!(harness.state().doc.model().springs.len(), springs, "{note}");
    }

    harness.get_by_label("Fill as a solid").click();
    wait_for_loader(&mut harness);
    let interior =
        harness.state().doc.model().springs.count_by_kind()[SpringKind::Interior as usize];
    assert!(interior > 0, "the solid has an inside");
    click_and_wait_for_check(&mut harness, "Check stability");
    let solid = sag(&harness);
    println!("solid sag {solid:.4}");
    assert!(solid < 0.01, "filled, it stands: {solid}");
    assert!(harness.query_by_label_contains("stable: shake").is_some());
}

#[test]
fn an_edited_model_saved_and_reopened_is_identical() {
    let dir = scratch("edited");
    let mut harness = editor(Sample::Cloth);
    select_nodes(&mut harness, &[0, 17, 40]);
    harness.get_by_label("Connect selected nodes (C)").click();
    harness.run();
    harness.key_press(egui::Key::A);
    harness.run();
    select_nodes(&mut harness, &[5]);
    harness.key_press(egui::Key::Delete);
    harness.run();
    let edited = harness.state().doc.model().clone();
    assert_ne!(&edited, &Sample::Cloth.model());
    assert!(harness.state().doc.title().contains('*'));
    let path = dir.join("edited.spring");
    assert!(harness.state_mut().save_to(&path));
    harness.run();
    assert!(!harness.state().doc.is_dirty());
    open_sample(&mut harness, "string");
    open_file(&mut harness, path);
    assert_eq!(harness.state().doc.model(), &edited, "the model came back identical");
    assert!(!harness.state().doc.is_dirty());
}

/// The screen point where node `n` is drawn (where the test has it, while one runs).
fn screen_point(harness: &Harness<'_, EditorApp>, n: NodeId) -> egui::Pos2 {
    let app = harness.state();
    let p = match app.live.positions() {
        Some(x) => glam::Vec3::from(x[n.index()]),
        None => app.doc.model().nodes.positions()[n.index()],
    };
    let rect = app.viewport.rect;
    let size = glam::Vec2::new(rect.width(), rect.height());
    let (pixel, _) = app.viewport.camera.project(p, size).expect("in view");
    rect.min + egui::vec2(pixel.x, pixel.y)
}

/// A primary-button drag from `from` to `to` in a few moves, holding `modifiers`.
fn drag(
    harness: &mut Harness<'_, EditorApp>,
    from: egui::Pos2,
    to: egui::Pos2,
    modifiers: egui::Modifiers,
) {
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers,
    };
    harness.event(egui::Event::ModifiersChanged(modifiers));
    harness.hover_at(from);
    harness.step();
    harness.event(button(from, true));
    harness.step();
    for k in 1..=4 {
        harness.hover_at(from + (to - from) * (k as f32 / 4.0));
        harness.step();
    }
    harness.event(button(to, false));
    harness.step();
    harness.event(egui::Event::ModifiersChanged(egui::Modifiers::NONE));
    harness.run();
}

#[test]
fn ctrl_drag_selects_a_box_and_alt_drag_moves_a_node_in_one_step() {
    let mut harness = editor(Sample::Cloth);
    let (a, b) = (screen_point(&harness, NodeId(0)), screen_point(&harness, NodeId(25 * 3 + 3)));
    let margin = (b - a).normalized() * 3.0;
    drag(&mut harness, a - margin, b + margin, egui::Modifiers::COMMAND);
    let selected = harness.state().doc.selection.nodes.clone();
    assert!(selected.contains(&NodeId(0)), "the box holds its corner node: {selected:?}");
    assert!(selected.len() >= 4, "and the nodes between: {}", selected.len());
    let camera = harness.state().viewport.camera;

    let before = harness.state().doc.model().clone();
    let node = NodeId(312);
    let from = screen_point(&harness, node);
    drag(&mut harness, from, from + egui::vec2(40.0, -30.0), egui::Modifiers::ALT);
    let app = harness.state();
    assert_eq!(app.viewport.camera, camera, "an Alt+drag does not turn the camera");
    let moved = app.doc.model().nodes.positions()[node.index()];
    assert!(moved.distance(before.nodes.positions()[node.index()]) > 0.01, "the node moved");
    assert_eq!(app.doc.history.undo_labels().collect::<Vec<_>>(), vec!["Move node 312"]);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run();
    assert_eq!(harness.state().doc.model(), &before, "one undo takes the whole drag back");
}

#[test]
fn alt_drag_pulls_a_node_of_a_playing_test_without_editing_the_model() {
    let mut harness = editor(Sample::Cloth);
    // Without gravity the cloth stays where it is until pulled.
    let mut weightless = Sample::Cloth.model().params;
    weightless.gravity = glam::Vec3::ZERO;
    let edit = springmesh_editor::edit::Edit::SetParams(Box::new(weightless));
    harness.state_mut().doc.edit(edit, "Tune gravity").unwrap();
    let model = harness.state().doc.model().clone();
    harness.get_by_label("Play").click();
    harness.run_steps(2);
    let node = NodeId(600);
    let from = screen_point(&harness, node);
    let start = harness.state().live.positions().expect("playing")[node.index()];
    let to = from + egui::vec2(0.0, -120.0);
    harness.event(egui::Event::ModifiersChanged(egui::Modifiers::ALT));
    harness.hover_at(from);
    harness.step();
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::ALT,
    };
    harness.event(button(from, true));
    harness.step();
    for k in 1..=10 {
        harness.hover_at(from + (to - from) * (k.min(4) as f32 / 4.0));
        std::thread::sleep(Duration::from_millis(20));
        harness.step();
    }
    assert_eq!(harness.state().live.pulled(), Some(node), "pulled while dragged");
    let pulled = harness.state().live.positions().expect("playing")[node.index()];
    assert!(pulled.y > start.y + 0.05, "it follows the cursor up: {start} -> {pulled}");
    harness.event(button(to, false));
    harness.step();
    assert_eq!(harness.state().live.pulled(), None, "let go on release");
    assert_eq!(harness.state().doc.model(), &model, "the model is not edited");
    assert_eq!(harness.state().doc.history.undo_labels().count(), 1, "only the gravity step");
}

#[test]
fn the_model_panel_shows_the_modes_and_a_tune_is_one_undoable_step() {
    let mut harness = editor(Sample::Jelly);
    // A guard against a hang, not a timing: the modes and the tune run on background threads,
    // in debug, beside the other tests on CI's two cores.
    let deadline = Instant::now() + Duration::from_secs(240);
    harness.step();
    while harness.state().live.tuner.finding_modes() || harness.state().live.tuner.modes.is_none() {
        assert!(Instant::now() < deadline, "the modes were not found");
        std::thread::sleep(Duration::from_millis(10));
        harness.step();
    }
    harness.run_steps(2);
    // The jelly's lowest modes (springmesh info): 3.815 Hz twice, then 5.752 Hz.
    assert!(harness.query_by_label_contains("3.815, 3.815, 5.752").is_some(), "modes shown");
    let before = harness.state().doc.model().clone();
    harness.get_by_label("Apply").scroll_to_me();
    harness.run();
    harness.get_by_label("Apply").click();
    harness.step();
    while harness.state().live.tuner.tuning() {
        assert!(Instant::now() < deadline, "the tune did not finish");
        std::thread::sleep(Duration::from_millis(10));
        harness.step();
    }
    harness.run_steps(2);
    let note = harness.state().live.tuner.note.clone().expect("the tune says what it did");
    println!("{note}");
    assert!(note.contains("3.815 Hz -> 3.000 Hz"), "{note}");
    // The default target, 3 Hz: every stiffness times (3 / 3.8146)².
    let factor = (3.0 / 3.814609f64).powi(2);
    let model = harness.state().doc.model().clone();
    for (k0, k1) in before.springs.stiffnesses().iter().zip(model.springs.stiffnesses()) {
        assert!((f64::from(*k1) - f64::from(*k0) * factor).abs() < 1e-4 * f64::from(*k0));
    }
    // The panel then shows the tuned model's modes; one undo gives the jelly back.
    let undone = harness.state_mut().doc.go(springmesh_editor::history::Direction::Undo);
    assert!(undone.is_ok_and(|label| label.starts_with("Tune to lowest frequency")));
    assert_eq!(harness.state().doc.model(), &before);
}

#[test]
fn self_collision_switches_on_with_a_thickness_from_the_edges_and_off_again() {
    // The cloth sample: 25 × 25 nodes 1 m across, stretch springs of 1/24 m and their
    // diagonals; the switch takes 0.9 of their mean, as the converter does.
    let mut harness = editor(Sample::Cloth);
    assert_eq!(harness.state().doc.model().params.self_collision, None);
    harness.get_by_role_and_label(Role::CheckBox, "self-collision (mm)").click();
    harness.run();
    let model = harness.state().doc.model().clone();
    let layers = model.params.self_collision.expect("switched on");
    let expected =
        springmesh_convert::self_collision(&model, springmesh_convert::Thickness::FromEdges);
    assert_eq!(layers, expected);
    assert!(
        layers.thickness > 0.9 / 24.0 && layers.thickness < 0.9 * 2f32.sqrt() / 24.0,
        "{layers:?}"
    );
    harness.get_by_role_and_label(Role::CheckBox, "self-collision (mm)").click();
    harness.run();
    assert_eq!(harness.state().doc.model().params.self_collision, None, "and off");
}

#[test]
fn a_capsule_is_added_under_the_model_then_removed_and_undo_brings_it_back() {
    use springmesh_editor::panels::colliders::{Kind, under};
    let mut harness = editor(Sample::Cloth);
    let model = harness.state().doc.model().clone();
    harness.get_by_role_and_label(Role::Button, "capsule").scroll_to_me();
    harness.run();
    harness.get_by_role_and_label(Role::Button, "capsule").click();
    harness.run();
    let colliders = harness.state().doc.model().params.colliders.clone();
    assert_eq!(colliders.len(), 1);
    assert_eq!(colliders[0].shape, under(&model, Kind::Capsule));
    // The cloth is 1 m across at y = 1.5: the capsule lies 0.2 m under it, across it along x.
    let springmesh_core::model::Shape::Capsule { a, b, radius } = colliders[0].shape else {
        panic!("a capsule: {:?}", colliders[0].shape);
    };
    assert!((a.y + radius - 1.4).abs() < 1e-5 && a.x < -0.5 && b.x > 0.5, "{a} {b} {radius}");
    harness.get_by_role_and_label(Role::Button, "Remove").scroll_to_me();
    harness.run();
    harness.get_by_role_and_label(Role::Button, "Remove").click();
    harness.run();
    assert!(harness.state().doc.model().params.colliders.is_empty(), "removed");
    let undone = harness.state_mut().doc.go(springmesh_editor::history::Direction::Undo);
    assert!(undone.is_ok(), "{undone:?}");
    harness.run();
    assert_eq!(harness.state().doc.model().params.colliders, colliders, "undone");
    let labels: Vec<String> = harness.state().doc.history.undo_labels().map(String::from).collect();
    assert_eq!(labels, vec!["Add a capsule"]);
}

/// The editor with the Blender-made walking figure's cape open, converted as `convert walker.glb
/// --mesh Cape` does from a copy of the figure in the scratch directory `name` and saved beside it.
fn worn_cape(name: &str) -> Harness<'static, EditorApp> {
    // The figure beside the model: the editor reads a model's source only in its folder.
    let figure = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/walker.glb");
    let glb = scratch(name).join("walker.glb");
    std::fs::copy(figure, &glb).unwrap();
    let options =
        springmesh_convert::ConvertOptions { mesh: Some("Cape".into()), ..Default::default() };
    let cape = springmesh_convert::convert_file(&glb, &options).unwrap().model;
    let path = scratch(name).join("cape.spring");
    springmesh_core::io::save(&cape, &path).unwrap();
    let mut harness = editor(Sample::Cloth);
    open_file(&mut harness, path);
    harness
}

#[test]
fn a_worn_cape_shows_its_skeleton_and_its_character() {
    let harness = worn_cape("worn");
    assert!(harness.state().doc.model().rig.is_some());
    let skeleton =
        harness.query_by_label_contains("13 joints: Hips, Spine, UpperLeg.L, UpperLeg.R");
    assert!(skeleton.is_some(), "the model panel names the joints");
    let worn =
        harness.query_by_label_contains("13 nodes follow the skin, 221 within a max distance");
    assert!(worn.is_some(), "and says how the nodes are worn");
    assert!(harness.query_by_label_contains("character: 17 colliders").is_some());
}

#[test]
fn a_worn_cape_plays_the_walk_on_its_character_and_its_max_distances_and_colliders_are_edited() {
    use springmesh_editor::history::Direction;
    let mut harness = worn_cape("worn-play");
    let character = harness.state().doc.character.clone().expect("the figure is read from its glb");
    assert!(!character.mesh.triangles.is_empty());

    // Pick the walk: the test plays it, the kinematic nodes on their skin, the character moving.
    harness.get_by_role_and_label(Role::ComboBox, "clip").scroll_to_me();
    harness.run();
    harness.get_by_role_and_label(Role::ComboBox, "clip").click();
    harness.run();
    harness.get_by_label_contains("Walk (").click();
    harness.step();
    assert!(harness.state().live.playing, "choosing a clip plays it");
    // How much of the looping clip has played follows the wall clock (a loaded machine plays
    // more a frame): play on until the clip is in its walk, 0.3 to 2.4 s into it (walking, then running), the
    // figure at least 0.3 m from where it stood (a run that ended just past the loop saw the
    // body at its start).
    let clip = &character.clips.iter().find(|c| c.name == "Walk").expect("walk");
    let mut t = 0.0;
    for _ in 0..20 {
        harness.state_mut().live.playing = true;
        for _ in 0..20 {
            std::thread::sleep(Duration::from_millis(20));
            harness.step();
        }
        harness.state_mut().live.playing = false;
        let app = harness.state_mut();
        app.live.catch_up(&app.doc);
        t = harness.state().live.time().expect("it ran");
        if (0.3..2.4).contains(&(t % f64::from(clip.duration))) {
            break;
        }
    }
    let app = harness.state();
    assert!(t > 0.1, "simulated {t} s");
    let model = app.doc.model();
    let rig = model.rig.as_ref().expect("worn");
    let pose = app.live.pose().expect("the clip posed the skeleton").to_vec();
    let skinning = rig.skinning(&pose);
    let positions = app.live.positions().expect("running");
    let mut worst = 0.0f32;
    for &n in &model.anchors {
        let rest = model.nodes.positions()[n.index()];
        let skinned = rig.skinned(n.index(), rest, &skinning);
        worst = worst.max(skinned.distance(positions[n.index()].into()));
    }
    assert!(worst < 1e-3, "kinematic nodes {worst} m off their skin");
    let names: Vec<&str> = rig.joints.iter().map(|j| j.name.as_str()).collect();
    let expected = clip.pose((t % f64::from(clip.duration)) as f32, &names).unwrap();
    let off = pose.iter().zip(&expected).map(|(a, b)| (*a - *b).abs().to_cols_array());
    assert!(off.flatten().fold(0.0f32, f32::max) < 1e-4, "the pose is the clip's at {t} s");
    // The character is drawn where the pose has it: its vertices follow the skin too.
    let dynamic = GeometryCache::default().dynamic(&app.doc, &app.live);
    let first = model.nodes.len();
    let mut posed = Vec::new();
    character.mesh.posed(&skinning, &mut posed);
    let drawn = &dynamic.positions[first..first + posed.len()];
    let apart = posed.iter().zip(drawn).map(|(p, d)| p.distance(glam::Vec3::from_slice(&d[..3])));
    assert!(apart.fold(0.0f32, f32::max) < 1e-6);
    let moved = posed.iter().zip(&character.mesh.positions).map(|(p, r)| p.distance(*r));
    assert!(moved.fold(0.0f32, f32::max) > 0.05, "the walk moves the character");

    // Max distances: the selected free nodes made kinematic, then free; undo puts them back.
    let before = model.clone();
    let free: Vec<u32> = (0..model.nodes.len() as u32)
        .filter(|&n| rig.max_distance[n as usize].is_some_and(|r| r > 0.0))
        .take(3)
        .collect();
    select_nodes(&mut harness, &free);
    harness.get_by_role_and_label(Role::Button, "Kinematic").scroll_to_me();
    harness.run();
    harness.get_by_role_and_label(Role::Button, "Kinematic").click();
    harness.run();
    let m = harness.state().doc.model();
    assert!(free.iter().all(|&n| m.is_anchor(NodeId(n))));
    assert!(free.iter().all(|&n| m.rig.as_ref().unwrap().max_distance[n as usize] == Some(0.0)));
    harness.get_by_role_and_label(Role::Button, "Free").click();
    harness.run();
    let m = harness.state().doc.model();
    assert!(free.iter().all(|&n| !m.is_anchor(NodeId(n))));
    assert!(free.iter().all(|&n| m.rig.as_ref().unwrap().max_distance[n as usize].is_none()));
    for _ in 0..2 {
        harness.state_mut().doc.go(Direction::Undo).unwrap();
    }
    harness.run();
    assert_eq!(harness.state().doc.model(), &before, "undone");

    // The character's colliders: a capsule added on the chest, then undone.
    let colliders = before.rig.as_ref().unwrap().colliders.len();
    harness.get_by_role_and_label(Role::Button, "Add a capsule").scroll_to_me();
    harness.run();
    harness.get_by_role_and_label(Role::Button, "Add a capsule").click();
    harness.run();
    let rig = harness.state().doc.model().rig.clone().unwrap();
    assert_eq!(rig.colliders.len(), colliders + 1);
    assert!(springmesh_core::ValidModel::new(harness.state().doc.model().clone()).is_ok());
    harness.state_mut().doc.go(Direction::Undo).unwrap();
    harness.run();
    assert_eq!(harness.state().doc.model(), &before, "undone");
}

#[test]
fn a_model_naming_a_source_outside_its_folder_does_not_read_it() {
    // The cape converted from the figure in assets/, saved elsewhere: its metadata names a
    // file outside the model's folder, which a downloaded model could point anywhere.
    let glb = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/walker.glb");
    let options =
        springmesh_convert::ConvertOptions { mesh: Some("Cape".into()), ..Default::default() };
    let cape = springmesh_convert::convert_file(&glb, &options).unwrap().model;
    let path = scratch("worn-outside").join("cape.spring");
    springmesh_core::io::save(&cape, &path).unwrap();
    let mut harness = editor(Sample::Cloth);
    open_file(&mut harness, path);
    let doc = &harness.state().doc;
    assert!(doc.model().rig.is_some() && doc.character.is_none(), "not read");
    assert!(doc.notes.iter().any(|n| n.contains("outside the model's folder")), "{:?}", doc.notes);
}
