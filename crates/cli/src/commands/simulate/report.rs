//! What a run reports: its counters, and each body's figures as text or JSON.

use serde::Serialize;
use springmesh_core::{CoreError, Simulation};
use std::fmt;
use std::time::Duration;

/// Counters of a run.
#[derive(Default)]
pub(super) struct Stats {
    pub(super) steps: u64,
    pub(super) stepping: Duration,
    pub(super) bodies: Vec<Body>,
}

/// Counters of one body of a run.
#[derive(Clone, Default)]
pub(super) struct Body {
    pub(super) broken: usize,
    pub(super) max_speed: f32,
}

/// What `simulate` did with several bodies: each body's figures, in the order given.
#[derive(Serialize)]
pub(super) struct Bodies {
    pub(super) bodies: Vec<Ran>,
}

impl fmt::Display for Bodies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.bodies.iter().try_for_each(|ran| write!(f, "{ran}"))
    }
}

/// What `simulate` did (the JSON fields of docs/cli.md).
#[derive(Serialize)]
pub(super) struct Ran {
    pub(super) steps: u64,
    pub(super) sim_seconds: f64,
    pub(super) wall_seconds: f64,
    pub(super) step_wall_seconds: f64,
    pub(super) finite: bool,
    pub(super) kinetic_energy: f64,
    pub(super) elastic_energy: f64,
    pub(super) gravitational_energy: f64,
    pub(super) gas_energy: f64,
    pub(super) enclosed_volume: Option<f32>,
    pub(super) broken_springs: usize,
    pub(super) max_speed: f32,
    pub(super) frames: usize,
    pub(super) error: Option<String>,
    #[serde(skip)]
    pub(super) file: String,
    #[serde(skip)]
    pub(super) dt: f32,
}

impl Ran {
    pub(super) fn new(
        file: String,
        (dt, wall, frames): (f32, Duration, usize),
        (sim, stats, body): (&Simulation, &Stats, &Body),
        failure: Option<&CoreError>,
    ) -> Ran {
        let e = sim.energy();
        Ran {
            steps: stats.steps,
            sim_seconds: sim.time(),
            wall_seconds: wall.as_secs_f64(),
            step_wall_seconds: stats.stepping.as_secs_f64(),
            finite: failure.is_none(),
            kinetic_energy: e.kinetic,
            elastic_energy: e.elastic,
            gravitational_energy: e.gravitational,
            gas_energy: e.gas,
            enclosed_volume: sim.enclosed_volume().ok(),
            broken_springs: body.broken,
            max_speed: body.max_speed,
            frames,
            error: failure.map(|e| e.to_string()),
            file,
            dt,
        }
    }
}

impl fmt::Display for Ran {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} steps of {} s ({:.3} s simulated) in {:.3} s, {:.3} s of it stepping ({:.1} µs per step)",
            self.file,
            self.steps,
            self.dt,
            self.sim_seconds,
            self.wall_seconds,
            self.step_wall_seconds,
            self.step_wall_seconds * 1e6 / self.steps.max(1) as f64
        )?;
        writeln!(
            f,
            "  energy: kinetic {:.6} J, elastic {:.6} J, gravitational {:.6} J, gas {:.6} J; fastest node {:.3} m/s; {} springs broke",
            self.kinetic_energy,
            self.elastic_energy,
            self.gravitational_energy,
            self.gas_energy,
            self.max_speed,
            self.broken_springs
        )?;
        if let Some(volume) = self.enclosed_volume {
            writeln!(f, "  enclosed volume {volume:.6} m³")?;
        }
        if self.frames > 0 {
            writeln!(f, "  {} frames written", self.frames)?;
        }
        Ok(())
    }
}
