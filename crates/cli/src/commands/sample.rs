//! `springmesh sample NAME -o OUTPUT`: write a built-in sample model.

use crate::output::emit;
use anyhow::Result;
use serde::Serialize;
use springmesh_convert::samples::Sample;
use springmesh_core::{ValidModel, io};
use std::fmt;
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
    let model = ValidModel::new(sample.model())?;
    io::save(&model, &args.output)?;
    let written = Written {
        sample: sample.name(),
        output: args.output,
        nodes: model.nodes.len(),
        springs: model.springs.len(),
        faces: model.faces.len(),
        anchors: model.anchors.len(),
    };
    emit(&written, args.json)
}

/// What `sample` wrote.
#[derive(Serialize)]
struct Written {
    sample: &'static str,
    output: PathBuf,
    nodes: usize,
    springs: usize,
    faces: usize,
    anchors: usize,
}

impl fmt::Display for Written {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} -> {}: {} nodes, {} springs, {} faces, {} anchors",
            self.sample,
            self.output.display(),
            self.nodes,
            self.springs,
            self.faces,
            self.anchors
        )
    }
}
