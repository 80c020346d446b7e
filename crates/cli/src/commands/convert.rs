//! `springmesh convert INPUT... -o OUTPUT`: meshes into spring models.

use crate::Usage;
use crate::output::{emit, warning_lines};
use crate::progress;
use anyhow::{Context, Result};
use rayon::prelude::*;
use serde::Serialize;
use springmesh_convert::solid::material::DEFAULT_DENSITY;
use springmesh_convert::{
    CharacterMeshes, Control, ConvertOptions, ConvertReport, DEFAULT_BEND, DEFAULT_MAX_TRIANGLES,
    DEFAULT_NODE_MASS, DEFAULT_STRETCH, DEFAULT_VICINITY, ImportLimits, MassMode, PinColor,
    SolidOptions, SpringSettings, Stage, Thickness, convert_file_with,
    keep::{Dropped, keep_edits},
};
use springmesh_core::io;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Convert OBJ, glTF or GLB meshes into spring models.
#[derive(clap::Args)]
pub struct Args {
    /// Mesh files: .obj, .gltf or .glb.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// Where to write: a file for one input (a name ending in .spring.json writes JSON,
    /// anything else binary .spring); a directory (existing, or ending in /) for several.
    #[arg(short, long, value_name = "OUTPUT")]
    output: PathBuf,
    /// Files written into an output directory are .spring.json instead of .spring.
    #[arg(long)]
    json_files: bool,
    #[command(flatten)]
    options: Options,
    /// Print one JSON object per input (the conversion report) instead of text.
    #[arg(long)]
    json: bool,
    /// Convert with OLD's recorded options and carry over the hand edits made to OLD (anchors,
    /// added, deleted and tuned springs, masses, simulation parameters); what cannot be carried
    /// is listed.
    #[arg(long, value_name = "OLD.spring")]
    keep_edits: Option<PathBuf>,
}

/// A vertex-colour channel.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Channel {
    Red,
    Green,
    Blue,
    Alpha,
}

/// The converter's options as flags.
#[derive(clap::Args)]
pub struct Options {
    /// Make bend springs across every edge shared by two triangles (the default, but for
    /// --solid, whose lattice holds the surface).
    #[arg(long, overrides_with = "no_bend")]
    bend: bool,
    /// Make no bend springs.
    #[arg(long)]
    no_bend: bool,
    /// Also join every pair of nodes at most RADIUS metres apart (vicinity springs).
    #[arg(long, value_name = "RADIUS")]
    vicinity: Option<f32>,
    /// Keep at most N nearest vicinity partners per node [default: no cap].
    #[arg(long, value_name = "N", requires = "vicinity")]
    vicinity_cap: Option<usize>,
    /// Give every quad of the source both diagonals (shear springs of stretch kind).
    #[arg(long)]
    quad_shear: bool,
    /// Stretch spring stiffness, N/m.
    #[arg(long, value_name = "K", default_value_t = DEFAULT_STRETCH.stiffness)]
    stretch_stiffness: f32,
    /// Stretch spring damping, N·s/m.
    #[arg(long, value_name = "D", default_value_t = DEFAULT_STRETCH.damping)]
    stretch_damping: f32,
    /// Bend spring stiffness, N/m.
    #[arg(long, value_name = "K", default_value_t = DEFAULT_BEND.stiffness)]
    bend_stiffness: f32,
    /// Bend spring damping, N·s/m.
    #[arg(long, value_name = "D", default_value_t = DEFAULT_BEND.damping)]
    bend_damping: f32,
    /// Vicinity spring stiffness, N/m.
    #[arg(long, value_name = "K", default_value_t = DEFAULT_VICINITY.stiffness)]
    vicinity_stiffness: f32,
    /// Vicinity spring damping, N·s/m.
    #[arg(long, value_name = "D", default_value_t = DEFAULT_VICINITY.damping)]
    vicinity_damping: f32,
    /// Mass of every node, kg [default: 0.002; with --solid, --density 1000].
    #[arg(long, value_name = "M", conflicts_with_all = ["total_mass", "density"])]
    mass: Option<f32>,
    /// Total mass, kg, shared evenly between the nodes (or by area with --mass-by-area).
    #[arg(long, value_name = "M", conflicts_with = "density")]
    total_mass: Option<f32>,
    /// Density, kg/m³: the enclosed volume's mass, shared by area (a solid: by the volume each
    /// node stands for) [default with --solid: 1000, water].
    #[arg(long, value_name = "KG_PER_M3")]
    density: Option<f32>,
    /// Share --total-mass by triangle area instead of evenly.
    #[arg(long, requires = "total_mass")]
    mass_by_area: bool,
    /// Vertices closer than T metres become one node; 0 welds identical positions only
    /// [default: 1e-6 of the bounding-box diagonal].
    #[arg(long, value_name = "T")]
    weld_tolerance: Option<f32>,
    /// Multiply the mesh's coordinates by S first (0.01 for a mesh in centimetres); a skinned
    /// mesh's character, painted distances and skeleton too (its clips then play scaled).
    #[arg(long, value_name = "S", default_value_t = 1.0)]
    scale: f32,
    /// Fill the inside of a closed mesh with a lattice of interior springs, so it keeps its
    /// shape (jelly, soft props, creatures); every spring's stiffness then comes from
    /// --youngs-modulus, and masses from --density.
    #[arg(long)]
    solid: bool,
    /// Lattice spacing of the solid fill, m [default: about as many interior nodes as surface
    /// nodes, no finer than half the mean edge].
    #[arg(long, value_name = "M", requires = "solid")]
    solid_spacing: Option<f32>,
    /// Young's modulus of the solid, Pa [default: the one that makes it sag 1% of its height
    /// under its own weight].
    #[arg(long, value_name = "PA", requires = "solid")]
    youngs_modulus: Option<f32>,
    /// Node budget of a solid: a mesh with more vertices is simulated as a coarse cage of at
    /// most N nodes, the mesh following it as a skin (what a frame costs follows N, not the
    /// mesh's detail) [default: 600].
    #[arg(long, value_name = "N", requires = "solid")]
    max_nodes: Option<usize>,
    /// Anchor the vertices whose colour has this channel at or above --pin-threshold, instead
    /// of a painted _PIN attribute (for exporters without custom attributes).
    #[arg(long, value_name = "CHANNEL")]
    pin_color: Option<Channel>,
    /// The colour value (0 to 1) from which --pin-color pins a vertex.
    #[arg(long, value_name = "T", default_value_t = 0.5, requires = "pin_color")]
    pin_threshold: f32,
    /// Keep the model's layers this far apart (m) when it folds onto itself [default
    /// thickness: 0.9 of the mean edge].
    #[arg(long, value_name = "THICKNESS", num_args = 0..=1)]
    self_collision: Option<Option<f32>>,
    /// Convert only the mesh of a glTF file whose node or mesh is called NAME (a character's
    /// cape, not the character); a skinned mesh keeps its skeleton and painted _MAX_DISTANCE.
    #[arg(long, value_name = "NAME")]
    mesh: Option<String>,
    /// The character's mesh the --mesh is worn on, kept as capsules on its joints [default: the
    /// file's other meshes on the same skeleton, less those painted with a _MAX_DISTANCE].
    /// (`--body`, its name before 0.2, is kept for one version.)
    #[arg(
        long,
        alias = "body",
        value_name = "NAME",
        requires = "mesh",
        conflicts_with = "no_character"
    )]
    character: Option<String>,
    /// Keep no character: the worn mesh collides with nothing of it (`--no-body` before 0.2).
    #[arg(long, alias = "no-body")]
    no_character: bool,
    /// Refuse meshes of more than N triangles after instancing and triangulation (a guard
    /// against files that would take all memory).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_TRIANGLES)]
    max_triangles: usize,
    /// Let the mesh's buffers, images, material library and textures be read from outside
    /// its folder (only for files you trust; they must still be regular files).
    #[arg(long)]
    allow_outside_references: bool,
}

impl Options {
    /// The converter options the flags ask for.
    pub fn to_options(&self) -> ConvertOptions {
        let mass = match (self.total_mass, self.mass_by_area, self.density, self.mass) {
            (Some(mass), true, _, _) => MassMode::TotalByArea { mass },
            (Some(mass), false, _, _) => MassMode::TotalEven { mass },
            (None, _, Some(density), _) => MassMode::Density { density },
            (None, _, None, Some(mass)) => MassMode::PerNode { mass },
            (None, _, None, None) if self.solid => MassMode::Density { density: DEFAULT_DENSITY },
            (None, _, None, None) => MassMode::PerNode { mass: DEFAULT_NODE_MASS },
        };
        ConvertOptions {
            bend: self.bend || !(self.no_bend || self.solid),
            vicinity_radius: self.vicinity,
            vicinity_cap: self.vicinity_cap,
            quad_shear: self.quad_shear,
            stretch: SpringSettings {
                stiffness: self.stretch_stiffness,
                damping: self.stretch_damping,
            },
            bend_springs: SpringSettings {
                stiffness: self.bend_stiffness,
                damping: self.bend_damping,
            },
            vicinity: SpringSettings {
                stiffness: self.vicinity_stiffness,
                damping: self.vicinity_damping,
            },
            mass,
            weld_tolerance: self.weld_tolerance,
            scale: self.scale,
            solid: self.solid.then_some(SolidOptions {
                spacing: self.solid_spacing,
                youngs_modulus: self.youngs_modulus,
                max_nodes: self.max_nodes,
            }),
            pin_color: self
                .pin_color
                .map(|c| PinColor { channel: c as usize, threshold: self.pin_threshold }),
            self_collision: self
                .self_collision
                .map(|t| t.map_or(Thickness::FromEdges, Thickness::Metres)),
            mesh: self.mesh.clone(),
            character: match (&self.character, self.no_character) {
                (_, true) => CharacterMeshes::Off,
                (Some(name), false) => CharacterMeshes::Named(name.clone()),
                (None, false) => CharacterMeshes::Others,
            },
            limits: ImportLimits {
                max_triangles: self.max_triangles,
                outside_references: self.allow_outside_references,
            },
        }
    }
}

/// What converting one input gave.
struct Outcome {
    input: PathBuf,
    output: PathBuf,
    result: Result<ConvertReport>,
}

/// A converted input: the conversion report with its input and output (docs/cli.md).
#[derive(Serialize)]
struct Converted<'a> {
    input: &'a Path,
    output: &'a Path,
    #[serde(flatten)]
    report: &'a ConvertReport,
}

/// An input that failed, and why (a line of `--json` output among the others).
#[derive(Serialize)]
struct Failed<'a> {
    input: &'a Path,
    error: String,
}

impl fmt::Display for Failed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "error: {}", self.error)
    }
}

/// An input converted with the edits of an older model carried over.
#[derive(Serialize)]
struct Reconverted<'a> {
    #[serde(flatten)]
    converted: Converted<'a>,
    kept: &'a std::collections::BTreeMap<&'static str, usize>,
    dropped: &'a [Dropped],
    #[serde(skip)]
    old: &'a Path,
}

pub fn run(args: Args) -> Result<ExitCode> {
    if let Some(old) = &args.keep_edits {
        return reconvert(&args, old);
    }
    let options = args.options.to_options();
    if let Some(reason) = options.problem() {
        return Err(Usage(reason).into());
    }
    let targets = targets(&args)?;
    if let [(input, output)] = &targets[..] {
        let bar = progress::bar(Stage::ALL.len() as u64, "converting", args.json);
        let on_stage = |stage: Stage| {
            bar.set_message(stage.label());
            bar.set_position(Stage::ALL.iter().position(|&s| s == stage).unwrap_or(0) as u64);
        };
        let control = Control { on_stage: Some(&on_stage), ..Control::default() };
        let result = convert_one(input, output, &options, control);
        bar.finish_and_clear();
        let report = result?;
        return emit(&Converted { input, output, report: &report }, args.json);
    }
    let bar = progress::bar(targets.len() as u64, "converting", args.json);
    let outcomes: Vec<Outcome> = targets
        .par_iter()
        .map(|(input, output)| {
            let result = convert_one(input, output, &options, Control::default());
            bar.inc(1);
            Outcome { input: input.clone(), output: output.clone(), result }
        })
        .collect();
    bar.finish_and_clear();
    for o in &outcomes {
        match &o.result {
            Ok(report) => {
                emit(&Converted { input: &o.input, output: &o.output, report }, args.json)?
            }
            Err(e) if args.json => {
                emit(&Failed { input: &o.input, error: format!("{e:#}") }, true)?
            }
            Err(e) => {
                eprintln!("error: {e:#}");
                ExitCode::FAILURE
            }
        };
    }
    let failed = outcomes.iter().filter(|o| o.result.is_err()).count();
    if failed > 0 {
        eprintln!("error: {failed} of {} inputs failed", outcomes.len());
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// (input, output file) for every input; several inputs need an output directory.
fn targets(args: &Args) -> Result<Vec<(PathBuf, PathBuf)>> {
    let out = &args.output;
    let is_dir =
        out.is_dir() || out.as_os_str().to_string_lossy().ends_with(std::path::MAIN_SEPARATOR);
    if args.inputs.len() > 1 && !is_dir {
        let text = format!(
            "{} inputs need an output directory (-o DIR/), not {}",
            args.inputs.len(),
            out.display()
        );
        return Err(Usage(text).into());
    }
    if !is_dir {
        return Ok(vec![(args.inputs[0].clone(), out.clone())]);
    }
    std::fs::create_dir_all(out)
        .with_context(|| format!("{}: cannot create the directory", out.display()))?;
    let ext = if args.json_files { "spring.json" } else { "spring" };
    let mut targets: Vec<(PathBuf, PathBuf)> = Vec::new();
    for input in &args.inputs {
        let stem = input
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "model".into());
        let output = out.join(format!("{stem}.{ext}"));
        if let Some((other, _)) = targets.iter().find(|(_, o)| *o == output) {
            let text = format!(
                "{} and {} would both write {}",
                other.display(),
                input.display(),
                output.display()
            );
            return Err(Usage(text).into());
        }
        targets.push((input.clone(), output));
    }
    Ok(targets)
}

/// `convert NEW --keep-edits OLD -o OUT`: NEW converted with OLD's options, OLD's edits
/// replayed on it (springmesh_convert::keep).
fn reconvert(args: &Args, old_path: &Path) -> Result<ExitCode> {
    let [input] = &args.inputs[..] else {
        return Err(Usage("--keep-edits takes one input mesh".into()).into());
    };
    let old = io::load(old_path)?;
    let options = ConvertOptions::from_metadata(&old.metadata.conversion).ok_or_else(|| {
        Usage(format!("{}: the model records no conversion to repeat", old_path.display()))
    })?;
    let mut conversion = convert_file_with(input, &options, Control::default())?;
    let kept = keep_edits(&old, &mut conversion, &options, old_path)?;
    io::save(&conversion.model, &args.output)
        .with_context(|| format!("{}: cannot save the model", input.display()))?;
    let converted = Converted { input, output: &args.output, report: &conversion.report };
    let reconverted =
        Reconverted { converted, kept: &kept.kept, dropped: &kept.dropped, old: old_path };
    emit(&reconverted, args.json)
}

/// Converts `input` and saves the model to `output`.
fn convert_one(
    input: &Path,
    output: &Path,
    options: &ConvertOptions,
    control: Control,
) -> Result<ConvertReport> {
    let conversion = convert_file_with(input, options, control)?;
    io::save(&conversion.model, output)
        .with_context(|| format!("{}: cannot save the model", input.display()))?;
    Ok(conversion.report)
}

impl fmt::Display for Converted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (r, s) = (self.report, &self.report.springs);
        let shear =
            if s.shear > 0 { format!(", {} of them shear", s.shear) } else { String::new() };
        writeln!(
            f,
            "{} -> {}: {} nodes, {} faces, {} springs (stretch {}{shear}, bend {}, vicinity {}); welded {}, parts {}",
            self.input.display(),
            self.output.display(),
            r.nodes,
            r.faces,
            s.total,
            s.stretch,
            s.bend,
            s.vicinity,
            r.welded,
            r.components
        )?;
        if let (Some(solid), true) = (&r.solid, s.interior > 0) {
            writeln!(
                f,
                "  solid: {} interior nodes at {:.4} m spacing, {} interior springs; E = {:.4e} Pa, {:.4} m³, {:.4} kg",
                solid.interior_nodes,
                solid.spacing,
                s.interior,
                solid.youngs_modulus,
                solid.volume,
                solid.mass
            )?;
        }
        if let Some(w) = &r.worn {
            writeln!(
                f,
                "  worn: {} nodes follow the skin, {} within a max distance, {} free; character: {} colliders",
                w.kinematic, w.leashed, w.free, w.character_colliders
            )?;
        }
        for line in warning_lines(r) {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Reconverted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counts: Vec<String> = self.kept.iter().map(|(k, n)| format!("{k} {n}")).collect();
        writeln!(
            f,
            "{} -> {} with the edits of {}: kept {}; dropped {}",
            self.converted.input.display(),
            self.converted.output.display(),
            self.old.display(),
            if counts.is_empty() { "none".to_string() } else { counts.join(", ") },
            self.dropped.len()
        )?;
        for d in self.dropped {
            writeln!(f, "  dropped {}: {}", d.edit, d.reason)?;
        }
        Ok(())
    }
}
