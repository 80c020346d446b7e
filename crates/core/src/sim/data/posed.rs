//! The rig as the solver keeps it: the skeleton and bindings and the nodes it moves
//! ([`crate::model::Rig`], [`crate::sim::constraints::rig`]). Where a pose puts them is each
//! simulation's own ([`super::Goals`]).

use crate::model::Rig;
use glam::{Mat4, Vec3, Vec3A};

/// A rig compiled for stepping.
#[derive(Clone, Debug)]
pub(crate) struct Posed {
    /// The model's rig.
    pub rig: Rig,
    /// Every node's rest position.
    pub rest: Vec<Vec3>,
    /// The anchors that follow the skin: (index in the anchor table, node).
    pub kinematic: Vec<(usize, u32)>,
    /// The free skinned nodes with a max distance, and that distance (m).
    pub leashed: Vec<u32>,
    pub reach: Vec<f32>,
    /// The nodes with a back-stop and its radius; each one's rest normal and the distance
    /// from its skinned position to the centre (the back-stop's distance + radius).
    pub backed: Vec<u32>,
    pub backstop_radius: Vec<f32>,
    pub backstop_depth: Vec<f32>,
    pub rest_normal: Vec<Vec3>,
    /// The index of the rig's first collider among the simulation's colliders (they follow
    /// the model's own).
    pub collider_base: usize,
}

impl Posed {
    /// The rig of a model whose nodes rest at `rest`, with `anchors` anchored and `free[i]`
    /// zero for them.
    pub fn new(
        rig: &Rig,
        (rest, normals): (&[Vec3], &[Vec3]),
        (anchors, free): (&[u32], &[f32]),
        collider_base: usize,
    ) -> Posed {
        let bound = |i: usize| rig.node_weights.get(i).is_some_and(|w| w.iter().sum::<f32>() > 0.0);
        let kinematic = anchors.iter().enumerate().filter(|(_, n)| bound(**n as usize));
        let mut leashed = Vec::new();
        let mut reach = Vec::new();
        for (i, r) in rig.max_distance.iter().enumerate() {
            if let Some(r) = *r
                && bound(i)
                && free.get(i).is_some_and(|&f| f != 0.0)
            {
                leashed.push(i as u32);
                reach.push(r);
            }
        }
        let (mut backed, mut backstop_radius, mut backstop_depth, mut rest_normal) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (i, b) in rig.backstop.iter().enumerate() {
            let normal = normals.get(i).copied().unwrap_or_default();
            if let Some(b) = b
                && bound(i)
                && free.get(i).is_some_and(|&f| f != 0.0)
                && normal != Vec3::ZERO
            {
                backed.push(i as u32);
                backstop_radius.push(b.radius);
                backstop_depth.push(b.distance + b.radius);
                rest_normal.push(normal);
            }
        }
        Posed {
            rig: rig.clone(),
            rest: rest.to_vec(),
            kinematic: kinematic.map(|(k, &n)| (k, n)).collect(),
            leashed,
            reach,
            backed,
            backstop_radius,
            backstop_depth,
            rest_normal,
            collider_base,
        }
    }

    /// The leashed nodes' rest positions: their skinned positions in the rest pose.
    pub fn rest_leashes(&self) -> Vec<Vec3A> {
        self.leashed.iter().map(|&i| self.rest_at(i).into()).collect()
    }

    /// The back-stops' centres in the rest pose.
    pub fn rest_backstops(&self) -> Vec<Vec3A> {
        let normals = self.rest_normal.iter().zip(&self.backstop_depth);
        (self.backed.iter().zip(normals))
            .map(|(&i, (&n, &depth))| (self.rest_at(i) - n * depth).into())
            .collect()
    }

    /// The root joint's world matrix in the rest pose.
    pub fn rest_root(&self) -> Mat4 {
        self.rig.joints.first().map_or(Mat4::IDENTITY, |j| j.inverse_bind.inverse())
    }

    /// Node `i`'s rest position.
    fn rest_at(&self, i: u32) -> Vec3 {
        self.rest.get(i as usize).copied().unwrap_or_default()
    }

    /// Node `i`'s skinned position for the skinning matrices `skinning`.
    pub fn skinned(&self, i: u32, skinning: &[Mat4]) -> Vec3A {
        self.rig.skinned(i as usize, self.rest_at(i), skinning).into()
    }

    /// Back-stopped node `k`'s sphere centre for the skinning matrices `skinning`: its skinned
    /// position less its skinned normal (the rest normal turned by the blended matrices) times
    /// the back-stop's distance + radius.
    pub fn backstop_centre(&self, k: usize, skinning: &[Mat4]) -> Vec3A {
        let i = self.backed[k] as usize;
        let (joints, weights) = (self.rig.node_joints[i], self.rig.node_weights[i]);
        let turned = joints.iter().zip(&weights).fold(Vec3::ZERO, |n, (&j, &w)| {
            let m = skinning.get(usize::from(j)).copied().unwrap_or(Mat4::IDENTITY);
            n + w * m.transform_vector3(self.rest_normal[k])
        });
        let normal = turned.try_normalize().unwrap_or(self.rest_normal[k]);
        self.skinned(i as u32, skinning) - Vec3A::from(normal) * self.backstop_depth[k]
    }
}
