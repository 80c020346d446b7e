//! Acceptance tests of the solver against independent truth (analytic physics), one file per
//! property.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code: a failed expectation is a failed test.

#[path = "../common/mod.rs"]
mod common;

mod anchors;
mod catenary;
mod energy;
mod frame_rate;
mod non_finite;
mod oscillator;
mod stiff_cloth;
mod threads;
