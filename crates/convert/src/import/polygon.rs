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
//! 80 corners, holes joined to the outline by bridges, and local repairs (self-intersections
//! cured, the polygon split) where no ear is left. A plain ear clipper tests every remaining
//! corner against every candidate ear, which is cubic in the corners: an 8,000-corner
//! polygon in a 16 KB file took 22 s. A polygon whose corners all lie on one line (no plane)
//! is fanned.
//!
//! **Corners visited again.** An outline that comes back to a position it has visited is cut
//! there into loops, each of distinct positions (a walk along a stack: a corner already on it
//! closes the loop above it). Two kinds of such outlines are common:
//! - a *keyhole*, a polygon with a hole as LightWave and other exporters write it: the outer
//!   loop, a bridge to the hole, the hole's loop the other way round, and back along the
//!   bridge (`o₀ … oₙ₋₁ o₀ h₀ hₘ₋₁ … h₁ h₀`). Its loops are the outer one, the hole and the
//!   bridge (two corners, no area). A loop wound against the largest one, inside it, and
//!   sharing no position with any other loop is a **hole**: the polygon is the outer loop
//!   less its holes, n + m triangles over n + m positions (n + m − 2 + 2 per hole).
//! - an outline that goes round the same corners again and again (a face listing the same 4
//!   vertices 2,000 times took earcut's repairs 25 s): its loops are copies of one another and
//!   count once.
//!
//! Anything else that revisits corners is taken as the outline of its first visits, holes
//! left out, as before: it adds no area where it comes back. Looking for holes tests one
//! corner of each candidate against the outer loop; when that would take more than
//! [`MAX_HOLE_TESTS`] point–edge tests the polygon is taken without holes, which bounds the
//! work by the file's size.

use glam::{DVec2, DVec3, Vec3};
use std::collections::HashMap;

/// The most point–edge tests spent finding a polygon's holes (about 20 ms): a keyhole has a
/// few holes, and a face of 65,536 corners cut into thousands of loops gets no holes rather
/// than a quadratic search.
pub const MAX_HOLE_TESTS: usize = 1 << 24;

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
    if kept.len() == n {
        return clip(corners, &[]);
    }
    let (outline, holes) = outline_and_holes(corners, &kept);
    let mut points: Vec<Vec3> = outline.iter().map(|&i| corners[i]).collect();
    let mut index = outline;
    let mut starts = Vec::with_capacity(holes.len());
    for hole in holes {
        starts.push(points.len());
        points.extend(hole.iter().map(|&i| corners[i]));
        index.extend(hole);
    }
    let triangles = if points.len() == 3 { vec![[0, 1, 2]] } else { clip(&points, &starts) };
    triangles.into_iter().map(|t| t.map(|i| index[i])).collect()
}

/// The indices of the corners at a position no earlier corner has, in order.
fn first_visits(corners: &[Vec3]) -> Vec<usize> {
    let mut seen = std::collections::HashSet::with_capacity(corners.len());
    (0..corners.len()).filter(|&i| seen.insert(key(corners[i]))).collect()
}

/// A position as a hashable key (its bits: only equal positions are one corner).
fn key(p: Vec3) -> [u32; 3] {
    p.to_array().map(f32::to_bits)
}

/// The outline to clip (first visits, holes' corners left out) and the holes (module docs),
/// for corners some of which revisit a position; `kept` are the first visits.
fn outline_and_holes(corners: &[Vec3], kept: &[usize]) -> (Vec<usize>, Vec<Vec<usize>>) {
    let loops = loops(corners);
    let holes = holes(corners, &loops);
    if holes.is_empty() {
        return (kept.to_vec(), holes);
    }
    let mut in_hole = vec![false; corners.len()];
    for &i in holes.iter().flatten() {
        in_hole[i] = true;
    }
    (kept.iter().copied().filter(|&i| !in_hole[i]).collect(), holes)
}

/// The closed walk `corners` cut into loops of distinct positions at its revisits (module
/// docs): each loop as first-visit indices, starting at its smallest, each distinct loop once;
/// loops of fewer than three corners (bridges) are left out.
fn loops(corners: &[Vec3]) -> Vec<Vec<usize>> {
    let mut first: HashMap<[u32; 3], usize> = HashMap::with_capacity(corners.len());
    let mut stack: Vec<usize> = Vec::new();
    let mut depth: HashMap<usize, usize> = HashMap::new();
    let mut found: Vec<Vec<usize>> = Vec::new();
    let close = |cycle: Vec<usize>, found: &mut Vec<Vec<usize>>| {
        if cycle.len() >= 3 {
            found.push(canonical(cycle));
        }
    };
    for (i, &p) in corners.iter().enumerate() {
        let at = *first.entry(key(p)).or_insert(i);
        match depth.get(&at) {
            Some(&d) => {
                let cycle: Vec<usize> = stack.drain(d + 1..).collect();
                for c in &cycle {
                    depth.remove(c);
                }
                close(std::iter::once(at).chain(cycle).collect(), &mut found);
            }
            None => {
                depth.insert(at, stack.len());
                stack.push(at);
            }
        }
    }
    close(stack, &mut found);
    found.sort_unstable();
    found.dedup();
    found
}

/// A loop rotated to start at its smallest index (the same loop walked from another corner is
/// then equal to it).
fn canonical(mut cycle: Vec<usize>) -> Vec<usize> {
    if let Some(start) = cycle.iter().enumerate().min_by_key(|&(_, &c)| c).map(|(k, _)| k) {
        cycle.rotate_left(start);
    }
    cycle
}

/// The loops that are holes of the largest (module docs), each in its own order.
fn holes(corners: &[Vec3], loops: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let normal_of = |l: &[usize]| newell_normal(&l.iter().map(|&i| corners[i]).collect::<Vec<_>>());
    let areas: Vec<DVec3> = loops.iter().map(|l| normal_of(l)).collect();
    let Some(outer) = (0..loops.len())
        .max_by(|&a, &b| areas[a].length_squared().total_cmp(&areas[b].length_squared()))
    else {
        return Vec::new();
    };
    let normal = areas[outer];
    if normal.length_squared() == 0.0 {
        return Vec::new();
    }
    let mut loops_of: HashMap<usize, usize> = HashMap::new();
    for &i in loops.iter().flatten() {
        *loops_of.entry(i).or_default() += 1;
    }
    let candidates: Vec<usize> = (0..loops.len())
        .filter(|&l| l != outer && areas[l].dot(normal) < 0.0)
        .filter(|&l| loops[l].iter().all(|i| loops_of.get(i) == Some(&1)))
        .collect();
    if candidates.len().saturating_mul(loops[outer].len()) > MAX_HOLE_TESTS {
        return Vec::new();
    }
    let (u, v) = plane(normal);
    let flat = |i: usize| {
        let p = corners[i].as_dvec3();
        DVec2::new(p.dot(u), p.dot(v))
    };
    let ring: Vec<DVec2> = loops[outer].iter().map(|&i| flat(i)).collect();
    candidates
        .into_iter()
        .filter(|&l| strictly_inside(flat(loops[l][0]), &ring))
        .map(|l| loops[l].clone())
        .collect()
}

/// Whether `q` lies inside the polygon `ring` and on none of its edges (crossings of a ray
/// towards +x).
fn strictly_inside(q: DVec2, ring: &[DVec2]) -> bool {
    let mut inside = false;
    for (k, &a) in ring.iter().enumerate() {
        let b = ring[(k + 1) % ring.len()];
        if cross(a, b, q) == 0.0 && (q - a).dot(q - b) <= 0.0 {
            return false;
        }
        if (a.y > q.y) != (b.y > q.y) && q.x < a.x + (q.y - a.y) * (b.x - a.x) / (b.y - a.y) {
            inside = !inside;
        }
    }
    inside
}

/// [`triangulate`] for an outline of distinct positions, at least three, followed by holes
/// starting at `holes` (indices into `corners`).
fn clip(corners: &[Vec3], holes: &[usize]) -> Vec<[usize; 3]> {
    let n = corners.len();
    let outline = holes.first().map_or(n, |&h| h);
    let normal = newell_normal(&corners[..outline]);
    if normal.length_squared() == 0.0 {
        return fan(&(0..outline).collect::<Vec<_>>());
    }
    let points = project(corners, normal);
    // Corners are at most MAX_FACE_CORNERS (2^16): their indices fit earcut's u32.
    let holes: Vec<u32> = holes.iter().map(|&h| h as u32).collect();
    let mut indices: Vec<u32> = Vec::with_capacity(3 * n);
    earcut::Earcut::new().earcut(points.iter().map(|p| [p.x, p.y]), &holes, &mut indices);
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

/// Two axes of the plane with normal `normal`, oriented so that a polygon wound
/// counter-clockwise about the normal runs counter-clockwise in them.
fn plane(normal: DVec3) -> (DVec3, DVec3) {
    let u = normal.any_orthonormal_vector();
    (u, normal.normalize().cross(u))
}

/// The corners in 2D coordinates of the plane with normal `normal`, oriented so that the
/// polygon runs counter-clockwise.
fn project(corners: &[Vec3], normal: DVec3) -> Vec<DVec2> {
    let (u, v) = plane(normal);
    corners.iter().map(|p| DVec2::new(p.as_dvec3().dot(u), p.as_dvec3().dot(v))).collect()
}

/// Twice the signed area of triangle (a, b, c): positive when counter-clockwise.
fn cross(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;
    use proptest::prelude::Just;

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

    /// A keyhole as exporters write it: the outer regular `n`-gon of radius 1 counter-clockwise
    /// from corner `start`, a bridge to corner `entry` of the hole, a regular `m`-gon of radius
    /// `r` centred at `centre` walked clockwise, and back: n + m + 2 corners.
    fn keyhole(n: usize, m: usize, r: f32, centre: Vec2, start: usize, entry: usize) -> Vec<Vec3> {
        let at = |k: usize, count: usize, radius: f32, middle: Vec2, turn: f32| {
            let a = turn * k as f32 * std::f32::consts::TAU / count as f32;
            (middle + radius * Vec2::new(a.cos(), a.sin())).extend(0.0)
        };
        let mut walk: Vec<Vec3> =
            (0..=n).map(|k| at((start + k) % n, n, 1.0, Vec2::ZERO, 1.0)).collect();
        walk.extend((0..=m).map(|k| at((entry + k) % m, m, r, centre, -1.0)));
        walk
    }

    /// Area of the regular `n`-gon of circumradius `r`.
    fn regular_area(n: usize, r: f32) -> f32 {
        0.5 * n as f32 * r * r * (std::f32::consts::TAU / n as f32).sin()
    }

    #[test]
    fn a_keyhole_of_66_corners_is_64_triangles_on_64_nodes_with_its_hole_open() {
        let corners = keyhole(32, 32, 0.4, Vec2::ZERO, 0, 0);
        assert_eq!(corners.len(), 66);
        let tris = triangulate(&corners);
        assert_eq!(tris.len(), 64, "32 + 32 − 2 + 2 for one hole");
        let used: std::collections::BTreeSet<usize> = tris.iter().flatten().copied().collect();
        assert_eq!(used.len(), 64, "every position, once each");
        let expected = regular_area(32, 1.0) - regular_area(32, 0.4);
        assert!((area(&corners, &tris) - expected).abs() < 1e-4, "{}", area(&corners, &tris));
        for t in &tris {
            let c = (corners[t[0]] + corners[t[1]] + corners[t[2]]) / 3.0;
            assert!(
                c.length() > 0.4 * (std::f32::consts::PI / 32.0).cos() - 1e-4,
                "{t:?} in the hole"
            );
            let z = (corners[t[1]] - corners[t[0]]).cross(corners[t[2]] - corners[t[0]]).z;
            assert!(z > 0.0, "wound like the outer loop");
        }
    }

    proptest::proptest! {
        /// Keyholes of any sizes, bridges and hole positions, walked once or repeated many
        /// times: the outer polygon less its hole, n + m triangles over its n + m positions,
        /// wound like the outline; repeats add nothing and stay fast (a repeat count up to
        /// 2,000 of a polygon of up to 80 corners).
        #[test]
        fn keyholes_are_their_outline_less_the_hole_however_often_repeated(
            n in 3usize..48,
            m in 3usize..32,
            r in 0.1f32..0.45,
            (cx, cy) in (-0.4f32..0.4, -0.4f32..0.4),
            start in 0usize..48,
            entry in 0usize..32,
            repeats in proptest::prop_oneof![Just(1usize), 2usize..2000],
        ) {
            // The hole lies inside the outer polygon's inscribed circle.
            let inscribed = (std::f32::consts::PI / n as f32).cos();
            let centre = Vec2::new(cx, cy).clamp_length_max((inscribed - r - 0.02).max(0.0));
            proptest::prop_assume!(inscribed - r - 0.02 > 0.0);
            let once = keyhole(n, m, r, centre, start % n, entry % m);
            let corners: Vec<Vec3> = (0..repeats).flat_map(|_| once.iter().copied()).collect();
            let tris = triangulate(&corners);
            proptest::prop_assert_eq!(tris.len(), n + m);
            let expected = regular_area(n, 1.0) - regular_area(m, r);
            let a = area(&corners, &tris);
            proptest::prop_assert!((a - expected).abs() < 1e-4, "area {} against {}", a, expected);
            for t in &tris {
                proptest::prop_assert!(t.iter().all(|&i| i < n + m + 2), "first visits: {:?}", t);
                let z = (corners[t[1]] - corners[t[0]]).cross(corners[t[2]] - corners[t[0]]).z;
                proptest::prop_assert!(z > 0.0);
            }
        }
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
            // Holes kept (module docs) add two triangles each to the n − 2 of the positions.
            let kept = first_visits(&corners);
            let holes = if kept.len() < 3 { 0 } else { outline_and_holes(&corners, &kept).1.len() };
            proptest::prop_assert!(tris.len() <= points.len().saturating_sub(2).max(1) + 2 * holes);
            for t in &tris {
                proptest::prop_assert!(t.iter().all(|&i| i < corners.len()));
                // A three-corner face is passed through as written, so that the weld counts
                // and reports a degenerate one (`dropped_triangles`).
                if corners.len() > 3 {
                    let [a, b, c] = t.map(|i| corners[i]);
                    proptest::prop_assert!(a != b && b != c && a != c, "{t:?}");
                }
            }
        }
    }
}
