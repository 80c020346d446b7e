//! What a conversion found and made.

use serde::Serialize;

/// Spring counts by kind (DESIGN.md's report fields) plus the shear diagonals, which are
/// stretch springs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SpringCounts {
    /// Stretch springs, shear diagonals included.
    pub stretch: usize,
    /// Bend springs.
    pub bend: usize,
    /// Vicinity springs.
    pub vicinity: usize,
    /// Manual springs (none after a conversion).
    pub manual: usize,
    /// Interior springs of a solid: its lattice and the bindings of the surface to it.
    pub interior: usize,
    /// All springs.
    pub total: usize,
    /// Of the stretch springs, those that are quad diagonals added by `quad_shear`.
    pub shear: usize,
}

/// What a solid fill made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SolidReport {
    /// Nodes inside the surface (they follow the surface nodes).
    pub interior_nodes: usize,
    /// Lattice spacing h (m).
    pub spacing: f32,
    /// Young's modulus of the material (Pa).
    pub youngs_modulus: f32,
    /// Volume the surface encloses (m³).
    pub volume: f32,
    /// Total mass (kg).
    pub mass: f32,
    /// When the solid is simulated as a cage: the vertices of the mesh skinned to it (the
    /// cage's nodes are then `interior_nodes`).
    pub skin_vertices: Option<usize>,
}

/// How a worn model is held by the character it is worn on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WornReport {
    /// Nodes that follow the skin exactly (painted max distance under 1 mm, or pinned).
    pub kinematic: usize,
    /// Nodes kept within a painted max distance of the skin.
    pub leashed: usize,
    /// Nodes the skin does not hold.
    pub free: usize,
    /// Colliders fitted to the body it is worn on.
    pub character_colliders: usize,
}

/// Something the converter got past but the artist should know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// A stable identifier: `material`, `degenerate_triangles`, `zero_area_triangles`,
    /// `unreferenced_vertices`, `welded_vertices`, `non_manifold_edges`, `points_and_lines`,
    /// `components`, `area_masses`, `unbound_surface`, `empty_solid`, `rig`, `no_kinematic`.
    pub kind: &'static str,
    /// The warning as a sentence.
    pub message: String,
    /// How many items it concerns.
    pub count: usize,
    /// The first few of them, by index (triangles, vertices or nodes, as the message says).
    pub first: Vec<usize>,
}

/// The result of a conversion, counted.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ConvertReport {
    /// Nodes of the model.
    pub nodes: usize,
    /// Triangles of the model.
    pub faces: usize,
    /// Springs by kind.
    pub springs: SpringCounts,
    /// Anchored nodes: those painted as pins (`_PIN`, or a colour channel with `--pin-color`).
    pub anchors: usize,
    /// Springs whose stiffness a painted `_STIFFNESS` changed.
    pub weighted_springs: usize,
    /// Nodes whose mass a painted `_MASS` changed.
    pub weighted_masses: usize,
    /// Vertices of the file merged into another vertex by welding.
    pub welded: usize,
    /// Vertices no kept triangle uses, dropped.
    pub dropped_vertices: usize,
    /// Triangles with two corners on one node after welding, dropped.
    pub dropped_triangles: usize,
    /// Kept triangles of zero area (three distinct nodes on a line).
    pub zero_area_triangles: usize,
    /// Edges with exactly one triangle.
    pub boundary_edges: usize,
    /// Edges with three or more triangles.
    pub non_manifold_edges: usize,
    /// Separate parts of the model (nodes joined by springs).
    pub components: usize,
    /// Point primitives skipped.
    pub skipped_points: usize,
    /// Line segments skipped.
    pub skipped_lines: usize,
    /// The weld tolerance used (m).
    pub weld_tolerance: f32,
    /// The solid fill, when one was made.
    pub solid: Option<SolidReport>,
    /// A worn model: how its nodes are held by the skin, and the body's colliders.
    pub worn: Option<WornReport>,
    /// Things to look at.
    pub warnings: Vec<Warning>,
}

impl ConvertReport {
    /// Adds a warning about `count` items (of which `first` lists some), unless `count` is 0.
    pub fn warn(&mut self, kind: &'static str, count: usize, first: Vec<usize>, message: String) {
        if count > 0 {
            self.warnings.push(Warning { kind, message, count, first });
        }
    }
}
