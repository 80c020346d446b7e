//! The thread that steps the live simulation, so that a frame of the window never waits for a
//! step: a 100,000-spring model takes ~45 ms a step here, three frames' worth.
//!
//! The window and the thread share two small mailboxes. Orders go one way: simulated time
//! owed to the clock, single steps, new parameters, anchor moves, quit. The state goes the
//! other: after every step the thread publishes the positions, the time, the energy, the
//! springs that broke and any error; the window copies them when it draws.

use super::playback::Playback;
use glam::{Mat4, Vec3, Vec3A};
use springmesh_core::sim::Threads;
use springmesh_core::{ForceField, NodeId, SimParams, Simulation, SpringId};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

/// Owed time within this (s) of a step counts as a step: two frames of 1/60 s owe two steps
/// of 1/60 s whatever the rounding.
const SLACK: f64 = 1e-6;

/// What the window asks of the thread.
#[derive(Default)]
struct Orders {
    /// Simulated seconds owed to the clock while playing.
    owed: f64,
    /// Single steps asked for (Step).
    single: u32,
    /// Parameters to take before the next step.
    params: Option<SimParams>,
    /// Anchors to move, and by how much (m).
    moves: Vec<(Vec<NodeId>, Vec3)>,
    /// A step is being taken.
    stepping: bool,
    /// Stop and end the thread.
    quit: bool,
}

impl Orders {
    /// True when there is something to do for a simulation stepping by `dt` seconds.
    fn has_work(&self, dt: f64) -> bool {
        self.single > 0
            || self.owed + SLACK >= dt
            || self.params.is_some()
            || !self.moves.is_empty()
    }
}

/// What the thread last published.
#[derive(Clone, Debug, Default)]
pub(super) struct Published {
    /// Steps taken so far: changes with every publication.
    pub steps: u64,
    /// Node positions (m).
    pub positions: Vec<Vec3A>,
    /// Simulated time (s).
    pub time: f64,
    /// Kinetic and elastic energy (J).
    pub energy: [f64; 2],
    /// Springs that broke since the window last took them.
    pub broken: Vec<SpringId>,
    /// Why the last step failed; the thread takes no more steps after one.
    pub error: Option<String>,
    /// Wall time of the last step (ms).
    pub step_ms: f32,
    /// The joints' world matrices the last step ended at, when a clip plays.
    pub pose: Vec<Mat4>,
}

struct Shared {
    orders: Mutex<Orders>,
    wake: Condvar,
    published: Mutex<Published>,
}

/// Locks `m`, recovering the data if another thread panicked while holding it.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The running simulation's thread, seen from the window.
pub(super) struct Runner {
    shared: Arc<Shared>,
    /// The model's time step (s).
    dt: f64,
}

impl Runner {
    /// Starts a thread stepping `sim` (with `field` added) in steps of `dt` seconds, posing
    /// it by `playback` before each step when a clip plays.
    pub fn start(
        mut sim: Simulation,
        field: Arc<dyn ForceField>,
        threads: Threads,
        playback: Option<Playback>,
    ) -> Runner {
        sim.add_force_field(field);
        sim.set_threads(threads);
        let dt = f64::from(sim.params().dt);
        let first = Published {
            positions: sim.positions().to_vec(),
            time: sim.time(),
            ..Published::default()
        };
        let shared = Arc::new(Shared {
            orders: Mutex::new(Orders::default()),
            wake: Condvar::new(),
            published: Mutex::new(first),
        });
        let theirs = shared.clone();
        std::thread::spawn(move || run(sim, &theirs, playback.as_ref()));
        Runner { shared, dt }
    }

    /// Owes `seconds` more of simulated time, unless more than `limit` seconds are owed
    /// already; returns false then (the thread cannot keep up with the clock).
    pub fn owe(&self, seconds: f64, limit: f64) -> bool {
        let mut orders = lock(&self.shared.orders);
        if orders.owed > limit {
            return false;
        }
        orders.owed += seconds;
        drop(orders);
        self.shared.wake.notify_one();
        true
    }

    /// Forgets the time owed (on pause).
    pub fn forgive(&self) {
        lock(&self.shared.orders).owed = 0.0;
    }

    /// Asks for one step.
    pub fn single(&self) {
        lock(&self.shared.orders).single += 1;
        self.shared.wake.notify_one();
    }

    /// Hands new parameters to the simulation.
    pub fn set_params(&mut self, params: SimParams) {
        self.dt = f64::from(params.dt);
        lock(&self.shared.orders).params = Some(params);
        self.shared.wake.notify_one();
    }

    /// Moves anchors `nodes` by `offset` (m).
    pub fn move_anchors(&self, nodes: Vec<NodeId>, offset: Vec3) {
        lock(&self.shared.orders).moves.push((nodes, offset));
        self.shared.wake.notify_one();
    }

    /// True while the thread has work to do or is doing it.
    pub fn busy(&self) -> bool {
        let orders = lock(&self.shared.orders);
        orders.stepping || orders.has_work(self.dt)
    }

    /// The publication, when it is newer than step `seen` or reports an error; the broken
    /// springs and the error it carries are handed over only once.
    pub fn take_newer(&self, seen: u64) -> Option<Published> {
        let mut published = lock(&self.shared.published);
        (published.steps != seen || published.error.is_some()).then(|| {
            let out = published.clone();
            published.broken.clear();
            published.error = None;
            out
        })
    }
}

impl Drop for Runner {
    /// Ends the thread after the step it may be taking.
    fn drop(&mut self) {
        lock(&self.shared.orders).quit = true;
        self.shared.wake.notify_one();
    }
}

/// The thread: waits for orders, poses, steps, publishes.
fn run(mut sim: Simulation, shared: &Shared, playback: Option<&Playback>) {
    loop {
        let (params, moves) = {
            let mut orders = lock(&shared.orders);
            loop {
                if orders.quit || orders.has_work(f64::from(sim.params().dt)) {
                    break;
                }
                orders =
                    shared.wake.wait(orders).unwrap_or_else(std::sync::PoisonError::into_inner);
            }
            if orders.quit {
                return;
            }
            orders.stepping = true;
            (orders.params.take(), std::mem::take(&mut orders.moves))
        };
        if let Some(params) = params {
            *sim.params_mut() = params;
        }
        for (nodes, offset) in moves {
            for n in nodes {
                if let Some(p) = sim.anchor_position(n) {
                    // n is an anchor (anchor_position said so): this cannot fail.
                    let _ = sim.set_anchor_position(n, p + offset);
                }
            }
        }
        let dt = sim.params().dt;
        let due = {
            let mut orders = lock(&shared.orders);
            let due = if orders.single > 0 {
                orders.single -= 1;
                true
            } else if orders.owed + SLACK >= f64::from(dt) {
                orders.owed = (orders.owed - f64::from(dt)).max(0.0);
                true
            } else {
                false
            };
            orders.stepping = due;
            due
        };
        if !due {
            continue;
        }
        let started = Instant::now();
        let (now, next) = (sim.time(), sim.time() + f64::from(dt));
        let pose = match playback.map(|p| (p.pose(next), p.wraps(now, next))) {
            Some((Ok(pose), true)) => sim.teleport(&pose).map(|()| pose).map_err(|e| e.to_string()),
            Some((Ok(pose), false)) => sim.set_pose(&pose).map(|_| pose).map_err(|e| e.to_string()),
            Some((Err(e), _)) => Err(e),
            None => Ok(Vec::new()),
        };
        let outcome = match &pose {
            Ok(_) => sim.step(dt).map_err(|e| e.to_string()),
            Err(e) => Err(e.clone()),
        };
        let step_ms = started.elapsed().as_secs_f32() * 1e3;
        let energy = sim.energy();
        let failed = outcome.is_err();
        {
            let mut p = lock(&shared.published);
            match outcome {
                Ok(report) => p.broken.extend(report.broken),
                Err(e) => p.error = Some(e),
            }
            if let Ok(pose) = pose {
                p.pose = pose;
            }
            p.steps += 1;
            p.positions.clear();
            p.positions.extend_from_slice(sim.positions());
            p.time = sim.time();
            p.energy = [energy.kinetic, energy.elastic];
            p.step_ms = step_ms;
        }
        lock(&shared.orders).stepping = false;
        if failed {
            // The state was left as before the step; nothing more to do until a reset.
            return;
        }
    }
}
