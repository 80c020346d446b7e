//! # External forces: air, buoyancy and the game's force fields
//!
//! Forces that do not come from the springs or the gas are gathered once per step, from the
//! state at its start, into one force per node F_ext, and held over the step's sub-steps the
//! way gravity is:
//!
//! ```text
//! explicit:  v ← v + h (w (F_springs + F_gas + F_ext) + g)
//! xpbd:      x ← x + h (v + h (g + w F_ext))           (the prediction)
//! ```
//!
//! - w: a node's inverse mass (0 for anchors, which no force moves); h: the sub-step.
//!
//! They are [`crate::sim::forces::air`] (drag and lift), buoyancy ([`crate::sim::forces::pressure`]) and every
//! [`ForceField`] a game added. Holding them for a step costs one evaluation per frame instead
//! of one per sub-step, and loses little: they vary with the flow and the game's world, on the
//! time scale of frames. (Stiff forces do not belong here: the springs and the gas are solved
//! every sub-step.)

use crate::model::AIR_DENSITY;
use crate::sim::data::Compiled;
use crate::sim::forces::air::{self, Wind};
use crate::sim::forces::pressure;
use crate::sim::state::State;
use glam::Vec3A;
use std::sync::Arc;

/// A force on the nodes that a game adds, such as its own wind, a magnet or a vortex, with
/// [`crate::Simulation::add_force_field`]. It is evaluated once per step.
pub trait ForceField: Send + Sync {
    /// Adds to `forces[i]` the force (N) on node i at `time` (s), given the positions (m) and
    /// velocities (m/s) of every node. Forces on anchored nodes are ignored.
    fn add_forces(
        &self,
        time: f64,
        positions: &[Vec3A],
        velocities: &[Vec3A],
        forces: &mut [Vec3A],
    );
}

/// Fills `out` with the external force on every node for a step of `dt` from state `s` at
/// `time` (`rel` is scratch). Returns false (and leaves `out` empty) when there is none, so
/// the integrators can skip it.
pub(crate) fn gather(
    c: &Compiled,
    fields: &[Arc<dyn ForceField>],
    (s, time, dt): (&State, f64, f32),
    out: &mut Vec<Vec3A>,
    rel: &mut Vec<Vec3A>,
) -> bool {
    out.clear();
    let air = c.params.air.as_ref().filter(|_| !c.faces.is_empty());
    let buoyancy = c.gas().zip(c.params.pressure.and_then(|p| p.gas_density));
    if air.is_none() && buoyancy.is_none() && fields.is_empty() {
        return false;
    }
    out.resize(s.pos.len(), Vec3A::ZERO);
    if let Some(air) = air {
        let wind = Wind::new(air, time, &s.pos);
        air::relative_velocities(&wind, &s.pos, &s.vel, rel);
        let sides = (!c.surface.closed, c.surface.sign);
        air::add_forces(air, &c.faces, sides, &s.pos, rel, out);
        air::cap(out, &c.nodes.mass, rel, dt);
    }
    if let Some((gas, gas_density)) = buoyancy {
        let air_density = air.map_or(AIR_DENSITY, |a| a.density);
        let volume = gas.sign * pressure::signed_volume(&s.pos, &c.faces);
        let lift = Vec3A::from(c.params.gravity) * (-(air_density - gas_density) * volume.max(0.0));
        for (f, &share) in out.iter_mut().zip(&c.surface.area_share) {
            *f += lift * share;
        }
    }
    for field in fields {
        field.add_forces(time, &s.pos, &s.vel, out);
    }
    true
}

/// Work (J) that the external forces `ext` do on the free nodes moving from `from` to `to`.
pub(crate) fn work(c: &Compiled, ext: &[Vec3A], from: &[Vec3A], to: &[Vec3A]) -> f64 {
    ext.iter()
        .zip(&c.nodes.free)
        .zip(from.iter().zip(to))
        .map(|((f, &free), (a, b))| f64::from(free * f.dot(*b - *a)))
        .sum()
}
