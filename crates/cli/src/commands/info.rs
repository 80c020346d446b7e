//! `springmesh info FILE`: what a model (or a mesh) holds.

use crate::input;
use crate::output::{print_json, report_json, spring_counts, warning_lines};
use anyhow::Result;
use serde_json::json;
use springmesh_analysis::modes::{DEFAULT_MODES, modes_hz};
use springmesh_convert::ConvertOptions;
use springmesh_core::SpringKind;
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
    let m = &opened.model;
    let bbox = m.bounding_box();
    let parts = m.parts();
    let p = &m.params;
    let modes = (!args.no_modes).then(|| {
        let bar = crate::progress::bar(100, "modes", args.json);
        let modes = modes_hz(m, DEFAULT_MODES, |done| bar.set_position((done * 100.0) as u64));
        bar.finish_and_clear();
        modes
    });
    if args.json {
        let mut v = json!({
            "file": args.file,
            "nodes": m.nodes.len(),
            "faces": m.faces.len(),
            "springs": spring_counts(m),
            "anchors": m.anchors.len(),
            "uvs": m.uvs.len(),
            "bounding_box": bbox.map(|b| json!({"min": b.min.to_array(), "max": b.max.to_array(), "diagonal": b.diagonal()})),
            "total_mass": m.total_mass(),
            "parts": parts.count,
            "unconnected_nodes": parts.unconnected.len(),
            "params": serde_json::to_value(p)?,
            "enclosed_volume": m.enclosed_volume().ok(),
            "metadata": serde_json::to_value(&m.metadata)?,
            "skin": m.skin.as_ref().map(|s| json!({
                "vertices": s.len(), "faces": s.faces.len(), "uvs": s.uvs.len(),
            })),
            "modes_hz": modes.as_ref().and_then(|m| m.as_ref().ok()),
        });
        if let Some(report) = &opened.report {
            v["conversion"] = report_json(report);
        }
        print_json(&v);
        return Ok(ExitCode::SUCCESS);
    }
    let counts = m.springs.count_by_kind();
    let kinds: Vec<String> =
        SpringKind::ALL.iter().zip(counts).map(|(k, n)| format!("{} {n}", k.name())).collect();
    println!("{}", args.file.display());
    if !m.metadata.name.is_empty() {
        println!("  name         {}", m.metadata.name);
    }
    if let Some(source) = &m.metadata.source {
        println!("  source       {source}");
    }
    println!(
        "  nodes        {} ({} anchored, {} without springs)",
        m.nodes.len(),
        m.anchors.len(),
        parts.unconnected.len()
    );
    println!("  springs      {} ({})", m.springs.len(), kinds.join(", "));
    println!("  faces        {} ({} uvs)", m.faces.len(), m.uvs.len());
    if let Some(s) = &m.skin {
        println!(
            "  skin         {} vertices, {} faces ({} uvs) following the {} nodes as a cage",
            s.len(),
            s.faces.len(),
            s.uvs.len(),
            m.nodes.len()
        );
    }
    println!("  parts        {}", parts.count);
    if let Some(b) = bbox {
        println!(
            "  bounds       {:?} to {:?} m (diagonal {:.4} m)",
            b.min.to_array(),
            b.max.to_array(),
            b.diagonal()
        );
    }
    println!("  total mass   {:.6} kg", m.total_mass());
    println!(
        "  simulation   {} at {:.6} s with {} sub-steps, gravity {:?} m/s², damping {}/s",
        p.integrator.name(),
        p.dt,
        p.substeps,
        p.gravity.to_array(),
        p.damping
    );
    println!("  node radius  {} m", p.node_radius);
    match (&p.tethers, m.anchors.is_empty()) {
        (Some(t), false) => println!("  tethers      to the anchors, slack {}%", t.slack * 100.0),
        (Some(_), true) => println!("  tethers      on, but no anchors to tie to"),
        (None, _) => println!("  tethers      off"),
    }
    if let Some(shape) = &p.shape_matching {
        println!("  shape        matched at {} Hz", shape.frequency);
    }
    match &modes {
        None => println!("  modes        not looked for (--no-modes)"),
        Some(Ok(hz)) if hz.is_empty() => {
            println!("  modes        none (nothing a spring holds vibrates)")
        }
        Some(Ok(hz)) => {
            let hz: Vec<String> = hz.iter().map(|f| format!("{f:.4}")).collect();
            println!("  modes        {} Hz (springs alone, anchors held)", hz.join(", "));
        }
        Some(Err(e)) => println!("  modes        not found: {e}"),
    }
    if let Some(air) = &p.air {
        println!("  air          {air}");
    }
    if let Some(gas) = &p.pressure {
        println!("  pressure     {gas}");
    }
    if let Ok(volume) = m.enclosed_volume() {
        println!("  volume       {volume:.6} m³ enclosed");
    }
    if let Some(ground) = &p.ground {
        println!("  ground       {ground}");
    }
    for c in &p.colliders {
        println!("  collider     {c}");
    }
    for (k, v) in &m.metadata.conversion {
        println!("  conversion   {k} = {v}");
    }
    if let Some(report) = &opened.report {
        for line in warning_lines(report) {
            println!("{line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
