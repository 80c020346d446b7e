//! The question before unsaved changes would be lost.

use eframe::egui;

/// The artist's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Save first, then go on.
    Save,
    /// Go on without saving.
    Discard,
    /// Stay.
    Cancel,
}

/// Asks whether to save `name` before `doing` (e.g. "opening another file"); `None` until
/// answered.
pub fn unsaved_changes(ctx: &egui::Context, name: &str, doing: &str) -> Option<Answer> {
    let mut answer = None;
    let modal = egui::Modal::new(egui::Id::unique("unsaved changes")).show(ctx, |ui| {
        ui.heading("Unsaved changes");
        ui.label(format!("{name} has changes that are not saved. Save them before {doing}?"));
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Save").clicked() {
                answer = Some(Answer::Save);
            }
            if ui.button("Don't save").clicked() {
                answer = Some(Answer::Discard);
            }
            if ui.button("Cancel").clicked() {
                answer = Some(Answer::Cancel);
            }
        });
    });
    if modal.should_close() && answer.is_none() {
        answer = Some(Answer::Cancel);
    }
    answer
}
