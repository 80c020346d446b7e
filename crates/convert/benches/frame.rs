//! What users run: a mesh converted with the default options (damped stretch and bend
//! springs, default masses and parameters: Xpbd, 16 sub-steps, tethers on, no anchors here),
//! resting on the ground after three seconds of settling (printed: the share of its height it
//! keeps there after one, and over the next two, the quality the frame buys); one 60 Hz frame.
//!
//! - `frame/sphere_3k`: a 2,927-vertex sphere 1 m across (17,550 springs), the size of a
//!   converted cow (issue 13: ≤ 4.0 ms a frame on one thread, scaled by the machine).
//! - `frame/sphere_38k`: a 37,802-vertex sphere (226,800 springs), the size of a detailed scan
//!   (issue 13: ≤ 33 ms on two threads); `frame/sphere_38k_parallel` with [`Threads::All`]
//!   (rayon's pool; `RAYON_NUM_THREADS` sets its size), which must never be slower.
//!
//! - `frame/strip_pile`, `frame/strip_pile_self_collision`: the 1.6 × 0.3 m strip of 2.5 cm
//!   cells (845 nodes, 4,608 springs) of `tests/self_collision.rs`, dropped on its end and
//!   folded into a pile on the ground (3 s), without and with self-collision (each its own
//!   pile; issue 40: with ≤ 2× without). Before them it prints the two timed in turns
//!   (`strip_piles_in_turns`), the figure to hold that ratio to, and the same for a coarser
//!   strip of 3.5 cm cells (470 nodes; issue 63: ≤ 2× on any cloth, fine or coarse).
//!
//! - `frame/worn_cape`: the cape of the Blender-made figure (`assets/characters/hero.glb`,
//!   187 nodes, 960 springs; `--mesh Cape --self-collision`, its body as three capsules) worn
//!   while the figure walks, stops and turns: a frame is everything a game pays — the pose
//!   sampled from the clip and set (skinning the kinematic nodes, moving the body's capsules),
//!   the step with self-collision, and the drawn surface's positions and normals (issue 41:
//!   ≤ 0.5 ms on one thread).
//! - `frame/figure_cape`, `frame/figure_skirt`: the same for the humanoid figure with arms and
//!   legs (`walker.glb`'s cape, 234 nodes, on its walk, run, stop and turn; `dancer.glb`'s
//!   skirt, 336 nodes, on its legs spread and its jump (`Leap`); 17 capsules of body; issue 63: the cape ≤ 0.25 ms,
//!   the skirt ≤ 0.3 ms on one thread, scaled by the machine's `naive` figure);
//!   `frame/figure_cape_without_self_collision` the cape without self-collision (issue 63:
//!   self-collision ≤ 2× the frame without it on any cloth).
//! - `frame/crowd_32_capes`: 32 of the figure's capes at different times of its walk, each its
//!   own simulation on one thread, all of them a frame on every core (issue 63: ≤ 5 ms on two
//!   cores).
//!
//! Run with `cargo bench -p springmesh-convert --bench frame`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Bench code.

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use springmesh_convert::import::animation::Clip;
use springmesh_convert::samples::pile::{WINDOW, windowed};
use springmesh_convert::{ConvertOptions, RawMesh, Thickness, convert_file, convert_mesh, shapes};
use springmesh_core::model::Ground;
use springmesh_core::sim::Threads;
use springmesh_core::{Simulation, ValidModel};
use std::path::Path;
use std::time::Duration;

/// `mesh` converted with the defaults, on a ground just under it, after three seconds of
/// settling.
fn resting(mesh: RawMesh, threads: Threads) -> (Simulation, f32) {
    let mut model = convert_mesh(mesh, &ConvertOptions::default(), Path::new("bench.obj"))
        .expect("converts")
        .model
        .into_inner();
    model.params.ground = Some(Ground { height: model.ground_under(), ..Ground::default() });
    let mut sim = Simulation::new(&ValidModel::new(model.clone()).expect("valid"));
    sim.set_threads(threads);
    // What the frame buys: how much of its height the converted surface keeps on the ground,
    // after a second and over the two that follow (it still bounces: a second's figure alone
    // depends on the phase).
    let height = |ys: &mut dyn Iterator<Item = f32>| {
        let (lo, hi) = ys.fold((f32::MAX, f32::MIN), |(lo, hi), y| (lo.min(y), hi.max(y)));
        hi - lo
    };
    let rest = height(&mut model.nodes.positions().iter().map(|p| p.y));
    let mut kept = Vec::new();
    for _ in 0..180 {
        sim.step(model.params.dt).expect("finite");
        kept.push(100.0 * height(&mut sim.positions().iter().map(|p| p.y)) / rest);
    }
    let later = &kept[60..];
    let (lo, hi) = later.iter().fold((f32::MAX, f32::MIN), |(lo, hi), &k| (lo.min(k), hi.max(k)));
    println!(
        "{} nodes, {} springs; on the ground it keeps {:.1}% of its height after 1 s, \
         {lo:.1}–{hi:.1}% (mean {:.1}%) over the next 2 s",
        model.nodes.len(),
        model.springs.len(),
        kept[59],
        later.iter().sum::<f32>() / later.len() as f32
    );
    (sim, model.params.dt)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("frame");
    group.sample_size(20);
    let cases = [
        ("sphere_3k", (40, 75), Threads::One),
        ("sphere_38k", (140, 271), Threads::One),
        ("sphere_38k_parallel", (140, 271), Threads::All),
    ];
    for (name, (rings, segments), threads) in cases {
        let mesh = shapes::sphere(Vec3::new(0.0, 0.5, 0.0), 0.5, rings, segments);
        let (mut sim, dt) = resting(mesh, threads);
        group.bench_function(name, |b| b.iter(|| sim.step(dt).expect("finite")));
    }
    let coarse = || shapes::dropped(shapes::strip(0.3, 1.6, 0.035));
    strip_piles_in_turns(
        "coarse strip (3.5 cm cells)",
        &[pile(coarse(), false), pile(coarse(), true)],
    );
    let piles = [pile(shapes::dropped_strip(), false), pile(shapes::dropped_strip(), true)];
    strip_piles_in_turns("strip", &piles);
    for (name, (mut sim, dt)) in ["strip_pile", "strip_pile_self_collision"].into_iter().zip(piles)
    {
        group.bench_function(name, |b| b.iter(|| sim.step(dt).expect("finite")));
    }
    worn(&mut group, ("worn_cape", "hero.glb", "Cape", "Walk"), true);
    worn(&mut group, ("figure_cape", "walker.glb", "Cape", "Walk"), true);
    worn(&mut group, ("figure_cape_without_self_collision", "walker.glb", "Cape", "Walk"), false);
    worn(&mut group, ("figure_skirt", "dancer.glb", "Skirt", "Leap"), true);
    crowd(&mut group, CROWD);
    group.finish();
}

/// A worn garment's frame (`name`: the `mesh` of the figure `file` playing `clip`), with
/// self-collision when `layers`: pose, step, drawn surface, through the clip in a loop.
fn worn(
    group: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    (name, file, mesh, clip): (&str, &str, &str, &str),
    layers: bool,
) {
    let glb = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters").join(file);
    let options = ConvertOptions {
        mesh: Some(mesh.into()),
        self_collision: Some(Thickness::FromEdges),
        ..ConvertOptions::default()
    };
    let mut model = convert_file(&glb, &options).expect("converts").model.into_inner();
    if !layers {
        model.params.self_collision = None;
    }
    let model = ValidModel::new(model).expect("valid");
    let clip = Clip::read(&glb, &std::fs::read(&glb).expect("reads"), clip).expect("a clip");
    let names: Vec<String> =
        model.rig.as_ref().expect("a rig").joints.iter().map(|j| j.name.clone()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut sim = Simulation::new(&model);
    let (dt, mut frame) = (model.params.dt, 0u32);
    let (mut positions, mut normals) = (Vec::new(), Vec::new());
    group.bench_function(name, |b| {
        b.iter(|| {
            frame += 1;
            let t = (frame as f32 * dt) % clip.duration.max(dt);
            sim.set_pose(&clip.pose(t, &names).expect("joints")).expect("a pose");
            sim.step(dt).expect("finite");
            sim.surface(&mut positions, &mut normals);
        })
    });
}

/// How many figures walk in [`crowd`].
const CROWD: usize = 32;

/// `count` of the walking figure's capes, each its own simulation (clones of one, sharing its
/// compiled model) a tenth of a second further into the clip than the last, stepped on all cores (one figure a task, each on one thread):
/// a frame of a crowd, everything a game pays for each (issue 63: 32 ≤ 5 ms on 2 cores).
fn crowd(group: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>, count: usize) {
    use rayon::prelude::*;
    let glb = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/walker.glb");
    let options = ConvertOptions { mesh: Some("Cape".into()), ..ConvertOptions::default() };
    let model = convert_file(&glb, &options).expect("converts").model;
    let clip = Clip::read(&glb, &std::fs::read(&glb).expect("reads"), "Walk").expect("a clip");
    let names: Vec<String> =
        model.rig.as_ref().expect("a rig").joints.iter().map(|j| j.name.clone()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let dt = model.params.dt;
    // One compiled cape, cloned: the crowd shares its springs and triangles (issue 66).
    let mut cape = Simulation::new(&model);
    cape.set_threads(Threads::One);
    let mut figures: Vec<(Simulation, f32, Vec<Vec3>, Vec<Vec3>)> =
        (0..count).map(|k| (cape.clone(), k as f32 * 0.1, Vec::new(), Vec::new())).collect();
    group.bench_function(format!("crowd_{count}_capes"), |b| {
        b.iter(|| {
            figures.par_iter_mut().for_each(|(sim, t, positions, normals)| {
                *t = (*t + dt) % clip.duration.max(dt);
                sim.set_pose(&clip.pose(*t, &names).expect("joints")).expect("a pose");
                sim.step(dt).expect("finite");
                sim.surface(positions, normals);
            })
        })
    });
}

/// Rounds of [`strip_piles_in_turns`].
const ROUNDS: usize = 30;

/// The `name`d strip pile without and with self-collision, a window of frames of each in turn
/// from the same piles, [`ROUNDS`] times: printed as the same-sitting ratio, the figure to
/// hold issue 40's 2× to. Criterion times the two seconds apart, and this machine's speed drifts
/// over seconds (its two figures gave 1.26 and 1.87 in two runs of one hour).
fn strip_piles_in_turns(name: &str, piles: &[(Simulation, f32); 2]) {
    let mut time = [Duration::ZERO; 2];
    for _ in 0..ROUNDS {
        for (time, (pile, dt)) in time.iter_mut().zip(piles) {
            let mut sim = pile.clone();
            *time += windowed(WINDOW, &mut sim, |_| (), |s| drop(s.step(*dt).expect("finite")));
        }
    }
    let per_frame = |t: Duration| t.as_secs_f64() * 1e6 / (ROUNDS as f64 * WINDOW as f64);
    let [plain, layered] = time.map(per_frame);
    println!(
        "{name} pile, without and with self-collision in turns: {plain:.0} and {layered:.0} µs a \
         frame, {:.2} ×",
        layered / plain
    );
}

/// A dropped strip `mesh` (that of `tests/self_collision.rs`, or a coarser one) folded into a
/// pile on the ground after 3 s, with self-collision when `layers`.
fn pile(mesh: RawMesh, layers: bool) -> (Simulation, f32) {
    let options = ConvertOptions {
        self_collision: layers.then_some(Thickness::FromEdges),
        ..ConvertOptions::default()
    };
    let mut model =
        convert_mesh(mesh, &options, Path::new("strip.obj")).expect("converts").model.into_inner();
    model.params.ground = Some(Ground { height: 0.0, ..Ground::default() });
    let mut sim = Simulation::new(&ValidModel::new(model.clone()).expect("valid"));
    for _ in 0..180 {
        sim.step(model.params.dt).expect("finite");
    }
    (sim, model.params.dt)
}

criterion_group!(benches, bench);
criterion_main!(benches);
