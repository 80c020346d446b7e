//! The right panel: stepping through nodes, the current node and its springs, the selected
//! spring.

use crate::actions::Action;
use crate::commands::Command;
use crate::document::Document;
use crate::live::Live;
use eframe::egui;
use springmesh_core::{NodeId, SpringId};

/// Shows the inspector; `jump` holds the text of the jump-to field.
pub fn show(ui: &mut egui::Ui, doc: &mut Document, live: &Live, jump: &mut String) -> Vec<Action> {
    let mut actions = Vec::new();
    let count = doc.model().nodes.len();
    ui.heading("Nodes");
    ui.horizontal(|ui| {
        if ui.button("◀ Previous").clicked() {
            actions.push(Action::Run(Command::PreviousNode));
        }
        if ui.button("Next ▶").clicked() {
            actions.push(Action::Run(Command::NextNode));
        }
    });
    ui.horizontal(|ui| {
        let label = ui.label("Go to node");
        let field = ui
            .add(egui::TextEdit::singleline(jump).desired_width(70.0).hint_text("index"))
            .labelled_by(label.id);
        let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Go").clicked() || entered {
            match jump.trim().parse::<usize>() {
                Ok(i) if i < count => doc.selection.go_to(NodeId::from_index(i)),
                _ => actions.push(Action::Notify(format!(
                    "There is no node \"{jump}\": the model has {count} nodes."
                ))),
            }
        }
        ui.label(format!("of 0..{}", count.saturating_sub(1)));
    });
    ui.separator();
    ui.vertical(|ui| {
        if let Some(n) = doc.selection.current.filter(|n| n.index() < count) {
            node_view(ui, doc, live, n);
        } else {
            ui.label("No current node: click one, or step with Next.");
        }
        if let [spring] = doc.selection.springs.iter().copied().collect::<Vec<_>>()[..] {
            ui.separator();
            spring_view(ui, doc, live, spring);
        }
        ui.separator();
        ui.label(format!(
            "Selected: {} nodes, {} springs",
            doc.selection.nodes.len(),
            doc.selection.springs.len()
        ));
    });
    actions
}

fn node_view(ui: &mut egui::Ui, doc: &mut Document, live: &Live, n: NodeId) {
    let m = doc.model();
    let rest = m.nodes.positions()[n.index()];
    ui.heading(format!("Node {n}"));
    egui::Grid::new("node").num_columns(2).show(ui, |ui| {
        ui.label("rest position");
        ui.label(format!("({:.4}, {:.4}, {:.4}) m", rest.x, rest.y, rest.z));
        ui.end_row();
        if let Some(p) = live.positions().and_then(|p| p.get(n.index())) {
            ui.label("simulated");
            ui.label(format!("({:.4}, {:.4}, {:.4}) m", p.x, p.y, p.z));
            ui.end_row();
        }
        ui.label("mass");
        ui.label(format!("{} kg", m.nodes.masses()[n.index()]));
        ui.end_row();
        ui.label("anchored");
        ui.label(if m.is_anchor(n) { "yes" } else { "no" });
        ui.end_row();
    });
    let mine: Vec<(SpringId, springmesh_core::Spring)> = m
        .springs
        .iter()
        .enumerate()
        .filter(|(_, s)| s.a == n || s.b == n)
        .map(|(i, s)| (SpringId::from_index(i), s))
        .collect();
    ui.label(egui::RichText::new(format!("{} springs", mine.len())).strong());
    let mut clicked = None;
    egui::Grid::new("node springs").striped(true).num_columns(5).show(ui, |ui| {
        for header in ["to node", "kind", "rest (m)", "k (N/m)", "damping (N·s/m)"] {
            ui.label(egui::RichText::new(header).weak());
        }
        ui.end_row();
        for (id, s) in &mine {
            let other = if s.a == n { s.b } else { s.a };
            let selected = doc.selection.springs.contains(id);
            if ui
                .selectable_label(selected, format!("{other}"))
                .on_hover_text(format!("spring {id}"))
                .clicked()
            {
                clicked = Some(*id);
            }
            ui.label(s.kind.name());
            ui.label(format!("{:.4}", s.rest_length));
            ui.label(format!("{}", s.stiffness));
            ui.label(format!("{}", s.damping));
            ui.end_row();
        }
    });
    if let Some(id) = clicked {
        doc.selection.springs.clear();
        doc.selection.springs.insert(id);
    }
}

fn spring_view(ui: &mut egui::Ui, doc: &Document, live: &Live, id: SpringId) {
    let m = doc.model();
    let Some(s) = m.springs.get(id) else { return };
    ui.heading(format!("Spring {id}"));
    egui::Grid::new("spring").num_columns(2).show(ui, |ui| {
        let limit = |l: Option<f32>| l.map_or("none".to_string(), |v| format!("{v} m"));
        let rows = [
            ("nodes", format!("{} – {}", s.a, s.b)),
            ("kind", s.kind.name().to_string()),
            ("rest length", format!("{:.5} m", s.rest_length)),
            ("stiffness", format!("{} N/m", s.stiffness)),
            ("damping", format!("{} N·s/m", s.damping)),
            ("breaks below", limit(s.break_min)),
            ("breaks above", limit(s.break_max)),
        ];
        for (label, value) in rows {
            ui.label(label);
            ui.label(value);
            ui.end_row();
        }
        if let Some((pa, pb)) =
            live.positions().and_then(|p| Some((p.get(s.a.index())?, p.get(s.b.index())?)))
        {
            let length = pa.distance(*pb);
            ui.label("simulated length");
            ui.label(format!(
                "{length:.5} m ({:+.2}%)",
                (length / s.rest_length.max(1e-12) - 1.0) * 100.0
            ));
            ui.end_row();
        }
    });
}
