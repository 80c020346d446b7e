//! Edits of a worn model's skeleton binding: what the editor's max-distance field and the
//! character's colliders make ([`Edit::SetRig`]).

use super::Edit;
use springmesh_core::model::{JointCollider, is_kinematic};
use springmesh_core::{NodeId, SpringModel};

/// The edit that gives `nodes` the max distance `r` (m; `None`: free of the skin): 0, or any
/// value under [`KINEMATIC_DISTANCE`](springmesh_core::model::KINEMATIC_DISTANCE) (stored as
/// 0), makes a node kinematic, so it is anchored; any other value frees an anchored one.
/// `None` when the model is worn on no skeleton.
pub fn set_max_distance(model: &SpringModel, nodes: &[NodeId], r: Option<f32>) -> Option<Edit> {
    let mut rig = model.rig.clone()?;
    let mut anchors = model.anchors.clone();
    let kinematic = is_kinematic(r);
    let r = if kinematic { Some(0.0) } else { r };
    for &n in nodes {
        if let Some(d) = rig.max_distance.get_mut(n.index()) {
            *d = r;
        }
    }
    anchors.retain(|a| kinematic || !nodes.contains(a));
    if kinematic {
        anchors.extend(nodes.iter().filter(|n| !model.anchors.contains(n)));
    }
    Some(Edit::SetRig { rig: Box::new(rig), anchors })
}

/// The edit that gives a worn model the character colliders `colliders`; `None` when the model is
/// worn on no skeleton.
pub fn set_character_colliders(model: &SpringModel, colliders: Vec<JointCollider>) -> Option<Edit> {
    let mut rig = model.rig.clone()?;
    rig.colliders = colliders;
    Some(Edit::SetRig { rig: Box::new(rig), anchors: model.anchors.clone() })
}
