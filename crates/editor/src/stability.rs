//! The stability check in the editor: core's shape-retention check
//! ([`springmesh_core::check`]) run on a copy of the model off the UI thread, its verdict and
//! per-node errors kept for the panel and the viewport's node colours, and the one-click fix
//! that stiffens the worst region with vicinity springs.

use crate::edit::{Connect, Edit, connecting_springs};
use eframe::egui;
use springmesh_core::check::{CheckOptions, CheckReport, check};
use springmesh_core::{NodeId, Spring, SpringKind, SpringModel};
use std::collections::BTreeSet;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// Vicinity springs of the fix join nodes this many mean spring lengths apart, around nodes
/// up to that far from the worst ones: far enough to brace across a cell of the mesh (a cube
/// lattice's face diagonal is √2 edges), near enough to keep the fix local.
const REACH: f32 = 1.8;

/// The check of one model revision: running, or done.
#[derive(Default)]
pub struct StabilityCheck {
    running: Option<(u64, Receiver<Result<CheckReport, String>>)>,
    /// The last finished check and the model revision it was of.
    pub report: Option<(u64, Result<CheckReport, String>)>,
    version: u64,
}

impl StabilityCheck {
    /// Starts checking `model` (revision `revision`) on a thread, dropping any check still
    /// running; `ctx` is woken when it is done.
    pub fn start(&mut self, model: &SpringModel, revision: u64, ctx: &egui::Context) {
        let (send, receive) = channel();
        let (model, ctx) = (model.clone(), ctx.clone());
        std::thread::spawn(move || {
            let result = check(&model, &CheckOptions::default()).map_err(|e| e.to_string());
            // The receiver is gone when a newer check replaced this one: nothing to tell.
            let _ = send.send(result);
            ctx.request_repaint();
        });
        self.running = Some((revision, receive));
    }

    /// True while a check runs.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Takes a finished check; true when one arrived.
    pub fn poll(&mut self) -> bool {
        let Some((revision, receive)) = &self.running else { return false };
        let result = match receive.try_recv() {
            Ok(result) => result,
            Err(TryRecvError::Empty) => return false,
            Err(TryRecvError::Disconnected) => Err("the check stopped unexpectedly".to_string()),
        };
        self.report = Some((*revision, result));
        self.running = None;
        self.version += 1;
        true
    }

    /// Counts changes of the report (for the node colours).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Each node's error over twice the stability threshold, clamped to 1 (0 green, 0.5 at
    /// the threshold, 1 red), when the last check was of `revision`.
    pub fn node_levels(&self, revision: u64) -> Option<Vec<f32>> {
        let (r, Ok(report)) = self.report.as_ref()? else { return None };
        let scale = (2.0 * report.threshold) as f32;
        (*r == revision).then(|| {
            report.node_errors.iter().map(|e| (e / scale.max(1e-12)).clamp(0.0, 1.0)).collect()
        })
    }
}

/// Vicinity springs of `stiffness` (N/m) and `damping` (N·s/m) among the nodes around the
/// worst nodes of `report`: every pair within [`REACH`] mean spring lengths not joined yet.
/// `None` when that adds nothing.
pub fn fix(
    model: &SpringModel,
    report: &CheckReport,
    stiffness: f32,
    damping: f32,
) -> Option<Edit> {
    let rest = model.springs.rest_lengths();
    let mean = rest.iter().sum::<f32>() / rest.len().max(1) as f32;
    let reach = REACH * mean;
    let p = model.nodes.positions();
    let worst: Vec<NodeId> = report.worst_nodes.iter().map(|&(n, _)| n).collect();
    let region: BTreeSet<NodeId> = (0..p.len())
        .map(NodeId::from_index)
        .filter(|n| {
            worst
                .iter()
                .any(|w| p.get(w.index()).is_some_and(|q| q.distance(p[n.index()]) <= reach))
        })
        .collect();
    let springs: Vec<Spring> =
        connecting_springs(model, &region, Connect::Within(reach), stiffness, damping)
            .into_iter()
            .map(|s| Spring { kind: SpringKind::Vicinity, ..s })
            .collect();
    (!springs.is_empty()).then_some(Edit::AddSprings(springs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use springmesh_core::{Node, NodeId};

    /// A cube lattice of 3 × 3 × 3 nodes 0.1 m apart with only its 54 edges as springs: it
    /// has no diagonals, so it shears freely.
    fn lattice() -> SpringModel {
        let mut m = SpringModel::default();
        let at = |x: u32, y: u32, z: u32| NodeId(x + 3 * y + 9 * z);
        for z in 0..3 {
            for y in 0..3 {
                for x in 0..3 {
                    let position = glam::Vec3::new(x as f32, y as f32, z as f32) * 0.1;
                    m.nodes.push(Node { position, mass: 0.01 });
                }
            }
        }
        for z in 0..3 {
            for y in 0..3 {
                for x in 0..3 {
                    for (dx, dy, dz) in [(1, 0, 0), (0, 1, 0), (0, 0, 1)] {
                        if x + dx < 3 && y + dy < 3 && z + dz < 3 {
                            let (a, b) = (at(x, y, z), at(x + dx, y + dy, z + dz));
                            m.springs.push(Spring::new(a, b, 0.1, 200.0, SpringKind::Stretch));
                        }
                    }
                }
            }
        }
        m
    }

    #[test]
    fn the_fix_braces_the_worst_region_and_the_check_then_passes() {
        let mut m = lattice();
        assert_eq!(m.springs.len(), 54);
        let report = check(&m, &CheckOptions::default()).expect("checks");
        assert!(!report.stable, "a lattice without diagonals shears: {}", report.shape_error);
        let edit = fix(&m, &report, 200.0, 0.0).expect("something to add");
        crate::edit::apply(&mut m, edit).expect("fits");
        let after = check(&m, &CheckOptions::default()).expect("checks");
        println!("shape error {:.4} -> {:.4}", report.shape_error, after.shape_error);
        assert!(after.stable, "braced, it keeps its shape: {}", after.shape_error);
    }
}
