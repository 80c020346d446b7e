//! `springmesh brace FILE -o OUT`: the one-click fix of the editor, kept only when it helps.

use crate::input;
use crate::output::print_json;
use anyhow::{Context, Result};
use serde_json::json;
use springmesh_analysis::brace::{brace, error};
use springmesh_analysis::check::CheckOptions;
use springmesh_convert::DEFAULT_VICINITY;
use springmesh_core::{ValidModel, io};
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
    let closed = model.enclosed_volume().is_ok();
    if args.json {
        let number = |x: f64| if x.is_finite() { json!(x) } else { json!(null) };
        print_json(&json!({
            "file": args.file,
            "output": args.output,
            "error_before": number(before),
            "error_after": number(after),
            "tried": added,
            "kept": kept,
            "closed": closed,
        }));
        return Ok(ExitCode::SUCCESS);
    }
    match (&tried, kept) {
        (None, _) => println!("{file}: nothing to add around the worst nodes; saved unchanged"),
        (Some(_), true) => println!(
            "{file}: added {added} springs; error {:.3}% -> {:.3}% -> {}",
            before * 100.0,
            after * 100.0,
            args.output.display()
        ),
        (Some(_), false) => println!(
            "{file}: {added} springs would have made the error {:.3}% (now {:.3}%): not applied; saved unchanged",
            after * 100.0,
            before * 100.0
        ),
    }
    if closed && !kept {
        println!(
            "  the model's surface is closed: converting its mesh with --solid gives it an inside"
        );
    }
    Ok(ExitCode::SUCCESS)
}
