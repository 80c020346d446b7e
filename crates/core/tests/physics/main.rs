//! Acceptance tests of the solver against independent truth (analytic physics), one file per
//! property.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code: a failed expectation is a failed test.

#[path = "../common/mod.rs"]
mod common;

mod air;
mod anchors;
mod breakage;
mod catenary;
mod colliders;
mod defaults;
mod energy;
mod frame_rate;
mod ground;
mod hooks;
mod moving_colliders;
mod non_finite;
mod oscillator;
mod pressure;
mod rig;
mod shape;
mod skin;
mod stiff_cloth;
mod tethers;
mod threads;
