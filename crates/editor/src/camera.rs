//! The orbit camera of the viewport: it circles a target point, looking at it.
//!
//! `yaw` turns around the vertical (y) axis, `pitch` tilts up or down (kept short of the
//! poles), `distance` is from the target. The projection is perspective with a vertical field
//! of view `fov`; near and far planes follow the distance so that depth precision stays where
//! the model is.

use glam::{Mat4, Vec2, Vec3};
use springmesh_core::Aabb;

/// A ray from the eye through a point of the screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    /// Where it starts (the eye).
    pub origin: Vec3,
    /// Its unit direction.
    pub direction: Vec3,
}

/// Orbit camera state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    /// The point looked at and orbited.
    pub target: Vec3,
    /// Rotation about the vertical axis (radians).
    pub yaw: f32,
    /// Elevation above the horizontal (radians).
    pub pitch: f32,
    /// Distance from the target (m).
    pub distance: f32,
    /// Vertical field of view (radians).
    pub fov: f32,
}

/// Pitch stays this far from straight up or down, where the view direction would be
/// parallel to the up vector.
const PITCH_LIMIT: f32 = 1.55;

impl Default for OrbitCamera {
    fn default() -> Self {
        Self { target: Vec3::ZERO, yaw: 0.6, pitch: 0.45, distance: 3.0, fov: 45f32.to_radians() }
    }
}

impl OrbitCamera {
    /// The eye position.
    pub fn eye(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        self.target + Vec3::new(cp * sy, sp, cp * cy) * self.distance
    }

    /// World to view.
    pub fn view(&self) -> Mat4 {
        glam::camera::rh::view::look_at_mat4(self.eye(), self.target, Vec3::Y)
    }

    /// View to clip space (OpenGL conventions) for a viewport of `aspect` = width / height.
    pub fn projection(&self, aspect: f32) -> Mat4 {
        let near = (self.distance * 0.01).max(1e-4);
        let far = self.distance * 100.0 + 10.0;
        glam::camera::rh::proj::opengl::perspective(self.fov, aspect.max(1e-3), near, far)
    }

    /// World to clip space.
    pub fn view_projection(&self, aspect: f32) -> Mat4 {
        self.projection(aspect) * self.view()
    }

    /// The ray through `pixel` of a viewport of `size` pixels (origin top left).
    pub fn ray(&self, pixel: Vec2, size: Vec2) -> Ray {
        let ndc = Vec2::new(2.0 * pixel.x / size.x - 1.0, 1.0 - 2.0 * pixel.y / size.y);
        let inverse = self.view_projection(size.x / size.y).inverse();
        let near = inverse.project_point3(ndc.extend(-1.0));
        let far = inverse.project_point3(ndc.extend(1.0));
        Ray { origin: near, direction: (far - near).normalize_or_zero() }
    }

    /// Where `point` lands in a viewport of `size` pixels (origin top left), with its depth
    /// along the view; `None` behind the eye.
    pub fn project(&self, point: Vec3, size: Vec2) -> Option<(Vec2, f32)> {
        let clip = self.view_projection(size.x / size.y) * point.extend(1.0);
        if clip.w <= 0.0 {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        Some((Vec2::new((ndc.x + 1.0) * 0.5 * size.x, (1.0 - ndc.y) * 0.5 * size.y), clip.w))
    }

    /// World size of one pixel at `depth` along the view, in a viewport `height` pixels tall.
    pub fn pixel_size(&self, depth: f32, height: f32) -> f32 {
        2.0 * depth * (self.fov * 0.5).tan() / height.max(1.0)
    }

    /// Turns the camera by `delta` pixels of mouse motion.
    pub fn orbit(&mut self, delta: Vec2) {
        self.yaw -= delta.x * 0.008;
        self.pitch = (self.pitch + delta.y * 0.008).clamp(-PITCH_LIMIT, PITCH_LIMIT);
    }

    /// Slides the target by `delta` pixels of mouse motion in a viewport `height` pixels tall,
    /// so that the point under the mouse follows it.
    pub fn pan(&mut self, delta: Vec2, height: f32) {
        let view = self.view();
        let right = view.row(0).truncate();
        let up = view.row(1).truncate();
        let scale = self.pixel_size(self.distance, height);
        self.target += (-right * delta.x + up * delta.y) * scale;
    }

    /// Moves closer (positive `steps`) or farther, by 10% per step.
    pub fn zoom(&mut self, steps: f32) {
        self.distance = (self.distance * 0.9f32.powf(steps)).clamp(1e-3, 1e6);
    }

    /// Looks at the whole box from far enough that it fits a view `aspect` times as wide as
    /// tall: its bounding sphere within the narrower of the vertical and horizontal angles.
    pub fn frame(&mut self, bounds: Aabb, aspect: f32) {
        self.target = bounds.center();
        let radius = (0.5 * bounds.diagonal()).max(1e-3);
        let half = self.fov * 0.5;
        let across = (half.tan() * aspect.clamp(0.1, 10.0)).atan();
        self.distance = radius / half.min(across).sin() * 1.1;
    }

    /// Moves the target (not the angle or distance) just enough that `point` is inside the
    /// middle 80% of a viewport of `size`.
    pub fn keep_visible(&mut self, point: Vec3, size: Vec2) {
        let inside = |p: Vec2| {
            (p.x - 0.5 * size.x).abs() < 0.4 * size.x && (p.y - 0.5 * size.y).abs() < 0.4 * size.y
        };
        if self.project(point, size).is_some_and(|(p, _)| inside(p)) {
            return;
        }
        self.target = point;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_centre_ray_hits_the_target_and_projection_inverts_it() {
        let cam = OrbitCamera { target: Vec3::new(1.0, 2.0, 3.0), ..OrbitCamera::default() };
        let size = Vec2::new(800.0, 600.0);
        let ray = cam.ray(size * 0.5, size);
        let to_target = (cam.target - ray.origin).normalize();
        assert!(ray.direction.dot(to_target) > 0.99999, "{ray:?}");
        let p = Vec3::new(1.3, 1.8, 2.9);
        let (pixel, _) = cam.project(p, size).expect("in front");
        let back = cam.ray(pixel, size);
        let closest = back.origin + back.direction * (p - back.origin).dot(back.direction);
        assert!(closest.distance(p) < 1e-4, "{closest} vs {p}");
    }

    #[test]
    fn framing_fits_the_box_and_keep_visible_recentres() {
        let mut cam = OrbitCamera::default();
        let b = Aabb { min: Vec3::splat(-2.0), max: Vec3::splat(2.0) };
        for size in [Vec2::new(400.0, 400.0), Vec2::new(200.0, 400.0)] {
            cam.frame(b, size.x / size.y);
            for corner in [b.min, b.max, Vec3::new(-2.0, 2.0, -2.0), Vec3::new(2.0, -2.0, 2.0)] {
                let (p, _) = cam.project(corner, size).expect("in front");
                assert!(p.x > 0.0 && p.x < size.x && p.y > 0.0 && p.y < size.y, "{corner} at {p}");
            }
        }
        let size = Vec2::new(400.0, 400.0);
        let far = Vec3::new(40.0, 0.0, 0.0);
        cam.keep_visible(far, size);
        assert_eq!(cam.target, far);
    }
}
