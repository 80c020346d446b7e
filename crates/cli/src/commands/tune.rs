//! `springmesh tune FILE -o OUT (--frequency HZ | --sag FRACTION)`: one factor on the
//! stiffness so the model rings or sags as asked (springmesh_analysis::stiffness_fit).

use crate::output::emit;
use crate::{Usage, input};
use anyhow::{Context, Result};
use serde::Serialize;
use springmesh_analysis::stiffness_fit::{Choice, Target, fit_stiffness, frame_seconds};
use springmesh_core::{SpringKind, SpringModel, ValidModel, io};
use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;

/// Frames timed for the cost of a frame.
const TIMED_FRAMES: u32 = 60;

/// Scale the stiffness of the chosen springs by one factor so that the model's lowest
/// vibration frequency, or its sag at rest under gravity, is what is asked; raise its
/// sub-steps if the stiffer model needs them.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("target").required(true).args(["frequency", "sag"])))]
pub struct Args {
    /// A .spring or .spring.json model (a mesh is converted with default options first).
    file: PathBuf,
    /// Where to save the tuned model (.spring.json writes JSON, anything else binary).
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// The lowest vibration frequency to reach, Hz.
    #[arg(long, value_name = "HZ")]
    frequency: Option<f64>,
    /// The sag at rest under gravity to reach, as a fraction of the bounding-box diagonal
    /// (hanging from the anchors, or on the ground without any).
    #[arg(long, value_name = "FRACTION")]
    sag: Option<f64>,
    /// The stiffnesses the factor scales: spring kinds (stretch, bend, vicinity, manual,
    /// interior) and `shape` for shape matching [default: all of them].
    #[arg(long, value_name = "K,...", value_delimiter = ',')]
    kinds: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let target = match (args.frequency, args.sag) {
        (Some(f), _) => Target::Frequency(f),
        (None, Some(s)) => Target::Sag(s),
        (None, None) => return Err(Usage("give --frequency or --sag".into()).into()),
    };
    let choice = choice(&args.kinds)?;
    let model = input::model(&args.file)?;
    let file = args.file.display().to_string();
    let bar = crate::progress::bar(100, "tuning", args.json);
    let (tuned, report) = fit_stiffness(&model, target, &choice, |done| {
        bar.set_position((done * 100.0) as u64);
    })
    .with_context(|| file.clone())?;
    bar.finish_and_clear();
    let tuned = ValidModel::new(tuned).with_context(|| file.clone())?;
    io::save(&tuned, &args.output).with_context(|| args.output.display().to_string())?;
    let raised = report.substeps != report.substeps_before;
    let cost = |m: &SpringModel| frame_seconds(m, TIMED_FRAMES).with_context(|| file.clone());
    let frame_ms_before = if raised { Some(cost(&model)? * 1e3) } else { None };
    let mut kinds: Vec<&'static str> = choice.kinds.iter().map(|k| k.name()).collect();
    if choice.shape_matching && model.params.shape_matching.is_some() {
        kinds.push("shape");
    }
    let tuned = Tuned {
        file: args.file,
        output: args.output,
        target,
        factor: report.factor,
        before: report.before,
        achieved: report.achieved,
        substeps: report.substeps,
        substeps_before: report.substeps_before,
        substeps_raised: raised,
        frame_ms: cost(&tuned)? * 1e3,
        frame_ms_before,
        kinds,
    };
    emit(&tuned, args.json)
}

/// What `tune` did.
#[derive(Serialize)]
struct Tuned {
    file: PathBuf,
    output: PathBuf,
    #[serde(serialize_with = "target_name")]
    target: Target,
    factor: f64,
    before: f64,
    achieved: f64,
    substeps: u32,
    substeps_before: u32,
    substeps_raised: bool,
    frame_ms: f64,
    frame_ms_before: Option<f64>,
    kinds: Vec<&'static str>,
}

/// A target by its name in the JSON: `frequency` or `sag`.
fn target_name<S: serde::Serializer>(target: &Target, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match target {
        Target::Frequency(_) => "frequency",
        Target::Sag(_) => "sag",
    })
}

impl fmt::Display for Tuned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let figure = |x: f64| match self.target {
            Target::Frequency(_) => format!("{x:.4} Hz"),
            Target::Sag(_) => format!("{:.3}% of the diagonal", x * 100.0),
        };
        let what = match self.target {
            Target::Frequency(_) => "lowest frequency",
            Target::Sag(_) => "sag at rest",
        };
        writeln!(
            f,
            "{}: {what} {} -> {}: stiffness of {} x {:.4} (damping x {:.4}) -> {}",
            self.file.display(),
            figure(self.before),
            figure(self.achieved),
            self.kinds.join(", "),
            self.factor,
            self.factor.sqrt(),
            self.output.display()
        )?;
        let (substeps, cost) = (self.substeps, self.frame_ms);
        match self.frame_ms_before {
            Some(before) => writeln!(
                f,
                "  sub-steps raised from {} to {substeps} to keep the stiffer model resolved: {cost:.3} ms a frame (was {before:.3} ms)",
                self.substeps_before
            ),
            None => writeln!(f, "  sub-steps: {substeps} are enough, {cost:.3} ms a frame"),
        }
    }
}

/// The stiffnesses named in `kinds` (all when none is).
fn choice(kinds: &[String]) -> Result<Choice> {
    if kinds.is_empty() {
        return Ok(Choice::default());
    }
    let mut choice = Choice { kinds: Vec::new(), shape_matching: false };
    for name in kinds {
        let name = name.trim();
        if name == "shape" {
            choice.shape_matching = true;
        } else if let Some(kind) = SpringKind::ALL.into_iter().find(|k| k.name() == name) {
            choice.kinds.push(kind);
        } else {
            return Err(Usage(format!(
                "--kinds: unknown '{name}' (stretch, bend, vicinity, manual, interior, shape)"
            ))
            .into());
        }
    }
    Ok(choice)
}
