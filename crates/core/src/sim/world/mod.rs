//! # Several bodies in one world
//!
//! A [`World`] holds several simulations, steps them together and keeps them from passing
//! through each other. Each body touches the others with the points of its drawn surface: its
//! surface nodes, or, for a cage with a skin, the skin's vertices, each riding on up to four
//! nodes with weights w_k (a node is a point of one node with weight 1). Two points a, b of
//! different bodies closer than the pair's contact distance δ are pushed apart along their
//! line, and their approach along it is stopped, by the smallest mass-weighted change of their
//! nodes (Müller et al., "Position Based Dynamics", 2007, §3.3, with ∂p/∂x_k = w_k):
//!
//! ```text
//! d = p_a − p_b,   C = δ − |d| > 0,   n = d / |d|,   S = Σ_a w_k² m_k⁻¹ + Σ_b w_k² m_k⁻¹
//! x_k ← x_k ± w_k m_k⁻¹ (C / S) n                             (+ for a's nodes, − for b's)
//! v_n = (v_a − v_b)·n < 0:   P = (−v_n n − s v_t) / S,   v_t = (v_a − v_b) − v_n n,
//!                            s = min(1, μ (−v_n) / |v_t|)
//! v_k ← v_k ± w_k m_k⁻¹ P
//! ```
//!
//! so the pair ends δ apart, no longer approaching, its sliding slowed by at most μ times the
//! normal change (Coulomb): an answer takes speed away and adds none (the push moves
//! positions, not velocities). An anchored node (m⁻¹ = 0) does not move. A body with shape matching (a
//! converted solid) first answers its contacts as a rigid body ([`rigid`], where the reason
//! and the figures are; a stack's bodies standing on the ones below them, `sweeps.rs`):
//! pushed point by point, a stiff solid rings.
//!
//! - p, v: a point's position Σ w_k x_k (m) and velocity Σ w_k v_k (m/s); x_k, v_k, m_k: its
//!   nodes' positions, velocities and masses (kg); μ: [`CONTACT_FRICTION`].
//!
//! **How far apart.** δ is ¾ of the larger of the two bodies' point spacings: their drawn
//! vertices, about a mean edge apart, and points that fill triangles much larger than that,
//! the spacing bounded by the body's size (`touching.rs`, where the reason and the figures
//! are). Two touching surfaces' points then close each other's triangles (a point passing
//! through a triangle of edge L comes within L/√3 of its corners, through a square within
//! L/√2), as the self-collision's balls do ([`crate::sim::contacts::self_collision`]).
//!
//! **When.** A frame step is cut into k world steps, each body stepped by its own integrator
//! and sub-steps over each (whole sub-steps of the body that takes the most, so that it takes
//! as many in all as over the frame: [`Meeting::spans`]),
//! then the contacts: k is the fewest that keep the relative travel per world step of any two
//! bodies that may meet in the frame under half their δ ([`MAX_WORLD_STEPS`] at most), so
//! that no point crosses a contact distance unseen. The bodies step in parallel
//! ([`Threads::All`]), each on one thread, which also works out where its drawn points went;
//! the contacts are found patch against patch (`search.rs`: each body's points in chunks of
//! neighbouring points, each chunk with its box) per pair of bodies whose boxes meet, the
//! pairs searched on a [`Pool`] (rayon's, or a game engine's), and solved one after another,
//! [`CONTACT_ITERATIONS`] passes in body and point order, so the result does not depend on
//! the threads. On all threads the bodies those contacts do not meet step by the next world
//! step meanwhile: the answer does not touch them, so they step to the same bits as after it,
//! and the answer's thread is the only one that waits for it.
//!
//! One loop does all this ([`Meeting::step_frame`], `frame.rs`), for the bodies a [`World`]
//! keeps and for those a game keeps in its own storage ([`Body`]), on any [`Pool`].

mod frame;
mod rigid;
mod search;
mod sweeps;
mod touching;

use crate::sim::threads::{Pool, Threads};
use crate::sim::{Simulation, StepReport};
use crate::{CoreError, ValidModel};
pub use frame::{Body, Frame, Plan};
use glam::Vec3A;
use search::{Bounds, Side};
use sweeps::Sweeps;
pub use touching::Touching;

/// Coulomb friction between bodies: cloth or rubber on cloth or rubber, about 0.5.
pub const CONTACT_FRICTION: f32 = 0.5;

/// Most world steps a frame is cut into: past this a body faster than half its contact
/// distance per world step may pass through another.
pub const MAX_WORLD_STEPS: u32 = 8;

/// Passes over the contacts per world step: one pass left a blob resting crosswise on
/// another to sink into it by 17 cm within 3 s (a push on a skin point moves its cage nodes,
/// and with them the points of other contacts); four held it within 1 cm.
pub const CONTACT_ITERATIONS: usize = 4;

/// Most contacts one point keeps per world step (bounds the work on a degenerate file).
const MAX_CONTACTS_PER_POINT: usize = 16;

/// The share of a body's point spacing its points keep from another body's.
const CONTACT_PER_EDGE: f32 = 0.75;

/// A contact found in a world step: body and point of each side.
#[derive(Clone, Copy, Debug)]
struct Pair {
    a: (usize, usize),
    b: (usize, usize),
    distance: f32,
}

/// Several simulations stepped together, kept from passing through each other (module doc).
#[derive(Clone, Debug, Default)]
pub struct World {
    bodies: Vec<Simulation>,
    touching: Vec<Touching>,
    time: f64,
    threads: Threads,
    meeting: Meeting,
    /// Each body's motion as the last step left it, for the next step's plan (worked out in
    /// the bodies' own tasks); empty when not known (none yet, or a body lent out since).
    plan: Plan,
}

/// The box around a body's drawn points and how fast they go: what the plan of a frame's world
/// steps looks at ([`Meeting::world_steps`]).
#[derive(Clone, Copy, Debug)]
struct Motion {
    bounds: Bounds,
    /// No point is faster than this (m/s).
    fastest: f32,
    /// The centre of the box around the nodes' velocities (m/s), and how far from it a point's
    /// velocity can be (m/s): every point's velocity is within `spread` of `drift`.
    drift: Vec3A,
    spread: f32,
}

/// A body of a world as its keeper holds it: the simulation and the points it touches with.
/// A game that keeps its simulations elsewhere (in an ECS) lends them to a [`Meeting`] so.
#[derive(Debug)]
pub struct Member<'a> {
    /// The body's simulation.
    pub sim: &'a mut Simulation,
    /// Its drawn points ([`Touching::of`] the same simulation).
    pub touching: &'a Touching,
}

/// The bodies `bodies` with their points `touching`, lent as members.
fn members<'a>(bodies: &'a mut [Simulation], touching: &'a [Touching]) -> Vec<Member<'a>> {
    bodies.iter_mut().zip(touching).map(|(sim, touching)| Member { sim, touching }).collect()
}

/// How bodies meet: the world steps a frame needs and the contacts between bodies, for
/// bodies kept by [`World`] or by a game (module doc), their searches run on the [`Pool`]
/// given. It keeps only scratch between calls.
#[derive(Clone, Debug, Default)]
pub struct Meeting {
    /// Scratch: each body's points now, and the box around them.
    points: Vec<Drawn>,
    pairs: Vec<Pair>,
    /// Scratch of the rigid answer ([`rigid`], `sweeps.rs`).
    rigid: Sweeps,
}

/// Two bodies that overlap ([`World::overlaps`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overlap {
    /// The two bodies, the first added first.
    pub bodies: (usize, usize),
    /// How many pairs of their points are closer than the contact distance.
    pub points: usize,
}

/// What a world step did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorldStepReport {
    /// Each body's sub-steps and broken springs over the frame's world steps.
    pub bodies: Vec<StepReport>,
    /// World steps the frame was cut into.
    pub world_steps: u32,
    /// Pairs of points of different bodies found in contact, summed over the world steps.
    pub contacts: usize,
}

impl World {
    /// An empty world.
    pub fn new() -> World {
        World::default()
    }

    /// Adds a body simulating `model` from its rest state; returns its index.
    pub fn add(&mut self, model: &ValidModel) -> usize {
        self.add_simulation(Simulation::new(model))
    }

    /// Adds a simulation as it is; returns its index.
    pub fn add_simulation(&mut self, sim: Simulation) -> usize {
        self.touching.push(Touching::of(&sim));
        self.bodies.push(sim);
        self.bodies.len() - 1
    }

    /// The bodies, in the order added.
    pub fn bodies(&self) -> &[Simulation] {
        &self.bodies
    }

    /// Body `i`, to read or to change (its anchors, colliders, parameters).
    pub fn body_mut(&mut self, i: usize) -> Option<&mut Simulation> {
        self.plan.clear();
        self.bodies.get_mut(i)
    }

    /// The pairs of bodies whose drawn surfaces are now closer than their contact distance,
    /// with how many pairs of points are: bodies placed overlapping, which the next step
    /// pushes apart at once (a game places them apart, or is told here why they fly).
    pub fn overlaps(&mut self) -> Vec<Overlap> {
        self.meeting.overlaps(&members(&mut self.bodies, &self.touching), &self.threads)
    }

    /// Whether the bodies step, and their contacts are searched, in parallel.
    pub fn set_threads(&mut self, threads: Threads) {
        self.threads = threads;
    }

    /// Simulated time (s).
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Advances every body by `dt` seconds and answers their contacts (module doc). On an
    /// error (a bad `dt`, a body gone non-finite: the first such body's error), the bodies
    /// that stepped keep their step.
    pub fn step(&mut self, dt: f32) -> Result<WorldStepReport, CoreError> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(CoreError::BadTimeStep { dt });
        }
        self.threads.within(|| self.step_within(dt))
    }

    /// [`World::step`] by a valid `dt`, on the thread it is to run on ([`Threads::within`]):
    /// the frame loop ([`frame`]) on the world's bodies.
    fn step_within(&mut self, dt: f32) -> Result<WorldStepReport, CoreError> {
        let bodies = self.bodies.iter_mut().zip(&self.touching);
        let mut bodies: Vec<Own> = bodies.map(|(sim, touching)| Own { sim, touching }).collect();
        let threads = self.threads;
        let frame = self.meeting.step_frame(&mut bodies, dt, &threads, Some(&mut self.plan));
        self.time += f64::from(dt);
        let mut report = WorldStepReport {
            world_steps: frame.world_steps,
            contacts: frame.contacts,
            ..WorldStepReport::default()
        };
        for result in frame.bodies {
            report.bodies.push(result.inspect_err(|_| self.plan.clear())?);
        }
        Ok(report)
    }
}

/// A body the world keeps, as the frame loop steps it.
struct Own<'a> {
    sim: &'a mut Simulation,
    touching: &'a Touching,
}

impl Body for Own<'_> {
    fn member(&mut self) -> Member<'_> {
        Member { sim: self.sim, touching: self.touching }
    }

    fn advance(&mut self, h: f32, _: f32) -> Result<StepReport, CoreError> {
        self.sim.step(h)
    }
}

impl Meeting {
    /// The pairs of `bodies` closer than their contact distance now (see
    /// [`World::overlaps`]), searched on `pool`.
    pub fn overlaps(&mut self, bodies: &[Member], pool: &impl Pool) -> Vec<Overlap> {
        self.points = drawn(bodies, pool);
        self.find_pairs(bodies, pool);
        let mut out: Vec<Overlap> = Vec::new();
        for pair in &self.pairs {
            let bodies = (pair.a.0, pair.b.0);
            match out.last_mut() {
                Some(last) if last.bodies == bodies => last.points += 1,
                _ => out.push(Overlap { bodies, points: 1 }),
            }
        }
        out
    }

    /// The world steps for a frame of `dt`: the fewest that keep the relative travel of any two
    /// bodies that may meet within the frame under half their contact distance per `dt` / k
    /// (and under all of it per longest of the [`Meeting::spans`]); one for a world of one
    /// body (which steps exactly as its simulation alone). A pair's travel is that of its drawn points (they are what touch), at the
    /// lesser of two bounds of how fast two of them close: the sum of the two fastest points'
    /// speeds, and the difference of the bodies' drifts (the centre of the box around their
    /// nodes' velocities) plus, for each body, the furthest a node's velocity is from its
    /// drift (a point's velocity is a weighted mean of its nodes': `Touching::motion_of`);
    /// each plus what gravity changes over the frame. Two bodies falling or sliding side by
    /// side travel little against each other, however fast they go: on the 32-blob pile, over
    /// the same 6 s of frames, 3.01 world steps a frame where the sum alone asked for 3.31.
    /// Two bodies may meet when their points' boxes, grown by the pair's travel and contact
    /// distance, overlap. The caller steps each body by each of the k [`Meeting::spans`] in
    /// turn, answering the contacts ([`Meeting::answer`]) after each. The bodies are looked at
    /// on `pool`.
    pub fn world_steps(&self, bodies: &[Member], dt: f32, pool: &impl Pool) -> u32 {
        if bodies.len() < 2 {
            return 1;
        }
        let motion = pool.map(bodies.len(), |i| bodies[i].touching.motion(bodies[i].sim));
        self.steps_for(bodies, &motion, dt)
    }

    /// [`Meeting::world_steps`] of `bodies` whose motions are `motion`.
    fn steps_for(&self, bodies: &[Member], motion: &[Motion], dt: f32) -> u32 {
        if bodies.len() < 2 {
            return 1;
        }
        let gravity = |i: usize| Vec3A::from(bodies[i].sim.params().gravity);
        // The most any pair travels in the frame, in halves of its contact distance.
        let mut r = 1.0f32;
        for j in 1..bodies.len() {
            for i in 0..j {
                let distance = contact_distance(bodies[i].touching, bodies[j].touching);
                let ((lo_i, hi_i), (lo_j, hi_j)) = (motion[i].bounds, motion[j].bounds);
                let travel =
                    closing_speed((&motion[i], &motion[j]), (gravity(i), gravity(j)), dt) * dt;
                let margin = Vec3A::splat(distance + travel);
                let meet = lo_i.cmple(hi_j + margin).all() && (lo_j - margin).cmple(hi_i).all();
                if distance > 0.0 && meet {
                    r = r.max(travel / (0.5 * distance));
                }
            }
        }
        if r.is_finite() { (r.ceil() as u32).clamp(1, MAX_WORLD_STEPS) } else { MAX_WORLD_STEPS }
    }

    /// The lengths of the `k` world steps of a frame of `dt` ([`Meeting::world_steps`]): the
    /// n sub-steps of the body that takes the most over the frame, shared out between them as
    /// evenly as whole sub-steps go, so that it takes as many in all, each as long, as over the
    /// frame at once (8 cut in 3: 2, 3 and 3, where thirds of the frame took 3 each, 9 in
    /// all); `dt` / k each when k is more than n. The longest is ⌈n/k⌉ k / n < 2 times `dt` /
    /// k: measured on the 32-blob pile, the sub-steps saved cost less than the world steps
    /// a cut into equal whole sub-steps would add.
    pub fn spans(&self, bodies: &[Member], dt: f32, k: u32) -> Vec<f32> {
        let n = most_substeps(bodies, dt);
        if k <= 1 {
            return vec![dt];
        }
        if k > n {
            return vec![dt / k as f32; k as usize];
        }
        let whole = |j: u32| j * n / k;
        (0..k).map(|j| dt * (whole(j + 1) - whole(j)) as f32 / n as f32).collect()
    }

    /// Finds the contacts between `bodies` and answers them: first as between rigid bodies
    /// for the bodies with shape matching ([`rigid`]), then point by point; returns how many
    /// pairs of points were in contact. The contacts are searched on `pool`.
    pub fn answer(&mut self, bodies: &mut [Member], pool: &impl Pool) -> usize {
        let drawn = drawn(bodies, pool);
        self.answer_drawn(bodies, drawn, pool)
    }

    /// The drawn points the last answer was given, handed back to be filled again
    /// ([`Touching::draw`]): a caller that works out its bodies' points every world step reuses
    /// their buffers so.
    pub fn take_drawn(&mut self) -> Vec<Drawn> {
        std::mem::take(&mut self.points)
    }

    /// [`Meeting::answer`], with each body's drawn points worked out already (`drawn[b]` =
    /// `bodies[b].touching.drawn(bodies[b].sim)`, for instance where the body stepped, so that
    /// a game's pool need not be woken for them).
    pub fn answer_drawn(
        &mut self,
        bodies: &mut [Member],
        drawn: Vec<Drawn>,
        pool: &impl Pool,
    ) -> usize {
        self.find_drawn(bodies, drawn, pool);
        self.answer_found(bodies)
    }

    /// The pairs in contact among `bodies`, whose points are `drawn` (the first half of
    /// [`Meeting::answer_drawn`]).
    fn find_drawn(&mut self, bodies: &[Member], drawn: Vec<Drawn>, pool: &impl Pool) {
        self.points = drawn;
        self.find_pairs(bodies, pool);
    }

    /// Answers the pairs found, between `bodies` (numbered as the pairs number them): the
    /// second half of [`Meeting::answer_drawn`]. Returns how many pairs there were.
    fn answer_found(&mut self, bodies: &mut [Member]) -> usize {
        let meets = self.met(bodies.len());
        self.rigid.answer(bodies, (&self.pairs, &self.points), &meets);
        for _ in 0..CONTACT_ITERATIONS {
            for &Pair { a, b, distance } in &self.pairs {
                let (first, second) = bodies.split_at_mut(b.0);
                let (Some(ma), Some(mb)) = (first.get_mut(a.0), second.first_mut()) else {
                    continue;
                };
                answer((ma.sim, ma.touching, a.1), (mb.sim, mb.touching, b.1), distance);
            }
        }
        self.pairs.len()
    }

    /// Numbers the pairs' bodies `to[b]` instead of b (in the same order: `to` increases
    /// over the bodies the pairs name, so each pair's first body stays before its second).
    fn renumber(&mut self, to: &[usize]) {
        for pair in &mut self.pairs {
            pair.a.0 = to[pair.a.0];
            pair.b.0 = to[pair.b.0];
        }
    }

    /// Which of `n` bodies the last answer's contacts met (and so may have moved).
    fn met(&self, n: usize) -> Vec<bool> {
        let mut met = vec![false; n];
        for pair in &self.pairs {
            for b in [pair.a.0, pair.b.0] {
                if let Some(m) = met.get_mut(b) {
                    *m = true;
                }
            }
        }
        met
    }

    /// The pairs of points of different bodies closer than their contact distance: for each
    /// pair of bodies whose boxes come that close, their patches that come that close, point
    /// against point (`search.rs`); body pair by body pair, in point order, among the bodies'
    /// drawn points `self.points`. The body pairs are searched on `pool`, and their pairs
    /// kept in that order.
    fn find_pairs(&mut self, bodies: &[Member], pool: &impl Pool) {
        let mut meeting = Vec::new();
        for j in 1..bodies.len() {
            for i in 0..j {
                let distance = contact_distance(bodies[i].touching, bodies[j].touching);
                let (mine, others) = (&self.points[i], &self.points[j]);
                let margin = Vec3A::splat(distance);
                let meet = mine.bounds.0.cmple(others.bounds.1 + margin).all()
                    && (others.bounds.0 - margin).cmple(mine.bounds.1).all();
                if distance > 0.0 && meet && !mine.at.is_empty() && !others.at.is_empty() {
                    meeting.push((i, j, distance));
                }
            }
        }
        let points = &self.points;
        let found = pool.map(meeting.len(), |k| {
            let (i, j, distance) = meeting[k];
            let (mut pairs, mut near, mut facing) = (Vec::new(), Vec::new(), Vec::new());
            let sides = (points[i].side(), points[j].side());
            let scratch = (&mut near, &mut facing);
            search::pairs(sides, distance, MAX_CONTACTS_PER_POINT, scratch, |p, q| {
                pairs.push(Pair { a: (i, p), b: (j, q), distance });
            });
            pairs
        });
        self.pairs.clear();
        self.pairs.extend(found.into_iter().flatten());
    }
}

/// Every body's drawn points where they are now, worked out on `pool`.
fn drawn(bodies: &[Member], pool: &impl Pool) -> Vec<Drawn> {
    pool.map(bodies.len(), |b| bodies[b].touching.drawn(bodies[b].sim))
}

/// The most two points of bodies moving as `a` and `b`, under gravities `ga` and `gb`, close
/// on each other within a frame of `dt` (m/s; [`Meeting::world_steps`]).
fn closing_speed((a, b): (&Motion, &Motion), (ga, gb): (Vec3A, Vec3A), dt: f32) -> f32 {
    // Each point at most as fast as the fastest, each body gaining at most g dt.
    let apart = a.fastest + b.fastest + (ga.length() + gb.length()) * dt;
    // Relative to each other: the drifts' difference and both spreads. Gravity changes the
    // velocities of a falling body by g dt and of a supported one by less, so their difference
    // by the longest of g_a dt, g_b dt and (g_a − g_b) dt at most.
    let gained = ga.length().max(gb.length()).max(ga.distance(gb)) * dt;
    let relative = a.drift.distance(b.drift) + a.spread + b.spread + gained;
    apart.min(relative)
}

/// The most sub-steps any of `bodies` takes over a frame of `dt`.
fn most_substeps(bodies: &[Member], dt: f32) -> u32 {
    bodies.iter().map(|m| m.sim.substeps_for(dt)).max().unwrap_or(1)
}

/// The contact distance δ of two bodies (module doc).
fn contact_distance(a: &Touching, b: &Touching) -> f32 {
    CONTACT_PER_EDGE * a.edge.max(b.edge)
}

/// A body's drawn points where they are, the box of each chunk of them (search.rs) and the
/// box around them all ([`Touching::drawn`]).
#[derive(Clone, Debug, Default)]
pub struct Drawn {
    at: Vec<Vec3A>,
    chunks: Vec<Bounds>,
    bounds: (Vec3A, Vec3A),
}

impl Drawn {
    /// The box around the points; empty (from +∞ to −∞) when there are none.
    fn extent(&self) -> Bounds {
        if self.at.is_empty() {
            (Vec3A::splat(f32::INFINITY), Vec3A::splat(f32::NEG_INFINITY))
        } else {
            self.bounds
        }
    }

    /// The points as a side of the search (search.rs).
    fn side(&self) -> Side<'_> {
        Side { at: &self.at, chunks: &self.chunks, bounds: self.bounds }
    }
}

/// Answers one contact between point `pa` of body `sa` and point `pb` of body `sb` at
/// `distance` (module doc), unless they are no longer that close.
fn answer(
    (sa, ta, pa): (&mut Simulation, &Touching, usize),
    (sb, tb, pb): (&mut Simulation, &Touching, usize),
    distance: f32,
) {
    let (xa, va) = ta.point(pa, sa.positions(), sa.velocities());
    let (xb, vb) = tb.point(pb, sb.positions(), sb.velocities());
    let d = xa - xb;
    let length = d.length();
    let light = ta.lightness(pa, &sa.c.nodes.inv_mass) + tb.lightness(pb, &sb.c.nodes.inv_mass);
    if !(length < distance && length > 0.0 && light > 0.0) {
        return;
    }
    let n = d / length;
    let dx = n * ((distance - length) / light);
    let relative = va - vb;
    let vn = relative.dot(n);
    let dv = if vn < 0.0 {
        let across = relative - n * vn;
        let slide = across.length();
        let s = if slide > 0.0 { (CONTACT_FRICTION * -vn / slide).min(1.0) } else { 0.0 };
        (n * -vn - across * s) / light
    } else {
        Vec3A::ZERO
    };
    for (sim, t, p, sign) in [(sa, ta, pa, 1.0), (sb, tb, pb, -1.0)] {
        let Simulation { c, states, .. } = sim;
        let state = states.committed_mut();
        t.push(p, &c.nodes.inv_mass, (&mut state.pos, &mut state.vel), (dx * sign, dv * sign));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fixtures::two_nodes;
    use crate::{Face, Node, NodeId, SpringModel};
    use glam::Vec3;

    /// A triangle of 1.814 m sides at `at`, every node moving at `velocity`: its box's
    /// diagonal is 2.4 m, so its points are 0.1 m apart (`touching.rs`) and kept 0.075 m from
    /// others'.
    pub(super) fn triangle(at: Vec3, velocity: Vec3) -> Simulation {
        let mut m = SpringModel::default();
        let corners = [Vec3::ZERO, Vec3::new(1.8142, 0.0, 0.0), Vec3::new(0.9071, 0.0, 1.5711)];
        for c in corners {
            m.nodes.push(Node { position: at + c, mass: 0.1 });
        }
        m.faces.push(Face { nodes: [NodeId(0), NodeId(1), NodeId(2)], uvs: None });
        let mut sim = Simulation::new(&ValidModel::new(m).expect("valid"));
        sim.velocities_mut().fill(velocity.into());
        sim
    }

    #[test]
    fn two_bodies_sliding_side_by_side_take_one_world_step_however_fast() {
        // Under the default gravity (9.81 m/s², g dt = 0.1635 m/s over a 60 Hz frame), two
        // triangles 5 cm apart, within their contact distance δ = 0.075 m.
        let dt = 1.0 / 60.0;
        let steps = |va: Vec3, vb: Vec3| {
            let mut a = triangle(Vec3::ZERO, va);
            let mut b = triangle(Vec3::new(0.0, 0.05, 0.0), vb);
            let (ta, tb) = (Touching::of(&a), Touching::of(&b));
            let members =
                [Member { sim: &mut a, touching: &ta }, Member { sim: &mut b, touching: &tb }];
            Meeting::default().world_steps(&members, dt, &Threads::One)
        };
        // Both at 10 m/s along x: they close by gravity's g dt at most, 0.1635 / 60 = 2.7 mm
        // in the frame, under δ / 2 = 37.5 mm: one world step. The sum of their speeds,
        // (10 + 10 + 2 g dt) / 60 = 0.339 m, would ask for ⌈0.339 / 0.0375⌉ = 10, at most 8.
        assert_eq!(steps(Vec3::X * 10.0, Vec3::X * 10.0), 1);
        // Head on at 5 m/s each: (10 + g dt) / 60 = 0.1694 m, ⌈4.52⌉ = 5 world steps.
        assert_eq!(steps(Vec3::X * 5.0, Vec3::X * -5.0), 5);
        // One at rest, the other at 3 m/s: (3 + g dt) / 60 = 0.0527 m, ⌈1.41⌉ = 2.
        assert_eq!(steps(Vec3::ZERO, Vec3::Y * -3.0), 2);
    }

    #[test]
    fn world_steps_share_out_whole_sub_steps() {
        // A spring of two nodes at 8 sub-steps per 1/60 s frame.
        let mut m = two_nodes();
        m.params.substeps = 8;
        let model = ValidModel::new(m).expect("valid");
        let mut sim = Simulation::new(&model);
        let touching = Touching::of(&sim);
        let dt = 1.0 / 60.0;
        let meeting = Meeting::default();
        let spans =
            |sim: &mut Simulation, k| meeting.spans(&[Member { sim, touching: &touching }], dt, k);
        assert_eq!(spans(&mut sim, 1), [dt]);
        // 8 in 3: 2, 3 and 3 sub-steps of dt / 8 each (equal thirds took 3 each, 9 in all).
        let three = spans(&mut sim, 3);
        let taken: Vec<u32> =
            three.iter().map(|&h| sim.step(h).expect("finite").substeps).collect();
        assert_eq!(taken, [2, 3, 3]);
        assert!((three.iter().sum::<f32>() - dt).abs() < 1e-7, "{three:?}");
        // More world steps than sub-steps: equal ones.
        assert_eq!(spans(&mut sim, 10), [dt / 10.0; 10]);
    }
}
