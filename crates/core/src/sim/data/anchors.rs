//! The anchored nodes and where they are going.

use crate::align::best_rigid;
use glam::{Vec3, Vec3A};

/// Anchored nodes and where they are going. During a step each anchor moves in a straight
/// line from `start` to `target`, so a moved anchor drags the model along smoothly instead of
/// jumping at one sub-step.
#[derive(Clone, Debug)]
pub(crate) struct Anchors {
    pub nodes: Vec<u32>,
    pub start: Vec<Vec3A>,
    pub target: Vec<Vec3A>,
    /// How much longer (m) each anchor's tethers are than at rest, for now: the anchor's
    /// recent motion that was not a motion of all the anchors as one rigid body, being taken
    /// back at [`crate::sim::constraints::tethers::TIGHTEN_SPEED`]
    /// ([`crate::sim::constraints::tethers`]).
    pub slack: Vec<f32>,
}

impl Anchors {
    /// Anchored `nodes` at `positions`, at rest.
    pub fn new(nodes: Vec<u32>, positions: Vec<Vec3A>) -> Anchors {
        let slack = vec![0.0; nodes.len()];
        Anchors { nodes, start: positions.clone(), target: positions, slack }
    }

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

    /// Before a step of `dt` seconds: each anchor's tether slack shrinks by `tighten` × `dt`
    /// (not below zero), then grows by how far the anchor moves this step apart from the best
    /// rigid motion of all the anchors from `start` to `target`, doubled, and at most by how
    /// far it moves. None for a single anchor, or for anchors a game carries as one (a
    /// character's shoulders, a flag's pole); for one of two anchors moved away from the other,
    /// its whole travel (the best rigid motion takes each half of it) and none for the other.
    pub fn loosen(&mut self, dt: f32, tighten: f32) {
        let taken = |slack: f32| (slack - tighten * dt).max(0.0);
        if self.start == self.target {
            // Nothing moved (most steps of most models): no alignment to find.
            self.slack.iter_mut().for_each(|s| *s = taken(*s));
            return;
        }
        let (rotation, translation) = best_rigid(&self.start, &self.target);
        let moves = self.start.iter().zip(&self.target);
        for (slack, (&from, &to)) in self.slack.iter_mut().zip(moves) {
            let (from, to) = (Vec3::from(from), Vec3::from(to));
            let rigid = rotation * from + translation;
            let apart = (2.0 * rigid.distance(to)).min(from.distance(to));
            *slack = taken(*slack) + apart;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_anchor_moved_apart_loosens_its_tethers_and_a_carried_set_does_not() {
        let points = vec![Vec3A::ZERO, Vec3A::X, Vec3A::Y];
        let mut anchors = Anchors::new(vec![0, 1, 2], points.clone());
        // All three carried as one body: turned a quarter round z and moved.
        let turn = glam::Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        anchors.target = points.iter().map(|&p| turn * p + Vec3A::new(3.0, 1.0, 0.0)).collect();
        anchors.loosen(1.0 / 60.0, 1.0);
        assert!(anchors.slack.iter().all(|&s| s < 1e-5), "{:?}", anchors.slack);
        // Two anchors, one dragged 0.5 m away from the other: its whole travel, and none for
        // the one that stayed.
        let mut two = Anchors::new(vec![0, 1], vec![Vec3A::ZERO, Vec3A::X]);
        two.target[1] = Vec3A::X * 1.5;
        two.loosen(1.0 / 60.0, 1.0);
        assert!(
            (two.slack[0]).abs() < 1e-5 && (two.slack[1] - 0.5).abs() < 1e-5,
            "{:?}",
            two.slack
        );
        // Held still for 0.1 s: taken back at 1 m/s.
        two.start.clone_from(&two.target);
        for _ in 0..6 {
            two.loosen(1.0 / 60.0, 1.0);
        }
        assert!((two.slack[1] - 0.4).abs() < 1e-5, "{:?}", two.slack);
    }
}
