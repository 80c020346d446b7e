//! The solid stage of a conversion, as the pipeline calls it: the fill, its problems named for
//! the file, and its part of the report.

use crate::ConvertError;
use crate::masses::MassMode;
use crate::report::{ConvertReport, SolidReport};
use crate::solid::{
    CagedSolid, FillProblem, MAX_LATTICE_POINTS, Solid, SolidOptions, fill, fill_caged,
};
use crate::springs::{LISTED, joined};
use glam::Vec3;
use std::path::Path;

/// Fills the welded surface (`positions`, `triangles`) of the mesh from `file` as a solid,
/// dropping the struts that join two nodes a surface spring of `surface` joins already.
pub(crate) fn fill_surface(
    (positions, triangles): (&[Vec3], &[[u32; 3]]),
    options: &SolidOptions,
    mass: MassMode,
    surface: [&[u64]; 4],
    file: &Path,
) -> Result<Solid, ConvertError> {
    let mut solid = fill(positions, triangles, options, mass).map_err(|p| problem(p, file))?;
    // A strut may join two surface nodes that a bend or vicinity spring joins already.
    let taken = joined(positions.len(), &surface);
    solid.springs.retain(|spring| !taken.contains(spring.a.0, spring.b.0));
    Ok(solid)
}

/// The cage over the welded surface (`positions`, `triangles`) of the mesh from `file`.
pub(crate) fn fill_cage(
    (positions, triangles): (&[Vec3], &[[u32; 3]]),
    options: &SolidOptions,
    mass: MassMode,
    file: &Path,
) -> Result<CagedSolid, ConvertError> {
    fill_caged(positions, triangles, options, mass).map_err(|p| problem(p, file))
}

/// A fill's problem as an error about `file`.
fn problem(p: FillProblem, file: &Path) -> ConvertError {
    match p {
        FillProblem::TooFine { points, spacing } => ConvertError::TooLarge {
            file: file.to_path_buf(),
            what: format!(
                "a solid fill of spacing {spacing} m ({points} lattice points; at most {MAX_LATTICE_POINTS})"
            ),
        },
        FillProblem::NoVolume => ConvertError::NotSolid { file: file.to_path_buf() },
    }
}

/// The solid's part of the report, its nodes weighing `masses` in all: what was filled, and
/// warnings for a fill with no interior node and for surface nodes bound to none.
pub(crate) fn report(solid: &Solid, masses: &[f32], report: &mut ConvertReport) {
    report.solid = Some(SolidReport {
        interior_nodes: solid.interior.len(),
        spacing: solid.spacing,
        youngs_modulus: solid.modulus,
        volume: solid.volume,
        mass: masses.iter().sum(),
        skin_vertices: None,
    });
    report.warn(
        "empty_solid",
        usize::from(solid.interior.is_empty()),
        Vec::new(),
        format!(
            "no lattice point at spacing {} m lies inside the surface: nothing was filled (try a smaller solid spacing)",
            solid.spacing
        ),
    );
    report.warn(
        "unbound_surface",
        solid.unbound.len(),
        solid.unbound.iter().take(LISTED).copied().collect(),
        format!(
            "{} surface nodes have no interior node on their inner side and are held by the surface alone (nodes listed)",
            solid.unbound.len()
        ),
    );
}
