//! # Solids: an interior structure so a closed mesh keeps its shape
//!
//! A closed mesh converted to springs along its surface is a hollow shell: nothing resists a
//! wall folding in, and under its own weight it sags into a puddle. `--solid` fills its inside:
//!
//! 1. **Inside** ([`winding`]): the points of a lattice over the bounding box whose generalized
//!    winding number is at least ½ (so holes, cracks and overlaps fill sensibly).
//! 2. **Lattice** ([`lattice`]): those points become nodes and the body-centred cubic edges
//!    between them springs of kind `interior`: a rigid framework of tetrahedra.
//! 3. **Binding** ([`binding`]): every surface node is joined to its nearest lattice nodes on its
//!    inner side by `interior` springs, and [`struts`] brace parts too thin for the lattice
//!    (legs, tails) across.
//! 4. **Material** ([`material`]): stiffness of every spring from a Young's modulus, damping as a
//!    fraction of critical, masses from a density over the enclosed volume.
//!
//! The lattice spacing h is `--solid-spacing`, or by default the spacing that puts about as
//! many nodes inside as on the surface, h = ∛(2 V / n) for a volume V and n surface nodes (a
//! BCC lattice has 2 nodes per h³), but no finer than half the mean surface edge: the model
//! stays within about twice the surface-only node count, and the fill is as fine as the surface
//! where the surface is coarse. Interior nodes follow the surface nodes, and have no faces: the
//! game draws the same mesh.
//!
//! **Sub-steps.** Xpbd with one constraint iteration per sub-step ([`springmesh_core::sim`])
//! carries a contact's push across a body one spring a sub-step, while gravity moves every
//! node g h² a sub-step; on springs alone a resting body ends lower than its material says
//! by about C g h² H / s² of its height (H its height, s the spacing; C ≈ 1.1 measured), a
//! per cent of a 1 cm bunny at 32 sub-steps, and the converter used to buy that back with
//! sub-steps (248 for the blob of the tests at 1 cm). The shape matching below and the
//! support of the whole body (`springmesh_core::sim::contacts::body`, which answers a
//! solid's contacts as a rigid body's first, in the share its shape matching carries within
//! a sub-step) bound that error by the pull's own sag at any h, so every solid gets
//! [`SUBSTEPS`] (8) sub-steps, at any size. Measured with `springmesh check` at 8: the blob
//! at 1 cm, 1 m and 100 m 0.075%, 0.096% and 0.037%, the four-legged stilts 0.45% and 0.65°,
//! the bunny, teapot, sphere and torus of `shared/corpus` 0.18–0.43%; 12 sub-steps change
//! none of them by more than a tenth of a per cent of the diagonal.
//!
//! **Shape matching.** Springs carry a load across a body one spring a sub-step, so thin parts
//! that bear weight bend before the correction arrives: measured, a box body on four legs
//! 8 cm wide and 50 cm tall (442 surface vertices, filled to 950 nodes at 20 sub-steps) buckled
//! to 12% of its diagonal and tipped 31°. Every solid therefore gets shape matching
//! ([`springmesh_core::model::ShapeMatching`]), which pulls every node towards the rest
//! shape's best rigid motion at once. Its pull gives every node the same restoring
//! acceleration ω² per metre out of place; the frequency is chosen so that g / ω², the
//! offset of a node carrying its own weight on the pull, is [`SHAPE_SAG`] (0.5%) of the
//! diagonal D: f = √(g / (0.005 D)) / 2π, the same fraction of any body at any size. With it the four-legged body keeps 0.25% and 0.5° (3 Hz: 0.34%,
//! 0.7°; 10 Hz: 0.18%, 0.2°); the springs still give the body its own wobble and local give.
//!
//! **No bend springs** by default: the lattice holds the surface's shape, bending included, so
//! springs across the surface's triangle pairs would only add cost (a sixth of a filled
//! sphere's springs). `--bend` keeps them.

pub mod binding;
pub mod cage;
pub mod lattice;
pub mod material;
pub mod slices;
pub(crate) mod stage;
pub mod struts;
pub mod winding;

use crate::masses::{MassMode, Share, signed_volume};
use glam::Vec3;
use lattice::Lattice;
use rayon::prelude::*;
use serde::Serialize;
use springmesh_core::model::ShapeMatching;
use springmesh_core::{NodeId, Spring, SpringKind};
use winding::WindingTree;

/// Most lattice points a fill may test, so that a tiny `--solid-spacing` on a large mesh is an
/// error rather than an hour of work: 16 million points (about 8 million interior nodes at
/// most, far more than a game steps).
pub const MAX_LATTICE_POINTS: usize = 16 << 20;

/// How far (fraction of the bounding-box diagonal) a node carrying its own weight under
/// standard gravity sits off its goal on a solid's shape matching: its frequency is
/// f = √(g / (SHAPE_SAG · D)) / 2π (module docs), 5.9 Hz for a body 1.4 m across.
pub const SHAPE_SAG: f32 = 0.005;
/// The sub-steps of a solid per 60 Hz frame (module docs): below 8 a frame's contacts with
/// the ground grow coarse.
pub const SUBSTEPS: u32 = 8;
/// Horizontal sections for the default modulus: enough to resolve legs a tenth of the height.
const SLICES: usize = 64;
/// A point is inside when its winding number is above this: a hair over ½, because a point
/// on the surface itself (a lattice point in the plane of a flat face, or on an open sheet)
/// winds exactly ½ and is not inside anything.
const INSIDE: f64 = 0.5 + 1e-3;

/// How to fill a solid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SolidOptions {
    /// Lattice spacing h (m); `None`: from the mesh (see the module docs).
    pub spacing: Option<f32>,
    /// Young's modulus E (Pa); `None`: the one that makes the body sag 1% of its height under
    /// its own weight ([`material::default_modulus`]).
    pub youngs_modulus: Option<f32>,
    /// The node budget: a surface with more vertices is simulated as a cage of at most this
    /// many nodes with the mesh skinned to it ([`cage`]); `None`: [`cage::DEFAULT_MAX_NODES`].
    pub max_nodes: Option<usize>,
}

impl SolidOptions {
    /// True when a surface of `vertices` vertices is simulated as a cage.
    pub fn caged(&self, vertices: usize) -> bool {
        vertices > self.max_nodes.unwrap_or(cage::DEFAULT_MAX_NODES)
    }
}

/// A filled solid: the interior nodes, every node's mass, and the springs' material.
#[derive(Clone, Debug)]
pub struct Solid {
    /// Lattice spacing h (m).
    pub spacing: f32,
    /// Young's modulus E (Pa).
    pub modulus: f32,
    /// Volume (m³) the surface encloses.
    pub volume: f32,
    /// Positions of the interior nodes; they follow the surface nodes in the model.
    pub interior: Vec<Vec3>,
    /// The mass of every node, surface then interior (kg).
    pub masses: Vec<f32>,
    /// The lattice and binding springs, in model node indices, with stiffness and damping.
    pub springs: Vec<Spring>,
    /// Surface nodes that found no lattice node on their inner side.
    pub unbound: Vec<usize>,
    area: Vec<f32>,
}

/// Why a fill could not be made.
#[derive(Clone, Debug, PartialEq)]
pub enum FillProblem {
    /// The lattice would be larger than [`MAX_LATTICE_POINTS`].
    TooFine {
        /// Points it would have.
        points: usize,
        /// The spacing asked for (m).
        spacing: f32,
    },
    /// The surface encloses no volume (it is flat, or open with nothing inside).
    NoVolume,
}

/// Fills the surface `triangles` over `positions` (the welded surface nodes) as a solid.
pub fn fill(
    positions: &[Vec3],
    triangles: &[[u32; 3]],
    options: &SolidOptions,
    mass: MassMode,
) -> Result<Solid, FillProblem> {
    let n = positions.len();
    let (lo, hi) = bounds(positions);
    let signed = signed_volume(positions, triangles);
    let mean_edge = mean_edge(positions, triangles);
    let spacing = options.spacing.unwrap_or_else(|| {
        let even = (2.0 * signed.abs() / n.max(1) as f64).cbrt() as f32;
        even.max(0.5 * mean_edge).max(f32::MIN_POSITIVE)
    });
    let lattice = Lattice::covering(lo, hi, spacing);
    let c = lattice.cubes.as_uvec3().as_u64vec3() + 1;
    let points = c.x.saturating_mul(c.y).saturating_mul(c.z).saturating_mul(2);
    if points > MAX_LATTICE_POINTS as u64 {
        return Err(FillProblem::TooFine { points: points as usize, spacing });
    }
    let tree = WindingTree::new(positions, triangles);
    let inside: Vec<bool> = (0..lattice.points())
        .into_par_iter()
        .map(|i| tree.winding_number(lattice.point(i)).abs() > INSIDE)
        .collect();
    let mut node_of = vec![u32::MAX; lattice.points()];
    let mut interior = Vec::new();
    for (i, _) in inside.iter().enumerate().filter(|(_, inside)| **inside) {
        node_of[i] = (n + interior.len()) as u32;
        interior.push(lattice.point(i));
    }
    let volume = if signed.abs() > 0.0 {
        signed.abs() as f32
    } else {
        interior.len() as f32 * 0.5 * spacing.powi(3)
    };
    if !(volume.is_normal() && volume > 0.0) {
        return Err(FillProblem::NoVolume);
    }

    let area = material::area_shares(positions, triangles);
    let masses = masses(mass, &area, interior.len(), spacing, volume);
    let total_mass: f32 = masses.iter().sum();
    let density = total_mass / volume;
    let modulus = modulus(options, density, (positions, triangles), (lo, hi));

    let mut springs = Vec::new();
    let mut push = |a: u32, b: u32, k: f32, all: &[Vec3]| {
        let (pa, pb) = (all[a as usize], all[b as usize]);
        let m = 0.5 * (masses[a as usize] + masses[b as usize]);
        springs.push(
            Spring::new(NodeId(a), NodeId(b), pa.distance(pb), k, SpringKind::Interior)
                .with_damping(material::damping(k, m)),
        );
    };
    let all: Vec<Vec3> = positions.iter().chain(&interior).copied().collect();
    for i in 0..lattice.points() {
        if node_of[i] == u32::MAX {
            continue;
        }
        for e in lattice.edges_from(i) {
            if node_of[e.b] != u32::MAX {
                let k = material::lattice_stiffness(modulus, spacing, e.diagonal);
                push(node_of[i], node_of[e.b], k, &all);
            }
        }
    }
    let outward = if signed < 0.0 { -1.0 } else { 1.0 };
    let inward: Vec<Vec3> =
        vertex_normals(positions, triangles).into_iter().map(|v| -outward * v).collect();
    let bound = binding::bind(positions, &inward, &interior, spacing);
    let mut unbound = Vec::new();
    for (s, partners) in bound.iter().enumerate() {
        if partners.is_empty() && !interior.is_empty() {
            unbound.push(s);
        }
        for &p in partners {
            let b = (n + p as usize) as u32;
            let k = material::binding_stiffness(modulus, spacing, all[s].distance(all[b as usize]));
            push(s as u32, b, k, &all);
        }
    }
    let inside = |p: Vec3| tree.winding_number(p).abs() > INSIDE;
    for (a, b) in struts::struts(positions, &inward, spacing, inside) {
        let k = material::binding_stiffness(
            modulus,
            spacing,
            all[a as usize].distance(all[b as usize]),
        );
        push(a, b, k, &all);
    }
    Ok(Solid { spacing, modulus, volume, interior, masses, springs, unbound, area })
}

/// The modulus of `options` or the default one for a body of `density` with this surface and
/// bounding box.
fn modulus(
    options: &SolidOptions,
    density: f32,
    (positions, triangles): (&[Vec3], &[[u32; 3]]),
    (lo, hi): (Vec3, Vec3),
) -> f32 {
    let height = (hi.y - lo.y).max((hi - lo).max_element() * 1e-3).max(f32::MIN_POSITIVE);
    options.youngs_modulus.unwrap_or_else(|| {
        let areas = slices::cross_sections(positions, triangles, lo.y, lo.y + height, SLICES);
        let e = material::default_modulus(density, &areas, height / SLICES as f32);
        // No section at all (a flat or open mesh): the prism rule over the largest extent.
        let prism = || material::default_modulus(density, &[1.0], (hi - lo).max_element());
        if e.is_finite() && e > 0.0 { e } else { prism() }
    })
}

/// A solid simulated as a cage ([`cage`]): the cage's nodes and springs, and the weights by
/// which the surface's vertices follow it.
#[derive(Clone, Debug)]
pub struct CagedSolid {
    /// The cage.
    pub cage: cage::Cage,
    /// Young's modulus E (Pa).
    pub modulus: f32,
    /// Volume (m³) the surface encloses.
    pub volume: f32,
    /// The mass of every cage node (kg).
    pub masses: Vec<f32>,
    /// The cage's springs, in cage node indices, with stiffness and damping.
    pub springs: Vec<Spring>,
}

/// The cage of at most `options.max_nodes` nodes over the surface `triangles` over
/// `positions`, with its material and masses.
pub fn fill_caged(
    positions: &[Vec3],
    triangles: &[[u32; 3]],
    options: &SolidOptions,
    mass: MassMode,
) -> Result<CagedSolid, FillProblem> {
    let volume = signed_volume(positions, triangles).abs() as f32;
    if !(volume.is_normal() && volume > 0.0) {
        return Err(FillProblem::NoVolume);
    }
    let (lo, hi) = bounds(positions);
    let budget = options.max_nodes.unwrap_or(cage::DEFAULT_MAX_NODES);
    // Two lattice points per cube over the box's cubes at the starting spacing.
    let points =
        2.0 * ((hi - lo).element_product() + 1e-30) / (2.0 * volume / budget.max(1) as f32);
    if points > MAX_LATTICE_POINTS as f32 {
        let spacing = (2.0 * volume / budget.max(1) as f32).cbrt();
        return Err(FillProblem::TooFine { points: points as usize, spacing });
    }
    let tree = WindingTree::new(positions, triangles);
    let cage = cage::fit(positions, triangles, &tree, volume, budget);
    let spacing = cage.lattice.spacing;
    let masses = match mass.share(|| volume) {
        Share::PerNode(m) => vec![m; cage.nodes.len()],
        Share::Even(total) => vec![total / cage.nodes.len().max(1) as f32; cage.nodes.len()],
        Share::Proportional(total) => cage.masses(total),
    };
    let density = masses.iter().sum::<f32>() / volume;
    let modulus = modulus(options, density, (positions, triangles), (lo, hi));
    let springs = cage
        .edges
        .iter()
        .map(|&(a, b, diagonal)| {
            let k = material::lattice_stiffness(modulus, spacing, diagonal);
            let m = 0.5 * (masses[a as usize] + masses[b as usize]);
            let rest = cage.nodes[a as usize].distance(cage.nodes[b as usize]);
            Spring::new(NodeId(a), NodeId(b), rest, k, SpringKind::Interior)
                .with_damping(material::damping(k, m))
        })
        .collect();
    Ok(CagedSolid { cage, modulus, volume, masses, springs })
}

/// The shape matching of a solid whose surface is at `positions`: the frequency whose pull
/// sets a node carrying its own weight [`SHAPE_SAG`] of its bounding-box diagonal off its
/// goal (module docs).
pub fn shape_matching(positions: &[Vec3]) -> ShapeMatching {
    let (lo, hi) = bounds(positions);
    let omega_squared = 9.81 / (SHAPE_SAG * lo.distance(hi).max(f32::MIN_POSITIVE));
    ShapeMatching { frequency: omega_squared.sqrt() / std::f32::consts::TAU }
}

impl Solid {
    /// Stiffness (N/m) and damping (N·s/m) of the surface spring of `kind` between surface
    /// nodes `a` and `b` at rest length `length`.
    pub fn surface_spring(&self, a: u32, b: u32, kind: SpringKind, length: f32) -> (f32, f32) {
        let area = 0.5 * (self.area[a as usize] + self.area[b as usize]);
        let bend = kind == SpringKind::Bend;
        let k = material::surface_stiffness(self.modulus, self.spacing, area, length, bend);
        let m = 0.5 * (self.masses[a as usize] + self.masses[b as usize]);
        (k, material::damping(k, m))
    }
}

/// Every node's mass: per node as given, or a total (given, or density × volume) shared evenly
/// or in proportion to the volume each node stands for.
fn masses(mode: MassMode, area: &[f32], interior: usize, h: f32, volume: f32) -> Vec<f32> {
    let n = area.len() + interior;
    let (total, even) = match mode.share(|| volume) {
        Share::PerNode(mass) => return vec![mass; n],
        Share::Even(mass) => (mass, true),
        Share::Proportional(mass) => (mass, false),
    };
    let shares = material::volume_shares(area, interior, h);
    let sum: f32 = shares.iter().sum();
    if even || !(sum.is_finite() && sum > 0.0) || shares.iter().any(|&s| s <= 0.0) {
        return vec![total / n.max(1) as f32; n];
    }
    shares.iter().map(|s| total * s / sum).collect()
}

/// The smallest and largest corner of the box around `positions` (the origin twice for none).
pub(crate) fn bounds(positions: &[Vec3]) -> (Vec3, Vec3) {
    springmesh_core::Aabb::from_points(positions)
        .map_or((Vec3::ZERO, Vec3::ZERO), |b| (b.min, b.max))
}

/// Mean length (m) of the triangles' edges (each shared edge counted from both sides).
fn mean_edge(positions: &[Vec3], triangles: &[[u32; 3]]) -> f32 {
    let total: f64 = triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| positions[i as usize]);
            f64::from(a.distance(b) + b.distance(c) + c.distance(a))
        })
        .sum();
    (total / (3 * triangles.len()).max(1) as f64) as f32
}

/// Area-weighted vertex normals, unit length (zero for a node on no triangle with area).
fn vertex_normals(positions: &[Vec3], triangles: &[[u32; 3]]) -> Vec<Vec3> {
    let mut normals = vec![Vec3::ZERO; positions.len()];
    for t in triangles {
        let [a, b, c] = t.map(|i| positions[i as usize]);
        let n = (b - a).cross(c - a);
        for &i in t {
            normals[i as usize] += n;
        }
    }
    normals.into_iter().map(|n| n.normalize_or_zero()).collect()
}
