//! # The solver
//!
//! A [`Simulation`] is compiled once from a [`SpringModel`] — flat arrays per field, springs
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
//! Forces and their sources are documented where they are applied: springs in [`explicit`]
//! and [`xpbd`], damping in [`damping`], breakage in [`breakage`], energy in [`energy`],
//! normals in [`normals`].
//!
//! A step either completes or is rejected: if any position or velocity would become NaN or
//! infinite, [`Simulation::step`] returns [`CoreError::NonFinite`] and the state stays what it
//! was before the step ([`state`] explains why that costs no copy).

pub mod adaptive;
pub mod align;
pub mod breakage;
pub mod coloring;
mod compile;
pub mod damping;
pub mod energy;
pub mod explicit;
pub mod kernels;
pub mod normals;
mod settle;
pub mod state;
pub mod xpbd;

pub use energy::Energy;
pub use kernels::Threads;
pub use normals::vertex_normals;
pub use settle::{SettleOptions, SettleReport};

use crate::model::MAX_SUBSTEPS;
use crate::{CoreError, Integrator, NodeId, SimParams, SpringId, SpringModel};
use compile::Compiled;
use glam::{Vec3, Vec3A};
use state::{State, States};

/// What a step did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepReport {
    /// Sub-steps taken (fixed for Explicit and Xpbd, variable for Adaptive).
    pub substeps: u32,
    /// Springs that broke in this step, by their id in the model.
    pub broken: Vec<SpringId>,
}

/// A model compiled for stepping, with its current state.
#[derive(Clone, Debug)]
pub struct Simulation {
    c: Compiled,
    states: States,
    /// Force accumulator of the explicit integrators; all zero between sub-steps.
    forces: Vec<Vec3A>,
    xpbd: xpbd::Workspace,
    /// The sub-step Adaptive starts its next step with (NaN: Δt/n).
    adaptive_h: f32,
    threads: Threads,
    time: f64,
}

impl Simulation {
    /// Compiles a model, starting at rest at its rest positions. The model must be valid
    /// ([`SpringModel::validate`]); otherwise every problem is returned.
    pub fn new(model: &SpringModel) -> Result<Simulation, CoreError> {
        model.validate().map_err(|problems| CoreError::InvalidModel { problems })?;
        let n = model.nodes.len();
        let initial = State {
            pos: model.nodes.positions().iter().map(|&p| p.into()).collect(),
            vel: vec![Vec3A::ZERO; n],
        };
        Ok(Simulation {
            c: Compiled::new(model),
            states: States::new(initial),
            forces: vec![Vec3A::ZERO; n],
            xpbd: xpbd::Workspace::default(),
            adaptive_h: f32::NAN,
            threads: Threads::One,
            time: 0.0,
        })
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
        let outcome = if self.threads == Threads::All {
            // On a pool thread, splitting each colour batch is a cheap local fork-join rather
            // than a cross-thread wake-up.
            let this = &mut *self;
            rayon::scope(move |_| this.advance(dt, n))
        } else {
            self.advance(dt, n)
        };

        let Some((result, substeps)) = outcome else {
            return Err(CoreError::NonFinite { node: self.first_non_finite(), time: self.time });
        };
        self.states.commit(result);
        let anchors = &mut self.c.anchors;
        anchors.start.clone_from(&anchors.target);
        self.time += f64::from(dt);
        let broken = breakage::break_springs(&mut self.c.springs, &self.states.committed().pos);
        if !broken.is_empty() {
            self.xpbd.invalidate();
        }
        Ok(StepReport { substeps, broken })
    }

    /// Runs the integrator over a step of `dt` in `n` sub-steps: the result's buffer and the
    /// sub-steps taken, or `None` if it went non-finite.
    fn advance(&mut self, dt: f32, n: u32) -> Option<(usize, u32)> {
        let c = &self.c;
        match c.params.integrator {
            Integrator::Explicit => {
                explicit::step(c, &mut self.states, &mut self.forces, self.threads, dt, n)
                    .map(|d| (d, n))
            }
            Integrator::Adaptive => adaptive::step(
                c,
                &mut self.states,
                &mut self.forces,
                self.threads,
                &mut self.adaptive_h,
                dt,
                n,
            ),
            Integrator::Xpbd => {
                xpbd::step(c, &mut self.states, &mut self.xpbd, self.threads, dt, n).map(|d| (d, n))
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
        (n as u32).clamp(1, MAX_SUBSTEPS)
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

    /// The parameters steps use.
    pub fn params(&self) -> &SimParams {
        &self.c.params
    }

    /// The parameters, to tune between steps: gravity, global damping, integrator, and the
    /// sub-step length `dt / substeps` (substeps clamped to 1..=[`MAX_SUBSTEPS`]). The step
    /// itself is the argument of [`Simulation::step`]; [`Simulation::settle`] steps by `dt`.
    pub fn params_mut(&mut self) -> &mut SimParams {
        &mut self.c.params
    }

    /// The anchored nodes.
    pub fn anchors(&self) -> impl ExactSizeIterator<Item = NodeId> + '_ {
        self.c.anchors.nodes.iter().map(|&n| NodeId(n))
    }

    /// Where anchored node `node` is headed; `None` if it is not an anchor.
    pub fn anchor_position(&self, node: NodeId) -> Option<Vec3> {
        let i = self.c.anchors.nodes.iter().position(|&n| n == node.0)?;
        Some(self.c.anchors.target[i].into())
    }

    /// Moves the anchor of `node` to `position` (m). During the next step the node travels
    /// there in a straight line at constant speed, and the model follows within that step.
    pub fn set_anchor_position(&mut self, node: NodeId, position: Vec3) -> Result<(), CoreError> {
        let nodes = self.node_count();
        let i = self
            .c
            .anchors
            .nodes
            .iter()
            .position(|&n| n == node.0)
            .ok_or(CoreError::NotAnchor { node, nodes })?;
        self.c.anchors.target[i] = position.into();
        Ok(())
    }

    /// Kinetic, elastic and gravitational energy of the current state.
    pub fn energy(&self) -> Energy {
        energy::measure(&self.c, self.states.committed())
    }

    /// Area-weighted vertex normals of the model's faces at the current positions, written to
    /// `out` (one per node).
    pub fn vertex_normals(&self, out: &mut Vec<Vec3>) {
        vertex_normals(self.positions(), &self.c.faces, out);
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
