//! # A simulation cage: a coarse lattice that carries a dense surface
//!
//! A game pays for a frame in proportion to the nodes and springs it steps, not to the
//! artist's detail. When a solid's surface has more vertices than the node budget
//! ([`DEFAULT_MAX_NODES`], `--max-nodes`), the converter simulates a coarse BCC lattice that
//! covers the mesh instead (the cage, as Rapier's skinned soft bodies, PhysX's simulation
//! meshes and the free-form deformation lattices of games do), and keeps the mesh as a skin
//! ([`springmesh_core::model::Skin`]) that follows it.
//!
//! **Tetrahedra.** The BCC lattice ([`super::lattice`]) is the union of congruent tetrahedra,
//! each made of two neighbouring cube centres c, c' = c ± e_a and the two ends of one edge of
//! the face between their cubes (4 per face, 12 per cube). The one holding a point p is found
//! directly: in p's cube, with d = (p − c)/h, the face is on the axis a of the largest |d_a|
//! (the cube is six pyramids from its centre to its faces), and in that face the edge on the
//! side of the larger in-plane |d_u| (each pyramid is four quarter-pyramids, one per edge).
//! Its barycentric coordinates λ (p = Σ λ_i x_i, Σ λ_i = 1, all ≥ 0 inside) are the vertex's
//! weights.
//!
//! **Which tetrahedra.** Those that hold a vertex of the surface or a point sampled on its
//! triangles (at most a third of a spacing apart, so the surface's band of tetrahedra has no
//! gap), and those whose centroid is inside the mesh (winding number above ½, [`super::winding`]).
//! Their corners are the cage's nodes; then every lattice tetrahedron whose four corners are
//! nodes is kept too, so that two tetrahedra that met only at an edge (a hinge, which lets a
//! thin leg fold) are joined by the ones between them. The edges of the kept tetrahedra are the
//! cage's springs (kind `interior`, stiffness from the material as for a fill,
//! [`super::material`]).
//!
//! **Spacing.** The largest lattice whose node count fits the budget: it starts from the
//! spacing that puts the budget's nodes in the enclosed volume (two per h³) and grows by
//! [`GROWTH`] until the cage fits.
//!
//! **Mass.** The body's mass (from its density and enclosed volume, or as given) is shared by
//! the tetrahedra in proportion to their volume inside the mesh, estimated from their corners
//! and centroid (each of the five points inside counts a fifth, at least one), each giving a
//! quarter to each corner; no node gets less than the mean ([`MIN_MASS_SHARE`]), so the mass
//! is about even over the cage and a little heavier deep inside. A node of a lone tetrahedron
//! outside the mesh would otherwise get a hundredth of an interior node's mass and, on
//! springs as stiff as the rest, swing ten times faster than the sub-steps allow: on the blob
//! of the tests at 1000 nodes it shook the body until it rolled onto its back.

use super::lattice::{Lattice, Sublattice};
use super::winding::WindingTree;
use glam::{IVec3, Mat3, Vec3};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// The default node budget of a solid: a surface with more vertices is simulated as a cage of
/// at most this many nodes. A cage has about 6 springs a node; at the default material a 1 m
/// body needs 12 sub-steps (the bunny of `shared/corpus`) to 24 (the blob of the tests, whose
/// thin legs call for a stiffer material): 0.24 ms a frame for the blob on one core where the
/// seed loop of `shared/bench` takes 4.0 ns (0.45 ms where it takes 7.47 ns). At 1000 nodes
/// the blob took 0.58 ms (28 sub-steps), over the millisecond a prop may take on slower
/// machines once its skin is drawn.
pub const DEFAULT_MAX_NODES: usize = 600;

/// How much the spacing grows between two tries at fitting the budget.
pub const GROWTH: f32 = 1.08;

/// Most tries at fitting the budget (the spacing grows 1.08⁶⁴ ≈ 140 times over them).
pub const TRIES: usize = 64;

/// Samples per triangle edge are at most this many per spacing.
const SAMPLES_PER_SPACING: f32 = 3.0;

/// Most samples along one triangle edge, so that one huge triangle costs bounded work.
const MAX_EDGE_SAMPLES: usize = 64;

/// The lightest a cage node may be, as a fraction of the mean node mass (module docs): a
/// lighter node swings faster and the sub-steps follow the fastest (on the blob of the tests
/// at 1000 nodes, a floor of ½ the mean needed 36 sub-steps, ¾ 32, the mean 28; each stands
/// within 0.07%).
pub const MIN_MASS_SHARE: f64 = 1.0;

/// A tetrahedron of the lattice: four point indices (two centres, then an edge's corners).
type Tet = [usize; 4];

/// A cage over a surface.
#[derive(Clone, Debug)]
pub struct Cage {
    /// The lattice the cage is cut from.
    pub lattice: Lattice,
    /// Rest positions of the cage's nodes.
    pub nodes: Vec<Vec3>,
    /// The cage's tetrahedra, as node indices.
    pub tets: Vec<[u32; 4]>,
    /// The cage's springs: two node indices and whether it is a centre-to-corner diagonal.
    pub edges: Vec<(u32, u32, bool)>,
    /// Per surface vertex: the nodes of its tetrahedron and its barycentric weights there.
    pub bindings: Vec<([u32; 4], [f32; 4])>,
    /// Per tetrahedron: the fraction of it taken to be inside the mesh (0.2 to 1).
    pub inside: Vec<f32>,
}

/// The cage over `positions` and `triangles` (a closed surface enclosing `volume`) with at
/// most `max_nodes` nodes, or the finest one that the [`TRIES`] reach.
pub fn fit(
    positions: &[Vec3],
    triangles: &[[u32; 3]],
    tree: &WindingTree,
    volume: f32,
    max_nodes: usize,
) -> Cage {
    let mut spacing = (2.0 * volume / max_nodes.max(1) as f32).cbrt();
    let mut cage = build(positions, triangles, tree, spacing);
    for _ in 0..TRIES {
        if cage.nodes.len() <= max_nodes {
            break;
        }
        spacing *= GROWTH;
        cage = build(positions, triangles, tree, spacing);
    }
    cage
}

/// The cage of spacing `spacing` over `positions` and `triangles`.
pub fn build(positions: &[Vec3], triangles: &[[u32; 3]], tree: &WindingTree, spacing: f32) -> Cage {
    let (lo, hi) = super::bounds(positions);
    // One spacing of margin: every point of the box lies in a cube whose neighbours exist.
    let lattice = Lattice::covering(lo - spacing, hi + spacing, spacing);
    let located: Vec<Option<(Tet, [f32; 4])>> =
        positions.par_iter().map(|&p| locate(&lattice, p)).collect();
    let mut kept: FxHashSet<Tet> = located.iter().flatten().map(|(t, _)| *t).collect();
    kept.extend(
        samples(positions, triangles, spacing).filter_map(|p| locate(&lattice, p).map(|l| l.0)),
    );
    let centroid = |t: &Tet| t.iter().map(|&i| lattice.point(i)).sum::<Vec3>() / 4.0;
    let inside = |p: Vec3| tree.winding_number(p).abs() > super::INSIDE;
    let all: Vec<Tet> = tets(&lattice).collect();
    // One winding number per centroid: it picks the filled tetrahedra and weighs the masses.
    let centred: Vec<bool> = all.par_iter().map(|t| inside(centroid(t))).collect();
    // Their corners, then every tetrahedron on those corners: no two kept tetrahedra meet
    // at an edge alone (a hinge) where a third between them could join them by faces.
    let mut corner = vec![false; lattice.points()];
    for (t, &c) in all.iter().zip(&centred) {
        if c || kept.contains(t) {
            t.iter().for_each(|&p| corner[p] = true);
        }
    }
    let mut chosen: Vec<(Tet, bool)> =
        all.into_iter().zip(centred).filter(|(t, _)| t.iter().all(|&p| corner[p])).collect();
    chosen.sort_unstable_by_key(|(t, _)| *t);
    let tets: Vec<Tet> = chosen.iter().map(|(t, _)| *t).collect();

    let mut points: Vec<usize> = tets.iter().flatten().copied().collect();
    points.sort_unstable();
    points.dedup();
    let node_of: FxHashMap<usize, u32> =
        points.iter().enumerate().map(|(n, &p)| (p, n as u32)).collect();
    let node = |p: usize| node_of.get(&p).copied().unwrap_or(0);
    let nodes: Vec<Vec3> = points.iter().map(|&p| lattice.point(p)).collect();
    let point_inside: Vec<bool> = nodes.par_iter().map(|&p| inside(p)).collect();
    let fraction: Vec<f32> = chosen
        .iter()
        .map(|(t, centred)| {
            let corners = t.iter().filter(|&&p| point_inside[node(p) as usize]).count();
            (corners + usize::from(*centred)).max(1) as f32 / 5.0
        })
        .collect();
    let mut edges = FxHashSet::default();
    for t in &tets {
        for (i, j) in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)] {
            let (a, b) = (node(t[i]).min(node(t[j])), node(t[i]).max(node(t[j])));
            // A centre (slots 0, 1) to a corner (slots 2, 3) is a diagonal.
            edges.insert((a, b, (i < 2) != (j < 2)));
        }
    }
    let mut edges: Vec<(u32, u32, bool)> = edges.into_iter().collect();
    edges.sort_unstable();
    let bindings = located
        .iter()
        .zip(positions)
        .map(|(l, &p)| match l {
            Some((t, w)) => (t.map(node), *w),
            // Outside the lattice cannot happen (the margin); ride on the nearest node.
            None => ([nearest(&nodes, p), 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
        })
        .collect();
    Cage {
        lattice,
        nodes,
        tets: tets.iter().map(|t| t.map(node)).collect(),
        edges,
        bindings,
        inside: fraction,
    }
}

impl Cage {
    /// Every node's share of `total` mass (module docs).
    pub fn masses(&self, total: f32) -> Vec<f32> {
        let mut share = vec![0.0f64; self.nodes.len()];
        for (t, &f) in self.tets.iter().zip(&self.inside) {
            for &n in t {
                share[n as usize] += f64::from(f) / 4.0;
            }
        }
        // No node lighter than half the mean: a corner of one tetrahedron poking out of the
        // mesh would otherwise swing many times faster than the rest.
        let floor = MIN_MASS_SHARE * share.iter().sum::<f64>() / share.len().max(1) as f64;
        share.iter_mut().for_each(|s| *s = s.max(floor));
        let sum: f64 = share.iter().sum();
        share.iter().map(|&s| (f64::from(total) * s / sum.max(f64::MIN_POSITIVE)) as f32).collect()
    }
}

/// The index of the node nearest `p`.
fn nearest(nodes: &[Vec3], p: Vec3) -> u32 {
    let distance = |i: &usize| nodes[*i].distance_squared(p);
    (0..nodes.len()).min_by(|a, b| distance(a).total_cmp(&distance(b))).unwrap_or(0) as u32
}

/// Points on every triangle, at most a third of `spacing` apart along its edges (barycentric
/// grid), so that the tetrahedra holding them cover the surface without a gap.
fn samples<'a>(
    positions: &'a [Vec3],
    triangles: &'a [[u32; 3]],
    spacing: f32,
) -> impl Iterator<Item = Vec3> + 'a {
    triangles.iter().flat_map(move |t| {
        let [a, b, c] = t.map(|i| positions[i as usize]);
        let longest = a.distance(b).max(b.distance(c)).max(c.distance(a));
        let n = (longest * SAMPLES_PER_SPACING / spacing).ceil();
        let n = if n.is_finite() { (n as usize).clamp(1, MAX_EDGE_SAMPLES) } else { 1 };
        (0..=n).flat_map(move |i| {
            (0..=n - i).map(move |j| {
                let (u, v) = (i as f32 / n as f32, j as f32 / n as f32);
                a + u * (b - a) + v * (c - a)
            })
        })
    })
}

/// The point index of the centre of cube `c`.
fn centre(lattice: &Lattice, c: IVec3) -> Option<usize> {
    lattice.index(Sublattice::Centre, c)
}

/// The tetrahedron between cube `c` and its neighbour across the face on axis `axis` (towards
/// + when `up`), on that face's edge `edge` (0, 1: the edges along the second in-plane axis
///   at the low and high first coordinate; 2, 3: along the first at the low and high second).
///   `None` when the neighbour is outside the lattice.
fn face_tet(lattice: &Lattice, c: IVec3, axis: usize, up: bool, edge: usize) -> Option<Tet> {
    let e = |i: usize| IVec3::AXES[i % 3];
    let (ea, eu, ev) = (e(axis), e(axis + 1), e(axis + 2));
    let neighbour = if up { c + ea } else { c - ea };
    let base = if up { c + ea } else { c };
    let (from, along) = match edge {
        0 => (base, ev),
        1 => (base + eu, ev),
        2 => (base, eu),
        _ => (base + ev, eu),
    };
    let corner = |p: IVec3| lattice.index(Sublattice::Corner, p);
    let mut t =
        [centre(lattice, c)?, centre(lattice, neighbour)?, corner(from)?, corner(from + along)?];
    // One order for the two cubes that share it.
    if t[0] > t[1] {
        t.swap(0, 1);
    }
    Some(t)
}

/// Every tetrahedron of the lattice once: the faces between each cube and its + neighbours.
fn tets(lattice: &Lattice) -> impl Iterator<Item = Tet> + '_ {
    let n = lattice.cubes;
    let cubes = (0..n.z)
        .flat_map(move |z| (0..n.y).flat_map(move |y| (0..n.x).map(move |x| IVec3::new(x, y, z))));
    cubes.flat_map(move |c| {
        (0..3).flat_map(move |axis| {
            (0..4).filter_map(move |edge| face_tet(lattice, c, axis, true, edge))
        })
    })
}

/// The tetrahedron holding `p` and p's barycentric coordinates in it (module docs); `None`
/// when p is not in a cube with neighbours on every side.
pub fn locate(lattice: &Lattice, p: Vec3) -> Option<(Tet, [f32; 4])> {
    let h = lattice.spacing;
    let local = (p - lattice.origin) / h;
    let c = local.floor().as_ivec3().clamp(IVec3::ZERO, lattice.cubes - IVec3::ONE);
    let d = local - c.as_vec3() - Vec3::splat(0.5);
    let axis = if d.x.abs() >= d.y.abs() && d.x.abs() >= d.z.abs() {
        0
    } else if d.y.abs() >= d.z.abs() {
        1
    } else {
        2
    };
    let (du, dv) = (d[(axis + 1) % 3], d[(axis + 2) % 3]);
    let edge =
        if du.abs() >= dv.abs() { usize::from(du >= 0.0) } else { 2 + usize::from(dv >= 0.0) };
    let tet = face_tet(lattice, c, axis, d[axis] >= 0.0, edge)?;
    Some((tet, barycentric(tet.map(|i| lattice.point(i)), p)))
}

/// The barycentric coordinates of `p` in the tetrahedron `x`, rounding errors below zero
/// clamped and the rest scaled back to a sum of one.
fn barycentric(x: [Vec3; 4], p: Vec3) -> [f32; 4] {
    let m = Mat3::from_cols(x[1] - x[0], x[2] - x[0], x[3] - x[0]);
    let l = m.inverse() * (p - x[0]);
    let w = [1.0 - l.x - l.y - l.z, l.x, l.y, l.z].map(|w| w.max(0.0));
    let sum: f32 = w.iter().sum();
    if sum.is_finite() && sum > 0.0 { w.map(|w| w / sum) } else { [0.25; 4] }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_lies_in_the_tetrahedron_it_is_located_in() {
        let lattice = Lattice::covering(Vec3::splat(-1.0), Vec3::splat(1.0), 0.5);
        // A deterministic scatter over the inner cubes.
        for i in 0..2000 {
            let f = |k: u32| ((i * 7919 + k * 104_729) % 1000) as f32 / 1000.0;
            let p = Vec3::new(f(1), f(2), f(3)) * 1.4 - Vec3::splat(0.7);
            let (tet, w) = locate(&lattice, p).expect("inside the lattice");
            let x = tet.map(|i| lattice.point(i));
            let back: Vec3 = (0..4).map(|k| w[k] * x[k]).sum();
            assert!(back.distance(p) < 1e-5, "{p} rebuilt as {back}");
            assert!(w.iter().all(|&w| w >= 0.0) && (w.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn a_lattice_has_twelve_tetrahedra_per_cube_inside_and_they_fill_it() {
        // 3 cubes a side: the faces between cubes are 3 · (2 · 3 · 3) = 54, four tetrahedra each.
        let lattice = Lattice::covering(Vec3::ZERO, Vec3::splat(3.0), 1.0);
        let all: Vec<Tet> = tets(&lattice).collect();
        assert_eq!(all.len(), 54 * 4);
        let volume: f32 = all
            .iter()
            .map(|t| {
                let x = t.map(|i| lattice.point(i));
                (x[1] - x[0]).cross(x[2] - x[0]).dot(x[3] - x[0]).abs() / 6.0
            })
            .sum();
        // 216 tetrahedra of h³/12 each.
        assert!((volume - 18.0).abs() < 1e-4, "{volume}");
        let mut unique = all.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), all.len(), "every tetrahedron once");
    }
}
