//! Issue 64: `simulate --animation --fps F` samples the run at exactly k/F seconds, with the
//! skeleton posed at that time, whatever F: the walking figure's cape (`tools/blender/figure.py`)
//! played at Blender's 24 fps, at 25 and at 30, its kinematic nodes (painted 0) judged against
//! Blender's own armature deformation of the same file (`walker_walk_cape.pc2`, its frame j at
//! (j + 1)/24 s of the clip) at every sample that falls on one of Blender's frames. Snapped to
//! the model's 1/60 s steps, the 24 fps samples were 25.5 mm off, the 25 fps ones 35.8 mm.

use crate::{at, read_pc2, scratch, springmesh};
use springmesh_core::model::is_kinematic;
use std::path::{Path, PathBuf};

/// The folder of the figures and Blender's deformation of them.
fn characters() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters")
}

/// The walking figure's file, and its cape converted with `convert --mesh Cape` into `dir`.
fn converted_cape(dir: &Path) -> (String, String) {
    let walker = characters().join("walker.glb").display().to_string();
    let cape = at(dir, "cape.spring");
    springmesh(&["convert", &walker, "--mesh", "Cape", "-o", &cape]).ok();
    (walker, cape)
}

#[test]
fn a_worn_capes_kinematic_nodes_are_on_blenders_skin_at_24_25_and_30_fps() {
    let dir = scratch("clips-fps");
    let (walker, cape) = converted_cape(&dir);
    let model = springmesh_core::io::load(Path::new(&cape)).unwrap();
    let rig = model.rig.as_ref().unwrap();
    let blender = read_pc2(&std::fs::read(characters().join("walker_walk_cape.pc2")).unwrap());
    // Each kinematic node's vertex in Blender's cache: the one at its place in Blender's frame
    // 1, the pose the cape was exported in.
    let kinematic: Vec<(usize, usize)> = (0..model.nodes.len())
        .filter(|&i| is_kinematic(rig.max_distance[i]))
        .map(|i| {
            let p = model.nodes.positions()[i].to_array();
            let gap = |v: &[f32; 3]| (0..3).map(|k| (v[k] - p[k]).powi(2)).sum::<f32>();
            let nearest = (0..blender[0].len())
                .min_by(|&a, &b| gap(&blender[0][a]).total_cmp(&gap(&blender[0][b])));
            let v = nearest.unwrap();
            assert!(gap(&blender[0][v]).sqrt() < 1e-4, "node {i} is a vertex of Blender's cape");
            (i, v)
        })
        .collect();
    assert_eq!(kinematic.len(), 13, "the cape's top row");
    for fps in [24usize, 25, 30] {
        let pc2 = at(&dir, &format!("cape{fps}.pc2"));
        let f = fps.to_string();
        let args = ["--animation", &walker, "--clip", "Walk", "--seconds", "2", "--fps", &f];
        springmesh(&[&["simulate", &cape, "--pc2", &pc2][..], &args].concat()).ok();
        let frames = read_pc2(&std::fs::read(&pc2).unwrap());
        assert_eq!(frames.len(), 2 * fps + 1, "frames 0 to 2 s at {fps} fps");
        let (mut worst, mut judged) = (0.0f32, 0);
        for (k, frame) in frames.iter().enumerate().skip(1) {
            // Frame k at k/fps s, Blender's frame j at (j + 1)/24 s.
            if (k * 24) % fps != 0 {
                continue;
            }
            let j = k * 24 / fps - 1;
            for &(i, v) in &kinematic {
                let off = (0..3).map(|c| (frame[i][c] - blender[j][v][c]).powi(2)).sum::<f32>();
                worst = worst.max(off.sqrt());
            }
            judged += 1;
        }
        println!("{fps} fps: {judged} samples, kinematic nodes at most {worst} m off");
        assert_eq!(judged, 2 * gcd(fps, 24), "the samples on Blender's frames");
        assert!(worst < 1e-4, "{fps} fps: kinematic nodes {worst} m off the skin");
    }
    // Started half a second into the clip (Blender's frame 12 at 24 fps), with the progress
    // a tool shows: frame k at (12 + k)/24 s of the clip, Blender's frame 11 + k, from the
    // first frame on.
    let pc2 = at(&dir, "cape-from-12.pc2");
    let args = ["--animation", &walker, "--clip", "Walk", "--seconds", "1", "--fps", "24"];
    let run = springmesh(
        &[&["simulate", &cape, "--pc2", &pc2, "--clip-start", "0.5"][..], &args, &["--progress"]]
            .concat(),
    )
    .ok();
    let steps: Vec<&str> = run.stderr.lines().filter(|l| l.starts_with("progress ")).collect();
    assert_eq!(steps.first().copied(), Some("progress 1/72"), "three steps a frame at 24 fps");
    assert_eq!((steps.len(), steps.last().copied()), (72, Some("progress 72/72")));
    let frames = read_pc2(&std::fs::read(&pc2).unwrap());
    assert_eq!(frames.len(), 25, "frames 0 to 1 s at 24 fps");
    let mut worst = 0.0f32;
    for (k, frame) in frames.iter().enumerate() {
        for &(i, v) in &kinematic {
            let off = (0..3).map(|c| (frame[i][c] - blender[11 + k][v][c]).powi(2)).sum::<f32>();
            worst = worst.max(off.sqrt());
        }
    }
    println!("from 0.5 s: kinematic nodes at most {worst} m off");
    assert!(worst < 1e-4, "from 0.5 s: kinematic nodes {worst} m off the skin");
}

/// The greatest common divisor of `a` and `b`.
fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[test]
fn a_clip_start_that_is_not_a_finite_number_is_refused_naming_it() {
    let dir = scratch("clips-start");
    let (walker, cape) = converted_cape(&dir);
    let pc2 = at(&dir, "never.pc2");
    for bad in ["NaN", "inf"] {
        let args = ["simulate", &cape, "--animation", &walker, "--clip", "Walk", "--fps", "24"];
        let run = springmesh(&[&args[..], &["--clip-start", bad, "--pc2", &pc2]].concat());
        assert_ne!(run.code, 0, "{bad}: refused");
        assert!(run.stderr.contains("--clip-start"), "{bad}: {}", run.stderr);
        assert!(!Path::new(&pc2).exists(), "{bad}: nothing written");
    }
}
