//! Triangulating polygons by ear clipping.
//!
//! A polygon with n corners is cut into n − 2 triangles by repeatedly cutting off an *ear*: a
//! convex corner whose triangle with its two neighbours contains no other corner (Meisters,
//! "Polygons have ears", 1975; Eberly, "Triangulation by Ear Clipping", 2002). Unlike a fan
//! from the first corner, this is right for concave polygons (an L-shaped hexagon, a star).
//!
//! Corners are 3D points of a roughly planar polygon: they are projected on the plane of the
//! polygon's Newell normal, so the winding of the triangles is that of the polygon. The
//! clipping itself is the `earcut` crate (a port of Mapbox's earcut): a linked list of
//! corners, reflex corners looked up through a z-order curve index for polygons of more than
//! 80 corners, and local repairs (self-intersections cured, the polygon split) where no ear is
//! left. A plain ear clipper tests every remaining corner against every candidate ear, which
//! is cubic in the corners: an 8,000-corner polygon in a 16 KB file took 22 s. A polygon
//! whose corners all lie on one line (no plane) is fanned.
//!
//! A corner at the position of an earlier corner is dropped first: a polygon that comes back
//! to a point it has visited adds no area there, and earcut's repairs of such self-touching
//! outlines are slow (a face listing the same 4 vertices 2,000 times took 25 s; it is now the
//! square they make). A "keyhole" polygon, whose outline visits the two ends of a bridge to a
//! hole twice, loses its hole this way; OBJ exporters write holes as separate faces.

use glam::{DVec2, DVec3, Vec3};

/// Triangles (as indices into `corners`) covering the polygon `corners`, wound like it.
pub fn triangulate(corners: &[Vec3]) -> Vec<[usize; 3]> {
    let n = corners.len();
    if n < 3 {
        return Vec::new();
    }
    if n == 3 {
        return vec![[0, 1, 2]];
    }
    let kept = first_visits(corners);
    if kept.len() < 3 {
        return Vec::new();
    }
    if kept.len() < n {
        let outline: Vec<Vec3> = kept.iter().map(|&i| corners[i]).collect();
        let triangles = if outline.len() == 3 { vec![[0, 1, 2]] } else { clip(&outline) };
        return triangles.into_iter().map(|t| t.map(|i| kept[i])).collect();
    }
    clip(corners)
}

/// The indices of the corners at a position no earlier corner has, in order.
fn first_visits(corners: &[Vec3]) -> Vec<usize> {
    let mut seen = std::collections::HashSet::with_capacity(corners.len());
    (0..corners.len()).filter(|&i| seen.insert(corners[i].to_array().map(f32::to_bits))).collect()
}

/// [`triangulate`] for corners at distinct positions, at least three.
fn clip(corners: &[Vec3]) -> Vec<[usize; 3]> {
    let n = corners.len();
    let normal = newell_normal(corners);
    if normal.length_squared() == 0.0 {
        return fan(&(0..n).collect::<Vec<_>>());
    }
    let points = project(corners, normal);
    let mut indices: Vec<u32> = Vec::with_capacity(3 * n.saturating_sub(2));
    earcut::Earcut::new().earcut(points.iter().map(|p| [p.x, p.y]), &[], &mut indices);
    indices
        .chunks_exact(3)
        .map(|t| {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize);
            // The polygon runs counter-clockwise in the plane; so must its triangles.
            if cross(points[a], points[b], points[c]) < 0.0 { [a, c, b] } else { [a, b, c] }
        })
        .collect()
}

/// A fan from the first of `indices`.
fn fan(indices: &[usize]) -> Vec<[usize; 3]> {
    (1..indices.len().saturating_sub(1)).map(|i| [indices[0], indices[i], indices[i + 1]]).collect()
}

/// The Newell normal of a polygon: robust for concave and slightly non-planar polygons; its
/// length is twice the projected area.
fn newell_normal(corners: &[Vec3]) -> DVec3 {
    let mut n = DVec3::ZERO;
    for (i, p) in corners.iter().enumerate() {
        let (p, q) = (p.as_dvec3(), corners[(i + 1) % corners.len()].as_dvec3());
        n += DVec3::new(
            (p.y - q.y) * (p.z + q.z),
            (p.z - q.z) * (p.x + q.x),
            (p.x - q.x) * (p.y + q.y),
        );
    }
    n
}

/// The corners in 2D coordinates of the plane with normal `normal`, oriented so that the
/// polygon runs counter-clockwise.
fn project(corners: &[Vec3], normal: DVec3) -> Vec<DVec2> {
    let u = normal.any_orthonormal_vector();
    let v = normal.normalize().cross(u);
    corners.iter().map(|p| DVec2::new(p.as_dvec3().dot(u), p.as_dvec3().dot(v))).collect()
}

/// Twice the signed area of triangle (a, b, c): positive when counter-clockwise.
fn cross(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(corners: &[Vec3], tris: &[[usize; 3]]) -> f32 {
        tris.iter()
            .map(|t| {
                0.5 * (corners[t[1]] - corners[t[0]]).cross(corners[t[2]] - corners[t[0]]).length()
            })
            .sum()
    }

    fn centroid_inside_l(p: Vec3) -> bool {
        // The L below: [0,2]×[0,1] ∪ [0,1]×[0,2].
        (p.x >= 0.0 && p.x <= 2.0 && p.y >= 0.0 && p.y <= 1.0)
            || (p.x >= 0.0 && p.x <= 1.0 && p.y >= 0.0 && p.y <= 2.0)
    }

    #[test]
    fn concave_l_hexagon_is_covered_exactly() {
        // Starting next to the reflex corner (1,1) makes a fan from the first corner wrong.
        let l = [(2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0), (0.0, 0.0), (2.0, 0.0)]
            .map(|(x, y)| Vec3::new(x, y, 0.0));
        let tris = triangulate(&l);
        assert_eq!(tris.len(), 4);
        assert!((area(&l, &tris) - 3.0).abs() < 1e-6, "area {}", area(&l, &tris));
        for t in &tris {
            let c = (l[t[0]] + l[t[1]] + l[t[2]]) / 3.0;
            assert!(centroid_inside_l(c), "triangle {t:?} lies outside the L");
            let n = (l[t[1]] - l[t[0]]).cross(l[t[2]] - l[t[0]]);
            assert!(n.z > 0.0, "wound like the polygon");
        }
        let fan_outside = fan(&[0, 1, 2, 3, 4, 5])
            .iter()
            .any(|t| !centroid_inside_l((l[t[0]] + l[t[1]] + l[t[2]]) / 3.0));
        assert!(fan_outside, "a fan from the first corner covers the notch");
    }

    #[test]
    fn convex_polygons_in_any_plane() {
        let hexagon: Vec<Vec3> = (0..6)
            .map(|i| {
                let a = i as f32 * std::f32::consts::TAU / 6.0;
                Vec3::new(a.cos(), 0.3, -a.sin())
            })
            .collect();
        let tris = triangulate(&hexagon);
        assert_eq!(tris.len(), 4);
        let expected = 1.5 * 3f32.sqrt();
        assert!((area(&hexagon, &tris) - expected).abs() < 1e-5);
    }

    #[test]
    fn a_comb_of_many_teeth_is_covered_exactly() {
        // 2,000 teeth of width 1 and height 10 on a base of height 1: 8,002 corners, mostly
        // reflex or on the same few lines, the kind of polygon a cubic ear clipper chokes on.
        let teeth = 2000;
        let mut comb = vec![Vec3::new(0.0, 0.0, 0.0)];
        for t in 0..teeth {
            let x = 2.0 * t as f32;
            comb.extend(
                [(x, 1.0), (x, 11.0), (x + 1.0, 11.0), (x + 1.0, 1.0)]
                    .map(|(x, y)| Vec3::new(x, y, 0.0)),
            );
        }
        comb.push(Vec3::new(2.0 * teeth as f32, 1.0, 0.0));
        comb.push(Vec3::new(2.0 * teeth as f32, 0.0, 0.0));
        comb.reverse(); // counter-clockwise seen from +z
        let tris = triangulate(&comb);
        assert_eq!(tris.len(), comb.len() - 2);
        let expected = 2.0 * teeth as f32 + 10.0 * teeth as f32;
        let a = area(&comb, &tris);
        assert!((a - expected).abs() < 1e-3 * expected, "area {a}, expected {expected}");
        assert!(
            tris.iter().all(|t| (comb[t[1]] - comb[t[0]]).cross(comb[t[2]] - comb[t[0]]).z >= 0.0)
        );
    }

    #[test]
    fn degenerate_polygons_do_not_panic() {
        assert!(triangulate(&[Vec3::ZERO; 2]).is_empty());
        assert!(triangulate(&[Vec3::ZERO; 5]).is_empty(), "five corners at one point: no area");
        let bow_tie =
            [(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)].map(|(x, y)| Vec3::new(x, y, 0.0));
        assert_eq!(triangulate(&bow_tie).len(), 2);
    }

    #[test]
    fn a_face_that_goes_round_its_corners_again_and_again_is_the_polygon_they_make() {
        let square =
            [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map(|(x, y)| Vec3::new(x, y, 0.0));
        let corners: Vec<Vec3> = (0..8000).map(|i| square[i % 4]).collect();
        let tris = triangulate(&corners);
        assert_eq!(tris.len(), 2);
        assert!(tris.iter().flatten().all(|&i| i < 4), "the first visits: {tris:?}");
        assert!((area(&corners, &tris) - 1.0).abs() < 1e-6);
    }

    proptest::proptest! {
        /// Polygons of up to 3,000 corners drawn from a pool of a few points (repeated,
        /// collinear and coincident corners): the triangles name corners of the polygon, three
        /// distinct positions each, no more than n − 2 of them, and earcut never sees more
        /// corners than the pool has points, which bounds its work.
        #[test]
        fn polygons_with_repeated_collinear_and_coincident_corners(
            pool in proptest::collection::vec((0i8..4, 0i8..4), 1..12),
            picks in proptest::collection::vec(0usize..12, 3..3000),
        ) {
            let points: Vec<Vec3> =
                pool.iter().map(|&(x, y)| Vec3::new(f32::from(x), f32::from(y), 0.0)).collect();
            let corners: Vec<Vec3> = picks.iter().map(|&i| points[i % points.len()]).collect();
            let tris = triangulate(&corners);
            proptest::prop_assert!(tris.len() <= corners.len().saturating_sub(2));
            proptest::prop_assert!(tris.len() <= points.len().saturating_sub(2).max(1));
            for t in &tris {
                proptest::prop_assert!(t.iter().all(|&i| i < corners.len()));
                let [a, b, c] = t.map(|i| corners[i]);
                proptest::prop_assert!(a != b && b != c && a != c, "{t:?}");
            }
        }
    }
}
