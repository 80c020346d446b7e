//! `springmesh info FILE`: what a model (or a mesh) holds.

use crate::input::{self, Opened};
use crate::output::{emit, report_json, spring_counts, warning_lines};
use anyhow::Result;
use serde::Serialize;
use serde_json::{Value, json};
use springmesh_analysis::modes::{DEFAULT_MODES, modes_hz};
use springmesh_convert::{ConvertOptions, ConvertReport};
use springmesh_core::{SpringKind, ValidModel};
use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;

/// Counts, bounding box, total mass, parameters, vibration modes and metadata of a model.
#[derive(clap::Args)]
pub struct Args {
    /// A .spring or .spring.json model, or a mesh (.obj, .gltf, .glb: converted with default
    /// options and reported, not saved).
    file: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Leave out the vibration modes (`modes_hz` null): finding them factorizes the whole
    /// stiffness matrix, seconds for a model of tens of thousands of nodes.
    #[arg(long)]
    no_modes: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let opened = input::open(&args.file, &ConvertOptions::default())?;
    let modes = (!args.no_modes).then(|| {
        let bar = crate::progress::bar(100, "modes", args.json);
        let model = &opened.model;
        let modes = modes_hz(model, DEFAULT_MODES, |done| bar.set_position((done * 100.0) as u64));
        bar.finish_and_clear();
        modes.map_err(|e| e.to_string())
    });
    emit(&Info::new(args.file, opened, modes)?, args.json)
}

/// What `info` tells of a model (docs/cli.md).
#[derive(Serialize)]
struct Info {
    file: PathBuf,
    nodes: usize,
    faces: usize,
    springs: Value,
    anchors: usize,
    uvs: usize,
    bounding_box: Option<Value>,
    total_mass: f64,
    parts: usize,
    unconnected_nodes: usize,
    params: Value,
    enclosed_volume: Option<f32>,
    metadata: Value,
    skin: Option<Value>,
    rig: Option<Value>,
    modes_hz: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    conversion: Option<Value>,
    /// The model and what was found, for the text.
    #[serde(skip)]
    model: ValidModel,
    #[serde(skip)]
    modes: Option<Result<Vec<f64>, String>>,
    #[serde(skip)]
    report: Option<ConvertReport>,
}

impl Info {
    fn new(file: PathBuf, opened: Opened, modes: Option<Result<Vec<f64>, String>>) -> Result<Info> {
        let m = &opened.model;
        let bbox = m.bounding_box();
        let parts = m.parts();
        Ok(Info {
            file,
            nodes: m.nodes.len(),
            faces: m.faces.len(),
            springs: spring_counts(m),
            anchors: m.anchors.len(),
            uvs: m.uvs.len(),
            bounding_box: bbox.map(|b| {
                json!({"min": b.min.to_array(), "max": b.max.to_array(), "diagonal": b.diagonal()})
            }),
            total_mass: m.total_mass(),
            parts: parts.count,
            unconnected_nodes: parts.unconnected.len(),
            params: serde_json::to_value(&m.params)?,
            enclosed_volume: m.enclosed_volume().ok(),
            metadata: serde_json::to_value(&m.metadata)?,
            skin: m.skin.as_ref().map(|s| {
                json!({"vertices": s.len(), "faces": s.faces.len(), "uvs": s.uvs.len()})
            }),
            rig: m.rig.as_ref().map(|r| {
                let holds = r.holds();
                json!({
                    "joints": r.joints.iter().map(|j| &j.name).collect::<Vec<_>>(),
                    "kinematic": holds.kinematic, "within_max_distance": holds.leashed,
                    "free": holds.free,
                    "character_colliders": r.colliders.len(),
                })
            }),
            modes_hz: modes.as_ref().and_then(|m| m.as_ref().ok()).cloned(),
            conversion: opened.report.as_ref().map(report_json),
            modes,
            report: opened.report,
            model: opened.model,
        })
    }

    /// The parameters' lines of the text.
    fn params(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (m, p) = (&self.model, &self.model.params);
        writeln!(f, "  total mass   {:.6} kg", m.total_mass())?;
        writeln!(
            f,
            "  simulation   {} at {:.6} s with {} sub-steps, gravity {:?} m/s², damping {}/s",
            p.integrator.name(),
            p.dt,
            p.substeps,
            p.gravity.to_array(),
            p.damping
        )?;
        writeln!(f, "  node radius  {} m", p.node_radius)?;
        match (&p.tethers, m.anchors.is_empty()) {
            (Some(t), false) => {
                writeln!(f, "  tethers      to the anchors, slack {}%", t.slack * 100.0)?
            }
            (Some(_), true) => writeln!(f, "  tethers      on, but no anchors to tie to")?,
            (None, _) => writeln!(f, "  tethers      off")?,
        }
        if let Some(shape) = &p.shape_matching {
            writeln!(f, "  shape        matched at {} Hz", shape.frequency)?;
        }
        if let Some(layers) = &p.self_collision {
            let (thickness, friction) = (layers.thickness * 1000.0, layers.friction);
            writeln!(f, "  layers       kept {thickness:.1} mm apart, friction {friction}")?;
        }
        if let Some(r) = &m.rig {
            let names: Vec<&str> = r.joints.iter().map(|j| j.name.as_str()).collect();
            writeln!(f, "  skeleton     {} joints: {}", names.len(), names.join(", "))?;
            let h = r.holds();
            writeln!(
                f,
                "  worn         {} nodes follow the skin, {} within a max distance, {} free; character: {} colliders",
                h.kinematic,
                h.leashed,
                h.free,
                r.colliders.len()
            )?;
        }
        match &self.modes {
            None => writeln!(f, "  modes        not looked for (--no-modes)")?,
            Some(Ok(hz)) if hz.is_empty() => {
                writeln!(f, "  modes        none (nothing a spring holds vibrates)")?
            }
            Some(Ok(hz)) => {
                let hz: Vec<String> = hz.iter().map(|f| format!("{f:.4}")).collect();
                writeln!(f, "  modes        {} Hz (springs alone, anchors held)", hz.join(", "))?;
            }
            Some(Err(e)) => writeln!(f, "  modes        not found: {e}")?,
        }
        if let Some(air) = &p.air {
            writeln!(f, "  air          {air}")?;
        }
        if let Some(gas) = &p.pressure {
            writeln!(f, "  pressure     {gas}")?;
        }
        if let Some(volume) = self.enclosed_volume {
            writeln!(f, "  volume       {volume:.6} m³ enclosed")?;
        }
        if let Some(ground) = &p.ground {
            writeln!(f, "  ground       {ground}")?;
        }
        for c in &p.colliders {
            writeln!(f, "  collider     {c}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = &self.model;
        let counts = m.springs.count_by_kind();
        let kinds: Vec<String> =
            SpringKind::ALL.iter().zip(counts).map(|(k, n)| format!("{} {n}", k.name())).collect();
        writeln!(f, "{}", self.file.display())?;
        if !m.metadata.name.is_empty() {
            writeln!(f, "  name         {}", m.metadata.name)?;
        }
        if let Some(source) = &m.metadata.source {
            writeln!(f, "  source       {source}")?;
        }
        writeln!(
            f,
            "  nodes        {} ({} anchored, {} without springs)",
            self.nodes, self.anchors, self.unconnected_nodes
        )?;
        writeln!(f, "  springs      {} ({})", m.springs.len(), kinds.join(", "))?;
        writeln!(f, "  faces        {} ({} uvs)", self.faces, self.uvs)?;
        if let Some(s) = &m.skin {
            writeln!(
                f,
                "  skin         {} vertices, {} faces ({} uvs) following the {} nodes as a cage",
                s.len(),
                s.faces.len(),
                s.uvs.len(),
                self.nodes
            )?;
        }
        writeln!(f, "  parts        {}", self.parts)?;
        if let Some(b) = m.bounding_box() {
            writeln!(
                f,
                "  bounds       {:?} to {:?} m (diagonal {:.4} m)",
                b.min.to_array(),
                b.max.to_array(),
                b.diagonal()
            )?;
        }
        self.params(f)?;
        for (k, v) in &m.metadata.conversion {
            writeln!(f, "  conversion   {k} = {v}")?;
        }
        if let Some(report) = &self.report {
            for line in warning_lines(report) {
                writeln!(f, "{line}")?;
            }
        }
        Ok(())
    }
}
