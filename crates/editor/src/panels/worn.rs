//! The Worn section of the right panel, for a model worn on a skeleton (a cape): play one of
//! the character's clips in a loop while the test simulates the cloth on the drawn character; set
//! the selected nodes' max distance (how far each may leave its skinned position; 0:
//! kinematic, it follows the skin); see and change the character's colliders, which ride on the
//! joints. Max distances and colliders are one undoable [`Edit::SetRig`] each.

use crate::actions::Action;
use crate::document::Document;
use crate::edit::{set_character_colliders, set_max_distance};
use crate::live::Live;
use crate::panels::colliders::{shape_fields, surface_fields};
use crate::viewport::DISTANCE_RAMP;
use eframe::egui;
use glam::Vec3;
use springmesh_core::NodeId;
use springmesh_core::model::{JointCollider, Obstacle, Rig, Shape, Surface};

/// What the section keeps between frames.
#[derive(Clone, Debug, PartialEq)]
pub struct WornForm {
    /// The max distance (m) Set gives the selected nodes.
    pub max_distance: f32,
    /// The joint a new collider is put on.
    pub joint: usize,
}

impl Default for WornForm {
    fn default() -> Self {
        WornForm { max_distance: 0.05, joint: 0 }
    }
}

/// Shows the section when the model is worn on a skeleton; returns what was asked for.
pub fn show(ui: &mut egui::Ui, doc: &Document, live: &Live, form: &mut WornForm) -> Vec<Action> {
    let mut actions = Vec::new();
    let Some(rig) = &doc.model().rig else { return actions };
    ui.heading("Worn");
    clip_choice(ui, doc, live, &mut actions);
    ui.separator();
    max_distances(ui, doc, rig, form, &mut actions);
    ui.separator();
    character_colliders(ui, doc, rig, form, &mut actions);
    actions
}

/// The clip the test plays on the character.
fn clip_choice(ui: &mut egui::Ui, doc: &Document, live: &Live, actions: &mut Vec<Action>) {
    let Some(character) = &doc.character else {
        ui.label("The character's file was not read: the test holds the skeleton at rest.");
        return;
    };
    let name = |c: Option<usize>| {
        c.and_then(|i| character.clips.get(i))
            .map_or("rest pose".to_string(), |c| format!("{} ({:.2} s)", c.name, c.duration))
    };
    ui.horizontal(|ui| {
        let l = ui.label("clip");
        egui::ComboBox::from_id_salt("clip")
            .selected_text(name(live.clip))
            .show_ui(ui, |ui| {
                for choice in std::iter::once(None).chain((0..character.clips.len()).map(Some)) {
                    if ui.selectable_label(live.clip == choice, name(choice)).clicked()
                        && live.clip != choice
                    {
                        actions.push(Action::PlayClip(choice));
                    }
                }
            })
            .response
            .labelled_by(l.id);
    });
    ui.label(
        egui::RichText::new("the test plays it in a loop, the cloth simulated on the character")
            .weak(),
    );
}

/// The selected nodes' max distances, and Set, Kinematic and Free for them.
fn max_distances(
    ui: &mut egui::Ui,
    doc: &Document,
    rig: &Rig,
    form: &mut WornForm,
    actions: &mut Vec<Action>,
) {
    let selected: Vec<NodeId> = doc.selection.nodes.iter().copied().collect();
    let of = |n: &NodeId| rig.max_distance.get(n.index()).copied().flatten();
    let distances: Vec<f32> = selected.iter().filter_map(of).collect();
    let free = selected.len() - distances.len();
    let summary = match (
        distances.iter().copied().reduce(f32::min),
        distances.iter().copied().reduce(f32::max),
    ) {
        _ if selected.is_empty() => "no node selected".to_string(),
        (Some(lo), Some(hi)) if lo == hi => {
            format!("{} nodes: {lo} m, {free} free", selected.len())
        }
        (Some(lo), Some(hi)) => format!("{} nodes: {lo} to {hi} m, {free} free", selected.len()),
        _ => format!("{} nodes, all free", selected.len()),
    };
    ui.label(egui::RichText::new("Max distance").strong());
    ui.label(summary);
    ui.horizontal(|ui| {
        let l = ui.label("set to");
        let drag = egui::DragValue::new(&mut form.max_distance)
            .speed(0.001)
            .range(0.0..=springmesh_core::model::MAX_LENGTH)
            .suffix(" m");
        ui.add(drag).labelled_by(l.id);
    });
    ui.add_enabled_ui(!selected.is_empty(), |ui| {
        ui.horizontal(|ui| {
            let choices = [
                (
                    "Set",
                    Some(form.max_distance),
                    "the selected nodes may move this far from their skin",
                ),
                ("Kinematic", Some(0.0), "the selected nodes follow their skin exactly (anchored)"),
                ("Free", None, "the selected nodes move freely, their skin ignored"),
            ];
            for (label, r, hint) in choices {
                if ui.button(label).on_hover_text(hint).clicked()
                    && let Some(edit) = set_max_distance(doc.model(), &selected, r)
                {
                    let what = r.map_or("free".to_string(), |r| format!("{r} m"));
                    actions.push(Action::Edit(edit, format!("Max distance {what}")));
                }
            }
        });
    });
    let largest = rig.max_distance.iter().flatten().fold(0.0f32, |a, &b| a.max(b));
    ui.horizontal(|ui| {
        ui.label("colours (View: max distance):");
        let [short, long] = DISTANCE_RAMP.map(|[r, g, b]| crate::viewport::color32([r, g, b, 1.0]));
        ui.colored_label(short, "short");
        ui.label("to");
        ui.colored_label(long, format!("{largest} m"));
    });
}

/// The character's colliders: each one's joint and shape, Remove, and a capsule added on a joint.
fn character_colliders(
    ui: &mut egui::Ui,
    doc: &Document,
    rig: &Rig,
    form: &mut WornForm,
    actions: &mut Vec<Action>,
) {
    ui.label(egui::RichText::new("Character colliders").strong());
    ui.label(egui::RichText::new("at the rest pose; they ride on their joints").weak());
    let joint_name = |k: u16| rig.joints.get(usize::from(k)).map_or("?", |j| j.name.as_str());
    let mut colliders = rig.colliders.clone();
    let (mut changed, mut removed) = (None, None);
    for (i, c) in colliders.iter_mut().enumerate() {
        ui.push_id(("character collider", i), |ui| {
            ui.horizontal(|ui| {
                let kind = c.collider.shape.kind();
                ui.label(
                    egui::RichText::new(format!("{kind} {i} on {}", joint_name(c.joint))).strong(),
                );
                if ui.small_button("Remove").clicked() {
                    removed = Some(i);
                }
            });
            if shape_fields(ui, &mut c.collider.shape) | surface_fields(ui, &mut c.collider.surface)
            {
                changed = Some(i);
            }
        });
    }
    if let Some(i) = removed {
        colliders.remove(i);
        if let Some(edit) = set_character_colliders(doc.model(), colliders) {
            actions.push(Action::Edit(edit, format!("Remove character collider {i}")));
        }
        return;
    }
    if let Some(i) = changed
        && let Some(edit) = set_character_colliders(doc.model(), colliders.clone())
    {
        actions.push(Action::EditContinued(edit, format!("Tune character collider {i}")));
    }
    if rig.joints.is_empty() {
        return;
    }
    form.joint = form.joint.min(rig.joints.len() - 1);
    ui.horizontal(|ui| {
        let l = ui.label("on");
        egui::ComboBox::from_id_salt("collider joint")
            .selected_text(rig.joints[form.joint].name.as_str())
            .show_ui(ui, |ui| {
                for (k, j) in rig.joints.iter().enumerate() {
                    ui.selectable_value(&mut form.joint, k, j.name.as_str());
                }
            })
            .response
            .labelled_by(l.id);
        if ui.button("Add a capsule").on_hover_text("along the joint's bone, at rest").clicked() {
            colliders.push(bone_capsule(rig, form.joint));
            if let Some(edit) = set_character_colliders(doc.model(), colliders) {
                let name = &rig.joints[form.joint].name;
                actions.push(Action::Edit(edit, format!("Add a capsule on {name}")));
            }
        }
    });
}

/// Length of a new capsule on a joint without a child (m), and its radius's share of its length.
const LONE_BONE: f32 = 0.2;
const RADIUS_PER_LENGTH: f32 = 0.25;

/// A capsule along joint `k`'s bone at rest: from the joint to its first child (or
/// [`LONE_BONE`] along its +y, glTF's and Blender's bone axis), a quarter as thick as long.
pub fn bone_capsule(rig: &Rig, k: usize) -> JointCollider {
    let rest = rig.rest_pose();
    let origin = |m: &glam::Mat4| m.w_axis.truncate();
    let a = rest.get(k).map_or(Vec3::ZERO, origin);
    let child = rig.joints.iter().position(|j| j.parent.map(usize::from) == Some(k));
    let along = rest.get(k).map_or(Vec3::Y, |m| m.y_axis.truncate()).normalize_or(Vec3::Y);
    let b = child.and_then(|c| rest.get(c)).map_or(a + along * LONE_BONE, origin);
    let b = if b.distance(a) > 1e-4 { b } else { a + along * LONE_BONE };
    let shape = Shape::Capsule { a, b, radius: (RADIUS_PER_LENGTH * a.distance(b)).max(1e-3) };
    JointCollider { joint: k as u16, collider: Obstacle { shape, surface: Surface::default() } }
}
