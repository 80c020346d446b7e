//! `springmesh simulate FILE`: step a model and report what happened.

use crate::collider::ColliderArg;
use crate::frames::FrameSet;
use crate::output::emit;
use crate::point_cache::{Layout, PointCache};
use crate::{Usage, input, progress};
use anyhow::{Context, Result};
use glam::{Mat4, Vec3, Vec3A};
use serde::Serialize;
use springmesh_convert::import::animation::Clip;
use springmesh_convert::{ConvertOptions, Thickness, self_collision};
use springmesh_core::io::AtomicFile;
use springmesh_core::sim::Threads;
use springmesh_core::{
    CoreError, Integrator, NodeId, Simulation, SpringModel, ValidModel, World, io,
};
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
    /// Keep the model's layers this far apart (m) [default: the model's thickness, or 0.9 of
    /// its mean spring].
    #[arg(long, value_name = "THICKNESS", num_args = 0..=1, conflicts_with = "no_self_collision")]
    self_collision: Option<Option<f32>>,
    /// Switch self-collision off.
    #[arg(long)]
    no_self_collision: bool,
    /// Add a collider: sphere:X,Y,Z,R, capsule:AX,AY,AZ,BX,BY,BZ,R, box:X,Y,Z,HX,HY,HZ
    /// (axis-aligned, half sizes) or plane:X,Y,Z,NX,NY,NZ, in metres (repeatable).
    #[arg(long, value_name = "SHAPE")]
    collider: Vec<ColliderArg>,
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
        p.colliders.extend(self.collider.iter().map(|c| c.0));
        model.set_params(params)?;
        Ok(())
    }
}

/// Simulate a model and report energy, speed and timing.
#[derive(clap::Args)]
pub struct Args {
    /// A .spring or .spring.json model (a mesh is converted with default options first);
    /// several are put in one world, where they collide with each other, under the first's
    /// gravity, ground, colliders and air.
    #[arg(required = true, num_args = 1..)]
    files: Vec<PathBuf>,
    /// Simulated time, s.
    #[arg(long, value_name = "S", default_value_t = 5.0)]
    seconds: f64,
    /// Time step, s: one step of this length per frame [default: the model's dt]; with --fps,
    /// the longest step (each 1/F s frame cut into equal steps, so frames fall on k/F s).
    #[arg(long, value_name = "DT")]
    dt: Option<f32>,
    #[command(flatten)]
    overrides: Overrides,
    /// Split a large model's step between all cores (results are identical).
    #[arg(long)]
    parallel: bool,
    /// Play an animation of this glTF file (--clip) on the skeleton a model is worn on: each
    /// frame the joints, matched by name, are posed at that frame's end (the last pose is held
    /// after the clip ends).
    #[arg(long, value_name = "FILE.glb", requires = "clip")]
    animation: Option<PathBuf>,
    /// The animation's name in --animation's file.
    #[arg(long, value_name = "NAME", requires = "animation")]
    clip: Option<String>,
    /// Play the clip in a loop instead of holding its last pose: at each wrap the character
    /// jumps back to the first pose and the cloth is carried with it (a teleport).
    #[arg(long = "loop", requires = "animation")]
    looping: bool,
    /// The clip's time when the run starts, s: the cloth starts at rest on the clip's pose
    /// there (Blender's frame F of a scene at R fps is at F/R s of the clip it exports).
    #[arg(long, value_name = "S", default_value_t = 0.0, requires = "animation")]
    clip_start: f64,
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
    /// Frames per second of --frames, --pc2 and --mdd: frame k is the state at exactly k/F s.
    #[arg(long, value_name = "F")]
    fps: Option<f64>,
    /// Save the final state as a model (positions become the node positions).
    #[arg(long, value_name = "OUT.spring")]
    output: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Print `progress K/N` on a line of its own to stderr after each of the N steps, for a
    /// tool that runs simulate and shows how far it is (the Blender add-on).
    #[arg(long)]
    progress: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let models = bodies(&args)?;
    let dt = args.dt.unwrap_or(models[0].params.dt);
    let nodes = checked(&args, &models, dt)?;
    let mut world = World::new();
    for model in &models {
        world.add(model);
    }
    for overlap in world.overlaps() {
        let (a, b) = overlap.bodies;
        eprintln!(
            "warning: {} and {} start overlapping ({} pairs of surface points within their contact distance): the first step pushes them apart at once; place them apart",
            args.files[a].display(),
            args.files[b].display(),
            overlap.points
        );
    }
    if args.parallel {
        world.set_threads(Threads::All);
        if let Some(only) = world.body_mut(0).filter(|_| models.len() == 1) {
            only.set_threads(Threads::All);
        }
    }
    let animation = match (&args.animation, &args.clip) {
        (Some(file), Some(clip)) => {
            let played = (args.looping, args.clip_start);
            Some(Animation::open(file, clip, &models, played)?)
        }
        _ => None,
    };
    let mut outputs = Outputs::open(&args, &models)?;
    let clock = Clock::new(args.seconds, dt, args.fps);
    let steps = clock.steps;
    if let Some(animation) = &animation {
        animation.start(&mut world)?;
    }
    let bar = progress::bar(steps, "simulating", args.json);
    let mut stats = Stats { bodies: vec![Body::default(); models.len()], ..Stats::default() };
    let started = Instant::now();
    let mut failure = None;
    // What a game draws each frame: the surfaces' positions and normals.
    let mut surfaces: Vec<Drawn> = vec![(Vec::new(), Vec::new()); models.len()];
    let draw = |world: &World, surfaces: &mut Vec<Drawn>| {
        for (body, (surface, normals)) in world.bodies().iter().zip(surfaces.iter_mut()) {
            body.surface(surface, normals);
        }
    };
    draw(&world, &mut surfaces);
    for step in 0..=steps {
        outputs.record(&models, (&world, &surfaces), (&nodes, clock.time(step)))?;
        if step == steps {
            break;
        }
        let t = Instant::now();
        if let Some(animation) = &animation {
            animation.pose(&mut world, clock.time(step), clock.time(step + 1))?;
        }
        let result = world.step(clock.step);
        draw(&world, &mut surfaces);
        stats.stepping += t.elapsed();
        match result {
            Ok(report) => {
                for ((body, step), sim) in
                    stats.bodies.iter_mut().zip(report.bodies).zip(world.bodies())
                {
                    body.broken += step.broken.len();
                    body.max_speed =
                        sim.velocities().iter().map(|v| v.length()).fold(body.max_speed, f32::max);
                }
            }
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
        stats.steps += 1;
        bar.inc(1);
        if args.progress {
            eprintln!("progress {}/{steps}", step + 1);
        }
    }
    bar.finish_and_clear();
    let wall = started.elapsed();
    // A failed run writes none of its outputs: existing ones stay as they were (the
    // trajectory's temporary file and the staged frames are dropped uncommitted).
    let frames =
        if failure.is_none() { outputs.commit(&models, &world, &args.output)? } else { 0 };
    let mut ran = models.iter().enumerate().map(|(i, _)| {
        let file = args.files[i].display().to_string();
        let at = (clock.step, wall, frames);
        Ran::new(file, at, (&world.bodies()[i], &stats, &stats.bodies[i]), failure.as_ref())
    });
    let code = match (ran.next(), models.len()) {
        (Some(only), 1) => emit(&only, args.json)?,
        (first, _) => emit(&Bodies { bodies: first.into_iter().chain(ran).collect() }, args.json)?,
    };
    match failure {
        Some(e) => Err(anyhow::Error::new(e).context(args.files[0].display().to_string())),
        None => Ok(code),
    }
}

/// The models of the run's files, with the overrides, the second and later under the
/// first's gravity, ground, colliders and air.
fn bodies(args: &Args) -> Result<Vec<ValidModel>> {
    let mut models = Vec::with_capacity(args.files.len());
    for file in &args.files {
        let mut model = input::model(file)?;
        args.overrides.apply(&mut model)?;
        if let Some(first) = models.first() {
            let first: &ValidModel = first;
            let mut params = model.params.clone();
            params.gravity = first.params.gravity;
            params.ground = first.params.ground;
            params.colliders = first.params.colliders.clone();
            params.air = first.params.air;
            model.set_params(params).with_context(|| file.display().to_string())?;
        }
        models.push(model);
    }
    Ok(models)
}

/// The run's time step checked with `--seconds`, `--fps` and `--nodes`, and the outputs of
/// one model refused with several; the nodes to record.
fn checked(args: &Args, models: &[ValidModel], dt: f32) -> Result<Vec<NodeId>> {
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
    if !args.clip_start.is_finite() {
        return Err(
            Usage(format!("--clip-start {} must be a finite number", args.clip_start)).into()
        );
    }
    if models.len() > 1 && (args.trajectory.is_some() || args.output.is_some()) {
        return Err(Usage(
            "--trajectory and --output take one model; with several, use --pc2, --mdd or --frames"
                .into(),
        )
        .into());
    }
    let model = &models[0];
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

/// A body's drawn surface: its vertices' positions and normals.
type Drawn = (Vec<Vec3>, Vec<Vec3>);

/// What a run writes as it goes: the trajectory, OBJ frames and point caches, each staged
/// until the run ends well.
struct Outputs {
    trajectory: Option<(PathBuf, AtomicFile)>,
    frames: Option<FrameSet>,
    caches: Vec<PointCache>,
    fps: Option<f64>,
    /// Scratch: every body's surface, one after another (what the point caches hold).
    all: Vec<Vec3>,
}

impl Outputs {
    fn open(args: &Args, models: &[ValidModel]) -> Result<Outputs> {
        let trajectory = match &args.trajectory {
            Some(path) => {
                let mut f = AtomicFile::create(path)?;
                writeln!(f, "time,node,x,y,z").with_context(|| path.display().to_string())?;
                Some((path.clone(), f))
            }
            None => None,
        };
        let frames = args.frames.as_ref().map(|dir| FrameSet::create(dir)).transpose()?;
        let vertices = models.iter().map(|m| m.surface_vertex_count()).sum();
        let caches = [(&args.pc2, Layout::Pc2), (&args.mdd, Layout::Mdd)]
            .into_iter()
            .filter_map(|(path, layout)| {
                Some(PointCache::new(path.as_ref()?, layout, vertices, args.fps?))
            })
            .collect();
        Ok(Outputs { trajectory, frames, caches, fps: args.fps, all: Vec::new() })
    }

    /// Records the state of the world's bodies (their drawn `surfaces`, in the order of
    /// `models`) at `time` (s) where it is due; the trajectory is of the first body.
    fn record(
        &mut self,
        models: &[ValidModel],
        (world, surfaces): (&World, &[Drawn]),
        (nodes, time): (&[NodeId], f64),
    ) -> Result<()> {
        if let (Some((path, f)), Some(first)) = (&mut self.trajectory, world.bodies().first()) {
            record(f, first, nodes).with_context(|| path.display().to_string())?;
        }
        if let (Some(set), Some(fps)) = (&mut self.frames, self.fps) {
            let bodies: Vec<(&SpringModel, &[Vec3])> =
                models.iter().zip(surfaces).map(|(m, (s, _))| (&**m, &s[..])).collect();
            while (set.count() as f64) / fps <= time + 1e-9 {
                set.write(&bodies, time)?;
            }
        }
        self.all.clear();
        self.all.extend(surfaces.iter().flat_map(|(s, _)| s.iter().copied()));
        for cache in &mut self.caches {
            while (cache.frames() as f64) / cache.fps() <= time + 1e-9 {
                cache.push(time, &self.all);
            }
        }
        Ok(())
    }

    /// Writes everything of a run that ended well, and the first body's state to `output`;
    /// returns the frames written.
    fn commit(
        self,
        models: &[ValidModel],
        world: &World,
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
        if let (Some(path), Some(model), Some(sim)) =
            (output, models.first(), world.bodies().first())
        {
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
    bodies: Vec<Body>,
}

/// Counters of one body of a run.
#[derive(Clone, Default)]
struct Body {
    broken: usize,
    max_speed: f32,
}

/// What `simulate` did with several bodies: each body's figures, in the order given.
#[derive(Serialize)]
struct Bodies {
    bodies: Vec<Ran>,
}

impl fmt::Display for Bodies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.bodies.iter().try_for_each(|ran| write!(f, "{ran}"))
    }
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
        (dt, wall, frames): (f32, Duration, usize),
        (sim, stats, body): (&Simulation, &Stats, &Body),
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
            broken_springs: body.broken,
            max_speed: body.max_speed,
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

/// A clip played on the bodies that are worn on a skeleton.
struct Animation {
    clip: Clip,
    /// The glTF file it was read from.
    file: PathBuf,
    /// Per body with a rig, its joints' names in the rig's order and the scale it was
    /// converted at.
    joints: Vec<(usize, Vec<String>, f32)>,
    /// Played in a loop (`--loop`), or holding its last pose.
    looping: bool,
    /// The clip's time at the run's start (s; `--clip-start`).
    start: f64,
}

impl Animation {
    /// The clip `name` of the glTF file `file`, to play on `world`'s rigged bodies; an error
    /// when none has a rig or a joint is missing from the file.
    fn open(
        file: &Path,
        name: &str,
        models: &[ValidModel],
        (looping, start): (bool, f64),
    ) -> Result<Animation> {
        let bytes = io::read_file(file)?;
        let clip = Clip::read(file, &bytes, name)?;
        for note in &clip.notes {
            eprintln!("warning: {}: {note}", file.display());
        }
        let joints: Vec<(usize, Vec<String>, f32)> = models
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                let names = m.rig.as_ref()?.joints.iter().map(|j| j.name.clone()).collect();
                Some((i, names, ConvertOptions::scale_of(m)))
            })
            .collect();
        if joints.is_empty() {
            let why =
                "--animation: no model is worn on a skeleton (convert a skinned mesh with --mesh)";
            return Err(Usage(why.to_string()).into());
        }
        let animation = Animation { clip, file: file.to_path_buf(), joints, looping, start };
        for (_, names, _) in &animation.joints {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            animation.clip.pose(0.0, &names).map_err(|joint| {
                anyhow::anyhow!(
                    "{}: no joint called \"{joint}\" for the model's skeleton",
                    file.display()
                )
            })?;
        }
        Ok(animation)
    }

    /// The error of a pose the clip gives at time `t` for the joints `names` that the
    /// simulation refused: the clip, the time and the joint named.
    fn refused(&self, e: CoreError, t: f32, names: &[&str]) -> anyhow::Error {
        let joint = match e {
            CoreError::NonFinitePose { joint } | CoreError::PoseOutOfBounds { joint, .. } => {
                names.get(joint).map(|n| format!(" (joint {joint} is \"{n}\")"))
            }
            _ => None,
        };
        let joint = joint.unwrap_or_default();
        anyhow::anyhow!(
            "{}: clip \"{}\" at {t:.3} s: {e}{joint}",
            self.file.display(),
            self.clip.name
        )
    }

    /// Puts every rigged body of `world` at rest on the clip's pose at the run's start, before
    /// its first frame: the cloth starts on the character as the clip does.
    fn start(&self, world: &mut World) -> Result<()> {
        let t = if self.looping { self.clip.looped(self.start) } else { self.start as f32 };
        self.each(world, t, |body, pose| body.reset(pose))
    }

    /// Poses every rigged body of `world` for a step from simulated time `now` to `next` (s,
    /// from the run's start, which is `--clip-start` into the clip): at the clip's time at its end, the clip looped or held at its end; a wrap of a looped
    /// clip within the step is a teleport.
    fn pose(&self, world: &mut World, now: f64, next: f64) -> Result<()> {
        let (now, next) = (now + self.start, next + self.start);
        let (t, wraps) = if self.looping {
            (self.clip.looped(next), self.clip.wraps(now, next))
        } else {
            (next as f32, false)
        };
        self.each(
            world,
            t,
            |body, pose| {
                if wraps { body.teleport(pose) } else { body.set_pose(pose).map(drop) }
            },
        )
    }

    /// Applies `posed` to every rigged body of `world` with the clip's pose at time `t`.
    fn each(
        &self,
        world: &mut World,
        t: f32,
        posed: impl Fn(&mut Simulation, &[Mat4]) -> Result<(), CoreError>,
    ) -> Result<()> {
        for (i, names, scale) in &self.joints {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let pose = self.clip.pose_scaled(t, &names, *scale);
            let pose = pose.map_err(|j| anyhow::anyhow!("no joint {j}"))?;
            if let Some(body) = world.body_mut(*i) {
                posed(body, &pose).map_err(|e| self.refused(e, t, &names))?;
            }
        }
        Ok(())
    }
}

/// The run's steps. With `--fps F`, each frame's 1/F s is cut into the fewest equal steps
/// no longer than `--dt`, so that the frame times k/F are steps' ends and the caches sample
/// the run, and the clip poses it, at exactly those times (a 24 fps run of a 60 Hz model
/// takes three steps of 1/72 s a frame; at 60 fps one of 1/60 s, as without `--fps`); the
/// run lasts the whole frames nearest `--seconds`. Without, steps of `--dt`.
struct Clock {
    /// The steps' length (s) and how many the run takes.
    step: f32,
    steps: u64,
    /// Steps per second, exactly as the times are worked out.
    rate: f64,
}

impl Clock {
    fn new(seconds: f64, dt: f32, fps: Option<f64>) -> Clock {
        let dt = f64::from(dt);
        let (rate, steps) = match fps {
            Some(fps) => {
                let per_frame = (1.0 / (fps * dt) * (1.0 - 1e-9)).ceil().max(1.0);
                (fps * per_frame, (seconds * fps).round() * per_frame)
            }
            None => (1.0 / dt, (seconds / dt).round()),
        };
        Clock { step: (1.0 / rate) as f32, steps: steps as u64, rate }
    }

    /// The simulated time at the end of step `k` (s; 0 before the first).
    fn time(&self, k: u64) -> f64 {
        k as f64 / self.rate
    }
}
