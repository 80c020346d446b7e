//! A model that has passed [`SpringModel::validate`], and can only be had that way.
//!
//! A model is validated once where it enters: when a file is decoded ([`crate::io`]) and at
//! the end of a conversion. What comes out is a [`ValidModel`], which is what
//! [`crate::Simulation::new`] and [`crate::io::save`] take, so no path validates the same
//! model twice (a game spawning many bodies from one loaded model validates it once). A
//! model changed after that (the editor's edits, a tuned copy) is a [`SpringModel`] again,
//! and becomes valid again through [`ValidModel::new`].

use crate::model::{MAX_COORDINATE, Problem, Problems, SimParams, SpringModel};
use crate::{CoreError, NodeId};
use glam::{Mat4, Quat, Vec3};
use std::ops::Deref;

/// A [`SpringModel`] that has passed [`SpringModel::validate`]. Read it through `Deref`;
/// change it by taking it out ([`ValidModel::into_inner`]) and validating the result again.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidModel(SpringModel);

impl ValidModel {
    /// Validates `model`: every problem is returned ([`CoreError::InvalidModel`]).
    pub fn new(model: SpringModel) -> Result<ValidModel, CoreError> {
        model.validate().map_err(|problems| CoreError::InvalidModel { problems })?;
        Ok(ValidModel(model))
    }

    /// Wraps a model the caller has just validated itself (a decoder that names its file in
    /// the error).
    pub(crate) fn validated(model: SpringModel) -> ValidModel {
        debug_assert_eq!(model.validate(), Ok(()));
        ValidModel(model)
    }

    /// The model, to change it.
    pub fn into_inner(self) -> SpringModel {
        self.0
    }

    /// Replaces the parameters (a command's `--substeps`, `--no-gravity`), checking only them:
    /// parameters out of range are an error and change nothing.
    pub fn set_params(&mut self, params: SimParams) -> Result<(), CoreError> {
        let old = std::mem::replace(&mut self.0.params, params);
        let mut problems = Vec::new();
        self.0.check_params(&mut problems);
        if problems.is_empty() {
            return Ok(());
        }
        self.0.params = old;
        Err(CoreError::InvalidModel { problems: Problems(problems) })
    }

    /// Pins node `node` (a game attaching it to something) unless it is pinned already;
    /// returns whether it was newly pinned. A node that does not exist is an error and
    /// changes nothing. The model stays valid without being validated again.
    pub fn anchor(&mut self, node: NodeId) -> Result<bool, CoreError> {
        let nodes = self.0.nodes.len();
        if node.index() >= nodes {
            let problem = Problem::AnchorOutOfRange { anchor: self.0.anchors.len(), node, nodes };
            return Err(CoreError::InvalidModel { problems: Problems(vec![problem]) });
        }
        if self.0.is_anchor(node) {
            return Ok(false);
        }
        self.0.anchors.push(node);
        Ok(true)
    }

    /// Moves every node, and a skin's rest positions with them, rigidly: turned by `rotation`
    /// about the origin, then moved by `translation` (a body placed in a game's world).
    /// Distances, and so every spring and triangle, are kept; a position that would leave
    /// [`MAX_COORDINATE`] is an error and changes nothing.
    pub fn place(&mut self, rotation: Quat, translation: Vec3) -> Result<(), CoreError> {
        let rotation = rotation.normalize();
        let to =
            |p: &[Vec3]| -> Vec<Vec3> { p.iter().map(|&p| rotation * p + translation).collect() };
        let moved = to(self.0.nodes.positions());
        let skin = self.0.skin.as_ref().map(|skin| to(skin.positions()));
        let far = |p: &Vec3| !p.is_finite() || p.abs().max_element() > MAX_COORDINATE;
        let problem = if let Some(node) = moved.iter().position(far) {
            let node = NodeId(node as u32);
            Some(if moved[node.index()].is_finite() {
                Problem::FarPosition { node }
            } else {
                Problem::NonFinitePosition { node }
            })
        } else {
            let vertex = skin.as_ref().and_then(|s| s.iter().position(far));
            vertex.map(|vertex| Problem::BadSkinPosition { vertex })
        };
        if let Some(problem) = problem {
            return Err(CoreError::InvalidModel { problems: Problems(vec![problem]) });
        }
        self.0.nodes.positions_mut().copy_from_slice(&moved);
        if let (Some(skin), Some(moved)) = (&mut self.0.skin, skin) {
            skin.positions_mut().copy_from_slice(&moved);
        }
        if let Some(rig) = &mut self.0.rig {
            // Rest positions moved by M: each inverse bind takes them back first.
            let back = Mat4::from_rotation_translation(rotation, translation).inverse();
            for joint in &mut rig.joints {
                joint.inverse_bind *= back;
            }
        }
        Ok(())
    }
}

impl Deref for ValidModel {
    type Target = SpringModel;

    fn deref(&self) -> &SpringModel {
        &self.0
    }
}

impl PartialEq<SpringModel> for ValidModel {
    fn eq(&self, other: &SpringModel) -> bool {
        self.0 == *other
    }
}

impl AsRef<SpringModel> for ValidModel {
    fn as_ref(&self) -> &SpringModel {
        &self.0
    }
}

impl TryFrom<SpringModel> for ValidModel {
    type Error = CoreError;

    fn try_from(model: SpringModel) -> Result<ValidModel, CoreError> {
        ValidModel::new(model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fixtures::two_nodes;
    use crate::model::{Faces, SelfCollision, Skin, SkinVertex};
    use crate::{Node, NodeId, Spring, SpringKind};
    use glam::Vec3;

    #[test]
    fn only_a_model_without_problems_becomes_valid() {
        let mut m = two_nodes();
        let valid = ValidModel::new(m.clone()).expect("two nodes and a spring");
        assert_eq!(valid.nodes.len(), 2, "read through Deref");
        assert_eq!(valid.into_inner(), m, "taken out unchanged");
        m.springs.push(Spring::new(NodeId(0), NodeId(7), 1.0, 10.0, SpringKind::Stretch));
        let err = ValidModel::try_from(m).expect_err("a spring to a missing node");
        assert!(matches!(err, CoreError::InvalidModel { .. }), "{err}");
    }

    #[test]
    fn anchoring_and_placing_keep_a_model_valid_and_refuse_what_would_not_be() {
        let m = two_nodes();
        let mut valid = ValidModel::new(m).expect("valid");
        assert_eq!(valid.anchor(NodeId(1)).ok(), Some(true));
        assert_eq!(valid.anchor(NodeId(1)).ok(), Some(false), "pinned once");
        assert!(valid.anchor(NodeId(2)).is_err(), "no node 2");
        assert_eq!(valid.anchors, vec![NodeId(1)]);
        // A quarter turn about y, then 5 m up: (1, 0, 0) goes to (0, 5, -1).
        let quarter = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
        valid.place(quarter, Vec3::Y * 5.0).expect("near the origin");
        let p = valid.nodes.positions();
        assert!(p[0].distance(Vec3::new(0.0, 5.0, 0.0)) < 1e-6, "{p:?}");
        assert!(p[1].distance(Vec3::new(0.0, 5.0, -1.0)) < 1e-6, "{p:?}");
        let before = valid.clone();
        assert!(valid.place(Quat::IDENTITY, Vec3::X * 2e6).is_err(), "beyond MAX_COORDINATE");
        assert_eq!(valid, before, "a refused placement changes nothing");
        assert_eq!(valid.validate(), Ok(()));
        let mut params = valid.params.clone();
        params.substeps = 0;
        assert!(valid.set_params(params).is_err(), "no sub-steps");
        assert_eq!(valid, before, "refused parameters change nothing");
        let mut params = valid.params.clone();
        params.substeps = 7;
        valid.set_params(params).expect("7 sub-steps");
        assert_eq!((valid.params.substeps, valid.validate()), (7, Ok(())));
    }

    #[test]
    fn a_placed_cage_carries_its_skin_where_its_weights_say() {
        // A skin vertex at (0.5, 0, 0), halfway between two nodes: after a quarter turn about
        // y and 5 m up it is at (0, 5, -0.5), where the moved nodes' weights put it.
        let mut m = two_nodes();
        let vertex = SkinVertex {
            position: Vec3::X * 0.5,
            nodes: [NodeId(0), NodeId(1), NodeId(0), NodeId(0)],
            weights: [0.5, 0.5, 0.0, 0.0],
        };
        m.skin = Some(Skin::new([vertex], Faces::default(), Vec::new()));
        let mut valid = ValidModel::new(m).expect("valid");
        let quarter = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
        valid.place(quarter, Vec3::Y * 5.0).expect("near the origin");
        let skin = valid.skin.as_ref().expect("kept");
        let mut carried = Vec::new();
        skin.deform(valid.nodes.positions(), &mut carried);
        let rest = skin.positions()[0];
        assert!(rest.distance(Vec3::new(0.0, 5.0, -0.5)) < 1e-6, "{rest}");
        assert!(rest.distance(carried[0]) < 1e-6, "{rest} {carried:?}");
    }

    #[test]
    fn a_self_collision_thicker_than_the_body_or_not_positive_is_refused_by_name() {
        // Two nodes 1 m apart: the body's diagonal is 1 m.
        let mut m = SpringModel::default();
        for x in [0.0, 1.0] {
            m.nodes.push(Node { position: Vec3::new(x, 0.0, 0.0), mass: 1.0 });
        }
        let mut valid = ValidModel::new(m).expect("valid");
        for (thickness, friction) in [(1.5, 0.5), (0.0, 0.5), (f32::NAN, 0.5), (0.1, -0.2)] {
            let mut params = valid.params.clone();
            params.self_collision = Some(SelfCollision { thickness, friction });
            let refused = valid.set_params(params).expect_err("refused").to_string();
            let field =
                if friction < 0.0 { "self_collision.friction" } else { "self_collision.thickness" };
            assert!(refused.contains(field), "{thickness} {friction}: {refused}");
        }
        let mut params = valid.params.clone();
        params.self_collision = Some(SelfCollision { thickness: 1.0, friction: 0.0 });
        valid.set_params(params).expect("as thick as the body");
    }
}
