//! The model's colliders drawn as outlines over the 3D view: a sphere's three great circles, a
//! capsule's end rings, side lines and caps, a box's twelve edges, a plane's square about its
//! point with its normal. They are projected with the view's camera and painted by egui on
//! top of the model, so a collider inside the cloth still shows.

use crate::camera::OrbitCamera;
use eframe::egui;
use glam::{Quat, Vec2, Vec3};
use springmesh_core::model::Shape;
use std::f32::consts::TAU;

/// Points per full circle.
const SEGMENTS: usize = 48;

/// The outline colour: the ground grid's neutral tone would vanish behind cloth, so orange.
pub const COLOUR: egui::Color32 = egui::Color32::from_rgb(255, 150, 40);

/// The polylines (world space, m) that outline `shape`; `size` is how wide a plane's square is.
pub fn outlines(shape: &Shape, size: f32) -> Vec<Vec<Vec3>> {
    match *shape {
        Shape::Sphere { center, radius } => {
            [(Vec3::X, Vec3::Y), (Vec3::Y, Vec3::Z), (Vec3::Z, Vec3::X)]
                .map(|(u, v)| arc(center, u * radius, v * radius, TAU))
                .to_vec()
        }
        Shape::Capsule { a, b, radius } => {
            let axis = (b - a).try_normalize().unwrap_or(Vec3::Y);
            let (u, v) = axis.any_orthonormal_pair();
            let (u, v) = (u * radius, v * radius);
            let mut lines = vec![arc(a, u, v, TAU), arc(b, u, v, TAU)];
            for side in [u, v, -u, -v] {
                lines.push(vec![a + side, b + side]);
            }
            // The caps: half circles over each end, in two planes through the axis.
            for side in [u, v] {
                lines.push(arc(a, side, -axis * radius, std::f32::consts::PI));
                lines.push(arc(b, side, axis * radius, std::f32::consts::PI));
                lines.push(arc(a, -side, -axis * radius, std::f32::consts::PI));
                lines.push(arc(b, -side, axis * radius, std::f32::consts::PI));
            }
            lines
        }
        Shape::Box { center, half_extents, rotation } => {
            let length = rotation.length();
            let turn = if length > 0.0 { rotation / length } else { Quat::IDENTITY };
            let corner = |i: usize| {
                let sign = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
                center + turn * (half_extents * Vec3::new(sign(1), sign(2), sign(4)))
            };
            // Corners i and j share an edge when their numbers differ in one bit.
            let edges = (0..8).flat_map(|i| [1, 2, 4].map(|bit| (i, i ^ bit)));
            edges.filter(|(i, j)| i < j).map(|(i, j)| vec![corner(i), corner(j)]).collect()
        }
        Shape::Plane { point, normal } => {
            let n = normal.try_normalize().unwrap_or(Vec3::Y);
            let (u, v) = n.any_orthonormal_pair();
            let (u, v) = (u * size * 0.5, v * size * 0.5);
            let square =
                vec![point + u + v, point - u + v, point - u - v, point + u - v, point + u + v];
            vec![square, vec![point, point + n * size * 0.2]]
        }
        Shape::Triangle { a, b, c } => vec![vec![a, b, c, a]],
    }
}

/// The arc from `centre + u` turning towards `centre + v` by `angle` (rad), `u` ⟂ `v`.
fn arc(centre: Vec3, u: Vec3, v: Vec3, angle: f32) -> Vec<Vec3> {
    let n = ((SEGMENTS as f32 * angle / TAU).ceil() as usize).max(2);
    (0..=n)
        .map(|k| {
            let (s, c) = (angle * k as f32 / n as f32).sin_cos();
            centre + u * c + v * s
        })
        .collect()
}

/// Paints the outlines of `shapes` over the view `rect` seen by `camera`; `size` is the
/// model's size (m), for planes. Segments with an end behind the eye are left out.
pub fn paint(
    painter: &egui::Painter,
    camera: &OrbitCamera,
    rect: egui::Rect,
    shapes: impl Iterator<Item = Shape>,
    size: f32,
) {
    let view = Vec2::new(rect.width(), rect.height());
    let stroke = egui::Stroke::new(1.5, COLOUR);
    let screen = |p: Vec3| {
        camera.project(p, view).map(|(px, _)| egui::pos2(px.x + rect.left(), px.y + rect.top()))
    };
    for shape in shapes {
        for line in outlines(&shape, size) {
            for pair in line.windows(2) {
                if let (Some(a), Some(b)) = (screen(pair[0]), screen(pair[1])) {
                    painter.line_segment([a, b], stroke);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance from `p` to the segment a–b.
    fn to_segment(p: Vec3, a: Vec3, b: Vec3) -> f32 {
        let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
        p.distance(a + (b - a) * t)
    }

    #[test]
    fn outlines_lie_on_the_shapes_surfaces() {
        let (a, b, radius) = (Vec3::new(1.0, 0.0, 0.0), Vec3::new(1.0, 2.0, 1.0), 0.3);
        let capsule = outlines(&Shape::Capsule { a, b, radius }, 1.0);
        assert_eq!(capsule.len(), 2 + 4 + 8, "two rings, four sides, eight half circles");
        for p in capsule.iter().flatten() {
            assert!((to_segment(*p, a, b) - radius).abs() < 1e-5, "{p}");
        }
        let center = Vec3::new(0.0, 1.0, 0.0);
        for p in outlines(&Shape::Sphere { center, radius: 0.5 }, 1.0).iter().flatten() {
            assert!((p.distance(center) - 0.5).abs() < 1e-5, "{p}");
        }
        let rotation = Quat::from_rotation_z(0.4);
        let half = Vec3::new(0.1, 0.2, 0.3);
        let edges = outlines(&Shape::Box { center, half_extents: half, rotation }, 1.0);
        assert_eq!(edges.len(), 12);
        for p in edges.iter().flatten() {
            let local = (rotation.inverse() * (*p - center)).abs();
            assert!((local - half).abs().min_element() < 1e-5, "a corner lies on the box: {p}");
            assert!((local - half).max_element() < 1e-5, "{p}");
        }
        let plane = outlines(&Shape::Plane { point: center, normal: Vec3::Y * 2.0 }, 2.0);
        assert!(plane[0].iter().all(|p| (p.y - 1.0).abs() < 1e-6), "the square lies in the plane");
    }
}
