//! Judges shared by the tests: whether a surface passes through itself; Blender's point caches.
#![allow(dead_code)] // Each test binary uses a different subset.

use glam::{IVec3, Vec3};
use std::collections::HashMap;

/// How many pairs of triangles that share no corner cross: an edge of one passes through the
/// other. Triangles are binned by their boxes in a grid of cells as large as the largest box,
/// so that each box meets at most two cells along each axis, and a pair is looked at in the
/// one cell that holds the low corner of the two boxes' overlap: each pair of overlapping
/// boxes is looked at once (a pile of fine cells, every triangle within a few centimetres of
/// thousands of others along any one axis, is judged in a moment even in a debug build).
pub fn crossing_pairs(faces: &[[usize; 3]], at: &[Vec3]) -> usize {
    let boxes: Vec<(Vec3, Vec3)> = faces
        .iter()
        .map(|f| {
            let p = f.map(|i| at[i]);
            (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]))
        })
        .collect();
    let size = boxes.iter().map(|(lo, hi)| (*hi - *lo).max_element()).fold(0.0, f32::max);
    let size = if size.is_finite() && size > 0.0 { size } else { 1.0 };
    let cell = |p: Vec3| (p / size).floor().as_ivec3();
    let mut cells: HashMap<IVec3, Vec<usize>> = HashMap::new();
    for (t, &(lo, hi)) in boxes.iter().enumerate() {
        let (a, b) = (cell(lo), cell(hi));
        for x in a.x..=b.x.min(a.x + 1) {
            for y in a.y..=b.y.min(a.y + 1) {
                for z in a.z..=b.z.min(a.z + 1) {
                    cells.entry(IVec3::new(x, y, z)).or_default().push(t);
                }
            }
        }
    }
    let mut count = 0;
    for (&key, list) in &cells {
        for (k, &a) in list.iter().enumerate() {
            for &b in &list[k + 1..] {
                let (lo, hi) = (boxes[a].0.max(boxes[b].0), boxes[a].1.min(boxes[b].1));
                let here = lo.cmple(hi).all() && cell(lo) == key;
                let shared = || faces[a].iter().any(|v| faces[b].contains(v));
                if here && !shared() && cross(faces[a].map(|i| at[i]), faces[b].map(|i| at[i])) {
                    count += 1;
                }
            }
        }
    }
    count
}

/// True when an edge of either triangle passes through the other.
pub fn cross(a: [Vec3; 3], b: [Vec3; 3]) -> bool {
    let edges = |t: [Vec3; 3]| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])];
    edges(a).iter().any(|&(p, q)| pierces(p, q, b))
        || edges(b).iter().any(|&(p, q)| pierces(p, q, a))
}

/// True when the segment p–q passes through the triangle t (Möller & Trumbore, "Fast,
/// Minimum Storage Ray/Triangle Intersection", 1997).
fn pierces(p: Vec3, q: Vec3, t: [Vec3; 3]) -> bool {
    let (d, e1, e2) = (q - p, t[1] - t[0], t[2] - t[0]);
    let h = d.cross(e2);
    let det = e1.dot(h);
    // Parallel within rounding, relative to the lengths (a segment in the triangle's plane
    // does not pierce it).
    if det.abs() <= 1e-6 * d.length() * e1.length() * e2.length() {
        return false;
    }
    let s = p - t[0];
    let u = s.dot(h) / det;
    let k = s.cross(e1);
    let v = d.dot(k) / det;
    let along = e2.dot(k) / det;
    u >= 0.0 && v >= 0.0 && u + v <= 1.0 && (0.0..=1.0).contains(&along)
}

/// The frames of a PC2 point cache (as Blender's scripts write them): per frame, every point.
pub fn read_pc2(path: &std::path::Path) -> Vec<Vec<Vec3>> {
    let b = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let word = |at: usize| i32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]) as usize;
    let float = |at: usize| f32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
    let (points, frames) = (word(16), word(28));
    (0..frames)
        .map(|f| {
            (0..points)
                .map(|i| {
                    let at = 32 + 12 * (f * points + i);
                    Vec3::new(float(at), float(at + 4), float(at + 8))
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_judge_sees_two_crossing_triangles_and_not_two_apart() {
        let a = [Vec3::ZERO, Vec3::X, Vec3::Y];
        let through =
            [Vec3::new(0.2, 0.2, -1.0), Vec3::new(0.2, 0.2, 1.0), Vec3::new(5.0, 5.0, 0.0)];
        let above = through.map(|p| p + Vec3::Z * 2.0);
        assert!(cross(a, through));
        assert!(!cross(a, above));
    }

    /// Every pair of triangles that share no corner, crossing or not, one by one.
    fn crossing_pairs_one_by_one(faces: &[[usize; 3]], at: &[Vec3]) -> usize {
        let mut count = 0;
        for (k, a) in faces.iter().enumerate() {
            for b in &faces[k + 1..] {
                let shared = a.iter().any(|v| b.contains(v));
                count += usize::from(!shared && cross(a.map(|i| at[i]), b.map(|i| at[i])));
            }
        }
        count
    }

    #[test]
    fn the_grid_counts_the_crossings_of_every_pair_looked_at_one_by_one() {
        // 400 triangles of sizes from 1 to 51 cm, strewn over a 1 m box by a fixed sequence
        // (Weyl's: the fractional parts of multiples of irrational numbers): many cross, most boxes
        // span two cells or more along some axis.
        let fraction = |k: usize, alpha: f32| (k as f32 * alpha).fract();
        let mut at = Vec::new();
        let mut faces = Vec::new();
        for t in 0..400 {
            let size = 0.01 + fraction(t, 0.618_034) * if t % 7 == 0 { 0.5 } else { 0.25 };
            let centre =
                Vec3::new(fraction(t, 0.414_214), fraction(t, 0.732_051), fraction(t, 0.236_068));
            for corner in 0..3 {
                let k = 3 * t + corner;
                let offset = Vec3::new(
                    fraction(k, 0.381_966),
                    fraction(k, 0.154_845),
                    fraction(k, 0.577_350),
                );
                at.push(centre + (offset - Vec3::splat(0.5)) * size);
            }
            faces.push([3 * t, 3 * t + 1, 3 * t + 2]);
        }
        // One more on corners of the first three: never counted against those, crossing or not.
        faces.push([0, 4, 7]);
        let expected = crossing_pairs_one_by_one(&faces, &at);
        assert!(expected > 50, "the strewn triangles cross: {expected} pairs");
        assert_eq!(crossing_pairs(&faces, &at), expected);
    }
}
