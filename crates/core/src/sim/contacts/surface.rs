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
//! whole first ([`super::body`]) looks for its contacts over the same owners just before, and
//! keeps the points within [`NEAR_SLACK`] of a collider ([`Near`]). While no node can have
//! moved half that slack since, no point left out can have come within reach, so:
//!
//! - the skin's contacts of the same sub-step look only at the points kept, in the same order,
//!   for as long as the support's move (the furthest its turn and shift take a node) and the
//!   contacts' pushes so far (summed per node) stay under half the slack, then at every owner
//!   from there on;
//! - the support of the next sub-steps of the same step looks only at the points kept, while
//!   the colliders stand still and the furthest any node is from where it was when they were
//!   found (one pass over the nodes) is under half the slack.
//!
//! Both find the contacts a look over every owner finds, in the same order: the same bits
//! (test). The distance is measured, not summed from each pass's moves: on a blob resting on
//! the ground one node sinks about 3.2 mm in every sub-step and its contact lifts it back, so
//! a sum outgrew the budget within one sub-step, while the furthest any node got from where
//! the points were found stayed about a micrometre a sub-step. A blob lying on its side keeps
//! about 160 points near the ground, one standing about 8, and each looks over every owner
//! once a step instead of in every sub-step. Measured on the pile's blob (best of 150 × 20
//! frames, builds in turns): standing 176–184 → 166–173 µs a frame, lying 239–256 → 239–244.

use crate::geometry::furthest_squared;
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

/// True when owner `k` of `points`, on nodes at `x`, is within its reach and `slack` of a
/// collider.
#[inline]
fn owner_near(
    points: &TouchPoints,
    k: usize,
    (colliders, frame): (&Colliders, &Frame),
    x: &[Vec3A],
    slack: f32,
) -> bool {
    colliders.may_touch(frame.at(x, points.owners[k] as usize), points.reach[k] + slack)
}

/// Where touching point `i` is, on nodes at `x`.
#[inline]
pub(crate) fn at_point(points: &TouchPoints, i: usize, frame: &Frame, x: &[Vec3A]) -> Vec3A {
    let corners = points.nodes[i].iter().zip(&points.weights[i]);
    corners.map(|(&j, &w)| w * frame.at(x, j as usize)).sum()
}

/// How near a collider a point may be and still be kept by [`Near::find`] (m), its owner
/// within its reach and this: a resting body's nodes end each sub-step within micrometres of
/// where they were (module docs), a landing one's a few millimetres away.
pub(crate) const NEAR_SLACK: f32 = 0.01;

/// The points near a collider, found by the support of a body answered as a whole, for the
/// skin's contacts of the same sub-step and, while no node has moved half of [`NEAR_SLACK`]
/// from where it was then, for the support and the skin's contacts of the sub-steps after it
/// in the same step (module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct Near {
    /// The points (owner and point: indices into [`TouchPoints::owners`] and its points) of
    /// the owners within their reach and [`NEAR_SLACK`] of a collider that are themselves
    /// within [`NEAR_SLACK`] of one, in order.
    points: Vec<(u32, u32)>,
    /// Where the nodes were when they were found (in the solver's terms: displacements from
    /// the start of the step); empty when they were not found in this step.
    at: Vec<Vec3A>,
    /// How far any node may be from there (m): the furthest one was when [`Near::find`] last
    /// looked, plus the furthest the body's support has moved one since.
    moved: f32,
    /// How far the skin's contacts pushed each node since (m), and the furthest of them.
    pushed: Vec<f32>,
    most_pushed: f32,
}

impl Near {
    /// Forgets the points (at the start of a step: between steps anything may move nodes).
    pub fn expire(&mut self) {
        self.at.clear();
    }

    /// True while the points found hold every point that may touch a collider: none was
    /// further than [`NEAR_SLACK`] from one when found, and no node (hence no point, a
    /// weighted mean of nodes) can have moved half that since.
    fn fresh(&self) -> bool {
        !self.at.is_empty() && self.moved + self.most_pushed < 0.5 * NEAR_SLACK
    }

    /// Visits the points of `points` on nodes at `x` that may touch `colliders`, of the
    /// owners within their reach of one, in order, with `visit(i, p)` (`p` where point `i`
    /// is): among the points found before, while the colliders stand still and no node has
    /// moved half of [`NEAR_SLACK`] since; otherwise among every owner's, keeping those near
    /// a collider.
    #[inline(always)]
    pub fn find(
        &mut self,
        points: &TouchPoints,
        (colliders, frame): (&Colliders, &Frame),
        x: &[Vec3A],
        mut visit: impl FnMut(usize, Vec3A),
    ) {
        let owner_within = |k, slack| owner_near(points, k, (colliders, frame), x, slack);
        self.pushed.clear();
        self.most_pushed = 0.0;
        self.moved = furthest_squared(&self.at, x).sqrt();
        if self.at.len() == x.len() && self.fresh() && colliders.stand_still() {
            let mut owner = (usize::MAX, false);
            for &(k, i) in &self.points {
                let (k, i) = (k as usize, i as usize);
                if owner.0 != k {
                    owner = (k, owner_within(k, 0.0));
                }
                let p = at_point(points, i, frame, x);
                if owner.1 && colliders.may_touch(p, 0.0) {
                    visit(i, p);
                }
            }
            return;
        }
        self.points.clear();
        for k in 0..points.owners.len() {
            if !owner_within(k, NEAR_SLACK) {
                continue;
            }
            let within = owner_within(k, 0.0);
            for i in points.of(k) {
                let p = at_point(points, i, frame, x);
                if colliders.may_touch(p, NEAR_SLACK) {
                    self.points.push((k as u32, i as u32));
                    if within && colliders.may_touch(p, 0.0) {
                        visit(i, p);
                    }
                }
            }
        }
        self.at.clear();
        self.at.extend_from_slice(x);
        self.moved = 0.0;
    }

    /// Every node has moved by up to `by` (m) since [`Near::find`].
    pub fn moved(&mut self, by: f32) {
        self.moved += by;
    }

    /// Node `j` was pushed by `by` (m) since [`Near::find`].
    #[inline]
    fn pushed(&mut self, j: usize, by: f32) {
        if self.pushed.len() <= j {
            self.pushed.resize(j + 1, 0.0);
        }
        self.pushed[j] += by;
        self.most_pushed = self.most_pushed.max(self.pushed[j]);
    }
}

/// The skin's contacts' scratch, kept between sub-steps: the points that touched in a
/// sub-step, each with its normal, the speed along it that its answer asks for and its nodes'
/// Σ w² m⁻¹ (the second pass of [`touch`]), and the points near a collider.
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
    // The points the body's support found while no node has moved past their budget (each
    // contact here moves nodes too), then every owner's from there on: the rest of the
    // owner whose contact spent the budget, and the owners after it.
    let (mut k, mut resume) = (0, None);
    if near.fresh() {
        k = points.owners.len();
        let mut owner = (usize::MAX, false);
        for n in 0..near.points.len() {
            let (o, i) = near.points[n];
            let (o, i) = (o as usize, i as usize);
            if owner.0 != o {
                owner = (o, owner_near(points, o, (colliders, frame), x, 0.0));
            }
            if !owner.1 {
                continue;
            }
            touch_point(points, i, (colliders, frame), inv_mass, (x, v), h, (touched, near));
            if !near.fresh() {
                (k, resume) = (o, Some(i + 1));
                break;
            }
        }
    }
    while k < points.owners.len() {
        let range = match resume.take() {
            Some(i) => i..points.first[k + 1] as usize,
            None if owner_near(points, k, (colliders, frame), x, 0.0) => points.of(k),
            None => 0..0,
        };
        for i in range {
            touch_point(points, i, (colliders, frame), inv_mass, (x, v), h, (touched, near));
        }
        k += 1;
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

/// [`touch`]'s first pass at touching point `i`: when it touches, moves it out with its nodes
/// (counted in `near`) and keeps it in `touched` for the second.
#[inline(always)]
fn touch_point(
    points: &TouchPoints,
    i: usize,
    (colliders, frame): (&Colliders, &Frame),
    inv_mass: &[f32],
    (x, v): (&mut [Vec3A], &mut [Vec3A]),
    h: f32,
    (touched, near): (&mut Vec<(usize, Vec3A, f32, f32)>, &mut Near),
) {
    let p = at_point(points, i, frame, x);
    if !colliders.may_touch(p, 0.0) {
        return;
    }
    let (nodes, weights) = (points.nodes[i], points.weights[i]);
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
        _ => return,
    };
    touched.push((i, normal, vt.dot(normal), share));
    let dp = (to - p) / share;
    let far = dp.length();
    for (&j, &w) in nodes.iter().zip(&weights) {
        let j = j as usize;
        let g = w * inv_mass[j];
        x[j] += dp * g;
        v[j] += dp * (g / h);
        near.pushed(j, far * g.abs());
    }
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
        Colliders::standing(Some(g), &[])
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
    fn the_points_found_near_give_the_contacts_every_owner_gives() {
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
        // The points found 4 mm down; the contacts 8 mm down (moved by 4 mm since).
        let run = |near: Option<f32>| {
            let mut touched = Touched::default();
            let mut found = Vec::new();
            if let Some(moved) = near {
                let x = sunk(0.004);
                touched.near.find(&points, (&colliders, &frame), &x, |i, _| found.push(i));
                touched.near.moved(moved);
            }
            let (mut x, mut v) = (sunk(0.008), vec![Vec3A::new(0.3, -0.4, 0.0); 8]);
            touch(&points, (&colliders, &frame), &inv_mass, (&mut x, &mut v), 0.01, &mut touched);
            (x, v, found)
        };
        let (x, v, _) = run(None);
        let (x_near, v_near, found) = run(Some(0.004));
        // Owner 6's two points (12 and 13) are under the ground; owner 5's shared one (11) is
        // too, but owner 5 is out of its reach.
        assert_eq!(found, [12, 13], "the points under the ground of the owners within reach");
        assert_eq!((&x, &v), (&x_near, &v_near), "the same bits: owner 5 was kept by its slack");
        assert!(x[5] != sunk(0.008)[5], "owner 5's shared point touched");
        // Moved past the budget: every owner is looked at, the same bits.
        let (x_far, v_far, _) = run(Some(NEAR_SLACK));
        assert_eq!((&x, &v), (&x_far, &v_far));
    }

    #[test]
    fn the_points_found_serve_later_sub_steps_until_a_node_moves_half_the_slack() {
        let g = ground();
        let colliders = on(&g);
        // Node 2 is 14 mm up: its own point (4) is past the slack (10 mm) and left out, as are
        // the owners past their reach (0.05 m) and slack.
        let heights = [0.002, -0.001, 0.014, 0.2, 0.2, 0.2];
        let (points, from) = a_row(&heights);
        let frame = Frame { base: None, from: &from };
        let look = |near: &mut Near, x: &[Vec3A]| {
            let mut found = Vec::new();
            near.find(&points, (&colliders, &frame), x, |i, p| found.push((i, p)));
            (found, near.points.clone())
        };
        let mut kept = Near::default();
        let (_, listed) = look(&mut kept, &from);
        assert_eq!(listed, [(0, 0), (0, 1), (1, 2), (1, 3)], "point 4 is 14 mm up");
        // Every node 3.5 mm down, node 0 4.9 mm: point 4 is within the slack now, but no node
        // has moved half of it, so the points found before serve, and find what a new look
        // finds (point 4 is still 10.5 mm up).
        let mut x: Vec<Vec3A> = from.iter().map(|p| *p - Vec3A::Y * 0.0035).collect();
        x[0].y = from[0].y - 0.0049;
        let (found, again) = look(&mut kept, &x);
        assert_eq!(again, listed, "the points found before");
        assert_eq!(found, look(&mut Near::default(), &x).0);
        assert_eq!(found.iter().map(|f| f.0).collect::<Vec<_>>(), [0, 1, 2]);
        // Node 2 down 5.1 mm: past half the slack, every owner is looked at again.
        x[2].y = from[2].y - 0.0051;
        let (found, again) = look(&mut kept, &x);
        assert_eq!((found, again), look(&mut Near::default(), &x));
        assert!(kept.points.contains(&(2, 4)), "point 4 is within the slack now");
        // A new step forgets them.
        kept.expire();
        assert!(!kept.fresh());
    }
}
