//! The conversion pipeline: scale → weld → topology → springs → vicinity → solid fill → masses →
//! model + report.

use crate::masses::node_masses;
use crate::mesh::{RawMesh, Texture};
use crate::options::{ConvertOptions, DEFAULT_RELATIVE_WELD, SpringSettings};
use crate::painted::Painted;
use crate::report::{ConvertReport, SolidReport, SpringCounts};
use crate::solid::{FillProblem, MAX_LATTICE_POINTS, fill};
use crate::springs::{LISTED, MAX_FAN, joined, surface_pairs};
use crate::topology::unkey;
use crate::vicinity::vicinity_pairs;
use crate::weld::weld;
use crate::{ConvertError, import};
use glam::Vec3;
use springmesh_core::{
    Aabb, CoreError, Face, Metadata, Node, NodeId, Spring, SpringKind, SpringModel,
};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// A finished conversion.
#[derive(Clone, Debug)]
pub struct Conversion {
    /// The spring model.
    pub model: SpringModel,
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
    if let Some(reason) = options.problem() {
        return Err(ConvertError::Options { reason });
    }
    control.enter(Stage::Reading)?;
    let bytes = springmesh_core::io::read_file(path).map_err(|e| match e {
        CoreError::Io { file, cause } => ConvertError::Io { file, cause },
        other => ConvertError::Io {
            file: path.to_path_buf(),
            cause: std::io::Error::other(other.to_string()),
        },
    })?;
    let mesh = import::read(path, &bytes, &options.limits)?;
    drop(bytes);
    convert_mesh_with(mesh, options, path, control)
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
    mut mesh: RawMesh,
    options: &ConvertOptions,
    source: &Path,
    control: Control,
) -> Result<Conversion, ConvertError> {
    if let Some(reason) = options.problem() {
        return Err(ConvertError::Options { reason });
    }
    if mesh.triangles.is_empty() {
        return Err(ConvertError::NoTriangles {
            file: source.to_path_buf(),
            points: mesh.points,
            lines: mesh.lines,
        });
    }
    if let Some(vertex) = mesh.positions.iter().position(|p| !p.is_finite()) {
        return Err(ConvertError::NonFinite { file: source.to_path_buf(), vertex });
    }
    if let Some(t) =
        mesh.triangles.iter().position(|t| t.iter().any(|&i| i as usize >= mesh.positions.len()))
    {
        let what = format!("triangle {t} names a vertex that does not exist");
        return Err(ConvertError::TooLarge { file: source.to_path_buf(), what });
    }
    if options.scale != 1.0 {
        for p in &mut mesh.positions {
            *p *= options.scale;
        }
        if let Some(vertex) = mesh.positions.iter().position(|p| !p.is_finite()) {
            return Err(ConvertError::NonFinite { file: source.to_path_buf(), vertex });
        }
    }
    let limit = springmesh_core::model::MAX_COORDINATE;
    if let Some(vertex) = mesh.positions.iter().position(|p| p.abs().max_element() > limit) {
        return Err(ConvertError::FarVertex { file: source.to_path_buf(), vertex, limit });
    }
    let mut report = ConvertReport {
        skipped_points: mesh.points,
        skipped_lines: mesh.lines,
        ..Default::default()
    };

    control.enter(Stage::Welding)?;
    let diagonal = Aabb::from_points(&mesh.positions).map_or(0.0, |b| b.diagonal());
    let tolerance = options.weld_tolerance.unwrap_or(DEFAULT_RELATIVE_WELD * diagonal);
    report.weld_tolerance = tolerance;
    let welded = Welded::new(&mesh, tolerance, &mut report);

    control.enter(Stage::Springs)?;
    let pairs = surface_pairs(
        welded.positions.len(),
        &welded.triangles,
        &welded.quads,
        options.bend,
        options.quad_shear,
    );
    report.boundary_edges = pairs.boundary_edges;
    report.non_manifold_edges = pairs.non_manifold_count;
    let first_edges =
        pairs.non_manifold_edges.iter().flat_map(|&(a, b)| [a as usize, b as usize]).collect();
    report.warn(
        "non_manifold_edges",
        pairs.non_manifold_count,
        first_edges,
        format!(
            "{} edges have three or more triangles (node pairs listed)",
            pairs.non_manifold_count
        ),
    );
    report.warn(
        "crowded_edges",
        pairs.crowded_edges,
        Vec::new(),
        format!(
            "{} edges have more than {MAX_FAN} different triangles: their bend springs only join neighbours",
            pairs.crowded_edges
        ),
    );

    control.enter(Stage::Vicinity)?;
    let vicinity = match options.vicinity_radius {
        Some(r) => {
            let joined =
                joined(welded.positions.len(), &[&pairs.stretch, &pairs.shear, &pairs.bend]);
            vicinity_pairs(&welded.positions, r, options.vicinity_cap, &joined)
        }
        None => Vec::new(),
    };

    control.enter(Stage::Solid)?;
    let mut solid = match &options.solid {
        Some(solid) => Some(
            fill(&welded.positions, &welded.triangles, solid, options.mass).map_err(|p| match p {
                FillProblem::TooFine { points, spacing } => ConvertError::TooLarge {
                    file: source.to_path_buf(),
                    what: format!(
                        "a solid fill of spacing {spacing} m ({points} lattice points; at most {MAX_LATTICE_POINTS})"
                    ),
                },
                FillProblem::NoVolume => ConvertError::NotSolid { file: source.to_path_buf() },
            })?,
        ),
        None => None,
    };
    if let Some(s) = &mut solid {
        // A strut may join two surface nodes that a bend or vicinity spring joins already.
        let lists = [&pairs.stretch[..], &pairs.shear, &pairs.bend, &vicinity];
        let taken = joined(welded.positions.len(), &lists);
        s.springs.retain(|spring| !taken.contains(spring.a.0, spring.b.0));
    }

    control.enter(Stage::Finishing)?;
    let groups: [(&[u64], SpringKind, SpringSettings); 4] = [
        (&pairs.stretch, SpringKind::Stretch, options.stretch),
        (&pairs.shear, SpringKind::Stretch, options.stretch),
        (&pairs.bend, SpringKind::Bend, options.bend_springs),
        (&vicinity, SpringKind::Vicinity, options.vicinity),
    ];
    let interior = solid.as_ref().map_or(0, |s| s.springs.len());
    let total: usize = groups.iter().map(|g| g.0.len()).sum::<usize>() + interior;
    if total > u32::MAX as usize {
        return Err(ConvertError::TooLarge {
            file: source.to_path_buf(),
            what: format!("{total} springs"),
        });
    }
    let mut model = SpringModel::default();
    let (masses, area_fallback) = match &solid {
        Some(s) => (s.masses.clone(), false),
        None => node_masses(options.mass, &welded.positions, &welded.triangles),
    };
    if masses.iter().any(|&m| !(m.is_finite() && m > 0.0)) {
        let reason = "a mass from a density needs a closed surface: this mesh encloses no volume";
        return Err(ConvertError::Options { reason: reason.into() });
    }
    report.warn(
        "area_masses",
        usize::from(area_fallback),
        Vec::new(),
        "some nodes touch only zero-area triangles: masses are shared evenly instead of by area"
            .into(),
    );
    let painted =
        Painted::combine(&mesh, &welded.node_of_vertex, welded.positions.len(), options.pin_color);
    if painted.mass.iter().any(|&f| !(f.is_finite() && f > 0.0)) {
        let reason = "a painted _MASS must be a number > 0 wherever it is painted";
        return Err(ConvertError::Options { reason: reason.into() });
    }
    let masses: Vec<f32> =
        masses.iter().enumerate().map(|(n, &m)| m * painted.mass_factor(n)).collect();
    report.weighted_masses = painted.mass.iter().filter(|&&f| f != 1.0).count();
    let interior_positions = solid.as_ref().map_or(&[][..], |s| &s.interior[..]);
    model.nodes = welded
        .positions
        .iter()
        .chain(interior_positions)
        .zip(&masses)
        .map(|(&position, &mass)| Node { position, mass })
        .collect();
    model.springs = springmesh_core::model::Springs::with_capacity(total);
    for (keys, kind, settings) in groups {
        for &k in keys {
            let (a, b) = unkey(k);
            let rest = welded.positions[a as usize].distance(welded.positions[b as usize]);
            let (stiffness, damping) = match &solid {
                Some(s) if kind != SpringKind::Vicinity => s.surface_spring(a, b, kind, rest),
                _ => (settings.stiffness, settings.damping),
            };
            model.springs.push(
                Spring::new(NodeId(a), NodeId(b), rest, stiffness, kind).with_damping(damping),
            );
        }
    }
    if let Some(s) = &solid {
        for &spring in &s.springs {
            model.springs.push(spring);
        }
    }
    if !painted.stiffness.is_empty() {
        let mut springs: Vec<Spring> = model.springs.iter().collect();
        for spring in &mut springs {
            let factor = painted.stiffness_factor(spring.a.0, spring.b.0);
            if factor != 1.0 {
                report.weighted_springs += 1;
                spring.stiffness *= factor.max(0.0);
            }
        }
        model.springs = springs.into_iter().collect();
    }
    model.anchors = painted.anchors().map(NodeId).collect();
    report.anchors = model.anchors.len();
    model.faces = welded
        .triangles
        .iter()
        .zip(&welded.triangle_uvs)
        .map(|(t, &uvs)| Face { nodes: t.map(NodeId), uvs })
        .collect();
    model.uvs = mesh.uvs;
    if let Some(s) = &solid {
        model.params.substeps = s.substeps;
    }
    model.metadata = Metadata {
        name: source.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
        source: Some(source.display().to_string()),
        conversion: options.to_metadata(),
    };

    report.nodes = model.nodes.len();
    report.faces = model.faces.len();
    report.springs = SpringCounts {
        stretch: pairs.stretch.len() + pairs.shear.len(),
        bend: pairs.bend.len(),
        vicinity: vicinity.len(),
        manual: 0,
        interior,
        total,
        shear: pairs.shear.len(),
    };
    if let Some(s) = &solid {
        report.solid = Some(SolidReport {
            interior_nodes: s.interior.len(),
            spacing: s.spacing,
            youngs_modulus: s.modulus,
            volume: s.volume,
            mass: masses.iter().sum(),
        });
        report.warn(
            "empty_solid",
            usize::from(s.interior.is_empty()),
            Vec::new(),
            format!(
                "no lattice point at spacing {} m lies inside the surface: nothing was filled (try a smaller solid spacing)",
                s.spacing
            ),
        );
        report.warn(
            "unbound_surface",
            s.unbound.len(),
            s.unbound.iter().take(LISTED).copied().collect(),
            format!(
                "{} surface nodes have no interior node on their inner side and are held by the surface alone (nodes listed)",
                s.unbound.len()
            ),
        );
    }
    report.components = model.parts().count;
    report.warn(
        "components",
        usize::from(report.components > 1) * report.components,
        Vec::new(),
        format!("the model is {} separate parts that no spring joins", report.components),
    );
    report.warn(
        "points_and_lines",
        mesh.points + mesh.lines,
        Vec::new(),
        format!("{} points and {} line segments were skipped", mesh.points, mesh.lines),
    );
    for note in mesh.notes {
        report.warn("material", 1, Vec::new(), note);
    }
    model
        .validate()
        .map_err(|problems| ConvertError::Invalid { file: source.to_path_buf(), problems })?;
    Ok(Conversion { model, report, texture: mesh.texture })
}

/// The mesh after welding: node positions, and triangles and quads in node indices.
struct Welded {
    positions: Vec<Vec3>,
    /// Each vertex of the file's node, if it has one.
    node_of_vertex: Vec<Option<u32>>,
    triangles: Vec<[u32; 3]>,
    triangle_uvs: Vec<Option<[u32; 3]>>,
    quads: Vec<[u32; 4]>,
}

impl Welded {
    /// Welds `mesh` within `tolerance`, drops triangles that collapse and vertices no triangle
    /// uses, and numbers the remaining representatives in file order.
    fn new(mesh: &RawMesh, tolerance: f32, report: &mut ConvertReport) -> Welded {
        let welded_to = weld(&mesh.positions, tolerance);
        report.welded = welded_to.iter().enumerate().filter(|&(i, &r)| r as usize != i).count();
        let mut triangles = Vec::with_capacity(mesh.triangles.len());
        let mut triangle_uvs = Vec::with_capacity(mesh.triangles.len());
        let (mut dropped, mut first_dropped) = (0, Vec::new());
        for (i, (t, uvs)) in mesh.triangles.iter().zip(&mesh.triangle_uvs).enumerate() {
            let [a, b, c] = t.map(|v| welded_to[v as usize]);
            if a == b || b == c || a == c {
                dropped += 1;
                if first_dropped.len() < LISTED {
                    first_dropped.push(i);
                }
            } else {
                triangles.push([a, b, c]);
                triangle_uvs.push(*uvs);
            }
        }
        // Number the representatives that a kept triangle uses, in file order.
        const UNUSED: u32 = u32::MAX;
        let mut node_of = vec![UNUSED; mesh.positions.len()];
        for t in &triangles {
            for &v in t {
                node_of[v as usize] = 0;
            }
        }
        let mut positions = Vec::new();
        for (v, slot) in node_of.iter_mut().enumerate() {
            if *slot != UNUSED {
                *slot = positions.len() as u32;
                positions.push(mesh.positions[v]);
            }
        }
        let representatives =
            welded_to.iter().enumerate().filter(|&(i, &r)| r as usize == i).count();
        let unused = representatives - positions.len() + mesh.unreferenced;
        report.dropped_vertices = unused;
        report.dropped_triangles = dropped;
        for t in &mut triangles {
            *t = t.map(|v| node_of[v as usize]);
        }
        let node_of_vertex =
            welded_to.iter().map(|&r| Some(node_of[r as usize]).filter(|&n| n != UNUSED)).collect();
        let quads = mesh
            .quads
            .iter()
            .map(|q| q.map(|v| node_of[welded_to[v as usize] as usize]))
            .filter(|q| !q.contains(&UNUSED))
            .collect();
        let zero_area: Vec<usize> = triangles
            .iter()
            .enumerate()
            .filter(|(_, t)| {
                let [a, b, c] = t.map(|v| positions[v as usize]);
                (b - a).cross(c - a).length_squared() == 0.0
            })
            .map(|(i, _)| i)
            .collect();
        report.zero_area_triangles = zero_area.len();
        let listed = |v: &[usize]| v.iter().take(LISTED).copied().collect();
        report.warn(
            "degenerate_triangles",
            dropped,
            first_dropped,
            format!("{dropped} triangles had two corners on the same node after welding and were dropped (file triangles listed)"),
        );
        report.warn(
            "zero_area_triangles",
            zero_area.len(),
            listed(&zero_area),
            format!("{} triangles have zero area (model faces listed)", zero_area.len()),
        );
        report.warn(
            "unreferenced_vertices",
            unused,
            Vec::new(),
            format!("{unused} vertices are used by no triangle and were dropped"),
        );
        report.warn(
            "welded_vertices",
            report.welded,
            Vec::new(),
            format!(
                "{} vertices were merged into coincident ones (within {tolerance} m)",
                report.welded
            ),
        );
        Welded { positions, node_of_vertex, triangles, triangle_uvs, quads }
    }
}
