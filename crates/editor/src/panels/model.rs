//! The left panel: what the model is, the conversion settings of a mesh with the converter's
//! report under them, and what the viewport shows (with the legend of spring colours).

use crate::actions::Action;
use crate::behaviour_jobs::BehaviourJobs;
use crate::document::{Document, Origin};
use crate::panels::behaviour;
use crate::viewport::{SpringColour, ViewSettings, kind_color};
use eframe::egui;
use springmesh_convert::solid::material::DEFAULT_DENSITY;
use springmesh_convert::{ConvertOptions, ConvertReport, DEFAULT_NODE_MASS, MassMode};
use springmesh_core::SpringKind;
use std::path::PathBuf;

/// The conversion settings being edited, for the mesh they belong to.
#[derive(Default)]
pub struct ConvertForm {
    /// The mesh the form shows settings for.
    mesh: Option<PathBuf>,
    /// The settings.
    pub options: ConvertOptions,
}

impl ConvertForm {
    /// Resets the form to the options of `doc`'s conversion when a different mesh is open.
    pub fn follow(&mut self, doc: &Document) {
        if let Origin::Mesh { path, options, .. } = &doc.origin
            && self.mesh.as_ref() != Some(path)
        {
            self.mesh = Some(path.clone());
            self.options = (**options).clone();
        }
    }
}

/// The left panel, owning the conversion settings it edits.
#[derive(Default)]
pub struct ModelPanel {
    /// The conversion settings of the open mesh.
    pub form: ConvertForm,
}

impl ModelPanel {
    /// Draws the panel at the left of `ui` for `doc`, with what the viewport shows (`view`);
    /// `busy` while a file is being opened. Returns what was asked for.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        doc: &Document,
        tuner: &BehaviourJobs,
        view: &mut ViewSettings,
        busy: bool,
    ) -> Vec<Action> {
        let form = &mut self.form;
        egui::Panel::left("model")
            .default_size(300.0)
            .show(ui, |ui| show(ui, doc, tuner, form, view, busy))
            .inner
    }
}

/// Shows the panel's contents; returns what was asked for.
fn show(
    ui: &mut egui::Ui,
    doc: &Document,
    tuner: &BehaviourJobs,
    form: &mut ConvertForm,
    view: &mut ViewSettings,
    busy: bool,
) -> Vec<Action> {
    let mut actions = Vec::new();
    egui::ScrollArea::vertical().show(ui, |ui| {
        ui.heading("Model");
        model_summary(ui, doc);
        actions.extend(behaviour::modes(ui, doc, tuner));
        if doc.source_mesh().is_some() {
            let changed = doc.source_changed();
            if changed {
                ui.colored_label(egui::Color32::YELLOW, "The source mesh changed on disk.");
            }
            ui.add_enabled_ui(!busy, |ui| {
                if ui
                    .button("Reconvert from source")
                    .on_hover_text("Convert the source mesh again with this model's settings and keep the edits made by hand")
                    .clicked()
                {
                    actions.push(Action::Reconvert);
                }
            });
        }
        if let Origin::Mesh { report, .. } = &doc.origin {
            ui.separator();
            ui.heading("Conversion");
            conversion_form(ui, &mut form.options);
            let valid = form.options.problem();
            ui.add_enabled_ui(!busy && valid.is_none(), |ui| {
                if ui
                    .button("Convert")
                    .on_hover_text("Convert the mesh again with these settings")
                    .clicked()
                {
                    actions.push(Action::Convert(form.options.clone()));
                }
            });
            if let Some(problem) = valid {
                ui.colored_label(egui::Color32::LIGHT_RED, problem);
            }
            ui.add_space(6.0);
            report_view(ui, report);
        }
        ui.separator();
        ui.heading("View");
        view_toggles(ui, view);
    });
    actions
}

fn model_summary(ui: &mut egui::Ui, doc: &Document) {
    let m = doc.model();
    egui::Grid::new("model summary").num_columns(2).show(ui, |ui| {
        ui.label("name");
        ui.label(&doc.name);
        ui.end_row();
        ui.label("source");
        ui.label(match &doc.origin {
            Origin::Sample(s) => format!("sample \"{}\"", s.name()),
            Origin::ModelFile => "model file".to_string(),
            Origin::Mesh { path, .. } => path.display().to_string(),
        });
        ui.end_row();
        ui.label("saved as");
        ui.label(doc.path.as_ref().map_or("not saved".to_string(), |p| p.display().to_string()));
        ui.end_row();
        ui.label("total mass");
        ui.label(format!("{:.4} kg", m.total_mass()));
        ui.end_row();
        ui.label("integrator");
        ui.label(format!(
            "{} at {:.4} s, {} sub-steps",
            m.params.integrator.name(),
            m.params.dt,
            m.params.substeps
        ));
        ui.end_row();
        world_rows(ui, m);
    });
    for note in &doc.notes {
        ui.colored_label(egui::Color32::YELLOW, note);
    }
}

/// How many of a skeleton's joints the model panel names.
const SKELETON_NAMES: usize = 4;

/// The world around the model: what is set of air, pressure, ground and colliders.
fn world_rows(ui: &mut egui::Ui, m: &springmesh_core::SpringModel) {
    let p = &m.params;
    let mut row = |label: &str, text: String| {
        ui.label(label);
        ui.label(text);
        ui.end_row();
    };
    if let Some(air) = &p.air {
        row("air", air.to_string());
    }
    if let Some(gas) = &p.pressure {
        let volume = m.enclosed_volume().map_or(String::new(), |v| format!("; {v:.4} m³ at rest"));
        row("pressure", format!("{gas}{volume}"));
    }
    if let Some(ground) = &p.ground {
        row("ground", ground.to_string());
    }
    for c in &p.colliders {
        row("collider", c.to_string());
    }
    if let Some(rig) = &m.rig {
        // The first few joints: a long list would widen the panel over the view.
        let names: Vec<&str> = rig.joints.iter().map(|j| j.name.as_str()).collect();
        let shown = names.iter().take(SKELETON_NAMES).copied().collect::<Vec<_>>().join(", ");
        let more = if names.len() > SKELETON_NAMES { ", …" } else { "" };
        row("skeleton", format!("{} joints: {shown}{more}", names.len()));
        let holds = rig.holds();
        row(
            "worn",
            format!(
                "{} nodes follow the skin, {} within a max distance, {} free; character: {} colliders",
                holds.kinematic,
                holds.leashed,
                holds.free,
                rig.colliders.len()
            ),
        );
    }
    if p.ground.is_some() || !p.colliders.is_empty() {
        row("node radius", format!("{} m", p.node_radius));
    }
}

/// A value with its unit, dragged.
fn number(ui: &mut egui::Ui, label: &str, value: &mut f32, unit: &str, speed: f64) {
    ui.label(label);
    ui.add(egui::DragValue::new(value).speed(speed).range(0.0..=f32::MAX).suffix(unit));
    ui.end_row();
}

fn conversion_form(ui: &mut egui::Ui, o: &mut ConvertOptions) {
    egui::Grid::new("conversion").num_columns(2).show(ui, |ui| {
        let label = ui.label("mesh");
        let mut name = o.mesh.clone().unwrap_or_default();
        let edit = ui.text_edit_singleline(&mut name).labelled_by(label.id).on_hover_text(
            "convert only the glTF mesh of this name (a character's cape); empty: every mesh",
        );
        if edit.changed() {
            o.mesh = (!name.trim().is_empty()).then(|| name.trim().to_string());
        }
        ui.end_row();
        ui.label("scale");
        ui.add(
            egui::DragValue::new(&mut o.scale)
                .speed(0.001)
                .range(1e-6..=1e6)
                .prefix("× ")
                .custom_formatter(|v, _| format!("{v}")),
        )
        .on_hover_text("multiplies the mesh's coordinates: 0.01 for a mesh in centimetres");
        ui.end_row();
        solid_form(ui, o);
        ui.label("springs");
        ui.vertical(|ui| {
            ui.checkbox(&mut o.bend, "bend springs");
            ui.checkbox(&mut o.quad_shear, "quad shear (both diagonals)");
        });
        ui.end_row();
        let mut vicinity = o.vicinity_radius.is_some();
        ui.label("vicinity");
        ui.checkbox(&mut vicinity, "join nodes closer than a radius");
        ui.end_row();
        if vicinity {
            let mut radius = o.vicinity_radius.unwrap_or(0.1);
            number(ui, "  radius", &mut radius, " m", 0.001);
            o.vicinity_radius = Some(radius);
            let mut capped = o.vicinity_cap.is_some();
            let mut cap = o.vicinity_cap.unwrap_or(8);
            ui.label("  cap");
            ui.horizontal(|ui| {
                ui.checkbox(&mut capped, "nearest");
                ui.add_enabled(capped, egui::DragValue::new(&mut cap).range(1..=1000));
            });
            ui.end_row();
            o.vicinity_cap = capped.then_some(cap);
        } else {
            o.vicinity_radius = None;
            o.vicinity_cap = None;
        }
        number(ui, "stretch k", &mut o.stretch.stiffness, " N/m", 10.0);
        number(ui, "stretch damping", &mut o.stretch.damping, " N·s/m", 0.001);
        number(ui, "bend k", &mut o.bend_springs.stiffness, " N/m", 10.0);
        number(ui, "bend damping", &mut o.bend_springs.damping, " N·s/m", 0.001);
        number(ui, "vicinity k", &mut o.vicinity.stiffness, " N/m", 10.0);
        number(ui, "vicinity damping", &mut o.vicinity.damping, " N·s/m", 0.001);
        mass_mode(ui, &mut o.mass);
        let mut custom = o.weld_tolerance.is_some();
        ui.label("weld");
        ui.checkbox(&mut custom, "custom tolerance (default 1e-6 × diagonal)");
        ui.end_row();
        if custom {
            let mut t = o.weld_tolerance.unwrap_or(0.0);
            number(ui, "  tolerance", &mut t, " m", 1e-5);
            o.weld_tolerance = Some(t);
        } else {
            o.weld_tolerance = None;
        }
    });
}

/// The solid switch and its settings; switching it on (or off) also switches the mass to a
/// density and bend springs off (or back to the defaults).
fn solid_form(ui: &mut egui::Ui, o: &mut ConvertOptions) {
    let mut solid = o.solid.is_some();
    ui.label("solid");
    let toggled = ui
        .checkbox(&mut solid, "fill the inside (closed meshes: jelly, props, creatures)")
        .on_hover_text("a lattice of interior springs keeps the body's shape under its weight")
        .changed();
    ui.end_row();
    if toggled {
        o.bend = !solid;
        o.mass = if solid {
            MassMode::Density { density: DEFAULT_DENSITY }
        } else {
            MassMode::PerNode { mass: DEFAULT_NODE_MASS }
        };
    }
    if !solid {
        o.solid = None;
        return;
    }
    let mut s = o.solid.unwrap_or_default();
    let optional = |ui: &mut egui::Ui,
                    label: &str,
                    value: &mut Option<f32>,
                    auto: &str,
                    unit: &str,
                    start: f32| {
        let mut set = value.is_some();
        let mut v = value.unwrap_or(start);
        ui.label(label);
        ui.horizontal(|ui| {
            ui.checkbox(&mut set, "set");
            if set {
                ui.add(
                    egui::DragValue::new(&mut v)
                        .speed(start * 0.01)
                        .range(1e-9..=f32::MAX)
                        .suffix(unit),
                );
            } else {
                ui.label(egui::RichText::new(auto).weak());
            }
        });
        ui.end_row();
        *value = set.then_some(v);
    };
    optional(ui, "  spacing", &mut s.spacing, "from the mesh", " m", 0.05);
    optional(ui, "  Young's modulus", &mut s.youngs_modulus, "sags 1% of its height", " Pa", 1e5);
    o.solid = Some(s);
}

fn mass_mode(ui: &mut egui::Ui, mode: &mut MassMode) {
    let (mut kind, mut mass) = match *mode {
        MassMode::PerNode { mass } => (0, mass),
        MassMode::TotalEven { mass } => (1, mass),
        MassMode::TotalByArea { mass } => (2, mass),
        MassMode::Density { density } => (3, density),
    };
    ui.label("mass");
    ui.vertical(|ui| {
        ui.radio_value(&mut kind, 0, "per node");
        ui.radio_value(&mut kind, 1, "total, shared evenly");
        ui.radio_value(&mut kind, 2, "total, shared by area (solid: by volume)");
        ui.radio_value(&mut kind, 3, "density × enclosed volume");
        let unit = if kind == 3 { " kg/m³" } else { " kg" };
        ui.add(egui::DragValue::new(&mut mass).speed(0.001).range(1e-6..=f32::MAX).suffix(unit));
    });
    ui.end_row();
    *mode = match kind {
        0 => MassMode::PerNode { mass },
        1 => MassMode::TotalEven { mass },
        2 => MassMode::TotalByArea { mass },
        _ => MassMode::Density { density: mass },
    };
}

fn report_view(ui: &mut egui::Ui, r: &ConvertReport) {
    ui.label(egui::RichText::new("Report").strong());
    egui::Grid::new("report").num_columns(2).show(ui, |ui| {
        let rows = [
            ("nodes", r.nodes),
            ("faces", r.faces),
            ("stretch springs", r.springs.stretch),
            ("  of them shear", r.springs.shear),
            ("bend springs", r.springs.bend),
            ("vicinity springs", r.springs.vicinity),
            ("interior springs", r.springs.interior),
            ("interior nodes", r.solid.map_or(0, |s| s.interior_nodes)),
            ("welded vertices", r.welded),
            ("dropped vertices", r.dropped_vertices),
            ("dropped triangles", r.dropped_triangles),
            ("boundary edges", r.boundary_edges),
            ("non-manifold edges", r.non_manifold_edges),
            ("parts", r.components),
        ];
        for (label, n) in rows {
            ui.label(label);
            ui.label(n.to_string());
            ui.end_row();
        }
    });
    for w in &r.warnings {
        ui.colored_label(egui::Color32::YELLOW, format!("⚠ {}", w.message));
    }
}

fn view_toggles(ui: &mut egui::Ui, v: &mut ViewSettings) {
    ui.checkbox(&mut v.faces, "faces");
    ui.checkbox(&mut v.nodes, "nodes");
    ui.checkbox(&mut v.character, "the character")
        .on_hover_text("the character a worn model is worn on, posed by the clip the test plays");
    ui.checkbox(&mut v.max_distance_colours, "nodes coloured by max distance")
        .on_hover_text("a worn model's nodes: short leash cyan, long magenta; kinematic ones as anchors, free ones plain");
    ui.horizontal(|ui| {
        let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
        ui.painter().rect_filled(
            rect,
            7.0,
            crate::viewport::color32(crate::viewport::COLORS.interior),
        );
        ui.checkbox(&mut v.interior_nodes, "interior nodes (a solid's lattice)");
    });
    ui.checkbox(&mut v.grid, "ground grid");
    ui.checkbox(&mut v.follow, "follow the test")
        .on_hover_text("the camera keeps the simulated model in the middle of the view");
    ui.label("springs shown (their kind colours):");
    for (kind, shown) in SpringKind::ALL.iter().zip(v.kinds.iter_mut()) {
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
            ui.painter().rect_filled(rect, 2.0, kind_color(*kind));
            ui.checkbox(shown, kind.name());
        });
    }
    ui.horizontal(|ui| {
        ui.label("spring colour:");
        ui.radio_value(&mut v.colour, SpringColour::Kind, "kind");
        ui.radio_value(&mut v.colour, SpringColour::Strain, "strain")
            .on_hover_text("blue: compressed, white: at rest length, red: stretched");
        ui.radio_value(&mut v.colour, SpringColour::Energy, "energy")
            .on_hover_text("white: none stored, red: the scale or more");
    });
    match v.colour {
        SpringColour::Kind => {}
        SpringColour::Strain => {
            let scale = egui::Slider::new(&mut v.strain_scale, 0.001..=1.0).logarithmic(true);
            ui.add(scale.text("full colour at strain"));
        }
        SpringColour::Energy => {
            let scale = egui::Slider::new(&mut v.energy_scale, 1e-6..=100.0).logarithmic(true);
            ui.add(scale.text("full colour at energy (J)"));
        }
    }
    ui.add(egui::Slider::new(&mut v.line_width, 0.5..=6.0).text("spring width (px)"));
    ui.add(egui::Slider::new(&mut v.node_radius, 1.0..=10.0).text("node size (px)"));
}
