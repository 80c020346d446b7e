//! The finishing stage of a conversion: the model assembled from what the stages made — the
//! nodes with their masses, every kind of spring with its settings (or the solid's material),
//! painted pins and stiffness, faces and uvs, the metadata — and the report's counts.

use crate::ConvertError;
use crate::masses::model_masses;
use crate::mesh::RawMesh;
use crate::options::{ConvertOptions, SpringSettings, THICKNESS_PER_EDGE, Thickness};
use crate::painted::Painted;
use crate::report::{ConvertReport, SpringCounts, WornReport};
use crate::solid::{self, Solid, stage};
use crate::springs::SurfacePairs;
use crate::topology::unkey;
use crate::weld::Welded;
use glam::Vec3;
use springmesh_core::model::{
    DEFAULT_SELF_FRICTION, Faces, Nodes, SelfCollision, Springs, Tethers,
};
use springmesh_core::{Face, Metadata, Node, NodeId, Spring, SpringKind, SpringModel};
use std::path::Path;

/// What the earlier stages made.
pub(crate) struct Made<'a> {
    pub welded: &'a Welded,
    pub pairs: &'a SurfacePairs,
    pub vicinity: &'a [u64],
    pub solid: Option<&'a Solid>,
}

/// The model of `made` from `mesh` (its uvs are taken), converted from `source` with
/// `options`; the report gets the counts, masses and painted data, the solid and its parts.
pub(crate) fn model(
    made: &Made,
    mesh: &mut RawMesh,
    options: &ConvertOptions,
    source: &Path,
    report: &mut ConvertReport,
) -> Result<SpringModel, ConvertError> {
    let mut springs = springs(made, options, source)?;
    let welded = made.welded;
    let surface_nodes = welded.positions.len();
    let painted = || {
        Painted::combine(mesh, &welded.node_of_vertex, surface_nodes, options.pin_color).checked()
    };
    let surface = (&welded.positions[..], &welded.triangles[..]);
    let solid_masses = made.solid.map(|s| &s.masses[..]);
    let (masses, painted) = model_masses(options.mass, solid_masses, surface, painted, report)?;
    report.weighted_springs = painted.scale_stiffness(&mut springs);
    let interior = made.solid.map_or(&[][..], |s| &s.interior[..]);
    let positions = welded.positions.iter().chain(interior);
    let mut model = SpringModel {
        nodes: nodes(positions, &masses),
        springs,
        anchors: painted.anchors().map(NodeId).collect(),
        faces: faces(welded),
        uvs: std::mem::take(&mut mesh.uvs),
        metadata: metadata(source, options),
        ..SpringModel::default()
    };
    let rig = made
        .solid
        .is_none()
        .then(|| crate::rigging::rig(mesh, &welded.node_of_vertex, surface_nodes, &painted.pinned));
    if let Some(rig) = rig.flatten() {
        let kinematic: Vec<u32> = crate::rigging::kinematic(&rig).collect();
        for node in kinematic.into_iter().map(NodeId) {
            if !model.anchors.contains(&node) {
                model.anchors.push(node);
            }
        }
        let mut rig = rig;
        let free: Vec<Vec3> = (model.nodes.positions().iter().enumerate())
            .filter(|(i, _)| !model.anchors.contains(&NodeId(*i as u32)))
            .map(|(_, &p)| p)
            .collect();
        let radius = model.params.node_radius;
        let (shrunk, dropped) = crate::rigging::clear_of_rest(&mut rig.colliders, &free, radius);
        report.warn(
            "character_colliders_shrunk",
            shrunk,
            Vec::new(),
            format!(
                "{shrunk} body colliders held some of the cloth at rest: made thinner to clear \
                 it ({dropped} left thinner than {} m, dropped)",
                crate::rigging::MIN_RADIUS
            ),
        );
        let bare = crate::rigging::bare_joints(&mesh.character, &rig.joints, &rig.colliders);
        report.warn(
            "bare_joints",
            bare.len(),
            Vec::new(),
            format!(
                "no collider for the body where it follows {}: too little of the body lies \
                 along that bone (add edge loops there), so the cloth can go through there",
                bare.join(", "),
            ),
        );
        let holds = rig.holds();
        report.worn = Some(WornReport {
            kinematic: holds.kinematic,
            leashed: holds.leashed,
            free: holds.free,
            character_colliders: rig.colliders.len(),
        });
        if holds.kinematic == 0 {
            let message = "no node follows the skin: nothing holds the cloth on the character \
                but its max distances (paint _MAX_DISTANCE 0 or _PIN where it is sewn on)";
            report.warn("no_kinematic", model.nodes.len(), Vec::new(), message.into());
        }
        model.rig = Some(rig);
        model.params.substeps = crate::rigging::WORN_SUBSTEPS;
    } else if made.solid.is_some() && !mesh.skeleton.is_empty() {
        report.warn(
            "rig",
            1,
            Vec::new(),
            "the mesh's skeleton is not kept for a solid: convert it without --solid to wear it"
                .into(),
        );
    }
    if made.solid.is_some() {
        solid_params(&mut model);
    } else if !model.faces.is_empty() {
        // A sheet: its stretch springs stand for cloth that all but does not stretch, which
        // the springs alone cannot hold at a game's few sub-steps (SimParams::tethers).
        model.params.tethers = Some(Tethers::default());
    }
    // A worn cloth folds onto itself as the character moves (a cape swinging round as it
    // turns): it collides with itself unless told a thickness.
    let worn = model.rig.is_some().then_some(Thickness::FromEdges);
    if let Some(thickness) = options.self_collision.or(worn) {
        model.params.self_collision = Some(self_collision(&model, thickness));
    }
    count(made, &model, report);
    if let Some(s) = made.solid {
        stage::report(s, &masses, report);
    }
    Ok(model)
}

/// Self-collision for `model` with `thickness`: [`Thickness::FromEdges`] takes
/// [`THICKNESS_PER_EDGE`] of the mean stretch spring (of every spring when there is none).
pub fn self_collision(model: &SpringModel, thickness: Thickness) -> SelfCollision {
    let mean = |kind: Option<SpringKind>| {
        let springs = model.springs.iter().filter(|s| kind.is_none_or(|k| s.kind == k));
        let lengths = springs.map(|s| f64::from(s.rest_length));
        let (sum, count) = lengths.fold((0.0, 0u32), |(sum, n), l| (sum + l, n + 1));
        (count > 0).then(|| (sum / f64::from(count)) as f32)
    };
    let thickness = match thickness {
        Thickness::Metres(t) => t,
        Thickness::FromEdges => {
            let edge = mean(Some(SpringKind::Stretch)).or_else(|| mean(None)).unwrap_or(0.0);
            THICKNESS_PER_EDGE * edge
        }
    };
    SelfCollision { thickness, friction: DEFAULT_SELF_FRICTION }
}

/// The report's count of `model`'s separate parts, and a warning when there are several.
/// The nodes at `positions` with `masses`.
pub(crate) fn nodes<'a>(positions: impl Iterator<Item = &'a Vec3>, masses: &[f32]) -> Nodes {
    positions.zip(masses).map(|(&position, &mass)| Node { position, mass }).collect()
}

/// The welded mesh's triangles with their uvs, as the model's (or its skin's) faces.
pub(crate) fn faces(welded: &Welded) -> Faces {
    let uvs = &welded.triangle_uvs;
    welded.triangles.iter().zip(uvs).map(|(t, &uvs)| Face { nodes: t.map(NodeId), uvs }).collect()
}

/// What a model records of its conversion: its name, the mesh and the options.
pub(crate) fn metadata(source: &Path, options: &ConvertOptions) -> Metadata {
    Metadata {
        name: source.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
        source: Some(source.display().to_string()),
        conversion: options.to_metadata(),
    }
}

/// A solid's parameters: its sub-steps and shape matching over its drawn surface.
pub(crate) fn solid_params(model: &mut SpringModel) {
    model.params.substeps = solid::SUBSTEPS;
    model.params.shape_matching = Some(solid::shape_matching(model.surface_positions()));
}

pub(crate) fn parts(model: &SpringModel, report: &mut ConvertReport) {
    report.components = model.parts().count;
    report.warn(
        "components",
        usize::from(report.components > 1) * report.components,
        Vec::new(),
        format!("the model is {} separate parts that no spring joins", report.components),
    );
}

/// Every spring of `made`: stretch, shear, bend and vicinity pairs with the settings of
/// `options` (on a solid, the surface's stiffness and damping from its material), then the
/// solid's interior springs. An error when they would be more than a `u32` can count.
fn springs(made: &Made, options: &ConvertOptions, source: &Path) -> Result<Springs, ConvertError> {
    let pairs = made.pairs;
    let groups: [(&[u64], SpringKind, SpringSettings); 4] = [
        (&pairs.stretch, SpringKind::Stretch, options.stretch),
        (&pairs.shear, SpringKind::Stretch, options.stretch),
        (&pairs.bend, SpringKind::Bend, options.bend_springs),
        (made.vicinity, SpringKind::Vicinity, options.vicinity),
    ];
    let interior = made.solid.map_or(&[][..], |s| &s.springs[..]);
    let total: usize = groups.iter().map(|g| g.0.len()).sum::<usize>() + interior.len();
    if total > u32::MAX as usize {
        let what = format!("{total} springs");
        return Err(ConvertError::TooLarge { file: source.to_path_buf(), what });
    }
    let positions = &made.welded.positions;
    let mut springs = Springs::with_capacity(total);
    for (keys, kind, settings) in groups {
        for &k in keys {
            let (a, b) = unkey(k);
            let rest = positions[a as usize].distance(positions[b as usize]);
            let (stiffness, damping) = match made.solid {
                Some(s) if kind != SpringKind::Vicinity => s.surface_spring(a, b, kind, rest),
                _ => (settings.stiffness, settings.damping),
            };
            let spring = Spring::new(NodeId(a), NodeId(b), rest, stiffness, kind);
            springs.push(spring.with_damping(damping));
        }
    }
    for &spring in interior {
        springs.push(spring);
    }
    Ok(springs)
}

/// The report's counts of `model`, made from `made`.
fn count(made: &Made, model: &SpringModel, report: &mut ConvertReport) {
    let pairs = made.pairs;
    report.anchors = model.anchors.len();
    report.nodes = model.nodes.len();
    report.faces = model.faces.len();
    report.springs = SpringCounts {
        stretch: pairs.stretch.len() + pairs.shear.len(),
        bend: pairs.bend.len(),
        vicinity: made.vicinity.len(),
        manual: 0,
        interior: made.solid.map_or(0, |s| s.springs.len()),
        total: model.springs.len(),
        shear: pairs.shear.len(),
    };
}
