//! # The shape-retention check
//!
//! A converted mesh is rarely a good spring network: a cube made of its edges alone has no
//! springs through its inside, so a knock leaves it sheared or collapsed, and a closed mesh
//! with springs on its surface only sags into a puddle under its own weight. The check makes
//! both measurable with two tests, each ending in the same measure:
//!
//! - **Shake test.** Gravity off, every free node gets a random velocity, each component drawn
//!   uniformly from [−s, s] with s = `shake` × the bounding-box diagonal per second, from a
//!   xorshift64 generator seeded with `seed` (so a check is repeatable). For a model without
//!   anchors the mean velocity is removed, so it does not drift off. The model then settles
//!   with its own integrator and sub-steps for `settle_seconds`, with the global damping raised
//!   to `damping` (1/s) so it comes to rest.
//! - **Gravity test** (what a game will do with it). From rest, the model hangs from its
//!   anchors or, when it has none, rests on a ground plane just under its lowest node (the
//!   model's own ground and friction if it has one, moved there; else friction 0.5), with the
//!   model's own parameters (gravity, damping, air, pressure, integrator) for `sag_seconds`.
//!
//! **Measure.** The end positions are moved onto the rest positions by the best rigid transform
//! ([`crate::check::align`]): turning or moving as a whole is not a change of shape. Each node's
//! error is its distance from its rest position after alignment, over the bounding-box
//! diagonal; a test's error is the root mean square of the node errors (`shape_error` for the
//! shake, `sag_error` for gravity). The model is `stable` when both are below `threshold`.
//!
//! Defaults: a shake of 1 diagonal per second (a 30 cm jelly gets up to 30 cm/s per axis,
//! enough to flatten any cell that has no diagonal), 5 s of settling at 4/s damping (kinetic
//! energy falls by e^(−40)), 5 s under gravity (a second or two to land and a few periods of
//! any wobble, which the default damping of 0.5/s and the springs' own damping shrink well
//! below the threshold), threshold 2% (a braced lattice returns to within 0.1%; a solid filled
//! by the converter sags about 1% of its height, a diagonal's fraction less; a mechanism or a
//! hollow shell ends tens of percent off). A sheet hung from its anchors drapes, which the
//! gravity test reports as sag: for cloth, read `shape_error`.

use crate::model::{Ground, Surface};
pub mod align;

use crate::{CoreError, NodeId, Simulation, SpringModel};
use align::best_rigid;
use glam::{Vec3, Vec3A};

/// How to shake and judge a model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckOptions {
    /// Seed of the random velocity field.
    pub seed: u64,
    /// Shake strength: velocity components up to this many bounding-box diagonals per second.
    pub shake: f32,
    /// How long (s) the model settles after the shake.
    pub settle_seconds: f32,
    /// Global damping rate (1/s) while settling.
    pub damping: f32,
    /// How long (s) the model rests on the ground or hangs in the gravity test.
    pub sag_seconds: f32,
    /// Largest error (fraction of the diagonal) of either test still called stable.
    pub threshold: f64,
}

impl Default for CheckOptions {
    fn default() -> Self {
        Self {
            seed: 1,
            shake: 1.0,
            settle_seconds: 5.0,
            damping: 4.0,
            sag_seconds: 5.0,
            threshold: 0.02,
        }
    }
}

/// How far a model ended from its rest shape after one test.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Deviation {
    /// RMS distance of the nodes from their rest positions after rigid alignment, over the
    /// bounding-box diagonal.
    pub error: f64,
    /// The largest node error, over the diagonal.
    pub max_node_error: f64,
    /// The nodes with the largest errors, largest first (at most ten).
    pub worst_nodes: Vec<(NodeId, f64)>,
    /// Per node, its error over the diagonal (for colouring).
    pub node_errors: Vec<f32>,
}

/// What held the model in the gravity test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Support {
    /// It hung from its anchors.
    Anchors,
    /// It rested on a ground plane at this height (m).
    Ground {
        /// Height of the plane (m).
        height: f32,
    },
}

/// What the check found.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckReport {
    /// The shake test.
    pub shake: Deviation,
    /// The gravity test.
    pub sag: Deviation,
    /// What held the model in the gravity test.
    pub support: Support,
    /// Both errors below the threshold.
    pub stable: bool,
    /// The threshold used.
    pub threshold: f64,
    /// Groups of nodes joined by springs.
    pub components: usize,
    /// Nodes that no spring touches.
    pub unconnected_nodes: Vec<NodeId>,
}

impl CheckReport {
    /// Per node, the larger of its two errors (for colouring).
    pub fn worse_node_errors(&self) -> Vec<f32> {
        self.shake.node_errors.iter().zip(&self.sag.node_errors).map(|(&a, &b)| a.max(b)).collect()
    }

    /// The test with the larger error.
    pub fn worse(&self) -> &Deviation {
        if self.sag.error > self.shake.error { &self.sag } else { &self.shake }
    }
}

/// Shakes, settles, rests and measures `model` (see the module docs).
pub fn check(model: &SpringModel, options: &CheckOptions) -> Result<CheckReport, CoreError> {
    let parts = model.parts();
    let diagonal = model.bounding_box().map_or(1.0, |b| b.diagonal()).max(f32::MIN_POSITIVE);
    let shake = shake_test(model, options, diagonal)?;
    let (sag, support) = gravity_test(model, options, diagonal)?;
    Ok(CheckReport {
        stable: shake.error < options.threshold && sag.error < options.threshold,
        shake,
        sag,
        support,
        threshold: options.threshold,
        components: parts.count,
        unconnected_nodes: parts.unconnected,
    })
}

/// The shake test: gravity off, random velocities, damped settling.
fn shake_test(
    model: &SpringModel,
    options: &CheckOptions,
    diagonal: f32,
) -> Result<Deviation, CoreError> {
    let mut quiet = model.clone();
    quiet.params.gravity = Vec3::ZERO;
    quiet.params.damping = options.damping.max(0.0);
    let mut sim = Simulation::new(&quiet)?;
    shake(&mut sim, model, options.shake * diagonal, options.seed);
    run(&mut sim, options.settle_seconds)?;
    Ok(deviation(sim.positions(), model.nodes.positions(), diagonal))
}

/// The gravity test: hanging from the anchors, or resting on a ground just under the model.
fn gravity_test(
    model: &SpringModel,
    options: &CheckOptions,
    diagonal: f32,
) -> Result<(Deviation, Support), CoreError> {
    let mut resting = model.clone();
    let support = if model.anchors.is_empty() {
        let height = ground_under(model);
        let surface = model.params.ground.map_or_else(Surface::default, |g| g.surface);
        resting.params.ground = Some(Ground { height, surface });
        Support::Ground { height }
    } else {
        Support::Anchors
    };
    let mut sim = Simulation::new(&resting)?;
    run(&mut sim, options.sag_seconds)?;
    Ok((deviation(sim.positions(), model.nodes.positions(), diagonal), support))
}

/// The height of a ground plane on which the model's lowest node rests: its collision radius
/// below that node.
pub fn ground_under(model: &SpringModel) -> f32 {
    let lowest = model.bounding_box().map_or(0.0, |b| b.min.y);
    lowest - model.params.node_radius.max(0.0)
}

/// Steps `sim` by the model's frame step for `seconds`.
fn run(sim: &mut Simulation, seconds: f32) -> Result<(), CoreError> {
    let dt = sim.params().dt;
    let steps = (seconds / dt).ceil().max(0.0) as usize;
    for _ in 0..steps {
        sim.step(dt)?;
    }
    Ok(())
}

/// How far `end` is from `rest` after the best rigid alignment, over `diagonal`.
fn deviation(end: &[Vec3A], rest: &[Vec3], diagonal: f32) -> Deviation {
    let (rotation, translation) = best_rigid(end, rest);
    let node_errors: Vec<f32> = end
        .iter()
        .zip(rest)
        .map(|(&p, &r)| (rotation * Vec3::from(p) + translation).distance(r) / diagonal)
        .collect();
    let n = node_errors.len().max(1) as f64;
    let error = (node_errors.iter().map(|&e| f64::from(e) * f64::from(e)).sum::<f64>() / n).sqrt();
    let mut worst: Vec<(NodeId, f64)> = node_errors
        .iter()
        .enumerate()
        .map(|(i, &e)| (NodeId::from_index(i), f64::from(e)))
        .collect();
    worst.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    worst.truncate(10);
    Deviation {
        error,
        max_node_error: worst.first().map_or(0.0, |w| w.1),
        worst_nodes: worst,
        node_errors,
    }
}

/// Gives every free node a seeded random velocity with components in [−speed, speed]; removes
/// the mean when nothing is anchored.
fn shake(sim: &mut Simulation, model: &SpringModel, speed: f32, seed: u64) {
    let mut state = seed.max(1);
    let mut uniform = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    };
    let mut anchored = vec![false; model.nodes.len()];
    for a in &model.anchors {
        anchored[a.index()] = true;
    }
    let v = sim.velocities_mut();
    for (v, &held) in v.iter_mut().zip(&anchored) {
        let random = Vec3A::new(uniform(), uniform(), uniform()) * speed;
        if !held {
            *v = random;
        }
    }
    if model.anchors.is_empty() && !v.is_empty() {
        let mean = v.iter().copied().sum::<Vec3A>() / v.len() as f32;
        for v in v.iter_mut() {
            *v -= mean;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Node, Spring, SpringKind};

    /// An n × n × n lattice of 1 m, edges only or braced by face and body diagonals.
    fn lattice(n: usize, braced: bool) -> SpringModel {
        let mut m = SpringModel::default();
        let id = |i: usize, j: usize, k: usize| NodeId(((k * n + j) * n + i) as u32);
        let h = 1.0 / (n - 1) as f32;
        for k in 0..n {
            for j in 0..n {
                for i in 0..n {
                    m.nodes.push(Node {
                        position: Vec3::new(i as f32, j as f32, k as f32) * h,
                        mass: 0.01,
                    });
                }
            }
        }
        let mut pairs = Vec::new();
        for k in 0..n - 1 {
            for j in 0..n - 1 {
                for i in 0..n - 1 {
                    let c: Vec<NodeId> =
                        (0..8).map(|c| id(i + (c & 1), j + ((c >> 1) & 1), k + (c >> 2))).collect();
                    for (x, &a) in c.iter().enumerate() {
                        for &b in &c[x + 1..] {
                            let d = m.distance(a, b).unwrap_or(0.0);
                            if braced || d < 1.01 * h {
                                pairs.push((a.min(b), a.max(b)));
                            }
                        }
                    }
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        for (a, b) in pairs {
            let d = m.distance(a, b).unwrap_or(0.0);
            m.springs.push(Spring::new(a, b, d, 200.0, SpringKind::Manual));
        }
        m
    }

    #[test]
    fn a_lattice_of_edges_is_unstable_and_a_braced_one_stable() {
        let loose = check(&lattice(4, false), &CheckOptions::default()).expect("finite");
        let braced = check(&lattice(4, true), &CheckOptions::default()).expect("finite");
        let (loose_shake, braced_shake) = (loose.shake.error, braced.shake.error);
        assert!(!loose.stable && loose_shake > 0.05, "edges only: {loose_shake}");
        assert!(braced.stable && braced_shake < 0.005, "braced: {braced_shake}");
        assert_eq!(
            (braced.components, braced.unconnected_nodes.len(), braced.shake.node_errors.len()),
            (1, 0, 64)
        );
        assert!(loose.shake.worst_nodes.windows(2).all(|w| w[0].1 >= w[1].1));
        let again = check(&lattice(4, false), &CheckOptions::default()).expect("finite");
        assert_eq!(again.shake.error, loose_shake, "seeded: the same every time");
    }

    #[test]
    fn the_gravity_test_rests_the_model_on_a_ground_just_under_it() {
        let mut m = lattice(3, true);
        m.params.ground = Some(Ground { height: -5.0, surface: Surface::default() });
        let report = check(&m, &CheckOptions::default()).expect("finite");
        let below = -m.params.node_radius;
        assert_eq!(report.support, Support::Ground { height: below });
        assert!(report.sag.error < 0.02, "a braced lattice stands: {}", report.sag.error);
        m.anchors.push(NodeId(0));
        assert_eq!(check(&m, &CheckOptions::default()).expect("finite").support, Support::Anchors);
    }

    #[test]
    fn an_unbraced_lattice_sags_under_gravity() {
        // Edges only: it shears flat on the ground. A perfectly upright lattice under perfectly
        // vertical gravity is in (unstable) balance, so gravity leans 3° to tip it over.
        let mut m = lattice(3, false);
        m.params.gravity = Vec3::new(0.5, -9.8, 0.0);
        let report = check(&m, &CheckOptions::default()).expect("finite");
        assert!(report.sag.error > 0.05, "a mechanism folds: {}", report.sag.error);
        assert!(!report.stable);
    }
}
