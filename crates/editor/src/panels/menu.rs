//! The menu bar: File, Edit, View, Simulation, Help.

use crate::actions::Action;
use crate::commands::{Command, menu_item};
use crate::history::History;
use crate::recent::RecentFiles;
use eframe::egui;
use springmesh_convert::samples::Sample;

/// Shows the menu bar; returns what was chosen.
pub fn show(ui: &mut egui::Ui, recent: &RecentFiles, history: &History) -> Vec<Action> {
    let mut actions = Vec::new();
    let mut chosen = None;
    let mut item = |ui: &mut egui::Ui, command: Command| {
        if menu_item(ui, command) {
            actions.push(Action::Run(command));
        }
    };
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            item(ui, Command::Open);
            ui.menu_button("Open Sample", |ui| {
                for sample in Sample::ALL {
                    if ui.button(sample.name()).clicked() {
                        chosen = Some(Action::OpenSample(sample));
                    }
                }
            });
            ui.menu_button("Recent Files", |ui| {
                if recent.0.is_empty() {
                    ui.label("(none yet)");
                }
                for path in &recent.0 {
                    if ui.button(path.display().to_string()).clicked() {
                        chosen = Some(Action::Open(path.clone()));
                    }
                }
            });
            ui.separator();
            item(ui, Command::Save);
            item(ui, Command::SaveAs);
            item(ui, Command::ExportJson);
            ui.separator();
            item(ui, Command::Quit);
        });
        ui.menu_button("Edit", |ui| {
            item(ui, Command::Undo);
            item(ui, Command::Redo);
            ui.separator();
            item(ui, Command::Connect);
            item(ui, Command::ToggleAnchor);
            item(ui, Command::Delete);
            ui.separator();
            ui.label(egui::RichText::new("History (newest first)").weak());
            for label in history.redo_labels().rev() {
                ui.label(egui::RichText::new(format!("(undone) {label}")).weak());
            }
            for label in history.undo_labels().rev() {
                ui.label(label);
            }
        });
        ui.menu_button("View", |ui| {
            item(ui, Command::FrameAll);
            item(ui, Command::NextNode);
            item(ui, Command::PreviousNode);
            item(ui, Command::ClearSelection);
        });
        ui.menu_button("Simulation", |ui| {
            item(ui, Command::TogglePlay);
            item(ui, Command::Reset);
        });
        ui.menu_button("Help", |ui| {
            ui.label("Orbit: left drag · Pan: middle or Shift + left drag · Zoom: wheel");
            ui.label("Click: select · Shift + click: add to the selection");
            ui.separator();
            egui::Grid::new("shortcuts").show(ui, |ui| {
                for spec in Command::ALL.iter().map(|c| c.spec()) {
                    if let Some(s) = spec.shortcut {
                        ui.label(spec.label);
                        ui.label(ui.ctx().format_shortcut(&s));
                        ui.end_row();
                    }
                }
            });
        });
    });
    actions.extend(chosen);
    actions
}
