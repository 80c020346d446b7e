//! # Xpbd: springs as compliant distance constraints, solved in many small sub-steps
//!
//! The default integrator, stable for stiff springs at a game's 60 Hz frame step. Each spring
//! is a distance constraint C = |x_a − x_b| − L with compliance α = 1/k (XPBD: Macklin, Müller
//! & Chentanez, "XPBD: Position-Based Simulation of Compliant Constrained Dynamics", MIG 2016).
//! A frame step Δt is cut into n sub-steps of h = Δt/n with one constraint iteration each
//! (Macklin et al., "Small Steps in Physics Simulation", SCA 2019), which converges faster than
//! many iterations of one big step because every sub-step also shrinks the linearisation error:
//!
//! ```text
//! for each sub-step:
//!     x_prev ← x
//!     v ← v + h w F_gas                                     (the gas; see crate::sim::forces::pressure)
//!     x ← x + h (v + h (g + w F_ext))                       (predict; free nodes)
//!     for each spring, long bands' stripes first, then colour by colour (λ = 0: one iteration;
//!     see crate::sim::forces::bands):
//!         d = x_a − x_b,  C = |d| − L,  n = d/|d|
//!         α̃ = α / h² = 1 / (k h²),   γ = α̃ β h = d_s / (k h)       (β = d_s h²)
//!         Δλ = −(C + γ n·(Δx_a − Δx_b)) / ((1 + γ)(w_a + w_b) + α̃)
//!         x_a ← x_a + w_a Δλ n,   x_b ← x_b − w_b Δλ n
//!     without anchors: undo the spin the pass leaked          (see crate::sim::integrators::spin)
//!     with anchors and gas: undo the spin each spring leaked   (likewise)
//!     shape matching: x ← x + β (g − x)                     (see crate::sim::forces::shape)
//!     self-collision: nodes of different layers pushed τ apart   (crate::sim::contacts::self_collision)
//!     max distances: x back within reach of its skinned position, never into a limb it touches
//!                                                           (see crate::sim::constraints::rig)
//!     masks of the colliders each node may touch, kept while little moves
//!                                                           (see crate::sim::contacts::near)
//!     edges out of spheres and capsules                     (see crate::sim::contacts::edges)
//!     a worn cloth's edges back within its strain limit     (see crate::sim::constraints::strain)
//!     tethers: x (and x_prev) back within reach of its anchors  (see crate::sim::constraints::tethers)
//!     v ← (x − x_prev) / h · e^(−c h)                      (global damping)
//!     a free body with shape matching: its contacts answered as a rigid body's, shared by
//!         every node in the proportion β              (see crate::sim::contacts::support)
//!     collisions on x and v                                 (see crate::sim::contacts::collision;
//!                                       a cage's skin collides instead: crate::sim::contacts::surface)
//!     a worn cloth's strain limit again, its self-collision, its max distances, its strain
//!         limit, the corrections Δx also made velocity Δx/h (see crate::sim::constraints::strain)
//! ```
//!
//! The velocity, the collisions and the next sub-step's first two lines are one pass over the
//! nodes (when there is no gas, whose kick needs every node's position first, and no contact
//! that needs every node's velocity first: a body answered as a whole, or a cage's skin): a
//! node's velocity, contacts and next prediction are worked out while it is in cache.
//!
//! - x, v, w: position (m), velocity (m/s), inverse mass (1/kg, 0 for anchors) of a node.
//! - k, L, d_s: stiffness (N/m), rest length (m) and damping (N·s/m) of a spring; α̃ its
//!   compliance per sub-step²; Δx = x − x_prev, how far a node moved in this sub-step.
//! - g: gravity (m/s²); c: the global damping rate (1/s); F_ext: the external forces held
//!   over the step (air, buoyancy, force fields; see crate::sim::forces::external).
//!
//! With α̃ ≪ w the spring acts as a rod, with α̃ ≫ w as a soft spring; in between XPBD
//! reproduces the spring's stiffness independently of h, unlike plain PBD.
//!
//! **Spring damping** is the γ term: XPBD's Rayleigh damping (Macklin et al. 2016, §4, eq. 26),
//! the damping force −d_s (n·(v_a − v_b)) n taken implicitly in the same solve, with
//! v ≈ Δx/h. Multiplying through by k h² keeps it finite for any k ≥ 0 and d_s ≥ 0:
//!
//! ```text
//! Δλ = −(k h² C + d_s h n·(Δx_a − Δx_b)) q,   q = 1 / ((k h² + d_s h)(w_a + w_b) + 1)
//! ```
//!
//! (a pure damper, k = 0, removes relative velocity along n without reversing it, for any d_s
//! and h; see [`crate::sim::forces::damping`]). The weights w q, k h² and d_s h only change with h, so they
//! are computed once per sub-step size, and the inner loop is a square root, a division, one
//! dot product and two scaled vector updates per spring: damping costs two more reads of the
//! ends' displacements, not a pass of its own.
//!
//! A spring of zero current length has no direction and is skipped. Anchors are placed at
//! their (interpolated) anchor positions before the constraint pass, so the constraints pull
//! the free nodes towards them in the same sub-step.
//!
//! ## Precision: displacements, not positions
//!
//! With many sub-steps each correction is tiny: at 128 sub-steps per 60 Hz frame a 1000 N/m
//! spring between 10 g nodes moves them by 0.2% of its stretch per sub-step, a few units in
//! the last place of an f32 coordinate near 1 m. Rounding then dominates both the projection
//! and the velocity (x − x_prev)/h, and an undamped cloth *gains* energy (measured: +160% in
//! 10 s in f32, −79% with the same loop in f64). So within a step the solver works on each
//! node's displacement u from where it was when the step began, which stays small and exact:
//!
//! ```text
//! d   = (x0_a − x0_b) + (u_a − u_b)      the spring's current vector
//! u  += w Δλ n,   v = (u − u_prev)/h     small numbers, full relative precision
//! x   = x0 + u                           once, at the end of the step
//! ```
//!
//! The rounding of x happens once per step instead of at every correction, and never
//! reaches the velocities. The kernel reads both ends' x0 beside their u (the nodes' arrays
//! stay in cache); keeping x0_a − x0_b per spring instead, a stream of 16 bytes a spring,
//! made the 128 × 128 benchmark cloth's frames 8% slower.

use crate::model::SelfCollision;
use crate::sim::columns::{Columns, gather, split};
use crate::sim::constraints::{rig, strain};
use crate::sim::contacts::collision::Colliders;
use crate::sim::contacts::edges;
use crate::sim::contacts::near::NearColliders;
use crate::sim::contacts::rigid_bodies::RigidBodies;
use crate::sim::contacts::round::RoundAxis;
use crate::sim::contacts::self_collision::{Nodes, SelfContacts};
use crate::sim::contacts::support::{self, Support, Whole};
use crate::sim::contacts::surface::{Frame, Touched, touch};
use crate::sim::data::{Compiled, Goals, Posed};
use crate::sim::environment::Environment;
use crate::sim::forces::bands::{StripeWork, Stripes};
use crate::sim::forces::damping::global_factor;
use crate::sim::forces::kernels::{WeightColumns, project_springs, project_springs_leaking};
use crate::sim::forces::shape::{self, ShapeFit, blend};
use crate::sim::integrators::spin::FreeBody;
use crate::sim::state::States;
use crate::sim::threads::{NODES_PER_TASK, Threads};
use glam::Vec3A;
use rayon::prelude::*;
use std::sync::Arc;

/// Scratch of the Xpbd solver, kept between steps to avoid reallocating.
#[derive(Clone, Debug, Default)]
pub(crate) struct Workspace {
    /// Sub-step the weights are for; NaN when they must be recomputed.
    h: f32,
    /// The springs' weights for sub-step `h`: shared by a simulation's clones until one of
    /// them steps with another sub-step (copy on write), so a crowd of one model keeps one
    /// copy ([`crate::Simulation`]).
    weights: Arc<Weights>,
    /// The nodes' masses with the anchors' set to zero: what an anchored model with gas needs
    /// to undo the spin its springs leak.
    free_mass: Vec<f32>,
    /// Displacement of every node from the start of the step, now and a sub-step ago.
    u: Vec<Vec3A>,
    u_prev: Vec<Vec3A>,
    /// h (g + w F_ext) per node: the velocity each sub-step's prediction adds.
    kick: Vec<Vec3A>,
    /// Positions at the start of a sub-step, and their volume gradient (the gas pass).
    x: Vec<Vec3A>,
    grad: Vec<Vec3A>,
    /// The free body the spin correction turns ([`crate::sim::integrators::spin`]), and
    /// whether it was measured in this sub-step (the body's support then takes its mass and
    /// inertia instead of working them out again).
    body: FreeBody,
    measured: bool,
    /// Shape matching's fit, warm-started from sub-step to sub-step.
    shape: ShapeFit,
    /// The nodes' positions at the start of the step, their displacements now and a sub-step
    /// ago, as columns for the stripes and the tethers' pull ([`crate::sim::columns`]).
    base_columns: Columns,
    u_columns: Columns,
    u_prev_columns: Columns,
    /// How far each tether lets its node go this step ([`crate::sim::constraints::tethers`]).
    reach: Vec<f32>,
    /// The contacts of a body answered as a whole ([`crate::sim::contacts::support`]).
    support: Support,
    /// The pairs of nodes that may touch ([`crate::sim::contacts::self_collision`]).
    layers: SelfContacts,
    /// The skin's contacts of a sub-step ([`crate::sim::contacts::surface`]).
    touched: Touched,
    /// The round colliders' axes of a sub-step ([`crate::sim::contacts::edges`]).
    axes: Vec<RoundAxis>,
    /// The displacements at a sub-step's end before the strain limit's last word
    /// ([`Workspace::settle_worn`]).
    unsettled: Vec<Vec3A>,
    /// A worn cloth's strain limit and what it keeps between its calls ([`strain::Limiter`]).
    strain: strain::Limiter,
    /// The colliders each node may touch ([`crate::sim::contacts::near`]).
    near: NearColliders,
    /// Per node, the way out along a tether it is at the end of (zero for none): what the
    /// rigid bodies cannot push it ([`crate::sim::contacts::rigid_bodies`]). Empty without
    /// rigid bodies or tethers.
    held: Vec<Vec3A>,
}

/// What [`Workspace::weights`] holds.
#[derive(Clone, Debug, Default)]
struct Weights {
    /// Per spring (solver order): g_a = w_a q, g_b = w_b q, g_c = q, g_k = k h², g_d = d_s h
    /// ([`crate::sim::forces::spring`]).
    springs: WeightColumns,
    /// The long bands' weights ([`crate::sim::forces::bands`]).
    stripes: Stripes,
}

impl Workspace {
    /// Marks the weights stale (after masses, anchors or stiffnesses changed).
    pub fn invalidate(&mut self) {
        self.h = f32::NAN;
    }

    /// Recomputes the weights unless they are already those of sub-step `h`.
    fn ensure_weights(&mut self, c: &Compiled, h: f32) {
        if self.h == h && self.weights.springs.len() == c.springs.len() {
            return;
        }
        let w = &c.nodes.inv_mass;
        self.free_mass.clear();
        let free = c.nodes.free.iter().zip(&c.nodes.mass);
        self.free_mass.extend(free.map(|(&free, &m)| free * m));
        let weights = Arc::make_mut(&mut self.weights);
        weights.springs.fill(&c.springs, w, h);
        c.springs.bands.stripe_weights(h, w, &mut weights.stripes);
        self.h = h;
    }

    /// The end of a sub-step of `h` for every node: the tethers' pulls on u, then in one pass
    /// v = (u − u_prev)/h · e^(−c h), the contacts, u_prev ← u and, when `predict`, the next
    /// sub-step's prediction u ← u + h (v + kick) (otherwise u is left for the next prediction
    /// to overwrite). Without contacts, v is only stored when there is no prediction to carry
    /// it (the step's last sub-step, or every one of a model with gas). Returns false if a
    /// node went non-finite.
    fn finish(
        &mut self,
        c: &Compiled,
        (env, rigid): (&Environment, &mut RigidBodies),
        base: &[Vec3A],
        v: &mut [Vec3A],
        (h, predict, progress): (f32, bool, f32),
        threads: Threads,
    ) -> bool {
        let colliders = env.colliders.at(progress);
        let scale = (1.0 / h) * global_factor(c.params.damping, h);
        let Workspace {
            u,
            u_prev,
            kick,
            base_columns,
            u_columns,
            u_prev_columns,
            reach,
            support,
            touched,
            body,
            measured,
            near,
            held,
            ..
        } = self;
        held.clear();
        if let (Some(_), Some(tethers)) = (c.params.tethers, &c.tethers) {
            split(u, u_columns);
            split(u_prev, u_prev_columns);
            tethers.pull_columns(reach, base_columns, u_columns, u_prev_columns);
            gather::<false>(u_columns, u);
            gather::<false>(u_prev_columns, u_prev);
            if !rigid.is_empty() {
                held.resize(u.len(), Vec3A::ZERO);
                tethers.taut(reach, |i| base.get(i).zip(u.get(i)).map(|(&x0, &u)| x0 + u), held);
            }
        }
        // Node by node, split between threads when allowed: each node's pass is its own.
        let min_len = threads.min_len(NODES_PER_TASK);
        let nodes = u.par_iter_mut().zip(u_prev.par_iter_mut()).zip(v.par_iter_mut().zip(&**kick));
        let nodes = nodes.with_min_len(min_len);
        let all = |a: bool, b: bool| a & b;
        if colliders.is_empty() && rigid.is_empty() {
            let node = |((u, u_prev), (v, &kick)): Moving| {
                let x = *u;
                let vx = (x - *u_prev) * scale;
                *u_prev = x;
                if predict {
                    // v is only the next prediction's: kept in u, not stored.
                    *u = x + (vx + kick) * h;
                } else {
                    *v = vx;
                }
                (x + vx).is_finite()
            };
            return nodes.map(node).reduce(|| true, all);
        }
        let whole = support::applies(c);
        if !whole && c.touch.is_none() && rigid.is_empty() {
            let at_rest = base.par_iter().zip(&c.nodes.free);
            let near = &*near;
            let node = |(i, (((u, u_prev), (v, &kick)), (&x0, &free))): (usize, Resting)| {
                let mut x = *u;
                let mut vx = (x - *u_prev) * scale;
                let finite = (x + vx).is_finite();
                let mut at = x0 + x;
                // Only a contact rewrites u: x0 + u − x0 would round away its precision.
                if free != 0.0 && resolve(&colliders, near, i, (x0 + *u_prev, &mut at, &mut vx), h)
                {
                    x = at - x0;
                }
                *u_prev = x;
                *u = if predict { x + (vx + kick) * h } else { x };
                *v = vx;
                finite
            };
            return nodes.zip(at_rest).enumerate().map(node).reduce(|| true, all);
        }
        let (mut finite, mut moved) = (true, Vec3A::ZERO);
        // Every node's velocity (and Σ m Δx, how far the centre of mass moved) first, then the
        // body's support and the contacts of the skin's points or of the nodes, then the next
        // prediction.
        let nodes = u.iter().zip(u_prev.iter()).zip(v.iter_mut().zip(&c.nodes.mass));
        for ((u, u_prev), (v, &m)) in nodes {
            let step = *u - *u_prev;
            *v = step * scale;
            moved += step * m;
            finite &= (*u + *v).is_finite();
        }
        let frame = Frame { base: Some(base), from: u_prev };
        if whole {
            let shape_matching = c.params.shape_matching.as_ref();
            let share = shape::omega_squared(shape_matching).map_or(0.0, |w2| blend(w2, h));
            // The body measured as the sub-step began, its centre where it is now.
            let known = measured.then(|| {
                let (mass, centre, inverse_inertia) = body.rigid();
                Whole { mass, centre: centre + moved / mass, inverse_inertia }
            });
            let near = &mut touched.near;
            support.answer(c, (&colliders, &frame), (u, v), (h, share), (known, near));
        }
        if let Some(points) = &c.touch {
            touch(points, (&colliders, &frame), &c.nodes.inv_mass, (u, v), h, touched);
            if !rigid.is_empty() {
                let (r, rest_speed) = (colliders.radius, colliders.rest_speed);
                rigid.touch(points, (&frame, &c.nodes.inv_mass), (u, v), (r, rest_speed));
            }
        } else {
            let nodes = u.iter_mut().zip(u_prev.iter()).zip(v.iter_mut());
            let masses = c.nodes.free.iter().zip(&c.nodes.inv_mass);
            let nodes = nodes.zip(base.iter().zip(masses)).enumerate();
            let (r, rest_speed) = (colliders.radius, colliders.rest_speed);
            for (i, (((u, &u_prev), v), (&x0, (&free, &w)))) in nodes {
                let held = held.get(i).copied().unwrap_or(Vec3A::ZERO);
                let mut at = x0 + *u;
                let from = x0 + u_prev;
                // Colliders, then rigid bodies (whose answer needs the node's velocity as the
                // colliders leave it); a node that neither moves is left exact.
                let met = free != 0.0 && resolve(&colliders, near, i, (from, &mut at, v), h);
                let meets = w != 0.0 && !rigid.is_empty();
                let node = (from, &mut at, v);
                let met = (meets && rigid.answer(node, (w, r, held), rest_speed)) | met;
                if met {
                    *u = at - x0;
                }
            }
        }
        let nodes = u.iter_mut().zip(u_prev.iter_mut()).zip(v.iter().zip(kick.iter()));
        for ((u, u_prev), (v, &kick)) in nodes {
            *u_prev = *u;
            if predict {
                *u += (*v + kick) * h;
            }
        }
        finite
    }

    /// A worn cloth's (held by `posed`) strain limit, self-collision and max distances once
    /// more at the end of a sub-step of `h` ending at `t` (of the step), after the node
    /// collisions ([`crate::sim::constraints::strain`]): on the sub-step's end positions
    /// `u_prev`, the limit, its layers pushed apart, the max distances (the limbs first) and
    /// the limit again, each node's correction Δ becoming velocity (v += Δ/h) and, when
    /// `predict`ed already, moving the next prediction u = u_prev + h (v + kick) by 2Δ. (Where
    /// the pass before kept v only in that prediction, v is rewritten before it is read.)
    fn settle_worn(
        &mut self,
        (c, posed, goals): (&Compiled, &Posed, &Goals),
        base: &[Vec3A],
        v: &mut [Vec3A],
        (h, t, predict): (f32, f32, bool),
    ) {
        let Workspace { u, u_prev, unsettled, axes, strain: limiter, layers, .. } = self;
        unsettled.clear();
        unsettled.extend_from_slice(u_prev);
        let (w, edges) = (&c.nodes.inv_mass, (&c.edges[..], &c.edge_rest[..], &c.edges_at));
        limiter.limit(edges, (base, u_prev), w, strain::SETTLE_PASSES);
        if let Some(SelfCollision { thickness, .. }) = c.params.self_collision.filter(usable) {
            // Without friction: the sub-step's own pass had it (`unsettled`, where the nodes
            // were as this began, only stands in for the sub-step's start).
            layers.project((base, w), (unsettled, u_prev), thickness, 0.0);
        }
        rig::project((posed, goals), (base, unsettled, u_prev), axes, t);
        limiter.limit(edges, (base, u_prev), w, strain::SETTLE_PASSES);
        let nodes = u_prev.iter().zip(unsettled.iter()).zip(v.iter_mut().zip(u.iter_mut()));
        for ((&settled, &unsettled), (v, u)) in nodes {
            let moved = settled - unsettled;
            *v += moved / h;
            if predict {
                *u += moved * 2.0;
            }
        }
    }
}

/// A node in the sub-step's last pass: its u and u_prev, its v and kick.
type Moving<'a> = ((&'a mut Vec3A, &'a mut Vec3A), (&'a mut Vec3A, &'a Vec3A));

/// A node in the sub-step's last pass with its place at rest and whether it is free.
type Resting<'a> = (Moving<'a>, (&'a Vec3A, &'a f32));

/// The contacts of node `i`, which moved from `from` to `*to` at `*v`, against the colliders
/// its own mask holds ([`crate::sim::contacts::near`]), or all of them when it has left its
/// mask's margin; true when one answered.
#[inline]
fn resolve(
    colliders: &Colliders,
    near: &NearColliders,
    i: usize,
    (from, to, v): (Vec3A, &mut Vec3A, &mut Vec3A),
    h: f32,
) -> bool {
    let mask = match near.own.get(i) {
        Some(&mask) if near.holds(i, *to) => mask,
        _ => u32::MAX,
    };
    colliders.resolve_near(from, (to, v), h, mask).is_some()
}

/// The prediction u = u_prev + h (v + kick) of every node.
fn predict(u_prev: &[Vec3A], v: &[Vec3A], kick: &[Vec3A], u: &mut [Vec3A], h: f32) {
    for (((&u_prev, &v), &kick), u) in u_prev.iter().zip(v).zip(kick).zip(u) {
        *u = u_prev + (v + kick) * h;
    }
}

/// A whole Xpbd step of `dt` seconds in `n` sub-steps. Returns the buffer holding the result,
/// or `None` if it went non-finite.
pub(crate) fn step(
    c: &Compiled,
    env: &Environment,
    states: &mut States,
    (ws, rigid): (&mut Workspace, &mut RigidBodies),
    threads: Threads,
    dt: f32,
    n: u32,
) -> Option<usize> {
    let h = dt / n as f32;
    ws.ensure_weights(c, h);
    let gravity_h = Vec3A::from(c.params.gravity) * h;
    ws.kick.clear();
    ws.kick.extend(c.nodes.free.iter().map(|&free| gravity_h * free));
    if let Some(ext) = env.external {
        for ((k, f), &w) in ws.kick.iter_mut().zip(ext).zip(&c.nodes.inv_mass) {
            *k += *f * (w * h);
        }
    }
    let spin = Spin::of(c, env);
    let (start, out, dst) = states.pair(states.committed_index());
    let base = &start.pos;
    if let (Some(t), Some(tethers)) = (c.params.tethers, &c.tethers) {
        tethers.reach(t.slack, env.goals, &mut ws.reach);
    }
    if c.springs.bands.has_long() || (c.params.tethers.is_some() && c.tethers.is_some()) {
        split(base, &mut ws.base_columns);
    }
    ws.u_prev.clear();
    ws.u_prev.resize(base.len(), Vec3A::ZERO);
    ws.u.resize(base.len(), Vec3A::ZERO);
    let v = &mut out.vel;
    // Without gas, each sub-step's node pass also predicts the next one (the gas needs every
    // node's position before its prediction); the first prediction comes from the step's start.
    let fused = env.gas.is_none();
    ws.touched.near.expire();
    if fused {
        predict(&ws.u_prev, &start.vel, &ws.kick, &mut ws.u, h);
    } else {
        v.copy_from_slice(&start.vel);
    }
    for i in 1..=n {
        let t = i as f32 / n as f32;
        let gas = env.gas.as_ref().and_then(|gas| {
            ws.x.clear();
            ws.x.extend(base.iter().zip(&ws.u_prev).map(|(&x0, &u)| x0 + u));
            gas.kick(&ws.x, v, &c.nodes.inv_mass, &c.faces, &mut ws.grad, h)
        });
        if let Some(scale) = gas {
            // v is recomputed from u after the projection: the gas's velocity change only
            // needs to reach the prediction.
            let moving = ws.u_prev.iter().zip(v.iter()).zip(&ws.kick);
            let gas = ws.grad.iter().zip(&c.nodes.inv_mass);
            for ((((&u_prev, &v), &kick), u), (&g, &w)) in moving.zip(ws.u.iter_mut()).zip(gas) {
                *u = u_prev + (v + kick + g * (w * scale)) * h;
            }
        } else if !fused {
            predict(&ws.u_prev, v, &ws.kick, &mut ws.u, h);
        }
        for (k, &node) in c.anchors.iter().enumerate() {
            ws.u[node as usize] = env.goals.anchors.at(k, t) - base[node as usize];
        }
        project(c, ws, base, spin, threads);
        if let Some(omega_squared) = shape::omega_squared(c.params.shape_matching.as_ref()) {
            pull_to_shape(c, ws, base, blend(omega_squared, h));
        }
        if let Some(layers) = c.params.self_collision.filter(usable) {
            let (w, thickness) = (&c.nodes.inv_mass, layers.thickness);
            let nodes = Nodes { base, u: &ws.u, rest: &c.shape, inv_mass: w, faces: &c.faces };
            ws.layers.ready(&nodes, thickness);
            ws.layers.project((base, w), (&ws.u_prev, &mut ws.u), thickness, layers.friction);
        }
        let colliders = env.colliders.at(t);
        colliders.round_axes(h, &mut ws.axes);
        if let Some(posed) = &c.rig {
            let nodes = (&base[..], &ws.u_prev[..], &mut ws.u[..]);
            rig::project((posed, env.goals), nodes, &ws.axes, t);
        }
        if !colliders.obstacles.is_empty() {
            // Each point of an edge is within half the edge of its nearer end, and the edges
            // take both ends' masks (crate::sim::contacts::near).
            let reach = 0.5 * edges::longest(&c.edges, base, &ws.u);
            let at = |i: usize| base[i] + ws.u[i];
            ws.near.refresh(colliders.obstacles.len(), &ws.axes, at, base.len(), reach);
        }
        if colliders.continuous {
            let displaced = (&ws.u_prev[..], &mut ws.u[..]);
            let (w, near) = (&c.nodes.inv_mass, &ws.near.mask);
            edges::push_out(&ws.axes, &c.edges, base, displaced, w, near);
        }
        if c.rig.is_some() {
            // Every node moved since the last limit (the prediction, the springs).
            let edges = (&c.edges[..], &c.edge_rest[..], &c.edges_at);
            ws.strain.forget();
            ws.strain.limit(edges, (base, &mut ws.u), &c.nodes.inv_mass, 1);
        }
        rigid.advance(h);
        let predict = fused && i < n;
        let finite = ws.finish(c, (env, rigid), base, v, (h, predict, t), threads);
        if let Some(posed) = &c.rig {
            ws.settle_worn((c, posed, env.goals), base, v, (h, t, predict));
        }
        for (k, &node) in c.anchors.iter().enumerate() {
            v[node as usize] = env.goals.anchors.velocity(k, dt);
        }
        if !finite {
            return None;
        }
    }
    for ((x, &x0), &u) in out.pos.iter_mut().zip(base).zip(&ws.u_prev) {
        *x = x0 + u;
    }
    for (k, &node) in c.anchors.iter().enumerate() {
        out.pos[node as usize] = env.goals.anchors.at(k, 1.0);
    }
    Some(dst)
}

/// True for self-collision parameters that can be solved (a game's own, set through
/// [`crate::Simulation::params_mut`], are not validated): a finite thickness and friction, the
/// thickness positive and the friction not negative.
fn usable(layers: &SelfCollision) -> bool {
    let SelfCollision { thickness, friction } = *layers;
    thickness.is_finite() && thickness > 0.0 && friction.is_finite() && friction >= 0.0
}

/// Moves every free node the fraction `beta` of the way to its shape-matching goal
/// ([`crate::sim::forces::shape`]), on the displacements `ws.u` from `base`.
fn pull_to_shape(c: &Compiled, ws: &mut Workspace, base: &[Vec3A], beta: f32) {
    let origin = base.first().copied().unwrap_or(Vec3A::ZERO);
    let u = &mut ws.u;
    ws.shape.fit(&c.shape, &c.nodes.mass, |i| base[i] - origin + u[i]);
    let nodes = c.shape.iter().zip(&c.nodes.free).zip(base);
    for (((&q, &free), &x0), u) in nodes.zip(u.iter_mut()) {
        *u += ws.shape.to_goal(q, x0 - origin + *u) * (beta * free);
    }
}

/// How the spring pass keeps a model's angular momentum ([`crate::sim::integrators::spin`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spin {
    /// Nothing to do: anchored without gas, or no springs.
    Untouched,
    /// No anchors: the measured change of the whole model's moment is undone.
    Free,
    /// Anchors and gas: each spring's leak is summed as it is projected and undone.
    AnchoredGas,
}

impl Spin {
    fn of(c: &Compiled, env: &Environment) -> Spin {
        match (c.anchors.is_empty(), env.gas.is_some()) {
            _ if c.springs.is_empty() => Spin::Untouched,
            (true, _) => Spin::Free,
            (false, true) => Spin::AnchoredGas,
            (false, false) => Spin::Untouched,
        }
    }
}

/// The sub-step's spring pass on `ws.u`, with the spin correction `spin` asks for.
fn project(c: &Compiled, ws: &mut Workspace, base: &[Vec3A], spin: Spin, threads: Threads) {
    let springs = &c.springs;
    let weights = ws.weights.springs.weights();
    let stripes = StripeWork {
        stripes: &ws.weights.stripes,
        base: &ws.base_columns,
        u: &mut ws.u_columns,
        u_prev: &mut ws.u_prev_columns,
    };
    let weights = (weights, stripes);
    ws.measured = false;
    match spin {
        Spin::Untouched => project_springs(springs, base, weights, &ws.u_prev, &mut ws.u, threads),
        Spin::Free => {
            let mass = &c.nodes.mass;
            let turnable = ws.body.measure(mass, (base, &ws.u_prev, &ws.u), threads);
            project_springs(springs, base, weights, &ws.u_prev, &mut ws.u, threads);
            if turnable {
                ws.body.restore(mass, &mut ws.u);
            }
            ws.measured = turnable;
        }
        Spin::AnchoredGas => {
            let turnable = ws.body.measure(&ws.free_mass, (base, &ws.u_prev, &ws.u), threads);
            let leak = project_springs_leaking(springs, base, weights.0, &ws.u_prev, &mut ws.u);
            if turnable {
                ws.body.undo(leak, &ws.free_mass, &mut ws.u);
            }
        }
    }
}
