//! Stepping a model until it comes to rest.

/// When [`crate::Simulation::settle`] stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SettleOptions {
    /// The model counts as at rest once its kinetic energy (J) has stayed below this for
    /// `quiet_seconds`.
    pub energy_threshold: f64,
    /// How long (s) the kinetic energy must stay below the threshold. A model released from
    /// rest has no kinetic energy at first, and a pendulum has none at its turning points,
    /// so a single low reading does not mean rest.
    pub quiet_seconds: f64,
    /// Give up after this much simulated time (s).
    pub max_seconds: f64,
}

impl Default for SettleOptions {
    /// 1 µJ for a quarter of a second, within 60 s: a 1 kg model moving at 1.4 mm/s has 1 µJ.
    fn default() -> Self {
        Self { energy_threshold: 1e-6, quiet_seconds: 0.25, max_seconds: 60.0 }
    }
}

/// What [`crate::Simulation::settle`] did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SettleReport {
    /// True when the model came to rest before `max_seconds`.
    pub settled: bool,
    /// Simulated time (s) taken.
    pub seconds: f64,
    /// Steps taken.
    pub steps: u64,
    /// Kinetic energy (J) at the end.
    pub kinetic_energy: f64,
}
