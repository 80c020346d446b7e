//! `springmesh-editor [FILE] [--screenshot OUT.png] [--play] [--clip NAME] [--colour kind|strain|energy]`

use anyhow::Result;
use clap::Parser;
use springmesh_editor::app::{EditorApp, Startup};
use springmesh_editor::screenshot::Screenshot;
use springmesh_editor::viewport::SpringColour;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// The Springmesh editor: open, convert, inspect and save spring models.
#[derive(Parser)]
#[command(name = "springmesh-editor", version, about)]
struct Args {
    /// A mesh (.obj, .gltf, .glb) or model (.spring, .spring.json) to open [default: the cloth
    /// sample].
    file: Option<PathBuf>,
    /// Draw a few frames, save a PNG of the window here, and exit (for tests and docs). Fails
    /// when the 3D view stays blank.
    #[arg(long, value_name = "OUT.png")]
    screenshot: Option<PathBuf>,
    /// Start the test simulation as soon as FILE is open (the sample always starts playing).
    #[arg(long)]
    play: bool,
    /// Play this clip of the character a worn model is worn on (read from the glTF it was
    /// converted from) from the start; implies --play.
    #[arg(long, value_name = "NAME")]
    clip: Option<String>,
    /// What the springs' colour shows at the start (View panel: spring colour); strain and
    /// energy also hide the faces, which would cover the colours.
    #[arg(long, value_enum, default_value = "kind")]
    colour: Colour,
}

/// `--colour` values.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Colour {
    /// Their kind.
    Kind,
    /// Strain: compression blue, rest white, tension red.
    Strain,
    /// Stored energy: white to red.
    Energy,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> Result<ExitCode> {
    let outcome = Arc::new(Mutex::new(None));
    let screenshot = args.screenshot.map(|path| Screenshot::new(path, outcome.clone()));
    let taking_screenshot = screenshot.is_some();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Springmesh")
            .with_inner_size([1400.0, 860.0])
            .with_drag_and_drop(true),
        depth_buffer: 24,
        persist_window: !taking_screenshot,
        ..eframe::NativeOptions::default()
    };
    let colour = match args.colour {
        Colour::Kind => SpringColour::Kind,
        Colour::Strain => SpringColour::Strain,
        Colour::Energy => SpringColour::Energy,
    };
    let startup = Startup { file: args.file, screenshot, play: args.play, clip: args.clip, colour };
    eframe::run_native(
        "Springmesh",
        options,
        Box::new(move |cc| Ok(Box::new(EditorApp::new(cc, startup)))),
    )
    .map_err(|e| anyhow::anyhow!("the window could not open: {e}"))?;
    if !taking_screenshot {
        return Ok(ExitCode::SUCCESS);
    }
    match outcome.lock().map(|mut o| o.take()) {
        Ok(Some(Ok(summary))) => {
            println!("{summary}");
            Ok(ExitCode::SUCCESS)
        }
        Ok(Some(Err(e))) => Err(anyhow::anyhow!("{e}")),
        _ => Err(anyhow::anyhow!("the window closed before the screenshot was taken")),
    }
}
