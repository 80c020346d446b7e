//! # Collisions: the ground, static colliders, and the game's own
//!
//! Every node is a ball of radius r ([`crate::SimParams::node_radius`]). After each sub-step
//! of any integrator, each free node that moved from x₀ to x is checked against the ground,
//! the colliders of the model's parameters, and the colliders a game added
//! ([`crate::Simulation::add_collider`]), in that order. A collider that the path enters
//! answers with a [`Contact`]: where the node may be instead (outside, on its surface offset
//! by r), the outward unit normal n there, and the surface's friction μ and restitution e.
//!
//! The node goes to the contact position, and its velocity v is split into the normal speed
//! v_n = v·n and the tangential part v_t = v − v_n n. If it is moving in (v_n < 0):
//!
//! ```text
//! v_n' = −e v_n     if −v_n > 2 |g| h,   else 0          (bounce, or rest)
//! Δv_n = v_n' − v_n                                     (the normal impulse per mass)
//! v_t' = v_t · max(0, 1 − μ Δv_n / |v_t|)                (Coulomb: |Δv_t| ≤ μ |Δv_n|)
//! x   ← x − (v_t − v_t') h                               (undo the slide friction stopped)
//! v   ← v_t' + v_n' n
//! ```
//!
//! Friction removes at most μ times the normal impulse from the sliding velocity, so a node at
//! rest on a slope of angle θ, pushed into it by g cos θ h and along it by g sin θ h each
//! sub-step, stays put exactly when tan θ ≤ μ; the position correction keeps a stopped node
//! from creeping by the slide of the sub-step in which it was stopped. Contacts slower than
//! 2 |g| h do not bounce, so a resting node does not jitter (the threshold of Müller et al.,
//! "Detailed Rigid Body Simulation with Extended Position Based Dynamics", SCA 2020, which
//! also applies restitution and friction to velocities after the position solve, as here).
//!
//! - x, v: position (m), velocity (m/s); h: the sub-step (s); g: gravity (m/s²).
//!
//! Built-in shapes are tested at the end position x (their distance functions: Quílez,
//! "Distance functions", and Ericson, "Real-Time Collision Detection", 2005, §5.1). A node
//! inside a sphere or capsule leaves it on the side its path x₀ → x entered from, x₀ carried
//! with the collider's motion in the sub-step ([`crate::sim::contacts::sides`]), so nothing
//! that moves the node past the axis (a limb faster than its radius, a max distance pulling
//! back into a limb) puts it on the far side; a plane or box pushes out to the nearest side. A
//! triangle (a face of a game's mesh, thin and two-sided) pushes a node within r of it out
//! from its nearest point, and one whose path crossed its plane back to r before the plane on
//! the side x₀ was on (x₀ carried by the triangle's move in the sub-step): with e = (x − a)·n,
//! n the face's normal towards x₀, x ← x + n (r − e) when e < 0. A game's [`Collider`] gets
//! the whole path and may sweep it.

use crate::geometry::{along_segment, closest_on_triangle};
use crate::model::{Ground, Obstacle, Shape, Surface};
use crate::sim::contacts::round::RoundAxis;
use crate::sim::contacts::{moving, near, sides};
use glam::{Quat, Vec3, Vec3A};
use std::sync::Arc;

/// Where a node that would enter a collider may be instead, and how the surface there behaves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Where the node ends the sub-step: outside the collider (m).
    pub position: Vec3,
    /// The surface's outward unit normal there.
    pub normal: Vec3,
    /// Coulomb friction coefficient μ (≥ 0).
    pub friction: f32,
    /// Restitution e ∈ [0, 1]: how much of the speed into the surface survives as bounce.
    pub restitution: f32,
    /// The surface's own velocity there (m/s; zero for a still collider): the node's velocity
    /// is answered relative to it, so a moving surface carries and drags what it touches.
    pub velocity: Vec3,
}

/// A solid the nodes cannot enter. Implement it to add a game's own colliders (a moving
/// platform, a bowl, a character's capsule) with [`crate::Simulation::add_collider`].
pub trait Collider: Send + Sync {
    /// A node of radius `radius` (m) moves from `from` to `to` during a sub-step. If that takes
    /// it into the collider, where it may be instead and the surface there; otherwise `None`.
    fn contact(&self, from: Vec3, to: Vec3, radius: f32) -> Option<Contact>;
}

impl Collider for Ground {
    fn contact(&self, _from: Vec3, to: Vec3, radius: f32) -> Option<Contact> {
        let floor = self.height + radius;
        (to.y < floor).then(|| Contact {
            position: Vec3::new(to.x, floor, to.z),
            normal: Vec3::Y,
            friction: self.surface.friction,
            restitution: self.surface.restitution,
            velocity: Vec3::ZERO,
        })
    }
}

impl Collider for Obstacle {
    fn contact(&self, _from: Vec3, to: Vec3, radius: f32) -> Option<Contact> {
        push_out(&self.shape, to, radius).map(|hit| on(&self.surface, hit, Vec3::ZERO))
    }
}

/// The contact at `(position, normal)` of a surface moving at `velocity`.
fn on(surface: &Surface, (position, normal): (Vec3, Vec3), velocity: Vec3) -> Contact {
    Contact {
        position,
        normal,
        friction: surface.friction,
        restitution: surface.restitution,
        velocity,
    }
}

/// Around a ball of `radius` centred at `centre`: where `x` is pushed to and the normal, if
/// `x` is within `radius + r`. A point at the very centre goes up.
fn out_of_ball(centre: Vec3, radius: f32, x: Vec3, r: f32) -> Option<(Vec3, Vec3)> {
    let d = x - centre;
    let reach = radius + r;
    if d.length_squared() >= reach * reach {
        return None;
    }
    let n = d.try_normalize().unwrap_or(Vec3::Y);
    Some((centre + n * reach, n))
}

/// Where a ball of radius `r` at `x` must go to be outside `shape`, with the outward normal.
fn push_out(shape: &Shape, x: Vec3, r: f32) -> Option<(Vec3, Vec3)> {
    match *shape {
        Shape::Plane { point, normal } => {
            let n = normal.try_normalize()?;
            let depth = r - (x - point).dot(n);
            (depth > 0.0).then(|| (x + n * depth, n))
        }
        Shape::Sphere { center, radius } => out_of_ball(center, radius, x, r),
        Shape::Capsule { a, b, radius } => {
            out_of_ball(a.lerp(b, along_segment(a, b, x)), radius, x, r)
        }
        Shape::Box { center, half_extents, rotation } => {
            let length = rotation.length();
            let rotation = if length > 0.0 { rotation / length } else { Quat::IDENTITY };
            let (local, n) = out_of_box(half_extents, rotation.inverse() * (x - center), r)?;
            Some((center + rotation * local, rotation * n))
        }
        Shape::Triangle { a, b, c } => {
            let closest = closest_on_triangle(x, [a, b, c]);
            let d = x - closest;
            if d.length_squared() >= r * r {
                return None;
            }
            // On the face itself (within rounding), out along its normal.
            let on_it = d.length_squared() <= (ON_TRIANGLE * r) * (ON_TRIANGLE * r);
            let n = if on_it { facing([a, b, c], x)? } else { d.normalize() };
            Some((closest + n * r, n))
        }
    }
}

/// How near a triangle, in node radii, a ball is on it: nearer, the way from the nearest point
/// is rounding, and the ball leaves along the face's normal.
const ON_TRIANGLE: f32 = 1e-3;

/// The unit normal of the triangle a, b, c on the side of `towards` from its plane (its
/// winding's side for a point on the plane); `None` for a triangle of no area.
fn facing([a, b, c]: [Vec3; 3], towards: Vec3) -> Option<Vec3> {
    let n = (b - a).cross(c - a).try_normalize()?;
    Some(if (towards - a).dot(n) < 0.0 { -n } else { n })
}

/// A sphere's or capsule's axis (a sphere's centre twice) and radius; `None` for the other
/// shapes.
fn round(shape: &Shape) -> Option<(Vec3A, Vec3A, f32)> {
    match *shape {
        Shape::Sphere { center, radius } => Some((center.into(), center.into(), radius)),
        Shape::Capsule { a, b, radius } => Some((a.into(), b.into(), radius)),
        Shape::Plane { .. } | Shape::Box { .. } | Shape::Triangle { .. } => None,
    }
}

/// For a sphere, capsule or triangle now at `now` (and at `before` when the sub-step began,
/// if it moves), where a ball of radius `r` that moved `from`–`to` into it goes out on the
/// side it came from ([`crate::sim::contacts::sides`]; a triangle: [`through_triangle`]),
/// with the normal; `None` for the other shapes.
fn keep_side(
    now: &Shape,
    before: Option<Shape>,
    (from, to): (Vec3A, Vec3A),
    r: f32,
) -> Option<(Vec3, Vec3)> {
    if let Shape::Triangle { a, b, c } = *now {
        let centre = |a: Vec3, b: Vec3, c: Vec3| (a + b + c) / 3.0;
        let moved = match before {
            Some(Shape::Triangle { a: a0, b: b0, c: c0 }) => centre(a, b, c) - centre(a0, b0, c0),
            _ => Vec3::ZERO,
        };
        return through_triangle([a, b, c], (Vec3::from(from) + moved, to.into()), r);
    }
    let (a, b, radius) = round(now)?;
    let (a0, b0, _) = before.as_ref().and_then(round).unwrap_or((a, b, radius));
    let tau = along_segment(a0, b0, from);
    let carried = from + (a - a0).lerp(b - b0, tau);
    let (n, depth) = sides::out_on_its_side(carried, to, (a, b, radius + r))?;
    Some(((to + n * depth).into(), n.into()))
}

/// A ball of radius `r` that moved `from` (carried with the triangle `t`) `to` the other side
/// of the triangle's plane, within `r` of the triangle: it goes back to `r` before the plane on
/// the side it came from, along the normal n there (a thin wall is not passed through by
/// going out its far side); `None` when it is still on its side (the nearest way out holds).
///
/// ```text
/// e = (to − a) · n,   e < 0:   to ← to + n (r − e)
/// ```
fn through_triangle(t: [Vec3; 3], (from, to): (Vec3, Vec3), r: f32) -> Option<(Vec3, Vec3)> {
    let n = facing(t, from)?;
    let e = (to - t[0]).dot(n);
    (e < 0.0).then(|| (to + n * (r - e), n))
}

/// Where a ball of radius `r` that moved `from`–`to` goes out of `now` (the shape it had when
/// the sub-step began, `before()`, if it moves), with the outward normal: on the side it came
/// from for a sphere, capsule or triangle, the nearest way for the other shapes; `None` when it
/// is outside.
#[inline]
pub(crate) fn leave(
    now: &Shape,
    before: impl FnOnce() -> Option<Shape>,
    (from, to): (Vec3A, Vec3A),
    r: f32,
) -> Option<(Vec3, Vec3)> {
    let hit = push_out(now, to.into(), r)?;
    Some(keep_side(now, before(), (from, to), r).unwrap_or(hit))
}

/// [`push_out`] without continuous collision ([`Colliders::continuous`]), out of line: the
/// loops over the nodes keep their code for the continuous answer.
#[cold]
#[inline(never)]
fn nearest_way_out(shape: &Shape, x: Vec3A, r: f32) -> Option<(Vec3, Vec3)> {
    push_out(shape, x.into(), r)
}

/// [`push_out`] for an axis-aligned box of half size `h` at the origin.
fn out_of_box(h: Vec3, p: Vec3, r: f32) -> Option<(Vec3, Vec3)> {
    let q = p.abs() - h;
    if q.max_element() > 0.0 {
        let closest = p.clamp(-h, h);
        let (pos, n) = out_of_ball(closest, 0.0, p, r)?;
        return Some((pos, n));
    }
    // Inside: leave through the nearest face.
    let axis = if q.x >= q.y && q.x >= q.z {
        0
    } else if q.y >= q.z {
        1
    } else {
        2
    };
    let side = if p[axis] >= 0.0 { 1.0 } else { -1.0 };
    let mut n = Vec3::ZERO;
    n[axis] = side;
    let mut pos = p;
    pos[axis] = side * (h[axis] + r);
    Some((pos, n))
}

/// A sphere around a collider's shape, for the quick test before the exact one; `None` for a
/// plane, which reaches everywhere. Worked out once a sub-step for every collider
/// ([`Colliders::reaches`]), not once per node and collider: on the worn cape (three moving
/// capsules, 187 nodes, 16 sub-steps; best of 5 × 2,000 frames, builds in turns, the same
/// bits) 483–525 µs a frame against 365–443 µs once a sub-step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Reach(Option<(Vec3A, f32)>);

impl Reach {
    /// The sphere around `shape`: its centre and radius (m).
    pub fn of(shape: &Shape) -> Reach {
        Reach(match *shape {
            Shape::Plane { .. } => None,
            Shape::Sphere { center, radius } => Some((center.into(), radius)),
            Shape::Capsule { a, b, radius } => {
                Some((((a + b) * 0.5).into(), 0.5 * a.distance(b) + radius))
            }
            Shape::Box { center, half_extents, .. } => Some((center.into(), half_extents.length())),
            Shape::Triangle { a, b, c } => {
                let centre = (a + b + c) / 3.0;
                let far = a.distance(centre).max(b.distance(centre)).max(c.distance(centre));
                Some((centre.into(), far))
            }
        })
    }

    /// False when a ball of radius `r` at `x` is surely clear of the shape (outside the
    /// sphere around it).
    #[inline]
    pub(crate) fn near(self, x: Vec3A, r: f32) -> bool {
        self.0.is_none_or(|(centre, reach)| {
            let reach = reach + r;
            x.distance_squared(centre) < reach * reach
        })
    }
}

/// The velocity and position answer to `contact` for a node moving at `v` over a sub-step
/// `h`; `rest_speed` is the speed below which nothing bounces (see the module doc). The
/// velocity is answered relative to the surface's ([`crate::sim::contacts::moving`]).
fn respond(contact: &Contact, v: Vec3A, h: f32, rest_speed: f32) -> (Vec3A, Vec3A) {
    let n = Vec3A::from(contact.normal);
    let position = Vec3A::from(contact.position);
    let surface = Vec3A::from(contact.velocity);
    let v = v - surface;
    let vn = v.dot(n);
    if vn >= 0.0 {
        return (position, v + surface);
    }
    let bounce = if -vn > rest_speed { -contact.restitution * vn } else { 0.0 };
    let impulse = bounce - vn;
    let vt = v - n * vn;
    let slide = vt.length();
    let keep = if slide > 0.0 { (1.0 - contact.friction * impulse / slide).max(0.0) } else { 0.0 };
    let vt_kept = vt * keep;
    (position - (vt - vt_kept) * h, vt_kept + n * bounce + surface)
}

/// Everything a node can collide with during a sub-step.
#[derive(Clone, Copy)]
pub(crate) struct Colliders<'a> {
    pub ground: Option<&'a Ground>,
    /// The model's colliders where they are at the start of the step.
    pub obstacles: &'a [Obstacle],
    /// Where the game moves each of them by the end of the step (`None`: it stays; the slice
    /// may be shorter than `obstacles`) ([`crate::sim::contacts::moving`]).
    pub targets: &'a [Option<Shape>],
    /// When some move, their shapes at the end of each equal sub-step, row by row, and this
    /// sub-step's row (`None`: worked out from `progress`).
    pub poses: &'a [Shape],
    /// The [`Reach`] of each of the shapes of `poses`, row by row, or of every collider where
    /// it stands when none moves (empty: worked out when asked).
    pub reaches: &'a [Reach],
    pub row: Option<usize>,
    /// The fraction of the step done at the end of this sub-step, and the step's length (s).
    pub progress: f32,
    pub dt: f32,
    pub custom: &'a [Arc<dyn Collider>],
    /// The nodes' radius (m).
    pub radius: f32,
    /// 2 |g| h: contacts slower than this do not bounce.
    pub rest_speed: f32,
    /// False without continuous collision ([`crate::Simulation::set_continuous_collision`]):
    /// the colliders stand at their end-of-step places through the step and a node leaves
    /// them the nearest way.
    pub continuous: bool,
}

impl<'a> Colliders<'a> {
    /// The colliders of the sub-step that ends at the fraction `progress` of the step: the row
    /// of [`Colliders::poses`] when it ends one of the equal sub-steps they were worked out for.
    pub fn at(self, progress: f32) -> Colliders<'a> {
        let m = self.obstacles.len().max(1);
        let rows = self.poses.len() / m;
        let at = progress * rows as f32;
        let row = (rows > 0 && at >= 0.5 && (at - at.round()).abs() < 1e-3)
            .then(|| at.round() as usize - 1)
            .filter(|&r| r < rows);
        Colliders { progress, row, ..self }
    }

    /// Obstacle `i`'s shape in this sub-step, and where it goes by the step's end if it moves.
    #[inline]
    fn shape(&self, i: usize, o: &Obstacle) -> (Shape, Option<&'a Shape>) {
        match self.targets.get(i).and_then(Option::as_ref) {
            Some(to) if !self.continuous => (*to, Some(to)),
            Some(to) => {
                let m = self.obstacles.len();
                let posed = self.row.and_then(|r| self.poses.get(r * m + i)).copied();
                (posed.unwrap_or_else(|| moving::between(&o.shape, to, self.progress)), Some(to))
            }
            None => (o.shape, None),
        }
    }

    /// The shape of obstacle `o`, moving to `to`, when this sub-step of `h` began.
    fn before(&self, o: &Obstacle, to: &Shape, h: f32) -> Shape {
        moving::between(&o.shape, to, (self.progress - h / self.dt).max(0.0))
    }

    /// The [`Reach`] of obstacle `i` in this sub-step: from [`Colliders::reaches`] when a
    /// row there holds it (a collider that stands still is in every row), else worked out.
    #[inline]
    fn reach(&self, i: usize, o: &Obstacle) -> Reach {
        let moves = self.targets.get(i).is_some_and(Option::is_some);
        let row = match (moves, self.continuous) {
            (false, _) => Some(0),
            (true, true) => self.row,
            (true, false) => None,
        };
        let kept = row.and_then(|r| self.reaches.get(r * self.obstacles.len() + i));
        kept.copied().unwrap_or_else(|| Reach::of(&self.shape(i, o).0))
    }

    /// The `ground` and `obstacles` standing still, for nodes of no radius, over a step of
    /// 0.01 s: the tests' colliders.
    #[cfg(test)]
    pub fn standing(ground: Option<&'a Ground>, obstacles: &'a [Obstacle]) -> Colliders<'a> {
        Colliders {
            ground,
            obstacles,
            targets: &[],
            poses: &[],
            reaches: &[],
            row: None,
            progress: 1.0,
            dt: 0.01,
            custom: &[],
            radius: 0.0,
            rest_speed: 0.0,
            continuous: true,
        }
    }

    /// True when no collider moves within the step: none the game moves, no game's own.
    pub fn stand_still(&self) -> bool {
        self.targets.iter().all(Option::is_none) && self.custom.is_empty()
    }

    /// True when there is nothing to collide with.
    pub fn is_empty(&self) -> bool {
        self.ground.is_none() && self.obstacles.is_empty() && self.custom.is_empty()
    }

    /// False when nothing within `reach` of `x` can touch a collider: the ground is further
    /// below and every obstacle further away ([`near`]); a game's colliders may always touch.
    #[inline]
    pub fn may_touch(&self, x: Vec3A, reach: f32) -> bool {
        let r = self.radius + reach;
        self.ground.is_some_and(|g| x.y < g.height + r)
            || !self.custom.is_empty()
            || (!self.obstacles.is_empty() && self.near_obstacle(x, r))
    }

    /// True when an obstacle is within `r` of `x` ([`near`]): [`Colliders::may_touch`]'s
    /// longer part, kept out of line so that the rest of it inlines into the loops over a
    /// body's points (its call, not inlined, took a twentieth of a blob's frame).
    #[inline(never)]
    fn near_obstacle(&self, x: Vec3A, r: f32) -> bool {
        self.obstacles.iter().enumerate().any(|(i, o)| self.reach(i, o).near(x, r))
    }

    /// The spheres and capsules of this sub-step of `h` seconds, into `out`, in the obstacles'
    /// order: what edges are kept out of ([`crate::sim::contacts::edges`]).
    pub fn round_axes(&self, h: f32, out: &mut Vec<RoundAxis>) {
        out.clear();
        for (i, o) in self.obstacles.iter().enumerate() {
            let (now, target) = self.shape(i, o);
            let Some((a, b, radius)) = round(&now) else { continue };
            let before = target.filter(|_| self.continuous).map(|to| self.before(o, to, h));
            let (a0, b0, _) = before.as_ref().and_then(round).unwrap_or((a, b, radius));
            let ends = (a, b, radius + self.radius);
            let axis = RoundAxis::new(ends, (a - a0, b - b0), o.surface.friction);
            out.push(RoundAxis { obstacle: i, ..axis });
        }
    }

    /// Resolves the contacts of a node that moved from `from` to `*to` with velocity `*v`
    /// over a sub-step `h`, one collider after the other; the normal of the last one that
    /// answered, if any did.
    #[inline]
    pub fn resolve(&self, from: Vec3A, to: &mut Vec3A, v: &mut Vec3A, h: f32) -> Option<Vec3A> {
        self.resolve_near(from, (to, v), h, u32::MAX)
    }

    /// [`Colliders::resolve`] against the obstacles whose bits are set in `mask` (a node's
    /// mask: [`crate::sim::contacts::near`]), the ground and the game's own.
    #[inline]
    pub fn resolve_near(
        &self,
        from: Vec3A,
        (to, v): (&mut Vec3A, &mut Vec3A),
        h: f32,
        mask: u32,
    ) -> Option<Vec3A> {
        let r = self.radius;
        let mut touched = None;
        let mut answer = |contact: Option<Contact>, to: &mut Vec3A, v: &mut Vec3A| {
            if let Some(contact) = contact {
                (*to, *v) = respond(&contact, *v, h, self.rest_speed);
                touched = Some(Vec3A::from(contact.normal));
            }
        };
        if let Some(g) = self.ground
            && to.y < g.height + r
        {
            answer(g.contact(from.into(), (*to).into(), r), to, v);
        }
        // The mask's colliders in their order: its first bits, then every one past them when
        // it holds the last bit (near::obstacles).
        let count = self.obstacles.len();
        let first = near::obstacles(mask).take_while(|&i| i < count);
        let always = mask & near::bit(near::ALWAYS) != 0;
        let later = if always { near::ALWAYS..count } else { 0..0 };
        for i in first.chain(later) {
            let Some(o) = self.obstacles.get(i) else { continue };
            if !self.reach(i, o).near(*to, r) {
                continue;
            }
            let (now, target) = self.shape(i, o);
            let before = || target.map(|target| self.before(o, target, h));
            let hit = if self.continuous {
                leave(&now, before, (from, *to), r)
            } else {
                nearest_way_out(&now, *to, r)
            };
            let contact = hit.map(|hit| {
                let velocity = target.map_or(Vec3::ZERO, |target| {
                    moving::surface_velocity(&o.shape, target, &now, hit.0, self.dt)
                });
                on(&o.surface, hit, velocity)
            });
            answer(contact, to, v);
        }
        for c in self.custom {
            answer(c.contact(from.into(), (*to).into(), r), to, v);
        }
        touched
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obstacle(shape: Shape) -> Obstacle {
        Obstacle { shape, surface: Surface::default() }
    }

    #[test]
    fn a_node_pulled_past_a_capsules_axis_leaves_it_on_the_side_it_came_from() {
        // A capsule along z of radius 0.1; a node moves from x = −0.2 to x = +0.05 in one
        // sub-step: out at x = −0.1, where it entered (the nearest side would be +0.1).
        let limb = [obstacle(Shape::Capsule { a: -Vec3::Z, b: Vec3::Z, radius: 0.1 })];
        let colliders = Colliders::standing(None, &limb);
        let (mut to, mut v) = (Vec3A::new(0.05, 0.0, 0.0), Vec3A::X * 25.0);
        let normal = colliders.resolve(Vec3A::new(-0.2, 0.0, 0.0), &mut to, &mut v, 0.01);
        assert_eq!(normal, Some(-Vec3A::X));
        assert!((to - Vec3A::new(-0.1, 0.0, 0.0)).length() < 1e-4, "{to}");
    }

    #[test]
    fn shapes_push_points_out_to_their_surface_plus_the_radius() {
        let r = 0.1;
        let sphere = obstacle(Shape::Sphere { center: Vec3::ONE, radius: 1.0 });
        let c = sphere.contact(Vec3::ZERO, Vec3::new(1.0, 1.5, 1.0), r).expect("inside");
        assert!((c.position - Vec3::new(1.0, 2.1, 1.0)).length() < 1e-6 && c.normal == Vec3::Y);
        assert!(sphere.contact(Vec3::ZERO, Vec3::new(1.0, 2.2, 1.0), r).is_none());

        let capsule = obstacle(Shape::Capsule { a: Vec3::ZERO, b: Vec3::X * 2.0, radius: 0.5 });
        let c = capsule.contact(Vec3::ZERO, Vec3::new(1.0, 0.0, -0.3), r).expect("inside");
        assert!((c.position - Vec3::new(1.0, 0.0, -0.6)).length() < 1e-6, "{c:?}");
        let c = capsule.contact(Vec3::ZERO, Vec3::new(2.3, 0.0, 0.0), r).expect("past the end cap");
        assert!((c.position - Vec3::new(2.6, 0.0, 0.0)).length() < 1e-6, "{c:?}");

        let plane = obstacle(Shape::Plane { point: Vec3::Y, normal: Vec3::new(0.0, 2.0, 0.0) });
        let c = plane.contact(Vec3::ZERO, Vec3::new(3.0, 0.5, 0.0), r).expect("below");
        assert!((c.position - Vec3::new(3.0, 1.1, 0.0)).length() < 1e-6 && c.normal == Vec3::Y);

        // A box turned 90° about y: its local x (half size 2) lies along world z.
        let rotation = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
        let boxed = obstacle(Shape::Box {
            center: Vec3::ZERO,
            half_extents: Vec3::new(2.0, 1.0, 0.5),
            rotation,
        });
        let c = boxed
            .contact(Vec3::ZERO, Vec3::new(0.0, 0.0, 1.9), r)
            .expect("inside, near the +z face");
        assert!((c.position - Vec3::new(0.0, 0.0, 2.1)).length() < 1e-5, "{c:?}");
        assert!((c.normal - Vec3::Z).length() < 1e-5);
        let c = boxed
            .contact(Vec3::ZERO, Vec3::new(0.55, 0.0, 0.0), r)
            .expect("just outside, within r");
        assert!((c.position - Vec3::new(0.6, 0.0, 0.0)).length() < 1e-5, "{c:?}");
        assert!(boxed.contact(Vec3::ZERO, Vec3::new(0.7, 0.0, 0.0), r).is_none());

        let ground = Ground { height: -1.0, surface: Surface::default() };
        assert_eq!(
            ground.contact(Vec3::ZERO, Vec3::new(5.0, -2.0, 1.0), r).map(|c| c.position),
            Some(Vec3::new(5.0, -0.9, 1.0))
        );
    }

    #[test]
    fn a_triangle_is_left_on_the_side_a_ball_came_from() {
        // The triangle (0,0,0), (1,0,0), (0,0,1): its face y = 0, its normal ±y.
        let t = Shape::Triangle { a: Vec3::ZERO, b: Vec3::X, c: Vec3::Z };
        let r = 0.1;
        // Over the face, 0.05 above: out to 0.1 above, along +y.
        let (pos, n) = push_out(&t, Vec3::new(0.2, 0.05, 0.2), r).expect("within r");
        assert!(
            pos.distance(Vec3::new(0.2, 0.1, 0.2)) < 1e-6 && n.distance(Vec3::Y) < 1e-6,
            "{pos} {n}"
        );
        // Past its edge x + z = 1 by 0.05 across, level with it: out from the edge.
        let past = Vec3::new(0.5, 0.0, 0.5) + Vec3::new(1.0, 0.0, 1.0).normalize() * 0.05;
        let (pos, n) = push_out(&t, past, r).expect("within r");
        let out = Vec3::new(1.0, 0.0, 1.0).normalize();
        assert!(pos.distance(Vec3::new(0.5, 0.0, 0.5) + out * r) < 1e-6, "{pos}");
        assert!(n.distance(out) < 1e-6, "{n}");
        assert!(push_out(&t, Vec3::new(0.2, 0.11, 0.2), r).is_none(), "0.11 away");
        // On the face: out along its winding's normal ((1,0,0) × (0,0,1) = −y).
        let (pos, n) = push_out(&t, Vec3::new(0.2, 0.0, 0.2), r).expect("on it");
        assert!(
            n.distance(-Vec3::Y) < 1e-6 && pos.distance(Vec3::new(0.2, -0.1, 0.2)) < 1e-6,
            "{pos} {n}"
        );
        // From 0.2 above to 0.03 below: the nearest way is down, but it came from above, so
        // it goes back to 0.1 above.
        let (from, to) = (Vec3A::new(0.2, 0.2, 0.2), Vec3A::new(0.2, -0.03, 0.2));
        let (pos, n) = leave(&t, || None, (from, to), r).expect("through it");
        assert!(
            pos.distance(Vec3::new(0.2, 0.1, 0.2)) < 1e-6 && n.distance(Vec3::Y) < 1e-6,
            "{pos} {n}"
        );
        // The same with the triangle lifted 0.3 over the sub-step: the start carried with it
        // is still above.
        let lifted = Shape::Triangle {
            a: Vec3::Y * 0.3,
            b: Vec3::new(1.0, 0.3, 0.0),
            c: Vec3::new(0.0, 0.3, 1.0),
        };
        let (from, to) = (Vec3A::new(0.2, 0.05, 0.2), Vec3A::new(0.2, 0.28, 0.2));
        let (pos, n) = leave(&lifted, || Some(t), (from, to), r).expect("carried");
        assert!(
            pos.distance(Vec3::new(0.2, 0.4, 0.2)) < 1e-6 && n.distance(Vec3::Y) < 1e-6,
            "{pos} {n}"
        );
    }

    #[test]
    fn coulomb_friction_and_restitution() {
        let contact = |friction, restitution| Contact {
            position: Vec3::ZERO,
            normal: Vec3::Y,
            friction,
            restitution,
            velocity: Vec3::ZERO,
        };
        let h = 0.01;
        // Fast impact: e = 0.5 returns half the normal speed; friction takes μ Δv_n of the slide.
        let (_, v) = respond(&contact(0.1, 0.5), Vec3A::new(3.0, -4.0, 0.0), h, 0.2);
        assert!((v - Vec3A::new(3.0 - 0.1 * 6.0, 2.0, 0.0)).length() < 1e-5, "{v}");
        // Slow contact: no bounce; enough friction stops the slide and undoes its motion.
        let (x, v) = respond(&contact(0.7, 0.5), Vec3A::new(0.05, -0.1, 0.0), h, 0.2);
        assert_eq!(v, Vec3A::ZERO);
        assert!((x - Vec3A::new(-0.05 * h, 0.0, 0.0)).length() < 1e-9);
        // A surface moving along x under a node at rest drags it by μ Δv_n; one moving up
        // into it carries it at its own speed.
        let moving = |velocity| Contact { velocity, ..contact(0.5, 0.0) };
        let (x, v) = respond(&moving(Vec3::X), Vec3A::new(0.0, -0.1, 0.0), h, 0.2);
        assert!((v - Vec3A::new(0.05, 0.0, 0.0)).length() < 1e-6, "{v}");
        assert!((x - Vec3A::new(0.05 * h, 0.0, 0.0)).length() < 1e-9, "{x}");
        let (_, v) = respond(&moving(Vec3::Y), Vec3A::ZERO, h, 0.2);
        assert_eq!(v, Vec3A::Y);
        // Leaving the surface: velocity untouched.
        let (_, v) = respond(&contact(1.0, 1.0), Vec3A::new(1.0, 2.0, 0.0), h, 0.2);
        assert_eq!(v, Vec3A::new(1.0, 2.0, 0.0));
    }

    #[test]
    fn the_quick_test_is_a_sphere_around_the_shape_read_from_the_sub_steps_row() {
        // A capsule from the origin to 2 x, radius 0.5: a sphere of 1.5 m about x = 1; a ball
        // of 0.1 m is near it up to 1.6 m from there.
        let capsule = Shape::Capsule { a: Vec3::ZERO, b: Vec3::X * 2.0, radius: 0.5 };
        let reach = Reach::of(&capsule);
        assert_eq!(reach, Reach(Some((Vec3A::X, 1.5))));
        assert!(reach.near(Vec3A::new(1.0, 1.59, 0.0), 0.1));
        assert!(!reach.near(Vec3A::new(1.0, 1.61, 0.0), 0.1));
        let plane = Shape::Plane { point: Vec3::ZERO, normal: Vec3::Y };
        assert!(Reach::of(&plane).near(Vec3A::splat(1e6), 0.0), "a plane reaches everywhere");
        // Moved 10 m along y over the step: the second of two sub-steps reads its row.
        let obstacles = [obstacle(capsule)];
        let moved = Shape::Capsule { a: Vec3::Y * 10.0, b: Vec3::new(2.0, 10.0, 0.0), radius: 0.5 };
        let targets = [Some(moved)];
        let poses = [moving::between(&capsule, &moved, 0.5), moved];
        let reaches = poses.map(|p| Reach::of(&p));
        let colliders = Colliders {
            targets: &targets,
            poses: &poses,
            reaches: &reaches,
            ..Colliders::standing(None, &obstacles)
        };
        let end = colliders.at(1.0);
        assert_eq!(end.row, Some(1));
        assert_eq!(end.reach(0, &obstacles[0]), Reach(Some((Vec3A::new(1.0, 10.0, 0.0), 1.5))));
        // Between rows it is worked out from the shape there.
        let between = colliders.at(0.75).reach(0, &obstacles[0]);
        assert_eq!(between, Reach::of(&moving::between(&capsule, &moved, 0.75)));
        // Standing still, from the one row of every collider where it stands.
        let standing = Colliders { targets: &[], poses: &[], reaches: &reaches[..1], ..colliders };
        assert_eq!(standing.reach(0, &obstacles[0]), reaches[0]);
    }
}
