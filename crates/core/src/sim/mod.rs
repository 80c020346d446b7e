//! # The solver
//!
//! A [`Simulation`] is compiled once from a [`SpringModel`](crate::SpringModel) — flat arrays per field, springs
//! reordered so that consecutive ones share no node ([`coloring`]) — and stepped many times.
//! Stepping never touches the model: the editor's live test runs on a `Simulation` and throws
//! it away, and a game keeps one per instance of a model.
//!
//! A step of Δt seconds is cut into [`SimParams::substeps`] sub-steps and advanced by the
//! model's [`Integrator`]:
//!
//! - [`explicit`]: semi-implicit Euler on forces — the reference; unstable for stiff springs.
//! - [`adaptive`]: the explicit integrator with energy-checked, self-halving sub-steps.
//! - [`xpbd`]: springs as compliant constraints, one iteration per small sub-step — stable for
//!   stiff springs at 60 Hz; the default.
//!
//! The compiled arrays live in `data` (imported by the solver, importing none of it), built
//! by `compile`. Each concern has one folder: the [`integrators`], the [`forces`] (a spring's
//! force and projection written once in `forces::spring` and applied by every loop over
//! springs, damping in [`damping`](forces::damping), air in [`air`](forces::air), the
//! gas of closed models in [`pressure`], forces held over a step — air, buoyancy, a game's
//! [`ForceField`]s — in [`external`]), the [`contacts`] with the ground and colliders (and a
//! game's [`Collider`]s) in [`collision`], and what a step reports, the [`readout`]: breakage
//! in [`breakage`], energy in [`energy`], normals in [`normals`].
//!
//! A step either completes or is rejected: if any position or velocity would become NaN or
//! infinite, [`Simulation::step`] returns [`CoreError::NonFinite`] and the state stays what it
//! was before the step ([`state`] explains why that costs no copy).

pub mod coloring;
mod columns;
mod compile;
pub mod constraints;
pub mod contacts;
pub(crate) mod data;
mod environment;
pub mod forces;
pub mod integrators;
mod moves;
pub mod readout;
mod settle;
pub mod state;
mod threads;
mod wearing;
pub mod world;

pub use breakage::BreakEvent;
pub use collision::{Collider, Contact};
pub use energy::Energy;
pub use external::ForceField;
pub use normals::vertex_normals;
pub use rigid_bodies::{RigidBody, RigidImpulse};
pub use settle::{SettleOptions, SettleReport};
pub use threads::{Pool, Threads};
pub use wearing::{Posing, Teleport};
pub use world::{
    Body, Drawn, Frame, Meeting, Member, Overlap, Plan, Touching, World, WorldStepReport,
};

use crate::model::MAX_SUBSTEPS;
use crate::{CoreError, Integrator, NodeId, SimParams, SpringId, ValidModel};
use collision::Colliders;
use contacts::rigid_bodies::{self, RigidBodies};
use contacts::{collision, self_collision};
use data::{Compiled, Goals};
use environment::Environment;
use forces::{external, kernels, pressure};
use glam::{Vec3, Vec3A};
use integrators::{adaptive, explicit, xpbd};
use moves::Moves;
use readout::{breakage, energy, normals};
use state::{State, States};
use std::fmt;
use std::sync::Arc;

/// A function told of every spring that breaks ([`Simulation::on_break`]).
pub type BreakListener = Arc<dyn Fn(&BreakEvent) + Send + Sync>;

/// What a game added to a simulation: its force fields, colliders and break listeners.
/// Clones of a simulation share them.
#[derive(Clone, Default)]
struct Hooks {
    force_fields: Vec<Arc<dyn ForceField>>,
    colliders: Vec<Arc<dyn Collider>>,
    break_listeners: Vec<BreakListener>,
}

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hooks")
            .field("force_fields", &self.force_fields.len())
            .field("colliders", &self.colliders.len())
            .field("break_listeners", &self.break_listeners.len())
            .finish()
    }
}

/// What a step did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepReport {
    /// Sub-steps taken (fixed for Explicit and Xpbd, variable for Adaptive).
    pub substeps: u32,
    /// Springs that broke in this step, by their id in the model.
    pub broken: Vec<SpringId>,
}

/// A model compiled for stepping, with its current state.
///
/// Clones share the compiled model (`Arc`): a crowd of one cape, cloned from one simulation,
/// keeps one copy of its springs and triangles, and each clone adds only what it changes — its
/// nodes' state, where its anchors, pose and colliders go (colliders it adds included), and
/// its scratch buffers. A clone that tunes its parameters ([`Simulation::params_mut`]) or
/// breaks a spring gets its own copy of the compiled model first (copy on write).
#[derive(Clone, Debug)]
pub struct Simulation {
    c: Arc<Compiled>,
    /// Where the anchors and the pose's targets go over the next step.
    goals: Goals,
    states: States,
    /// Buffers of the explicit integrators.
    scratch: explicit::Scratch,
    /// The external forces of the current step.
    external: Vec<Vec3A>,
    /// The nodes' velocities relative to the wind (scratch of the air pass).
    relative: Vec<Vec3A>,
    hooks: Hooks,
    xpbd: xpbd::Workspace,
    /// The sub-step Adaptive starts its next step with (NaN: Δt/n).
    adaptive_h: f32,
    threads: Threads,
    time: f64,
    /// The model's colliders as saved, and where the game moves them in the next step.
    moves: Moves,
    /// When a pose is a teleport on its own ([`Simulation::set_teleport`]).
    teleport: Option<Teleport>,
    /// The game's rigid bodies this simulation meets ([`Simulation::set_rigid_bodies`]).
    rigid: RigidBodies,
}

impl Simulation {
    /// Compiles a valid model, starting at rest at its rest positions. A model is validated
    /// where it enters ([`ValidModel`]), not again here.
    pub fn new(model: &ValidModel) -> Simulation {
        let n = model.nodes.len();
        let initial = State {
            pos: model.nodes.positions().iter().map(|&p| p.into()).collect(),
            vel: vec![Vec3A::ZERO; n],
        };
        let c = Compiled::new(model);
        let anchors = c.anchors.iter().map(|&i| initial.pos[i as usize]).collect();
        let goals = Goals::resting(anchors, c.rig.as_ref());
        let now = c.params.colliders.clone();
        Simulation {
            c: Arc::new(c),
            goals,
            states: States::new(initial),
            scratch: explicit::Scratch { forces: vec![Vec3A::ZERO; n], ..Default::default() },
            external: Vec::new(),
            relative: Vec::new(),
            hooks: Hooks::default(),
            xpbd: xpbd::Workspace::default(),
            adaptive_h: f32::NAN,
            threads: Threads::One,
            moves: Moves::new(model.params.colliders.clone(), now),
            time: 0.0,
            teleport: Some(Teleport::default()),
            rigid: RigidBodies::default(),
        }
    }

    /// Advances the simulation by `dt` seconds with the integrator and sub-steps of
    /// [`Simulation::params`].
    ///
    /// On success returns the sub-steps taken and the springs that broke. If any node would
    /// become non-finite the step is rejected: the result is [`CoreError::NonFinite`] and the
    /// state is exactly what it was before the call.
    pub fn step(&mut self, dt: f32) -> Result<StepReport, CoreError> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(CoreError::BadTimeStep { dt });
        }
        let n = self.substeps_for(dt);
        self.moves.sync(&self.c.params);
        if self.c.lacks_tethers() {
            self.compiled_mut().ready_tethers();
        }
        if self.c.lacks_edges(&self.moves.now) {
            let now = std::mem::take(&mut self.moves.now);
            self.compiled_mut().ready_edges(&now);
            self.moves.now = now;
        }
        if self.c.params.tethers.is_some() {
            self.goals.loosen(dt, constraints::tethers::TIGHTEN_SPEED);
        }
        let threads = kernels::worth(self.threads, &self.c.springs, self.c.params.integrator);
        self.rigid.begin();
        let outcome = if threads == Threads::All {
            // On a pool thread, splitting each colour batch is a cheap local fork-join rather
            // than a cross-thread wake-up.
            let this = &mut *self;
            rayon::scope(move |_| this.advance(dt, n, threads))
        } else {
            self.advance(dt, n, threads)
        };

        let Some((result, substeps)) = outcome else {
            return Err(CoreError::NonFinite { node: self.first_non_finite(), time: self.time });
        };
        self.states.commit(result);
        self.rigid.finish();
        self.colliders_arrive();
        self.goals.arrive();
        self.time += f64::from(dt);
        let breaks = self.break_springs();
        for (event, _) in &breaks {
            for listener in &self.hooks.break_listeners {
                listener(event);
            }
        }
        Ok(StepReport { substeps, broken: breaks.iter().map(|(e, _)| e.spring).collect() })
    }

    /// Breaks the springs outside their limits at the committed positions, tearing the
    /// triangles along them; returns what broke. The compiled model is copied first, and only
    /// when something breaks ([`Simulation`]).
    fn break_springs(&mut self) -> Vec<(BreakEvent, (u32, u32))> {
        let pos = &self.states.committed().pos;
        if !breakage::any_breaking(&self.c.springs, pos) {
            return Vec::new();
        }
        let c = Arc::make_mut(&mut self.c);
        let breaks = breakage::break_springs(&mut c.springs, pos, self.time);
        self.xpbd.invalidate();
        let ends: Vec<(u32, u32)> = breaks.iter().map(|&(_, ends)| ends).collect();
        if breakage::tear(&mut c.faces, &ends) > 0 {
            c.surface.closed = false;
            c.surface.open_edges = crate::model::closed::open_edges(&c.faces, c.nodes.mass.len());
        }
        // Paths through the broken springs are gone: the tethers are built anew before the
        // next step that uses them (a piece torn off loses its tethers).
        c.tethers = None;
        breaks
    }

    /// The compiled model, to change: this simulation's own copy, made first if clones share
    /// it (copy on write; [`Simulation`]). Only the rare changes come here.
    fn compiled_mut(&mut self) -> &mut Compiled {
        Arc::make_mut(&mut self.c)
    }

    /// Runs the integrator over a step of `dt` in `n` sub-steps on `threads`: the result's
    /// buffer and the sub-steps taken, or `None` if it went non-finite.
    fn advance(&mut self, dt: f32, n: u32, threads: Threads) -> Option<(usize, u32)> {
        let c = &*self.c;
        let start = self.states.committed();
        let at = (start, self.time, dt);
        let fields = &self.hooks.force_fields;
        let has_external = external::gather(c, fields, at, &mut self.external, &mut self.relative);
        let h = dt / n as f32;
        self.moves.ready(n);
        let env = Environment {
            external: has_external.then_some(self.external.as_slice()),
            gas: c.gas(),
            colliders: Colliders {
                ground: c.params.ground.as_ref(),
                obstacles: &self.moves.now,
                targets: &self.moves.targets,
                poses: &self.moves.poses,
                reaches: &self.moves.reaches,
                row: None,
                progress: 1.0,
                dt,
                custom: &self.hooks.colliders,
                radius: c.params.node_radius,
                rest_speed: 2.0 * c.params.gravity.length() * h,
                continuous: self.moves.continuous,
            },
            goals: &self.goals,
        };
        let (states, scratch) = (&mut self.states, &mut self.scratch);
        match c.params.integrator {
            Integrator::Explicit => {
                explicit::step(c, &env, states, scratch, threads, dt, n).map(|d| (d, n))
            }
            Integrator::Adaptive => {
                adaptive::step(c, &env, states, scratch, threads, &mut self.adaptive_h, dt, n)
            }
            Integrator::Xpbd => {
                let solver = (&mut self.xpbd, &mut self.rigid);
                xpbd::step(c, &env, states, solver, threads, dt, n).map(|d| (d, n))
            }
        }
    }

    /// Sub-steps for a step of `dt`: enough that none is longer than
    /// `params.dt / params.substeps`, so the physics sees the same sub-step whatever frame rate
    /// the caller steps at (a 240 Hz caller gets a quarter of the sub-steps of a 60 Hz one).
    fn substeps_for(&self, dt: f32) -> u32 {
        let p = &self.c.params;
        let per_dt = p.substeps.clamp(1, MAX_SUBSTEPS);
        let h_max = p.dt / per_dt as f32;
        let n = if h_max.is_finite() && h_max > 0.0 {
            // The margin keeps dt == params.dt at exactly `substeps` despite rounding.
            (dt / h_max * (1.0 - 1e-5)).ceil()
        } else {
            per_dt as f32
        };
        let n = (n as u32).clamp(1, MAX_SUBSTEPS);
        let Some(layers) = &p.self_collision else { return n };
        let v = &self.states.committed().vel;
        let gravity = Vec3A::from(p.gravity);
        let wanted = self_collision::substeps_for_layers(v, gravity, layers.thickness, dt);
        let most = n.saturating_mul(self_collision::MAX_LAYER_SUBSTEPS).min(MAX_SUBSTEPS);
        if wanted.is_finite() { (wanted.ceil() as u32).clamp(n, most) } else { n }
    }

    /// After a rejected step: the first node whose latest scratch values are non-finite.
    fn first_non_finite(&self) -> NodeId {
        let committed = self.states.committed_index();
        let scratch = (0..3).filter(|&i| i != committed).map(|i| self.states.get(i));
        scratch
            .filter_map(|s| {
                s.pos.iter().zip(&s.vel).position(|(x, v)| !(x.is_finite() && v.is_finite()))
            })
            .min()
            .map_or(NodeId(0), NodeId::from_index)
    }

    /// True when this simulation and `other` share one compiled model ([`Simulation`]): one
    /// is a clone of the other, and neither has changed it since.
    pub fn shares_compiled(&self, other: &Simulation) -> bool {
        Arc::ptr_eq(&self.c, &other.c)
    }

    /// Lets the spring passes split large batches between threads (off by default). Results
    /// are the same bit for bit either way; see [`kernels`].
    pub fn set_threads(&mut self, threads: Threads) {
        self.threads = threads;
    }

    /// Simulated time (s) since the start.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.c.nodes.mass.len()
    }

    /// Current positions (m), indexed by [`NodeId`].
    pub fn positions(&self) -> &[Vec3A] {
        &self.states.committed().pos
    }

    /// Current velocities (m/s), indexed by [`NodeId`].
    pub fn velocities(&self) -> &[Vec3A] {
        &self.states.committed().vel
    }

    /// Current positions, writable between steps (anchored nodes are put back on their anchor
    /// at the next step; use [`Simulation::set_anchor_position`] to move those).
    pub fn positions_mut(&mut self) -> &mut [Vec3A] {
        &mut self.states.committed_mut().pos
    }

    /// Current velocities, writable between steps (an anchored node's velocity is its
    /// anchor's, and is overwritten at the next step).
    pub fn velocities_mut(&mut self) -> &mut [Vec3A] {
        &mut self.states.committed_mut().vel
    }

    /// The parameters steps use. Their colliders are where the model was compiled with them
    /// or where [`Simulation::params_mut`] last put them; where they are now, moved since:
    /// [`Simulation::colliders`].
    pub fn params(&self) -> &SimParams {
        &self.c.params
    }

    /// The parameters, to tune between steps: gravity, global damping, integrator, and the
    /// sub-step length `dt / substeps` (substeps clamped to 1..=[`MAX_SUBSTEPS`]). The step
    /// itself is the argument of [`Simulation::step`]; [`Simulation::settle`] steps by `dt`.
    ///
    /// The simulation gets its own copy of the compiled model first if clones share it
    /// ([`Simulation`]), so a game tunes a crowd's members one at a time; the colliders are
    /// where they are now ([`Simulation::colliders`]).
    pub fn params_mut(&mut self) -> &mut SimParams {
        self.moves.sync(&self.c.params);
        self.moves.stale = true;
        let now = &self.moves.now;
        let c = Arc::make_mut(&mut self.c);
        c.params.colliders.clone_from(now);
        &mut c.params
    }

    /// The anchored nodes.
    pub fn anchors(&self) -> impl ExactSizeIterator<Item = NodeId> + '_ {
        self.c.anchors.iter().map(|&n| NodeId(n))
    }

    /// Where anchored node `node` is headed; `None` if it is not an anchor.
    pub fn anchor_position(&self, node: NodeId) -> Option<Vec3> {
        let i = self.c.anchors.iter().position(|&n| n == node.0)?;
        Some(self.goals.anchors.target[i].into())
    }

    /// Moves the anchor of `node` to `position` (m). During the next step the node travels
    /// there in a straight line at constant speed, and the model follows within that step.
    pub fn set_anchor_position(&mut self, node: NodeId, position: Vec3) -> Result<(), CoreError> {
        let nodes = self.node_count();
        let i = self
            .c
            .anchors
            .iter()
            .position(|&n| n == node.0)
            .ok_or(CoreError::NotAnchor { node, nodes })?;
        self.goals.anchors.target[i] = position.into();
        Ok(())
    }

    /// Kinetic, elastic, gravitational and gas energy of the current state.
    pub fn energy(&self) -> Energy {
        energy::measure(&self.c, self.states.committed())
    }

    /// The volume (m³) the model's triangles enclose now; an error when they do not close a
    /// volume ([`SpringModel::is_closed`](crate::SpringModel::is_closed)).
    pub fn enclosed_volume(&self) -> Result<f32, CoreError> {
        if !self.c.surface.closed {
            return Err(CoreError::OpenSurface { open_edges: self.c.surface.open_edges });
        }
        let v = pressure::signed_volume(self.positions(), &self.c.faces);
        Ok(v * self.c.surface.sign)
    }

    /// Adds a force field, evaluated once per step from then on ([`external`]).
    pub fn add_force_field(&mut self, field: Arc<dyn ForceField>) {
        self.hooks.force_fields.push(field);
    }

    /// Adds a collider, after the ground and the model's own colliders ([`collision`]).
    pub fn add_collider(&mut self, collider: Arc<dyn Collider>) {
        self.hooks.colliders.push(collider);
    }

    /// Calls `listener` for every spring that breaks from now on, at the end of its step.
    pub fn on_break(&mut self, listener: impl Fn(&BreakEvent) + Send + Sync + 'static) {
        self.hooks.break_listeners.push(Arc::new(listener));
    }

    /// The triangles that are still whole (all of the model's, less those torn along broken
    /// springs; see [`breakage`]), in the solver's order.
    pub fn faces(&self) -> &[[NodeId; 3]] {
        &self.c.faces
    }

    /// Area-weighted vertex normals of the model's faces at the current positions, written to
    /// `out` (one per node).
    pub fn vertex_normals(&self, out: &mut Vec<Vec3>) {
        vertex_normals(self.positions(), &self.c.faces, out);
    }

    /// How many vertices the drawn surface has: the skin's when the model has one
    /// ([`crate::model::Skin`]), else one per node.
    pub fn surface_vertex_count(&self) -> usize {
        self.c.skin.as_ref().map_or(self.node_count(), |s| s.len())
    }

    /// The drawn surface's triangles over its vertices: the skin's, or the model's faces that
    /// are still whole ([`Simulation::faces`]).
    pub fn surface_faces(&self) -> &[[NodeId; 3]] {
        self.c.skin.as_ref().map_or(&self.c.faces, |s| s.faces.nodes())
    }

    /// The drawn surface's vertex positions now, written to `out`: the skin following the
    /// cage, or the nodes' positions.
    pub fn surface_positions(&self, out: &mut Vec<Vec3>) {
        match &self.c.skin {
            Some(skin) => skin.deform(self.positions(), out),
            None => {
                out.clear();
                out.extend(self.positions().iter().map(|&p| Vec3::from(p)));
            }
        }
    }

    /// The drawn surface's positions and area-weighted vertex normals now, without computing
    /// the positions twice.
    pub fn surface(&self, positions: &mut Vec<Vec3>, normals: &mut Vec<Vec3>) {
        self.surface_positions(positions);
        vertex_normals(positions, self.surface_faces(), normals);
    }

    /// The drawn surface's area-weighted vertex normals now, written to `out` (see
    /// [`Simulation::surface`] for positions and normals together).
    pub fn surface_normals(&self, out: &mut Vec<Vec3>) {
        match &self.c.skin {
            Some(_) => self.surface(&mut Vec::new(), out),
            None => self.vertex_normals(out),
        }
    }

    /// Steps by [`SimParams::dt`] until the kinetic energy has stayed below the threshold for
    /// the quiet time, or the time limit passes. The settled state is the simulation's state.
    pub fn settle(&mut self, options: &SettleOptions) -> Result<SettleReport, CoreError> {
        let dt = self.c.params.dt;
        let start = self.time;
        let mut quiet = 0.0;
        let mut steps = 0;
        let mut kinetic = energy::kinetic(&self.c, self.states.committed());
        loop {
            let seconds = self.time - start;
            if quiet >= options.quiet_seconds || seconds >= options.max_seconds {
                return Ok(SettleReport {
                    settled: quiet >= options.quiet_seconds,
                    seconds,
                    steps,
                    kinetic_energy: kinetic,
                });
            }
            self.step(dt)?;
            steps += 1;
            kinetic = energy::kinetic(&self.c, self.states.committed());
            quiet = if kinetic < options.energy_threshold { quiet + f64::from(dt) } else { 0.0 };
        }
    }
}
