//! # A frame of world steps, for whoever keeps the bodies
//!
//! The one loop that steps a world's bodies through a frame step of Δt (the module doc above
//! says why and how far it is cut): [`World::step`](super::World::step) runs it on the bodies
//! it keeps, and a game engine that keeps its bodies in its own storage (the Bevy plugin's
//! components) on those, each on its own [`Pool`]:
//!
//! 1. Plan: k world steps of spans h_1 … h_k that add up to Δt ([`Meeting::world_steps`],
//!    [`Meeting::spans`]), from the motions the last frame left when the keeper kept them
//!    ([`Plan`]), or looked at now.
//! 2. For each span h_j: every body that meets the others steps by h_j, ending at the fraction
//!    t_j = (h_1 + … + h_j) / Δt of the frame step, where [`Body::advance`] puts what it
//!    follows; one task per body on the pool, which also works out where its drawn points
//!    went while its nodes are in that core's cache. A body that meets no other
//!    ([`Body::meets`]) takes the whole frame step with the first span.
//! 3. The contacts between the bodies' drawn points are found and answered. Meanwhile the
//!    bodies they do not meet step by h_(j+1) ([`Pool::join`]): the answer does not change
//!    them, so they step to the same bits as after it.
//!
//! A body whose step fails (it went non-finite) stops where it was and meets no other for the
//! rest of the frame; the others go on. Results do not depend on the pool: the contacts are
//! answered in body and point order on one thread.

use super::{Drawn, Meeting, Member, Motion};
use crate::CoreError;
use crate::sim::StepReport;
use crate::sim::threads::{Pool, Threads};

/// A body as a frame's world steps see it: a [`super::World`]'s simulation, or one a game
/// keeps (the Bevy plugin's `SoftBodyState`).
pub trait Body: Send {
    /// Its simulation and the points it touches other bodies with.
    fn member(&mut self) -> Member<'_>;

    /// Whether it meets other bodies: one that does not takes each frame step whole, with
    /// the first world step, and no contact sees it. True unless the keeper says otherwise.
    fn meets(&self) -> bool {
        true
    }

    /// Steps it by `h` seconds: the world step that ends at the fraction `through` ∈ (0, 1]
    /// of the frame step. What it follows (a game's anchors, a character's pose, moving
    /// colliders) is put where it is at `through` first.
    fn advance(&mut self, h: f32, through: f32) -> Result<StepReport, CoreError>;
}

/// The bodies' motions at the end of a frame: the next frame's plan of world steps, kept by
/// whoever keeps the bodies. Cleared when a body changes other than by stepping (added,
/// moved, its anchors or parameters set): it is then looked at anew.
#[derive(Clone, Debug, Default)]
pub struct Plan(Vec<Motion>);

impl Plan {
    /// Forgets the motions: the next frame looks at the bodies.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

/// What a frame step of world steps did.
#[derive(Debug, Default)]
pub struct Frame {
    /// Per body, its sub-steps and broken springs over the frame step, or the error that
    /// stopped it.
    pub bodies: Vec<Result<StepReport, CoreError>>,
    /// World steps the frame step was cut into.
    pub world_steps: u32,
    /// Pairs of points of different bodies found in contact, summed over the world steps.
    pub contacts: usize,
}

/// A body to step: its number, the body, a buffer for its drawn points (a body that meets
/// others), its span and where that span ends in the frame step.
type Job<'a, B> = (usize, &'a mut B, Option<Drawn>, (f32, f32));

/// What stepping a body gave: its number, its step, its drawn points and, when asked, its
/// motion.
type Stepped = (usize, Result<StepReport, CoreError>, Option<Drawn>, Option<Motion>);

/// Where the frame's world steps stand, per body.
struct Tally {
    results: Vec<Result<StepReport, CoreError>>,
    drawn: Vec<Option<Drawn>>,
    motion: Vec<Option<Motion>>,
}

impl Tally {
    /// True for body `b` while it meets others and has not failed.
    fn member(&self, b: usize, meets: &[bool]) -> bool {
        meets[b] && self.results[b].is_ok()
    }

    /// Adds the steps `done` to their bodies' results and keeps their points and motions.
    fn keep(&mut self, done: Vec<Stepped>) {
        for (b, step, drawn, motion) in done {
            match (&mut self.results[b], step) {
                (Ok(all), Ok(step)) => {
                    all.substeps += step.substeps;
                    all.broken.extend(step.broken);
                }
                (result, Err(e)) => *result = Err(e),
                (Err(_), Ok(_)) => {}
            }
            self.drawn[b] = drawn;
            self.motion[b] = motion;
        }
    }
}

/// Steps each job's body by its span on `pool`, and works out where its drawn points went in
/// the same task; its motion too when `plan`.
fn step_each<B: Body>(jobs: Vec<Job<B>>, plan: bool, pool: &impl Pool) -> Vec<Stepped> {
    pool.each(jobs, |(b, body, buffer, (h, through))| {
        let step = body.advance(h, through);
        let Member { sim, touching } = body.member();
        let drawn = buffer.map(|mut drawn| {
            touching.draw(sim, &mut drawn);
            drawn
        });
        let known = plan && step.is_ok();
        let motion = drawn.as_ref().filter(|_| known).map(|d| touching.motion_of(sim, d.extent()));
        (b, step, drawn, motion)
    })
}

/// The bodies of `bodies` that `keep` keeps, lent as members, in body order.
fn lend<'a, B: Body>(bodies: &'a mut [B], keep: impl Fn(usize) -> bool) -> Vec<Member<'a>> {
    let bodies = bodies.iter_mut().enumerate().filter(|(b, _)| keep(*b));
    bodies.map(|(_, body)| body.member()).collect()
}

impl Meeting {
    /// Steps `bodies` through a frame step of `dt` seconds in world steps, answering their
    /// contacts after each, on `pool` (module doc). With a `plan`, the world steps are planned
    /// from its motions when it has one per body that meets others, and it is left with the
    /// motions at the end.
    pub fn step_frame<B: Body>(
        &mut self,
        bodies: &mut [B],
        dt: f32,
        pool: &impl Pool,
        mut plan: Option<&mut Plan>,
    ) -> Frame {
        let n = bodies.len();
        let meets: Vec<bool> = bodies.iter().map(B::meets).collect();
        let known = plan.as_deref_mut().map(|p| std::mem::take(&mut p.0)).unwrap_or_default();
        let (k, spans) = {
            let members = lend(bodies, |b| meets[b]);
            let k = if known.len() == members.len() && !known.is_empty() {
                self.steps_for(&members, &known, dt)
            } else {
                // A look at every body's points, quicker on this thread than a wake-up.
                self.world_steps(&members, dt, &Threads::One)
            };
            (k, self.spans(&members, dt, k))
        };
        let mut tally = Tally {
            results: (0..n).map(|_| Ok(StepReport::default())).collect(),
            drawn: vec![None; n],
            motion: vec![None; n],
        };
        let mut frame = Frame { world_steps: k, ..Frame::default() };
        // Where each span ends in the frame step (the last exactly at its end).
        let mut ends: Vec<f32> = spans
            .iter()
            .scan(0.0, |t, &h| {
                *t += h;
                Some(*t)
            })
            .collect();
        ends.iter_mut().for_each(|t| *t /= dt);
        if let Some(last) = ends.last_mut() {
            *last = 1.0;
        }
        // The bodies already stepped by this world step's span (during the last answer).
        let mut ahead = vec![false; n];
        for (j, &h) in spans.iter().enumerate() {
            let last = j + 1 == spans.len();
            let mut spare = self.take_drawn();
            let jobs = bodies.iter_mut().enumerate().filter_map(|(b, body)| {
                let span = match (meets[b], j) {
                    (true, _) => (h, ends[j]),
                    // A body alone takes its frame step whole, with the first world step.
                    (false, 0) => (dt, 1.0),
                    (false, _) => return None,
                };
                if ahead[b] || tally.results[b].is_err() {
                    return None;
                }
                let buffer = meets[b].then(|| spare.pop().unwrap_or_default());
                Some((b, body, buffer, span))
            });
            let done = step_each(jobs.collect(), plan.is_some() && last, pool);
            tally.keep(done);
            ahead.fill(false);
            let index: Vec<usize> = (0..n).filter(|&b| tally.member(b, &meets)).collect();
            let drawn = index.iter().map(|&b| tally.drawn[b].take().unwrap_or_default()).collect();
            self.find_drawn(&lend(bodies, |b| tally.member(b, &meets)), drawn, pool);
            let next = spans.get(j + 1).map(|&h| (h, ends[j + 1], j + 2 == spans.len()));
            let want = plan.is_some();
            frame.contacts += match next {
                Some(next) if !self.pairs.is_empty() => {
                    let (contacts, done) =
                        self.answer_stepping_ahead(bodies, &index, next, (want, pool));
                    for (b, ..) in &done {
                        ahead[*b] = true;
                    }
                    tally.keep(done);
                    contacts
                }
                _ => self.answer_found(&mut lend(bodies, |b| tally.member(b, &meets))),
            };
        }
        if let Some(plan) = plan {
            plan.0 = self.motions_after(bodies, &meets, &mut tally, pool);
        }
        frame.bodies = tally.results;
        frame
    }

    /// Answers the contacts found among the members `index` (their body numbers), and
    /// meanwhile steps the members they do not meet by the next span (`h`, where it ends in
    /// the frame step, and whether it is the frame's last), their motion too when `plan`.
    /// Returns the contacts and those steps.
    fn answer_stepping_ahead<B: Body>(
        &mut self,
        bodies: &mut [B],
        index: &[usize],
        (h, through, last): (f32, f32, bool),
        (plan, pool): (bool, &impl Pool),
    ) -> (usize, Vec<Stepped>) {
        let met = self.met(index.len());
        // The met members, numbered among themselves for the answer.
        let mut among = vec![usize::MAX; index.len()];
        let mut count = 0;
        for (k, &m) in met.iter().enumerate() {
            if m {
                among[k] = count;
                count += 1;
            }
        }
        self.renumber(&among);
        let mut points = std::mem::take(&mut self.points);
        let mut kept = Vec::with_capacity(count);
        let mut slots = Vec::with_capacity(index.len());
        for (k, drawn) in points.iter_mut().enumerate() {
            if met[k] {
                kept.push(std::mem::take(drawn));
            } else {
                slots.push(std::mem::take(drawn));
            }
        }
        self.points = kept;
        let (mut members, mut jobs) = (Vec::new(), Vec::new());
        let mut slots = slots.into_iter();
        let mut at = index.iter().zip(&met).peekable();
        for (b, body) in bodies.iter_mut().enumerate() {
            let Some((_, &m)) = at.next_if(|&(&i, _)| i == b) else { continue };
            if m {
                members.push(body.member());
            } else {
                jobs.push((b, body, Some(slots.next().unwrap_or_default()), (h, through)));
            }
        }
        let (contacts, done) =
            pool.join(|| self.answer_found(&mut members), || step_each(jobs, plan && last, pool));
        // The met members' points stay, as buffers for the next world step; the others'
        // went with their bodies' steps.
        let to: Vec<usize> = (0..index.len()).filter(|&k| met[k]).collect();
        self.renumber(&to);
        (contacts, done)
    }

    /// Every member's motion at the end of the frame: the last world step's (worked out where
    /// each stepped) and, for the bodies the last contacts moved, looked at again where they
    /// went; empty when one is not known.
    fn motions_after<B: Body>(
        &self,
        bodies: &mut [B],
        meets: &[bool],
        tally: &mut Tally,
        pool: &impl Pool,
    ) -> Vec<Motion> {
        let index: Vec<usize> = (0..bodies.len()).filter(|&b| tally.member(b, meets)).collect();
        let met = self.met(index.len());
        let again: Vec<usize> =
            index.iter().zip(&met).filter(|(_, m)| **m).map(|(&b, _)| b).collect();
        let members = lend(bodies, |b| again.binary_search(&b).is_ok());
        let moved = pool.map(members.len(), |k| members[k].touching.motion(members[k].sim));
        for (&b, m) in again.iter().zip(moved) {
            tally.motion[b] = Some(m);
        }
        let motion = index.iter().map(|&b| tally.motion[b]);
        motion.collect::<Option<Vec<_>>>().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::world::tests::triangle;
    use crate::sim::world::{Touching, World};
    use crate::{Integrator, Node, NodeId, Simulation, SpringKind, SpringModel, ValidModel};
    use glam::Vec3;

    /// A body that records the spans it is stepped by.
    struct Recording {
        sim: Simulation,
        touching: Touching,
        meets: bool,
        spans: Vec<(f32, f32)>,
    }

    impl Body for Recording {
        fn member(&mut self) -> Member<'_> {
            Member { sim: &mut self.sim, touching: &self.touching }
        }

        fn meets(&self) -> bool {
            self.meets
        }

        fn advance(&mut self, h: f32, through: f32) -> Result<StepReport, CoreError> {
            self.spans.push((h, through));
            self.sim.step(h)
        }
    }

    fn recording(sim: Simulation, meets: bool) -> Recording {
        Recording { touching: Touching::of(&sim), sim, meets, spans: Vec::new() }
    }

    #[test]
    fn a_body_alone_takes_the_frame_whole_while_the_others_take_its_world_steps() {
        // Two triangles 5 cm apart closing head on at 5 m/s each: 5 world steps (the module's
        // test above works it out); a third, far off, alone.
        let dt = 1.0 / 60.0;
        for pool in [Threads::One, Threads::All] {
            let mut bodies = [
                recording(triangle(Vec3::ZERO, Vec3::X * 5.0), true),
                recording(triangle(Vec3::new(0.0, 0.05, 0.0), Vec3::X * -5.0), true),
                recording(triangle(Vec3::new(10.0, 0.0, 0.0), Vec3::ZERO), false),
            ];
            let frame = Meeting::default().step_frame(&mut bodies, dt, &pool, None);
            assert_eq!(frame.world_steps, 5);
            assert!(frame.bodies.iter().all(Result::is_ok));
            assert_eq!(bodies[2].spans, [(dt, 1.0)], "alone: the frame step whole");
            for body in &bodies[..2] {
                let spans = &body.spans;
                assert_eq!(spans.len(), 5, "{spans:?}");
                let total: f32 = spans.iter().map(|&(h, _)| h).sum();
                assert!((total - dt).abs() < 1e-7, "the spans make the frame step: {total}");
                let mut done = 0.0;
                for (k, &(h, through)) in spans.iter().enumerate() {
                    done += h;
                    let end = if k + 1 == spans.len() { 1.0 } else { done / dt };
                    assert!((through - end).abs() < 1e-6, "span {k} ends at {through}, not {end}");
                }
            }
        }
    }

    #[test]
    fn a_body_that_blows_up_stops_and_the_others_finish_the_frame() {
        // A cloth of 1e6 N/m springs on 1 g nodes, stepped explicitly once a frame, goes
        // non-finite within a few frames; a triangle far from it falls meanwhile.
        let mut cloth = SpringModel::default();
        for j in 0..4 {
            for i in 0..4 {
                cloth.nodes.push(Node {
                    position: Vec3::new(i as f32, 5.0, j as f32) * 0.05,
                    mass: 0.001,
                });
            }
        }
        for j in 0..4u32 {
            for i in 0..3u32 {
                for (a, b) in [(j * 4 + i, j * 4 + i + 1), (i * 4 + j, (i + 1) * 4 + j)] {
                    let spring =
                        crate::Spring::new(NodeId(a), NodeId(b), 0.05, 1e6, SpringKind::Stretch);
                    cloth.springs.push(spring);
                }
            }
        }
        cloth.nodes.positions_mut()[5].y += 0.04;
        cloth.params.integrator = Integrator::Explicit;
        cloth.params.substeps = 1;
        cloth.params.tethers = None;
        let mut world = World::new();
        world.add(&ValidModel::new(cloth).expect("valid"));
        world.add_simulation(triangle(Vec3::new(20.0, 0.0, 0.0), Vec3::ZERO));
        let dt = 1.0 / 60.0;
        for frame in 0..600 {
            let Err(error) = world.step(dt) else { continue };
            // It stopped at its last good state, within the frame; the triangle went on to
            // the frame's end.
            assert!(matches!(error, CoreError::NonFinite { .. }), "{error:?}");
            assert!(world.bodies()[0].positions().iter().all(|p| p.is_finite()));
            let (failed, other) = (world.bodies()[0].time(), world.bodies()[1].time());
            let end = f64::from(dt) * (frame + 1) as f64;
            assert!((other - end).abs() < 1e-9, "the triangle at {other} s, not {end} s");
            assert!(failed < other - 1e-6, "the cloth stopped at {failed} s");
            return;
        }
        panic!("1e6 N/m on 1 g nodes is far too stiff for 60 Hz");
    }
}
