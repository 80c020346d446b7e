//! # The rig: a skeleton the model is worn on
//!
//! A cloth worn by an animated character (a cape, a skirt, a tail) keeps the character's
//! skeleton: its joints, and for each node up to [`RIG_WEIGHTS`] joints with weights, as the
//! character's own mesh is skinned (linear blend skinning, as glTF 2.0 and every engine do).
//! Given the joints' world matrices J_k of a pose, node i's *skinned position* is
//!
//! ```text
//! s_i = Σ_k w_ik (J_k B_k) x_i,      Σ_k w_ik = 1,  w_ik ≥ 0
//! ```
//!
//! - x_i: the node's rest position (m), in the model's frame;
//! - B_k: joint k's *inverse bind matrix* in that frame: it takes a rest position into the
//!   joint's own space (glTF's inverse bind matrix times the inverse of the mesh's bind
//!   transform), so that at the rest pose J_k B_k is the identity and s_i = x_i;
//! - w_ik: the node's weights, on joints `joints_i` (unused slots: weight 0).
//!
//! Each node also has a *max distance* r_i (m): how far it may move from s_i (Jolt's skinned
//! constraints' `mMaxDistance`, NvCloth's motion constraints, Unreal's MaxDistance map).
//! r_i = 0 makes the node kinematic: it is one of the model's anchors and follows s_i exactly.
//! So does any r_i under [`KINEMATIC_DISTANCE`] (1 mm): exporters and bakes write a painted 0 as
//! float noise (2.5e-8, 1e-8), and a leash shorter than a millimetre cannot be told from the
//! skin on screen, while the node it leaves free would hold no tether ([`is_kinematic`]).
//! A node without one (`None`) is free. A node may also have a *back-stop* ([`Backstop`], Jolt's
//! `mBackStopDistance` and `mBackStopRadius`): a sphere behind it, towards the body, that it
//! may not enter, so the cloth cannot fold in through the character where no collider is.
//! The simulation applies them in
//! [`crate::sim::constraints::rig`].
//!
//! The body the model is worn on travels with the rig as colliders riding on joints
//! ([`JointCollider`]): a pose moves each by its joint's J_k B_k, so they pass their velocity
//! to the cloth ([`crate::sim::contacts::moving`]).

use super::Obstacle;
use glam::{Mat4, Vec3};
use serde::{Deserialize, Serialize};

/// Most joints one node is bound to: glTF's JOINTS_0/WEIGHTS_0.
pub const RIG_WEIGHTS: usize = 4;

/// Most joints a rig may have (a game character has tens to a few hundred).
pub const MAX_JOINTS: usize = 4096;

/// Most bytes of a joint's name.
pub const MAX_JOINT_NAME: usize = 256;

/// Max distances under this (m) make a node kinematic ([`is_kinematic`]): a millimetre,
/// far above the float noise a painted 0 picks up on its way through a modeler's arithmetic
/// and an exporter (1e-8 to 1e-5 m), far below any leash an artist paints (centimetres: a
/// cape's hem swings 0.1–0.5 m), and below what a viewer can see of a cloth on a figure.
/// Absolute rather than a fraction of the edges: a fine cloth's 5 mm edges would otherwise
/// make a deliberate 1 mm leash kinematic, a coarse one's 10 cm turn a 5 mm leash into a pin.
pub const KINEMATIC_DISTANCE: f32 = 1e-3;

/// True for a max distance that makes its node kinematic: painted, finite, and under
/// [`KINEMATIC_DISTANCE`] (0 included).
pub fn is_kinematic(max_distance: Option<f32>) -> bool {
    max_distance.is_some_and(|r| r < KINEMATIC_DISTANCE)
}

/// How a worn model's nodes are held ([`Rig::holds`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Holds {
    /// Skinned nodes that follow the skin exactly ([`is_kinematic`]).
    pub kinematic: usize,
    /// Skinned nodes kept within a max distance of it.
    pub leashed: usize,
    /// Nodes the skin does not hold: no weights, or no max distance.
    pub free: usize,
}

/// One joint of the skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// Its name, as the character's file calls it: how a game or an animation finds it.
    pub name: String,
    /// Its parent joint (an index below its own), `None` for a root.
    pub parent: Option<u16>,
    /// Its inverse bind matrix in the model's frame (module doc): rest positions to joint space.
    pub inverse_bind: Mat4,
}

/// A sphere behind a skinned node that it may not enter (Jolt's back-stop): centred
/// `distance + radius` behind the skinned position along the skinned normal, of `radius`, so
/// the node keeps `distance` in front of its skinned position's back, towards the body.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Backstop {
    /// How far behind the skinned position the sphere's surface is (m; may be negative: in
    /// front).
    pub distance: f32,
    /// The sphere's radius (m, > 0): large for a flat back-stop, small for a round one.
    pub radius: f32,
}

/// A collider that moves with a joint: the body a cloth is worn on (a torso's capsule).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointCollider {
    /// The joint it rides on.
    pub joint: u16,
    /// Its shape and surface at the rest pose, in the model's frame: a pose moves it by the
    /// joint's skinning matrix J B.
    pub collider: Obstacle,
}

/// A skeleton and each node's binding to it, one column per field (module doc).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rig {
    /// The joints, parents before children.
    pub joints: Vec<Joint>,
    /// Per node, the joints it follows.
    pub node_joints: Vec<[u16; RIG_WEIGHTS]>,
    /// Per node, their weights (non-negative, summing to one; all zero: not skinned, free).
    pub node_weights: Vec<[f32; RIG_WEIGHTS]>,
    /// Per node, how far it may move from its skinned position (m); `None`: free.
    pub max_distance: Vec<Option<f32>>,
    /// Per node, its back-stop (module doc); empty: none for any node.
    pub backstop: Vec<Option<Backstop>>,
    /// The body the model is worn on, as colliders riding on the joints.
    pub colliders: Vec<JointCollider>,
}

impl Rig {
    /// The world matrices of the rest pose: the inverse of each joint's inverse bind matrix.
    pub fn rest_pose(&self) -> Vec<Mat4> {
        self.joints.iter().map(|j| j.inverse_bind.inverse()).collect()
    }

    /// Node `i`'s skinned position at rest position `rest` for the per-joint skinning
    /// matrices `skinning` (J_k B_k); its rest position when it has no weights or names a joint
    /// past the end.
    pub fn skinned(&self, i: usize, rest: Vec3, skinning: &[Mat4]) -> Vec3 {
        match (self.node_joints.get(i), self.node_weights.get(i)) {
            (Some(joints), Some(weights)) => blend(rest, joints, weights, skinning),
            _ => rest,
        }
    }

    /// The skinning matrices J_k B_k of the pose `joints` (world matrices, one per joint).
    pub fn skinning(&self, joints: &[Mat4]) -> Vec<Mat4> {
        self.joints.iter().zip(joints).map(|(j, &m)| m * j.inverse_bind).collect()
    }

    /// The rig of the nodes `keep` keeps, in order (the bindings of the others dropped).
    pub fn retained(&self, keep: impl Fn(usize) -> bool) -> Rig {
        let mut rig = Rig {
            joints: self.joints.clone(),
            colliders: self.colliders.clone(),
            ..Rig::default()
        };
        let nodes = self.node_joints.iter().zip(&self.node_weights).zip(&self.max_distance);
        for (i, ((&joints, &weights), &r)) in nodes.enumerate().filter(|(i, _)| keep(*i)) {
            if let Some(&b) = self.backstop.get(i) {
                rig.backstop.push(b);
            }
            rig.node_joints.push(joints);
            rig.node_weights.push(weights);
            rig.max_distance.push(r);
        }
        rig
    }

    /// How many nodes follow the skin, stay within a max distance of it, and are free (the
    /// columns are as long as each other in a valid model).
    pub fn holds(&self) -> Holds {
        let skinned = self.node_weights.iter().map(|w| w.iter().sum::<f32>() > 0.0);
        let mut holds = Holds::default();
        for (&r, skinned) in self.max_distance.iter().zip(skinned) {
            match (r, skinned) {
                (Some(_), true) if is_kinematic(r) => holds.kinematic += 1,
                (Some(_), true) => holds.leashed += 1,
                _ => holds.free += 1,
            }
        }
        holds
    }

    /// The joint called `name`.
    pub fn joint(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }
}

/// The position `rest` skinned on `joints` with `weights` by the skinning matrices `skinning`
/// (J_k B_k): s = Σ_k w_k (J_k B_k) x (module doc), the weights that name a joint past the end
/// left out and the rest scaled back to a sum of one; `rest` itself when no weight is left.
pub fn blend(
    rest: Vec3,
    joints: &[u16; RIG_WEIGHTS],
    weights: &[f32; RIG_WEIGHTS],
    skinning: &[Mat4],
) -> Vec3 {
    let mut at = Vec3::ZERO;
    let mut total = 0.0;
    for (&k, &w) in joints.iter().zip(weights) {
        if w > 0.0
            && let Some(m) = skinning.get(usize::from(k))
        {
            at += w * m.transform_point3(rest);
            total += w;
        }
    }
    if total > 0.0 { at / total } else { rest }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn a_node_on_two_joints_blends_their_motion_linearly() {
        // Two joints at rest at the origin and at (0, 1, 0); a node at (1, 1, 0) half on each.
        let joint = |name: &str, at: Vec3| Joint {
            name: name.into(),
            parent: None,
            inverse_bind: Mat4::from_translation(at).inverse(),
        };
        let rig = Rig {
            joints: vec![joint("root", Vec3::ZERO), joint("top", Vec3::Y)],
            node_joints: vec![[0, 1, 0, 0]],
            node_weights: vec![[0.5, 0.5, 0.0, 0.0]],
            max_distance: vec![Some(0.1)],
            backstop: Vec::new(),
            colliders: Vec::new(),
        };
        let rest = Vec3::new(1.0, 1.0, 0.0);
        assert_eq!(rig.skinned(0, rest, &rig.skinning(&rig.rest_pose())), rest);
        // The top joint turned 90° about y in place: the node's share on it goes to (0, 1, −1).
        let pose = [
            Mat4::IDENTITY,
            Mat4::from_rotation_translation(
                Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
                Vec3::Y,
            ),
        ];
        let s = rig.skinned(0, rest, &rig.skinning(&pose));
        assert!((s - Vec3::new(0.5, 1.0, -0.5)).length() < 1e-6, "{s}");
        assert_eq!(rig.joint("top"), Some(1));
    }
}
