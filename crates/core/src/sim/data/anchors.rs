//! The anchored nodes and where they are going.

use glam::Vec3A;

/// Anchored nodes and where they are going. During a step each anchor moves in a straight
/// line from `start` to `target`, so a moved anchor drags the model along smoothly instead of
/// jumping at one sub-step.
#[derive(Clone, Debug)]
pub(crate) struct Anchors {
    pub nodes: Vec<u32>,
    pub start: Vec<Vec3A>,
    pub target: Vec<Vec3A>,
}

impl Anchors {
    /// Position of anchor `i` at fraction `t` ∈ [0, 1] of the step.
    #[inline]
    pub fn at(&self, i: usize, t: f32) -> Vec3A {
        self.start[i].lerp(self.target[i], t)
    }

    /// Velocity of anchor `i` over a step of `dt` seconds.
    #[inline]
    pub fn velocity(&self, i: usize, dt: f32) -> Vec3A {
        (self.target[i] - self.start[i]) / dt
    }
}
