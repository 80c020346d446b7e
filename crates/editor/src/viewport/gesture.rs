//! Drags in the viewport that are not camera moves: Ctrl+drag selects the nodes inside a
//! rectangle, Alt+drag moves a node (an undoable edit, one step per drag) or, while a test
//! plays, pulls it (see [`crate::grab`]).

use crate::camera::OrbitCamera;
use glam::{Vec2, Vec3};
use springmesh_core::NodeId;

/// A drag going on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Drag {
    /// Selecting nodes inside the rectangle from `start` to `end` (pixels from the
    /// viewport's top left).
    Box {
        /// Where the drag started.
        start: Vec2,
        /// Where the pointer was last.
        end: Vec2,
    },
    /// Moving or pulling a node.
    Node {
        /// The node.
        node: NodeId,
        /// True once the drag has made its first edit (later ones join it).
        moved: bool,
    },
}

/// The point under `pixel` at the depth of `through` (on the plane through it facing the
/// camera): where a dragged node goes.
pub fn plane_point(camera: &OrbitCamera, pixel: Vec2, size: Vec2, through: Vec3) -> Vec3 {
    let ray = camera.ray(pixel, size);
    let forward = (camera.target - camera.eye()).normalize_or_zero();
    let along = ray.direction.dot(forward);
    if along.abs() < 1e-6 {
        return through;
    }
    ray.origin + ray.direction * ((through - ray.origin).dot(forward) / along)
}

/// The nodes at `positions` drawn inside the rectangle with corners `a` and `b` (pixels).
pub fn nodes_inside(
    camera: &OrbitCamera,
    size: Vec2,
    positions: &[Vec3],
    (a, b): (Vec2, Vec2),
) -> Vec<NodeId> {
    let (lo, hi) = (a.min(b), a.max(b));
    positions
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            camera.project(**p, size).is_some_and(|(q, _)| q.cmpge(lo).all() && q.cmple(hi).all())
        })
        .map(|(i, _)| NodeId::from_index(i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dragged_point_stays_at_its_depth_and_a_box_holds_what_it_covers() {
        let camera = OrbitCamera::default();
        let size = Vec2::new(800.0, 600.0);
        let p = camera.target + Vec3::new(0.1, 0.2, 0.0);
        let (pixel, depth) = camera.project(p, size).expect("in front");
        let back = plane_point(&camera, pixel, size, p);
        assert!((back - p).length() < 1e-3, "{back} vs {p}");
        let moved = plane_point(&camera, pixel + Vec2::new(40.0, 0.0), size, p);
        let forward = (camera.target - camera.eye()).normalize();
        let depth_of = |q: Vec3| (q - camera.eye()).dot(forward);
        assert!((depth_of(moved) - depth_of(p)).abs() < 1e-3, "same depth {depth}");
        let points = [p, camera.target + Vec3::new(5.0, 0.0, 0.0)];
        let inside = nodes_inside(&camera, size, &points, (pixel - 5.0, pixel + 5.0));
        assert_eq!(inside, vec![NodeId(0)]);
    }
}
