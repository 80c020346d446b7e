//! What the world passes cost on top of the solver: air, pressure and collisions.
//!
//! - `cloth/*`: one 60 Hz Xpbd frame with 5 sub-steps of the 128 × 128 benchmark cloth of
//!   `solver.rs` (16,384 nodes, 32,258 faces, 97,026 springs): `plain` as there, `air` with a
//!   5 m/s wind gusting by 30%, `colliders` with the ground and a sphere below the cloth
//!   (checked every sub-step, never touched), `breakable` with break limits on every spring
//!   (at half and twice its rest length: checked once per step, never reached).
//! - `ball/*`: the same frame for a closed sphere of 72 bands of 144 quads (10,226 nodes,
//!   20,448 faces, 61,344 springs, 3 m across, 1 kg nodes): `plain`, `pressure` (2 kPa), and
//!   `pressure+air`.
//!
//! The cost of a pass per face or node is the difference to `plain` divided by the faces (air:
//! once per frame; pressure: once per sub-step), by the nodes times the sub-steps
//! (collisions) or by the springs (breakage: once per frame). Run with `cargo bench -p springmesh-core --bench world`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code: a failed expectation is a failed test.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{GridSprings, grid_cloth, uv_sphere};
use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use springmesh_core::model::{Air, Ground, Obstacle, Pressure, Shape, Surface};
use springmesh_core::{Simulation, Spring, SpringModel};

fn frame(c: &mut Criterion, name: &str, mut model: SpringModel) {
    model.params.substeps = 5;
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    c.bench_function(name, |b| b.iter(|| sim.step(1.0 / 60.0).expect("stable")));
}

fn air() -> Option<Air> {
    Some(Air { wind: Vec3::new(5.0, 0.0, 2.0), gusts: 0.3, ..Air::default() })
}

fn cloth(c: &mut Criterion) {
    let base = grid_cloth(128, 0.05, 1.0, GridSprings { stiffness: 1e5, damping: 0.0 });
    frame(c, "cloth/plain", base.clone());
    let mut windy = base.clone();
    windy.params.air = air();
    frame(c, "cloth/air", windy);
    let mut fenced = base.clone();
    fenced.params.ground = Some(Ground { height: -20.0, surface: Surface::default() });
    fenced.params.colliders = vec![Obstacle {
        shape: Shape::Sphere { center: Vec3::new(3.0, -10.0, 3.0), radius: 1.0 },
        surface: Surface::default(),
    }];
    frame(c, "cloth/colliders", fenced.clone());
    let mut breakable = base;
    let limited = breakable.springs.iter().map(|s| Spring {
        break_min: Some(0.5 * s.rest_length),
        break_max: Some(2.0 * s.rest_length),
        ..s
    });
    breakable.springs = limited.collect();
    frame(c, "cloth/breakable", breakable);
}

fn ball(c: &mut Criterion) {
    let base = uv_sphere(72, 144, 1.5, Vec3::ZERO, 10_226.0, 1e5);
    frame(c, "ball/plain", base.clone());
    let mut inflated = base;
    inflated.params.pressure = Some(Pressure { pressure: 2000.0, gas_density: None });
    frame(c, "ball/pressure", inflated.clone());
    inflated.params.air = air();
    frame(c, "ball/pressure+air", inflated);
}

criterion_group!(benches, cloth, ball);
criterion_main!(benches);
