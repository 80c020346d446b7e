//! A 1.5 m rope of 30 nodes, held at one end, starting horizontal so that it swings down.

use super::build::chain;
use glam::Vec3;
use springmesh_core::{Node, NodeId, SpringModel};

pub fn model() -> SpringModel {
    let mut m = SpringModel::default();
    let start = m.nodes.push(Node { position: Vec3::new(0.0, 1.5, 0.0), mass: 0.01 });
    chain(&mut m, start, Vec3::new(1.5, 1.5, 0.0), 29, 0.01, 2000.0, 20.0);
    m.anchors = vec![NodeId(0)];
    m
}
