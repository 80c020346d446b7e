//! Judges shared by the tests: whether a surface passes through itself.
#![allow(dead_code)] // Each test binary uses a different subset.

use glam::Vec3;

/// How many pairs of triangles that share no corner cross: an edge of one passes through the
/// other. Triangles are swept along x by their boxes.
pub fn crossing_pairs(faces: &[[usize; 3]], at: &[Vec3]) -> usize {
    let boxes: Vec<(Vec3, Vec3)> = faces
        .iter()
        .map(|f| {
            let p = f.map(|i| at[i]);
            (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]))
        })
        .collect();
    let mut order: Vec<usize> = (0..faces.len()).collect();
    order.sort_by(|&a, &b| boxes[a].0.x.total_cmp(&boxes[b].0.x));
    let mut count = 0;
    for (k, &a) in order.iter().enumerate() {
        for &b in &order[k + 1..] {
            if boxes[b].0.x > boxes[a].1.x {
                break;
            }
            let overlap = boxes[a].0.cmple(boxes[b].1).all() && boxes[b].0.cmple(boxes[a].1).all();
            let shared = faces[a].iter().any(|v| faces[b].contains(v));
            if overlap && !shared && cross(faces[a].map(|i| at[i]), faces[b].map(|i| at[i])) {
                count += 1;
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
}
