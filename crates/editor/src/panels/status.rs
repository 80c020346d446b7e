//! The bottom bar: play controls, counts, the selection, timing and what is loading.

use crate::actions::Action;
use crate::commands::Command;
use crate::document::Document;
use crate::live::Live;
use crate::loader::Progress;
use crate::timing::FrameTime;
use eframe::egui;

/// Shows the bar.
pub fn show(
    ui: &mut egui::Ui,
    doc: &Document,
    live: &Live,
    progress: Option<Progress>,
    time: FrameTime,
) -> Vec<Action> {
    let mut actions = Vec::new();
    ui.horizontal(|ui| {
        let play = if live.playing { "⏸ Pause" } else { "▶ Play" };
        if ui.button(play).clicked() {
            actions.push(Action::Run(Command::TogglePlay));
        }
        if ui.button("⟲ Reset").clicked() {
            actions.push(Action::Run(Command::Reset));
        }
        match live.time() {
            Some(t) => ui.label(format!("t = {t:.2} s{}", if live.behind { " (slower than real time)" } else { "" })),
            None => ui.label("at rest shape"),
        };
        let broken = live.broken().len();
        if broken > 0 {
            ui.label(format!("{broken} springs broke"));
        }
        ui.separator();
        let m = doc.model();
        let faces = m.surface_faces().len();
        let skin = m.skin.as_ref().map_or(String::new(), |_| {
            format!(" on a skin of {} vertices", m.surface_vertex_count())
        });
        ui.label(format!("{} nodes · {} springs · {faces} faces{skin}", m.nodes.len(), m.springs.len()));
        ui.separator();
        let s = &doc.selection;
        ui.label(match s.current {
            Some(n) => format!("node {n} · {} nodes, {} springs selected", s.nodes.len(), s.springs.len()),
            None => format!("{} nodes, {} springs selected", s.nodes.len(), s.springs.len()),
        });
        ui.separator();
        let total = time.total_ms.map_or(String::new(), |t| format!("{t:.1} ms, "));
        ui.label(format!(
            "frame CPU: {total}ui {:.1} ms, upload {:.1} ms, draw {:.1} ms; step {:.1} ms",
            time.ui_ms, time.upload_ms, time.draw_ms, time.sim_ms
        ))
        .on_hover_text("ui: panels and geometry; upload: changed geometry to the GPU; draw: draw calls; step: the last simulation step, on its own thread");
        if let Some(p) = progress {
            ui.separator();
            ui.spinner();
            let stage = p.stage.map_or("opening", |s| s.label());
            ui.label(format!("{}: {stage} ({:.1} s)", p.path.display(), p.seconds));
        }
        if let Some(e) = &live.error {
            ui.separator();
            ui.colored_label(egui::Color32::LIGHT_RED, e);
        }
    });
    actions
}
