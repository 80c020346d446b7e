//! # Energy
//!
//! ```text
//! T = Σ_i ½ m_i |v_i|²                     kinetic (free nodes)
//! U_e = Σ_s ½ k_s (|x_b − x_a| − L_s)²     elastic (intact springs), plus shape matching's
//!       + Σ_i ½ m_i ω² |g_i − x_i|²        pull when it is on (see crate::sim::forces::shape)
//! U_g = Σ_i −m_i g·x_i                     gravitational (free nodes; zero at the origin)
//! U_p = −K ln(V/V₀)                        the gas, with pressure (see crate::sim::forces::pressure)
//! ```
//!
//! Anchored nodes are driven, not part of the dynamic system, so their motion is not counted;
//! the work they do when moved is accounted separately by the adaptive integrator. Sums are
//! taken in f64 so that the energy of a 100k-spring model is exact to far below the effects
//! the tests look for.

use crate::sim::data::Compiled;
use crate::sim::forces::pressure::signed_volume;
use crate::sim::forces::shape;
use crate::sim::state::State;
use glam::Vec3A;

/// Mechanical energy of a model's state, in joules.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Energy {
    /// Kinetic energy of the free nodes.
    pub kinetic: f64,
    /// Energy stored in the springs (and in shape matching's pull).
    pub elastic: f64,
    /// Potential energy of the free nodes in gravity (zero at the origin).
    pub gravitational: f64,
    /// Energy stored in the gas of a closed model with pressure (zero at its rest volume).
    pub gas: f64,
}

impl Energy {
    /// Kinetic + elastic + gravitational + gas.
    pub fn total(&self) -> f64 {
        self.kinetic + self.elastic + self.gravitational + self.gas
    }
}

/// The energy of state `s`.
pub(crate) fn measure(c: &Compiled, s: &State) -> Energy {
    let g = Vec3A::from(c.params.gravity);
    let nodes = c.nodes.mass.iter().zip(&c.nodes.free);
    // In f64 throughout: a finite f32 state (up to 3.4e38 m) squared or multiplied overflows
    // f32, and a report of the last finite state must be finite too.
    let gravitational = nodes
        .zip(&s.pos)
        .map(|((&m, &free), x)| -f64::from(m * free) * g.as_dvec3().dot(x.as_dvec3()))
        .sum();
    let gas = c.gas().map_or(0.0, |gas| gas.energy(gas.sign * signed_volume(&s.pos, &c.faces)));
    let rest = (c.shape.as_slice(), c.nodes.mass.as_slice());
    let shape = shape::omega_squared(c.params.shape_matching.as_ref())
        .map_or(0.0, |omega_squared| shape::energy(omega_squared, rest, &s.pos));
    let elastic = elastic(c, &s.pos) + shape;
    Energy { kinetic: kinetic(c, s), elastic, gravitational, gas }
}

/// Kinetic energy of the free nodes in state `s`.
pub(crate) fn kinetic(c: &Compiled, s: &State) -> f64 {
    let nodes = c.nodes.mass.iter().zip(&c.nodes.free);
    nodes
        .zip(&s.vel)
        .map(|((&m, &free), v)| 0.5 * f64::from(m * free) * v.as_dvec3().length_squared())
        .sum()
}

/// Elastic energy of the springs at positions `pos`.
pub(crate) fn elastic(c: &Compiled, pos: &[Vec3A]) -> f64 {
    let sp = &c.springs;
    let ends = sp.a().iter().zip(sp.b());
    ends.zip(sp.rest.iter().zip(&sp.stiffness))
        .map(|((&a, &b), (&rest, &k))| {
            let length = pos[a as usize].as_dvec3().distance(pos[b as usize].as_dvec3());
            let stretch = length - f64::from(rest);
            0.5 * f64::from(k) * stretch * stretch
        })
        .sum()
}
