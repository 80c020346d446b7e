//! # Edges against spheres and capsules: a limb never slips between two nodes
//!
//! The nodes collide as balls ([`crate::sim::contacts::collision`]); between two of them the
//! cloth is an edge that nothing holds. A limb thinner than the cloth's cells, or one that
//! strikes an edge between its ends, pushes each end out to its own nearest side and passes
//! between them: the edge's spring ends on both sides of the limb, wrapped round it (a
//! running figure's heel through the hem of its cape stretched its springs 34%). So after
//! the sub-step's constraints, each edge of the model's triangles is kept out of every
//! sphere and capsule as a point riding on it (NvCloth's virtual particles; the position
//! projection of Müller et al., "Position Based Dynamics", 2007):
//!
//! ```text
//! p = (1 − s) x_i + s x_j,   q = a + t (b − a)       the closest points of the edge and the axis
//! |p − q| < R:  n, C                                  the push out of the collider on the side
//!                                                     p came from (below)
//! λ = C / (w_i (1 − s)² + w_j s²)
//! x_i ← x_i + w_i (1 − s) λ n,   x_j ← x_j + w_j s λ n
//! ```
//!
//! - x_i, x_j: the edge's nodes (m), w_i, w_j their inverse masses;
//! - a, b: the collider's axis at this sub-step (a sphere's centre twice), R its radius plus
//!   the nodes' ([`crate::SimParams::node_radius`]);
//! - s, t: the closest points' parameters (Ericson, "Real-Time Collision Detection", 2005,
//!   §5.1.9).
//!
//! The push n, C is the nearest side's, n = (p − q)/|p − q| and C = R − |p − q|, unless the
//! point crossed the axis in the sub-step: then it goes back out where it entered
//! ([`crate::sim::contacts::sides`], the point's start carried by the collider's motion at t),
//! so a limb that moves, or a max distance that pulls, past the middle of an edge does not
//! put the edge on its far side.
//!
//! The point then loses its slide over the collider's surface as a node's contact does
//! (Coulomb, in positions: Macklin et al., "Unified Particle Physics for Real-Time
//! Applications", 2014, §6.1): with Δp the point's motion in the sub-step and Δq the surface's
//! motion there, the tangential part of Δp − Δq is taken back whole when it is under μ
//! times the depth C, else by μ C, moving the ends as the normal push did, so that a cloth
//! draped over a moving limb is dragged along, not pushed out from under without friction.
//!
//! Only points strictly between the ends are pushed (0 < s < 1): an end is a node, which its
//! own collision answers. Nor are the edges with a kinematic end (w = 0): that end follows the
//! skin, on or just inside the surface of the body's colliders, so the edge's points next to
//! it are often in, and the push would move the free end alone by C / s, without bound as
//! s → 0; the free end's own collision keeps it out. The correction is a position
//! projection: the velocity Xpbd derives from it is the one that takes the edge out at the
//! collider's speed. Edges are the triangles' (a sheet's shear and bend springs are no cloth
//! surface); a model without triangles has none.

use crate::sim::contacts::round::RoundAxis;
use crate::sim::contacts::{near, sides};
use glam::Vec3A;

/// Pushes the edges `edges` (node pairs) out of the round colliders `axes`, in the obstacles'
/// order ([`crate::sim::contacts::collision::Colliders::round_axes`]), with friction; the nodes
/// are at `base + u`, and were at `base + u_prev` when the sub-step began (the Xpbd solver's
/// displacements), with inverse masses `w` (module doc).
///
/// Over all the edges, each edge is tested against the colliders its ends' masks hold
/// (`near`: [`crate::sim::contacts::near`], for points within half the longest edge of a node,
/// as each point of an edge is of its nearer end): a cloth on a body is near every body part
/// somewhere, but each of its edges near two or three.
pub(crate) fn push_out(
    axes: &[RoundAxis],
    edges: &[[u32; 2]],
    base: &[Vec3A],
    (u_prev, u): (&[Vec3A], &mut [Vec3A]),
    w: &[f32],
    near: &[u32],
) {
    if axes.is_empty() {
        return;
    }
    // Which axis each of the first obstacles is (a mask's bits are obstacles), and the axes
    // of the obstacles past them, always tested.
    let mut slot = [u8::MAX; near::ALWAYS];
    for (k, axis) in axes.iter().enumerate().take(usize::from(u8::MAX)) {
        if let Some(s) = slot.get_mut(axis.obstacle) {
            *s = k as u8;
        }
    }
    // The axes come in the obstacles' order, so those past them are the last.
    let later = &axes[axes.partition_point(|axis| axis.obstacle < near::ALWAYS)..];
    for &[i, j] in edges {
        let (i, j) = (i as usize, j as usize);
        // The colliders near either end (every one past the 32nd always).
        let mask = match (near.get(i), near.get(j)) {
            (Some(&a), Some(&b)) => a | b,
            _ => u32::MAX,
        };
        // An edge near none of the first colliders, with none past them, meets nothing: told
        // before its nodes are read.
        let none_near = mask & !near::bit(near::ALWAYS) == 0 && later.is_empty();
        if mask == 0 || none_near {
            continue;
        }
        let (Some(&xi0), Some(&xj0), Some(&wi), Some(&wj), Some(&ui0), Some(&uj0)) =
            (base.get(i), base.get(j), w.get(i), w.get(j), u_prev.get(i), u_prev.get(j))
        else {
            continue;
        };
        // An edge with a kinematic end is left to its free end's collision (module doc).
        if wi == 0.0 || wj == 0.0 {
            continue;
        }
        let (mut xi, mut xj) = (xi0 + u[i], xj0 + u[j]);
        let (mut middle, mut half) = ((xi + xj) * 0.5, 0.5 * xi.distance(xj));
        let masked = near::obstacles(mask).filter_map(|o| axes.get(usize::from(slot[o])));
        for axis in masked.chain(later) {
            // The quick test: the edge's ball against the collider.
            if !axis.within(middle, half) {
                continue;
            }
            let (a, b, radius) = (axis.a, axis.b, axis.radius);
            let (s, t) = closest_on_segments(xi, xj, a, b);
            if s <= 0.0 || s >= 1.0 {
                continue;
            }
            let p = xi.lerp(xj, s);
            if p.distance_squared(a.lerp(b, t)) >= radius * radius {
                continue;
            }
            // Out on the side the point came from, carried with the collider.
            let from = (xi0 + ui0).lerp(xj0 + uj0, s) + axis.moved.0.lerp(axis.moved.1, t);
            let Some((n, depth)) = sides::out_on_its_side(from, p, (a, b, radius)) else {
                continue;
            };
            // A move c of the point moves the ends by k_i c and k_j c.
            let per = 1.0 / (wi * (1.0 - s) * (1.0 - s) + wj * s * s);
            let (ki, kj) = (wi * (1.0 - s) * per, wj * s * per);
            u[i] += n * (depth * ki);
            u[j] += n * (depth * kj);
            // Friction: the point's slide over the surface this sub-step, less at most μ δ.
            let slid = (u[i] - ui0).lerp(u[j] - uj0, s) - axis.moved.0.lerp(axis.moved.1, t);
            let slide = slid - n * slid.dot(n);
            let length = slide.length();
            if length > 0.0 {
                let back = -slide * (axis.friction * depth / length).min(1.0);
                u[i] += back * ki;
                u[j] += back * kj;
            }
            (xi, xj) = (xi0 + u[i], xj0 + u[j]);
            (middle, half) = ((xi + xj) * 0.5, 0.5 * xi.distance(xj));
        }
    }
}

/// The longest of `edges` with their nodes at `base + u` (m; 0 for none).
pub(crate) fn longest(edges: &[[u32; 2]], base: &[Vec3A], u: &[Vec3A]) -> f32 {
    let at = |i: u32| base.get(i as usize).zip(u.get(i as usize)).map(|(&x, &d)| x + d);
    let longest = edges.iter().fold(0.0f32, |l, &[i, j]| match (at(i), at(j)) {
        (Some(a), Some(b)) => l.max(a.distance_squared(b)),
        _ => l,
    });
    longest.sqrt()
}

/// The parameters (s, t) ∈ [0, 1]² of the closest points p₁ + s (q₁ − p₁) and
/// p₂ + t (q₂ − p₂) of two segments (Ericson 2005, §5.1.9); a segment of zero length is its
/// first point.
pub(crate) fn closest_on_segments(p1: Vec3A, q1: Vec3A, p2: Vec3A, q2: Vec3A) -> (f32, f32) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    if a <= f32::EPSILON {
        return (0.0, if e <= f32::EPSILON { 0.0 } else { (f / e).clamp(0.0, 1.0) });
    }
    let c = d1.dot(r);
    if e <= f32::EPSILON {
        return ((-c / a).clamp(0.0, 1.0), 0.0);
    }
    let b = d1.dot(d2);
    let denominator = a * e - b * b;
    let s = if denominator > 0.0 { ((b * f - c * e) / denominator).clamp(0.0, 1.0) } else { 0.0 };
    let t = (b * s + f) / e;
    if t < 0.0 {
        ((-c / a).clamp(0.0, 1.0), 0.0)
    } else if t > 1.0 {
        (((b - c) / a).clamp(0.0, 1.0), 1.0)
    } else {
        (s, t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one edge (0, 1) at `base + u` (still a sub-step ago) pushed out of `axes` with
    /// inverse masses `w`; whether it was pushed (moved).
    fn pushed(axes: &[RoundAxis], base: &[Vec3A; 2], u: &mut [Vec3A; 2], w: [f32; 2]) -> bool {
        let before = *u;
        push_out(axes, &[[0u32, 1]], base, (&[Vec3A::ZERO; 2], u), &w, &[]);
        *u != before
    }

    #[test]
    fn masks_worked_out_for_half_an_edge_hold_a_collider_that_only_its_middle_touches() {
        // An edge 0.2 m long, its middle 1 cm into a capsule along z of radius 0.16 m, its
        // ends √(0.1² + 0.15²) − 0.16 = 2.0 cm out of it: only points near the middle touch.
        // Masks worked out for half the edge (what the solver asks for) hold the capsule and
        // the edge is pushed; worked out for the least reach, they leave it out at both ends.
        let base = [Vec3A::new(-0.1, 0.15, 0.0), Vec3A::new(0.1, 0.15, 0.0)];
        let ends = (Vec3A::new(0.0, 0.0, -1.0), Vec3A::new(0.0, 0.0, 1.0), 0.16);
        let axes = [RoundAxis::new(ends, (Vec3A::ZERO, Vec3A::ZERO), 0.0)];
        for (reach, pushed) in [(0.1, true), (0.0, false)] {
            let mut near = near::NearColliders::default();
            near.refresh(1, &axes, |i| base[i], 2, reach);
            let mut u = [Vec3A::ZERO; 2];
            push_out(&axes, &[[0, 1]], &base, (&[Vec3A::ZERO; 2], &mut u), &[1.0; 2], &near.mask);
            assert_eq!(u != [Vec3A::ZERO; 2], pushed, "reach {reach}: {u:?}");
            assert_eq!(near.mask[0] & near::bit(0) != 0, pushed);
        }
    }

    #[test]
    fn an_edge_resting_on_a_moving_capsule_is_carried_by_friction_and_slides_without() {
        // The edge lies 1 mm into a capsule along z that moves 1 cm along x in the sub-step;
        // the edge did not move. With μ = 1 and the slide (1 cm) over μ × depth (1 mm), the
        // slide is taken back by 1 mm; with μ = 100, whole: the edge goes along with it.
        let base = [Vec3A::new(-1.0, 0.199, 0.0), Vec3A::new(1.0, 0.199, 0.0)];
        let axis = |friction| {
            let ends = (Vec3A::new(0.0, 0.0, -1.0), Vec3A::new(0.0, 0.0, 1.0), 0.2);
            RoundAxis::new(ends, (Vec3A::X * 0.01, Vec3A::X * 0.01), friction)
        };
        for (friction, along) in [(0.0, 0.0), (1.0, 0.001), (100.0, 0.01)] {
            let mut u = [Vec3A::ZERO; 2];
            assert!(pushed(&[axis(friction)], &base, &mut u, [1.0; 2]));
            for d in u {
                assert!(
                    (d.x - along).abs() < 1e-5 && (d.y - 0.001).abs() < 1e-5,
                    "μ {friction}: {d}"
                );
            }
        }
    }

    #[test]
    fn an_edge_pulled_past_a_capsules_axis_goes_back_out_on_the_side_it_came_from() {
        // A capsule along z of radius 0.2; the edge from (−1, −0.3, 0) to (1, −0.3, 0), below
        // it, is now at y = +0.05, past the axis: both ends go to y = −0.2 (the nearest side
        // would be +0.2).
        let axes = [RoundAxis::new(
            (Vec3A::new(0.0, 0.0, -1.0), Vec3A::new(0.0, 0.0, 1.0), 0.2),
            (Vec3A::ZERO, Vec3A::ZERO),
            0.0,
        )];
        let base = [Vec3A::new(-1.0, -0.3, 0.0), Vec3A::new(1.0, -0.3, 0.0)];
        let mut u = [Vec3A::new(0.0, 0.35, 0.0); 2];
        assert!(pushed(&axes, &base, &mut u, [1.0; 2]));
        for (x0, d) in base.iter().zip(u) {
            assert!(((x0 + d).y + 0.2).abs() < 1e-4, "{}", x0 + d);
        }
    }

    #[test]
    fn the_closest_points_of_two_segments_are_found_by_hand() {
        // Crossing at right angles, 1 apart: the middles.
        let (s, t) = closest_on_segments(
            Vec3A::new(-1.0, 0.0, 0.0),
            Vec3A::new(1.0, 0.0, 0.0),
            Vec3A::new(0.0, -1.0, 1.0),
            Vec3A::new(0.0, 1.0, 1.0),
        );
        assert!((s - 0.5).abs() < 1e-6 && (t - 0.5).abs() < 1e-6, "{s} {t}");
        // Parallel, overlapping from x = 1 to 2: any pair of the overlap, at the same x.
        let (s, t) = closest_on_segments(
            Vec3A::ZERO,
            Vec3A::new(2.0, 0.0, 0.0),
            Vec3A::new(1.0, 1.0, 0.0),
            Vec3A::new(3.0, 1.0, 0.0),
        );
        assert!((2.0 * s - (1.0 + 2.0 * t)).abs() < 1e-6, "{s} {t}");
        // Past the end: the second segment's start is nearest the first's end.
        let (s, t) = closest_on_segments(
            Vec3A::ZERO,
            Vec3A::X,
            Vec3A::new(2.0, 0.0, 0.0),
            Vec3A::new(3.0, 1.0, 0.0),
        );
        assert_eq!((s, t), (1.0, 0.0));
    }

    #[test]
    fn an_edge_across_a_capsule_goes_out_whole_and_one_on_a_kinematic_node_is_left() {
        // An edge from (−1, 0, 0) to (1, 0, 0) across a capsule along z at (0, 0.1) of radius
        // 0.2 (0.1 m deep at its middle): both ends go down by 0.1 (s = ½, equal masses:
        // λ = 0.1 / ½, each end ½ λ).
        let axes = [RoundAxis::new(
            (Vec3A::new(0.0, 0.1, -1.0), Vec3A::new(0.0, 0.1, 1.0), 0.2),
            (Vec3A::ZERO, Vec3A::ZERO),
            0.0,
        )];
        let base = [Vec3A::new(-1.0, 0.0, 0.0), Vec3A::new(1.0, 0.0, 0.0)];
        let mut u = [Vec3A::ZERO; 2];
        assert!(pushed(&axes, &base, &mut u, [1.0, 1.0]));
        for d in u {
            assert!((d - Vec3A::new(0.0, -0.1, 0.0)).length() < 1e-6, "{d}");
        }
        // The first end kinematic: left to the nodes' collisions.
        let mut u = [Vec3A::ZERO; 2];
        assert!(!pushed(&axes, &base, &mut u, [0.0, 1.0]));
        assert_eq!(u, [Vec3A::ZERO; 2], "a kinematic end: the node collisions answer it");
        // Clear of it: nothing moves.
        let mut u = [Vec3A::new(0.0, -0.2, 0.0); 2];
        assert!(!pushed(&axes, &base, &mut u, [1.0, 1.0]));
        assert_eq!(u, [Vec3A::new(0.0, -0.2, 0.0); 2]);
    }
}
