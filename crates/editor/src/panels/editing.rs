//! The Edit section of the right panel, and the edits the editing commands make from the
//! selection: connect, anchor, delete, and setting values on many nodes or springs at once.
//!
//! Everything here returns [`Edit`]s for the app to apply (never touching the model), so each
//! change is one undoable step.

use crate::actions::Action;
use crate::commands::Command;
use crate::document::Document;
use crate::edit::{self, Connect, Edit, connecting_springs};
use crate::live::Live;
use eframe::egui;
use springmesh_core::{Node, NodeId, Spring, SpringId, SpringKind, SpringModel};

/// The values the Edit section applies.
#[derive(Clone, Debug, PartialEq)]
pub struct EditForm {
    /// Stiffness of new springs (N/m); also what "Set" gives selected springs.
    pub stiffness: f32,
    /// Damping of new springs (N·s/m).
    pub damping: f32,
    /// Connect only pairs closer than this (m); 0 connects every pair.
    pub radius: f32,
    /// How many nearest selected nodes "Connect to nearest" joins each node to.
    pub nearest: usize,
    /// Mass "Set mass" gives the selected nodes (kg).
    pub mass: f32,
    /// The position typed for the current node (m).
    pub position: [f32; 3],
    /// The kind "Select all" picks.
    pub kind: SpringKind,
    /// "Set break limits": a spring breaks shorter than this times its rest length (0: never).
    pub break_below: f32,
    /// ... or longer than this times its rest length (0: never).
    pub break_above: f32,
}

impl Default for EditForm {
    /// New springs as stiff as the converter's stretch springs, lightly damped.
    fn default() -> Self {
        EditForm {
            stiffness: 5000.0,
            damping: 0.05,
            radius: 0.0,
            nearest: 3,
            mass: 0.002,
            position: [0.0; 3],
            kind: SpringKind::Manual,
            break_below: 0.0,
            break_above: 1.5,
        }
    }
}

/// The edit (and its history label) of an editing `command` on the selection; `None` when
/// the selection gives it nothing to do.
pub fn command_edit(command: Command, doc: &Document, form: &EditForm) -> Option<(Edit, String)> {
    let sel = &doc.selection;
    let nodes: Vec<NodeId> = sel.nodes.iter().copied().collect();
    match command {
        Command::ToggleAnchor if !nodes.is_empty() => {
            Some((Edit::ToggleAnchors(nodes), plural("Toggle anchor on", sel.nodes.len(), "node")))
        }
        Command::Connect => {
            let radius = if form.radius > 0.0 { form.radius } else { f32::INFINITY };
            connect(doc.model(), &sel.nodes, Connect::Within(radius), form)
        }
        Command::Delete if !sel.nodes.is_empty() => {
            // Selected springs and nodes go in one step: the springs first, then the nodes
            // with theirs; the result replaces the model.
            let mut m = doc.model().clone();
            let springs = Edit::RemoveSprings(sel.springs.iter().copied().collect());
            edit::apply(&mut m, springs).ok()?;
            edit::apply(&mut m, Edit::RemoveNodes(nodes)).ok()?;
            Some((Edit::Replace(Box::new(m)), plural("Delete", sel.nodes.len(), "node")))
        }
        Command::Delete if !sel.springs.is_empty() => Some((
            Edit::RemoveSprings(sel.springs.iter().copied().collect()),
            plural("Delete", sel.springs.len(), "spring"),
        )),
        _ => None,
    }
}

fn connect(
    model: &SpringModel,
    nodes: &std::collections::BTreeSet<NodeId>,
    how: Connect,
    form: &EditForm,
) -> Option<(Edit, String)> {
    let springs = connecting_springs(model, nodes, how, form.stiffness, form.damping);
    let label = plural("Add", springs.len(), "spring");
    (!springs.is_empty()).then_some((Edit::AddSprings(springs), label))
}

fn plural(verb: &str, n: usize, thing: &str) -> String {
    if n == 1 { format!("{verb} 1 {thing}") } else { format!("{verb} {n} {thing}s") }
}

/// A button showing its command's shortcut; true when clicked.
fn command_button(ui: &mut egui::Ui, command: Command, enabled: bool) -> bool {
    let spec = command.spec();
    let text = match spec.shortcut {
        Some(s) => format!("{} ({})", spec.label, ui.ctx().format_shortcut(&s)),
        None => spec.label.to_string(),
    };
    ui.add_enabled(enabled, egui::Button::new(text)).clicked()
}

/// Shows the Edit section; returns what was asked.
pub fn show(
    ui: &mut egui::Ui,
    doc: &mut Document,
    live: &Live,
    form: &mut EditForm,
) -> Vec<Action> {
    let mut actions = Vec::new();
    let (nodes, springs) = (doc.selection.nodes.len(), doc.selection.springs.len());
    ui.heading("Editing");
    ui.label(
        egui::RichText::new("Edits change the model; a running test restarts from it.").weak(),
    );
    egui::Grid::new("new springs").num_columns(2).show(ui, |ui| {
        let k = egui::DragValue::new(&mut form.stiffness).range(0.0..=1e9).speed(10.0);
        labelled(ui, "new spring k (N/m)", k);
        ui.end_row();
        labelled(
            ui,
            "damping (N·s/m)",
            egui::DragValue::new(&mut form.damping).range(0.0..=1e6).speed(0.01),
        );
        ui.end_row();
        labelled(
            ui,
            "within (m, 0 = all)",
            egui::DragValue::new(&mut form.radius).range(0.0..=1e6).speed(0.01),
        );
        ui.end_row();
    });
    ui.horizontal_wrapped(|ui| {
        if command_button(ui, Command::Connect, nodes >= 2) {
            actions.push(Action::Run(Command::Connect));
        }
        labelled(ui, "k", egui::DragValue::new(&mut form.nearest).range(1..=64));
        if ui.add_enabled(nodes >= 2, egui::Button::new("Connect to k nearest")).clicked() {
            let how = Connect::Nearest(form.nearest);
            actions.extend(connect(doc.model(), &doc.selection.nodes, how, form).map(to_action));
        }
    });
    ui.horizontal_wrapped(|ui| {
        if command_button(ui, Command::ToggleAnchor, nodes > 0) {
            actions.push(Action::Run(Command::ToggleAnchor));
        }
        if command_button(ui, Command::Delete, nodes + springs > 0) {
            actions.push(Action::Run(Command::Delete));
        }
    });
    ui.separator();
    actions.extend(node_values(ui, doc, form));
    actions.extend(spring_values(ui, doc, live, form));
    ui.horizontal(|ui| {
        egui::ComboBox::from_label("kind").selected_text(form.kind.name()).show_ui(ui, |ui| {
            for kind in SpringKind::ALL {
                ui.selectable_value(&mut form.kind, kind, kind.name());
            }
        });
        if ui.button("Select all of kind").clicked() {
            let kinds = doc.model().springs.kinds();
            doc.selection.springs = (0..kinds.len())
                .filter(|&i| kinds[i] == form.kind)
                .map(SpringId::from_index)
                .collect();
        }
    });
    actions
}

/// A label and a value field that screen readers (and kittest) know belong together.
fn labelled(ui: &mut egui::Ui, text: &str, value: egui::DragValue<'_>) {
    let label = ui.label(text);
    ui.add(value).labelled_by(label.id);
}

fn to_action((edit, label): (Edit, String)) -> Action {
    Action::Edit(edit, label)
}

/// Mass of the selected nodes, and the position of the current one.
fn node_values(ui: &mut egui::Ui, doc: &Document, form: &mut EditForm) -> Vec<Action> {
    let mut actions = Vec::new();
    let m = doc.model();
    let selected: Vec<NodeId> = doc.selection.nodes.iter().copied().collect();
    ui.horizontal(|ui| {
        let mass = egui::DragValue::new(&mut form.mass).range(1e-9..=1e6).speed(0.001);
        labelled(ui, "mass (kg)", mass);
        if ui.add_enabled(!selected.is_empty(), egui::Button::new("Set mass")).clicked() {
            let entries = selected
                .iter()
                .filter_map(|&n| Some((n, Node { mass: form.mass, ..m.nodes.get(n)? })))
                .collect();
            actions.push(Action::Edit(
                Edit::SetNodes(entries),
                plural("Set mass of", selected.len(), "node"),
            ));
        }
    });
    if let Some(n) = doc.selection.current.filter(|n| n.index() < m.nodes.len()) {
        ui.horizontal(|ui| {
            for (v, axis) in form.position.iter_mut().zip(["x", "y", "z"]) {
                labelled(ui, axis, egui::DragValue::new(v).speed(0.01));
            }
            if ui.button(format!("Move node {n}")).clicked()
                && let Some(node) = m.nodes.get(n)
            {
                let moved = Node { position: form.position.into(), ..node };
                actions
                    .push(Action::Edit(Edit::SetNodes(vec![(n, moved)]), format!("Move node {n}")));
            }
        });
    }
    actions
}

/// The selected springs `ids` of `m`, each changed by `change`: one edit.
fn change_springs(m: &SpringModel, ids: &[SpringId], change: impl Fn(Spring) -> Spring) -> Edit {
    Edit::SetSprings(ids.iter().filter_map(|&s| Some((s, change(m.springs.get(s)?)))).collect())
}

/// Stiffness, damping, break limits and rest length of the selected springs.
fn spring_values(
    ui: &mut egui::Ui,
    doc: &Document,
    live: &Live,
    form: &mut EditForm,
) -> Vec<Action> {
    let mut actions = Vec::new();
    let m = doc.model();
    let selected: Vec<SpringId> = doc.selection.springs.iter().copied().collect();
    let count = selected.len();
    let mut push =
        |edit: Edit, verb: &str| actions.push(Action::Edit(edit, plural(verb, count, "spring")));
    ui.horizontal_wrapped(|ui| {
        if ui.add_enabled(count > 0, egui::Button::new("Set k and damping")).clicked() {
            let (stiffness, damping) = (form.stiffness, form.damping);
            push(change_springs(m, &selected, |s| Spring { stiffness, damping, ..s }), "Set k of");
        }
        let now = live.positions();
        if ui
            .add_enabled(count > 0, egui::Button::new("Rest length = current length"))
            .on_hover_text("the simulated length while a test runs, else the distance in the model")
            .clicked()
        {
            let simulated =
                |a: NodeId, b: NodeId| Some(now?.get(a.index())?.distance(*now?.get(b.index())?));
            let length = |a, b| simulated(a, b).or_else(|| m.distance(a, b)).unwrap_or(0.0);
            let edit =
                change_springs(m, &selected, |s| Spring { rest_length: length(s.a, s.b), ..s });
            push(edit, "Reset rest length of");
        }
    });
    ui.horizontal_wrapped(|ui| {
        let squash = egui::DragValue::new(&mut form.break_below).range(0.0..=1.0).speed(0.01);
        labelled(ui, "breaks below (× rest, 0 = never)", squash);
        let stretch = egui::DragValue::new(&mut form.break_above).range(0.0..=100.0).speed(0.01);
        labelled(ui, "above (× rest, 0 = never)", stretch);
        if ui.add_enabled(count > 0, egui::Button::new("Set break limits")).clicked() {
            let limit = |ratio: f32, rest: f32| (ratio > 0.0).then_some(ratio * rest);
            let (below, above) = (form.break_below, form.break_above);
            let edit = change_springs(m, &selected, |s| Spring {
                break_min: limit(below, s.rest_length),
                break_max: limit(above, s.rest_length),
                ..s
            });
            push(edit, "Set break limits of");
        }
    });
    actions
}
