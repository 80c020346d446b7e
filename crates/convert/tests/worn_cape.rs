//! Issue 41, acceptance 1: the cape of the figure the project authored with Blender itself
//! (`tools/blender/hero.py`: an armature, a skinned Body and a skinned Cape with a painted
//! `_MAX_DISTANCE`, a "Walk" clip), converted with `--mesh Cape` and played with the clip,
//! judged at every sample of the clip (30 per second) against Blender's own armature
//! deformation of the same file (`hero_cape.pc2`, `hero_body.pc2`, written beside it):
//!
//! - the nodes painted 0 within 1 mm of their skinned position;
//! - every other node within its max distance + 1 cm of it;
//! - no node deeper than 1 cm inside the body;
//! - no stretch spring stretched more than 10%;
//! - the cape never through itself (no two triangles that share no corner cross);
//! - really simulated: its hem ≥ 5 cm off the skin after the figure stops and turns.
//!
//! The same cape converted without its character (`--no-character`) goes into the body: the body check
//! can fail.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code.

mod judge;

use judge::read_pc2;

use glam::Vec3;
use springmesh_convert::import::animation::Clip;
use springmesh_convert::{CharacterMeshes, ConvertOptions, convert_file};
use springmesh_core::{Simulation, SpringKind, SpringModel};
use std::path::{Path, PathBuf};

/// The folder of the figure and Blender's deformation of it.
fn characters() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters")
}

/// The cape of `hero.glb` as `convert --mesh Cape --scale S` makes it (a worn mesh collides
/// with itself), with its body or without.
fn cape(body: bool, scale: f32) -> SpringModel {
    let options = ConvertOptions {
        mesh: Some("Cape".into()),
        character: if body { CharacterMeshes::Others } else { CharacterMeshes::Off },
        scale,
        ..ConvertOptions::default()
    };
    convert_file(&characters().join("hero.glb"), &options).expect("converts").model.into_inner()
}

/// The worst of each judged quantity over the run.
#[derive(Debug, Default)]
struct Worst {
    kinematic: f32,
    over_max: f32,
    depth: f32,
    stretch: f32,
    crossings: usize,
    hem_after_stop: f32,
}

/// How deep `p` is inside Blender's body at one frame, scaled by `s`: the torso's nine rings
/// of sixteen vertices, radius 0.18 m: 0.18 s minus the distance to the nearest segment
/// between neighbouring rings' centres (negative outside; 0 beyond the end rings).
fn depth_in_body(body: &[Vec3], s: f32, p: Vec3) -> f32 {
    let centre = |r: usize| s * body[16 * r..16 * r + 16].iter().copied().sum::<Vec3>() / 16.0;
    let mut best = (f32::INFINITY, false);
    for r in 0..8 {
        let (a, b) = (centre(r), centre(r + 1));
        let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
        let d = p.distance(a + (b - a) * t);
        let beyond = (r == 0 && t == 0.0) || (r == 7 && t == 1.0);
        if d < best.0 {
            best = (d, beyond);
        }
    }
    if best.1 { 0.0 } else { 0.18 * s - best.0 }
}

/// Plays the clip on `model` for its whole length at 60 Hz, judging every 30 Hz sample (the
/// figure scaled by `s`, the scale the model was converted at).
fn play(model: &SpringModel, s: f32) -> Worst {
    let dir = characters();
    let glb = dir.join("hero.glb");
    let clip = Clip::read(&glb, &std::fs::read(&glb).unwrap(), "Walk").expect("the clip");
    let (skin, body) = (read_pc2(&dir.join("hero_cape.pc2")), read_pc2(&dir.join("hero_body.pc2")));
    let rig = model.rig.clone().expect("a rig");
    assert!(model.params.self_collision.is_some(), "a worn mesh collides with itself");
    let names: Vec<&str> = rig.joints.iter().map(|j| j.name.as_str()).collect();
    let rest = model.nodes.positions();
    // Each node's Blender vertex: the one at its rest position (frame 0 is the rest pose).
    let vertex: Vec<usize> = rest
        .iter()
        .map(|p| {
            let nearest = skin[0]
                .iter()
                .enumerate()
                .min_by(|a, b| a.1.distance(*p / s).total_cmp(&b.1.distance(*p / s)));
            let (k, at) = nearest.unwrap();
            assert!(at.distance(*p / s) < 1e-4, "node at {p} is a vertex of Blender's cape");
            k
        })
        .collect();
    let faces: Vec<[usize; 3]> = model.faces.nodes().iter().map(|f| f.map(|n| n.index())).collect();
    let stretch: Vec<(usize, usize, f32)> = model
        .springs
        .iter()
        .filter(|s| s.kind == SpringKind::Stretch)
        .map(|s| (s.a.index(), s.b.index(), s.rest_length))
        .collect();
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).unwrap());
    let mut worst = Worst::default();
    for frame in 1..skin.len() {
        for half in 1..=2 {
            let t = (2 * (frame - 1) + half) as f32 / 60.0;
            sim.set_pose(&clip.pose_scaled(t, &names, s).expect("every joint")).expect("a pose");
            sim.step(1.0 / 60.0).expect("finite");
        }
        let at: Vec<Vec3> = sim.positions().iter().map(|&p| p.into()).collect();
        for (i, p) in at.iter().enumerate() {
            let off = p.distance(s * skin[frame][vertex[i]]);
            match rig.max_distance[i] {
                Some(0.0) => worst.kinematic = worst.kinematic.max(off),
                Some(r) => worst.over_max = worst.over_max.max(off - r),
                None => {}
            }
            worst.depth = worst.depth.max(depth_in_body(&body[frame], s, *p));
            // The hem: the bottom row; the figure stops at 1.2 s, then turns.
            if rest[i].y < 0.76 * s && frame as f32 / 30.0 >= 1.2 {
                worst.hem_after_stop = worst.hem_after_stop.max(off);
            }
        }
        for &(a, b, l) in &stretch {
            worst.stretch = worst.stretch.max(at[a].distance(at[b]) / l - 1.0);
        }
        worst.crossings = worst.crossings.max(judge::crossing_pairs(&faces, &at));
    }
    worst
}

#[test]
fn the_cape_follows_the_walking_figure_around_its_body() {
    let worn = play(&cape(true, 1.0), 1.0);
    println!("with its body: {worn:?}");
    worn_at(&worn, 1.0);
    assert!(worn.stretch < 0.10, "stretch ≤ 10% ({:.1}%)", worn.stretch * 100.0);
    assert!(worn.hem_after_stop > 0.05, "the hem swings off the skin ({} m)", worn.hem_after_stop);
    let bare = play(&cape(false, 1.0), 1.0);
    println!("without its body: {bare:?}");
    assert!(bare.depth > 0.01, "without the body it goes in ({} m)", bare.depth);
}

#[test]
fn a_cape_converted_at_twice_its_size_is_worn_by_the_figure_at_twice_its_size() {
    // `--scale 2`: the skeleton, the body and the painted distances scale with the mesh, and
    // the clip plays with the figure's root scaled by 2: the painted-0 nodes stay on twice
    // Blender's own deformation, and the cape off the doubled body.
    let worn = play(&cape(true, 2.0), 2.0);
    println!("at twice the size: {worn:?}");
    worn_at(&worn, 2.0);
}

/// The cape `worn` played at `s` times its size stayed worn: its painted-0 nodes within 1 mm
/// × s of the skin, every node within its max distance + 1 cm × s and never 1 cm × s inside
/// the body, and the cape never through itself.
fn worn_at(worn: &Worst, s: f32) {
    let kinematic = worn.kinematic;
    assert!(kinematic < 1e-3 * s, "painted 0: on the skin ({kinematic} m off, at {s}×)");
    let over = worn.over_max;
    assert!(over < 0.01 * s, "within the max distance + {} cm ({over} m over)", s);
    let depth = worn.depth;
    assert!(depth < 0.01 * s, "no node {} cm inside the body ({depth} m)", s);
    assert_eq!(worn.crossings, 0, "never through itself");
}
