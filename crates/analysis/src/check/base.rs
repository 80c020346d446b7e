//! Whether a body stands on a stable base, and how stable: the horizontal convex hull of its
//! lowest nodes (of a cage, its lowest surface vertices: the skin is what touches) must hold
//! its centre of mass (Andrew's monotone chain for the hull), and tipping it over the hull's
//! nearest edge must raise its centre of mass by at least [`MIN_RISE`] of the diagonal.
//!
//! "Lowest" is within [`BASE_BAND`] of the lowest node: the nodes that touch a flat ground
//! (the flat feet of a standing body: hooves, a table's legs, a smoothed blob's paws).
//!
//! **The rise.** A rigid body tips about the edge of its base nearest its centre of mass: with
//! d the horizontal distance from the centre's projection to that edge and h the centre's
//! height above the ground, the centre rises
//!
//! ```text
//! Δh = √(d² + h²) − h
//! ```
//!
//! before it passes over the edge and the body falls (the tipping angle is atan(d / h)). A
//! ball has no such edge: its base is the cap of faces round its lowest vertex, and rolling
//! over the cap's rim raises its centre by R(1 − cos α) for rings α apart — 0.09% of the
//! diagonal for a UV sphere of 40 rings (α = 4.5°), and the next ring is on the ground: it
//! rolls (neutral, not failing), and any centre of mass a little off its middle makes it
//! roll further. A base whose rise is below [`MIN_RISE`] is held to be such a cap. A column of
//! height ten times its width rises 0.25% and counts.

use glam::{Vec2, Vec3};
use springmesh_core::SpringModel;

/// How far above the lowest node (fraction of the bounding-box diagonal) a node still counts
/// as part of the base.
pub(crate) const BASE_BAND: f32 = 0.002;

/// The least rise of the centre of mass (fraction of the diagonal) over the base's nearest
/// edge for the base to count as stable: the band's own height, so that a ball's cap (a rise
/// of 0.09% on a UV sphere of 40 rings, less on finer ones) does not count (module docs).
pub(crate) const MIN_RISE: f32 = 0.002;

/// How far (fraction of the diagonal) the centre of mass of `model` at rest must rise to tip
/// it over the nearest edge of its base against `up` (module docs); 0 when the base does not
/// hold the centre.
pub(crate) fn tipping_rise(model: &SpringModel, up: Vec3, diagonal: f32) -> f32 {
    let surface = model.surface_positions();
    let height = |x: &Vec3| x.dot(up);
    let lowest = surface.iter().map(height).fold(f32::INFINITY, f32::min);
    let across = up.any_orthonormal_vector();
    let along = up.cross(across);
    let flat = |x: Vec3| Vec2::new(x.dot(across), x.dot(along));
    let on_ground = surface.iter().filter(|x| height(x) <= lowest + BASE_BAND * diagonal);
    let base: Vec<Vec2> = on_ground.map(|&x| flat(x)).collect();
    let p = model.nodes.positions();
    let masses = model.nodes.masses();
    let total: f32 = masses.iter().sum();
    let weighted: Vec3 = p.iter().zip(masses).map(|(&x, &m)| x * m).sum();
    let centre = weighted / total.max(f32::MIN_POSITIVE);
    let h = (height(&centre) - lowest).max(0.0);
    let d = hull_margin(base, flat(centre)).unwrap_or(0.0);
    ((d * d + h * h).sqrt() - h) / diagonal.max(f32::MIN_POSITIVE)
}

/// Whether `model` at rest stands on a stable base against `up`: tipping it raises its centre
/// of mass by at least [`MIN_RISE`] (module docs).
pub(crate) fn stable_base(model: &SpringModel, up: Vec3, diagonal: f32) -> bool {
    tipping_rise(model, up, diagonal) >= MIN_RISE
}

/// The distance from `q` to the nearest edge of the convex hull of `points` when the hull
/// holds `q` strictly inside; `None` otherwise (and for fewer than three points not on one
/// line).
fn hull_margin(mut points: Vec<Vec2>, q: Vec2) -> Option<f32> {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    points.dedup();
    if points.len() < 3 {
        return None;
    }
    let turn = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut hull: Vec<Vec2> = Vec::with_capacity(2 * points.len());
    for pass in [&points[..], &points.iter().rev().copied().collect::<Vec<_>>()[..]] {
        let start = hull.len();
        for &p in pass {
            while hull.len() >= start + 2
                && turn(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    if hull.len() < 3 {
        return None;
    }
    let edges = (0..hull.len()).map(|i| (hull[i], hull[(i + 1) % hull.len()]));
    // Distance to each edge's line, positive inside (the hull runs counter-clockwise).
    let margin = edges
        .map(|(a, b)| turn(a, b, q) / a.distance(b).max(f32::MIN_POSITIVE))
        .fold(f32::INFINITY, f32::min);
    (margin > 0.0).then_some(margin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_holds_its_centre_at_its_distance_and_not_a_point_outside_or_on_its_edge() {
        let square = vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y, Vec2::splat(0.5)];
        let margin = hull_margin(square.clone(), Vec2::new(0.3, 0.6)).expect("inside");
        assert!((margin - 0.3).abs() < 1e-6, "0.3 from the left edge: {margin}");
        assert_eq!(hull_margin(square.clone(), Vec2::new(1.2, 0.5)), None);
        assert_eq!(hull_margin(square, Vec2::new(1.0, 0.5)), None, "on the edge is not inside");
        let line = vec![Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)];
        assert_eq!(hull_margin(line, Vec2::new(1.0, 0.0)), None, "a line is no base");
    }

    /// Nodes at `points` (1 kg each), no springs.
    fn nodes(points: &[Vec3]) -> SpringModel {
        let mut m = SpringModel::default();
        for &position in points {
            m.nodes.push(springmesh_core::Node { position, mass: 1.0 });
        }
        m
    }

    #[test]
    fn four_feet_make_a_base_and_one_tip_does_not() {
        // A box standing on its four bottom corners: its centre is over them.
        let corners: Vec<Vec3> = (0..8)
            .map(|c| Vec3::new((c & 1) as f32, ((c >> 1) & 1) as f32, (c >> 2) as f32))
            .collect();
        assert!(stable_base(&nodes(&corners), Vec3::Y, 1.7));
        // Over an edge 0.5 from the centre, 0.5 up: it rises √0.5 − 0.5.
        let rise = tipping_rise(&nodes(&corners), Vec3::Y, 1.0);
        assert!((rise - (0.5f32.sqrt() - 0.5)).abs() < 1e-6, "{rise}");
        // The same box standing on one corner (turned so that one corner is lowest).
        let turn = glam::Quat::from_rotation_arc(Vec3::ONE.normalize(), Vec3::Y);
        let on_tip: Vec<Vec3> = corners.iter().map(|&p| turn * p).collect();
        assert!(!stable_base(&nodes(&on_tip), Vec3::Y, 1.7));
        // Four feet with the weight hanging out beyond them.
        let mut heavy_side = corners.clone();
        heavy_side.push(Vec3::new(8.0, 1.0, 0.5));
        let mut m = nodes(&heavy_side);
        m.nodes.masses_mut()[8] = 50.0;
        assert!(!stable_base(&m, Vec3::Y, 8.0));
    }

    /// The vertices of a UV sphere of radius 1 with `rings` bands and `segments` meridians.
    fn ball(rings: usize, segments: usize) -> Vec<Vec3> {
        let mut points = vec![Vec3::NEG_Y, Vec3::Y];
        for r in 1..rings {
            let polar = std::f32::consts::PI * r as f32 / rings as f32;
            for s in 0..segments {
                let azimuth = std::f32::consts::TAU * s as f32 / segments as f32;
                let (y, across) = (-polar.cos(), polar.sin());
                points.push(Vec3::new(across * azimuth.cos(), y, across * azimuth.sin()));
            }
        }
        points
    }

    #[test]
    fn a_ball_has_no_base_and_a_column_ten_times_as_tall_as_wide_has() {
        // 40 rings: the pole and its first ring (4.5° up, 0.09% of the diagonal 2√3) lie in
        // the band; rolling over that ring raises the centre by 1 − cos 4.5° = 0.0031.
        let sphere = nodes(&ball(40, 75));
        let rise = tipping_rise(&sphere, Vec3::Y, 2.0 * 3f32.sqrt());
        let over_the_ring = (1.0 - 4.5f32.to_radians().cos()) / (2.0 * 3f32.sqrt());
        assert!((rise - over_the_ring).abs() < 0.05 * over_the_ring, "{rise} {over_the_ring}");
        assert!(!stable_base(&sphere, Vec3::Y, 2.0 * 3f32.sqrt()));
        // A 0.1 × 1 × 0.1 column on its square foot: d = 0.05, h = 0.5.
        let column: Vec<Vec3> = (0..8)
            .map(|c| Vec3::new((c & 1) as f32 * 0.1, ((c >> 1) & 1) as f32, (c >> 2) as f32 * 0.1))
            .collect();
        let diagonal = 1.02f32.sqrt();
        let rise = tipping_rise(&nodes(&column), Vec3::Y, diagonal);
        let expected = ((0.05f32 * 0.05 + 0.25).sqrt() - 0.5) / diagonal;
        assert!((rise - expected).abs() < 1e-5 && rise > MIN_RISE, "{rise} {expected}");
    }
}
