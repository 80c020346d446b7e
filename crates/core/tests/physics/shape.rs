//! Shape matching: a light node tied to a heavy rigid body by the pull swings at the pull's
//! frequency, under every integrator; a column held up by the pull alone sinks onto its bottom
//! layer by the amount worked out by hand.

use glam::Vec3;
use springmesh_core::model::{Ground, ShapeMatching, Surface};
use springmesh_core::{Integrator, Node, SimParams, Simulation, SpringModel};

/// Eight 1000 kg nodes at the corners of a 1 m cube and a 1 g node at its centre, no springs,
/// shape matching at `frequency` Hz, no damping, no gravity.
fn heavy_cube_and_a_bead(frequency: f32) -> SpringModel {
    let mut m = SpringModel::default();
    for c in 0..8 {
        let position = Vec3::new((c & 1) as f32, ((c >> 1) & 1) as f32, (c >> 2) as f32);
        m.nodes.push(Node { position, mass: 1000.0 });
    }
    m.nodes.push(Node { position: Vec3::splat(0.5), mass: 0.001 });
    m.params = SimParams {
        gravity: Vec3::ZERO,
        damping: 0.0,
        shape_matching: Some(ShapeMatching { frequency }),
        ..SimParams::default()
    };
    m
}

#[test]
fn a_bead_swings_at_the_pull_frequency() {
    // The bead weighs a millionth of the cube: its goal stays where the cube holds it, and it
    // swings about it as on a spring of m ω², period 1/f.
    let f = 2.0;
    for (integrator, substeps) in [(Integrator::Xpbd, 16), (Integrator::Explicit, 16)] {
        let mut model = heavy_cube_and_a_bead(f);
        model.params.integrator = integrator;
        model.params.substeps = substeps;
        let mut sim =
            Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
        // Released through its goal at the peak speed of a 1 cm swing at ω = 2π f.
        let peak = std::f32::consts::TAU * f * 0.01;
        sim.velocities_mut()[8].x = peak;
        let dt = model.params.dt;
        let (mut crossings, mut prev, mut fastest) = (Vec::new(), 0.0f32, 0.0f32);
        for _ in 0..(5.0 / dt) as usize {
            let t0 = sim.time();
            sim.step(dt).expect("finite");
            let x = sim.positions()[8].x - 0.5;
            fastest = fastest.max(sim.velocities()[8].length());
            if prev > 0.0 && x <= 0.0 {
                crossings.push(t0 + f64::from(prev / (prev - x)) * f64::from(dt));
            }
            prev = x;
        }
        let period = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64;
        println!("{integrator:?}: period {period:.4} s, fastest {fastest:.4} m/s");
        assert!((period - 0.5).abs() < 0.01, "{integrator:?}: {period}");
        assert!((fastest / peak - 1.0).abs() < 0.05, "{integrator:?}: {fastest} against {peak}");
    }
}

#[test]
fn a_column_held_by_the_pull_alone_sinks_onto_its_bottom_layer_as_worked_out() {
    // A column of 10 layers of 4 equal nodes, 0.1 m apart, no springs, on the ground: only the
    // pull holds it up. The ground holds the bottom layer; each of the 36 nodes above, at rest,
    // sits g / ω² below its goal (m ω² (goal − x) = m g), and the goals sink with the centre of
    // mass, 36/40 of their sinking d: d = 0.9 d + g / ω², d = 10 g / ω². (The pull moves no
    // centre of mass: the ground's push reaches the upper nodes only through the bottom
    // layer's own pull, m ω² per metre for 4 of the 40 nodes.) Xpbd answers the column's
    // contacts as a whole body's first, shared in the proportion β = ω²h² / (1 + ω²h²) per
    // sub-step h, which takes that much of the weight off the pull: the bottom layer (φ = 0.1
    // of the mass) is held up by 1 + β (1 − φ) / φ = 1 + 9 β times less (sim::contacts::body).
    let f = 10.0;
    let mut m = SpringModel::default();
    for i in 0..10 {
        for (x, z) in [(0.0, 0.0), (0.2, 0.0), (0.0, 0.2), (0.2, 0.2)] {
            m.nodes.push(Node { position: Vec3::new(x, 0.1 * i as f32, z), mass: 0.1 });
        }
    }
    m.params.shape_matching = Some(ShapeMatching { frequency: f });
    m.params.ground = Some(Ground { height: -m.params.node_radius, surface: Surface::default() });
    m.params.damping = 4.0;
    let rest: Vec<Vec3> = m.nodes.positions().to_vec();
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(m.clone()).expect("valid"));
    for _ in 0..300 {
        sim.step(m.params.dt).expect("finite");
    }
    let omega = std::f32::consts::TAU * f;
    let h = m.params.dt / m.params.substeps as f32;
    let beta = (omega * h).powi(2) / (1.0 + (omega * h).powi(2));
    let expected = 10.0 * 9.81 / (omega * omega) / (1.0 + 9.0 * beta);
    let top_drop = rest[39].y - sim.positions()[39].y;
    let bottom_drop = rest[0].y - sim.positions()[0].y;
    println!(
        "top drops {top_drop:.5} m, bottom {bottom_drop:.5} m; 10 g / ω² / (1 + 9 β) = {expected:.5} m"
    );
    assert!(bottom_drop.abs() < 1e-4, "the bottom rests on the ground: {bottom_drop}");
    assert!((top_drop / expected - 1.0).abs() < 0.01, "{top_drop} against {expected}");
}
