//! # Colliders a game moves
//!
//! A game sets where one of the model's colliders is at the end of the next step
//! ([`crate::Simulation::move_collider`]): a character's limb, a paddle, a door. Put there at
//! once, a collider that moves further in a frame than its radius would jump past the nodes in
//! front of it — they would end up nearer its back and be pushed out behind it: the cloth
//! tunnels through — and a node resting on it would be neither carried nor dragged along.
//! So the collider instead moves across the step's sub-steps at a constant velocity, from its
//! pose P₀ at the start of the step to the pose P₁ the game set:
//!
//! ```text
//! P(s) = lerp(P₀, P₁, s),   s = t_k / Δt at the end of sub-step k        (rotations: slerp)
//! v_s(p) = v_o + ω × (p − o(s))                                         (the surface's velocity at p)
//! v_o = (o₁ − o₀) / Δt,   ω = θ a / Δt  where  R₁ R₀⁻¹ = rotation by θ about a
//! ```
//!
//! - P: the shape's pose (a sphere's centre, a capsule's two ends, a box's centre and
//!   rotation, a plane's point and normal); o: its origin (the centre, the plane's point).
//! - Δt: the step (s); t_k: the time of sub-step k's end within it.
//! - A capsule's ends move independently, so a point at parameter τ along its axis moves at
//!   (1 − τ) v_a + τ v_b: exact for its linear interpolation, turning or not. A triangle's
//!   corners move independently too, and its surface at their mean velocity (exact for a
//!   triangle that does not turn).
//!
//! Each sub-step tests the nodes against P(s), so a collider going at speed V advances V h per
//! sub-step of h: at 3 m/s and 16 sub-steps at 60 Hz, 3 mm, less than any collider's radius.
//! Contacts answer the node's velocity *relative to the surface*, v − v_s
//! ([`crate::sim::contacts::collision`]): a moving surface pushes what is in its way at its
//! own speed, and friction drags what rests on it along instead of holding it back (the
//! relative-velocity contact of Bridson, Fedkiw & Anderson, "Robust Treatment of Collisions,
//! Contact and Friction for Cloth Animation", SIGGRAPH 2002, §7.2, and of NvCloth's motion of
//! its collision shapes within a frame).

use crate::geometry::along_segment;
use crate::model::Shape;
use glam::{Quat, Vec3};

/// The shape a collider moving from `from` to `to` over a step has at the fraction `s` of it.
/// Shapes of different kinds do not interpolate: `to` is returned.
pub(crate) fn between(from: &Shape, to: &Shape, s: f32) -> Shape {
    match (*from, *to) {
        (Shape::Sphere { center: c0, radius: r0 }, Shape::Sphere { center: c1, radius: r1 }) => {
            Shape::Sphere { center: c0.lerp(c1, s), radius: r0 + (r1 - r0) * s }
        }
        (
            Shape::Capsule { a: a0, b: b0, radius: r0 },
            Shape::Capsule { a: a1, b: b1, radius: r1 },
        ) => Shape::Capsule { a: a0.lerp(a1, s), b: b0.lerp(b1, s), radius: r0 + (r1 - r0) * s },
        (
            Shape::Box { center: c0, half_extents: h0, rotation: q0 },
            Shape::Box { center: c1, half_extents: h1, rotation: q1 },
        ) => Shape::Box {
            center: c0.lerp(c1, s),
            half_extents: h0.lerp(h1, s),
            rotation: unit(q0).slerp(unit(q1), s),
        },
        (Shape::Plane { point: p0, normal: n0 }, Shape::Plane { point: p1, normal: n1 }) => {
            let turn = Quat::IDENTITY.slerp(arc(n0, n1), s);
            Shape::Plane { point: p0.lerp(p1, s), normal: turn * n0 }
        }
        (Shape::Triangle { a: a0, b: b0, c: c0 }, Shape::Triangle { a: a1, b: b1, c: c1 }) => {
            Shape::Triangle { a: a0.lerp(a1, s), b: b0.lerp(b1, s), c: c0.lerp(c1, s) }
        }
        _ => *to,
    }
}

/// The velocity (m/s) of the surface point `p` of a collider moving from `from` to `to` over a
/// step of `dt` seconds, now at `now` (see the module doc).
pub(crate) fn surface_velocity(from: &Shape, to: &Shape, now: &Shape, p: Vec3, dt: f32) -> Vec3 {
    let per_second = 1.0 / dt;
    match (*from, *to, *now) {
        (Shape::Sphere { center: c0, .. }, Shape::Sphere { center: c1, .. }, _) => {
            (c1 - c0) * per_second
        }
        (Shape::Capsule { a: a0, b: b0, .. }, Shape::Capsule { a: a1, b: b1, .. }, now) => {
            let Shape::Capsule { a, b, .. } = now else { return Vec3::ZERO };
            let tau = along_segment(a, b, p);
            (a1 - a0).lerp(b1 - b0, tau) * per_second
        }
        (
            Shape::Box { center: c0, rotation: q0, .. },
            Shape::Box { center: c1, rotation: q1, .. },
            Shape::Box { center, .. },
        ) => rigid(c1 - c0, unit(q1) * unit(q0).inverse(), p - center, per_second),
        (
            Shape::Plane { point: p0, normal: n0 },
            Shape::Plane { point: p1, normal: n1 },
            Shape::Plane { point, .. },
        ) => rigid(p1 - p0, arc(n0, n1), p - point, per_second),
        (Shape::Triangle { a: a0, b: b0, c: c0 }, Shape::Triangle { a: a1, b: b1, c: c1 }, _) => {
            ((a1 - a0) + (b1 - b0) + (c1 - c0)) * (per_second / 3.0)
        }
        _ => Vec3::ZERO,
    }
}

/// v_o + ω × r for a body whose origin moved by `shift` and which turned by `turn` over a step
/// of 1/`per_second` s; `r` from the origin to the point.
fn rigid(shift: Vec3, turn: Quat, r: Vec3, per_second: f32) -> Vec3 {
    let (axis, angle) = turn.to_axis_angle();
    let omega = if angle.is_finite() && axis.is_finite() { axis * angle } else { Vec3::ZERO };
    (shift + omega.cross(r)) * per_second
}

/// `q` normalised (a box's rotation need not be), the identity for a zero quaternion.
fn unit(q: Quat) -> Quat {
    let length = q.length();
    if length > 0.0 && length.is_finite() { q / length } else { Quat::IDENTITY }
}

/// The shortest rotation taking the direction of `from` to that of `to` (the identity for
/// a zero vector).
fn arc(from: Vec3, to: Vec3) -> Quat {
    match (from.try_normalize(), to.try_normalize()) {
        (Some(a), Some(b)) => Quat::from_rotation_arc(a, b),
        _ => Quat::IDENTITY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sphere_moves_its_centre_in_straight_line_at_constant_speed() {
        let from = Shape::Sphere { center: Vec3::ZERO, radius: 1.0 };
        let to = Shape::Sphere { center: Vec3::new(0.3, 0.0, 0.0), radius: 1.0 };
        let half = between(&from, &to, 0.5);
        assert_eq!(half, Shape::Sphere { center: Vec3::new(0.15, 0.0, 0.0), radius: 1.0 });
        let v = surface_velocity(&from, &to, &half, Vec3::new(0.15, 1.0, 0.0), 0.1);
        assert!((v - Vec3::new(3.0, 0.0, 0.0)).length() < 1e-5, "{v}");
    }

    #[test]
    fn a_capsule_turning_about_one_end_moves_its_points_in_proportion_to_their_distance() {
        // Turning by 0.1 rad about a: b (1 m away) moves 0.1 m, the midpoint half of that.
        let from = Shape::Capsule { a: Vec3::ZERO, b: Vec3::X, radius: 0.1 };
        let b1 = Vec3::new(0.1f32.cos(), 0.1f32.sin(), 0.0);
        let to = Shape::Capsule { a: Vec3::ZERO, b: b1, radius: 0.1 };
        let now = between(&from, &to, 1.0);
        let dt = 0.1;
        let at_mid = surface_velocity(&from, &to, &now, b1 * 0.5 + Vec3::Z * 0.1, dt);
        let at_end = surface_velocity(&from, &to, &now, b1 * 1.05, dt);
        assert!((at_end.length() - 1.0).abs() < 0.01, "{at_end}");
        assert!((at_mid.length() - 0.5).abs() < 0.01, "{at_mid}");
        assert!(at_end.x.abs() < 0.06 && at_end.y > 0.99, "{at_end}");
    }

    #[test]
    fn a_turning_box_moves_its_surface_as_a_rigid_body() {
        // A box spun about y at 2 rad/s: a point 1 m out along x moves at 2 m/s along −z.
        let dt = 0.01;
        let from =
            Shape::Box { center: Vec3::ZERO, half_extents: Vec3::ONE, rotation: Quat::IDENTITY };
        let to = Shape::Box {
            center: Vec3::ZERO,
            half_extents: Vec3::ONE,
            rotation: Quat::from_rotation_y(2.0 * dt),
        };
        let v = surface_velocity(&from, &to, &between(&from, &to, 1.0), Vec3::X, dt);
        assert!((v - Vec3::new(0.0, 0.0, -2.0)).length() < 1e-3, "{v}");
        let Shape::Box { rotation, .. } = between(&from, &to, 0.5) else { panic!("a box") };
        assert!(rotation.angle_between(Quat::from_rotation_y(dt)) < 1e-4);
    }

    #[test]
    fn a_plane_tilts_its_normal_by_the_shortest_arc() {
        let from = Shape::Plane { point: Vec3::ZERO, normal: Vec3::Y };
        let to = Shape::Plane { point: Vec3::Y, normal: Vec3::X * 3.0 };
        let Shape::Plane { point, normal } = between(&from, &to, 0.5) else { panic!("a plane") };
        assert!((point - Vec3::Y * 0.5).length() < 1e-6);
        let diagonal = Vec3::new(1.0, 1.0, 0.0).normalize();
        assert!((normal.normalize() - diagonal).length() < 1e-5, "{normal}");
        // Shapes of different kinds jump to the new one.
        let sphere = Shape::Sphere { center: Vec3::ZERO, radius: 1.0 };
        assert_eq!(between(&from, &sphere, 0.1), sphere);
        assert_eq!(surface_velocity(&from, &sphere, &sphere, Vec3::ZERO, 0.1), Vec3::ZERO);
    }
}
