//! # Welding
//!
//! Exporters split a vertex wherever its uv or normal changes (a texture seam, a hard edge),
//! so one point of the surface arrives as several vertices. Simulated as they are, the mesh
//! would tear along every seam. Welding makes all vertices within a tolerance of each other
//! one node; each face corner keeps its own uv index, so the seam still textures right.
//!
//! Vertices are taken in file order; each joins the first earlier *representative* within
//! the tolerance, or becomes one. Candidates are found in a hash grid of cells 4 × the
//! tolerance wide: a vertex more than the tolerance from its cell's faces (half of them)
//! only looks in its own cell, the others also in the neighbouring cells they are near, so
//! the work is linear in the number of vertices. A tolerance of 0 welds identical positions
//! only (0.0 and −0.0 are identical).

use crate::mesh::RawMesh;
use crate::options::DEFAULT_RELATIVE_WELD;
use crate::report::ConvertReport;
use crate::springs::LISTED;
use glam::Vec3;
use rustc_hash::FxHashMap;
use springmesh_core::Aabb;

/// "No vertex" in the per-cell chains.
const NONE: u32 = u32::MAX;

/// For every position, the index of the position it is welded to (itself when it is a
/// representative). Representatives always come before the vertices welded to them.
pub fn weld(positions: &[Vec3], tolerance: f32) -> Vec<u32> {
    if tolerance > 0.0 { weld_near(positions, tolerance) } else { weld_exact(positions) }
}

fn weld_exact(positions: &[Vec3]) -> Vec<u32> {
    let mut first: FxHashMap<[u32; 3], u32> = FxHashMap::default();
    positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            *first.entry((*p + Vec3::ZERO).to_array().map(f32::to_bits)).or_insert(i as u32)
        })
        .collect()
}

fn weld_near(positions: &[Vec3], tolerance: f32) -> Vec<u32> {
    let cell = 4.0 * f64::from(tolerance);
    let tolerance_squared = tolerance * tolerance;
    let mut heads: FxHashMap<[i64; 3], u32> = FxHashMap::default();
    let mut next = vec![NONE; positions.len()];
    let mut welded_to = Vec::with_capacity(positions.len());
    for (i, p) in positions.iter().enumerate() {
        let scaled = p.as_dvec3() / cell;
        let home = scaled.floor();
        let frac = scaled - home;
        let home = home.to_array().map(|c| c as i64);
        // Neighbouring cells on each axis: this one, and the one beyond the face within reach.
        let near = |f: f64| -> &'static [i64] {
            if f < 0.25 {
                &[0, -1]
            } else if f > 0.75 {
                &[0, 1]
            } else {
                &[0]
            }
        };
        // The earliest representative within reach (NONE is larger than every index).
        let mut found = NONE;
        for &dx in near(frac.x) {
            for &dy in near(frac.y) {
                for &dz in near(frac.z) {
                    let key = [home[0] + dx, home[1] + dy, home[2] + dz];
                    let mut r = heads.get(&key).copied().unwrap_or(NONE);
                    while r != NONE {
                        if positions[r as usize].distance_squared(*p) <= tolerance_squared {
                            found = found.min(r);
                        }
                        r = next[r as usize];
                    }
                }
            }
        }
        if found == NONE {
            found = i as u32;
            let head = heads.entry(home).or_insert(NONE);
            next[i] = *head;
            *head = found;
        }
        welded_to.push(found);
    }
    welded_to
}

/// The mesh after welding: node positions, and triangles and quads in node indices.
pub(crate) struct Welded {
    pub positions: Vec<Vec3>,
    /// Each vertex of the file's node, if it has one.
    pub node_of_vertex: Vec<Option<u32>>,
    pub triangles: Vec<[u32; 3]>,
    pub triangle_uvs: Vec<Option<[u32; 3]>>,
    pub quads: Vec<[u32; 4]>,
}

impl Welded {
    /// Welds `mesh` within `tolerance` (by default [`DEFAULT_RELATIVE_WELD`] of its bounding
    /// box's diagonal), drops triangles that collapse and vertices no triangle uses, and
    /// numbers the remaining representatives in file order; the report counts and warns.
    pub(crate) fn new(
        mesh: &RawMesh,
        tolerance: Option<f32>,
        report: &mut ConvertReport,
    ) -> Welded {
        let diagonal = Aabb::from_points(&mesh.positions).map_or(0.0, |b| b.diagonal());
        let tolerance = tolerance.unwrap_or(DEFAULT_RELATIVE_WELD * diagonal);
        report.weld_tolerance = tolerance;
        let welded_to = weld(&mesh.positions, tolerance);
        report.welded = welded_to.iter().enumerate().filter(|&(i, &r)| r as usize != i).count();
        let (mut triangles, triangle_uvs, dropped) = kept_triangles(mesh, &welded_to);
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
        report.dropped_triangles = dropped.0;
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
        let zero_area = zero_area(&positions, &triangles);
        report.zero_area_triangles = zero_area.len();
        warn(report, dropped, &zero_area, unused, tolerance);
        Welded { positions, node_of_vertex, triangles, triangle_uvs, quads }
    }
}

/// The triangles of `mesh` whose corners stay distinct once welded (`welded_to`), in welded
/// vertex indices, with their uvs; and how many were dropped, with the first few.
#[allow(clippy::type_complexity)]
fn kept_triangles(
    mesh: &RawMesh,
    welded_to: &[u32],
) -> (Vec<[u32; 3]>, Vec<Option<[u32; 3]>>, (usize, Vec<usize>)) {
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
    (triangles, triangle_uvs, (dropped, first_dropped))
}

/// The triangles (over `positions`) whose area is zero.
fn zero_area(positions: &[Vec3], triangles: &[[u32; 3]]) -> Vec<usize> {
    triangles
        .iter()
        .enumerate()
        .filter(|(_, t)| {
            let [a, b, c] = t.map(|v| positions[v as usize]);
            (b - a).cross(c - a).length_squared() == 0.0
        })
        .map(|(i, _)| i)
        .collect()
}

/// Welding's warnings: triangles `dropped` (with the first few), of `zero_area`, vertices
/// `unused`, vertices welded within `tolerance`.
fn warn(
    report: &mut ConvertReport,
    (dropped, first_dropped): (usize, Vec<usize>),
    zero_area: &[usize],
    unused: usize,
    tolerance: f32,
) {
    report.warn(
        "degenerate_triangles",
        dropped,
        first_dropped,
        format!("{dropped} triangles had two corners on the same node after welding and were dropped (file triangles listed)"),
    );
    report.warn(
        "zero_area_triangles",
        zero_area.len(),
        zero_area.iter().take(LISTED).copied().collect(),
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn seam_copies_join_and_distinct_points_stay() {
        let p =
            [Vec3::ZERO, Vec3::X, Vec3::new(1e-7, 0.0, 0.0), Vec3::new(-0.0, 0.0, 0.0), Vec3::Y];
        assert_eq!(weld(&p, 1e-6), vec![0, 1, 0, 0, 4]);
        assert_eq!(weld(&p, 0.0), vec![0, 1, 2, 0, 4]);
    }

    proptest! {
        /// Agrees with the all-pairs definition: each vertex joins the first earlier
        /// representative within the tolerance.
        #[test]
        fn matches_brute_force(points in prop::collection::vec((0u8..6, 0u8..6, 0u8..6), 1..80), jitter in 0.0f32..0.4) {
            let tol = 0.25;
            let positions: Vec<Vec3> = points.iter().enumerate()
                .map(|(i, &(x, y, z))| Vec3::new(x.into(), y.into(), z.into()) * 0.3 + Vec3::splat(jitter * (i % 3) as f32 * 0.1))
                .collect();
            let mut expected: Vec<u32> = Vec::new();
            for (i, p) in positions.iter().enumerate() {
                let rep = (0..i).find(|&r| expected[r] == r as u32 && positions[r].distance_squared(*p) <= tol * tol);
                expected.push(rep.unwrap_or(i) as u32);
            }
            prop_assert_eq!(weld(&positions, tol), expected);
        }
    }
}
