//! The finishing stage of a solid simulated as a cage ([`crate::solid::cage`]): the cage's
//! nodes with their masses and springs, the painted pins, stiffness and masses carried onto
//! the cage nodes, and the mesh as the model's skin — its welded vertices in their order, its
//! faces and uvs — so the game draws what the artist made.

use crate::ConvertError;
use crate::assemble;
use crate::masses::model_masses;
use crate::mesh::RawMesh;
use crate::options::ConvertOptions;
use crate::painted::Painted;
use crate::report::{ConvertReport, SolidReport, SpringCounts};
use crate::solid::CagedSolid;
use crate::weld::Welded;
use springmesh_core::model::{Skin, SkinVertex, Springs};
use springmesh_core::{NodeId, SpringModel};
use std::path::Path;

/// The model of the cage `caged` carrying the welded surface `welded` of `mesh` (its uvs are
/// taken), converted from `source` with `options`; the report gets the counts.
pub(crate) fn model(
    caged: &CagedSolid,
    welded: &Welded,
    mesh: &mut RawMesh,
    options: &ConvertOptions,
    source: &Path,
    report: &mut ConvertReport,
) -> Result<SpringModel, ConvertError> {
    let cage = &caged.cage;
    let nodes = cage.nodes.len();
    let surface = welded.positions.len();
    let painted = || {
        Painted::combine(mesh, &welded.node_of_vertex, surface, options.pin_color)
            .checked()
            .map(|p| p.onto_cage(&cage.bindings, nodes))
    };
    let welded_surface = (&welded.positions[..], &welded.triangles[..]);
    let (masses, painted) =
        model_masses(options.mass, Some(&caged.masses), welded_surface, painted, report)?;
    let mut springs: Springs = caged.springs.iter().copied().collect();
    report.weighted_springs = painted.scale_stiffness(&mut springs);
    let vertices = welded
        .positions
        .iter()
        .zip(&cage.bindings)
        .map(|(&position, (n, w))| SkinVertex { position, nodes: n.map(NodeId), weights: *w });
    let mut model = SpringModel {
        nodes: assemble::nodes(cage.nodes.iter(), &masses),
        springs,
        anchors: painted.anchors().map(NodeId).collect(),
        metadata: assemble::metadata(source, options),
        skin: Some(Skin::new(vertices, assemble::faces(welded), std::mem::take(&mut mesh.uvs))),
        ..SpringModel::default()
    };
    assemble::solid_params(&mut model);
    report.anchors = model.anchors.len();
    report.nodes = nodes;
    report.faces = welded.triangles.len();
    report.springs = SpringCounts {
        interior: caged.springs.len(),
        total: model.springs.len(),
        ..SpringCounts::default()
    };
    report.solid = Some(SolidReport {
        interior_nodes: nodes,
        spacing: cage.lattice.spacing,
        youngs_modulus: caged.modulus,
        volume: caged.volume,
        mass: masses.iter().sum(),
        skin_vertices: Some(surface),
    });
    Ok(model)
}
