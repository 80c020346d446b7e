//! Colliders a game moves each frame ([`Simulation::set_collider_pose`]): a capsule swinging
//! at 3 m/s under a draped cloth keeps every node outside it; one driven fast into a sheet
//! pushes it instead of jumping through; one sliding along its axis drags the cloth with it.
//! Each is judged at every frame, and the last two against the same run with the collider
//! teleported each frame instead (`params_mut`), which must fail them; the sheet also against
//! the run without continuous collision ([`Simulation::set_continuous_collision`]).

use crate::colliders::distance;
use crate::common::{GridSprings, grid_cloth};
use glam::{Quat, Vec3};
use springmesh_core::model::{Obstacle, Shape, Surface};
use springmesh_core::{NodeId, Simulation, SpringModel, ValidModel};

const DT: f32 = 1.0 / 60.0;
const NODE_RADIUS: f32 = 0.01;

/// A 1 × 1 m cloth of n × n nodes (n = 21 or 41) in the x–z plane at height 0, free, with
/// `capsule`.
fn cloth_with(n: usize, capsule: Shape) -> SpringModel {
    let (spacing, mass) = (1.0 / (n - 1) as f32, 0.8 / (n * n) as f32);
    let springs = GridSprings { stiffness: 800.0, damping: 0.02 };
    let mut model = grid_cloth(n, spacing, mass, springs);
    model.anchors.clear();
    model.params.tethers = None;
    model.params.node_radius = NODE_RADIUS;
    model.params.colliders = vec![Obstacle { shape: capsule, surface: Surface::default() }];
    model
}

fn simulation(model: SpringModel) -> Simulation {
    Simulation::new(&ValidModel::new(model).expect("valid"))
}

/// Puts collider 0 at `shape`: moved there across the step, or teleported before it.
fn place(sim: &mut Simulation, shape: Shape, teleport: bool) {
    if teleport {
        sim.params_mut().colliders[0].shape = shape;
    } else {
        sim.move_collider(0, shape).expect("a capsule stays a capsule");
    }
}

#[test]
fn a_capsule_swinging_at_3_m_s_under_a_draped_cloth_never_has_a_node_inside_it() {
    // A limb 0.5 m below its pivot, swinging ±1 rad at 6 rad/s: 3 m/s at the bottom.
    let (pivot, arm, swing, omega) = (Vec3::new(0.5, 0.2, 0.5), 0.5, 1.0f32, 6.0f32);
    let rest = Shape::Capsule {
        a: Vec3::new(-0.2, -0.3, 0.5),
        b: Vec3::new(1.2, -0.3, 0.5),
        radius: 0.08,
    };
    let mut sim = simulation(cloth_with(21, rest));
    let mut fast_touching = 0;
    for frame in 0..240 {
        // A second to drape, then three of swinging.
        let t = (frame + 1 - 60).max(0) as f32 * DT;
        let angle = swing * (omega * t).sin();
        let centre = pivot + Vec3::new(0.0, -angle.cos(), angle.sin()) * arm;
        sim.set_collider_pose(0, centre, Quat::IDENTITY).expect("posed");
        sim.step(DT).expect("finite");
        let now = sim.colliders()[0].shape;
        let nearest = sim.positions().iter().map(|&p| distance(&now, p.into()));
        let nearest = nearest.fold(f32::INFINITY, f32::min);
        assert!(
            nearest >= NODE_RADIUS - 1e-3,
            "frame {frame}: a node's centre {nearest} m from the capsule's surface"
        );
        // Frames in which the capsule goes faster than 2 m/s with the cloth on it.
        let speed = arm * swing * omega * (omega * t).cos().abs() * f32::from(t > 0.0);
        fast_touching += usize::from(speed > 2.0 && nearest < 2.0 * NODE_RADIUS);
    }
    println!("swing: the cloth on the capsule going faster than 2 m/s in {fast_touching} frames");
    assert!(fast_touching >= 20, "the cloth rides on the fast capsule ({fast_touching} frames)");
}

/// A hammock: the 41 × 41 cloth (2.5 cm apart) held by its edges z = 0 and z = 1, and a thin
/// capsule (2 cm radius: the nodes cannot slip between its rows) along x, longer than the cloth
/// is wide, above its middle, driven down through it at 3 m/s to 20 cm below. The highest node
/// of the middle row above the capsule's axis at any frame: positive means it went through.
fn hammock_breach(teleport: bool, continuous: bool) -> f32 {
    let (z, radius) = (0.5, 0.02);
    let capsule =
        |y: f32| Shape::Capsule { a: Vec3::new(-0.5, y, z), b: Vec3::new(1.5, y, z), radius };
    let mut model = cloth_with(41, capsule(0.05));
    model.anchors = (0..41 * 41).filter(|&k| [0, 40].contains(&(k / 41))).map(NodeId).collect();
    let mut sim = simulation(model);
    sim.set_continuous_collision(continuous);
    let mut breach = f32::NEG_INFINITY;
    for frame in 0..90 {
        let y = (0.05 - 3.0 * (frame + 1) as f32 * DT).max(-0.2);
        place(&mut sim, capsule(y), teleport);
        sim.step(DT).expect("finite");
        let row = sim.positions().iter().filter(|p| (p.z - z).abs() < radius);
        breach = row.map(|p| p.y - y).fold(breach, f32::max);
    }
    breach
}

#[test]
fn a_capsule_driven_into_a_sheet_at_3_m_s_pushes_it_instead_of_tunnelling() {
    let moved = hammock_breach(false, true);
    let teleported = hammock_breach(true, true);
    let discrete = hammock_breach(false, false);
    println!(
        "highest node of the middle row above the capsule: moved {moved:.3} m, teleported \
         {teleported:.3} m, without continuous collision {discrete:.3} m"
    );
    assert!(moved < -0.02, "the sheet stays below the capsule ({moved} m above it)");
    assert!(teleported > 0.0, "teleported 5 cm a frame, it jumps through ({teleported} m)");
    assert!(discrete > 0.0, "without continuous collision, it jumps through ({discrete} m)");
}

/// The cloth draped on a long capsule along x, which then slides along its own axis at 1 m/s
/// for a second: the cloth's mean velocity along x over the last 10 frames.
fn dragged_speed(teleport: bool) -> f32 {
    let capsule = |x: f32| Shape::Capsule {
        a: Vec3::new(x - 1.0, -0.3, 0.5),
        b: Vec3::new(x + 2.0, -0.3, 0.5),
        radius: 0.08,
    };
    let mut sim = simulation(cloth_with(21, capsule(0.0)));
    let mut speeds = Vec::new();
    for frame in 0..120 {
        let x = (frame + 1 - 60).max(0) as f32 * DT;
        place(&mut sim, capsule(x), teleport);
        sim.step(DT).expect("finite");
        let v = sim.velocities();
        speeds.push(v.iter().map(|v| v.x).sum::<f32>() / v.len() as f32);
    }
    speeds[110..].iter().sum::<f32>() / 10.0
}

#[test]
fn friction_drags_a_cloth_along_a_capsule_sliding_under_it() {
    let moved = dragged_speed(false);
    let teleported = dragged_speed(true);
    println!(
        "cloth along x after 1 s of a 1 m/s slide: moved {moved:.3} m/s, teleported {teleported:.3} m/s"
    );
    assert!(moved > 0.7, "friction carries the cloth ({moved} m/s)");
    assert!(teleported.abs() < 0.2, "a still surface holds it back ({teleported} m/s)");
}

#[test]
fn moving_a_collider_to_another_kind_or_past_the_end_is_refused() {
    let mut sim =
        simulation(cloth_with(21, Shape::Capsule { a: Vec3::ZERO, b: Vec3::X, radius: 0.1 }));
    let sphere = Shape::Sphere { center: Vec3::ZERO, radius: 0.1 };
    let e = sim.move_collider(0, sphere).expect_err("another kind");
    assert!(e.to_string().contains("a capsule cannot become a sphere"), "{e}");
    let e = sim.set_collider_pose(1, Vec3::ZERO, Quat::IDENTITY).expect_err("one collider");
    assert!(e.to_string().contains("collider 1 does not exist"), "{e}");
    let thin = Shape::Capsule { a: Vec3::ZERO, b: Vec3::X, radius: -1.0 };
    let e = sim.move_collider(0, thin).expect_err("negative radius");
    assert!(e.to_string().contains("colliders[0].radius"), "{e}");
    let e = sim.set_collider_pose(0, Vec3::NAN, Quat::IDENTITY).expect_err("not finite");
    assert!(e.to_string().contains("not finite"), "{e}");
    assert_eq!(sim.colliders()[0].shape, Shape::Capsule { a: Vec3::ZERO, b: Vec3::X, radius: 0.1 });
}
