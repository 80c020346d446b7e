//! The environment as a step sees it: what its sub-steps need besides the compiled model: the
//! external forces held over the step, the gas, the colliders, and where the anchors and the
//! pose's targets go — gathered once per step by [`crate::Simulation::step`].

use crate::sim::contacts::collision::Colliders;
use crate::sim::contacts::surface::{Frame, Touched, touch};
use crate::sim::data::{Compiled, Goals};
use crate::sim::forces::pressure::Gas;
use crate::sim::state::State;
use glam::Vec3A;

/// What one step's sub-steps see around the model.
pub(crate) struct Environment<'a> {
    /// Force on every node held over the step ([`crate::sim::forces::external`]); `None` when there is none.
    pub external: Option<&'a [Vec3A]>,
    /// The gas inside a closed model with pressure.
    pub gas: Option<Gas>,
    /// What the nodes collide with.
    pub colliders: Colliders<'a>,
    /// Where the anchors and a worn model's targets go over the step.
    pub goals: &'a Goals,
}

impl Environment<'_> {
    /// Resolves the collisions of the free nodes of `to`, which moved from `from` over a
    /// sub-step `h` ending at the fraction `progress` of the step (the explicit integrators'
    /// collision pass); of a cage, its skin's touching points instead.
    /// `touched` is the skin contacts' scratch.
    pub fn collide_state(
        &self,
        c: &Compiled,
        (from, to): (&State, &mut State),
        (h, progress): (f32, f32),
        touched: &mut Touched,
    ) {
        let colliders = self.colliders.at(progress);
        if colliders.is_empty() {
            return;
        }
        if let Some(points) = &c.touch {
            let frame = Frame { base: None, from: &from.pos };
            let (x, v) = (&mut to.pos, &mut to.vel);
            touch(points, (&colliders, &frame), &c.nodes.inv_mass, (x, v), h, touched);
            return;
        }
        let nodes = c.nodes.free.iter().zip(&from.pos);
        for ((&free, &x0), (x, v)) in nodes.zip(to.pos.iter_mut().zip(to.vel.iter_mut())) {
            if free != 0.0 {
                colliders.resolve(x0, x, v, h);
            }
        }
    }
}
