//! The Colliders section of the right panel: the model's spheres, capsules, boxes and planes,
//! which the viewport draws as outlines. Add one under the model, drag its numbers, remove it.
//!
//! Colliders are part of the model's parameters, so each change is an undoable
//! [`Edit::SetParams`]: a drag on one value is one undo step, and the running test takes the
//! new shape without starting over.

use crate::actions::Action;
use crate::document::Document;
use crate::edit::Edit;
use eframe::egui;
use glam::{Quat, Vec3};
use springmesh_core::SpringModel;
use springmesh_core::model::{Obstacle, Shape, Surface};

/// The kinds a collider can be added as, with their labels.
const KINDS: [(&str, Kind); 4] = [
    ("sphere", Kind::Sphere),
    ("capsule", Kind::Capsule),
    ("box", Kind::Box),
    ("plane", Kind::Plane),
];

/// A kind of collider to add.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Sphere,
    Capsule,
    Box,
    Plane,
}

/// Shows the Colliders section; returns the edits asked for.
pub fn show(ui: &mut egui::Ui, doc: &Document) -> Vec<Action> {
    let mut actions = Vec::new();
    ui.heading("Colliders");
    let m = doc.model();
    let mut colliders = m.params.colliders.clone();
    let mut changed = None;
    let mut removed = None;
    for (i, c) in colliders.iter_mut().enumerate() {
        ui.push_id(i, |ui| {
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new(format!("{} {i}", c.shape.kind())).strong());
                if ui.small_button("Remove").clicked() {
                    removed = Some(i);
                }
            });
            if shape_fields(ui, &mut c.shape) | surface_fields(ui, &mut c.surface) {
                changed = Some(i);
            }
        });
    }
    if let Some(i) = removed {
        let kind = colliders[i].shape.kind();
        colliders.remove(i);
        let p = springmesh_core::SimParams { colliders, ..m.params.clone() };
        actions.push(Action::Edit(Edit::SetParams(Box::new(p)), format!("Remove {kind} {i}")));
        return actions;
    }
    if let Some(i) = changed {
        let kind = colliders[i].shape.kind();
        let p = springmesh_core::SimParams { colliders, ..m.params.clone() };
        actions
            .push(Action::EditContinued(Edit::SetParams(Box::new(p)), format!("Tune {kind} {i}")));
    }
    ui.horizontal(|ui| {
        ui.label("add");
        for (label, kind) in KINDS {
            if ui.button(label).on_hover_text(format!("a {label} under the model")).clicked() {
                let mut p = m.params.clone();
                p.colliders.push(Obstacle { shape: under(m, kind), surface: Surface::default() });
                actions.push(Action::Edit(Edit::SetParams(Box::new(p)), format!("Add a {label}")));
            }
        }
    });
    actions
}

/// A new collider of `kind` just under the model, sized to it: a sphere or a box as wide as
/// half the model, a capsule across it along x, a plane facing up. It sits a tenth of the
/// model's size below the lowest node, so the model falls onto it.
pub fn under(m: &SpringModel, kind: Kind) -> Shape {
    let (lo, hi) = m.bounding_box().map_or((Vec3::ZERO, Vec3::ZERO), |b| (b.min, b.max));
    let size = (hi - lo).max_element().max(0.01);
    let centre = (lo + hi) * 0.5;
    let radius = 0.25 * size;
    let top = lo.y - 0.1 * size;
    match kind {
        Kind::Sphere => {
            Shape::Sphere { center: Vec3::new(centre.x, top - radius, centre.z), radius }
        }
        Kind::Capsule => {
            let (r, y) = (0.1 * size, top - 0.1 * size);
            Shape::Capsule {
                a: Vec3::new(lo.x - 0.2 * size, y, centre.z),
                b: Vec3::new(hi.x + 0.2 * size, y, centre.z),
                radius: r,
            }
        }
        Kind::Box => Shape::Box {
            center: Vec3::new(centre.x, top - radius, centre.z),
            half_extents: Vec3::splat(radius),
            rotation: Quat::IDENTITY,
        },
        Kind::Plane => Shape::Plane { point: Vec3::new(centre.x, top, centre.z), normal: Vec3::Y },
    }
}

/// The fields of `shape`, dragged in metres; true if one changed.
pub(crate) fn shape_fields(ui: &mut egui::Ui, shape: &mut Shape) -> bool {
    let mut changed = false;
    egui::Grid::new("shape").num_columns(2).show(ui, |ui| {
        let mut row = |ui: &mut egui::Ui, label: &str, v: &mut Vec3| {
            ui.label(label);
            ui.horizontal(|ui| {
                for (x, axis) in v.as_mut().iter_mut().zip(["x", "y", "z"]) {
                    let drag = egui::DragValue::new(x).speed(0.005).suffix(" m");
                    changed |= ui.add(drag).on_hover_text(format!("{label} {axis}")).changed();
                }
            });
            ui.end_row();
        };
        match shape {
            Shape::Sphere { center, radius } => {
                row(ui, "centre", center);
                changed |= length(ui, "radius", radius);
            }
            Shape::Capsule { a, b, radius } => {
                row(ui, "end a", a);
                row(ui, "end b", b);
                changed |= length(ui, "radius", radius);
            }
            Shape::Box { center, half_extents, .. } => {
                row(ui, "centre", center);
                row(ui, "half size", half_extents);
                // A half size of 0 is not a box.
                *half_extents = half_extents.max(Vec3::splat(1e-4));
            }
            Shape::Plane { point, normal } => {
                row(ui, "point", point);
                row(ui, "normal", normal);
                if *normal == Vec3::ZERO {
                    *normal = Vec3::Y;
                }
            }
            Shape::Triangle { a, b, c } => {
                row(ui, "corner a", a);
                row(ui, "corner b", b);
                row(ui, "corner c", c);
            }
        }
    });
    changed
}

/// A positive length (m) dragged in its grid row; true if it changed.
fn length(ui: &mut egui::Ui, label: &str, value: &mut f32) -> bool {
    let l = ui.label(label);
    let drag = egui::DragValue::new(value).speed(0.005).range(1e-4..=1e4).suffix(" m");
    let changed = ui.add(drag).labelled_by(l.id).changed();
    ui.end_row();
    changed
}

/// The friction and restitution of a collider's surface; true if one changed.
pub(crate) fn surface_fields(ui: &mut egui::Ui, s: &mut Surface) -> bool {
    ui.horizontal(|ui| {
        let l = ui.label("friction");
        let friction = egui::DragValue::new(&mut s.friction).speed(0.01).range(0.0..=10.0);
        let mut changed = ui.add(friction).labelled_by(l.id).changed();
        let l = ui.label("bounce");
        let bounce = egui::DragValue::new(&mut s.restitution).speed(0.01).range(0.0..=1.0);
        changed |= ui.add(bounce).labelled_by(l.id).changed();
        changed
    })
    .inner
}

#[cfg(test)]
mod tests {
    use super::*;
    use springmesh_convert::samples::Sample;

    #[test]
    fn new_colliders_sit_under_the_model_and_are_valid() {
        // The cloth sample: a 1 m square at one height; every collider added is below it.
        let model = Sample::Cloth.model();
        let lowest = model.bounding_box().map(|b| b.min.y).unwrap_or_default();
        for (label, kind) in KINDS {
            let mut m = model.clone();
            let shape = under(&m, kind);
            let top = match shape {
                Shape::Sphere { center, radius } => center.y + radius,
                Shape::Capsule { a, b, radius } => a.y.max(b.y) + radius,
                Shape::Box { center, half_extents, .. } => center.y + half_extents.y,
                Shape::Plane { point, .. } => point.y,
                Shape::Triangle { a, b, c } => a.y.max(b.y).max(c.y),
            };
            assert!((top - (lowest - 0.1)).abs() < 1e-5, "{label}: top {top}, model at {lowest}");
            m.params.colliders.push(Obstacle { shape, surface: Surface::default() });
            assert!(springmesh_core::ValidModel::new(m).is_ok(), "{label}");
        }
    }
}
