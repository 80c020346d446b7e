//! Tethers (issue 13): the stiff benchmark cloth keeps its springs near rest at few sub-steps,
//! tethers follow a moving anchor, and a piece torn off falls free.

use crate::common::{GridSprings, grid_cloth};
use glam::{Vec3, Vec3A};
use springmesh_core::model::{DEFAULT_SUBSTEPS, DEFAULT_TETHER_SLACK, Tethers};
use springmesh_core::{NodeId, Simulation, SpringKind, SpringModel};

/// The stiff benchmark cloth: n × n, 0.05 m, 1 g nodes, 1e5 N/m, two corners held.
fn stiff_cloth(n: usize) -> SpringModel {
    grid_cloth(n, 0.05, 0.001, GridSprings { stiffness: 1e5, damping: 0.0 })
}

/// The worst structural strain (stretch or compression) of `model` at `positions`.
fn worst_strain(model: &SpringModel, positions: &[Vec3A]) -> f32 {
    let structural = model.springs.iter().filter(|s| s.kind == SpringKind::Stretch);
    structural
        .map(|s| {
            let length = positions[s.a.index()].distance(positions[s.b.index()]);
            (length / s.rest_length - 1.0).abs()
        })
        .fold(0.0, f32::max)
}

/// The worst structural strain of the n × n stiff cloth after `seconds` at 60 Hz.
fn hang(n: usize, substeps: u32, tethers: Option<Tethers>, seconds: f32) -> f32 {
    let mut model = stiff_cloth(n);
    model.params.substeps = substeps;
    model.params.tethers = tethers;
    let mut sim = Simulation::new(&model).expect("valid");
    for _ in 0..(seconds * 60.0).round() as usize {
        sim.step(model.params.dt).expect("finite");
    }
    worst_strain(&model, sim.positions())
}

/// The worst structural strain of the n × n stiff cloth after 10 s at `substeps`, with the
/// default tethers and without, printed.
fn with_and_without(n: usize, substeps: u32) -> (f32, f32) {
    let on = hang(n, substeps, Some(Tethers::default()), 10.0);
    let off = hang(n, substeps, None, 10.0);
    println!(
        "{n} × {n} stiff cloth, {substeps} sub-steps, 10 s: worst structural strain {:.2}% with tethers, {:.2}% without",
        on * 100.0,
        off * 100.0
    );
    (on, off)
}

#[test]
fn the_stiff_cloth_holds_at_the_default_substeps_with_tethers_and_not_without() {
    let (on, off) = with_and_without(64, DEFAULT_SUBSTEPS);
    assert!(on < 0.05, "with tethers {:.2}%", on * 100.0);
    assert!(off > 0.10, "without tethers it is far over: {:.2}%", off * 100.0);
}

#[test]
fn at_five_substeps_the_large_cloth_holds_with_tethers_and_not_without() {
    // Issue 13, acceptance 2: the 128 × 128 stiff cloth at a game's five sub-steps.
    let (on, off) = with_and_without(128, 5);
    assert!(on < 0.05, "with tethers {:.2}%", on * 100.0);
    assert!(off > 1.0, "without tethers it stretches like rubber: {:.0}%", off * 100.0);
}

/// The rest geodesic distance from grid node (i, j) to (k, l) across the flat grid cloth: the
/// straight line (tethers are measured across its triangles, not only along its springs).
fn straight(spacing: f32, (i, j): (usize, usize), (k, l): (usize, usize)) -> f32 {
    let (dx, dz) = (i.abs_diff(k) as f32, j.abs_diff(l) as f32);
    spacing * dx.hypot(dz)
}

#[test]
fn tethers_follow_an_anchor_the_game_moves() {
    // A 2 m cloth held at the two corners of one edge; the game moves one corner 1 m along the
    // edge towards the other over a second (a move the cloth can follow without stretching).
    // Tethers centred where the anchor was would hold its neighbours a metre behind it.
    let n = 41;
    let spacing = 0.05;
    let model = grid_cloth(n, spacing, 0.002, GridSprings { stiffness: 5000.0, damping: 0.05 });
    let mut sim = Simulation::new(&model).expect("valid");
    let moved = NodeId(n as u32 - 1);
    let start = Vec3::from(sim.positions()[moved.index()]);
    let factor = 1.0 + DEFAULT_TETHER_SLACK;
    let mut worst_excess: f32 = 0.0;
    for frame in 1..=90 {
        let t = (frame as f32 / 60.0).min(1.0);
        sim.set_anchor_position(moved, start - Vec3::X * t).expect("an anchor");
        sim.step(model.params.dt).expect("finite");
        let anchor = sim.positions()[moved.index()];
        for (k, &x) in sim.positions().iter().enumerate().filter(|&(k, _)| k != 0 && k != n - 1) {
            let tether = straight(spacing, (k % n, k / n), (n - 1, 0)) * factor;
            worst_excess = worst_excess.max(x.distance(anchor) - tether);
        }
    }
    let centre = sim.positions().iter().map(|p| p.x).sum::<f32>() / (n * n) as f32;
    println!(
        "moved anchor: worst excess over a tether {worst_excess:.2e} m, cloth centre x {centre:.3} m"
    );
    assert!(worst_excess < 1e-4, "no node beyond its tether from the moved anchor");
    let rest_centre = (n - 1) as f32 * spacing / 2.0;
    assert!(centre < rest_centre - 0.3, "the cloth follows: centre x {centre}");
}

#[test]
fn a_piece_torn_off_loses_its_tethers_and_falls() {
    // A 16 × 16 cloth held along its edge z = 0; the springs across the line between rows 7
    // and 8 break at the first stretch: the lower half comes off.
    let n = 16;
    let mut model = grid_cloth(n, 0.05, 0.002, GridSprings { stiffness: 5000.0, damping: 0.05 });
    model.anchors = (0..n as u32).map(NodeId).collect();
    let row = |node: NodeId| node.index() / n;
    let mut springs: Vec<_> = model.springs.iter().collect();
    for s in &mut springs {
        if (row(s.a) < 8) != (row(s.b) < 8) {
            s.break_max = Some(s.rest_length * 1.001);
        }
    }
    model.springs = springs.into_iter().collect();
    let mut sim = Simulation::new(&model).expect("valid");
    let mut broken = 0;
    for _ in 0..60 {
        broken += sim.step(model.params.dt).expect("finite").broken.len();
    }
    let lower: Vec<f32> = (8 * n..n * n).map(|k| sim.positions()[k].y).collect();
    let drop = -lower.iter().sum::<f32>() / lower.len() as f32;
    println!("torn: {broken} springs broke; the lower half fell {drop:.2} m in 1 s");
    assert!(broken > 0);
    // Held by stale tethers, no node of it could be more than its 0.76 m path from the
    // anchors; falling free under the default damping of 0.5/s it drops about 4 m in a second
    // (less the few steps the tear takes).
    assert!(drop > 2.0, "the piece falls free: {drop} m");
}

#[test]
fn tethers_turned_on_at_run_time_are_built_then() {
    // Compiled without tethers (none are built), then turned on: the next step builds them
    // and the cloth holds as if it had had them from the start.
    let mut model = stiff_cloth(64);
    model.params.substeps = 5;
    model.params.tethers = None;
    let mut sim = Simulation::new(&model).expect("valid");
    sim.params_mut().tethers = Some(Tethers::default());
    for _ in 0..600 {
        sim.step(model.params.dt).expect("finite");
    }
    let turned_on = worst_strain(&model, sim.positions());
    let from_the_start = hang(64, 5, Some(Tethers::default()), 10.0);
    println!(
        "64 × 64, 5 sub-steps: {:.2}% with tethers turned on at run time, {:.2}% from the start",
        turned_on * 100.0,
        from_the_start * 100.0
    );
    assert!(turned_on < 0.05, "{:.2}%", turned_on * 100.0);
    assert!((turned_on - from_the_start).abs() < 1e-6, "the same tethers, the same run");
}
