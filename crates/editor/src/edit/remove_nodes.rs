//! A model without some of its nodes: their springs, faces and anchors go with them, and every
//! index after a removed node moves down, so the result stays valid. A skin's vertices keep
//! the weights of the cage nodes that remain; a rig keeps the bindings of the nodes that remain.

use crate::error::EditorError;
use springmesh_core::{Face, NodeId, SpringModel};
use std::collections::BTreeSet;

/// `model` without the nodes whose indices are in `gone`; an error when a skin vertex rides
/// on removed nodes only.
pub(super) fn without(
    model: &SpringModel,
    gone: &BTreeSet<usize>,
) -> Result<SpringModel, EditorError> {
    let mut new_index = Vec::with_capacity(model.nodes.len());
    let mut next = 0u32;
    for i in 0..model.nodes.len() {
        if gone.contains(&i) {
            new_index.push(None);
        } else {
            new_index.push(Some(NodeId(next)));
            next += 1;
        }
    }
    let map = |n: NodeId| new_index.get(n.index()).copied().flatten();
    let skin = model.skin.as_ref().map(|s| s.renumbered(&new_index)).transpose();
    let mut kept = SpringModel {
        uvs: model.uvs.clone(),
        params: model.params.clone(),
        metadata: model.metadata.clone(),
        skin: skin.map_err(|vertex| EditorError::SkinLeftBehind { vertex })?,
        rig: model
            .rig
            .as_ref()
            .map(|r| r.retained(|i| new_index.get(i).is_some_and(Option::is_some))),
        ..SpringModel::default()
    };
    for (i, node) in model.nodes.iter().enumerate() {
        if new_index[i].is_some() {
            kept.nodes.push(node);
        }
    }
    for s in model.springs.iter() {
        if let (Some(a), Some(b)) = (map(s.a), map(s.b)) {
            kept.springs.push(springmesh_core::Spring { a, b, ..s });
        }
    }
    for f in model.faces.iter() {
        if let [Some(a), Some(b), Some(c)] = f.nodes.map(map) {
            kept.faces.push(Face { nodes: [a, b, c], uvs: f.uvs });
        }
    }
    kept.anchors = model.anchors.iter().filter_map(|&n| map(n)).collect();
    Ok(kept)
}
