//! The live test simulation: a [`Simulation`] of a copy of the document's model, stepped in
//! real time on its own thread (the `runner` module). The model itself is never changed by
//! it; Reset throws the simulation away. The window shows the state the thread last
//! published, so a frame never waits for a step; when the steps take longer than the clock,
//! the simulation runs slower than real time and says so.
//!
//! A model with no anchors and no ground falls out of view within a second of Play; unless
//! [`Live::bare`] is set, the test puts a ground just under its lowest node (a setting of the
//! test, not of the model: the model gets a ground only when the user saves it into it).

mod playback;
mod runner;

use crate::document::Document;
use glam::{Mat4, Vec3, Vec3A};
use playback::Playback;
use runner::Runner;
use springmesh_convert::ConvertOptions;
use springmesh_core::model::Ground;
use springmesh_core::sim::Threads;
use springmesh_core::{NodeId, SimParams, Simulation, SpringId, SpringModel, ValidModel};
use std::collections::{BTreeSet, VecDeque};

/// From this many springs on, the live simulation splits its spring passes between threads.
const PARALLEL_SPRINGS: usize = 20_000;

/// Seconds of simulated time the energy plot keeps.
pub const ENERGY_WINDOW: f64 = 10.0;

/// The most simulated time (s) that may be owed to the clock; beyond it the simulation is
/// behind, and falls back rather than racing to catch up.
const MAX_OWED: f64 = 0.1;

/// The longest frame (s) counted in full: after a stall the simulation does not jump ahead.
const MAX_FRAME: f64 = 0.25;

/// Play state and the running simulation.
#[derive(Default)]
pub struct Live {
    runner: Option<Runner>,
    /// True while the simulation advances with the clock.
    pub playing: bool,
    /// The model revision the simulation was built from, or last took parameters from.
    built_from: u64,
    /// The model structure the simulation was built from.
    built_structure: u64,
    /// The publication last taken from the thread.
    seen: u64,
    /// Positions last taken from the thread.
    positions: Vec<Vec3A>,
    /// Simulated time last taken (s).
    time: f64,
    /// Why the last step failed, if it did.
    pub error: Option<String>,
    /// True when the simulation could not keep up with real time.
    pub behind: bool,
    /// Counts changes of the simulated positions.
    version: u64,
    /// Wall time of the thread's last step, ms.
    pub step_ms: f32,
    /// Springs that broke since the simulation started.
    broken: BTreeSet<SpringId>,
    /// Counts changes of `broken` (and resets): what is drawn of springs and faces follows it.
    tears: u64,
    /// (time s, kinetic J, elastic J) of each publication taken (one per drawn frame that
    /// got new positions), over the last [`ENERGY_WINDOW`] seconds.
    energy: VecDeque<[f64; 3]>,
    /// The stability check and its result.
    pub check: crate::stability::StabilityCheck,
    /// The vibration modes and the tune to a behaviour.
    pub tuner: crate::behaviour_jobs::BehaviourJobs,
    /// The mouse's pull on a node, a force field of every simulation built here.
    grab: std::sync::Arc<crate::grab::Grab>,
    /// The test runs a free model without the ground it would otherwise put under it.
    pub bare: bool,
    /// The clip of the document's character played on a worn model (an index into its
    /// clips), `None`: the character stands in its rest pose.
    pub clip: Option<usize>,
    /// The joints' world matrices last taken from the thread (empty: no clip plays).
    pose: Vec<Mat4>,
}

impl Live {
    /// Throws the simulation away: positions go back to the model's.
    pub fn reset(&mut self) {
        self.runner = None;
        self.positions.clear();
        self.pose.clear();
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
        self.runner.as_ref().map(|_| self.positions.as_slice())
    }

    /// The pose the clip has put the skeleton in (the joints' world matrices), while one
    /// plays and has been stepped.
    pub fn pose(&self) -> Option<&[Mat4]> {
        (self.runner.is_some() && !self.pose.is_empty()).then_some(self.pose.as_slice())
    }

    /// Simulated time (s), when a simulation exists.
    pub fn time(&self) -> Option<f64> {
        self.runner.as_ref().map(|_| self.time)
    }

    /// Counts changes of the simulated positions.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// True while the simulation thread has steps to take: the window keeps redrawing.
    pub fn busy(&self) -> bool {
        self.runner.as_ref().is_some_and(Runner::busy)
    }

    /// Starts the simulation of the document's model unless one runs; false (with the error
    /// kept, and play stopped) when the model cannot be simulated.
    fn ensure(&mut self, doc: &Document) -> bool {
        if self.runner.is_some() {
            return true;
        }
        let model = doc.model();
        match ValidModel::new(model.clone()) {
            Ok(valid) => {
                let mut sim = Simulation::new(&valid);
                *sim.params_mut() = self.params(model);
                // Large models use every core (the results are the same bit for bit); small
                // ones would only pay for the hand-offs.
                let parallel = model.springs.len() >= PARALLEL_SPRINGS;
                let threads = if parallel { Threads::All } else { Threads::One };
                self.positions = sim.positions().to_vec();
                self.time = sim.time();
                self.seen = 0;
                let playback = self.playback(doc);
                self.runner = Some(Runner::start(sim, self.grab.clone(), threads, playback));
                self.built_from = doc.revision();
                self.built_structure = doc.structure();
                true
            }
            Err(e) => {
                self.error = Some(e.to_string());
                self.playing = false;
                false
            }
        }
    }

    /// The chosen clip of the document's character, for its model's skeleton.
    fn playback(&self, doc: &Document) -> Option<Playback> {
        let model = doc.model();
        let joints = model.rig.as_ref()?.joints.iter().map(|j| j.name.clone()).collect();
        Playback::new(doc.character.clone()?, self.clip?, (joints, ConvertOptions::scale_of(model)))
    }

    /// The parameters the test runs `model` with: its own, and a ground just under it when it
    /// is free (no anchors, no ground, gravity on) unless [`Live::bare`].
    pub fn params(&self, model: &SpringModel) -> SimParams {
        test_params(model, self.bare)
    }

    /// Asks for one step of the model's time step, playing or not.
    pub fn step_once(&mut self, doc: &Document) {
        if self.ensure(doc)
            && let Some(r) = &self.runner
        {
            r.single();
        }
    }

    /// Pulls `node` of the running test towards a point (m), or lets go (see [`crate::grab`]).
    pub fn grab(&self, doc: &Document, pull: Option<(NodeId, Vec3)>) {
        let m = doc.model();
        let mass = pull.and_then(|(n, _)| m.nodes.masses().get(n.index()).copied()).unwrap_or(0.0);
        self.grab.set(pull, mass, m.params.dt);
    }

    /// The node the mouse pulls, if any.
    pub fn pulled(&self) -> Option<NodeId> {
        self.grab.node()
    }

    /// Moves the anchors of the running simulation by `offset` (m): the selected anchored
    /// nodes, or all anchors when none is selected. The model's anchors stay where they are.
    pub fn move_anchors(&mut self, doc: &Document, offset: Vec3) {
        if !self.ensure(doc) {
            return;
        }
        let all = &doc.model().anchors;
        let chosen: Vec<NodeId> =
            all.iter().copied().filter(|n| doc.selection.nodes.contains(n)).collect();
        let nodes = if chosen.is_empty() { all.clone() } else { chosen };
        if let Some(r) = &self.runner {
            r.move_anchors(nodes, offset);
        }
    }

    /// Takes what the thread published since the last call; true when positions changed.
    fn take(&mut self) -> bool {
        let Some(runner) = &self.runner else { return false };
        let Some(p) = runner.take_newer(self.seen) else { return false };
        if let Some(e) = p.error {
            self.error = Some(e);
            self.playing = false;
        }
        if !p.broken.is_empty() {
            self.broken.extend(p.broken);
            self.tears += 1;
        }
        let moved = p.steps != self.seen;
        if moved {
            self.seen = p.steps;
            self.positions = p.positions;
            self.pose = p.pose;
            self.time = p.time;
            self.step_ms = p.step_ms;
            self.version += 1;
            let [kinetic, elastic] = p.energy;
            self.energy.push_back([p.time, kinetic, elastic]);
            while self.energy.front().is_some_and(|f| f[0] < p.time - ENERGY_WINDOW) {
                self.energy.pop_front();
            }
        }
        moved
    }

    /// Waits (at most 10 s) until the thread has taken every step asked of it, and takes the
    /// result; true when positions changed. For tests and for a screenshot of a known state.
    pub fn catch_up(&mut self, doc: &Document) -> bool {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while self.busy() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
        let changed = self.take();
        // Parameters or structure may have changed meanwhile; nothing is owed.
        self.advance(doc, 0.0) || changed
    }

    /// Owes the simulation `elapsed` seconds of real time while playing, and takes what it
    /// published; returns true when positions changed. A change of the model's parameters is
    /// taken over by the running simulation; any other change restarts it from the model.
    pub fn advance(&mut self, doc: &Document, elapsed: f64) -> bool {
        if let Some(runner) = &mut self.runner
            && self.built_from != doc.revision()
        {
            if self.built_structure == doc.structure() {
                runner.set_params(test_params(doc.model(), self.bare));
                self.built_from = doc.revision();
            } else {
                self.reset();
            }
        }
        if self.playing && self.ensure(doc) {
            if let Some(r) = &self.runner {
                self.behind = !r.owe(elapsed.clamp(0.0, MAX_FRAME), MAX_OWED);
            }
        } else if let Some(r) = &self.runner {
            r.forgive();
        }
        self.take()
    }
}

/// [`Live::params`], as a function (the runner's hand-over borrows `Live` mutably).
fn test_params(model: &SpringModel, bare: bool) -> SimParams {
    let mut params = model.params.clone();
    let free = model.anchors.is_empty() && params.ground.is_none() && params.gravity != Vec3::ZERO;
    if free && !bare {
        params.ground = Some(Ground { height: model.ground_under(), ..Ground::default() });
    }
    params
}

#[cfg(test)]
mod tests {
    use super::*;
    use springmesh_convert::samples::Sample;

    #[test]
    fn plays_in_real_time_and_resets() {
        let doc = Document::sample(Sample::Cloth);
        let mut live = Live::default();
        live.advance(&doc, 0.1);
        assert!(live.positions().is_none(), "paused: nothing happens");
        live.playing = true;
        // A step may be published before `advance` returns, and taken by it.
        let taken = live.advance(&doc, 1.0 / 30.0);
        assert!(live.catch_up(&doc) || taken);
        assert!((live.time().expect("running") - 2.0 / 60.0).abs() < 1e-6, "two 60 Hz steps");
        let moved = live.positions().expect("running")[300].y;
        assert!(moved < doc.model().nodes.positions()[300].y);
        let points = live.energy().len();
        assert!((1..=2).contains(&points), "a point per step taken at once or one by one");
        live.advance(&doc, 1.0);
        live.advance(&doc, 1.0);
        assert!(live.behind, "a second a frame is more than the thread can do at once");
        live.reset();
        assert!(live.positions().is_none() && live.energy().is_empty());
    }

    #[test]
    fn new_parameters_reach_the_running_simulation_and_other_edits_restart_it() {
        use crate::edit::Edit;
        let mut doc = Document::sample(Sample::Cloth);
        let mut live = Live { playing: true, ..Live::default() };
        live.advance(&doc, 1.0 / 60.0);
        live.catch_up(&doc);
        let mut params = doc.model().params.clone();
        params.gravity = Vec3::ZERO;
        doc.edit(Edit::SetParams(Box::new(params)), "Gravity").expect("fits");
        live.advance(&doc, 1.0 / 60.0);
        live.catch_up(&doc);
        assert!((live.time().expect("running") - 2.0 / 60.0).abs() < 1e-6, "kept running");
        doc.edit(Edit::ToggleAnchors(vec![NodeId(5)]), "Anchor").expect("fits");
        live.advance(&doc, 1.0 / 60.0);
        live.catch_up(&doc);
        assert!((live.time().expect("running") - 1.0 / 60.0).abs() < 1e-6, "started over");
    }

    #[test]
    fn a_free_model_falls_onto_a_test_ground_just_under_it() {
        use springmesh_convert::{ConvertOptions, convert_mesh, shapes};
        let mesh = shapes::sphere(Vec3::new(0.0, 3.0, 0.0), 0.2, 6, 8);
        let model = convert_mesh(mesh, &ConvertOptions::default(), "ball.obj".as_ref())
            .expect("converts")
            .model
            .into_inner();
        let doc = Document::new(model, crate::document::Origin::ModelFile, None, "ball".into());
        let mut live = Live { playing: true, ..Live::default() };
        let lowest = doc.model().bounding_box().expect("nodes").min.y;
        for _ in 0..60 {
            live.advance(&doc, 1.0 / 60.0);
            live.catch_up(&doc);
        }
        let low = |live: &Live| {
            live.positions().expect("running").iter().map(|p| p.y).fold(f32::INFINITY, f32::min)
        };
        assert!(
            (low(&live) - lowest).abs() < 0.01,
            "rests where it was: {} vs {lowest}",
            low(&live)
        );
        assert!(doc.model().params.ground.is_none(), "the model itself is unchanged");
        live.reset();
        live.bare = true;
        for _ in 0..60 {
            live.advance(&doc, 1.0 / 60.0);
            live.catch_up(&doc);
        }
        assert!(low(&live) < lowest - 1.0, "bare, it falls: {}", low(&live));
    }

    #[test]
    fn a_step_and_moved_anchors_while_paused() {
        let doc = Document::sample(Sample::Cloth);
        let mut live = Live::default();
        live.step_once(&doc);
        live.catch_up(&doc);
        assert!(!live.playing && (live.time().expect("stepped") - 1.0 / 60.0).abs() < 1e-6);
        let anchor = doc.model().anchors[0];
        let before = live.positions().expect("running")[anchor.index()];
        live.move_anchors(&doc, Vec3::X);
        live.step_once(&doc);
        live.catch_up(&doc);
        let after = live.positions().expect("running")[anchor.index()];
        assert!((after - before - Vec3A::X).length() < 1e-5, "{before} -> {after}");
    }
}
