//! Plays a garment of one of the Blender-made figures (`assets/characters`) on one of its clips
//! as a game does — the pose set, a step of the model's 60 Hz frame, the drawn surface read —
//! and prints the sub-steps a frame took and a hash of every node's position at the end.
//!
//! Two builds that print the same hash simulate the same to the bit: what a change that only
//! makes the solver faster must keep (the commits that say "the same pushes bit for bit" were
//! checked so on the walker's cape and scarf, the dancer's skirt and the runner's cape, 200
//! frames each).
//!
//! ```text
//! cargo run --release -p springmesh-convert --example worn_frames -- walker.glb Cape Walk 200
//! ```
//!
//! A fifth argument, `--without-self-collision`, plays it without self-collision.

use springmesh_convert::import::animation::Clip;
use springmesh_convert::{ConvertOptions, convert_file};
use springmesh_core::{Simulation, ValidModel};
use std::error::Error;
use std::path::Path;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, mesh, clip, frames, rest @ ..] = args.as_slice() else {
        return Err(
            "usage: worn_frames FIGURE.glb MESH CLIP FRAMES [--without-self-collision]".into()
        );
    };
    let frames: u32 = frames.parse()?;
    let figure = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters").join(file);
    let options = ConvertOptions { mesh: Some(mesh.clone()), ..ConvertOptions::default() };
    let mut model = convert_file(&figure, &options)?.model.into_inner();
    if rest.iter().any(|a| a == "--without-self-collision") {
        model.params.self_collision = None;
    }
    let dt = model.params.dt;
    let model = ValidModel::new(model)?;
    let joints = model.rig.as_ref().ok_or("the mesh is not worn")?.joints.iter();
    let names: Vec<&str> = joints.map(|j| j.name.as_str()).collect();
    let clip = Clip::read(&figure, &std::fs::read(&figure)?, clip)?;
    let mut sim = Simulation::new(&model);
    let (mut positions, mut normals, mut substeps) = (Vec::new(), Vec::new(), 0u64);
    for frame in 1..=frames {
        let t = (frame as f32 * dt) % clip.duration.max(dt);
        sim.set_pose(&clip.pose(t, &names)?)?;
        substeps += u64::from(sim.step(dt)?.substeps);
        sim.surface(&mut positions, &mut normals);
    }
    let hash = sim
        .positions()
        .iter()
        .flat_map(|x| x.to_array())
        .fold(0u64, |h, c| h.wrapping_mul(31).wrapping_add(u64::from(c.to_bits())));
    println!(
        "{} nodes, {:.2} sub-steps a frame, positions {hash:016x}",
        sim.positions().len(),
        substeps as f64 / f64::from(frames.max(1))
    );
    Ok(())
}
