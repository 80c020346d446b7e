//! A clip played in a loop on a worn model (a cape on its character): before each step the
//! runner poses the skeleton where the clip is at the end of that step, so the simulation
//! moves the kinematic nodes there across the step's sub-steps
//! ([`springmesh_core::Simulation::set_pose`]). The clip's time is the simulated time modulo
//! its length; at the wrap the character jumps back to the clip's first pose, as a looping
//! clip in a game does, and the cloth is carried with it ([`springmesh_core::Simulation::teleport`]).

use glam::Mat4;
use springmesh_convert::character::Character;
use springmesh_convert::import::animation::Clip;
use std::sync::Arc;

/// A clip of a character, played on a rig's joints.
#[derive(Clone, Debug)]
pub struct Playback {
    character: Arc<Character>,
    clip: usize,
    /// The rig's joint names, in its order.
    joints: Vec<String>,
    /// The scale the model was converted at: the character's is the same.
    scale: f32,
}

impl Playback {
    /// Clip `clip` of `character` for a rig with the joints `joints` of a model converted at
    /// `scale`; `None` when the character has no such clip.
    pub fn new(
        character: Arc<Character>,
        clip: usize,
        (joints, scale): (Vec<String>, f32),
    ) -> Option<Playback> {
        character.clips.get(clip)?;
        Some(Playback { character, clip, joints, scale })
    }

    fn clip(&self) -> Option<&Clip> {
        self.character.clips.get(self.clip)
    }

    /// True when the clip wraps round to its start between simulated times `from` and `to`:
    /// the pose at `to` is a jump back, a teleport.
    pub fn wraps(&self, from: f64, to: f64) -> bool {
        self.clip().is_some_and(|c| c.wraps(from, to))
    }

    /// The joints' world matrices at simulated time `t` (s); the error names the first joint
    /// the clip's file does not have.
    pub fn pose(&self, t: f64) -> Result<Vec<Mat4>, String> {
        let Some(clip) = self.clip() else { return Err("no clip".into()) };
        let names: Vec<&str> = self.joints.iter().map(String::as_str).collect();
        clip.pose_scaled(clip.looped(t), &names, self.scale)
            .map_err(|joint| format!("clip \"{}\" has no joint called \"{joint}\"", clip.name))
    }
}
