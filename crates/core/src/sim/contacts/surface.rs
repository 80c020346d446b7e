//! # Contacts at the drawn surface of a cage
//!
//! A model with a skin collides where its surface is drawn, not where its cage's nodes are:
//! the cage's nodes do not collide, the skin's touching points do
//! ([`crate::sim::data::TouchPoints`]). A point rides on cage nodes j with weights w_j, so it
//! is at p = Σ_j w_j x_j and moves at v_p = Σ_j w_j v_j. A collider answers it as it answers a
//! node ([`super::collision`]): a position p′ outside and a velocity v′. The point is moved
//! there by the smallest mass-weighted change of its nodes that does it, the position-based
//! answer to a constraint on a weighted sum of positions (Müller et al., "Position Based
//! Dynamics", 2007, §3.3, with the gradient ∂p/∂x_j = w_j):
//!
//! ```text
//! Δx_j = w_j m_j⁻¹ (p′ − p) / Σ_k w_k² m_k⁻¹
//! ```
//!
//! so that Σ_j w_j Δx_j = p′ − p exactly: the point ends where the collider put it, and the
//! nodes share the move in proportion to their weight and their lightness (an anchored node,
//! m⁻¹ = 0, keeps still). Then the velocities, in two steps (as Müller et al., "Detailed Rigid
//! Body Simulation with Extended Position Based Dynamics", SCA 2020, §3.5, do for bodies):
//!
//! ```text
//! v_j ← v_j + Δx_j / h                             each node moves as far as it was moved
//! Δv_j = w_j m_j⁻¹ n (v′·n − v_p·n) / Σ_k w_k² m_k⁻¹   each touching point, once all are placed
//! ```
//!
//! The first keeps every node's velocity what its motion over the sub-step was, pushes
//! included. (Answering each point's velocity on its own instead, its nodes shared by many
//! points summed their changes past what their motion was: a blob resting on the ground kept
//! cage nodes at 0.3 to 0.7 m/s, each pulled down by its springs and pushed back every
//! sub-step, while none of them moved.) The second gives each touching point the speed along
//! the normal n that the collider's answer v′ asks: stopped, bounced (see
//! [`super::collision`]) or carried along by a moving surface, so that a contact that pushes
//! a point out of a deep overlap adds no speed: a body placed in the ground does not jump off
//! it. Friction is in the move already (the answer moves a sliding point back along the
//! surface).
//!
//! - p, v_p: a point's position (m) and velocity (m/s); x_j, v_j, m_j: its nodes' positions,
//!   velocities and masses (kg); w_j its weights (Σ w_j = 1).
//!
//! Points are visited owner by owner, and an owner's points are only looked at when its node
//! is within the owner's reach of a collider ([`Colliders::may_touch`]). A body answered as a
//! whole first ([`super::body`]) looks for its contacts over the same owners just before: it
//! keeps the owners within their reach and [`NEAR_SLACK`] of a collider ([`Near`]), and while
//! neither its answer nor the skin's contacts so far have moved a node further than half that
//! slack, the skin's contacts look only at those, in the same order (then at every owner from
//! there on): they are the same points, found without a second pass over every owner (about
//! 10 µs of a resting blob's 150 µs frame; test).

use crate::sim::contacts::collision::Colliders;
use crate::sim::data::TouchPoints;
use glam::Vec3A;

/// Where the nodes are: positions `base + x`, or `x` alone when `base` is `None` (the Xpbd
/// solver keeps displacements from the start of the step, the explicit ones positions).
pub(crate) struct Frame<'a> {
    pub base: Option<&'a [Vec3A]>,
    /// The nodes at the start of the sub-step, in the same terms as `x`.
    pub from: &'a [Vec3A],
}

impl Frame<'_> {
    /// Where node `j` is, its `x` being `x[j]`.
    #[inline]
    pub fn at(&self, x: &[Vec3A], j: usize) -> Vec3A {
        self.at_value(x[j], j)
    }

    /// Where node `j` is when its `x` is `xj`.
    #[inline]
    pub fn at_value(&self, xj: Vec3A, j: usize) -> Vec3A {
        self.base.map_or(xj, |b| b[j] + xj)
    }

    /// Where node `j` was at the start of the sub-step.
    #[inline]
    pub fn start_of(&self, j: usize) -> Vec3A {
        self.at_value(self.from[j], j)
    }
}

/// Where touching point `i` is, on nodes at `x`, when a collider may touch it there: `None`
/// exactly when [`Colliders::resolve`] would find no contact (its first test), so that the
/// points out of every collider's reach (most of a body's, away from where it rests) cost no
/// more than their position.
#[inline]
pub(crate) fn reachable(
    points: &TouchPoints,
    i: usize,
    colliders: &Colliders,
    frame: &Frame,
    x: &[Vec3A],
) -> Option<Vec3A> {
    let corners = points.nodes[i].iter().zip(&points.weights[i]);
    let p: Vec3A = corners.map(|(&j, &w)| w * frame.at(x, j as usize)).sum();
    colliders.may_touch(p, 0.0).then_some(p)
}

/// How much further than its reach an owner may be from a collider and still be kept by
/// [`Near::find`] (m): a resting body's support moves it by about g h², 0.04 mm a sub-step at
/// 8 sub-steps of a 60 Hz frame, a landing one by a few millimetres.
pub(crate) const NEAR_SLACK: f32 = 0.01;

/// The owners near a collider, found by the support of a body answered as a whole for the
/// skin's contacts of the same sub-step (module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct Near {
    /// The owners (indices into [`TouchPoints::owners`]) within their reach and
    /// [`NEAR_SLACK`] of a collider, in order.
    owners: Vec<u32>,
    /// How far a node may still move (m) before an owner not found may come within its reach
    /// of a collider: half of [`NEAR_SLACK`] when found, less what has moved the nodes since;
    /// not positive when not known. [`touch`] takes it.
    budget: f32,
}

impl Near {
    /// Visits the owners of `points` on nodes at `x` within their reach of `colliders`, in
    /// order, with `visit(k)`, and keeps those within their reach and [`NEAR_SLACK`].
    #[inline(always)]
    pub fn find(
        &mut self,
        points: &TouchPoints,
        (colliders, frame): (&Colliders, &Frame),
        x: &[Vec3A],
        mut visit: impl FnMut(usize),
    ) {
        self.owners.clear();
        for (k, (&owner, &reach)) in points.owners.iter().zip(&points.reach).enumerate() {
            let at = frame.at(x, owner as usize);
            if colliders.may_touch(at, reach + NEAR_SLACK) {
                self.owners.push(k as u32);
                if colliders.may_touch(at, reach) {
                    visit(k);
                }
            }
        }
        self.budget = 0.5 * NEAR_SLACK;
    }

    /// The nodes have moved by up to `by` (m) since the owners were found.
    pub fn moved(&mut self, by: f32) {
        self.budget -= by;
    }
}

/// The skin's contacts' scratch, kept between sub-steps: the points that touched in a
/// sub-step, each with its normal, the speed along it that its answer asks for and its nodes'
/// Σ w² m⁻¹ (the second pass of [`touch`]), and the owners near a collider.
#[derive(Clone, Debug, Default)]
pub(crate) struct Touched {
    points: Vec<(usize, Vec3A, f32, f32)>,
    pub near: Near,
}

/// Resolves the contacts of the touching points `points` with `colliders` after a sub-step of
/// `h`, moving the nodes' `x` and `v` (module docs). Returns true when a point touched.
pub(crate) fn touch(
    points: &TouchPoints,
    (colliders, frame): (&Colliders, &Frame),
    inv_mass: &[f32],
    (x, v): (&mut [Vec3A], &mut [Vec3A]),
    h: f32,
    Touched { points: touched, near }: &mut Touched,
) -> bool {
    touched.clear();
    // The owners the body's support found while no node has moved past its budget (each
    // contact here moves nodes too), then every one from there on.
    let mut budget = std::mem::take(&mut near.budget);
    let (mut listed, mut next) = (near.owners.iter(), 0);
    loop {
        let k = if budget > 0.0 {
            match listed.next() {
                Some(&k) => k as usize,
                None => break,
            }
        } else if next < points.owners.len() {
            next
        } else {
            break;
        };
        next = k + 1;
        if !colliders.may_touch(frame.at(x, points.owners[k] as usize), points.reach[k]) {
            continue;
        }
        for i in points.of(k) {
            let (nodes, weights) = (points.nodes[i], points.weights[i]);
            let Some(p) = reachable(points, i, colliders, frame, x) else { continue };
            let (mut p_from, mut vp, mut share) = (Vec3A::ZERO, Vec3A::ZERO, 0.0);
            for (&j, &w) in nodes.iter().zip(&weights) {
                let j = j as usize;
                p_from += w * frame.start_of(j);
                vp += w * v[j];
                share += w * w * inv_mass[j];
            }
            let (mut to, mut vt) = (p, vp);
            let normal = match colliders.resolve(p_from, &mut to, &mut vt, h) {
                Some(normal) if share > 0.0 => normal,
                _ => continue,
            };
            touched.push((i, normal, vt.dot(normal), share));
            let dp = (to - p) / share;
            let mut furthest = 0.0f32;
            for (&j, &w) in nodes.iter().zip(&weights) {
                let j = j as usize;
                let g = w * inv_mass[j];
                x[j] += dp * g;
                v[j] += dp * (g / h);
                furthest = furthest.max(g.abs());
            }
            budget -= dp.length() * furthest;
        }
    }
    for &(i, n, speed, share) in touched.iter() {
        let (nodes, weights) = (points.nodes[i], points.weights[i]);
        let vp: Vec3A = nodes.iter().zip(&weights).map(|(&j, &w)| w * v[j as usize]).sum();
        let dv = n * ((speed - vp.dot(n)) / share);
        for (&j, &w) in nodes.iter().zip(&weights) {
            v[j as usize] += dv * (w * inv_mass[j as usize]);
        }
    }
    !touched.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Ground, Surface};

    fn ground() -> Ground {
        Ground { height: 0.0, surface: Surface { friction: 0.0, restitution: 0.0 } }
    }

    /// Nothing but the ground `g`, for nodes of no radius.
    fn on(g: &Ground) -> Colliders<'_> {
        Colliders {
            ground: Some(g),
            obstacles: &[],
            targets: &[],
            poses: &[],
            row: None,
            progress: 1.0,
            dt: 0.01,
            custom: &[],
            radius: 0.0,
            rest_speed: 0.0,
        }
    }

    /// One touching point on `nodes` with `weights`, owned by node 0 with `reach`.
    fn one_point(nodes: [u32; 4], weights: [f32; 4], reach: f32) -> TouchPoints {
        TouchPoints {
            nodes: vec![nodes],
            weights: vec![weights],
            owners: vec![0],
            first: vec![0, 1],
            reach: vec![reach],
        }
    }

    #[test]
    fn a_point_between_two_nodes_lands_on_the_ground_and_they_share_the_push() {
        // Nodes at y = 0.1 and 1.1 (x 0 and 1), masses 1 and 3 kg; the point rides ¾ on the
        // lower one, at y = 0.35 m; the nodes sink 0.4 m, taking it to −0.05 m.
        let g = ground();
        let colliders = on(&g);
        let points = one_point([0, 1, 0, 0], [0.75, 0.25, 0.0, 0.0], 2.0);
        let inv_mass = [1.0, 1.0 / 3.0];
        let from = [Vec3A::new(0.0, 0.1, 0.0), Vec3A::new(1.0, 1.1, 0.0)];
        let mut x = from.map(|p| p - Vec3A::Y * 0.4);
        let mut v = [Vec3A::new(0.0, -2.0, 0.0); 2];
        let frame = Frame { base: None, from: &from };
        let mut touched = Touched::default();
        assert!(touch(
            &points,
            (&colliders, &frame),
            &inv_mass,
            (&mut x, &mut v),
            0.01,
            &mut touched
        ));
        let p = x[0] * 0.75 + x[1] * 0.25;
        assert!(p.y.abs() < 1e-6, "the point is on the ground: {p}");
        let vp = v[0] * 0.75 + v[1] * 0.25;
        assert!(vp.y.abs() < 1e-6, "and stopped (no bounce): {vp}");
        // Σ w² m⁻¹ = 0.5625 + 0.0625 / 3; the lighter node, weighed more, moves 9× as far.
        let (up0, up1) = (x[0].y - (0.1 - 0.4), x[1].y - (1.1 - 0.4));
        assert!((up0 / up1 - 9.0).abs() < 1e-4, "{up0} {up1}");
        // The ground pushes straight up: nothing moves sideways.
        assert!(x.iter().all(|p| p.z == 0.0) && v.iter().all(|v| v.x == 0.0));
    }

    #[test]
    fn an_owner_out_of_reach_is_not_looked_at() {
        let g = ground();
        let colliders = on(&g);
        // The owner node is 1 m up with a reach of 0.5 m: its point (below the ground, which
        // no cage of that reach could carry) is skipped.
        let points = one_point([1, 0, 0, 0], [1.0, 0.0, 0.0, 0.0], 0.5);
        let from = [Vec3A::Y, Vec3A::NEG_Y];
        let (mut x, mut v) = (from, [Vec3A::ZERO; 2]);
        let frame = Frame { base: None, from: &from };
        let touched = &mut Touched::default();
        assert!(!touch(
            &points,
            (&colliders, &frame),
            &[1.0, 1.0],
            (&mut x, &mut v),
            0.01,
            touched
        ));
        assert_eq!(x, from);
    }

    #[test]
    fn a_point_pushed_out_of_a_deep_overlap_gains_no_speed() {
        // Two nodes of 1 kg, still, 0.3 m under the ground, carry a point halfway: the ground
        // lifts both 0.3 m, and the move adds no speed (a body placed in the ground does not
        // jump off it), where the move alone over h = 0.01 s would be 30 m/s.
        let g = ground();
        let colliders = on(&g);
        let points = one_point([0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0], 2.0);
        let from = [Vec3A::new(0.0, -0.3, 0.0), Vec3A::new(1.0, -0.3, 0.0)];
        let (mut x, mut v) = (from, [Vec3A::ZERO; 2]);
        let frame = Frame { base: None, from: &from };
        let touched = &mut Touched::default();
        assert!(touch(&points, (&colliders, &frame), &[1.0, 1.0], (&mut x, &mut v), 0.01, touched));
        assert!(x.iter().all(|p| p.y.abs() < 1e-6), "both on the ground: {x:?}");
        assert!(v.iter().all(|v| v.length() < 1e-5), "and still: {v:?}");
    }

    /// Owners 0..8, each node k at height `heights[k]` (x = k), with two points: one on
    /// itself, one shared half and half with the next node.
    fn a_row(heights: &[f32]) -> (TouchPoints, Vec<Vec3A>) {
        let n = heights.len() as u32;
        let mut points = TouchPoints::default();
        for k in 0..n {
            points.owners.push(k);
            points.first.push(points.nodes.len() as u32);
            points.reach.push(0.05);
            points.nodes.push([k, k, k, k]);
            points.weights.push([1.0, 0.0, 0.0, 0.0]);
            points.nodes.push([k, (k + 1) % n, 0, 0]);
            points.weights.push([0.5, 0.5, 0.0, 0.0]);
        }
        points.first.push(points.nodes.len() as u32);
        let x = heights.iter().enumerate().map(|(k, &y)| Vec3A::new(k as f32, y, 0.0)).collect();
        (points, x)
    }

    #[test]
    fn the_owners_found_near_give_the_contacts_every_owner_gives() {
        let g = ground();
        let colliders = on(&g);
        // Owners just under the ground, on it, within their reach of it (0.05 m), within their
        // reach and slack, and far above; owner 5's shared point rides on the deep node 6.
        // The contacts before owner 5's move nodes by less than the budget left.
        let heights = [0.0075, 0.008, 0.052, 0.2, 0.0079, 0.057, -0.1, 0.03];
        let (points, from) = a_row(&heights);
        let inv_mass = [1.0, 0.5, 2.0, 1.0, 1.0, 0.25, 1.0, 1.0];
        let frame = Frame { base: None, from: &from };
        let sunk = |by: f32| from.iter().map(|p| *p - Vec3A::Y * by).collect::<Vec<_>>();
        // The owners found 4 mm down; the contacts 8 mm down (moved by 4 mm since).
        let run = |near: Option<f32>| {
            let mut touched = Touched::default();
            let mut found = Vec::new();
            if let Some(moved) = near {
                touched.near.find(&points, (&colliders, &frame), &sunk(0.004), |k| found.push(k));
                touched.near.moved(moved);
            }
            let (mut x, mut v) = (sunk(0.008), vec![Vec3A::new(0.3, -0.4, 0.0); 8]);
            touch(&points, (&colliders, &frame), &inv_mass, (&mut x, &mut v), 0.01, &mut touched);
            (x, v, found)
        };
        let (x, v, _) = run(None);
        let (x_near, v_near, found) = run(Some(0.004));
        assert_eq!(found, [0, 1, 2, 4, 6, 7], "the owners within their reach");
        assert_eq!((&x, &v), (&x_near, &v_near), "the same bits: owner 5 was kept by its slack");
        assert!(x[5] != sunk(0.008)[5], "owner 5's shared point touched");
        // Moved past the budget: every owner is looked at, the same bits.
        let (x_far, v_far, _) = run(Some(NEAR_SLACK));
        assert_eq!((&x, &v), (&x_far, &v_far));
    }
}
