//! `springmesh settle FILE -o OUT`: simulate until the model comes to rest, and keep that shape.

use super::simulate::{Overrides, save_state};
use crate::output::emit;
use crate::{Usage, input};
use anyhow::{Context, Result};
use serde::Serialize;
use springmesh_core::Simulation;
use springmesh_core::sim::SettleOptions;
use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;

/// Simulate until the model comes to rest and save the resting positions as its node positions
/// (rest lengths unchanged).
#[derive(clap::Args)]
pub struct Args {
    /// A .spring or .spring.json model (a mesh is converted with default options first).
    file: PathBuf,
    /// Where to save the settled model (.spring.json writes JSON, anything else binary).
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// At rest once the kinetic energy stays below this many joules for a quarter second
    /// [default: 1e-5 J per kg of the model].
    #[arg(long, value_name = "E")]
    energy_threshold: Option<f64>,
    /// Give up after this much simulated time, s.
    #[arg(long, value_name = "S", default_value_t = 60.0)]
    max_seconds: f64,
    #[command(flatten)]
    overrides: Overrides,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let mut model = input::model(&args.file)?;
    args.overrides.apply(&mut model)?;
    let threshold = args.energy_threshold.unwrap_or(1e-5 * model.total_mass());
    if !(threshold.is_finite() && threshold > 0.0) {
        return Err(
            Usage(format!("--energy-threshold {threshold} must be a finite number > 0")).into()
        );
    }
    let file = args.file.display().to_string();
    if model.anchors.is_empty() && model.params.gravity != glam::Vec3::ZERO {
        eprintln!(
            "note: {file} has no anchors and gravity is on: it falls and cannot come to rest (try --no-gravity)"
        );
    }
    let mut sim = Simulation::new(&model);
    let options = SettleOptions {
        energy_threshold: threshold,
        max_seconds: args.max_seconds,
        ..SettleOptions::default()
    };
    let report = sim.settle(&options).with_context(|| file.clone())?;
    save_state(&model, sim.positions(), &args.output)?;
    let settled = Settled {
        settled: report.settled,
        seconds: report.seconds,
        steps: report.steps,
        kinetic_energy: report.kinetic_energy,
        energy_threshold: threshold,
        output: args.output,
        file,
    };
    emit(&settled, args.json)
}

/// What `settle` did.
#[derive(Serialize)]
struct Settled {
    settled: bool,
    seconds: f64,
    steps: u64,
    kinetic_energy: f64,
    energy_threshold: f64,
    output: PathBuf,
    #[serde(skip)]
    file: String,
}

impl fmt::Display for Settled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.settled { "came to rest" } else { "still moving" };
        writeln!(
            f,
            "{}: {verdict} after {:.2} s ({} steps), kinetic energy {:.3e} J (threshold {:.3e} J) -> {}",
            self.file,
            self.seconds,
            self.steps,
            self.kinetic_energy,
            self.energy_threshold,
            self.output.display()
        )
    }
}
