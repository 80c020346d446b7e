//! How deep points are inside a closed triangle surface: the judge of tests that bodies do
//! not pass through each other, geometric and independent of the solver.
//!
//! A point is inside when the surface winds around it: its winding number, the solid angle
//! Ω of every triangle seen from the point summed over 4π, is ±1 inside a closed surface and
//! 0 outside (Jacobson, Kavan & Sorkine-Hornung, "Robust Inside-Outside Segmentation using
//! Generalized Winding Numbers", SIGGRAPH 2013). A triangle's solid angle from p, with a, b, c
//! its corners less p (Van Oosterom & Strackee, "The Solid Angle of a Plane Triangle", 1983):
//!
//! ```text
//! tan(Ω/2) = a · (b × c) / (|a||b||c| + (a · b)|c| + (b · c)|a| + (c · a)|b|)
//! ```
//!
//! It is taken as inside beyond ½. Unlike counting the crossings of one ray, which counts two
//! where the ray passes through the edge two triangles share (or none), this holds on any
//! triangulation, with either winding, and degrades gracefully on a surface with seams or
//! small holes (a drawn surface split at its UV seams, a teapot's lid). The depth is the
//! point's distance to the nearest triangle.

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
    let mut deepest = 0.0f32;
    for &p in points.iter().filter(|p| p.cmpge(lo).all() && p.cmple(hi).all()) {
        // The distance first: a point no further from the surface than the deepest so far
        // cannot be deeper, inside or not, and the winding number (an arc tangent per
        // triangle) is most of the cost.
        let nearest =
            triangles.iter().map(|&t| distance_to_triangle(p, t)).fold(f32::MAX, f32::min);
        if nearest > deepest && winding_number(p, &triangles).abs() > 0.5 {
            deepest = nearest;
        }
    }
    deepest
}

/// How many times `triangles` wind around `p` (module doc): ±1 inside a closed surface, 0
/// outside.
pub fn winding_number(p: Vec3, triangles: &[[Vec3; 3]]) -> f32 {
    let total: f64 = triangles.iter().map(|&t| f64::from(solid_angle(p, t))).sum();
    (total / (4.0 * std::f64::consts::PI)) as f32
}

/// The signed solid angle (sr) triangle `t` spans seen from `p` (module doc); 0 from one of
/// its corners.
pub fn solid_angle(p: Vec3, t: [Vec3; 3]) -> f32 {
    let [a, b, c] = t.map(|x| x - p);
    let (la, lb, lc) = (a.length(), b.length(), c.length());
    let det = a.dot(b.cross(c));
    let den = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
    2.0 * det.atan2(den)
}

/// The distance from `p` to triangle `t`.
pub fn distance_to_triangle(p: Vec3, t: [Vec3; 3]) -> f32 {
    p.distance(crate::geometry::closest_on_triangle(p, t))
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
        // A point 0.25 m from two faces and 0.5 m from the others.
        let deep = deepest_inside(&[Vec3::new(0.25, 0.5, 0.25)], (&at, &faces));
        assert!((deep - 0.25).abs() < 1e-6, "{deep}");
        // The surface wound the other way: the same.
        let turned: Vec<[usize; 3]> = faces.iter().map(|f| [f[0], f[2], f[1]]).collect();
        assert!((deepest_inside(&[Vec3::new(0.5, 0.9, 0.5)], (&at, &turned)) - 0.1).abs() < 1e-6);
    }

    #[test]
    fn a_triangle_seen_from_above_its_corner_spans_an_eighth_of_the_sphere() {
        // The triangle from the axes' unit points seen from the origin: an octant, 4π / 8.
        let octant = solid_angle(Vec3::ZERO, [Vec3::X, Vec3::Y, Vec3::Z]);
        assert!((octant - std::f32::consts::FRAC_PI_2).abs() < 1e-6, "{octant}");
        let other = solid_angle(Vec3::ZERO, [Vec3::X, Vec3::Z, Vec3::Y]);
        assert!((other + std::f32::consts::FRAC_PI_2).abs() < 1e-6, "wound back: {other}");
    }
}
