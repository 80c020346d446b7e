//! # Colliders a game moves
//!
//! Each simulation keeps its colliders where they are now ([`Moves::now`]: the model's own,
//! then the character's), apart from the compiled model its clones share
//! ([`crate::Simulation`]), and where a game moves them by the end of the next step
//! ([`Simulation::move_collider`]): across the step's sub-steps at constant velocity
//! ([`crate::sim::contacts::moving`]).

use super::Simulation;
use super::collision::Reach;
use super::contacts;
use crate::CoreError;
use crate::SimParams;
use crate::model::{Obstacle, Shape};
use glam::{Quat, Vec3};

/// The colliders a game moves ([`Simulation::move_collider`]).
#[derive(Clone, Debug)]
pub(crate) struct Moves {
    /// The model's colliders as it saved them: what [`Simulation::set_collider_pose`] poses.
    pub(crate) rest: Vec<Obstacle>,
    /// Every collider where it is now: the parameters' colliders, then the body's.
    pub(crate) now: Vec<Obstacle>,
    /// True when [`Simulation::params_mut`] may have changed the colliders: `now` is taken
    /// from the parameters before it is next read.
    pub(crate) stale: bool,
    /// Per collider, where it is by the end of the next step (`None`: where it is).
    pub(crate) targets: Vec<Option<Shape>>,
    /// When some move: every collider's shape at the end of each of the step's sub-steps,
    /// sub-step by sub-step (worked out once per step, not once per node).
    pub(crate) poses: Vec<Shape>,
    /// The [`Reach`] of each of `poses`, or of every collider when none moves.
    pub(crate) reaches: Vec<Reach>,
    /// False when continuous collision is off ([`Simulation::set_continuous_collision`]);
    /// a simulation starts with it on.
    pub(crate) continuous: bool,
}

impl Moves {
    /// The colliders `now`, posed from the model's own `rest`, none moving yet, with
    /// continuous collision on.
    pub(crate) fn new(rest: Vec<Obstacle>, now: Vec<Obstacle>) -> Moves {
        let (targets, poses, reaches) = (Vec::new(), Vec::new(), Vec::new());
        Moves { rest, now, stale: false, targets, poses, reaches, continuous: true }
    }

    /// Works out [`Moves::poses`] for a step of `n` equal sub-steps.
    pub(crate) fn ready(&mut self, n: u32) {
        self.poses.clear();
        self.reaches.clear();
        if self.targets.iter().all(Option::is_none) {
            self.reaches.extend(self.now.iter().map(|c| Reach::of(&c.shape)));
            return;
        }
        for k in 1..=n {
            let s = k as f32 / n as f32;
            for (i, c) in self.now.iter().enumerate() {
                let target = self.targets.get(i).and_then(Option::as_ref);
                self.poses
                    .push(target.map_or(c.shape, |to| contacts::moving::between(&c.shape, to, s)));
            }
        }
        self.reaches.extend(self.poses.iter().map(Reach::of));
    }

    /// Takes the colliders from `params` if [`Simulation::params_mut`] may have changed them.
    pub(crate) fn sync(&mut self, params: &SimParams) {
        if self.stale {
            self.now.clone_from(&params.colliders);
            self.targets.truncate(self.now.len());
            self.stale = false;
        }
    }
}

impl Simulation {
    /// Puts each collider moved by [`Simulation::move_collider`] where it was moving to.
    pub(crate) fn colliders_arrive(&mut self) {
        let targets = self.moves.targets.drain(..);
        for (collider, target) in self.moves.now.iter_mut().zip(targets) {
            if let Some(shape) = target {
                collider.shape = shape;
            }
        }
    }

    /// Moves the model's collider `index` to `shape` by the end of the next step, at a constant
    /// velocity across its sub-steps, so that it pushes and drags what it touches at that
    /// velocity ([`contacts::moving`]). Call it once a frame before [`Simulation::step`]; to put
    /// a collider somewhere without moving it through the space between, set it in
    /// [`Simulation::params_mut`] instead.
    ///
    /// Errors: no collider `index`, a shape of another kind than the collider's, or one that is
    /// not finite or has a radius or size that is not positive.
    pub fn move_collider(&mut self, index: usize, shape: Shape) -> Result<(), CoreError> {
        self.moves.sync(&self.c.params);
        let colliders = &self.moves.now;
        let count = colliders.len();
        let current = colliders.get(index).ok_or(CoreError::NoSuchCollider { index, count })?;
        if std::mem::discriminant(&current.shape) != std::mem::discriminant(&shape) {
            let reason = format!("a {} cannot become a {}", current.shape.kind(), shape.kind());
            return Err(CoreError::BadCollider { index, reason });
        }
        if let Some(reason) = shape.problem(&format!("colliders[{index}]")) {
            return Err(CoreError::BadCollider { index, reason });
        }
        let targets = &mut self.moves.targets;
        if targets.len() < count {
            targets.resize(count, None);
        }
        targets[index] = Some(shape);
        Ok(())
    }

    /// Adds a collider to the model's environment (a character's capsule, a paddle) and returns its
    /// index, to move with [`Simulation::move_collider`] or [`Simulation::set_collider_pose`]
    /// (which poses the shape given here). It is this simulation's alone: the compiled model
    /// its clones share is not copied for it, and [`Simulation::params`] does not list it
    /// ([`Simulation::colliders`] does). Errors: a shape or surface that is not valid.
    pub fn add_obstacle(&mut self, obstacle: Obstacle) -> Result<usize, CoreError> {
        self.moves.sync(&self.c.params);
        let index = self.moves.now.len();
        let mut checks = Vec::new();
        crate::model::environment::obstacle_checks(&obstacle, index, &mut checks);
        if let Some((field, _, must)) = checks.into_iter().find(|(_, ok, _)| !ok) {
            let reason = format!("{field} must be {must}");
            return Err(CoreError::BadCollider { index, reason });
        }
        // Colliders set through params_mut have no rest shape of their own: their current one.
        let Moves { rest, now, .. } = &mut self.moves;
        rest.truncate(index);
        rest.extend(now.get(rest.len()..).unwrap_or_default().iter().copied());
        rest.push(obstacle);
        now.push(obstacle);
        Ok(index)
    }

    /// Moves the model's collider `index` as [`Simulation::move_collider`] does, to its shape
    /// as the model saved it, turned by `rotation` about its centre and moved so that the
    /// centre is at `position` ([`Shape::posed`]): how a game hangs a collider on a bone.
    pub fn set_collider_pose(
        &mut self,
        index: usize,
        position: Vec3,
        rotation: Quat,
    ) -> Result<(), CoreError> {
        self.moves.sync(&self.c.params);
        let count = self.moves.rest.len().min(self.moves.now.len());
        let rest = self.moves.rest.get(index).filter(|_| index < count);
        let rest = rest.ok_or(CoreError::NoSuchCollider { index, count })?;
        let length = rotation.length();
        if !(position.is_finite() && rotation.is_finite() && length > 1e-6) {
            let reason = "the position or rotation is not finite, or the rotation is zero".into();
            return Err(CoreError::BadCollider { index, reason });
        }
        self.move_collider(index, rest.shape.posed(position, rotation / length))
    }

    /// Turns continuous collision off (`false`) or back on (`true`, as every simulation
    /// starts): off, each collider stands where it goes by the end of the step through all of
    /// the step's sub-steps instead of moving across them, a node inside a collider goes out
    /// the nearest way instead of on the side it came from (`sim::contacts::sides`), and no
    /// edge is kept out of a sphere or capsule (`sim::contacts::edges`): the collision of
    /// solvers without it, to compare with (the Blender-made figures' tests show what it
    /// holds). Not saved with the model.
    pub fn set_continuous_collision(&mut self, on: bool) {
        self.moves.continuous = on;
    }

    /// Every collider where it is now, moved or not: the parameters' colliders, then those
    /// of the body the model is worn on.
    pub fn colliders(&self) -> &[Obstacle] {
        if self.moves.stale { &self.c.params.colliders } else { &self.moves.now }
    }
}
