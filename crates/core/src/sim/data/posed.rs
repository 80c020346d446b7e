//! The rig as the solver keeps it: the skeleton and bindings, the nodes it moves, and where
//! the last pose put them ([`crate::model::Rig`], [`crate::sim::constraints::rig`]).

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
    /// Their skinned positions at the start and at the end of the step.
    pub start: Vec<Vec3A>,
    pub target: Vec<Vec3A>,
    /// The nodes with a back-stop, its radius, and its centre at the start and at the end of
    /// the step; each one's rest normal and the distance from its skinned position to the
    /// centre (the back-stop's distance + radius).
    pub backed: Vec<u32>,
    pub backstop_radius: Vec<f32>,
    pub backstop_depth: Vec<f32>,
    pub rest_normal: Vec<Vec3>,
    pub backstop_start: Vec<Vec3A>,
    pub backstop_target: Vec<Vec3A>,
    /// The index of the rig's first collider among the simulation's colliders (they follow
    /// the model's own).
    pub collider_base: usize,
    /// The root joint's (joint 0's) world matrix in the last pose: how the character as a whole
    /// stands ([`crate::Simulation::teleport`]).
    pub root: Mat4,
}

impl Posed {
    /// The rig of a model whose nodes rest at `rest`, with `anchors` anchored and `free[i]`
    /// zero for them; at rest.
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
        let at: Vec<Vec3A> = leashed.iter().map(|&i| rest[i as usize].into()).collect();
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
        let centres: Vec<Vec3A> = backed
            .iter()
            .zip(&rest_normal)
            .zip(&backstop_depth)
            .map(|((&i, &n), &depth)| (rest[i as usize] - n * depth).into())
            .collect();
        Posed {
            rig: rig.clone(),
            rest: rest.to_vec(),
            kinematic: kinematic.map(|(k, &n)| (k, n)).collect(),
            leashed,
            reach,
            start: at.clone(),
            target: at,
            backed,
            backstop_radius,
            backstop_depth,
            rest_normal,
            backstop_start: centres.clone(),
            backstop_target: centres,
            collider_base,
            root: rig.joints.first().map_or(Mat4::IDENTITY, |j| j.inverse_bind.inverse()),
        }
    }

    /// Node `i`'s skinned position for the skinning matrices `skinning`.
    pub fn skinned(&self, i: u32, skinning: &[Mat4]) -> Vec3A {
        let i = i as usize;
        self.rig.skinned(i, self.rest.get(i).copied().unwrap_or_default(), skinning).into()
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

    /// Leashed node `k`'s skinned position at fraction `t` of the step.
    #[inline]
    pub fn at(&self, k: usize, t: f32) -> Vec3A {
        self.start[k].lerp(self.target[k], t)
    }
}
