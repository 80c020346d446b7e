//! Whether a body stands on a stable base: the horizontal convex hull of its lowest nodes (of
//! a cage, its lowest surface vertices: the skin is what touches) holds its centre of mass
//! (Andrew's monotone chain for the hull).
//!
//! "Lowest" is within [`BASE_BAND`] of the lowest node: the nodes that touch a flat ground.
//! The band is narrow so that a ball does not count its first ring of latitude as feet: on a
//! UV sphere of 16 rings that ring stands 0.55% of the diagonal above the pole, and a ball
//! rolls (neutral, not failing); the flat feet of a standing body (hooves, a table's legs, a
//! smoothed blob's paws) lie within it.

use crate::SpringModel;
use glam::{Vec2, Vec3};

/// How far above the lowest node (fraction of the bounding-box diagonal) a node still counts
/// as part of the base.
pub(crate) const BASE_BAND: f32 = 0.002;

/// Whether `model` at rest stands on a stable base against `up`: the horizontal convex hull
/// of its nodes within [`BASE_BAND`] × `diagonal` of the lowest holds the projection of its
/// centre of mass strictly inside.
pub(crate) fn stable_base(model: &SpringModel, up: Vec3, diagonal: f32) -> bool {
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
    hull_holds(base, flat(weighted / total.max(f32::MIN_POSITIVE)))
}

/// Whether the convex hull of `points` holds `q` strictly inside (never for fewer than three
/// points not on one line).
fn hull_holds(mut points: Vec<Vec2>, q: Vec2) -> bool {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    points.dedup();
    if points.len() < 3 {
        return false;
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
    hull.len() >= 3 && (0..hull.len()).all(|i| turn(hull[i], hull[(i + 1) % hull.len()], q) > 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_holds_its_centre_and_not_a_point_outside_or_on_its_edge() {
        let square = vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y, Vec2::splat(0.5)];
        assert!(hull_holds(square.clone(), Vec2::new(0.3, 0.6)));
        assert!(!hull_holds(square.clone(), Vec2::new(1.2, 0.5)));
        assert!(!hull_holds(square, Vec2::new(1.0, 0.5)), "on the edge is not inside");
        let line = vec![Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)];
        assert!(!hull_holds(line, Vec2::new(1.0, 0.0)), "a line is no base");
    }

    /// Nodes at `points` (1 kg each), no springs.
    fn nodes(points: &[Vec3]) -> SpringModel {
        let mut m = SpringModel::default();
        for &position in points {
            m.nodes.push(crate::Node { position, mass: 1.0 });
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
}
