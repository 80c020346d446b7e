//! The right panel: the inspector of the selection, the Edit section, the Test section, the
//! Worn section (a model worn on a skeleton), the Colliders section and the Tune section, one under the other in a scroll area. It owns what they keep between
//! frames: the jump-to-node field, the values new springs get and the tune's target.

use crate::actions::Action;
use crate::document::Document;
use crate::live::Live;
use crate::panels::behaviour::{self, BehaviourForm};
use crate::panels::editing::{self, EditForm};
use crate::panels::worn::{self, WornForm};
use crate::panels::{colliders, inspector, simulation};
use eframe::egui;

/// The right panel and its state.
#[derive(Default)]
pub struct SidePanel {
    /// The text of the jump-to-node field.
    jump: String,
    /// The values the Edit section applies (also to the keyboard's edits).
    pub edit: EditForm,
    /// The target the Tune section aims at.
    pub behaviour: BehaviourForm,
    /// The Worn section's max distance and joint.
    pub worn: WornForm,
}

impl SidePanel {
    /// Draws the panel at the right of `ui` for `doc` and its live test; returns what was
    /// asked for.
    pub fn ui(&mut self, ui: &mut egui::Ui, doc: &mut Document, live: &Live) -> Vec<Action> {
        egui::Panel::right("inspector")
            .default_size(320.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .show(ui, |ui| {
                        let mut actions = inspector::show(ui, doc, live, &mut self.jump);
                        ui.separator();
                        actions.extend(editing::show(ui, doc, live, &mut self.edit));
                        ui.separator();
                        let k = (self.edit.stiffness, self.edit.damping);
                        actions.extend(simulation::show(ui, doc, live, k));
                        ui.separator();
                        if doc.model().rig.is_some() {
                            actions.extend(worn::show(ui, doc, live, &mut self.worn));
                            ui.separator();
                        }
                        actions.extend(colliders::show(ui, doc));
                        ui.separator();
                        actions.extend(behaviour::stiffness_fit_section(
                            ui,
                            doc,
                            live,
                            &mut self.behaviour,
                        ));
                        actions
                    })
                    .inner
            })
            .inner
    }
}
