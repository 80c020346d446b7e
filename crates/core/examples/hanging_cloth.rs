//! What a game does with springmesh-core: load a model (here a `.spring` or `.spring.json`
//! named on the command line, or a cloth built in code), step it at 60 Hz, read positions,
//! normals and energy.
//!
//! ```text
//! cargo run --release -p springmesh-core --example hanging_cloth [MODEL]
//! ```

use glam::Vec3;
use springmesh_core::{Node, NodeId, Simulation, Spring, SpringKind, SpringModel, ValidModel, io};
use std::error::Error;
use std::path::Path;

/// A 20 × 20 cloth of 1 g nodes 5 cm apart, hanging from two corners.
fn cloth() -> SpringModel {
    let n = 20;
    let mut m = SpringModel::default();
    let id = |i: usize, j: usize| NodeId((j * n + i) as u32);
    for j in 0..n {
        for i in 0..n {
            let position = Vec3::new(i as f32, 0.0, j as f32) * 0.05;
            m.nodes.push(Node { position, mass: 0.001 });
        }
    }
    let mut join = |a: NodeId, b: NodeId| {
        let rest = m.distance(a, b).unwrap_or(0.0);
        m.springs.push(Spring::new(a, b, rest, 1e3, SpringKind::Stretch));
    };
    for j in 0..n {
        for i in 0..n {
            if i + 1 < n {
                join(id(i, j), id(i + 1, j));
            }
            if j + 1 < n {
                join(id(i, j), id(i, j + 1));
                if i + 1 < n {
                    join(id(i, j), id(i + 1, j + 1));
                    join(id(i + 1, j), id(i, j + 1));
                }
            }
        }
    }
    m.anchors = vec![id(0, 0), id(n - 1, 0)];
    m
}

fn main() -> Result<(), Box<dyn Error>> {
    let model = match std::env::args().nth(1) {
        Some(path) => io::load(Path::new(&path))?,
        None => ValidModel::new(cloth())?,
    };
    let mut sim = Simulation::new(&model);
    let mut normals = Vec::new();
    println!("{} nodes, {} springs", model.nodes.len(), model.springs.len());
    println!("  time   kinetic J   elastic J   lowest y m");
    for frame in 1..=300 {
        sim.step(model.params.dt)?;
        sim.vertex_normals(&mut normals); // what a renderer would upload with the positions
        if frame % 30 == 0 {
            let e = sim.energy();
            let lowest = sim.positions().iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
            println!("{:6.2} {:11.5} {:11.5} {:12.4}", sim.time(), e.kinetic, e.elastic, lowest);
        }
    }
    Ok(())
}
