//! `springmesh brace FILE -o OUT`: the one-click fix of the editor, kept only when it helps.

use crate::input;
use crate::output::emit;
use anyhow::{Context, Result};
use serde::Serialize;
use springmesh_analysis::brace::{brace, error};
use springmesh_analysis::check::CheckOptions;
use springmesh_convert::DEFAULT_VICINITY;
use springmesh_core::{ValidModel, io};
use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;

/// Check the model; add vicinity springs around its worst nodes to a copy and check that; save
/// the copy when its error is lower, else the model unchanged.
#[derive(clap::Args)]
pub struct Args {
    /// A .spring or .spring.json model (a mesh is converted with default options first).
    file: PathBuf,
    /// Where to save the result (.spring.json writes JSON, anything else binary).
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// Stiffness of the added springs, N/m.
    #[arg(long, value_name = "K", default_value_t = DEFAULT_VICINITY.stiffness)]
    stiffness: f32,
    /// Damping of the added springs, N·s/m.
    #[arg(long, value_name = "D", default_value_t = DEFAULT_VICINITY.damping)]
    damping: f32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let mut model = input::model(&args.file)?.into_inner();
    let file = args.file.display().to_string();
    let options = CheckOptions::default();
    let tried = brace(&model, None, &options, args.stiffness, args.damping)
        .with_context(|| file.clone())?;
    let (before, after, added, kept) = match &tried {
        Some(t) => (error(&t.before), error(&t.after), t.springs.len(), t.helps()),
        None => (f64::NAN, f64::NAN, 0, false),
    };
    if let Some(t) = tried.as_ref().filter(|t| t.helps()) {
        for &s in &t.springs {
            model.springs.push(s);
        }
    }
    let model = ValidModel::new(model).with_context(|| file.clone())?;
    io::save(&model, &args.output)
        .with_context(|| format!("{}: cannot save the model", args.output.display()))?;
    let braced = Braced {
        file: args.file,
        output: args.output,
        error_before: before,
        error_after: after,
        tried: added,
        kept,
        closed: model.enclosed_volume().is_ok(),
        found: tried.is_some(),
    };
    emit(&braced, args.json)
}

/// What `brace` tried and kept (errors as fractions of the diagonal; null when nothing was
/// tried).
#[derive(Serialize)]
struct Braced {
    file: PathBuf,
    output: PathBuf,
    error_before: f64,
    error_after: f64,
    tried: usize,
    kept: bool,
    closed: bool,
    /// Springs were found to try.
    #[serde(skip)]
    found: bool,
}

impl fmt::Display for Braced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (file, output) = (self.file.display(), self.output.display());
        let (before, after, added) =
            (self.error_before * 100.0, self.error_after * 100.0, self.tried);
        match (self.found, self.kept) {
            (false, _) => {
                writeln!(f, "{file}: nothing to add around the worst nodes; saved unchanged")?
            }
            (true, true) => writeln!(
                f,
                "{file}: added {added} springs; error {before:.3}% -> {after:.3}% -> {output}"
            )?,
            (true, false) => writeln!(
                f,
                "{file}: {added} springs would have made the error {after:.3}% (now {before:.3}%): not applied; saved unchanged"
            )?,
        }
        if self.closed && !self.kept {
            writeln!(
                f,
                "  the model's surface is closed: converting its mesh with --solid gives it an inside"
            )?;
        }
        Ok(())
    }
}
