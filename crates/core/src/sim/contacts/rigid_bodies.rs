//! # Rigid bodies: a game's physics engine's bodies, met as contact partners
//!
//! A game's world is mostly rigid bodies (crates, balls, doors), which its physics engine owns.
//! Once a frame the game tells a simulation where each is and how it moves
//! ([`crate::Simulation::set_rigid_bodies`]): its shape, centre of mass c, velocity V, angular
//! velocity Ω, the acceleration a its engine gives it over the step besides the contacts (its
//! gravity, when the engine adds it after the soft bodies step; else zero), inverse mass M⁻¹
//! and inverse inertia tensor I⁻¹ (world frame; zero for a static or kinematic body, which
//! nothing pushes). Across the step's sub-steps of h each body moves on at its velocity, its
//! shape carried about its centre, as the engine's semi-implicit Euler moves it,
//!
//! ```text
//! V ← V + a h,    c ← c + V h,    R ← exp(Ω h) R
//! ```
//!
//! (a body given its velocity with the step's gravity already in it would fall the whole step's
//! worth from the first sub-step while the nodes under it speed up by sub-steps: a 1 kg box
//! resting on a jelly in avian then shook at 0.18 m/s; with a, at 0.0x m/s).
//!
//! and every free node that ends a sub-step inside a body's shape (grown by the nodes' radius)
//! leaves it as it leaves any collider ([`super::collision`]; on the side it came from for a
//! sphere or capsule, [`super::sides`]), to the contact point p with the outward normal n and
//! the overlap d. The overlap is shared as XPBD shares a contact between two bodies (Müller
//! et al., "Detailed Rigid Body Simulation with Extended Position Based Dynamics", SCA 2020,
//! §3.3): λ = d / w(n), the node moves m⁻¹ λ along n, the body M⁻¹ λ against it and turns by
//! −I⁻¹ (r × n) λ. Positions only: neither gets a velocity from it (the Xpbd solver sets the
//! node's previous position after the contacts, [`crate::sim::integrators::xpbd`]), so an
//! overlap is undone without a kick, and a light box on a heavy jelly is put back on its
//! surface instead of pressing the surface in (which then sprang back and threw the box off:
//! 2.1 m/s down became 1.3 m/s up). The node and the body then exchange an impulse J at p,
//! the contact of two bodies with the body's effective mass there (Mirtich & Canny,
//! "Impulse-based Simulation of Rigid Bodies", I3D 1995; Catto, "Iterative Dynamics with
//! Temporal Coherence", GDC 2005; Jolt's soft body meets a dynamic body the same way), one
//! direction after the other:
//!
//! ```text
//! r = p − c,    u = v − (V + Ω × r)                          the node's velocity relative to the body's surface
//! w(d) = m⁻¹ + M⁻¹ + (r × d) · I⁻¹ (r × d)                   the pair's inverse effective mass along d
//! normal:   u·n < 0:   j_n = −(1 + e) (u·n) / w(n)            (e = 0 below the rest speed 2 |g| h)
//! friction: t = u_t / |u_t|,   j_t = min(|u_t| / w(t), μ j_n) (u_t: u's part across n, after the normal impulse)
//! each impulse J = j d (d = n, then −t):   v ← v + m⁻¹ J,   V ← V − M⁻¹ J,   Ω ← Ω − I⁻¹ (r × J)
//! ```
//!
//! - v, m: the node's velocity (m/s) and mass (kg); e, μ: the body's restitution and friction.
//!
//! **A node at the end of a tether** (within 0.01% of its reach,
//! [`crate::sim::constraints::tethers`]) that a body pushes further out along it (n · t > 0, t
//! the unit way from its anchor to it) meets the body with m⁻¹ = 0, as an anchored node would: the tether, inextensible, hands the
//! push on to its anchor, which nothing moves. Met with its own mass, the node was pushed out
//! and the tether put it back by moving it, which passed none of the push on: a 1 kg box
//! dropped on a level cloth of 0.5 kg held along two edges with tethers (the converter's
//! default) fell through it; so held, the cloth stops it 2.5 cm down (the tests).
//!
//! **A body of several shapes** (a compound, the faces of a hull or a triangle mesh) is given
//! as its parts ([`RigidBody::part_of`]): they share one motion (c, V, Ω, M⁻¹, I⁻¹ are the
//! first part's), so r above is measured from the body's centre whichever part is met, a push
//! on one part moves them all (each part is placed anew from the body's motion before it is
//! next met), and the body takes one sum of impulses. Given as bodies of their own, each face
//! of a box's hull would answer its whole mass: the two under a 1 kg box resting on a jelly
//! held its weight twice over and threw it off at 18 m/s; as parts, it rests as the box shape
//! does (the tests).
//!
//! A cage's drawn surface meets the bodies where it is drawn, as it meets colliders
//! ([`super::surface`]): each touching point p = Σ w_j x_j is met as a node of inverse mass
//! m⁻¹ = Σ w_j² m_j⁻¹, and its push and its impulse are shared by its cage nodes in proportion
//! w_j m_j⁻¹, so the point moves and speeds up exactly as the contact asks.
//!
//! **Nothing injects energy.** Each impulse is equal and opposite on the two, so the total
//! momentum (and the angular momentum about any point) is kept exactly. Along d the relative
//! velocity's component changes by −(1 + e) of itself (the normal) or at most to zero (the
//! friction), using the pair's own effective mass along d, and such an impulse never raises
//! the kinetic energy (Mirtich & Canny, §3): the normal one loses (1 − e²)/2 · (u·n)²/w(n),
//! the friction one stops the slide or slows it. The overlap's share moves positions and
//! neither velocity, nor the momentum: a body sunk into a cloth is not flung out of it, it is
//! stopped. Within the step the body's
//! velocity changes as it is met, so a ball slows as the cloth catches it, and its next
//! sub-steps move it on at the slower speed.
//!
//! **What the game applies.** The steps since the game set the bodies add up the impulses
//! each body took ([`crate::Simulation::rigid_impulses`]; one step for a game that sets them
//! every frame, every step of the frame for a [`crate::World`]'s bodies): the linear impulse ΣJ (N·s) and the angular
//! impulse about its centre of mass Σ r × J (N·m·s), for the game to apply to its body
//! (avian's `apply_linear_impulse` and `apply_angular_impulse`, Jolt's `AddImpulse` and
//! `AddAngularImpulse`), which then has V + M⁻¹ ΣJ and Ω + I⁻¹ Σ r × J: the velocities the
//! step ended with. The engine then moves the body on over its own step from where it was, at
//! the new velocity; the step moved it otherwise (the overlaps' shares, and impulses that came
//! within the step rather than all at its start), and says by how much, for the engine to move
//! the body before its step, so that it ends where the contacts left it:
//!
//! ```text
//! pushed = c_end − (c_free + (V_end − V_free) t),    turned = log(R_end · exp(Ω_end t)⁻¹)
//! ```
//!
//! - c_free, V_free: the centre and velocity the step would have left an untouched body
//!   with (zero push for it); t: the step's length; R_end: how far the step turned it.
//!
//! Without it, a 1 kg box resting on a jelly in avian shook at 0.125 m/s (each step its
//! engine stopped it at the step's start, a little above where the contacts had, and let it
//! fall the next); with it, 0.013 m/s. The body's weight and its contacts with other rigid bodies are the engine's
//! to apply; a body resting on a cloth gets each frame the impulse that holds its weight.
//!
//! Within a step I⁻¹ is kept as the game gave it (a frame's turn changes it by a few per cent
//! at most), and the gyroscopic term is the engine's.

use crate::model::{Shape, Surface};
use crate::sim::contacts::collision::{Reach, leave};
use crate::sim::contacts::surface::{Frame, at_point};
use crate::sim::data::TouchPoints;
use crate::{CoreError, Integrator};
use glam::{Mat3, Mat3A, Mat4, Quat, Vec3, Vec3A};

/// A rigid body of a game's physics engine where a step begins, met by a simulation's nodes
/// ([`crate::Simulation::set_rigid_bodies`]; [module doc](self)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidBody {
    /// Its shape, in world space: a sphere, a capsule or a box; a plane (a floor, a wall) for a
    /// static or kinematic body only, which has no centre to push; a triangle, one face of a
    /// mesh or hull given face by face (a body of several shapes: [`RigidBody::part_of`]).
    pub shape: Shape,
    /// Its centre of mass (m), in world space: what it turns about.
    pub center_of_mass: Vec3,
    /// Its velocity (m/s), in world space.
    pub linear_velocity: Vec3,
    /// Its angular velocity (rad/s), in world space.
    pub angular_velocity: Vec3,
    /// What the engine adds to its velocity over the step besides the contacts, per second
    /// (m/s²): its gravity, for an engine that adds it after the soft bodies step (avian);
    /// zero when the velocity given already has it.
    pub acceleration: Vec3,
    /// 1 / its mass (1/kg); 0 for a static or kinematic body, which contacts do not push.
    pub inverse_mass: f32,
    /// Its inverse inertia tensor about its centre of mass, in world space (1/(kg·m²));
    /// zero for a body that contacts do not turn.
    pub inverse_inertia: Mat3,
    /// Its friction and restitution against the nodes.
    pub surface: Surface,
    /// `Some(i)`: this is another part of the body at index i of the same slice (an earlier
    /// one, itself `None`): a compound's shape, a hull's or a mesh's face. The parts of a body
    /// move as one, its centre's, velocities' and masses' (their own are not read), so a
    /// push on one moves them all and two faces under a box hold its weight once; what the
    /// body takes is written to its first part's impulses, the others' are zero.
    pub part_of: Option<usize>,
}

impl RigidBody {
    /// The first thing wrong with the body, its fields named from `at`; `None` if it is valid.
    pub fn problem(&self, at: &str) -> Option<String> {
        let moves = self.inverse_mass != 0.0 || self.inverse_inertia != Mat3::ZERO;
        if matches!(self.shape, Shape::Plane { .. }) && moves {
            return Some(format!("{at}.shape: a plane is a static or kinematic body's (no mass)"));
        }
        if let Some(problem) = self.shape.problem(&format!("{at}.shape")) {
            return Some(problem);
        }
        let vectors = [
            ("center_of_mass", self.center_of_mass),
            ("linear_velocity", self.linear_velocity),
            ("angular_velocity", self.angular_velocity),
            ("acceleration", self.acceleration),
        ];
        if let Some((name, _)) = vectors.iter().find(|(_, v)| !v.is_finite()) {
            return Some(format!("{at}.{name} is not finite"));
        }
        if !(self.inverse_mass.is_finite() && self.inverse_mass >= 0.0) {
            return Some(format!("{at}.inverse_mass must be finite and not negative"));
        }
        if !self.inverse_inertia.is_finite() {
            return Some(format!("{at}.inverse_inertia is not finite"));
        }
        let Surface { friction, restitution } = self.surface;
        if !(friction.is_finite() && friction >= 0.0) {
            return Some(format!("{at}.surface.friction must be finite and not negative"));
        }
        if !(0.0..=1.0).contains(&restitution) {
            return Some(format!("{at}.surface.restitution must be within [0, 1]"));
        }
        None
    }
}

/// The impulses a rigid body took from a simulation's nodes over the steps since it was set, for the game
/// to apply to it ([module doc](self)).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RigidImpulse {
    /// The linear impulse (N·s), in world space.
    pub linear: Vec3,
    /// The angular impulse about its centre of mass (N·m·s), in world space.
    pub angular: Vec3,
    /// How far the step moved its centre (m) beyond where its engine puts it, moving it on
    /// from where the step began at its velocity after the impulses (and its acceleration):
    /// the overlaps' shares, and the impulses' coming within the step, not at its start.
    pub pushed: Vec3,
    /// How far it turned it beyond that, about its centre (a rotation vector, rad).
    pub turned: Vec3,
}

/// What a body took over several steps (or from several simulations): each part added.
impl std::ops::AddAssign for RigidImpulse {
    fn add_assign(&mut self, other: RigidImpulse) {
        self.linear += other.linear;
        self.angular += other.angular;
        self.pushed += other.pushed;
        self.turned += other.turned;
    }
}

/// A rigid body as a step moves it: the motion its parts share.
#[derive(Clone, Copy, Debug)]
struct Moving {
    centre: Vec3A,
    /// How far it has turned since the step began.
    turned: Quat,
    v: Vec3A,
    omega: Vec3A,
    a: Vec3A,
    inverse_inertia: Mat3A,
    /// Its centre and velocity had nothing met it.
    free: Vec3A,
    free_v: Vec3A,
    /// Its centre of mass and the turn where the game set it: what its parts' shapes are
    /// placed from.
    set_centre: Vec3,
    /// Counts its moves within a sub-step: a part placed at another count is placed again
    /// before it is met.
    moves: u32,
}

/// A part of a rigid body (its shape) as a step moves it.
#[derive(Clone, Copy, Debug)]
struct Part {
    /// The body it belongs to (the index of its [`Moving`] and of its first part).
    body: usize,
    /// Its shape now and at the start of this sub-step.
    now: Shape,
    before: Shape,
    /// The sphere round it now: nodes outside it are not tested further.
    reach: Reach,
    /// Its body's move count when it was placed.
    placed: u32,
}

impl Moving {
    /// Turns it by the rotation vector `by` (rad) more.
    fn turn(&mut self, by: Vec3A) {
        let angle = by.length();
        if angle > 0.0 {
            let turn = Quat::from_axis_angle((by / angle).into(), angle);
            self.turned = (turn * self.turned).normalize();
        }
    }
}

impl Part {
    /// Its shape where its body's centre and turn now put the shape `set` gave.
    fn place(&mut self, body: &Moving, set: &RigidBody) {
        let m = Mat4::from_rotation_translation(body.turned, body.centre.into())
            * Mat4::from_translation(-body.set_centre);
        self.now = set.shape.transformed(m);
        self.reach = Reach::of(&self.now);
        self.placed = body.moves;
    }
}

/// The rigid bodies a simulation meets, and what they took ([module doc](self)).
#[derive(Clone, Debug, Default)]
pub(crate) struct RigidBodies {
    /// As the game set them for the next step.
    set: Vec<RigidBody>,
    /// As the step has moved them so far: each body ([`RigidBody::part_of`] `None`, at its
    /// own index; the parts' entries unused) and each part.
    moving: Vec<Moving>,
    parts: Vec<Part>,
    /// What each took over the steps since they were set.
    impulses: Vec<RigidImpulse>,
    /// How long the step has run (s).
    elapsed: f32,
    /// The bodies near the touching points of one owner ([`RigidBodies::touch`]).
    near: Vec<usize>,
}

impl RigidBodies {
    /// The bodies for the next steps, already checked ([`RigidBody::problem`]).
    pub fn set(&mut self, bodies: &[RigidBody]) {
        self.set.clear();
        self.set.extend_from_slice(bodies);
        self.impulses.clear();
        self.impulses.resize(self.set.len(), RigidImpulse::default());
    }

    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// What each body took over the steps since they were set.
    pub fn impulses(&self) -> &[RigidImpulse] {
        &self.impulses
    }

    /// Before a step: every body where the game set it, or where the last step left it.
    pub fn begin(&mut self) {
        self.moving.clear();
        self.moving.extend(self.set.iter().map(|b| Moving {
            centre: b.center_of_mass.into(),
            turned: Quat::IDENTITY,
            v: b.linear_velocity.into(),
            omega: b.angular_velocity.into(),
            a: b.acceleration.into(),
            inverse_inertia: b.inverse_inertia.into(),
            free: b.center_of_mass.into(),
            free_v: b.linear_velocity.into(),
            set_centre: b.center_of_mass,
            moves: 0,
        }));
        self.parts.clear();
        self.parts.extend(self.set.iter().enumerate().map(|(k, b)| Part {
            body: b.part_of.unwrap_or(k),
            now: b.shape,
            before: b.shape,
            reach: Reach::of(&b.shape),
            placed: 0,
        }));
        self.impulses.resize(self.set.len(), RigidImpulse::default());
        self.elapsed = 0.0;
    }

    /// At the start of a sub-step of `h` seconds: every body moved on at its velocity, which
    /// its acceleration changes first.
    pub fn advance(&mut self, h: f32) {
        self.elapsed += h;
        for (k, body) in self.moving.iter_mut().enumerate() {
            if self.parts.get(k).is_some_and(|p| p.body != k) {
                continue;
            }
            body.v += body.a * h;
            body.centre += body.v * h;
            body.free_v += body.a * h;
            body.free += body.free_v * h;
            body.turn(body.omega * h);
            body.moves = body.moves.wrapping_add(1);
        }
        for (part, set) in self.parts.iter_mut().zip(&self.set) {
            part.before = part.now;
            if let Some(body) = self.moving.get(part.body) {
                part.place(body, set);
            }
        }
    }

    /// After the step: how far each ended from where its engine will put it (`pushed`,
    /// `turned`), and where the bodies ended is where the next step starts, unless the game
    /// sets them again.
    pub fn finish(&mut self) {
        let t = self.elapsed;
        for (k, (body, taken)) in self.moving.iter().zip(&mut self.impulses).enumerate() {
            if self.parts.get(k).is_some_and(|p| p.body != k) {
                continue;
            }
            // Moved on free, its velocity changed by the impulses at the start.
            let engine = body.free + (body.v - body.free_v) * t;
            taken.pushed += Vec3::from(body.centre - engine);
            let spin = body.omega * t;
            let engine = Quat::from_scaled_axis(spin.into());
            taken.turned += (body.turned * engine.inverse()).to_scaled_axis();
        }
        for (set, part) in self.set.iter_mut().zip(&mut self.parts) {
            let Some(body) = self.moving.get(part.body) else { continue };
            if part.placed != body.moves {
                part.place(body, set);
            }
            set.shape = part.now;
            if set.part_of.is_none() {
                set.center_of_mass = body.centre.into();
                set.linear_velocity = body.v.into();
                set.angular_velocity = body.omega.into();
            }
        }
    }

    /// The contacts of a node of inverse mass `w` (and radius `r`) that moved from `from` to
    /// `*to` at `*v` in a sub-step, with every body; `rest_speed`: below it nothing bounces.
    /// True when one answered.
    pub fn answer(
        &mut self,
        (from, to, v): (Vec3A, &mut Vec3A, &mut Vec3A),
        (w, r, held): (f32, f32, Vec3A),
        rest_speed: f32,
    ) -> bool {
        let mut touched = false;
        for k in 0..self.parts.len() {
            touched |= self.answer_one(k, (from, to, v), (w, r, held), rest_speed);
        }
        touched
    }

    /// [`RigidBodies::answer`] with body `k` alone.
    fn answer_one(
        &mut self,
        k: usize,
        (from, to, v): (Vec3A, &mut Vec3A, &mut Vec3A),
        (w, r, held): (f32, f32, Vec3A),
        rest_speed: f32,
    ) -> bool {
        let Some(&Part { body: b, .. }) = self.parts.get(k) else { return false };
        let (Some(set), Some(owner)) = (self.set.get(k), self.set.get(b)) else { return false };
        let (Some(part), Some(body)) = (self.parts.get_mut(k), self.moving.get_mut(b)) else {
            return false;
        };
        let Some(taken) = self.impulses.get_mut(b) else { return false };
        if part.placed != body.moves {
            part.place(body, set);
        }
        if !part.reach.near(*to, r) {
            return false;
        }
        let before = || Some(part.before);
        let Some((at, n)) = leave(&part.now, before, (from, *to), r) else { return false };
        let (at, n) = (Vec3A::from(at), Vec3A::from(n));
        // Pushed further out along a taut tether, the node is held by its anchor.
        let w = if held.dot(n) > 0.0 { 0.0 } else { w };
        let lever = at - n * r - body.centre;
        let pair = Pair { w, body_w: owner.inverse_mass, lever };
        // The overlap d, shared in proportion to the pair's inverse masses.
        let depth = (at - *to).dot(n).max(0.0);
        let lambda = depth / pair.inverse_mass(body, n);
        *to += n * (w * lambda);
        body.centre -= n * (owner.inverse_mass * lambda);
        body.turn(-(body.inverse_inertia * lever.cross(n)) * lambda);
        body.moves = body.moves.wrapping_add(1);
        part.place(body, set);
        let surface = |b: &Moving| b.v + b.omega.cross(lever);
        let u = *v - surface(body);
        let un = u.dot(n);
        if un >= 0.0 {
            return true;
        }
        let bounce = if -un > rest_speed { set.surface.restitution } else { 0.0 };
        let normal = -(1.0 + bounce) * un / pair.inverse_mass(body, n);
        pair.apply(n * normal, (v, body), taken);
        let u = *v - surface(body);
        let slide = u - n * u.dot(n);
        let speed = slide.length();
        if speed > 0.0 {
            let t = slide / speed;
            let friction = (speed / pair.inverse_mass(body, t)).min(set.surface.friction * normal);
            pair.apply(-t * friction, (v, body), taken);
        }
        true
    }
}

impl RigidBodies {
    /// The contacts of a cage's drawn surface with the bodies: each touching point of
    /// `points` ([`crate::sim::contacts::surface`]) on nodes at `x` (in `frame`'s terms),
    /// moving at `v`, is met as a node whose inverse mass is its nodes' Σ w² m⁻¹, and its
    /// push and impulse are shared by its nodes as the surface's module doc shares a
    /// collider's push: Δx_j = w_j m_j⁻¹ Δp / Σ w² m⁻¹, and the same for the velocity.
    pub fn touch(
        &mut self,
        points: &TouchPoints,
        (frame, inv_mass): (&Frame, &[f32]),
        (x, v): (&mut [Vec3A], &mut [Vec3A]),
        (r, rest_speed): (f32, f32),
    ) {
        for k in 0..points.owners.len() {
            let owner = frame.at(x, points.owners[k] as usize);
            let reach = points.reach[k] + r;
            let mut near = std::mem::take(&mut self.near);
            near.clear();
            near.extend((0..self.parts.len()).filter(|&b| self.parts[b].reach.near(owner, reach)));
            if near.is_empty() {
                self.near = near;
                continue;
            }
            for i in points.of(k) {
                let p = at_point(points, i, frame, x);
                let corners =
                    points.nodes[i].map(|j| j as usize).into_iter().zip(points.weights[i]);
                let (mut from, mut vp, mut share) = (Vec3A::ZERO, Vec3A::ZERO, 0.0);
                for (j, w) in corners.clone() {
                    from += w * frame.start_of(j);
                    vp += w * v[j];
                    share += w * w * inv_mass[j];
                }
                if share <= 0.0 {
                    continue;
                }
                let (mut to, mut vt) = (p, vp);
                let mut touched = false;
                for &b in &near {
                    let point = (from, &mut to, &mut vt);
                    touched |= self.answer_one(b, point, (share, r, Vec3A::ZERO), rest_speed);
                }
                if !touched {
                    continue;
                }
                let (dp, dv) = ((to - p) / share, (vt - vp) / share);
                for (j, w) in corners {
                    let g = w * inv_mass[j];
                    x[j] += dp * g;
                    v[j] += dv * g;
                }
            }
            self.near = near;
        }
    }
}

/// A node and a body at a contact: the node's inverse mass, the body's, and the contact
/// point's place from the body's centre of mass r.
struct Pair {
    w: f32,
    body_w: f32,
    lever: Vec3A,
}

impl Pair {
    /// w(d) of the module doc: the pair's inverse effective mass along the unit direction `d`.
    fn inverse_mass(&self, body: &Moving, d: Vec3A) -> f32 {
        let arm = self.lever.cross(d);
        self.w + self.body_w + arm.dot(body.inverse_inertia * arm)
    }

    /// The impulse `j` on the node, and −`j` on the body at the contact point.
    fn apply(&self, j: Vec3A, (v, body): (&mut Vec3A, &mut Moving), taken: &mut RigidImpulse) {
        *v += j * self.w;
        body.v -= j * self.body_w;
        let turn = self.lever.cross(j);
        body.omega -= body.inverse_inertia * turn;
        taken.linear -= Vec3::from(j);
        taken.angular -= Vec3::from(turn);
    }
}

impl crate::Simulation {
    /// Sets the game's rigid bodies this simulation meets from the next step on, where they
    /// are now and how they move ([module doc](self)). Call it once a frame before
    /// [`crate::Simulation::step`]; until it is called again, each step starts the bodies where
    /// the last one left them. An empty slice removes them.
    ///
    /// Errors: a body that is not valid ([`RigidBody::problem`]), or bodies given to a model
    /// whose integrator is not Xpbd; nothing changes then.
    pub fn set_rigid_bodies(&mut self, bodies: &[RigidBody]) -> Result<(), CoreError> {
        if let Some((index, reason)) =
            bodies.iter().enumerate().find_map(|(i, b)| Some((i, b.problem(&format!("[{i}]"))?)))
        {
            return Err(CoreError::BadRigidBody { index, reason });
        }
        for (index, body) in bodies.iter().enumerate() {
            let Some(of) = body.part_of else { continue };
            let reason = match bodies.get(of) {
                Some(owner) if of < index && owner.part_of.is_none() => {
                    let moves = owner.inverse_mass != 0.0 || owner.inverse_inertia != Mat3::ZERO;
                    if !(moves && matches!(body.shape, Shape::Plane { .. })) {
                        continue;
                    }
                    format!("[{index}].shape: a plane is a static or kinematic body's (no mass)")
                }
                _ => format!("[{index}].part_of: {of} is not an earlier body that is no part"),
            };
            return Err(CoreError::BadRigidBody { index, reason });
        }
        if !bodies.is_empty() && self.c.params.integrator != Integrator::Xpbd {
            return Err(CoreError::RigidBodiesNeedXpbd);
        }
        self.rigid.set(bodies);
        Ok(())
    }

    /// The impulses each rigid body took from the nodes over the steps since
    /// [`crate::Simulation::set_rigid_bodies`] gave them (the last step, for a game that sets
    /// them every frame; every step of the frame for one that steps several times a frame, as
    /// a [`crate::World`] does), in the order it gave them, for the game to apply to its bodies
    /// ([module doc](self)); their moves (`pushed`, `turned`) add up over those steps too.
    pub fn rigid_impulses(&self) -> &[RigidImpulse] {
        self.rigid.impulses()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A node of 1 kg moving at 2 m/s along +x into a resting free ball of 3 kg and radius
    /// 0.5 at the origin, head on, with restitution `e`: the node's and the ball's velocity
    /// after the contact.
    fn head_on(e: f32) -> (Vec3A, Vec3A) {
        let ball = RigidBody {
            shape: Shape::Sphere { center: Vec3::ZERO, radius: 0.5 },
            center_of_mass: Vec3::ZERO,
            linear_velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            acceleration: Vec3::ZERO,
            inverse_mass: 1.0 / 3.0,
            inverse_inertia: Mat3::from_diagonal(Vec3::splat(1.0 / (0.4 * 3.0 * 0.25))),
            surface: Surface { friction: 0.5, restitution: e },
            part_of: None,
        };
        let mut bodies = RigidBodies::default();
        bodies.set(&[ball]);
        bodies.begin();
        let (mut to, mut v) = (Vec3A::new(-0.49, 0.0, 0.0), Vec3A::new(2.0, 0.0, 0.0));
        let from = Vec3A::new(-0.51, 0.0, 0.0);
        assert!(bodies.answer((from, &mut to, &mut v), (1.0, 0.0, Vec3A::ZERO), 0.0));
        // The 1 cm overlap shared by inverse mass: the node moves ¾ of it, the ball ¼.
        let centre = bodies.moving[0].centre;
        assert!((to.x + 0.4975).abs() < 1e-6 && (centre.x - 0.0025).abs() < 1e-6, "{to} {centre}");
        (v, bodies.moving[0].v)
    }

    #[test]
    fn a_head_on_contact_is_the_textbook_collision_of_two_masses() {
        // Inelastic: both at the common velocity m v / (m + M) = 0.5 m/s.
        let (v, ball) = head_on(0.0);
        assert!((v - Vec3A::X * 0.5).length() < 1e-6 && (ball - Vec3A::X * 0.5).length() < 1e-6);
        // Elastic: (m − M)/(m + M) v = −1 m/s and 2m/(m + M) v = 1 m/s; the same momentum and
        // energy as before.
        let (v, ball) = head_on(1.0);
        assert!((v + Vec3A::X).length() < 1e-6 && (ball - Vec3A::X).length() < 1e-6, "{v} {ball}");
    }
}
