//! The sweeps of the rigid answer: the contacts between bodies with shape matching, and the
//! points of those bodies on the ground, answered on each body's rigid frame by projected
//! Gauss–Seidel ([`super::rigid`], where the equations and the ground's part are), then the
//! shock pass below.
//!
//! **The shock pass.** Gauss–Seidel shares each contact's push by lightness, so a light body
//! between the ground and a heavy one takes nearly all of every push the heavy one gives it,
//! and the ground's sweep gives it back: each sweep moves the heavy body out by about
//! m/(m + M) of the depth left. A Stanford bunny 0.19 m tall under one five times its size
//! (125 times its mass), both solids, kept most of the depth after the [`CONTACT_ITERATIONS`]
//! sweeps; the point contacts then pushed the light one's nodes into its own ground, it turned
//! inside out and flew into the heavy one at 51 m/s (25 cm deep); a blob of 100 kg/m³ under
//! one of 10 000 was crushed to 57 % of its height and spat out. So, after those sweeps, the
//! bodies are given levels from the ground up: 0 for a body with points on the ground, k + 1
//! for one touching a body of level k; and each contact between two levels is swept again
//! [`SHOCK_ITERATIONS`] times, level by level from the ground, with the lower body held still
//! (w = 0 on its side): the upper body takes the whole push, as each body of a stack stands on
//! the ones below it (shock propagation: Guendelman, Bridson & Fedkiw, "Nonconvex Rigid
//! Bodies with Stacking", SIGGRAPH 2003, §7). The small bunny then keeps its shape and the
//! large one rolls off it (the deepest any point of either went into the other: 9.7 mm); the
//! light blob keeps 99 % of its height under the heavy one, which rests on it (test). Bodies
//! of the same level, and bodies not standing on the ground, keep the shared sweeps only. On
//! the 32-blob pile the shock pass takes 1.6 % of the rigid answer's time (3 of 186 ms).

use super::rigid::{Lever, Rigid, Sideways};
use super::search::CHUNK;
use super::{CONTACT_ITERATIONS, CONTACT_PER_EDGE, Drawn, Member, Pair};
use glam::Vec3A;

/// Sweeps of the shock pass per level: the upper body's contacts with a body held still
/// converge as its contacts with the ground do.
pub const SHOCK_ITERATIONS: usize = 2;

/// The level of a body that does not stand on the ground through the bodies in contact.
const UNSUPPORTED: u32 = u32::MAX;

/// The rigid answer's scratch, kept between world steps.
#[derive(Clone, Debug, Default)]
pub(super) struct Sweeps {
    /// Each contact's accumulated impulse, and its points.
    lambda: Vec<f32>,
    touches: Vec<Touch>,
    /// The points on the ground of the bodies in contact, and each one's accumulated impulse
    /// up and along the ground.
    footings: Vec<Footing>,
    held: Vec<f32>,
    slid: Vec<f32>,
    /// Each body's level (module doc), the pairs of bodies in contact, and the contacts
    /// between two levels (the lower level, the contact, its upper side), the lower level's
    /// first.
    level: Vec<u32>,
    links: Vec<(usize, usize)>,
    shocks: Vec<(u32, usize, Takes)>,
}

/// A drawn point of a body in contact with another, on or near the ground: the body and the
/// point, where it is, the height it may not go below (the ground plus the node radius), the
/// ground's friction, its levers on the body, and its velocity.
#[derive(Clone, Copy, Debug, Default)]
struct Footing {
    body: usize,
    point: usize,
    at: Vec3A,
    floor: f32,
    friction: f32,
    lever: Lever,
    sideways: Sideways,
    velocity: Vec3A,
}

/// A contact's points (of the first body, of the second), unit normal from the second to the
/// first, distance apart, each side's lightness and the relative velocity, as a phase of the
/// answer begins.
#[derive(Clone, Copy, Debug)]
struct Touch {
    at: (Vec3A, Vec3A),
    n: Vec3A,
    length: f32,
    light: (f32, f32),
    relative: Vec3A,
}

/// Which sides of a contact take its impulse in a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Takes {
    Both,
    First,
    Second,
}

impl Sweeps {
    /// Answers the contacts `pairs` between `bodies` (whose drawn points are `points`; those
    /// that `meet` another) as between rigid bodies, positions then velocities, and moves each
    /// body with shape matching as its answer says.
    pub fn answer(
        &mut self,
        bodies: &mut [Member],
        (pairs, points): (&[Pair], &[Drawn]),
        meets: &[bool],
    ) {
        if pairs.is_empty() {
            return;
        }
        // Only the bodies in contact move: the others keep no frame.
        let frame = |(m, &meets): (&Member, &bool)| meets.then(|| Rigid::of(m.sim)).flatten();
        let mut frames: Vec<Option<Rigid>> = bodies.iter().zip(meets).map(frame).collect();
        if frames.iter().all(Option::is_none) {
            return;
        }
        self.lambda.clear();
        self.lambda.resize(pairs.len(), 0.0);
        for velocities in [false, true] {
            if velocities {
                self.lambda.iter_mut().for_each(|l| *l = 0.0);
            }
            // The points on the ground are chosen where the answer begins (the drawn points)
            // and kept for the velocities: the positions' answer moves them by a contact's
            // depth at most; so are the levels.
            if velocities {
                for s in &mut self.footings {
                    if let Some(f) = &frames[s.body] {
                        s.refresh(&bodies[s.body], f);
                    }
                }
            } else {
                self.footings.clear();
                for (body, (m, frame)) in bodies.iter().zip(&frames).enumerate() {
                    if let Some(f) = frame {
                        footings(body, (m, &points[body]), f, &mut self.footings);
                    }
                }
                self.stack(pairs, &frames);
            }
            self.held.clear();
            self.held.resize(self.footings.len(), 0.0);
            self.slid.clear();
            self.slid.resize(self.footings.len(), 0.0);
            // Each pair's points, normal and lightness: the nodes do not move during the
            // sweeps (the motion accumulates in the frames), so once per phase.
            self.touches.clear();
            for pair in pairs {
                let ((a, pa), (b, pb)) = (pair.a, pair.b);
                let (ma, mb) = (&bodies[a], &bodies[b]);
                let (xa, va) = ma.touching.point(pa, ma.sim.positions(), ma.sim.velocities());
                let (xb, vb) = mb.touching.point(pb, mb.sim.positions(), mb.sim.velocities());
                let length = (xa - xb).length();
                let n = if length > 0.0 { (xa - xb) / length } else { Vec3A::ZERO };
                let light = (
                    frames[a].map_or(0.0, |f| f.lightness(xa, n)),
                    frames[b].map_or(0.0, |f| f.lightness(xb, n)),
                );
                self.touches.push(Touch { at: (xa, xb), n, length, light, relative: va - vb });
            }
            for _ in 0..CONTACT_ITERATIONS {
                for (k, pair) in pairs.iter().enumerate() {
                    self.sweep(k, pair, &mut frames, velocities, Takes::Both);
                }
                self.sweep_ground(&mut frames, velocities);
            }
            // The shock pass, level by level from the ground (module doc).
            let shocks = std::mem::take(&mut self.shocks);
            for group in shocks.chunk_by(|i, j| i.0 == j.0) {
                for _ in 0..SHOCK_ITERATIONS {
                    for &(_, k, upper) in group {
                        self.sweep(k, &pairs[k], &mut frames, velocities, upper);
                    }
                }
            }
            self.shocks = shocks;
            for (body, frame) in bodies.iter_mut().zip(&mut frames) {
                if let Some(f) = frame {
                    let state = body.sim.states.committed_mut();
                    if velocities {
                        f.change_velocities(&state.pos, &mut state.vel);
                    } else {
                        f.move_nodes(&mut state.pos);
                    }
                }
            }
        }
    }

    /// One sweep's answer of contact `k` (`pair`): the depth (positions) or the approach
    /// (`velocities`) still to go, taken by the sides `takes` says, the accumulated impulse
    /// never below zero (no pull).
    fn sweep(
        &mut self,
        k: usize,
        pair: &Pair,
        frames: &mut [Option<Rigid>],
        velocities: bool,
        takes: Takes,
    ) {
        let (Some(t), Some(lambda)) = (self.touches.get(k), self.lambda.get_mut(k)) else {
            return;
        };
        let ((a, b), (xa, xb)) = ((pair.a.0, pair.b.0), t.at);
        let light = match takes {
            Takes::Both => t.light.0 + t.light.1,
            Takes::First => t.light.0,
            Takes::Second => t.light.1,
        };
        if t.length == 0.0 || light <= 0.0 {
            return;
        }
        let moved = frames[a].map_or(Vec3A::ZERO, |f| f.moved(xa))
            - frames[b].map_or(Vec3A::ZERO, |f| f.moved(xb));
        // Positions: the depth still to go; velocities: the approach still to stop.
        let still = if velocities {
            -(t.relative + moved).dot(t.n)
        } else {
            pair.distance - t.length - moved.dot(t.n)
        };
        let impulse = (still / light).max(-*lambda);
        *lambda += impulse;
        if takes != Takes::Second
            && let Some(f) = &mut frames[a]
        {
            f.take(xa, t.n, impulse);
        }
        if takes != Takes::First
            && let Some(f) = &mut frames[b]
        {
            f.take(xb, t.n, -impulse);
        }
    }

    /// One sweep over the points on the ground: each pushed up to its floor (positions) or
    /// its fall stopped (`velocities`), and its sliding stopped by at most μ times that push.
    fn sweep_ground(&mut self, frames: &mut [Option<Rigid>], velocities: bool) {
        let ground = self.footings.iter().zip(self.held.iter_mut().zip(&mut self.slid));
        for (s, (held, slid)) in ground {
            let Some(f) = &mut frames[s.body] else { continue };
            let moved = f.moved_at(&s.lever).y;
            let still = if velocities { -(s.velocity.y + moved) } else { s.floor - s.at.y - moved };
            let impulse = (still / s.lever.light).max(-*held);
            *held += impulse;
            f.take_at(&s.lever, Vec3A::Y, impulse);
            // Friction: the point's sliding along the ground (what the answer moved it by; in
            // the velocities' phase, its velocity too), stopped by at most μ times its push up
            // (Coulomb).
            let room = s.friction * *held - *slid;
            if room <= 0.0 {
                continue;
            }
            let moved = f.moved_sideways(&s.sideways);
            let sliding = if velocities { s.velocity + moved } else { moved };
            let sliding = sliding * Vec3A::new(1.0, 0.0, 1.0);
            let slide = sliding.length();
            if slide > 0.0 {
                let along = sliding / -slide;
                let impulse = (slide / s.sideways.lightness(along)).min(room);
                *slid += impulse;
                f.take_sideways(&s.sideways, along * impulse);
            }
        }
    }

    /// The levels of the bodies (module doc), from the points on the ground and the contacts
    /// `pairs` between bodies with `frames`, and the contacts between two levels in the order
    /// the shock pass takes them.
    fn stack(&mut self, pairs: &[Pair], frames: &[Option<Rigid>]) {
        self.level.clear();
        self.level.resize(frames.len(), UNSUPPORTED);
        for s in &self.footings {
            self.level[s.body] = 0;
        }
        // The pairs come body pair by body pair: each pair of bodies once.
        self.links.clear();
        let framed = |b: usize| frames.get(b).is_some_and(Option::is_some);
        let links = pairs.iter().map(|p| (p.a.0, p.b.0)).filter(|&(a, b)| framed(a) && framed(b));
        self.links.extend(links);
        self.links.dedup();
        // Each round settles at least one more level: as many rounds as bodies at most.
        for _ in 0..frames.len() {
            let mut changed = false;
            for &(a, b) in &self.links {
                let (la, lb) = (self.level[a], self.level[b]);
                if la.saturating_add(1) < lb {
                    self.level[b] = la + 1;
                    changed = true;
                } else if lb.saturating_add(1) < la {
                    self.level[a] = lb + 1;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        self.shocks.clear();
        for (k, pair) in pairs.iter().enumerate() {
            let (la, lb) = (self.level[pair.a.0], self.level[pair.b.0]);
            if la != lb && la.max(lb) != UNSUPPORTED {
                let upper = if la > lb { Takes::First } else { Takes::Second };
                self.shocks.push((la.min(lb), k, upper));
            }
        }
        // Stable: within a level, in the pairs' order.
        self.shocks.sort_by_key(|s| s.0);
    }
}

/// The drawn points of `m` (number `body` of the world, whose rigid frame is `frame`, its
/// points `drawn`) on its ground or within half its contact distance above it, in point
/// order, appended to `out`; only the chunks whose box reaches that low are looked into.
fn footings(body: usize, (m, drawn): (&Member, &Drawn), frame: &Rigid, out: &mut Vec<Footing>) {
    let Some(ground) = m.sim.params().ground else { return };
    let floor = ground.height + m.sim.params().node_radius;
    let near = floor + 0.5 * CONTACT_PER_EDGE * m.touching.edge;
    let friction = ground.surface.friction.max(0.0);
    let low = drawn.chunks.iter().enumerate().filter(|(_, b)| b.0.y < near || b.0.y.is_nan());
    for (chunk, _) in low {
        let points = drawn.at.iter().enumerate().skip(chunk * CHUNK).take(CHUNK);
        for (point, _) in points.filter(|(_, at)| at.y < near) {
            let mut footing = Footing { body, point, floor, friction, ..Footing::default() };
            footing.refresh(m, frame);
            out.push(footing);
        }
    }
}

impl Footing {
    /// Where the point of `m` (whose rigid frame is `frame`) is now, how fast it moves, and
    /// how far it moves up per unit impulse.
    fn refresh(&mut self, m: &Member, frame: &Rigid) {
        (self.at, self.velocity) =
            m.touching.point(self.point, m.sim.positions(), m.sim.velocities());
        self.lever = frame.lever(self.at, Vec3A::Y);
        self.sideways = frame.sideways(self.at);
    }
}
