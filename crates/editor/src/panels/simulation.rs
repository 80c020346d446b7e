//! The Test section of the right panel: play, step and reset the live simulation, tune its
//! parameters while it runs, and watch it: the energy plot, the broken springs, and the most
//! strained springs (click one to select it).
//!
//! Parameters are part of the model (saved with it), so each change is an undoable
//! [`Edit::SetParams`]; a drag on one value is one undo step, and the running simulation takes
//! the new values without starting over.

use crate::actions::Action;
use crate::commands::Command;
use crate::document::{Document, Origin};
use crate::edit::Edit;
use crate::live::Live;
use eframe::egui;
use egui_plot::{Legend, Line, Plot};
use glam::Vec3;
use springmesh_convert::solid::material::DEFAULT_DENSITY;
use springmesh_convert::{ConvertOptions, MassMode, SolidOptions, Thickness, self_collision};
use springmesh_core::model::{Air, Ground, MIN_SUBSTEP, SelfCollision, ShapeMatching, Tethers};
use springmesh_core::{Integrator, SimParams, SpringId};

/// How many of the most strained springs are listed.
const HOTTEST: usize = 8;

/// Shows the Test section; returns what was asked.
/// `stiffness` is the (stiffness N/m, damping N·s/m) of springs the stability fix adds.
pub fn show(
    ui: &mut egui::Ui,
    doc: &mut Document,
    live: &Live,
    stiffness: (f32, f32),
) -> Vec<Action> {
    let mut actions = Vec::new();
    ui.heading("Test");
    ui.horizontal(|ui| {
        let play = if live.playing { "Pause" } else { "Play" };
        for (label, command) in
            [(play, Command::TogglePlay), ("Step", Command::Step), ("Reset", Command::Reset)]
        {
            if ui.button(label).clicked() {
                actions.push(Action::Run(command));
            }
        }
    });
    let status = match (live.time(), live.playing, live.behind) {
        (None, _, _) => "not started: the view shows the model".to_string(),
        (Some(t), true, true) => format!("{t:.2} s, slower than real time (cannot keep up)"),
        (Some(t), true, false) => format!("{t:.2} s, in real time"),
        (Some(t), false, _) => format!("{t:.2} s, paused"),
    };
    ui.label(status);
    if !live.broken().is_empty() {
        ui.colored_label(
            egui::Color32::LIGHT_RED,
            format!("{} springs broke", live.broken().len()),
        );
    }
    let old = doc.model().params.clone();
    let mut p = old.clone();
    let layers = || self_collision(doc.model(), Thickness::FromEdges);
    let diagonal = doc.model().bounding_box().map_or(0.0, |b| b.diagonal());
    let changed = parameter_controls(ui, &mut p, doc.model().ground_under(), (&layers, diagonal));
    if let Some(what) = changed {
        actions.push(Action::EditContinued(Edit::SetParams(Box::new(p)), format!("Tune {what}")));
    }
    let m = doc.model();
    if m.anchors.is_empty() && m.params.ground.is_none() && m.params.gravity != Vec3::ZERO {
        ui.horizontal(|ui| {
            let mut on = !live.bare;
            if ui
                .checkbox(&mut on, "test on a ground under it")
                .on_hover_text("a free model falls out of view: the test puts a ground just under its lowest node (the model is unchanged)")
                .changed()
            {
                actions.push(Action::TestGround(on));
            }
            if ui.button("Save the ground into the model").clicked() {
                let mut p = m.params.clone();
                p.ground = Some(Ground { height: m.ground_under(), ..Ground::default() });
                actions.push(Action::Edit(Edit::SetParams(Box::new(p)), "Add a ground".into()));
            }
        });
    }
    energy_plot(ui, live);
    hottest(ui, doc, live);
    ui.separator();
    actions.extend(stability(ui, doc, live, stiffness));
    actions
}

/// The Check button, its verdict and worst nodes (a click selects one), and the fix.
fn stability(
    ui: &mut egui::Ui,
    doc: &mut Document,
    live: &Live,
    stiffness: (f32, f32),
) -> Vec<Action> {
    let mut actions = Vec::new();
    let running = live.check.is_running();
    ui.horizontal(|ui| {
        if ui.add_enabled(!running, egui::Button::new("Check stability")).clicked() {
            actions.push(Action::Check);
        }
        if running {
            ui.spinner();
            ui.label("shaking and settling a copy…");
        }
    });
    let Some((revision, result)) = &live.check.report else { return actions };
    let report = match result {
        Ok(report) => report,
        Err(e) => {
            ui.colored_label(egui::Color32::LIGHT_RED, format!("Check failed: {e}"));
            return actions;
        }
    };
    if *revision != doc.revision() {
        ui.label(egui::RichText::new("(of an earlier version of the model)").weak());
    }
    let verdict = if report.stable { "stable" } else { "unstable" };
    let color = if report.stable { egui::Color32::LIGHT_GREEN } else { egui::Color32::LIGHT_RED };
    ui.colored_label(
        color,
        format!(
            "{verdict}: shake {:.3}%, sag under gravity {:.3}% of the size (limit {:.1}%)",
            report.shake.error * 100.0,
            report.sag.error * 100.0,
            report.threshold * 100.0
        ),
    );
    let c = report.course;
    let tilt = if c.stable_base { "" } else { " (no stable base: not judged)" };
    ui.label(format!(
        "sag at its worst {:.2} s into the test (at the end {:.3}%); tilt up to {:.1}° at {:.2} s{tilt}",
        c.worst_at,
        c.end_error * 100.0,
        c.tilt_degrees,
        c.tilt_at
    ));
    ui.label("worst nodes (nodes are coloured from green to red by the worse of the two):");
    ui.horizontal_wrapped(|ui| {
        for &(n, e) in &report.worse().worst_nodes {
            if ui
                .selectable_label(
                    doc.selection.nodes.contains(&n),
                    format!("{n} ({:.2}%)", e * 100.0),
                )
                .clicked()
            {
                doc.selection.go_to(n);
            }
        }
    });
    if !report.stable && *revision == doc.revision() {
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!running, egui::Button::new("Brace the worst region"))
                .on_hover_text(
                    "tries vicinity springs around the worst nodes on a copy and keeps them \
                     (undoable) only if the error falls",
                )
                .clicked()
            {
                actions.push(Action::Brace(stiffness.0, stiffness.1));
            }
            if let Some(options) = solid_options(doc)
                && ui
                    .add_enabled(!running, egui::Button::new("Fill as a solid"))
                    .on_hover_text(
                        "converts the mesh again with an interior lattice, so it keeps its \
                         shape under its own weight",
                    )
                    .clicked()
            {
                actions.push(Action::Convert(options));
            }
        });
    }
    if let Some(note) = &live.check.fix_note {
        ui.label(note);
    }
    actions
}

/// The conversion options with the solid fill switched on, when the model is a closed mesh
/// converted without it.
fn solid_options(doc: &Document) -> Option<ConvertOptions> {
    let Origin::Mesh { options, .. } = &doc.origin else { return None };
    if options.solid.is_some() || doc.model().enclosed_volume().is_err() {
        return None;
    }
    Some(ConvertOptions {
        solid: Some(SolidOptions::default()),
        bend: false,
        mass: MassMode::Density { density: DEFAULT_DENSITY },
        ..(**options).clone()
    })
}

/// The parameter controls; returns the name of the one changed. A ground switched on goes to
/// `under` (just under the model's lowest node); self-collision switched on takes `layers`
/// (from the model's edges), and its thickness stays within the model's `diagonal`.
fn parameter_controls(
    ui: &mut egui::Ui,
    p: &mut SimParams,
    under: f32,
    (layers, diagonal): (&dyn Fn() -> SelfCollision, f32),
) -> Option<&'static str> {
    let changed = std::cell::Cell::new(None);
    let note = |r: egui::Response, what: &'static str| {
        if r.changed() {
            changed.set(Some(what));
        }
    };
    egui::Grid::new("tune").num_columns(2).show(ui, |ui| {
        let g = p.gravity.length();
        let mut mode = if g == 0.0 {
            0
        } else if p.gravity.y > 0.0 {
            2
        } else {
            1
        };
        let label = ui.label("gravity");
        let r = egui::ComboBox::from_id_salt("gravity")
            .selected_text(["off", "on", "reversed"][mode])
            .show_ui(ui, |ui| {
                let mut r = ui.selectable_value(&mut mode, 1, "on");
                r |= ui.selectable_value(&mut mode, 0, "off");
                r | ui.selectable_value(&mut mode, 2, "reversed")
            });
        r.response.labelled_by(label.id);
        if r.inner.is_some_and(|r| r.changed()) {
            let size = if g > 0.0 { g } else { 9.81 };
            p.gravity = [Vec3::ZERO, Vec3::NEG_Y * size, Vec3::Y * size][mode];
            changed.set(Some("gravity"));
        }
        ui.end_row();
        let label = ui.label("integrator");
        let mut picked = false;
        egui::ComboBox::from_id_salt("integrator")
            .selected_text(format!("{:?}", p.integrator))
            .show_ui(ui, |ui| {
                for i in Integrator::ALL {
                    picked |= ui.selectable_value(&mut p.integrator, i, format!("{i:?}")).changed();
                }
            })
            .response
            .labelled_by(label.id);
        if picked {
            changed.set(Some("integrator"));
        }
        ui.end_row();
        let label = ui.label("time step (s)");
        note(number(ui, &mut p.dt, (1.0, 1e-5..=0.1, 1e-4), "").labelled_by(label.id), "time step");
        ui.end_row();
        let label = ui.label("sub-steps");
        // Sub-steps no shorter than a model may have (validation's MIN_SUBSTEP).
        let max_substeps = ((p.dt / MIN_SUBSTEP) as u32).clamp(1, 1024);
        note(
            ui.add(egui::DragValue::new(&mut p.substeps).range(1..=max_substeps))
                .labelled_by(label.id),
            "sub-steps",
        );
        ui.end_row();
        let label = ui.label("damping (1/s)");
        note(
            number(ui, &mut p.damping, (1.0, 0.0..=100.0, 0.01), "").labelled_by(label.id),
            "damping",
        );
        ui.end_row();
        note(switch(ui, &mut p.air, ("wind (m/s)", ""), Air::default), "wind");
        ui.horizontal(|ui| {
            if let Some(a) = &mut p.air {
                for (v, axis) in a.wind.as_mut().iter_mut().zip(["wind x", "wind y", "wind z"]) {
                    note(number(ui, v, (1.0, f32::MIN..=f32::MAX, 0.05), axis), "wind");
                }
            }
        });
        ui.end_row();
        let hover = "Hold every node within its rest distance from the anchors";
        note(switch(ui, &mut p.tethers, ("tethers (slack %)", hover), Tethers::default), "tethers");
        if let Some(t) = &mut p.tethers {
            let percent = (100.0, 0.0..=100.0, 0.01);
            note(number(ui, &mut t.slack, percent, "tether slack (%)"), "tethers");
        }
        ui.end_row();
        let hover = "Pull every node towards the rest shape's best rigid motion";
        let matching = || ShapeMatching { frequency: 5.0 };
        let label = ("shape matching (Hz)", hover);
        note(switch(ui, &mut p.shape_matching, label, matching), "shape matching");
        if let Some(s) = &mut p.shape_matching {
            let hover = "how fast the body swings back to its shape on this pull (Hz)";
            note(number(ui, &mut s.frequency, (1.0, 0.01..=1000.0, 0.1), hover), "shape matching");
        }
        ui.end_row();
        let hover = "Keep the model's layers this far apart when it folds onto itself";
        let mut r = switch(ui, &mut p.self_collision, ("self-collision (mm)", hover), layers);
        if let Some(l) = &mut p.self_collision {
            let thickness = (1000.0, 0.1..=(diagonal * 1000.0).max(0.1), 0.1);
            r |= number(ui, &mut l.thickness, thickness, "how far apart the layers stay (mm)");
        }
        note(r, "self-collision");
        ui.end_row();
        let flat = || Ground { height: under, ..Ground::default() };
        note(switch(ui, &mut p.ground, ("ground (m)", ""), flat), "ground");
        if let Some(gr) = &mut p.ground {
            note(
                number(ui, &mut gr.height, (1.0, f32::MIN..=f32::MAX, 0.01), "ground height"),
                "ground",
            );
        }
        ui.end_row();
    });
    changed.get()
}

/// A checkbox that switches the optional setting `slot` on (to `make()`) and off, labelled
/// `label` with the tooltip `hover` (none when empty).
fn switch<T>(
    ui: &mut egui::Ui,
    slot: &mut Option<T>,
    (label, hover): (&str, &str),
    make: impl FnOnce() -> T,
) -> egui::Response {
    let mut on = slot.is_some();
    let mut r = ui.checkbox(&mut on, label);
    if !hover.is_empty() {
        r = r.on_hover_text(hover);
    }
    if on != slot.is_some() {
        *slot = on.then(make);
    }
    r
}

/// A field for `value` shown in units `scale` times its own (1000 for mm from m, 100 for %),
/// within `range` and dragged by `speed` in those units, with the tooltip `hover` (none when
/// empty).
fn number(
    ui: &mut egui::Ui,
    value: &mut f32,
    (scale, range, speed): (f32, std::ops::RangeInclusive<f32>, f64),
    hover: &str,
) -> egui::Response {
    let mut shown = *value * scale;
    let mut r = ui.add(egui::DragValue::new(&mut shown).range(range).speed(speed));
    if !hover.is_empty() {
        r = r.on_hover_text(hover);
    }
    if r.changed() {
        *value = shown / scale;
    }
    r
}

/// Kinetic and elastic energy over the last seconds.
fn energy_plot(ui: &mut egui::Ui, live: &Live) {
    let series =
        |k: usize| -> Vec<[f64; 2]> { live.energy().iter().map(|e| [e[0], e[k]]).collect() };
    Plot::new("energy")
        .height(120.0)
        .legend(Legend::default())
        .x_axis_label("s")
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.line(Line::new("kinetic (J)", series(1)));
            plot.line(Line::new("elastic (J)", series(2)));
        });
}

/// The most strained springs of the running simulation; a click selects one.
fn hottest(ui: &mut egui::Ui, doc: &mut Document, live: &Live) {
    let Some(x) = live.positions() else { return };
    let m = doc.model();
    let springs = &m.springs;
    let mut strained: Vec<(f32, SpringId)> = (0..springs.len())
        .filter(|i| !live.broken().contains(&SpringId::from_index(*i)))
        .filter_map(|i| {
            let (a, b) = (x.get(springs.a()[i].index())?, x.get(springs.b()[i].index())?);
            let rest = springs.rest_lengths()[i];
            (rest > 0.0).then(|| (a.distance(*b) / rest - 1.0, SpringId::from_index(i)))
        })
        .collect();
    let n = strained.len().min(HOTTEST);
    if n == 0 {
        return;
    }
    strained.select_nth_unstable_by(n - 1, |p, q| q.0.abs().total_cmp(&p.0.abs()));
    strained.truncate(n);
    strained.sort_by(|p, q| q.0.abs().total_cmp(&p.0.abs()));
    ui.label(egui::RichText::new("Most strained springs").strong());
    for (strain, id) in strained {
        let selected = doc.selection.springs.contains(&id);
        if ui.selectable_label(selected, format!("spring {id}: {:+.2}%", strain * 100.0)).clicked()
        {
            doc.selection.springs.clear();
            doc.selection.springs.insert(id);
        }
    }
}
