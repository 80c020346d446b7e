//! Clicking on nodes and springs: ray casting on the CPU.
//!
//! The ray through the mouse is tested against every visible node as a sphere and every
//! visible spring as a capsule (a cylinder with round ends around the segment between its
//! nodes). Their radii are a few pixels turned into metres at their depth, so a node is as
//! easy to hit far away as near. Nodes win over springs (they are drawn on top); among hits of
//! one kind the nearest to the eye wins. Everything is plain geometry, so it is tested
//! without a GPU.

use crate::camera::{OrbitCamera, Ray};
use crate::selection::Item;
use glam::{Vec2, Vec3};
use springmesh_core::{NodeId, SpringId, SpringKind, SpringModel};

/// Pick radius of a node, in pixels.
pub const NODE_RADIUS_PX: f32 = 7.0;
/// Pick radius of a spring, in pixels.
pub const SPRING_RADIUS_PX: f32 = 4.0;

/// What may be picked.
pub struct Pickable<'a> {
    /// The model (springs and their kinds).
    pub model: &'a SpringModel,
    /// Where the nodes are drawn.
    pub positions: &'a [Vec3],
    /// Whether nodes are shown.
    pub nodes: bool,
    /// Whether springs of each kind are shown, in the order of `SpringKind::ALL`.
    pub kinds: [bool; SpringKind::ALL.len()],
}

/// The item under `pixel` of a viewport of `size`, if any.
pub fn pick(camera: &OrbitCamera, pixel: Vec2, size: Vec2, what: &Pickable) -> Option<Item> {
    let ray = camera.ray(pixel, size);
    let radius_at = |point: Vec3, px: f32| {
        camera.pixel_size((point - ray.origin).dot(ray.direction), size.y) * px
    };
    if what.nodes {
        let nearest_node = what
            .positions
            .iter()
            .enumerate()
            .filter_map(|(i, &p)| ray_sphere(&ray, p, radius_at(p, NODE_RADIUS_PX)).map(|t| (t, i)))
            .min_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((_, i)) = nearest_node {
            return Some(Item::Node(NodeId::from_index(i)));
        }
    }
    let springs = &what.model.springs;
    let nearest_spring = springs
        .iter()
        .enumerate()
        .filter(|(_, s)| what.kinds[s.kind as usize])
        .filter_map(|(i, s)| {
            let (a, b) = (*what.positions.get(s.a.index())?, *what.positions.get(s.b.index())?);
            let (t, point) = ray_segment(&ray, a, b);
            let gap = (ray.origin + ray.direction * t).distance(point);
            (t > 0.0 && gap <= radius_at(point, SPRING_RADIUS_PX)).then_some((t, i))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0));
    nearest_spring.map(|(_, i)| Item::Spring(SpringId::from_index(i)))
}

/// Distance along the ray to the sphere around `centre`, if the ray meets it in front.
fn ray_sphere(ray: &Ray, centre: Vec3, radius: f32) -> Option<f32> {
    let to_centre = centre - ray.origin;
    let along = to_centre.dot(ray.direction);
    let miss_squared = to_centre.length_squared() - along * along;
    let r2 = radius * radius;
    if along <= 0.0 || miss_squared > r2 {
        return None;
    }
    Some(along - (r2 - miss_squared).max(0.0).sqrt())
}

/// The closest approach of the ray and the segment a–b: the distance along the ray and the
/// closest point of the segment (the classic closest points of two lines, clamped to the
/// segment; Ericson, "Real-Time Collision Detection", 2005, §5.1.9).
fn ray_segment(ray: &Ray, a: Vec3, b: Vec3) -> (f32, Vec3) {
    let d = b - a;
    let r = ray.origin - a;
    let (dd, dr, rd) = (d.length_squared(), d.dot(ray.direction), ray.direction.dot(r));
    let denominator = dd - dr * dr;
    let s = if dd <= f32::EPSILON {
        0.0
    } else if denominator.abs() <= f32::EPSILON * dd {
        // Parallel: any point will do; take the end nearest the ray's start.
        0.0
    } else {
        ((d.dot(r) - dr * rd) / denominator).clamp(0.0, 1.0)
    };
    let point = a + d * s;
    let t = (point - ray.origin).dot(ray.direction);
    (t, point)
}

#[cfg(test)]
mod tests {
    use super::*;
    use springmesh_core::{Node, Spring, SpringKind};

    /// Looking down −z from (0, 0, 5) at the origin, through an 800 × 800 viewport.
    fn camera() -> (OrbitCamera, Vec2) {
        (
            OrbitCamera {
                target: Vec3::ZERO,
                yaw: 0.0,
                pitch: 0.0,
                distance: 5.0,
                ..OrbitCamera::default()
            },
            Vec2::splat(800.0),
        )
    }

    /// Two nodes at x = ±1 joined by a spring, and a third behind node 0.
    fn model() -> SpringModel {
        let mut m = SpringModel::default();
        for p in [Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), Vec3::new(-1.0, 0.0, -2.0)] {
            m.nodes.push(Node { position: p, mass: 1.0 });
        }
        m.springs.push(Spring::new(NodeId(0), NodeId(1), 2.0, 1.0, SpringKind::Stretch));
        m
    }

    #[test]
    fn picks_nodes_springs_and_nothing() {
        let (cam, size) = camera();
        let m = model();
        let what = Pickable {
            model: &m,
            positions: m.nodes.positions(),
            nodes: true,
            kinds: [true; SpringKind::ALL.len()],
        };
        let at = |p: Vec3| cam.project(p, size).expect("visible").0;
        assert_eq!(
            pick(&cam, at(Vec3::new(1.0, 0.0, 0.0)), size, &what),
            Some(Item::Node(NodeId(1)))
        );
        // Node 2 is exactly behind node 0: the nearer one wins.
        assert_eq!(
            pick(&cam, at(Vec3::new(-1.0, 0.0, 0.0)), size, &what),
            Some(Item::Node(NodeId(0)))
        );
        let middle = at(Vec3::ZERO);
        assert_eq!(pick(&cam, middle, size, &what), Some(Item::Spring(SpringId(0))));
        assert_eq!(
            pick(&cam, middle + Vec2::new(0.0, 3.0), size, &what),
            Some(Item::Spring(SpringId(0))),
            "within 4 px"
        );
        assert_eq!(pick(&cam, middle + Vec2::new(0.0, 6.0), size, &what), None, "beyond 4 px");
        assert_eq!(pick(&cam, Vec2::new(5.0, 5.0), size, &what), None);
    }

    #[test]
    fn hidden_things_cannot_be_picked() {
        let (cam, size) = camera();
        let m = model();
        let hidden = Pickable {
            model: &m,
            positions: m.nodes.positions(),
            nodes: false,
            kinds: [false, true, true, true, true],
        };
        let at = |p: Vec3| cam.project(p, size).expect("visible").0;
        assert_eq!(
            pick(&cam, at(Vec3::new(1.0, 0.0, 0.0)), size, &hidden),
            None,
            "nodes hidden, stretch hidden"
        );
        assert_eq!(pick(&cam, at(Vec3::ZERO), size, &hidden), None);
    }

    #[test]
    fn segment_closest_points() {
        let ray = Ray { origin: Vec3::new(0.0, 1.0, 5.0), direction: Vec3::NEG_Z };
        let (t, p) = ray_segment(&ray, Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0));
        assert!((t - 5.0).abs() < 1e-5 && p.distance(Vec3::ZERO) < 1e-5, "{t} {p}");
        let (_, p) = ray_segment(&ray, Vec3::new(2.0, 0.0, 0.0), Vec3::new(3.0, 0.0, 0.0));
        assert!(p.distance(Vec3::new(2.0, 0.0, 0.0)) < 1e-5, "clamped to the nearer end: {p}");
    }
}
