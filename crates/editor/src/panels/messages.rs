//! Messages over the top of the viewport: errors from opening, converting, saving, and anything
//! else the artist should read. Each stays until dismissed.

use crate::actions::Action;
use eframe::egui;

/// Shows `messages` (and the renderer's failure, if any) in a layer above the viewport whose
/// rectangle is `viewport`; returns the dismissals.
pub fn show(
    ctx: &egui::Context,
    viewport: egui::Rect,
    messages: &[String],
    render_error: Option<&str>,
) -> Vec<Action> {
    let mut actions = Vec::new();
    if messages.is_empty() && render_error.is_none() {
        return actions;
    }
    let origin = if viewport.is_finite() {
        viewport.min + egui::vec2(8.0, 8.0)
    } else {
        egui::pos2(8.0, 32.0)
    };
    egui::Area::new(egui::Id::unique("messages"))
        .order(egui::Order::Foreground)
        .fixed_pos(origin)
        .show(ctx, |ui| {
            ui.set_max_width((viewport.width() - 16.0).max(200.0));
            for (i, text) in messages.iter().enumerate() {
                let frame = egui::Frame::new()
                    .fill(egui::Color32::from_rgb(90, 25, 25))
                    .inner_margin(6.0)
                    .corner_radius(4.0);
                frame.show(ui, |ui| {
                    ui.horizontal(|ui| {
                        ui.colored_label(egui::Color32::WHITE, text);
                        if ui.small_button("×").on_hover_text("Dismiss").clicked() {
                            actions.push(Action::Dismiss(i));
                        }
                    });
                });
            }
            if let Some(e) = render_error {
                ui.colored_label(
                    egui::Color32::LIGHT_RED,
                    format!("The 3D view could not start: {e}"),
                );
            }
        });
    actions
}
