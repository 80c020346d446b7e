//! `springmesh check FILE`: the shape-retention and gravity tests of springmesh-analysis.

use crate::input;
use crate::output::emit;
use anyhow::Result;
use serde::Serialize;
use serde_json::{Value, json};
use springmesh_analysis::check::{CheckOptions, CheckReport, Deviation, Support, check};
use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;

/// Shake the model and let it settle without gravity; rest it on the ground (or hang it from
/// its anchors) under gravity; after each, align it to its rest shape and report how far it
/// ends from that shape (see springmesh_analysis::check for the exact procedure).
#[derive(clap::Args)]
pub struct Args {
    /// A .spring or .spring.json model (a mesh is converted with default options first).
    file: PathBuf,
    /// Seed of the random velocity field.
    #[arg(long, default_value_t = CheckOptions::default().seed)]
    seed: u64,
    /// Shake strength: velocity components up to this many bounding-box diagonals per second.
    #[arg(long, default_value_t = CheckOptions::default().shake)]
    shake: f32,
    /// Seconds to settle after the shake.
    #[arg(long, default_value_t = CheckOptions::default().settle_seconds)]
    settle_seconds: f32,
    /// Seconds on the ground (or hanging) in the gravity test.
    #[arg(long, default_value_t = CheckOptions::default().sag_seconds)]
    sag_seconds: f32,
    /// Largest error of either test (fraction of the bounding-box diagonal) still called
    /// stable.
    #[arg(long, default_value_t = CheckOptions::default().threshold)]
    threshold: f64,
    /// Largest tilt (degrees) of a body on a stable base still called stable.
    #[arg(long, default_value_t = CheckOptions::default().max_tilt_degrees)]
    max_tilt: f64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let model = input::model(&args.file)?;
    let options = CheckOptions {
        seed: args.seed,
        shake: args.shake,
        settle_seconds: args.settle_seconds,
        sag_seconds: args.sag_seconds,
        threshold: args.threshold,
        max_tilt_degrees: args.max_tilt,
        ..CheckOptions::default()
    };
    let r = check(&model, &options).map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()))?;
    emit(&Checked::new(args.file, &r, options.max_tilt_degrees), args.json)
}

/// What `check` found (the JSON fields of docs/cli.md).
#[derive(Serialize)]
struct Checked {
    file: PathBuf,
    shape_error: f64,
    max_node_error: f64,
    worst_nodes: Vec<Value>,
    sag_error: f64,
    sag_max_node_error: f64,
    sag_worst_nodes: Vec<Value>,
    sag_support: Value,
    sag_worst_at: f64,
    sag_end_error: f64,
    tilt_degrees: f64,
    tilt_at: f64,
    stable_base: bool,
    stable: bool,
    threshold: f64,
    max_tilt_degrees: f64,
    components: usize,
    unconnected_nodes: Vec<u32>,
    /// The full report, for the text.
    #[serde(skip)]
    report: CheckReport,
}

impl Checked {
    fn new(file: PathBuf, r: &CheckReport, max_tilt_degrees: f64) -> Checked {
        let worst = |d: &Deviation| -> Vec<Value> {
            d.worst_nodes.iter().map(|(n, e)| json!({"node": n.0, "error": e})).collect()
        };
        Checked {
            file,
            shape_error: r.shake.error,
            max_node_error: r.shake.max_node_error,
            worst_nodes: worst(&r.shake),
            sag_error: r.sag.error,
            sag_max_node_error: r.sag.max_node_error,
            sag_worst_nodes: worst(&r.sag),
            sag_support: match r.support {
                Support::Anchors => json!({"anchors": true}),
                Support::Ground { height } => json!({"ground": height}),
            },
            sag_worst_at: r.course.worst_at,
            sag_end_error: r.course.end_error,
            tilt_degrees: r.course.tilt_degrees,
            tilt_at: r.course.tilt_at,
            stable_base: r.course.stable_base,
            stable: r.stable,
            threshold: r.threshold,
            max_tilt_degrees,
            components: r.components,
            unconnected_nodes: r.unconnected_nodes.iter().map(|n| n.0).collect(),
            report: r.clone(),
        }
    }
}

impl fmt::Display for Checked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = &self.report;
        let verdict = if r.stable { "stable" } else { "UNSTABLE" };
        let threshold = r.threshold * 100.0;
        writeln!(
            f,
            "{}: {verdict} (threshold {threshold:.3}% of the diagonal)",
            self.file.display()
        )?;
        let held = match r.support {
            Support::Anchors => "hanging from its anchors".to_string(),
            Support::Ground { height } => format!("on the ground at y = {height}"),
        };
        for (name, d) in [("shake", &r.shake), (&format!("sag ({held})"), &r.sag)] {
            let worst: Vec<String> = d
                .worst_nodes
                .iter()
                .take(5)
                .map(|(n, e)| format!("{} ({:.2}%)", n.0, e * 100.0))
                .collect();
            writeln!(
                f,
                "  {name}: error {:.3}%, worst node {:.3}%; worst nodes: {}",
                d.error * 100.0,
                d.max_node_error * 100.0,
                worst.join(", ")
            )?;
        }
        let c = r.course;
        let judged = if c.stable_base {
            format!(" (on a stable base: at most {}° is stable)", self.max_tilt_degrees)
        } else {
            " (no stable base: not judged)".to_string()
        };
        writeln!(
            f,
            "  sag at its worst {:.2} s into the test (at the end {:.3}%); tilt up to {:.1}° at {:.2} s{judged}",
            c.worst_at,
            c.end_error * 100.0,
            c.tilt_degrees,
            c.tilt_at,
        )?;
        writeln!(
            f,
            "  parts: {}; nodes without springs: {}",
            r.components,
            r.unconnected_nodes.len()
        )
    }
}
