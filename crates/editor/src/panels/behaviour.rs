//! The model's behaviour: its vibration modes (in the model panel) and the Tune section (in
//! the right panel), where the artist states a frequency or a sag and the tool finds the
//! stiffness ([`springmesh_analysis::stiffness_fit`]). Applying a tune is one undoable step; the live
//! test starts over from the tuned model.

use crate::actions::Action;
use crate::behaviour_jobs::BehaviourJobs;
use crate::document::Document;
use crate::live::Live;
use eframe::egui;
use springmesh_analysis::stiffness_fit::Target;

/// What the Tune section aims at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BehaviourForm {
    /// Aim at the sag (true) or the lowest frequency (false).
    pub by_sag: bool,
    /// Lowest frequency, Hz.
    pub frequency: f64,
    /// Sag at rest, percent of the diagonal.
    pub sag_percent: f64,
}

impl Default for BehaviourForm {
    /// 3 Hz (a jelly's wobble) or a 1% sag.
    fn default() -> Self {
        Self { by_sag: false, frequency: 3.0, sag_percent: 1.0 }
    }
}

/// The model's lowest vibration frequencies, found on a copy.
pub fn modes(ui: &mut egui::Ui, doc: &Document, tuner: &BehaviourJobs) -> Vec<Action> {
    let mut actions = Vec::new();
    ui.horizontal_wrapped(|ui| {
        ui.label("vibration modes");
        match &tuner.modes {
            Some((_, Ok(hz))) if hz.is_empty() => {
                ui.label("none: every motion is rigid or stretches no spring");
            }
            Some((_, Ok(hz))) => {
                let list: Vec<String> = hz.iter().map(|f| format!("{f:.3}")).collect();
                ui.label(format!("{} Hz", list.join(", ")));
            }
            Some((_, Err(e))) => {
                ui.colored_label(egui::Color32::LIGHT_RED, e);
            }
            None => {}
        }
        let stale = tuner.modes.as_ref().is_none_or(|(r, _)| *r != doc.revision());
        // Text, not a spinner: a spinner repaints every frame, and the modes of every change
        // of a small model are found by themselves (the job wakes the window when done).
        if tuner.finding_modes() {
            ui.label(egui::RichText::new("finding…").weak());
        } else if stale {
            if tuner.modes.is_some() {
                ui.label(egui::RichText::new("(of an earlier version)").weak());
            }
            if ui
                .button("Find")
                .on_hover_text("the lowest frequencies the model rings at, its anchors held")
                .clicked()
            {
                actions.push(Action::FindModes);
            }
        }
    });
    actions
}

/// The Tune section: a target, Apply, and what the last tune did.
pub fn stiffness_fit_section(
    ui: &mut egui::Ui,
    doc: &Document,
    live: &Live,
    form: &mut BehaviourForm,
) -> Vec<Action> {
    let mut actions = Vec::new();
    ui.heading("Tune");
    ui.label("Scale every stiffness by one factor so the model rings or sags as asked.");
    ui.horizontal(|ui| {
        ui.radio_value(&mut form.by_sag, false, "lowest frequency");
        ui.radio_value(&mut form.by_sag, true, "sag at rest");
    });
    ui.horizontal(|ui| {
        if form.by_sag {
            ui.add(
                egui::DragValue::new(&mut form.sag_percent)
                    .range(0.01..=50.0)
                    .speed(0.01)
                    .suffix(" % of the size"),
            );
        } else {
            ui.add(
                egui::DragValue::new(&mut form.frequency)
                    .range(0.01..=1000.0)
                    .speed(0.05)
                    .suffix(" Hz"),
            );
        }
        let running = live.tuner.tuning();
        let apply = ui
            .add_enabled(!running && !doc.model().nodes.is_empty(), egui::Button::new("Apply"))
            .on_hover_text(
                "works out the factor on a copy (the sag by simulating it), then applies it as \
                 one undoable step; damping keeps its ratio, sub-steps grow if needed",
            );
        if apply.clicked() {
            let target = if form.by_sag {
                Target::Sag(form.sag_percent / 100.0)
            } else {
                Target::Frequency(form.frequency)
            };
            actions.push(Action::FitStiffness(target));
        }
        if running {
            ui.spinner();
            ui.label("tuning a copy…");
        }
    });
    if let Some(note) = &live.tuner.note {
        ui.label(note);
    }
    actions
}
