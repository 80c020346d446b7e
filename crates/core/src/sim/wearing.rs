//! # Wearing: poses, teleports and resets of a model worn on a character
//!
//! A pose ([`Simulation::set_pose`]) skins the kinematic nodes, the max distances' and
//! back-stops' centres and the character's colliders and sets them as this simulation's goals
//! for the next step ([`crate::sim::constraints::rig`] says how a step follows them). Most
//! poses are swept across the step; the rest of this doc is about those that are not.
//!
//! A game moves its characters in ways no cloth could follow: it respawns one across the map,
//! cuts to another shot, or loops a clip whose last pose is metres from its first. Swept
//! across one step as any pose is ([`Simulation::set_pose`]), such a jump drags the kinematic
//! nodes through the world at hundreds of metres a second, and the cloth behind them with
//! them (Unreal Chaos's teleport modes and NvCloth's `teleport` answer the same).
//!
//! **Teleport** ([`Simulation::teleport`]). The character's goals from the last pose to the
//! new one is split into a rigid part and the rest. The rigid part is the goals of its root
//! joint (joint 0, the hips or the root bone that carries a clip's root goals), from its
//! world matrix J₀⁰ in the last pose to J₀¹ in the new one, M = J₀¹ (J₀⁰)⁻¹, with rotation R
//! and translation t; every node, every target of the last pose and the body's colliders are
//! carried by it at once:
//!
//! ```text
//! x_i ← R x_i + t,    v_i ← R v_i,    s_i⁰ ← R s_i⁰ + t
//! ```
//!
//! so the cloth keeps its shape and its velocity relative to the character (a cape swinging
//! out keeps swinging out, turned as the character turned). What the rigid goals does not
//! explain (the limbs' own goals within the frame) is then swept across the step's sub-steps
//! as any pose is.
//!
//! **A jump is a teleport on its own** when the root joint moves further than
//! [`Teleport::distance`] or turns by more than [`Teleport::angle`] in one call of
//! [`Simulation::set_pose`] ([`Simulation::set_teleport`] changes both or turns it off). The
//! root joint, not a fit of the cloth's skinned positions: it is known however few nodes are
//! skinned (a fit of one or two points leaves the rotation free) and costs nothing a frame.
//!
//! **Reset** ([`Simulation::reset`]) puts the model on the pose at rest instead: every skinned
//! node at its skinned position with no velocity, what a game does when it spawns a character
//! (anywhere in its world, in any pose): the cape starts on it, not at the model's rest
//! position to be dragged there by the first step.

use super::Simulation;
use crate::CoreError;
use crate::model::{MAX_COORDINATE, Rig, Shape};
use glam::{Mat4, Quat, Vec3, Vec3A};

/// When a pose is a teleport on its own ([`Simulation::set_teleport`], module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Teleport {
    /// How far (m) the character's root joint may move in one pose before the pose is a
    /// teleport: 0.5 m, 30 m/s at 60 Hz and 12 m/s at Blender's 24 fps, above any run,
    /// while a respawn or a looping clip's jump back moves metres.
    pub distance: f32,
    /// How far (radians) the character may turn in one pose before it is a teleport: 45°,
    /// 2700°/s at 60 Hz and 1080°/s at 24 fps, above any spin a character animates.
    pub angle: f32,
}

impl Default for Teleport {
    fn default() -> Self {
        Teleport { distance: 0.5, angle: std::f32::consts::FRAC_PI_4 }
    }
}

impl Teleport {
    /// True when the root's goals (`rotation`, its move `shift`) is past either threshold.
    fn exceeded(&self, rotation: Quat, shift: Vec3) -> bool {
        let angle = 2.0 * rotation.w.abs().min(1.0).acos();
        shift.length() > self.distance || angle > self.angle
    }
}

impl Simulation {
    /// The skeleton the model is worn on, if it has one: its joints' names, parents and
    /// inverse bind matrices, and the nodes' bindings ([`Rig`]).
    pub fn rig(&self) -> Option<&Rig> {
        self.c.rig.as_ref().map(|p| &p.rig)
    }

    /// Poses the skeleton for the next step (what [`Simulation::set_pose`] does before it
    /// looks for a teleport): the kinematic nodes' anchors, the max distances' and back-stops'
    /// targets and the body's colliders head for the pose `joints`. Returns the root joint's
    /// world matrix at the last pose and at this one.
    pub(crate) fn pose(&mut self, joints: &[Mat4]) -> Result<(Mat4, Mat4), CoreError> {
        let expected = self.c.rig.as_ref().map_or(0, |p| p.rig.joints.len());
        let Some(posed) = self.c.rig.as_ref().filter(|_| joints.len() == expected) else {
            return Err(CoreError::PoseJoints { expected, found: joints.len() });
        };
        if let Some(joint) = joints.iter().position(|m| !m.is_finite()) {
            return Err(CoreError::NonFinitePose { joint });
        }
        let reach = |m: &Mat4| m.w_axis.truncate().abs().max_element();
        if let Some(joint) = joints.iter().position(|m| reach(m) > MAX_COORDINATE) {
            let (distance, limit) = (reach(&joints[joint]), MAX_COORDINATE);
            return Err(CoreError::PoseOutOfBounds { joint, distance, limit });
        }
        let skinning = posed.rig.skinning(joints);
        for &(k, node) in &posed.kinematic {
            if let Some(target) = self.goals.anchors.target.get_mut(k) {
                *target = posed.skinned(node, &skinning);
            }
        }
        let leashes = posed.leashed.iter().map(|&i| posed.skinned(i, &skinning));
        self.goals.leashes.target = leashes.collect();
        let backstops = (0..posed.backed.len()).map(|k| posed.backstop_centre(k, &skinning));
        self.goals.backstops.target = backstops.collect();
        let base = posed.collider_base;
        let moved: Vec<(usize, Shape)> = (posed.rig.colliders.iter().enumerate())
            .filter_map(|(k, c)| {
                let m = skinning.get(usize::from(c.joint))?;
                Some((base + k, c.collider.shape.transformed(*m)))
            })
            .collect();
        for (index, shape) in moved {
            // A collider the game replaced through params_mut is no longer the rig's: skipped.
            self.move_collider(index, shape).ok();
        }
        let last = self.goals.root;
        self.goals.root = joints.first().copied().unwrap_or(Mat4::IDENTITY);
        Ok((last, self.goals.root))
    }

    /// Puts the model on the skeleton in the pose `joints` (the joints' world matrices, as for
    /// [`Simulation::set_pose`]) at rest: every skinned node at its skinned position with no
    /// velocity, the anchors and max distances' targets there, the body's colliders there
    /// without a velocity. Nodes without weights stay where they are. Errors as
    /// [`Simulation::set_pose`]; nothing changes then.
    pub fn reset(&mut self, joints: &[Mat4]) -> Result<(), CoreError> {
        self.pose(joints)?;
        let Some(posed) = self.c.rig.as_ref() else { return Ok(()) };
        let skinning = posed.rig.skinning(joints);
        let state = self.states.committed_mut();
        let weights = &posed.rig.node_weights;
        for (i, (x, v)) in state.pos.iter_mut().zip(&mut state.vel).enumerate() {
            if weights.get(i).is_some_and(|w| w.iter().sum::<f32>() > 0.0) {
                *x = posed.skinned(i as u32, &skinning);
                *v = Vec3A::ZERO;
            }
        }
        self.goals.arrive();
        self.colliders_arrive();
        Ok(())
    }

    /// Sets the pose `joints` for the next step as [`Simulation::set_pose`] does, carrying the
    /// model first by the character's rigid goals from the last pose (module doc): its
    /// shape and its velocity relative to the character are kept, however far the character
    /// jumped or turned. Errors as [`Simulation::set_pose`]; nothing changes then.
    pub fn teleport(&mut self, joints: &[Mat4]) -> Result<(), CoreError> {
        let (from, to) = self.pose(joints)?;
        self.carry(to * from.inverse());
        Ok(())
    }

    /// When a pose given to [`Simulation::set_pose`] is a teleport on its own (module doc);
    /// `None`: never. [`Teleport::default`] unless set.
    pub fn set_teleport(&mut self, teleport: Option<Teleport>) {
        self.teleport = teleport;
    }

    /// Sets the pose of the skeleton the model is worn on for the next step: `joints` holds
    /// each joint's world matrix (glTF's convention: column-major, joint space to world), in
    /// the rig's joint order. Over the next step the kinematic nodes (max distance 0) move in
    /// equal parts to their skinned positions, and the other skinned nodes are kept within
    /// their max distance of theirs ([`crate::sim::constraints::rig`]). A pose that jumps
    /// further than [`Simulation::set_teleport`]'s thresholds is a teleport
    /// ([`Simulation::teleport`]): the result says so. Call it once a frame, before
    /// [`Simulation::step`].
    ///
    /// Errors: a model without a rig, a count that is not the rig's joint count, or a matrix
    /// that is not finite; nothing changes then.
    pub fn set_pose(&mut self, joints: &[Mat4]) -> Result<Posing, CoreError> {
        let (from, to) = self.pose(joints)?;
        let Some(teleport) = self.teleport else { return Ok(Posing::Swept) };
        let (_, rotation, _) = (to * from.inverse()).to_scale_rotation_translation();
        let shift = (to.w_axis - from.w_axis).truncate();
        if !teleport.exceeded(rotation, shift) {
            return Ok(Posing::Swept);
        }
        self.carry(to * from.inverse());
        Ok(Posing::Teleported)
    }

    /// Carries every node, the last pose's targets and the body's colliders by the root's
    /// goals `m`: x ← M x, v ← R v (module doc).
    fn carry(&mut self, m: Mat4) {
        let (_, rotation, _) = m.to_scale_rotation_translation();
        let at = |x: Vec3A| Vec3A::from(m.transform_point3(x.into()));
        let state = self.states.committed_mut();
        for (x, v) in state.pos.iter_mut().zip(&mut state.vel) {
            *x = at(*x);
            *v = rotation * *v;
        }
        let goals = &mut self.goals;
        let starts = goals.anchors.start.iter_mut().chain(&mut goals.leashes.start);
        starts.chain(&mut goals.backstops.start).for_each(|x| *x = at(*x));
        let Some(posed) = self.c.rig.as_ref() else { return };
        let base = posed.collider_base;
        let count = posed.rig.colliders.len();
        self.moves.sync(&self.c.params);
        let colliders = self.moves.now.iter_mut().skip(base).take(count);
        for collider in colliders {
            collider.shape = collider.shape.transformed(m);
        }
    }
}

/// How [`Simulation::set_pose`] took a pose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Posing {
    /// Swept across the next step's sub-steps.
    Swept,
    /// A jump past the teleport thresholds: the model was carried with the character first.
    Teleported,
}
