//! # Vicinity springs: nodes closer than a radius
//!
//! A surface mesh has no springs through its inside, so a closed shape (a jelly cube, a
//! rubber duck) has nothing that keeps its volume: it collapses or turns inside out. Vicinity
//! springs join every pair of nodes at most a radius R apart that no stretch, shear or bend
//! spring joins, which braces the shape from within (in the spirit of the "connect nearby
//! particles" meshing of particle-based soft bodies).
//!
//! Pairs are found with a uniform grid of cells R wide: two nodes within R lie in the same
//! or in neighbouring cells, so each cell is compared with itself and with the 13 of its 26
//! neighbours that come after it (each unordered cell pair once). With nodes spread over a
//! surface or volume the expected work is linear in the number of nodes; no all-pairs loop.
//!
//! The nodes are sorted by cell ([`springmesh_core::grid`], as self-collision finds its pairs):
//! a cell and the cells after it around it are then a few runs of the sorted nodes, found by
//! cursors that only move forward. Sorting the nodes by cell is the one n log n step. Measured
//! (`cargo bench -p springmesh-convert -- vicinity_scaling`): 4× the points at the same density
//! take about 5× the time, not the 16× of testing all pairs.
//! With a cap k, each node keeps its k nearest candidates, and a pair is kept when either end
//! keeps it.

use crate::springs::{SurfacePairs, joined};
use crate::topology::{ByFirst, key};
use glam::Vec3;
use springmesh_core::grid::Grid;

/// Keys of the node pairs at most `radius` apart, not in `joined`; with
/// `cap`, only each node's `cap` nearest. Sorted and free of repeats.
pub fn vicinity_pairs(
    positions: &[Vec3],
    radius: f32,
    cap: Option<usize>,
    joined: &ByFirst<()>,
) -> Vec<u64> {
    let r2 = radius * radius;
    let mut grid = Grid::default();
    grid.build(positions.len(), |i| positions[i].into(), radius);
    // (node, distance², other) for both ends of every candidate pair.
    let mut found: Vec<(u32, f32, u32)> = Vec::new();
    grid.pairs(|i, j, d2| {
        let (i, j) = (i as u32, j as u32);
        if d2 <= r2 && !joined.contains(i, j) {
            found.push((i, d2, j));
            if cap.is_some() {
                found.push((j, d2, i));
            }
        }
        true
    });
    let mut keys: Vec<u64> = match cap {
        None => found.iter().map(|&(i, _, j)| key(i, j)).collect(),
        Some(k) => {
            found.sort_unstable_by(|x, y| {
                x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)).then(x.2.cmp(&y.2))
            });
            found
                .chunk_by(|x, y| x.0 == y.0)
                .flat_map(|run| run.iter().take(k).map(|&(i, _, j)| key(i, j)))
                .collect()
        }
    };
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The vicinity stage of a conversion: with a `radius`, the pairs of nodes at `positions`
/// closer than it that the surface's springs `surface` do not join yet (at most `cap` per
/// node); none without.
pub(crate) fn stage(
    positions: &[Vec3],
    surface: &SurfacePairs,
    radius: Option<f32>,
    cap: Option<usize>,
) -> Vec<u64> {
    let Some(r) = radius else { return Vec::new() };
    let joined = joined(positions.len(), &[&surface.stretch, &surface.shear, &surface.bend]);
    vicinity_pairs(positions, r, cap, &joined)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute_force(p: &[Vec3], r: f32, joined: &[(u32, u32)]) -> Vec<u64> {
        let mut out = Vec::new();
        for i in 0..p.len() {
            for j in i + 1..p.len() {
                let k = key(i as u32, j as u32);
                if p[i].distance_squared(p[j]) <= r * r && !joined.contains(&(i as u32, j as u32)) {
                    out.push(k);
                }
            }
        }
        out
    }

    proptest! {
        #[test]
        fn equals_all_pairs_on_random_clouds(
            points in prop::collection::vec((-3.0f32..3.0, -3.0f32..3.0, -3.0f32..3.0), 0..150),
            radius in 0.1f32..2.0,
        ) {
            let p: Vec<Vec3> = points.into_iter().map(|(x, y, z)| Vec3::new(x, y, z)).collect();
            let joined: Vec<(u32, u32)> = (0..p.len().saturating_sub(1) as u32).step_by(3).map(|i| (i, i + 1)).collect();
            let grouped = crate::springs::distinct(p.len(), &joined);
            prop_assert_eq!(vicinity_pairs(&p, radius, None, &grouped), brute_force(&p, radius, &joined));
        }

        #[test]
        fn cap_keeps_each_nodes_nearest(
            points in prop::collection::vec((-2.0f32..2.0, -2.0f32..2.0, -2.0f32..2.0), 2..60),
            cap in 1usize..4,
        ) {
            let p: Vec<Vec3> = points.into_iter().map(|(x, y, z)| Vec3::new(x, y, z)).collect();
            let none = crate::springs::distinct(p.len(), &[]);
            let all = vicinity_pairs(&p, 1.5, None, &none);
            let capped = vicinity_pairs(&p, 1.5, Some(cap), &none);
            prop_assert!(capped.iter().all(|k| all.binary_search(k).is_ok()));
            for i in 0..p.len() as u32 {
                let mut mine: Vec<(f32, u32)> = all.iter().map(|&k| crate::topology::unkey(k))
                    .filter(|&(a, b)| a == i || b == i)
                    .map(|(a, b)| { let o = if a == i { b } else { a }; (p[i as usize].distance_squared(p[o as usize]), o) })
                    .collect();
                mine.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
                for &(_, o) in mine.iter().take(cap) {
                    prop_assert!(capped.binary_search(&key(i, o)).is_ok(), "node {} keeps its nearest", i);
                }
            }
        }
    }
}
