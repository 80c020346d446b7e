//! Core II acceptance 1: drag brings a falling plate to the analytic terminal speed; a sheet
//! falls slower than a ball of the same mass; a flag in gusty wind keeps fluttering.

use crate::common::{GridSprings, grid, grid_cloth, uv_sphere};
use glam::{Vec3, Vec3A};
use springmesh_core::model::{AIR_DENSITY, Air};
use springmesh_core::{
    Face, Integrator, Node, NodeId, Simulation, Spring, SpringKind, SpringModel,
};

/// A horizontal equilateral triangle of side `side` at height `height`, three nodes of `mass`
/// kg each joined by stiff springs: a plate that falls flat.
fn plate(side: f32, height: f32, mass: f32) -> SpringModel {
    let mut m = SpringModel::default();
    let r = side / 3f32.sqrt();
    for k in 0..3 {
        let angle = k as f32 * std::f32::consts::TAU / 3.0;
        m.nodes.push(Node { position: Vec3::new(r * angle.cos(), height, r * angle.sin()), mass });
    }
    m.faces.push(Face { nodes: [NodeId(0), NodeId(1), NodeId(2)], uvs: None });
    for (a, b) in [(0, 1), (1, 2), (2, 0)] {
        m.springs.push(Spring::new(NodeId(a), NodeId(b), side, 1000.0, SpringKind::Stretch));
    }
    m.params.damping = 0.0;
    m.params.air = Some(Air { drag: 1.0, lift: 0.0, ..Air::default() });
    m
}

#[test]
fn a_falling_plate_reaches_the_terminal_speed() {
    let (side, mass) = (0.1f32, 0.001f32);
    let area = 3f32.sqrt() / 4.0 * side * side;
    let weight = 3.0 * mass * 9.81;
    // Drag ½ ρ C_D A v² equals the weight at v_t = √(2 m g / (ρ C_D A)).
    let terminal = (2.0 * weight / (AIR_DENSITY * 1.0 * area)).sqrt();
    for integrator in Integrator::ALL {
        let mut model = plate(side, 100.0, mass);
        model.params.integrator = integrator;
        let mut sim =
            Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
        for _ in 0..300 {
            sim.step(1.0 / 60.0).expect("finite");
        }
        let speed = -sim.velocities().iter().map(|v| v.y).sum::<f32>() / 3.0;
        let error = (speed / terminal - 1.0).abs();
        println!("{integrator:?}: {speed:.4} m/s, terminal {terminal:.4} m/s ({error:.5})");
        assert!(error < 0.02, "{integrator:?}: {speed} m/s against {terminal} m/s");
    }
}

#[test]
fn a_sheet_falls_slower_than_a_ball_of_the_same_mass() {
    let air = Some(Air::default());
    // A 0.5 m square sheet of 11 × 11 nodes and a ball 0.2 m across, 0.1 kg each.
    let mut sheet =
        grid_cloth(11, 0.05, 0.1 / 121.0, GridSprings { stiffness: 2000.0, damping: 0.0 });
    sheet.anchors.clear();
    for p in sheet.nodes.positions_mut() {
        p.y += 10.0;
    }
    sheet.params.air = air;
    let mut ball = uv_sphere(10, 18, 0.1, Vec3::new(2.0, 10.0, 0.0), 0.1, 2000.0);
    ball.params.air = air;
    let height = |model: &SpringModel| {
        let mut sim =
            Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
        for _ in 0..60 {
            sim.step(1.0 / 60.0).expect("finite");
        }
        sim.positions().iter().map(|p| p.y).sum::<f32>() / sim.node_count() as f32
    };
    let (sheet_y, ball_y) = (height(&sheet), height(&ball));
    let vacuum = 10.0 - 0.5 * 9.81;
    assert!(
        ball_y < sheet_y - 1.0,
        "after 1 s the ball is at {ball_y} m, the sheet at {sheet_y} m"
    );
    assert!(ball_y > vacuum, "the ball feels some drag too: {ball_y} m, {vacuum} m in vacuum");
}

#[test]
fn a_flag_in_gusty_wind_keeps_fluttering_downwind() {
    // 12 × 8 nodes, 5 cm apart, in the x–y plane, hanging from a pole along y at x = 0.
    let (columns, rows, spacing) = (12usize, 8usize, 0.05f32);
    let springs = GridSprings { stiffness: 2000.0, damping: 0.01 };
    let mut model = grid(columns, rows, 0.002, springs, |i, j| {
        Vec3::new(i as f32 * spacing, 2.0 - j as f32 * spacing, 0.0)
    });
    let id = |i: usize, j: usize| NodeId((j * columns + i) as u32);
    model.anchors = (0..rows).map(|j| id(0, j)).collect();
    model.params.air =
        Some(Air { wind: Vec3::new(8.0, 0.0, 0.0), gusts: 0.4, seed: 3, ..Air::default() });

    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    for _ in 0..180 {
        sim.step(1.0 / 60.0).expect("finite");
    }
    let tip = id(columns - 1, rows / 2).index();
    let mut speeds = Vec::new();
    let mut tip_x = Vec::new();
    let mut tip_z: Vec<f32> = Vec::new();
    for _ in 0..120 {
        sim.step(1.0 / 60.0).expect("finite");
        speeds.push(sim.velocities()[tip].length());
        tip_x.push(sim.positions()[tip].x);
        tip_z.push(sim.positions()[tip].z);
    }
    let length = (columns - 1) as f32 * spacing;
    let mean_x = tip_x.iter().sum::<f32>() / tip_x.len() as f32;
    assert!(
        mean_x > 0.6 * length,
        "the flag streams downwind: tip at x = {mean_x} m of {length} m"
    );
    let slowest = speeds.iter().copied().fold(f32::INFINITY, f32::min);
    let fastest = speeds.iter().copied().fold(0.0f32, f32::max);
    assert!(fastest > 0.3, "the tip keeps moving: fastest {fastest} m/s");
    let z_range = tip_z.iter().copied().fold(f32::NEG_INFINITY, f32::max)
        - tip_z.iter().copied().fold(f32::INFINITY, f32::min);
    assert!(
        z_range > 0.01,
        "it flutters across the wind: the tip's z spans {z_range} m (slowest {slowest} m/s)"
    );
    assert!(sim.positions().iter().all(|p| Vec3A::is_finite(*p)));
}
