//! `springmesh sample NAME -o OUTPUT`: write a built-in sample model.

use crate::output::print_json;
use anyhow::Result;
use serde_json::json;
use springmesh_convert::samples::Sample;
use springmesh_core::io;
use std::path::PathBuf;
use std::process::ExitCode;

/// The built-in samples, by name.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Name {
    /// A rope held at one end.
    String,
    /// A cloth held at two corners.
    Cloth,
    /// A braced cube lattice.
    Jelly,
    /// A balloon on a string.
    Balloon,
    /// A flag on a flexible pole.
    Flag,
}

impl From<Name> for Sample {
    fn from(n: Name) -> Sample {
        match n {
            Name::String => Sample::String,
            Name::Cloth => Sample::Cloth,
            Name::Jelly => Sample::Jelly,
            Name::Balloon => Sample::Balloon,
            Name::Flag => Sample::Flag,
        }
    }
}

/// Write a built-in sample model.
#[derive(clap::Args)]
pub struct Args {
    /// Which sample.
    #[arg(value_enum)]
    name: Name,
    /// The file to write (.spring.json writes JSON, anything else binary .spring).
    #[arg(short, long)]
    output: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let sample = Sample::from(args.name);
    let model = sample.model();
    io::save(&model, &args.output)?;
    if args.json {
        print_json(&json!({
            "sample": sample.name(),
            "output": args.output,
            "nodes": model.nodes.len(),
            "springs": model.springs.len(),
            "faces": model.faces.len(),
            "anchors": model.anchors.len(),
        }));
    } else {
        println!(
            "{} -> {}: {} nodes, {} springs, {} faces, {} anchors",
            sample.name(),
            args.output.display(),
            model.nodes.len(),
            model.springs.len(),
            model.faces.len(),
            model.anchors.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}
