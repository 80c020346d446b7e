//! # The shape-retention check
//!
//! A converted mesh is rarely a good spring network: a cube made of its edges alone has no
//! springs through its inside, so a knock leaves it sheared or collapsed. The check makes
//! that measurable:
//!
//! 1. **Shake.** Gravity off, every free node gets a random velocity, each component drawn
//!    uniformly from [−s, s] with s = `shake` × the bounding-box diagonal per second, from a
//!    xorshift64 generator seeded with `seed` (so a check is repeatable). For a model without
//!    anchors the mean velocity is removed, so it does not drift off.
//! 2. **Settle.** The model is stepped with its own integrator and sub-steps for
//!    `settle_seconds`, with the global damping raised to `damping` (1/s) so it comes to rest.
//! 3. **Align.** The end positions are moved onto the rest positions by the best rigid
//!    transform ([`crate::sim::align`]): turning or moving as a whole is not a change of shape.
//! 4. **Measure.** Each node's error is its distance from its rest position after alignment,
//!    over the diagonal. `shape_error` is the root mean square of the errors; the model is
//!    `stable` when it is below `threshold`.
//!
//! Defaults: a shake of 1 diagonal per second (a 30 cm jelly gets up to 30 cm/s per axis,
//! enough to flatten any cell that has no diagonal), 5 s of settling at 4/s damping (kinetic
//! energy falls by e^(−40)), threshold 2% (a braced lattice returns to within 0.1%; a
//! mechanism ends tens of percent off).

use crate::sim::align::best_rigid;
use crate::{CoreError, NodeId, Simulation, SpringModel};
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
    /// Largest `shape_error` (fraction of the diagonal) still called stable.
    pub threshold: f64,
}

impl Default for CheckOptions {
    fn default() -> Self {
        Self { seed: 1, shake: 1.0, settle_seconds: 5.0, damping: 4.0, threshold: 0.02 }
    }
}

/// What the check found.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckReport {
    /// RMS distance of the nodes from their rest positions after rigid alignment, over the
    /// bounding-box diagonal.
    pub shape_error: f64,
    /// The largest node error, over the diagonal.
    pub max_node_error: f64,
    /// The nodes with the largest errors, largest first (at most ten).
    pub worst_nodes: Vec<(NodeId, f64)>,
    /// Per node, its error over the diagonal (for colouring).
    pub node_errors: Vec<f32>,
    /// `shape_error` < the threshold.
    pub stable: bool,
    /// The threshold used.
    pub threshold: f64,
    /// Groups of nodes joined by springs.
    pub components: usize,
    /// Nodes that no spring touches.
    pub unconnected_nodes: Vec<NodeId>,
}

/// Shakes, settles and measures `model` (see the module docs).
pub fn check(model: &SpringModel, options: &CheckOptions) -> Result<CheckReport, CoreError> {
    let parts = model.parts();
    let mut quiet = model.clone();
    quiet.params.gravity = Vec3::ZERO;
    quiet.params.damping = options.damping.max(0.0);
    let mut sim = Simulation::new(&quiet)?;
    let diagonal = model.bounding_box().map_or(1.0, |b| b.diagonal()).max(f32::MIN_POSITIVE);
    shake(&mut sim, model, options.shake * diagonal, options.seed);
    let dt = quiet.params.dt;
    let steps = (options.settle_seconds / dt).ceil().max(0.0) as usize;
    for _ in 0..steps {
        sim.step(dt)?;
    }
    let rest = model.nodes.positions();
    let (rotation, translation) = best_rigid(sim.positions(), rest);
    let node_errors: Vec<f32> = sim
        .positions()
        .iter()
        .zip(rest)
        .map(|(&p, &r)| (rotation * Vec3::from(p) + translation).distance(r) / diagonal)
        .collect();
    let n = node_errors.len().max(1) as f64;
    let shape_error =
        (node_errors.iter().map(|&e| f64::from(e) * f64::from(e)).sum::<f64>() / n).sqrt();
    let mut worst: Vec<(NodeId, f64)> = node_errors
        .iter()
        .enumerate()
        .map(|(i, &e)| (NodeId::from_index(i), f64::from(e)))
        .collect();
    worst.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    worst.truncate(10);
    Ok(CheckReport {
        shape_error,
        max_node_error: worst.first().map_or(0.0, |w| w.1),
        worst_nodes: worst,
        node_errors,
        stable: shape_error < options.threshold,
        threshold: options.threshold,
        components: parts.count,
        unconnected_nodes: parts.unconnected,
    })
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
        assert!(!loose.stable && loose.shape_error > 0.05, "edges only: {}", loose.shape_error);
        assert!(braced.stable && braced.shape_error < 0.005, "braced: {}", braced.shape_error);
        assert_eq!(
            (braced.components, braced.unconnected_nodes.len(), braced.node_errors.len()),
            (1, 0, 64)
        );
        assert!(loose.worst_nodes.windows(2).all(|w| w[0].1 >= w[1].1));
        let again = check(&lattice(4, false), &CheckOptions::default()).expect("finite");
        assert_eq!(again.shape_error, loose.shape_error, "seeded: the same every time");
    }
}
