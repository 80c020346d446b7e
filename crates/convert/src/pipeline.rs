//! The conversion pipeline: the order of the stages, and nothing else. Each stage is a module
//! of its own with a small input and output, and writes its own part of the report:
//!
//! ```text
//! read (import) → check and scale (mesh) → weld (weld) → surface springs (springs)
//!     → vicinity (vicinity) → solid fill (solid::stage) → masses, painted data, the model
//!     (assemble, masses, painted) → validate
//! ```
//!
//! A solid whose surface has more vertices than its node budget is a cage instead
//! (solid::cage): it has no surface springs, and its model is assembled by `skinned`.

use crate::assemble::{self, Made};
use crate::mesh::{RawMesh, Texture};
use crate::options::ConvertOptions;
use crate::report::ConvertReport;
use crate::solid::stage::{fill_cage, fill_surface};
use crate::springs::surface_pairs;
use crate::weld::Welded;
use crate::{ConvertError, import, rigging, skinned, vicinity};
use springmesh_core::{CoreError, SpringModel, ValidModel};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// A finished conversion.
#[derive(Clone, Debug)]
pub struct Conversion {
    /// The spring model.
    pub model: ValidModel,
    /// What was found and made.
    pub report: ConvertReport,
    /// The base-colour texture the mesh names, if any.
    pub texture: Option<Texture>,
}

/// The steps of a conversion, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Reading and parsing the file.
    Reading,
    /// Merging coincident vertices.
    Welding,
    /// Finding edges and making stretch, shear and bend springs.
    Springs,
    /// Finding vicinity springs.
    Vicinity,
    /// Filling the inside of a solid.
    Solid,
    /// Masses, faces, the report.
    Finishing,
}

impl Stage {
    /// Every stage, in order.
    pub const ALL: [Stage; 6] = [
        Stage::Reading,
        Stage::Welding,
        Stage::Springs,
        Stage::Vicinity,
        Stage::Solid,
        Stage::Finishing,
    ];

    /// A short description for progress displays.
    pub fn label(self) -> &'static str {
        match self {
            Stage::Reading => "reading",
            Stage::Welding => "welding",
            Stage::Springs => "making springs",
            Stage::Vicinity => "finding vicinity springs",
            Stage::Solid => "filling the solid",
            Stage::Finishing => "finishing",
        }
    }
}

/// Watching and stopping a conversion from another thread.
#[derive(Clone, Copy, Default)]
pub struct Control<'a> {
    /// When set, the conversion stops at the next stage with [`ConvertError::Cancelled`].
    pub cancel: Option<&'a AtomicBool>,
    /// Called as each stage starts.
    pub on_stage: Option<&'a (dyn Fn(Stage) + Sync)>,
}

impl Control<'_> {
    fn enter(&self, stage: Stage) -> Result<(), ConvertError> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(ConvertError::Cancelled);
        }
        if let Some(f) = self.on_stage {
            f(stage);
        }
        Ok(())
    }
}

/// Reads and converts the mesh file `path`.
pub fn convert_file(path: &Path, options: &ConvertOptions) -> Result<Conversion, ConvertError> {
    convert_file_with(path, options, Control::default())
}

/// [`convert_file`], watched and stoppable through `control`.
pub fn convert_file_with(
    path: &Path,
    options: &ConvertOptions,
    control: Control,
) -> Result<Conversion, ConvertError> {
    check(options)?;
    control.enter(Stage::Reading)?;
    let bytes = read_source(path)?;
    let choice = (options.mesh.as_deref(), &options.character);
    let mesh = import::read(path, &bytes, &options.limits, choice)?;
    drop(bytes);
    convert_checked(mesh, options, path, control)
}

/// The bytes of the source file `path`, within the core's file size limit.
pub(crate) fn read_source(path: &Path) -> Result<Vec<u8>, ConvertError> {
    springmesh_core::io::read_file(path).map_err(|e| match e {
        CoreError::Io { file, cause } => ConvertError::Io { file, cause },
        other => ConvertError::Io {
            file: path.to_path_buf(),
            cause: std::io::Error::other(other.to_string()),
        },
    })
}

/// Converts an imported mesh; `source` names it in the model's metadata and in errors.
pub fn convert_mesh(
    mesh: RawMesh,
    options: &ConvertOptions,
    source: &Path,
) -> Result<Conversion, ConvertError> {
    convert_mesh_with(mesh, options, source, Control::default())
}

/// [`convert_mesh`], watched and stoppable through `control`.
pub fn convert_mesh_with(
    mesh: RawMesh,
    options: &ConvertOptions,
    source: &Path,
    control: Control,
) -> Result<Conversion, ConvertError> {
    check(options)?;
    convert_checked(mesh, options, source, control)
}

/// The options, if they make sense ([`ConvertOptions::problem`]): checked once per conversion.
fn check(options: &ConvertOptions) -> Result<(), ConvertError> {
    match options.problem() {
        Some(reason) => Err(ConvertError::Options { reason }),
        None => Ok(()),
    }
}

/// The stages after reading, in order, with `options` already checked.
fn convert_checked(
    mut mesh: RawMesh,
    options: &ConvertOptions,
    source: &Path,
    control: Control,
) -> Result<Conversion, ConvertError> {
    mesh.prepare(options.scale, source)?;
    rigging::scale_distances(&mut mesh, options.scale);
    let mut report = ConvertReport {
        skipped_points: mesh.points,
        skipped_lines: mesh.lines,
        ..Default::default()
    };

    control.enter(Stage::Welding)?;
    let welded = Welded::new(&mesh, options.weld_tolerance, &mut report);

    let welded_surface = (&welded.positions[..], &welded.triangles[..]);
    if let Some(s) = options.solid.filter(|s| s.caged(welded.positions.len())) {
        control.enter(Stage::Solid)?;
        let caged = fill_cage(welded_surface, &s, options.mass, source)?;
        control.enter(Stage::Finishing)?;
        let model = skinned::model(&caged, &welded, &mut mesh, options, source, &mut report)?;
        return finish(model, mesh, report, source);
    }

    control.enter(Stage::Springs)?;
    let (nodes, triangles) = (welded.positions.len(), &welded.triangles);
    let pairs = surface_pairs(nodes, triangles, &welded.quads, options.bend, options.quad_shear);
    pairs.report(&mut report);

    control.enter(Stage::Vicinity)?;
    let (radius, cap) = (options.vicinity_radius, options.vicinity_cap);
    let vicinity = vicinity::stage(&welded.positions, &pairs, radius, cap);

    control.enter(Stage::Solid)?;
    let surface = [&pairs.stretch[..], &pairs.shear, &pairs.bend, &vicinity];
    let solid = match &options.solid {
        Some(s) => Some(fill_surface(welded_surface, s, options.mass, surface, source)?),
        None => None,
    };

    control.enter(Stage::Finishing)?;
    let made = Made { welded: &welded, pairs: &pairs, vicinity: &vicinity, solid: solid.as_ref() };
    let model = assemble::model(&made, &mut mesh, options, source, &mut report)?;
    finish(model, mesh, report, source)
}

/// The last step of every conversion: the model's parts and what was skipped in the report,
/// and the model validated.
fn finish(
    model: SpringModel,
    mut mesh: RawMesh,
    mut report: ConvertReport,
    source: &Path,
) -> Result<Conversion, ConvertError> {
    assemble::parts(&model, &mut report);
    mesh.report_skipped(&mut report);
    Ok(Conversion { model: validated(model, source)?, report, texture: mesh.texture })
}

/// `model` validated: the converter's output, a [`ValidModel`] or an error naming `source`.
pub(crate) fn validated(model: SpringModel, source: &Path) -> Result<ValidModel, ConvertError> {
    ValidModel::new(model).map_err(|e| match e {
        CoreError::InvalidModel { problems } => {
            ConvertError::Invalid { file: source.to_path_buf(), problems }
        }
        other => ConvertError::Simulation(other),
    })
}
