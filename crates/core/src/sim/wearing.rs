//! Putting a worn model on its skeleton at once: where a game spawns a character (anywhere in
//! its world, in any pose), the cape it wears starts on it, not at the model's rest position
//! to be dragged there by the first step ([`Simulation::set_pose`] moves the kinematic nodes
//! across a step; this moves every skinned node before any).

use super::Simulation;
use crate::CoreError;
use glam::{Mat4, Vec3A};

impl Simulation {
    /// Puts the model on the skeleton in the pose `joints` (the joints' world matrices, as for
    /// [`Simulation::set_pose`]) at once: every skinned node at its skinned position and at
    /// rest, the anchors and max distances' targets there, the body's colliders there without
    /// a velocity. Nodes without weights stay where they are. Errors as
    /// [`Simulation::set_pose`]; nothing changes then.
    pub fn put_on(&mut self, joints: &[Mat4]) -> Result<(), CoreError> {
        self.set_pose(joints)?;
        let Some(posed) = &mut self.c.rig else { return Ok(()) };
        let skinning = posed.rig.skinning(joints);
        let state = self.states.committed_mut();
        let weights = &posed.rig.node_weights;
        for (i, (x, v)) in state.pos.iter_mut().zip(&mut state.vel).enumerate() {
            if weights.get(i).is_some_and(|w| w.iter().sum::<f32>() > 0.0) {
                *x = posed.skinned(i as u32, &skinning);
                *v = Vec3A::ZERO;
            }
        }
        posed.start.clone_from(&posed.target);
        posed.backstop_start.clone_from(&posed.backstop_target);
        let anchors = &mut self.c.anchors;
        anchors.start.clone_from(&anchors.target);
        self.colliders_arrive();
        Ok(())
    }
}
