//! Splitting spring batches, band stripes and node passes between threads changes nothing:
//! the same positions bit for bit.

use crate::common::{GridSprings, grid_cloth, shuffled};
use springmesh_core::model::Ground;
use springmesh_core::sim::Threads;
use springmesh_core::{Integrator, Simulation, SpringModel};

#[test]
fn threads_give_the_same_result_bit_for_bit() {
    // 200 × 200: colour batches of up to 20,000 springs, above the 16,384 below which a batch
    // stays on one thread, so they really are split (the 96 × 96 cloth this test had before
    // the threshold rose no longer was) — once the grid is shuffled: numbered row by row, its
    // springs lie in bands (kernels' `worth`), which run on one thread.
    // Numbered row by row, its long bands' stripes are split (halves of about 19,900 lanes),
    // and so are its node passes (40,000 nodes). Free and on a ground, its spin correction's
    // sums and its contacts are split too.
    let grid = grid_cloth(200, 0.05, 0.01, GridSprings { stiffness: 200.0, damping: 0.1 });
    let mut free = grid.clone();
    free.anchors.clear();
    free.params.ground = Some(Ground { height: -0.1, ..Ground::default() });
    let cases = [(shuffled(&grid, 7919), "shuffled"), (grid, "row by row"), (free, "free")];
    for (model, case) in cases {
        for integrator in Integrator::ALL {
            let mut model = model.clone();
            model.params.integrator = integrator;
            model.params.substeps = 8;
            let (one, all) = (run(&model, Threads::One), run(&model, Threads::All));
            let same = one.iter().zip(&all).all(|(p, q)| p.to_array() == q.to_array());
            assert!(same, "{integrator:?}, {case}");
            let lowest = one.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
            assert!(lowest < -0.05, "{integrator:?}, {case}: it moved ({lowest})");
        }
    }
}

/// `model`'s positions after 20 frames at 60 Hz on `threads`.
fn run(model: &SpringModel, threads: Threads) -> Vec<glam::Vec3A> {
    let mut sim = Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
    sim.set_threads(threads);
    for _ in 0..20 {
        sim.step(1.0 / 60.0).expect("finite");
    }
    sim.positions().to_vec()
}

#[test]
fn a_world_steps_its_bodies_on_all_threads_to_the_same_bits() {
    // Two free cloths, one 0.3 m above the other, falling onto a ground: they touch, and the
    // bodies stepped in parallel end where they end stepped one after another.
    let run = |threads| {
        let mut world = two_cloths();
        world.set_threads(threads);
        let contacts: usize =
            (0..40).map(|_| world.step(1.0 / 60.0).expect("finite").contacts).sum();
        (contacts, positions(&world))
    };
    let ((contacts, one), (_, all)) = (run(Threads::One), run(Threads::All));
    assert!(contacts > 100, "the cloths touch: {contacts} contacts");
    assert!(one.iter().zip(&all).all(|(p, q)| p.to_array() == q.to_array()));
}

#[test]
fn a_body_stepped_while_the_others_contacts_are_answered_ends_as_if_stepped_after_them() {
    // The two cloths and a third far aside that meets neither: on all threads, while the
    // cloths' contacts are answered, the third is stepped by the next world step already
    // (the answer does not touch it). It ends where one thread, stepping it after the
    // answer, leaves it, and so do the cloths.
    let run = |threads| {
        let mut world = two_cloths();
        let mut bystander = world.bodies()[0].clone();
        for p in bystander.positions_mut() {
            *p += glam::Vec3A::new(5.0, 0.0, 0.0);
        }
        world.add_simulation(bystander);
        world.set_threads(threads);
        let reports: Vec<_> = (0..40).map(|_| world.step(1.0 / 60.0).expect("finite")).collect();
        let ahead = reports.iter().filter(|r| r.contacts > 0 && r.world_steps > 1).count();
        (ahead, positions(&world))
    };
    let ((ahead, one), (_, all)) = (run(Threads::One), run(Threads::All));
    assert!(ahead > 0, "frames of several world steps with contacts: {ahead}");
    assert!(one.iter().zip(&all).all(|(p, q)| p.to_array() == q.to_array()));
}

#[test]
fn a_world_plans_a_frame_from_where_the_last_one_left_its_bodies() {
    // A world keeps the motion its bodies' own steps and the last contacts left for the next
    // frame's plan (how many world steps); lending a body out forgets it, so that the plan is
    // worked out from the bodies again. Both take the same world steps to the same bits.
    let run = |forget: bool| {
        let mut world = two_cloths();
        world.set_threads(Threads::All);
        let mut steps = Vec::new();
        for _ in 0..40 {
            if forget {
                world.body_mut(0).expect("a body");
            }
            steps.push(world.step(1.0 / 60.0).expect("finite").world_steps);
        }
        (steps, positions(&world))
    };
    let ((kept, one), (again, all)) = (run(false), run(true));
    assert!(kept.iter().any(|&k| k > 1), "the cloths fall fast enough to need more: {kept:?}");
    assert_eq!(kept, again);
    assert!(one.iter().zip(&all).all(|(p, q)| p.to_array() == q.to_array()));
}

/// Two free 20 × 20 cloths on a ground, one 0.3 m above the other and aside, in one world.
fn two_cloths() -> springmesh_core::World {
    let mut lower = grid_cloth(20, 0.05, 0.01, GridSprings { stiffness: 200.0, damping: 0.1 });
    lower.anchors.clear();
    lower.params.ground = Some(Ground { height: -0.1, ..Ground::default() });
    let mut upper = lower.clone();
    upper.nodes = upper
        .nodes
        .iter()
        .map(|n| springmesh_core::Node {
            position: n.position + glam::Vec3::new(0.2, 0.3, 0.1),
            ..n
        })
        .collect();
    let mut world = springmesh_core::World::new();
    for m in [lower, upper] {
        world.add(&springmesh_core::ValidModel::new(m).expect("valid"));
    }
    world
}

/// Every body's positions of `world`, body after body.
fn positions(world: &springmesh_core::World) -> Vec<glam::Vec3A> {
    world.bodies().iter().flat_map(|b| b.positions().to_vec()).collect()
}
