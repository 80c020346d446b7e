//! `springmesh`: convert meshes into spring models, inspect, simulate, settle, check, brace and
//! tune them.
//!
//! Every command prints readable text, or one JSON object on stdout with `--json`. Errors go to
//! stderr as `error: <file>: <what is wrong>`; the exit code is 1 for a failed run and 2 for
//! bad usage. See docs/cli.md.

mod collider;
mod commands;
mod frames;
mod input;
mod output;
mod point_cache;
mod progress;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Turn meshes into spring models and inspect, simulate, settle and check them.
#[derive(Parser)]
#[command(name = "springmesh", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Convert OBJ, glTF or GLB meshes into spring models.
    Convert(commands::convert::Args),
    /// Counts, bounding box, mass, parameters and metadata of a model (or a mesh, converted
    /// with defaults but not saved).
    Info(commands::info::Args),
    /// Simulate a model and report energy, speed and timing; optionally write a trajectory,
    /// OBJ frames or the final state.
    Simulate(commands::simulate::Args),
    /// Simulate until the model comes to rest and save the resting positions as its shape.
    Settle(commands::settle::Args),
    /// Shake the model and rest it on the ground (or hang it), and measure how far it ends
    /// from its rest shape.
    Check(commands::check::Args),
    /// Scale the stiffness by one factor so the model's lowest frequency, or its sag under
    /// gravity, is what is asked.
    Tune(commands::tune::Args),
    /// Add vicinity springs around the worst nodes of the check, only if that lowers the error.
    Brace(commands::brace::Args),
    /// Write a built-in sample model: string, cloth, jelly, balloon, flag or tear.
    Sample(commands::sample::Args),
}

/// Bad usage found after parsing (exit code 2), as opposed to a failed run (exit code 1).
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

fn main() -> ExitCode {
    // A bug must still end in one line, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        // A mesh parser's panic is caught and reported as an error naming the file.
        if springmesh_convert::in_isolated_parser() {
            return;
        }
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        // `springmesh info x | head`: the reader went away. Not a bug; end quietly, as a
        // command killed by SIGPIPE would (128 + 13). Outputs are written before the report.
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        eprintln!("error: internal error, please report it: {message}");
    }));
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Convert(args) => commands::convert::run(args),
        Command::Info(args) => commands::info::run(args),
        Command::Simulate(args) => commands::simulate::run(args),
        Command::Settle(args) => commands::settle::run(args),
        Command::Check(args) => commands::check::run(args),
        Command::Brace(args) => commands::brace::run(args),
        Command::Tune(args) => commands::tune::run(args),
        Command::Sample(args) => commands::sample::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            if e.downcast_ref::<Usage>().is_some() { ExitCode::from(2) } else { ExitCode::FAILURE }
        }
    }
}
