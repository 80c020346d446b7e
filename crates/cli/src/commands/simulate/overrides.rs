//! The model's parameters as the command line overrides them (`simulate` and `settle`).

use crate::Usage;
use crate::collider::ColliderArg;
use anyhow::Result;
use glam::Vec3;
use springmesh_convert::{Thickness, self_collision};
use springmesh_core::{Integrator, ValidModel};

/// Integrators by their command-line names.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum IntegratorName {
    /// Semi-implicit Euler: the reference; unstable for stiff springs.
    Explicit,
    /// Semi-implicit Euler with energy-checked, self-halving sub-steps.
    Adaptive,
    /// Springs as compliant constraints in small sub-steps: stable when stiff.
    Xpbd,
}

impl From<IntegratorName> for Integrator {
    fn from(n: IntegratorName) -> Integrator {
        match n {
            IntegratorName::Explicit => Integrator::Explicit,
            IntegratorName::Adaptive => Integrator::Adaptive,
            IntegratorName::Xpbd => Integrator::Xpbd,
        }
    }
}

/// Changes to a model's simulation parameters, shared by `simulate` and `settle`.
#[derive(clap::Args)]
pub struct Overrides {
    /// Integrator [default: the model's].
    #[arg(long, value_enum)]
    integrator: Option<IntegratorName>,
    /// Sub-steps per model time step [default: the model's].
    #[arg(long, value_name = "N")]
    substeps: Option<u32>,
    /// Global velocity damping rate, 1/s (velocities decay as e^(-RATE·t)) [default: the
    /// model's].
    #[arg(long, value_name = "RATE")]
    damping: Option<f32>,
    /// Switch gravity off.
    #[arg(long)]
    no_gravity: bool,
    /// Switch the tethers to the anchors off (for a model meant to stretch far).
    #[arg(long)]
    no_tethers: bool,
    /// Keep the model's layers this far apart (m) [default: the model's thickness, or 0.9 of
    /// its mean spring].
    #[arg(long, value_name = "THICKNESS", num_args = 0..=1, conflicts_with = "no_self_collision")]
    self_collision: Option<Option<f32>>,
    /// Switch self-collision off.
    #[arg(long)]
    no_self_collision: bool,
    /// Add a collider: sphere:X,Y,Z,R, capsule:AX,AY,AZ,BX,BY,BZ,R, box:X,Y,Z,HX,HY,HZ
    /// (axis-aligned, half sizes) or plane:X,Y,Z,NX,NY,NZ, in metres (repeatable).
    #[arg(long, value_name = "SHAPE")]
    collider: Vec<ColliderArg>,
}

impl Overrides {
    /// Applies the overrides to `model`'s parameters.
    pub fn apply(&self, model: &mut ValidModel) -> Result<()> {
        let mut params = model.params.clone();
        let p = &mut params;
        if let Some(i) = self.integrator {
            p.integrator = i.into();
        }
        if let Some(n) = self.substeps {
            if n == 0 || n > springmesh_core::model::MAX_SUBSTEPS {
                return Err(Usage(format!("--substeps {n} must be between 1 and 10000")).into());
            }
            p.substeps = n;
        }
        if let Some(d) = self.damping {
            if !(d.is_finite() && d >= 0.0) {
                return Err(Usage(format!("--damping {d} must be a finite number >= 0")).into());
            }
            p.damping = d;
        }
        if self.no_gravity {
            p.gravity = Vec3::ZERO;
        }
        if self.no_tethers {
            p.tethers = None;
        }
        if let Some(thickness) = self.self_collision {
            // The thickness asked for, or the model's own, or one from its springs.
            p.self_collision = match (thickness, p.self_collision) {
                (None, Some(own)) => Some(own),
                (Some(t), _) => Some(self_collision(model, Thickness::Metres(t))),
                (None, None) => Some(self_collision(model, Thickness::FromEdges)),
            };
        }
        if self.no_self_collision {
            p.self_collision = None;
        }
        p.colliders.extend(self.collider.iter().map(|c| c.0));
        model.set_params(params)?;
        Ok(())
    }
}
