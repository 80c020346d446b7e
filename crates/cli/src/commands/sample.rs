//! `springmesh sample NAME -o OUTPUT`: write a built-in sample model.

use crate::output::print_json;
use anyhow::Result;
use serde_json::json;
use springmesh_convert::samples::Sample;
use springmesh_core::{ValidModel, io};
use std::path::PathBuf;
use std::process::ExitCode;

/// The sample called `name`, for the argument parser.
fn sample(name: &str) -> Result<Sample, String> {
    Sample::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Sample::ALL.iter().map(|s| s.name()).collect();
        format!("there is no sample \"{name}\"; the samples are {}", names.join(", "))
    })
}

/// Write a built-in sample model.
#[derive(clap::Args)]
pub struct Args {
    /// Which sample: string, cloth, jelly, balloon, flag or tear.
    #[arg(value_parser = sample)]
    name: Sample,
    /// The file to write (.spring.json writes JSON, anything else binary .spring).
    #[arg(short, long)]
    output: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let sample = args.name;
    let model = sample.model();
    io::save(&ValidModel::new(model.clone())?, &args.output)?;
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
