//! # Which pairs of nodes get springs: the counting rules
//!
//! - **stretch**: every unordered pair of nodes that is an edge of a kept triangle, once.
//! - **shear** (with `quad_shear`): both diagonals of every quad of the source, unless the
//!   pair is already a stretch edge (one diagonal usually is: it split the quad). Shear
//!   springs have the stretch kind and settings; the report counts them separately.
//! - **bend**: for each edge shared by two or more triangles, for each pair of those
//!   triangles, the two corners opposite the edge — if they are distinct and not already
//!   joined by a stretch, shear or bend spring. Triangles repeated on an edge count once (a
//!   corner opposite it twice is one corner). An edge with more than [`MAX_FAN`] distinct
//!   opposite corners (a non-manifold seam no modeler makes on purpose) joins each corner only
//!   to the next in node order, so the pairs stay linear in its triangles (all pairs would be
//!   quadratic: 2,000 copies of two triangles took 8 s); the report counts such edges. A bend spring resists folding along the edge;
//!   on a triangle mesh it plays the part of the flexion springs between nodes two apart in
//!   Provot's grid cloth ("Deformation constraints in a mass-spring model to describe rigid
//!   cloth behavior", Graphics Interface 1995).
//!
//! Vicinity springs come last ([`crate::vicinity`]) and skip every pair joined here.

use crate::report::ConvertReport;
use crate::topology::{ByFirst, edge_table, unkey};

/// The pairs of each kind, each list sorted by pair and free of repeats.
#[derive(Debug, Default)]
pub struct SurfacePairs {
    /// Stretch pairs (triangle edges), as [`crate::topology::key`]s.
    pub stretch: Vec<u64>,
    /// Shear pairs (quad diagonals that are not edges).
    pub shear: Vec<u64>,
    /// Bend pairs.
    pub bend: Vec<u64>,
    /// Edges with one triangle.
    pub boundary_edges: usize,
    /// Edges with three or more triangles, the first few of them.
    pub non_manifold_edges: Vec<(u32, u32)>,
    /// How many non-manifold edges in all.
    pub non_manifold_count: usize,
    /// How many edges had more than [`MAX_FAN`] distinct opposite corners.
    pub crowded_edges: usize,
}

/// The most distinct corners opposite one edge that are all joined pairwise by bend springs.
pub const MAX_FAN: usize = 8;

/// How many offending items a report lists by index.
pub const LISTED: usize = 8;

/// The stretch, shear and bend pairs of `triangles` (and `quads`) over `nodes` nodes, by the
/// rules above.
pub fn surface_pairs(
    nodes: usize,
    triangles: &[[u32; 3]],
    quads: &[[u32; 4]],
    bend: bool,
    quad_shear: bool,
) -> SurfacePairs {
    let edges = edge_table(nodes, triangles);
    let mut out = SurfacePairs::default();
    let mut bend_candidates = Vec::new();
    for (edge, opposite) in edges.pairs() {
        out.stretch.push(edge);
        match opposite.len() {
            1 => out.boundary_edges += 1,
            2 => {}
            _ => {
                if out.non_manifold_edges.len() < LISTED {
                    out.non_manifold_edges.push(unkey(edge));
                }
                out.non_manifold_count += 1;
            }
        }
        if bend && opposite.len() >= 2 {
            // Sorted already (a group is sorted by value within a pair).
            let mut corners: Vec<u32> = opposite.collect();
            corners.dedup();
            let candidates: Vec<(u32, u32)> = if corners.len() > MAX_FAN {
                out.crowded_edges += 1;
                corners.windows(2).map(|w| (w[0], w[1])).collect()
            } else {
                let all = corners.iter().enumerate();
                all.flat_map(|(i, &p)| corners[i + 1..].iter().map(move |&q| (p, q))).collect()
            };
            bend_candidates.extend(candidates.into_iter().filter(|&(p, q)| !edges.contains(p, q)));
        }
    }
    if quad_shear {
        let diagonals: Vec<(u32, u32)> = quads
            .iter()
            .flat_map(|&[a, b, c, d]| [(a, c), (b, d)])
            .filter(|&(p, q)| p != q && !edges.contains(p, q))
            .collect();
        out.shear = distinct(nodes, &diagonals).pairs().map(|(k, _)| k).collect();
    }
    let shear = distinct(nodes, &out.shear.iter().map(|&k| unkey(k)).collect::<Vec<_>>());
    out.bend = distinct(nodes, &bend_candidates)
        .pairs()
        .map(|(k, _)| k)
        .filter(|&k| {
            let (a, b) = unkey(k);
            !shear.contains(a, b)
        })
        .collect();
    out
}

/// `pairs` grouped, for look-ups and for their distinct members in key order.
pub fn distinct(nodes: usize, pairs: &[(u32, u32)]) -> ByFirst<()> {
    ByFirst::new(nodes, || pairs.iter().map(|&(a, b)| (a, b, ())))
}

/// Every pair of `lists` (keys), grouped for "already joined" look-ups.
pub fn joined(nodes: usize, lists: &[&[u64]]) -> ByFirst<()> {
    ByFirst::new(nodes, || {
        lists.iter().flat_map(|l| l.iter()).map(|&k| {
            let (a, b) = unkey(k);
            (a, b, ())
        })
    })
}

impl SurfacePairs {
    /// The springs stage's part of the report: boundary and non-manifold edges, and edges too
    /// crowded for every bend spring.
    pub(crate) fn report(&self, report: &mut ConvertReport) {
        report.boundary_edges = self.boundary_edges;
        report.non_manifold_edges = self.non_manifold_count;
        let first_edges =
            self.non_manifold_edges.iter().flat_map(|&(a, b)| [a as usize, b as usize]).collect();
        report.warn(
            "non_manifold_edges",
            self.non_manifold_count,
            first_edges,
            format!(
                "{} edges have three or more triangles (node pairs listed)",
                self.non_manifold_count
            ),
        );
        report.warn(
            "crowded_edges",
            self.crowded_edges,
            Vec::new(),
            format!(
                "{} edges have more than {MAX_FAN} different triangles: their bend springs only join neighbours",
                self.crowded_edges
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(triangles: &[[u32; 3]]) -> (usize, usize) {
        let p = surface_pairs(4, triangles, &[], true, false);
        (p.stretch.len(), p.bend.len())
    }

    #[test]
    fn hand_counted_small_meshes() {
        assert_eq!(counts(&[[0, 1, 2]]), (3, 0), "one triangle");
        assert_eq!(counts(&[[0, 1, 2], [2, 1, 3]]), (5, 1), "two triangles sharing an edge");
        // Tetrahedron: every pair of its 4 nodes is an edge, so no bend pair is new.
        assert_eq!(counts(&[[0, 1, 2], [0, 3, 1], [1, 3, 2], [2, 3, 0]]), (6, 0), "tetrahedron");
    }

    #[test]
    fn repeated_and_crowded_edges_make_few_bend_springs() {
        // 1,000 copies of two triangles sharing edge 1-2: one bend spring, 0-3.
        let copies: Vec<[u32; 3]> = (0..1000).flat_map(|_| [[0, 1, 2], [2, 1, 3]]).collect();
        assert_eq!(counts(&copies), (5, 1));
        // Edge 0-1 with 20 distinct opposite corners 2..22: a chain of 19 bend springs, not
        // the 190 of every pair.
        let fins: Vec<[u32; 3]> = (2..22).map(|c| [0, 1, c]).collect();
        let p = surface_pairs(22, &fins, &[], true, false);
        assert_eq!((p.stretch.len(), p.bend.len(), p.crowded_edges), (41, 19, 1));
        let few: Vec<[u32; 3]> = (2..2 + MAX_FAN as u32).map(|c| [0, 1, c]).collect();
        let p = surface_pairs(22, &few, &[], true, false);
        assert_eq!((p.bend.len(), p.crowded_edges), (MAX_FAN * (MAX_FAN - 1) / 2, 0));
    }

    #[test]
    fn quad_shear_adds_the_missing_diagonal_once() {
        // A quad 0-1-2-3 split along 0-2; the bend pair across 0-2 is 1-3, which is the
        // other diagonal: with quad shear it is a shear spring, not a bend spring.
        let tris = [[0, 1, 2], [0, 2, 3]];
        let without = surface_pairs(4, &tris, &[[0, 1, 2, 3]], true, false);
        assert_eq!((without.stretch.len(), without.shear.len(), without.bend.len()), (5, 0, 1));
        let with = surface_pairs(4, &tris, &[[0, 1, 2, 3]], true, true);
        assert_eq!((with.stretch.len(), with.shear.len(), with.bend.len()), (5, 1, 0));
        assert_eq!(unkey(with.shear[0]), (1, 3));
    }
}
