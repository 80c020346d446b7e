//! # Bracing the worst region, only when it helps
//!
//! The one-click fix of the editor and `springmesh brace`: vicinity springs among the nodes
//! around the worst nodes of a check ([`crate::check`]), every pair within
//! [`REACH`] mean spring lengths that no spring joins yet. A fix that adds springs can still
//! make the model behave worse (springs that pull a sagging region towards a wrong place, or
//! a region that was holding its neighbours up now braced stiffer than they are), so
//! [`brace`] tries it on a copy, checks again, and keeps it only when the check's error (the
//! worse of the shake and gravity tests) falls by at least [`GAIN`] of itself.

use crate::AnalysisError;
use crate::check::{CheckOptions, CheckReport, check};
use crate::connect::{Connect, connecting_springs};
use springmesh_core::{NodeId, Spring, SpringKind, SpringModel};
use std::collections::BTreeSet;

/// The fix joins nodes this many mean spring lengths apart, around nodes up to that far from
/// the worst ones: far enough to brace across a cell of the mesh (a cube lattice's face
/// diagonal is √2 edges), near enough to keep the fix local.
pub const REACH: f32 = 1.8;

/// The smallest relative fall of the error that counts as help: 1%.
pub const GAIN: f64 = 0.01;

/// The candidate fix: vicinity springs of `stiffness` (N/m) and `damping` (N·s/m) among the
/// nodes around `worst`. Empty when every such pair is joined already.
pub fn brace_springs(
    model: &SpringModel,
    worst: &[NodeId],
    stiffness: f32,
    damping: f32,
) -> Vec<Spring> {
    let rest = model.springs.rest_lengths();
    let mean = rest.iter().sum::<f32>() / rest.len().max(1) as f32;
    let reach = REACH * mean;
    let p = model.nodes.positions();
    let region: BTreeSet<NodeId> = (0..p.len())
        .map(NodeId::from_index)
        .filter(|n| {
            worst
                .iter()
                .any(|w| p.get(w.index()).is_some_and(|q| q.distance(p[n.index()]) <= reach))
        })
        .collect();
    connecting_springs(model, &region, Connect::Within(reach), stiffness, damping)
        .into_iter()
        .map(|s| Spring { kind: SpringKind::Vicinity, ..s })
        .collect()
}

/// A tried fix.
#[derive(Clone, Debug)]
pub struct Braced {
    /// The springs the fix adds (whether kept or not).
    pub springs: Vec<Spring>,
    /// The check before.
    pub before: CheckReport,
    /// The check of the model with the springs added.
    pub after: CheckReport,
}

impl Braced {
    /// True when the fix lowered the error by at least [`GAIN`] of itself: keep it. (A change
    /// in the last digits is the solver's rounding over a different spring order, not help.)
    pub fn helps(&self) -> bool {
        error(&self.after) < (1.0 - GAIN) * error(&self.before)
    }
}

/// The error a fix must lower: the worse of the two tests.
pub fn error(report: &CheckReport) -> f64 {
    report.shake.error.max(report.sag.error)
}

/// Checks `model` (or takes `before`, its check), adds [`brace_springs`] around the worst
/// nodes to a copy and checks that; `None` when there is nothing to add.
pub fn brace(
    model: &SpringModel,
    before: Option<CheckReport>,
    options: &CheckOptions,
    stiffness: f32,
    damping: f32,
) -> Result<Option<Braced>, AnalysisError> {
    let before = match before {
        Some(report) => report,
        None => check(model, options)?,
    };
    let worst: Vec<NodeId> = before.worse().worst_nodes.iter().map(|&(n, _)| n).collect();
    let springs = brace_springs(model, &worst, stiffness, damping);
    if springs.is_empty() {
        return Ok(None);
    }
    let mut braced = model.clone();
    for &s in &springs {
        braced.springs.push(s);
    }
    let after = check(&braced, options)?;
    Ok(Some(Braced { springs, before, after }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use springmesh_core::Node;

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
    fn the_fix_braces_the_worst_region_and_helps() {
        let m = lattice();
        assert_eq!(m.springs.len(), 54);
        let tried = brace(&m, None, &CheckOptions::default(), 200.0, 0.0)
            .expect("finite")
            .expect("something to add");
        println!("error {:.4} -> {:.4}", error(&tried.before), error(&tried.after));
        assert!(!tried.before.stable, "a lattice without diagonals shears");
        assert!(tried.helps() && tried.after.stable, "braced, it keeps its shape");
    }

    #[test]
    fn a_fix_that_does_not_help_is_reported_as_such() {
        // Springs of no stiffness change nothing: the error stays and the fix is not kept.
        let m = lattice();
        let tried = brace(&m, None, &CheckOptions::default(), 0.0, 0.0)
            .expect("finite")
            .expect("something to add");
        assert!(!tried.helps(), "{} -> {}", error(&tried.before), error(&tried.after));
    }
}
