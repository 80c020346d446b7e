//! Where what holds a model goes during a step: its anchors and, when it is worn, the targets
//! its skeleton's pose sets. A game writes these once a frame ([`crate::Simulation::set_pose`],
//! [`crate::Simulation::set_anchor_position`]) and a step reads them, so each simulation keeps
//! its own while the compiled model ([`super::Compiled`]) is shared by every simulation of it.

use crate::align::best_rigid;
use crate::sim::data::Posed;
use glam::{Mat4, Vec3, Vec3A};

/// Points that move in a straight line from `start` to `target` over a step, so that a moved
/// point drags the model along smoothly instead of jumping at one sub-step.
#[derive(Clone, Debug, Default)]
pub(crate) struct Path {
    pub start: Vec<Vec3A>,
    pub target: Vec<Vec3A>,
}

impl Path {
    /// Points at rest at `at`.
    pub fn resting(at: Vec<Vec3A>) -> Path {
        Path { start: at.clone(), target: at }
    }

    /// Point `i` at fraction `t` ∈ [0, 1] of the step.
    #[inline]
    pub fn at(&self, i: usize, t: f32) -> Vec3A {
        self.start[i].lerp(self.target[i], t)
    }

    /// Point `i`'s velocity over a step of `dt` seconds.
    #[inline]
    pub fn velocity(&self, i: usize, dt: f32) -> Vec3A {
        (self.target[i] - self.start[i]) / dt
    }

    /// After a step: every point is where it was headed.
    pub fn arrive(&mut self) {
        self.start.clone_from(&self.target);
    }
}

/// Where what holds a model goes, per simulation ([module docs](self)).
#[derive(Clone, Debug)]
pub(crate) struct Goals {
    /// The anchored nodes' positions, in the order of [`super::Compiled::anchors`].
    pub anchors: Path,
    /// How much longer (m) each anchor's tethers are than at rest, for now: the anchor's
    /// recent motion that was not a motion of all the anchors as one rigid body, being taken
    /// back at [`crate::sim::constraints::tethers::TIGHTEN_SPEED`]
    /// ([`crate::sim::constraints::tethers`]).
    pub slack: Vec<f32>,
    /// A worn model's leashed nodes' skinned positions ([`Posed::leashed`]).
    pub leashes: Path,
    /// Its back-stops' centres ([`Posed::backed`]).
    pub backstops: Path,
    /// The root joint's (joint 0's) world matrix in the last pose: how the character as a
    /// whole stands ([`crate::Simulation::teleport`]).
    pub root: Mat4,
}

impl Goals {
    /// At rest: the anchors at `anchors`, a worn model's targets where `posed` rests.
    pub fn resting(anchors: Vec<Vec3A>, posed: Option<&Posed>) -> Goals {
        let slack = vec![0.0; anchors.len()];
        let (leashes, backstops, root) = posed.map_or_else(Default::default, |p| {
            (Path::resting(p.rest_leashes()), Path::resting(p.rest_backstops()), p.rest_root())
        });
        Goals { anchors: Path::resting(anchors), slack, leashes, backstops, root }
    }

    /// After a step: every anchor and target is where it was headed.
    pub fn arrive(&mut self) {
        self.anchors.arrive();
        self.leashes.arrive();
        self.backstops.arrive();
    }

    /// Before a step of `dt` seconds: each anchor's tether slack shrinks by `tighten` × `dt`
    /// (not below zero), then grows by how far the anchor moves this step apart from the best
    /// rigid motion of all the anchors from `start` to `target`, doubled, and at most by how
    /// far it moves. None for a single anchor, or for anchors a game carries as one (a
    /// character's shoulders, a flag's pole); for one of two anchors moved away from the other,
    /// its whole travel (the best rigid motion takes each half of it) and none for the other.
    pub fn loosen(&mut self, dt: f32, tighten: f32) {
        let taken = |slack: f32| (slack - tighten * dt).max(0.0);
        let Path { start, target } = &self.anchors;
        if start == target {
            // Nothing moved (most steps of most models): no alignment to find.
            self.slack.iter_mut().for_each(|s| *s = taken(*s));
            return;
        }
        let (rotation, translation) = best_rigid(start, target);
        for (slack, (&from, &to)) in self.slack.iter_mut().zip(start.iter().zip(target)) {
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
        let mut goals = Goals::resting(points.clone(), None);
        // All three carried as one body: turned a quarter round z and moved.
        let turn = glam::Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        goals.anchors.target =
            points.iter().map(|&p| turn * p + Vec3A::new(3.0, 1.0, 0.0)).collect();
        goals.loosen(1.0 / 60.0, 1.0);
        assert!(goals.slack.iter().all(|&s| s < 1e-5), "{:?}", goals.slack);
        // Two anchors, one dragged 0.5 m away from the other: its whole travel, and none for
        // the one that stayed.
        let mut two = Goals::resting(vec![Vec3A::ZERO, Vec3A::X], None);
        two.anchors.target[1] = Vec3A::X * 1.5;
        two.loosen(1.0 / 60.0, 1.0);
        assert!(
            (two.slack[0]).abs() < 1e-5 && (two.slack[1] - 0.5).abs() < 1e-5,
            "{:?}",
            two.slack
        );
        // Held still for 0.1 s: taken back at 1 m/s.
        two.arrive();
        for _ in 0..6 {
            two.loosen(1.0 / 60.0, 1.0);
        }
        assert!((two.slack[1] - 0.4).abs() < 1e-5, "{:?}", two.slack);
    }
}
