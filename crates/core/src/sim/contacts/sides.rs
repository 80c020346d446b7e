//! # Keeping a side: continuous contact with spheres and capsules
//!
//! A point pushed out of a round collider to the *nearest* side of its surface crosses it
//! whenever something carries the point past the collider's axis within one sub-step: a max
//! distance pulling a skirt's node back towards its skinned position, which a kicking leg now
//! covers, or a limb moving more than its radius. The node then ends on the far side of the
//! limb from its neighbours, and the springs between them wrap round it. So a point that was
//! outside at the start
//! of the sub-step leaves the collider on the side it came from, as continuous collision
//! does (NvCloth's continuous collision of moving spheres and capsules; Bridson, Fedkiw &
//! Anderson, "Robust Treatment of Collisions, Contact and Friction for Cloth Animation",
//! SIGGRAPH 2002):
//!
//! ```text
//! p₀' = p₀ + Δq(τ)                         where the point was, carried with the collider
//! c   = p₀' + σ (p − p₀'),  σ ∈ [0, 1]     the first point of the path inside: φ(c) = 0
//! n   = ∇φ(c) = (c − q(c)) / |c − q(c)|    the surface's normal there
//! p  ← p + n (n · (c − p))                 onto the tangent plane at c
//! ```
//!
//! - p₀, p: the point at the start of the sub-step and now (m); φ(x) = |x − q(x)| − R the
//!   collider's distance function, q(x) the nearest point of its axis a–b (a sphere's centre
//!   twice), R its radius plus the nodes' ([`crate::SimParams::node_radius`]).
//! - Δq(τ) = (1 − τ) Δa + τ Δb: how far the axis point at p₀'s parameter τ moved in the
//!   sub-step, as [`crate::sim::contacts::moving`] moves a capsule's ends (zero when it stands).
//! - σ: found by sphere tracing from p₀' (Hart, "Sphere tracing", The Visual Computer, 1996):
//!   σ ← σ + φ(c)/|p − p₀'|, which never steps inside a collider and converges in a few steps
//!   unless the path grazes it.
//!
//! This is only needed, and only taken, when p has crossed the axis: when the normal at c
//! and the nearest side's, n_p = (p − q(p))/|p − q(p)|, point the same way (n · n_p > 0,
//! every ordinary contact), p goes out the nearest way, p ← q(p) + R n_p, onto the surface.
//! Otherwise the tangent plane at c, which has the whole convex collider on one side, takes
//! p out on the side of c; the path's part along that plane is kept, so a node pulled
//! through a limb slides over it instead of stopping where it touched. A point that was
//! already inside at the start (a collider put on it) goes out the nearest way.
//!
//! [`crate::Simulation::set_continuous_collision`] turns this off, with the colliders' sweep
//! across the sub-steps and the edges' collisions, to compare: the runner's long cape of
//! `crates/convert/tests/worn_figure.rs` then goes 3.2 cm into a leg and through itself.

use glam::Vec3A;

/// Steps of the sphere tracing at most: a path that grazes the surface stops short, outside,
/// and the tangent plane there still has the collider on one side.
const TRACE_STEPS: usize = 24;

/// The point of the segment `a`–`b` nearest `x`.
fn on_axis(a: Vec3A, b: Vec3A, x: Vec3A) -> Vec3A {
    let axis = b - a;
    let length = axis.length_squared();
    let t = if length > 0.0 { ((x - a).dot(axis) / length).clamp(0.0, 1.0) } else { 0.0 };
    a + axis * t
}

/// How far `x` is outside the collider of axis `a`–`b` and radius `radius` (negative inside),
/// and the outward direction from the axis (up at the axis itself).
fn distance(a: Vec3A, b: Vec3A, radius: f32, x: Vec3A) -> (f32, Vec3A) {
    let d = x - on_axis(a, b, x);
    let length = d.length();
    let n = if length > 0.0 { d / length } else { Vec3A::Y };
    (length - radius, n)
}

/// How far along the straight path from `from` (outside) to `to` it first touches the
/// collider of axis `a`–`b` and radius `radius`, as a fraction σ ∈ [0, 1], by sphere tracing
/// (module doc); `None` when it does not.
fn entry(from: Vec3A, to: Vec3A, (a, b, radius): (Vec3A, Vec3A, f32)) -> Option<f32> {
    let path = to - from;
    let length = path.length();
    let mut sigma = 0.0;
    for _ in 0..TRACE_STEPS {
        let (phi, _) = distance(a, b, radius, from + path * sigma);
        if phi <= radius * 1e-5 {
            return Some(sigma);
        }
        if length == 0.0 || sigma >= 1.0 {
            return None;
        }
        sigma = (sigma + phi / length).min(1.0);
    }
    let (phi, _) = distance(a, b, radius, from + path * sigma);
    (phi <= 0.0).then_some(sigma)
}

/// The push that takes `p` out of the collider of axis `a`–`b` and radius `radius` on the side
/// of `from` (where it was, carried with the collider): the outward normal and how far along
/// it (module doc); `None` when `p` is outside.
pub(crate) fn out_on_its_side(
    from: Vec3A,
    p: Vec3A,
    (a, b, radius): (Vec3A, Vec3A, f32),
) -> Option<(Vec3A, f32)> {
    let (depth, n) = distance(a, b, radius, p);
    if depth >= 0.0 {
        return None;
    }
    let (start, _) = distance(a, b, radius, from);
    let path = p - from;
    let length = path.length();
    if start <= 0.0 || length == 0.0 {
        return Some((n, -depth));
    }
    let c = from + path * entry(from, p, (a, b, radius)).unwrap_or(1.0);
    let (_, entered) = distance(a, b, radius, c);
    if entered.dot(n) > 0.0 {
        return Some((n, -depth));
    }
    Some((entered, entered.dot(c - p).max(0.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A capsule along z through the origin of radius 0.1.
    const CAPSULE: (Vec3A, Vec3A, f32) =
        (Vec3A::new(0.0, 0.0, -1.0), Vec3A::new(0.0, 0.0, 1.0), 0.1);

    #[test]
    fn a_point_pulled_through_a_capsule_leaves_it_on_the_side_it_came_from() {
        // From (−0.2, 0, 0) to (0.05, 0, 0), past the axis: out at x = −0.1, not at +0.1.
        let from = Vec3A::new(-0.2, 0.0, 0.0);
        let p = Vec3A::new(0.05, 0.0, 0.0);
        let (n, depth) = out_on_its_side(from, p, CAPSULE).expect("inside");
        let at = p + n * depth;
        assert!((at - Vec3A::new(-0.1, 0.0, 0.0)).length() < 1e-4, "{at}");
    }

    #[test]
    fn a_point_through_slantwise_slides_on_the_tangent_plane_where_it_entered() {
        // From (−0.2, 0, 0) to (0.05, 0, 0.3), past the axis: it enters at (−0.1, 0, 0.12),
        // whose normal is −x, and keeps its motion along z: out at (−0.1, 0, 0.3).
        let from = Vec3A::new(-0.2, 0.0, 0.0);
        let p = Vec3A::new(0.05, 0.0, 0.3);
        let (n, depth) = out_on_its_side(from, p, CAPSULE).expect("inside");
        let at = p + n * depth;
        assert!((at - Vec3A::new(-0.1, 0.0, 0.3)).length() < 1e-4, "{at}");
    }

    #[test]
    fn a_point_just_inside_on_the_side_it_came_from_goes_onto_the_surface() {
        // From (−0.2, 0, 0) to (−0.09, 0, 0.05): 1 cm in, on the −x side; out at (−0.1, 0, 0.05).
        let p = Vec3A::new(-0.09, 0.0, 0.05);
        let (n, depth) = out_on_its_side(Vec3A::new(-0.2, 0.0, 0.0), p, CAPSULE).expect("inside");
        assert!((p + n * depth - Vec3A::new(-0.1, 0.0, 0.05)).length() < 1e-6);
    }

    #[test]
    fn a_point_outside_is_left_and_one_that_started_inside_goes_out_the_nearest_way() {
        assert!(out_on_its_side(Vec3A::X, Vec3A::new(0.2, 0.0, 0.0), CAPSULE).is_none());
        // Started inside on the −x side, now just past the axis on +x: out at +x.
        let (n, depth) =
            out_on_its_side(Vec3A::new(-0.05, 0.0, 0.0), Vec3A::new(0.02, 0.0, 0.0), CAPSULE)
                .expect("inside");
        assert!((n - Vec3A::X).length() < 1e-6 && (depth - 0.08).abs() < 1e-6, "{n} {depth}");
    }

    #[test]
    fn a_sphere_is_a_capsule_of_one_point() {
        // A sphere of radius 1 at the origin; from (0, 2, 0) down to (0, −0.5, 0): out at the top.
        let sphere = (Vec3A::ZERO, Vec3A::ZERO, 1.0);
        let p = Vec3A::new(0.0, -0.5, 0.0);
        let (n, depth) = out_on_its_side(Vec3A::new(0.0, 2.0, 0.0), p, sphere).expect("inside");
        assert!((p + n * depth - Vec3A::Y).length() < 1e-4);
    }
}
