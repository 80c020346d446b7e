//! Small models the unit tests share.

use crate::{Node, NodeId, Spring, SpringKind, SpringModel};
use glam::Vec3;

/// Two nodes of 1 kg at (0, 0, 0) and (1, 0, 0), joined by a spring of 100 N/m.
pub(crate) fn two_nodes() -> SpringModel {
    let mut m = SpringModel::default();
    for x in [0.0, 1.0] {
        m.nodes.push(Node { position: Vec3::new(x, 0.0, 0.0), mass: 1.0 });
    }
    m.springs.push(Spring::new(NodeId(0), NodeId(1), 1.0, 100.0, SpringKind::Manual));
    m
}
