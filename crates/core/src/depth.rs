//! How deep points are inside a closed triangle surface: the judge of tests that bodies do
//! not pass through each other, geometric and independent of the solver.
//!
//! A point is inside when a ray from it crosses the surface an odd number of times (the
//! Jordan curve theorem; the ray's direction is fixed and skewed off the axes, so that it
//! grazes no edge of a surface laid out on a grid), and its depth is its distance to the
//! nearest triangle.

use glam::Vec3;

/// The deepest of `points` inside the closed surface of triangles `faces` (indices into `at`)
/// (0 when none is inside); a triangle naming a position that does not exist is left out.
pub fn deepest_inside(points: &[Vec3], (at, faces): (&[Vec3], &[[usize; 3]])) -> f32 {
    let Some(&first) = at.first() else { return 0.0 };
    let (lo, hi) = at.iter().fold((first, first), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    let triangles: Vec<[Vec3; 3]> = faces
        .iter()
        .filter_map(|f| Some([*at.get(f[0])?, *at.get(f[1])?, *at.get(f[2])?]))
        .collect();
    let ray = Vec3::new(1.0, 0.0123, 0.0371).normalize();
    let mut deepest = 0.0f32;
    for &p in points.iter().filter(|p| p.cmpge(lo).all() && p.cmple(hi).all()) {
        let crossings = triangles.iter().filter(|&&t| ray_crosses(p, ray, t)).count();
        if crossings % 2 == 1 {
            let nearest =
                triangles.iter().map(|&t| distance_to_triangle(p, t)).fold(f32::MAX, f32::min);
            deepest = deepest.max(nearest);
        }
    }
    deepest
}

/// True when the ray from `p` along `d` passes through triangle `t` (Möller & Trumbore 1997).
pub fn ray_crosses(p: Vec3, d: Vec3, t: [Vec3; 3]) -> bool {
    let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
    let h = d.cross(e2);
    let det = e1.dot(h);
    if det.abs() < 1e-12 {
        return false;
    }
    let s = p - t[0];
    let (u, k) = (s.dot(h) / det, s.cross(e1));
    let v = d.dot(k) / det;
    u >= 0.0 && v >= 0.0 && u + v <= 1.0 && e2.dot(k) / det > 0.0
}

/// The distance from `p` to triangle `t` (Ericson, "Real-Time Collision Detection", 2005,
/// §5.1.5: the closest point by its Voronoi region).
pub fn distance_to_triangle(p: Vec3, [a, b, c]: [Vec3; 3]) -> f32 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return ap.length();
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return bp.length();
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return (p - (a + ab * (d1 / (d1 - d3)))).length();
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return cp.length();
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return (p - (a + ac * (d2 / (d2 - d6)))).length();
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return (p - (b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))))).length();
    }
    let denom = 1.0 / (va + vb + vc);
    (p - (a + ab * (vb * denom) + ac * (vc * denom))).length()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_judge_measures_depth_inside_a_closed_surface() {
        // A unit cube's 12 triangles: a point 0.1 m inside its top is 0.1 m deep, one outside 0.
        let at: Vec<Vec3> = (0..8)
            .map(|k| Vec3::new((k & 1) as f32, ((k >> 1) & 1) as f32, ((k >> 2) & 1) as f32))
            .collect();
        let quads =
            [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
        let faces: Vec<[usize; 3]> =
            quads.iter().flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]]).collect();
        let inside = deepest_inside(&[Vec3::new(0.5, 0.9, 0.5)], (&at, &faces));
        assert!((inside - 0.1).abs() < 1e-6, "{inside}");
        assert_eq!(deepest_inside(&[Vec3::new(0.5, 1.2, 0.5)], (&at, &faces)), 0.0);
    }
}
