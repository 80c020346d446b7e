//! `springmesh check FILE`: the shape-retention test of springmesh-core.

use crate::input;
use crate::output::print_json;
use anyhow::Result;
use serde_json::json;
use springmesh_core::check::{CheckOptions, check};
use std::path::PathBuf;
use std::process::ExitCode;

/// Shake the model, let it settle without gravity, align it to its rest shape, and report how
/// far it ends from that shape (see springmesh_core::check for the exact procedure).
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
    /// Largest shape error (fraction of the bounding-box diagonal) still called stable.
    #[arg(long, default_value_t = CheckOptions::default().threshold)]
    threshold: f64,
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
        threshold: args.threshold,
        ..CheckOptions::default()
    };
    let r = check(&model, &options).map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()))?;
    if args.json {
        print_json(&json!({
            "file": args.file,
            "shape_error": r.shape_error,
            "max_node_error": r.max_node_error,
            "worst_nodes": r.worst_nodes.iter().map(|(n, e)| json!({"node": n.0, "error": e})).collect::<Vec<_>>(),
            "stable": r.stable,
            "threshold": r.threshold,
            "components": r.components,
            "unconnected_nodes": r.unconnected_nodes.iter().map(|n| n.0).collect::<Vec<_>>(),
        }));
    } else {
        let verdict = if r.stable { "stable" } else { "UNSTABLE" };
        println!(
            "{}: {verdict}: shape error {:.3}% of the diagonal (threshold {:.3}%), worst node {:.3}%",
            args.file.display(),
            r.shape_error * 100.0,
            r.threshold * 100.0,
            r.max_node_error * 100.0
        );
        let worst: Vec<String> = r
            .worst_nodes
            .iter()
            .take(5)
            .map(|(n, e)| format!("{} ({:.2}%)", n.0, e * 100.0))
            .collect();
        println!("  worst nodes: {}", worst.join(", "));
        println!("  parts: {}; nodes without springs: {}", r.components, r.unconnected_nodes.len());
    }
    Ok(ExitCode::SUCCESS)
}
