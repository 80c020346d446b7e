//! `springmesh simulate FILE`: step a model and report what happened.

use crate::frames::FrameSet;
use crate::output::emit;
use crate::point_cache::{Layout, PointCache};
use crate::{Usage, input, progress};
use anyhow::{Context, Result};
use glam::{Vec3, Vec3A};
use serde::Serialize;
use springmesh_convert::{Thickness, self_collision};
use springmesh_core::io::AtomicFile;
use springmesh_core::sim::Threads;
use springmesh_core::{CoreError, Integrator, NodeId, Simulation, SpringModel, ValidModel, io};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Integrators by their command-line names.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum IntegratorName {
    /// Semi-implicit Euler: the reference; unstable for stiff springs.
    Explicit,
    /// Semi-implicit Euler with energy-checked, self-halving sub-steps.
    Adaptive,
    /// Springs as compliant constraints in small sub-steps: stable when stiff.
    Xpbd,
}

impl From<IntegratorName> for Integrator {
    fn from(n: IntegratorName) -> Integrator {
        match n {
            IntegratorName::Explicit => Integrator::Explicit,
            IntegratorName::Adaptive => Integrator::Adaptive,
            IntegratorName::Xpbd => Integrator::Xpbd,
        }
    }
}

/// Changes to a model's simulation parameters, shared by `simulate` and `settle`.
#[derive(clap::Args)]
pub struct Overrides {
    /// Integrator [default: the model's].
    #[arg(long, value_enum)]
    integrator: Option<IntegratorName>,
    /// Sub-steps per model time step [default: the model's].
    #[arg(long, value_name = "N")]
    substeps: Option<u32>,
    /// Global velocity damping rate, 1/s (velocities decay as e^(-RATE·t)) [default: the
    /// model's].
    #[arg(long, value_name = "RATE")]
    damping: Option<f32>,
    /// Switch gravity off.
    #[arg(long)]
    no_gravity: bool,
    /// Switch the tethers to the anchors off (for a model meant to stretch far).
    #[arg(long)]
    no_tethers: bool,
    /// Keep the model's layers this far apart (m) [default: the model's thickness, or ¾ of
    /// its mean spring].
    #[arg(long, value_name = "THICKNESS", num_args = 0..=1, conflicts_with = "no_self_collision")]
    self_collision: Option<Option<f32>>,
    /// Switch self-collision off.
    #[arg(long)]
    no_self_collision: bool,
}

impl Overrides {
    /// Applies the overrides to `model`'s parameters.
    pub fn apply(&self, model: &mut ValidModel) -> Result<()> {
        let mut params = model.params.clone();
        let p = &mut params;
        if let Some(i) = self.integrator {
            p.integrator = i.into();
        }
        if let Some(n) = self.substeps {
            if n == 0 || n > springmesh_core::model::MAX_SUBSTEPS {
                return Err(Usage(format!("--substeps {n} must be between 1 and 10000")).into());
            }
            p.substeps = n;
        }
        if let Some(d) = self.damping {
            if !(d.is_finite() && d >= 0.0) {
                return Err(Usage(format!("--damping {d} must be a finite number >= 0")).into());
            }
            p.damping = d;
        }
        if self.no_gravity {
            p.gravity = Vec3::ZERO;
        }
        if self.no_tethers {
            p.tethers = None;
        }
        if let Some(thickness) = self.self_collision {
            // The thickness asked for, or the model's own, or one from its springs.
            p.self_collision = match (thickness, p.self_collision) {
                (None, Some(own)) => Some(own),
                (Some(t), _) => Some(self_collision(model, Thickness::Metres(t))),
                (None, None) => Some(self_collision(model, Thickness::FromEdges)),
            };
        }
        if self.no_self_collision {
            p.self_collision = None;
        }
        model.set_params(params)?;
        Ok(())
    }
}

/// Simulate a model and report energy, speed and timing.
#[derive(clap::Args)]
pub struct Args {
    /// A .spring or .spring.json model (a mesh is converted with default options first).
    file: PathBuf,
    /// Simulated time, s.
    #[arg(long, value_name = "S", default_value_t = 5.0)]
    seconds: f64,
    /// Time step, s: one step of this length per frame [default: the model's dt].
    #[arg(long, value_name = "DT")]
    dt: Option<f32>,
    #[command(flatten)]
    overrides: Overrides,
    /// Split a large model's step between all cores (results are identical).
    #[arg(long)]
    parallel: bool,
    /// Write every step's node positions as CSV (header time,node,x,y,z).
    #[arg(long, value_name = "OUT.csv")]
    trajectory: Option<PathBuf>,
    /// Only these nodes in the trajectory, e.g. 0,5,9 [default: all].
    #[arg(long, value_name = "LIST", value_delimiter = ',', requires = "trajectory")]
    nodes: Option<Vec<u32>>,
    /// Write one OBJ per frame (the drawn surface's faces and uvs) into DIR: frame_00001.obj, ...
    #[arg(long, value_name = "DIR", requires = "fps")]
    frames: Option<PathBuf>,
    /// Write every frame's surface vertices as a PC2 point cache (Blender's Mesh Cache
    /// modifier): the nodes, or a cage model's skin in the mesh's vertex order.
    #[arg(long, value_name = "OUT.pc2", requires = "fps")]
    pc2: Option<PathBuf>,
    /// Write every frame's surface vertices as an MDD point cache.
    #[arg(long, value_name = "OUT.mdd", requires = "fps")]
    mdd: Option<PathBuf>,
    /// Frames per second of --frames, --pc2 and --mdd.
    #[arg(long, value_name = "F")]
    fps: Option<f64>,
    /// Save the final state as a model (positions become the node positions).
    #[arg(long, value_name = "OUT.spring")]
    output: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let mut model = input::model(&args.file)?;
    args.overrides.apply(&mut model)?;
    let dt = args.dt.unwrap_or(model.params.dt);
    let nodes = checked(&args, &model, dt)?;
    let file = args.file.display().to_string();
    let mut sim = Simulation::new(&model);
    if args.parallel {
        sim.set_threads(Threads::All);
    }
    let mut outputs = Outputs::open(&args, &model)?;
    let steps = (args.seconds / f64::from(dt)).round() as u64;
    let bar = progress::bar(steps, "simulating", args.json);
    let mut stats = Stats::default();
    let started = Instant::now();
    let mut failure = None;
    // What a game draws each frame: the surface's positions and normals.
    let (mut surface, mut normals) = (Vec::new(), Vec::new());
    sim.surface(&mut surface, &mut normals);
    for step in 0..=steps {
        outputs.record(&model, &sim, &surface, &nodes)?;
        if step == steps {
            break;
        }
        let t = Instant::now();
        let result = sim.step(dt);
        sim.surface(&mut surface, &mut normals);
        stats.stepping += t.elapsed();
        match result {
            Ok(report) => stats.broken += report.broken.len(),
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
        stats.steps += 1;
        stats.max_speed =
            sim.velocities().iter().map(|v| v.length()).fold(stats.max_speed, f32::max);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let wall = started.elapsed();
    // A failed run writes none of its outputs: existing ones stay as they were (the
    // trajectory's temporary file and the staged frames are dropped uncommitted).
    let frames = if failure.is_none() { outputs.commit(&model, &sim, &args.output)? } else { 0 };
    let ran = Ran::new(file.clone(), dt, &sim, &stats, wall, frames, failure.as_ref());
    let code = emit(&ran, args.json)?;
    match failure {
        Some(e) => Err(anyhow::Error::new(e).context(file)),
        None => Ok(code),
    }
}

/// The run's time step checked with `--seconds`, `--fps` and `--nodes`; the nodes to record.
fn checked(args: &Args, model: &SpringModel, dt: f32) -> Result<Vec<NodeId>> {
    if !(dt.is_finite() && dt > 0.0) {
        return Err(Usage(format!("--dt {dt} must be a finite number > 0")).into());
    }
    if !(args.seconds.is_finite() && args.seconds >= 0.0) {
        return Err(
            Usage(format!("--seconds {} must be a finite number >= 0", args.seconds)).into()
        );
    }
    if let Some(fps) = args.fps
        && !(fps.is_finite() && fps > 0.0)
    {
        return Err(Usage(format!("--fps {fps} must be a finite number > 0")).into());
    }
    let Some(list) = &args.nodes else {
        return Ok((0..model.nodes.len()).map(NodeId::from_index).collect());
    };
    if let Some(&bad) = list.iter().find(|&&n| n as usize >= model.nodes.len()) {
        let nodes = model.nodes.len();
        return Err(
            Usage(format!("--nodes: node {bad} does not exist (the model has {nodes})")).into()
        );
    }
    Ok(list.iter().map(|&n| NodeId(n)).collect())
}

/// What a run writes as it goes: the trajectory, OBJ frames and point caches, each staged
/// until the run ends well.
struct Outputs {
    trajectory: Option<(PathBuf, AtomicFile)>,
    frames: Option<FrameSet>,
    caches: Vec<PointCache>,
    fps: Option<f64>,
}

impl Outputs {
    fn open(args: &Args, model: &SpringModel) -> Result<Outputs> {
        let trajectory = match &args.trajectory {
            Some(path) => {
                let mut f = AtomicFile::create(path)?;
                writeln!(f, "time,node,x,y,z").with_context(|| path.display().to_string())?;
                Some((path.clone(), f))
            }
            None => None,
        };
        let frames = args.frames.as_ref().map(|dir| FrameSet::create(dir)).transpose()?;
        let vertices = model.surface_vertex_count();
        let caches = [(&args.pc2, Layout::Pc2), (&args.mdd, Layout::Mdd)]
            .into_iter()
            .filter_map(|(path, layout)| {
                Some(PointCache::new(path.as_ref()?, layout, vertices, args.fps?))
            })
            .collect();
        Ok(Outputs { trajectory, frames, caches, fps: args.fps })
    }

    /// Records the state of `sim` (its drawn `surface`) where it is due.
    fn record(
        &mut self,
        model: &SpringModel,
        sim: &Simulation,
        surface: &[Vec3],
        nodes: &[NodeId],
    ) -> Result<()> {
        if let Some((path, f)) = &mut self.trajectory {
            record(f, sim, nodes).with_context(|| path.display().to_string())?;
        }
        if let (Some(set), Some(fps)) = (&mut self.frames, self.fps) {
            while (set.count() as f64) / fps <= sim.time() + 1e-9 {
                set.write(model, surface, sim.time())?;
            }
        }
        for cache in &mut self.caches {
            while (cache.frames() as f64) / cache.fps() <= sim.time() + 1e-9 {
                cache.push(sim.time(), surface);
            }
        }
        Ok(())
    }

    /// Writes everything of a run that ended well, and the state to `output`; returns the
    /// frames written.
    fn commit(
        self,
        model: &SpringModel,
        sim: &Simulation,
        output: &Option<PathBuf>,
    ) -> Result<usize> {
        let frames = self.frames.as_ref().map_or(0, FrameSet::count);
        if let Some((_, f)) = self.trajectory {
            f.commit()?;
        }
        if let Some(set) = self.frames {
            set.commit()?;
        }
        for cache in &self.caches {
            cache.write()?;
        }
        if let Some(path) = output {
            save_state(model, sim.positions(), path)?;
        }
        Ok(frames)
    }
}

/// Counters of a run.
#[derive(Default)]
struct Stats {
    steps: u64,
    stepping: Duration,
    broken: usize,
    max_speed: f32,
}

/// What `simulate` did (the JSON fields of docs/cli.md).
#[derive(Serialize)]
struct Ran {
    steps: u64,
    sim_seconds: f64,
    wall_seconds: f64,
    step_wall_seconds: f64,
    finite: bool,
    kinetic_energy: f64,
    elastic_energy: f64,
    gravitational_energy: f64,
    gas_energy: f64,
    enclosed_volume: Option<f32>,
    broken_springs: usize,
    max_speed: f32,
    frames: usize,
    error: Option<String>,
    #[serde(skip)]
    file: String,
    #[serde(skip)]
    dt: f32,
}

impl Ran {
    fn new(
        file: String,
        dt: f32,
        sim: &Simulation,
        stats: &Stats,
        wall: Duration,
        frames: usize,
        failure: Option<&CoreError>,
    ) -> Ran {
        let e = sim.energy();
        Ran {
            steps: stats.steps,
            sim_seconds: sim.time(),
            wall_seconds: wall.as_secs_f64(),
            step_wall_seconds: stats.stepping.as_secs_f64(),
            finite: failure.is_none(),
            kinetic_energy: e.kinetic,
            elastic_energy: e.elastic,
            gravitational_energy: e.gravitational,
            gas_energy: e.gas,
            enclosed_volume: sim.enclosed_volume().ok(),
            broken_springs: stats.broken,
            max_speed: stats.max_speed,
            frames,
            error: failure.map(|e| e.to_string()),
            file,
            dt,
        }
    }
}

impl fmt::Display for Ran {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} steps of {} s ({:.3} s simulated) in {:.3} s, {:.3} s of it stepping ({:.1} µs per step)",
            self.file,
            self.steps,
            self.dt,
            self.sim_seconds,
            self.wall_seconds,
            self.step_wall_seconds,
            self.step_wall_seconds * 1e6 / self.steps.max(1) as f64
        )?;
        writeln!(
            f,
            "  energy: kinetic {:.6} J, elastic {:.6} J, gravitational {:.6} J, gas {:.6} J; fastest node {:.3} m/s; {} springs broke",
            self.kinetic_energy,
            self.elastic_energy,
            self.gravitational_energy,
            self.gas_energy,
            self.max_speed,
            self.broken_springs
        )?;
        if let Some(volume) = self.enclosed_volume {
            writeln!(f, "  enclosed volume {volume:.6} m³")?;
        }
        if self.frames > 0 {
            writeln!(f, "  {} frames written", self.frames)?;
        }
        Ok(())
    }
}

/// Appends the positions of `nodes` at the current time to the trajectory.
fn record(f: &mut impl Write, sim: &Simulation, nodes: &[NodeId]) -> std::io::Result<()> {
    let p = sim.positions();
    for n in nodes {
        let v = p[n.index()];
        writeln!(f, "{:.6},{},{},{},{}", sim.time(), n.0, v.x, v.y, v.z)?;
    }
    Ok(())
}

/// Saves `model` with `positions` as its node positions (rest lengths unchanged; a skin's
/// vertices where the cage now carries them).
pub fn save_state(model: &SpringModel, positions: &[Vec3A], path: &Path) -> Result<()> {
    let mut state = model.clone();
    for (p, q) in state.nodes.positions_mut().iter_mut().zip(positions) {
        *p = Vec3::from(*q);
    }
    if let Some(skin) = &mut state.skin {
        let mut carried = Vec::new();
        skin.deform(positions, &mut carried);
        skin.positions_mut().copy_from_slice(&carried);
    }
    io::save(&ValidModel::new(state)?, path)?;
    Ok(())
}
