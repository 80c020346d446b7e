//! The rig of a model as it is written: in `.spring.json` the `rig` object, in a version 7
//! `.spring` file a record after the metadata (docs/file-format.md, "Rig").

use crate::bounded;
use crate::model::{Backstop, Joint, JointCollider, Obstacle, RIG_WEIGHTS, Rig};
use glam::Mat4;
use serde::{Deserialize, Serialize};

/// A rig as written: its joints, then one binding per node.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RigFile {
    #[serde(deserialize_with = "bounded::vec")]
    joints: Vec<JointRecord>,
    #[serde(default, deserialize_with = "bounded::vec")]
    nodes: Vec<BindingRecord>,
    #[serde(default, deserialize_with = "bounded::vec")]
    colliders: Vec<JointColliderRecord>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JointColliderRecord {
    joint: u16,
    collider: Obstacle,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JointRecord {
    #[serde(deserialize_with = "bounded::string")]
    name: String,
    #[serde(default)]
    parent: Option<u16>,
    /// Column-major, as glTF writes matrices.
    inverse_bind: [f32; 16],
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BindingRecord {
    joints: [u16; RIG_WEIGHTS],
    weights: [f32; RIG_WEIGHTS],
    #[serde(default)]
    max_distance: Option<f32>,
    #[serde(default)]
    backstop: Option<Backstop>,
}

impl From<&Rig> for RigFile {
    fn from(r: &Rig) -> Self {
        let joints = r.joints.iter().map(|j| JointRecord {
            name: j.name.clone(),
            parent: j.parent,
            inverse_bind: j.inverse_bind.to_cols_array(),
        });
        let nodes = r.node_joints.iter().zip(&r.node_weights).zip(&r.max_distance);
        let nodes =
            nodes.enumerate().map(|(i, ((&joints, &weights), &max_distance))| BindingRecord {
                joints,
                weights,
                max_distance,
                backstop: r.backstop.get(i).copied().flatten(),
            });
        let colliders = r
            .colliders
            .iter()
            .map(|c| JointColliderRecord { joint: c.joint, collider: c.collider });
        RigFile { joints: joints.collect(), nodes: nodes.collect(), colliders: colliders.collect() }
    }
}

impl From<RigFile> for Rig {
    fn from(f: RigFile) -> Self {
        let joints = f.joints.into_iter().map(|j| Joint {
            name: j.name,
            parent: j.parent,
            inverse_bind: Mat4::from_cols_array(&j.inverse_bind),
        });
        let colliders =
            f.colliders.into_iter().map(|c| JointCollider { joint: c.joint, collider: c.collider });
        let mut rig =
            Rig { joints: joints.collect(), colliders: colliders.collect(), ..Rig::default() };
        for b in f.nodes {
            rig.node_joints.push(b.joints);
            rig.node_weights.push(b.weights);
            rig.max_distance.push(b.max_distance);
            rig.backstop.push(b.backstop);
        }
        if rig.backstop.iter().all(Option::is_none) {
            // No node has one: the column is left empty, as a rig without back-stops keeps it.
            rig.backstop.clear();
        }
        rig
    }
}

/// Where a model file keeps a part that older layouts lack (the skin, the rig): `()` in those
/// layouts, the part's record in the others.
pub(crate) trait Slot<T>: Default {
    /// True when there is nothing to write.
    fn absent(&self) -> bool;
    /// The part, if any.
    fn take(self) -> Option<T>;
}

impl<T> Slot<T> for () {
    fn absent(&self) -> bool {
        true
    }
    fn take(self) -> Option<T> {
        None
    }
}

impl Slot<Rig> for Option<RigFile> {
    fn absent(&self) -> bool {
        self.is_none()
    }
    fn take(self) -> Option<Rig> {
        self.map(Rig::from)
    }
}
