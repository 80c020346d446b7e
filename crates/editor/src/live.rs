//! The live test simulation: a [`Simulation`] of a copy of the document's model, stepped in
//! real time. The model itself is never changed by it; Reset throws the simulation away.

use crate::document::Document;
use glam::Vec3A;
use springmesh_core::{Simulation, SpringId};
use std::collections::{BTreeSet, VecDeque};
use std::time::{Duration, Instant};

/// The most simulation steps taken in one drawn frame; beyond that the simulation runs slower
/// than real time rather than making the window stutter.
const MAX_STEPS_PER_FRAME: u32 = 4;

/// From this many springs on, the live simulation splits its spring passes between threads.
const PARALLEL_SPRINGS: usize = 20_000;

/// Seconds of simulated time the energy plot keeps.
pub const ENERGY_WINDOW: f64 = 10.0;

/// Wall time after which a frame takes no further step (it always takes one when one is
/// due): 12 ms leaves room for the rest of a 60 Hz frame.
const STEP_BUDGET: Duration = Duration::from_millis(12);

/// Play state and the running simulation.
#[derive(Default)]
pub struct Live {
    sim: Option<Simulation>,
    /// True while the simulation advances with the clock.
    pub playing: bool,
    /// The model revision the simulation was built from, or last took parameters from.
    built_from: u64,
    /// The model structure the simulation was built from.
    built_structure: u64,
    /// Simulated time owed to the clock (s).
    owed: f64,
    /// Why the last step failed, if it did.
    pub error: Option<String>,
    /// True when the last frame could not keep up with real time.
    pub behind: bool,
    /// Counts changes of the simulated positions.
    version: u64,
    /// Wall time of the steps taken in the last frame, ms.
    pub step_ms: f32,
    /// Springs that broke since the simulation started.
    broken: BTreeSet<SpringId>,
    /// Counts changes of `broken` (and resets): what is drawn of springs and faces follows it.
    tears: u64,
    /// (time s, kinetic J, elastic J) after each frame that stepped, over the last
    /// [`ENERGY_WINDOW`] seconds.
    energy: VecDeque<[f64; 3]>,
    /// The stability check and its result.
    pub check: crate::stability::StabilityCheck,
    /// The mouse's pull on a node, a force field of every simulation built here.
    grab: std::sync::Arc<crate::grab::Grab>,
}

impl Live {
    /// Throws the simulation away: positions go back to the model's.
    pub fn reset(&mut self) {
        self.sim = None;
        self.owed = 0.0;
        self.error = None;
        self.version += 1;
        self.energy.clear();
        if !self.broken.is_empty() {
            self.broken.clear();
            self.tears += 1;
        }
    }

    /// The springs that have broken in this run.
    pub fn broken(&self) -> &BTreeSet<SpringId> {
        &self.broken
    }

    /// Counts changes of [`Live::broken`].
    pub fn tears(&self) -> u64 {
        self.tears
    }

    /// (time s, kinetic J, elastic J) over the last [`ENERGY_WINDOW`] seconds, oldest first.
    pub fn energy(&self) -> &VecDeque<[f64; 3]> {
        &self.energy
    }

    /// The simulated positions, when a simulation exists.
    pub fn positions(&self) -> Option<&[Vec3A]> {
        self.sim.as_ref().map(|s| s.positions())
    }

    /// Simulated time (s), when a simulation exists.
    pub fn time(&self) -> Option<f64> {
        self.sim.as_ref().map(Simulation::time)
    }

    /// Counts changes of the simulated positions.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Builds the simulation from the document's model unless there is one; false (with the
    /// error kept, and play stopped) when the model cannot be simulated.
    fn ensure(&mut self, doc: &Document) -> bool {
        if self.sim.is_none() {
            match Simulation::new(doc.model()) {
                Ok(mut sim) => {
                    sim.add_force_field(self.grab.clone());
                    // Large models use every core (the results are the same bit for bit);
                    // small ones would only pay for the hand-offs.
                    if doc.model().springs.len() >= PARALLEL_SPRINGS {
                        sim.set_threads(springmesh_core::sim::Threads::All);
                    }
                    self.sim = Some(sim);
                }
                Err(e) => {
                    self.error = Some(e.to_string());
                    self.playing = false;
                    return false;
                }
            }
            self.built_from = doc.revision();
            self.built_structure = doc.structure();
        }
        true
    }

    /// Takes one step of the model's time step, playing or not.
    pub fn step_once(&mut self, doc: &Document) {
        let was = std::mem::replace(&mut self.playing, true);
        self.owed = f64::from(doc.model().params.dt);
        self.advance(doc, 0.0);
        self.playing = was && self.error.is_none();
    }

    /// Pulls `node` of the running test towards a point (m), or lets go (see [`crate::grab`]).
    pub fn grab(&self, doc: &Document, pull: Option<(springmesh_core::NodeId, glam::Vec3)>) {
        let m = doc.model();
        let mass = pull.and_then(|(n, _)| m.nodes.masses().get(n.index()).copied()).unwrap_or(0.0);
        self.grab.set(pull, mass, m.params.dt);
    }

    /// The node the mouse pulls, if any.
    pub fn pulled(&self) -> Option<springmesh_core::NodeId> {
        self.grab.node()
    }

    /// Moves the anchors of the running simulation by `offset` (m): the selected anchored
    /// nodes, or all anchors when none is selected. The model's anchors stay where they are.
    pub fn move_anchors(&mut self, doc: &Document, offset: glam::Vec3) {
        if !self.ensure(doc) {
            return;
        }
        let Some(sim) = &mut self.sim else { return };
        let all: Vec<springmesh_core::NodeId> = sim.anchors().collect();
        let chosen: Vec<_> =
            all.iter().copied().filter(|n| doc.selection.nodes.contains(n)).collect();
        for n in if chosen.is_empty() { all } else { chosen } {
            if let Some(p) = sim.anchor_position(n) {
                // n is an anchor, so this cannot fail.
                let _ = sim.set_anchor_position(n, p + offset);
            }
        }
        self.version += 1;
    }

    /// Advances by `elapsed` seconds of real time while playing; returns true when positions
    /// changed. A change of the model's parameters is taken over by the running simulation;
    /// any other change restarts it from the model.
    pub fn advance(&mut self, doc: &Document, elapsed: f64) -> bool {
        if let Some(sim) = &mut self.sim
            && self.built_from != doc.revision()
        {
            if self.built_structure == doc.structure() {
                *sim.params_mut() = doc.model().params.clone();
                self.built_from = doc.revision();
            } else {
                self.reset();
            }
        }
        if !self.playing || !self.ensure(doc) {
            return false;
        }
        let Some(sim) = &mut self.sim else { return false };
        let dt = f64::from(doc.model().params.dt);
        self.owed = (self.owed + elapsed.min(0.25)).max(0.0);
        // The epsilon forgives rounding: two frames of 1/60 s owe exactly two steps of 1/60 s.
        let due = (self.owed / dt + 1e-6).floor() as u32;
        let started = Instant::now();
        let mut steps = 0;
        while steps < due.min(MAX_STEPS_PER_FRAME)
            && (steps == 0 || started.elapsed() < STEP_BUDGET)
        {
            match sim.step(dt as f32) {
                Ok(report) if !report.broken.is_empty() => {
                    self.broken.extend(report.broken);
                    self.tears += 1;
                }
                Ok(_) => {}
                Err(e) => {
                    self.error = Some(e.to_string());
                    self.playing = false;
                    break;
                }
            }
            steps += 1;
        }
        self.step_ms = started.elapsed().as_secs_f32() * 1e3;
        // Behind: the clock is not owed what was not done (the simulation slows down instead).
        self.behind = steps < due;
        self.owed = if self.behind { 0.0 } else { self.owed - f64::from(steps) * dt };
        if steps > 0 {
            self.version += 1;
            let (t, e) = (sim.time(), sim.energy());
            self.energy.push_back([t, e.kinetic, e.elastic]);
            while self.energy.front().is_some_and(|f| f[0] < t - ENERGY_WINDOW) {
                self.energy.pop_front();
            }
        }
        steps > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use springmesh_convert::samples::Sample;

    #[test]
    fn plays_in_real_time_and_resets() {
        let doc = Document::sample(Sample::Cloth);
        let mut live = Live::default();
        assert!(!live.advance(&doc, 0.1), "paused: nothing happens");
        live.playing = true;
        assert!(live.advance(&doc, 1.0 / 30.0), "two 60 Hz steps are due");
        assert!((live.time().expect("running") - 2.0 / 60.0).abs() < 1e-6);
        let moved = live.positions().expect("running")[300].y;
        assert!(moved < doc.model().nodes.positions()[300].y);
        live.advance(&doc, 1.0);
        assert!(live.behind, "a second in one frame is more than 4 steps");
        assert_eq!(live.energy().len(), 2, "one point per frame that stepped");
        live.reset();
        assert!(live.positions().is_none() && live.energy().is_empty());
    }

    #[test]
    fn new_parameters_reach_the_running_simulation_and_other_edits_restart_it() {
        use crate::edit::Edit;
        let mut doc = Document::sample(Sample::Cloth);
        let mut live = Live { playing: true, ..Live::default() };
        live.advance(&doc, 1.0 / 60.0);
        let mut params = doc.model().params.clone();
        params.gravity = glam::Vec3::ZERO;
        doc.edit(Edit::SetParams(Box::new(params)), "Gravity").expect("fits");
        live.advance(&doc, 1.0 / 60.0);
        assert!((live.time().expect("running") - 2.0 / 60.0).abs() < 1e-6, "kept running");
        doc.edit(Edit::ToggleAnchors(vec![springmesh_core::NodeId(5)]), "Anchor").expect("fits");
        live.advance(&doc, 1.0 / 60.0);
        assert!((live.time().expect("running") - 1.0 / 60.0).abs() < 1e-6, "started over");
    }

    #[test]
    fn a_step_and_moved_anchors_while_paused() {
        let doc = Document::sample(Sample::Cloth);
        let mut live = Live::default();
        live.step_once(&doc);
        assert!(!live.playing && (live.time().expect("stepped") - 1.0 / 60.0).abs() < 1e-6);
        let anchor = doc.model().anchors[0];
        let before = live.positions().expect("running")[anchor.index()];
        live.move_anchors(&doc, glam::Vec3::X);
        live.step_once(&doc);
        let after = live.positions().expect("running")[anchor.index()];
        assert!((after - before - Vec3A::X).length() < 1e-5, "{before} -> {after}");
    }
}
