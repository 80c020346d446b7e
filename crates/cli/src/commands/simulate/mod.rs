//! `springmesh simulate FILE`: step a model and report what happened. The run's parts, each
//! in its own file: the parameter overrides (shared with `settle`), the models and their
//! checks, the clock of steps and frames, the animation played on worn models, the outputs
//! written as it goes, and the report.

mod animation;
mod clock;
mod models;
mod outputs;
mod overrides;
mod report;

use animation::Animation;
use clock::Clock;
use models::{bodies, checked};
pub use outputs::save_state;
use outputs::{Drawn, Outputs};
pub use overrides::Overrides;
use report::{Bodies, Body, Ran, Stats};

use crate::output::emit;
use crate::progress;
use anyhow::Result;
use springmesh_core::World;
use springmesh_core::sim::Threads;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

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
