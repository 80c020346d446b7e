//! # Explicit: semi-implicit (symplectic) Euler
//!
//! The classic mass-spring loop and the reference the other integrators are checked against.
//! One sub-step of length h:
//!
//! ```text
//! F_i ← Σ over springs s at i of ±f_s n_s + F_shape,i + F_gas,i + F_ext,i   (force pass)
//! v_i ← (v_i + h (w_i F_i + g)) · e^(−c h)                          (free nodes)
//! x_i ← x_i + h v_i
//! collisions                                                         (crate::sim::contacts::collision)
//! ```
//!
//! where, for a spring s from a to b,
//!
//! ```text
//! d = x_b − x_a,  ℓ = |d|,  n = d/ℓ
//! f = k (ℓ − L) + d_s (v_b − v_a)·n      tension positive
//! F_a += f n,   F_b −= f n
//! ```
//!
//! - x, v: position (m) and velocity (m/s) of a node; w = 1/m its inverse mass (1/kg, 0 for
//!   anchors); g gravity (m/s²); c the global damping rate (1/s, see [`crate::sim::forces::damping`]).
//! - F_shape: shape matching's pull, when the model has it ([`crate::sim::forces::shape`]).
//! - F_gas: the pressure of the gas in a closed model, recomputed every sub-step
//!   ([`crate::sim::forces::pressure`]); F_ext: air, buoyancy and force fields, held over the step
//!   ([`crate::sim::forces::external`]).
//! - k stiffness (N/m), L rest length (m), d_s damping (N·s/m) of the spring.
//!
//! Each spring is evaluated once per pass and its force added to both ends with opposite signs,
//! so momentum is conserved exactly. A spring of zero current length has no direction and adds
//! no force. Updating v before x (symplectic Euler) keeps the energy of an undamped system
//! bounded rather than drifting, as long as h < 2/ω for the fastest mode ω ≈ √(k·(w_a + w_b))
//! (Hairer, Lubich & Wanner, "Geometric Numerical Integration", 2nd ed., 2006, chapters I
//! and IX). Beyond that it blows up, which [`crate::Simulation::step`] detects and rejects.

use crate::sim::columns::{Columns, gather, split};
use crate::sim::constraints::rig;
use crate::sim::contacts::surface::Touched;
use crate::sim::data::Compiled;
use crate::sim::data::NodeData;
use crate::sim::environment::Environment;
use crate::sim::forces::bands::BandScratch;
use crate::sim::forces::damping::global_factor;
use crate::sim::forces::external;
use crate::sim::forces::kernels::spring_forces;
use crate::sim::forces::shape::{self, ShapeFit};
use crate::sim::state::{State, States};
use crate::sim::threads::Threads;
use glam::{BVec3A, Vec3A};

/// Velocity and position update of all nodes from `src` into `dst`, consuming (and zeroing)
/// `forces`. Returns false if any node became non-finite.
pub(crate) fn integrate(
    nodes: &NodeData,
    src: &State,
    dst: &mut State,
    forces: &mut [Vec3A],
    gravity: Vec3A,
    h: f32,
    decay: f32,
) -> bool {
    // Per component: every node so far finite (kept as a vector mask, not tested per node).
    let mut finite = BVec3A::TRUE;
    let node_consts = nodes.inv_mass.iter().zip(&nodes.free);
    let inputs = src.pos.iter().zip(&src.vel).zip(forces.iter_mut());
    let outputs = dst.pos.iter_mut().zip(dst.vel.iter_mut());
    for (((&x, &v), f), ((x_out, v_out), (&w, &free))) in inputs.zip(outputs.zip(node_consts)) {
        let v_new = (v + (*f * w + gravity * free) * h) * decay;
        let x_new = x + v_new * h;
        *f = Vec3A::ZERO;
        *v_out = v_new;
        *x_out = x_new;
        finite &= (x_new + v_new).is_finite_mask();
    }
    finite.all()
}

/// Puts the anchors of `dst` where they are at fraction `t_end` of a step of `dt` seconds.
fn place_anchors((c, env): (&Compiled, &Environment), dst: &mut State, t_end: f32, dt: f32) {
    let path = &env.goals.anchors;
    for (i, &node) in c.anchors.iter().enumerate() {
        dst.pos[node as usize] = path.at(i, t_end);
        dst.vel[node as usize] = path.velocity(i, dt);
    }
}

/// Work (J) that the anchors do on the springs while moving from their positions at
/// fraction `t0` of a step to those at `t1`, under the spring forces `forces` on them.
fn anchor_work((c, env): (&Compiled, &Environment), forces: &[Vec3A], t0: f32, t1: f32) -> f64 {
    let path = &env.goals.anchors;
    c.anchors
        .iter()
        .enumerate()
        .map(|(i, &node)| {
            let moved = path.at(i, t1) - path.at(i, t0);
            -f64::from(forces[node as usize].dot(moved))
        })
        .sum()
}

/// What one sub-step produced.
pub(crate) struct Substep {
    /// The buffer written, or `None` if a node went non-finite.
    pub dst: Option<usize>,
    /// Work (J) done on the model from outside during the sub-step: by moving anchors and by
    /// the external forces.
    pub outside_work: f64,
}

/// Force buffers of the explicit integrators.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    /// Force accumulator; all zero between sub-steps.
    pub forces: Vec<Vec3A>,
    /// The volume gradient of the gas pass.
    pub grad: Vec<Vec3A>,
    /// The columns of the springs in bands.
    pub bands: BandScratch,
    /// The nodes' positions and velocities as columns, for the tethers' pull.
    pub x_columns: Columns,
    pub v_columns: Columns,
    /// How far each tether lets its node go this sub-step ([`crate::sim::constraints::tethers`]).
    pub reach: Vec<f32>,
    /// Shape matching's fit, warm-started from sub-step to sub-step.
    pub shape: ShapeFit,
    /// The skin's contacts of a sub-step ([`crate::sim::contacts::surface`]).
    pub touched: Touched,
}

/// One explicit sub-step of `h` seconds from buffer `src`, covering fractions `t0..t1` of a
/// step of `dt` seconds, without collisions (see [`collide`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn substep(
    c: &Compiled,
    env: &Environment,
    states: &mut States,
    scratch: &mut Scratch,
    threads: Threads,
    src: usize,
    h: f32,
    (t0, t1, dt): (f32, f32, f32),
) -> Substep {
    let (from, to, dst) = states.pair(src);
    let forces = &mut scratch.forces;
    spring_forces(&c.springs, from, (forces, &mut scratch.bands), threads);
    if let Some(omega_squared) = shape::omega_squared(c.params.shape_matching.as_ref()) {
        let rest = (c.shape.as_slice(), c.nodes.mass.as_slice());
        shape::add_forces(omega_squared, rest, &mut scratch.shape, &from.pos, forces);
    }
    if let Some(gas) = &env.gas {
        let nodes = (from.pos.as_slice(), from.vel.as_slice(), c.nodes.inv_mass.as_slice());
        gas.add_forces(nodes, &c.faces, &mut scratch.grad, forces);
    }
    let mut outside_work = anchor_work((c, env), forces, t0, t1);
    if let Some(ext) = env.external {
        for (f, e) in forces.iter_mut().zip(ext) {
            *f += *e;
        }
    }
    let decay = global_factor(c.params.damping, h);
    let gravity = Vec3A::from(c.params.gravity);
    let finite = integrate(&c.nodes, from, to, forces, gravity, h, decay);
    if let Some(ext) = env.external {
        outside_work += external::work(c, ext, &from.pos, &to.pos);
    }
    place_anchors((c, env), to, t1, dt);
    if let (Some(t), Some(tethers)) = (c.params.tethers, &c.tethers) {
        // The position goes onto the tether's sphere; the velocity loses its outward part.
        let (x, v) = (&mut scratch.x_columns, &mut scratch.v_columns);
        split(&to.pos, x);
        split(&to.vel, v);
        tethers.reach(t.slack, env.goals, &mut scratch.reach);
        tethers.pull_stopping(&scratch.reach, x, v);
        gather::<false>(x, &mut to.pos);
        gather::<false>(v, &mut to.vel);
    }
    if let Some(posed) = &c.rig {
        rig::project_state((posed, env.goals), &mut to.pos, &mut to.vel, t1);
    }
    Substep { dst: finite.then_some(dst), outside_work }
}

/// The collision pass after the sub-step of `h` from buffer `src` that wrote `dst`, ending at
/// the fraction `progress` of the step.
pub(crate) fn collide(
    c: &Compiled,
    env: &Environment,
    (states, touched): (&mut States, &mut Touched),
    (src, dst): (usize, usize),
    h: f32,
    progress: f32,
) {
    let (from, to) = states.pair_at(src, dst);
    env.collide_state(c, (from, to), (h, progress), touched);
}

/// A whole explicit step: `n` equal sub-steps. Returns the buffer holding the result, or
/// `None` if it went non-finite.
pub(crate) fn step(
    c: &Compiled,
    env: &Environment,
    states: &mut States,
    scratch: &mut Scratch,
    threads: Threads,
    dt: f32,
    n: u32,
) -> Option<usize> {
    let h = dt / n as f32;
    let mut src = states.committed_index();
    for i in 0..n {
        let (t0, t1) = (i as f32 / n as f32, (i + 1) as f32 / n as f32);
        let dst = substep(c, env, states, scratch, threads, src, h, (t0, t1, dt)).dst?;
        collide(c, env, (states, &mut scratch.touched), (src, dst), h, t1);
        src = dst;
    }
    Some(src)
}
