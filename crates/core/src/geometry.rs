//! Geometry the model, the solver and the converter share, written once: the signed volume
//! below, where on a segment a point is nearest ([`along_segment`]), and how far apart two
//! sets of points are at most ([`furthest_squared`]).
//!
//! **Signed volume.** By the divergence theorem, the volume enclosed by a closed triangle
//! mesh is a sum over its triangles (a, b, c) of the signed volumes of the tetrahedra they
//! make with the origin:
//!
//! ```text
//! V = Σ a · (b × c) / 6
//! ```
//!
//! positive when the triangles are wound counter-clockwise seen from outside (their normals
//! point out), and independent of where the origin is for a closed surface. Each product is
//! taken in f64: the terms of a mesh far from the origin are large and cancel.

use glam::{Vec3, Vec3A};

/// The volume (m³) the triangles `faces` (three indices into `positions` each) enclose,
/// signed: positive when they are wound outwards. A triangle naming a position that does not
/// exist adds nothing. Meaningful only for a closed surface.
pub fn signed_volume<P>(positions: &[P], faces: impl IntoIterator<Item = [usize; 3]>) -> f64
where
    P: Copy + Into<Vec3>,
{
    let at = |i: usize| positions.get(i).map(|&p| p.into().as_dvec3());
    faces.into_iter().filter_map(|[a, b, c]| Some(at(a)?.dot(at(b)?.cross(at(c)?)) / 6.0)).sum()
}

/// Where on the segment a–b the point nearest `p` is, as the fraction t ∈ [0, 1] from a (0
/// for a segment of no length); of `Vec3` or `Vec3A` points, worked out in `Vec3A`.
pub fn along_segment<V: Into<Vec3A>>(a: V, b: V, p: V) -> f32 {
    let (a, b, p): (Vec3A, Vec3A, Vec3A) = (a.into(), b.into(), p.into());
    let axis = b - a;
    if axis.length_squared() > 0.0 {
        ((p - a).dot(axis) / axis.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// The point of triangle `t` nearest `p` (Ericson, "Real-Time Collision Detection", 2005,
/// §5.1.5: by the Voronoi region of `p`: a corner, an edge or the face).
pub fn closest_on_triangle(p: Vec3, [a, b, c]: [Vec3; 3]) -> Vec3 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// The largest squared distance |a_i − b_i|² between the points of `a` and `b` taken in
/// pairs (as far as the shorter goes), 0 for none; a pair not finite counts as 0, as
/// `f32::max` counts NaN. Four pairs at a time in four running maxima: one maximum carried
/// through every pair is a chain of dependent instructions, four are four times as short
/// (a blob's support looks over its 491 nodes so every sub-step). The maximum is exact, so
/// the result is the same in any order.
pub(crate) fn furthest_squared(a: &[Vec3A], b: &[Vec3A]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut most = [0.0f32; 4];
    for (a4, b4) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        for k in 0..4 {
            most[k] = most[k].max(a4[k].distance_squared(b4[k]));
        }
    }
    let rest = a.chunks_exact(4).remainder().iter().zip(b.chunks_exact(4).remainder());
    let rest = rest.fold(0.0f32, |m, (p, q)| m.max(p.distance_squared(*q)));
    most.into_iter().fold(rest, f32::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit cube's 12 triangles, wound outwards, with one corner at `o`.
    fn cube(o: Vec3) -> (Vec<Vec3>, Vec<[usize; 3]>) {
        let p = (0..8)
            .map(|i| o + Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32))
            .collect();
        let quads = [
            [0, 2, 3, 1], // z = 0, seen from -z
            [4, 5, 7, 6], // z = 1
            [0, 1, 5, 4], // y = 0
            [2, 6, 7, 3], // y = 1
            [0, 4, 6, 2], // x = 0
            [1, 3, 7, 5], // x = 1
        ];
        let t = quads.iter().flat_map(|&[a, b, c, d]| [[a, b, c], [a, c, d]]).collect();
        (p, t)
    }

    #[test]
    fn a_unit_cube_anywhere_encloses_one_cubic_metre_and_minus_one_wound_inwards() {
        for o in [Vec3::ZERO, Vec3::new(1000.0, -500.0, 250.0)] {
            let (p, t) = cube(o);
            let v = signed_volume(&p, t.iter().copied());
            assert!((v - 1.0).abs() < 1e-9, "at {o}: {v}");
            let inwards = t.iter().map(|&[a, b, c]| [a, c, b]);
            assert!((signed_volume(&p, inwards) + 1.0).abs() < 1e-9);
        }
        let (p, _) = cube(Vec3::ZERO);
        assert_eq!(signed_volume(&p, [[0, 1, 99]]), 0.0, "a missing corner adds nothing");
    }

    #[test]
    fn the_furthest_pair_is_found_wherever_it_is_and_nan_counts_as_nothing() {
        // Eleven pairs: the k-th apart by k/10 along x (squared: k²/100), the largest put at
        // every place in turn (in the four lanes and in the remainder of three).
        let b = vec![Vec3A::new(1.0, 2.0, 3.0); 11];
        for at in 0..11 {
            let mut a: Vec<Vec3A> = (0..11).map(|k| b[k] + Vec3A::X * (k as f32 * 0.1)).collect();
            a.swap(at, 10);
            assert_eq!(furthest_squared(&a, &b), b[0].distance_squared(b[0] + Vec3A::X * 1.0));
            assert_eq!(furthest_squared(&a[..at], &b), furthest_squared(&b[..at], &a));
        }
        let mut a = b.clone();
        a[5] = Vec3A::NAN;
        a[9] += Vec3A::Y * 0.5;
        assert_eq!(furthest_squared(&a, &b), 0.25);
        assert_eq!(furthest_squared(&[], &b), 0.0);
    }
}
