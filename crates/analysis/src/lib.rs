//! # springmesh-analysis
//!
//! What Springmesh's tools ask of a model beyond simulating it. A game never links this crate:
//! the command line and the editor do.
//!
//! - [`check`]: does a model keep its shape when shaken and under its own weight, and does it
//!   stay upright on its base.
//! - [`modes`]: a model's lowest vibration frequencies, K φ = λ M φ.
//! - [`stiffness_fit`]: one factor on the stiffness for a stated lowest frequency or sag.
//! - [`brace`]: springs added where the check finds a model weakest, kept when they help.
//! - [`connect`]: the springs that join a set of nodes (all pairs, nearest, a chain).
//!
//! ```
//! use springmesh_analysis::check::{CheckOptions, check};
//! use springmesh_core::io;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let json = br#"{"nodes":[{"position":[0,0,0],"mass":1},{"position":[1,0,0],"mass":1}],
//!                 "springs":[{"a":0,"b":1,"stiffness":100}], "anchors":[0]}"#;
//! let model = io::decode(json, "inline.spring.json".as_ref())?;
//! let report = check(&model, &CheckOptions::default())?;
//! assert_eq!(report.components, 1);
//! assert!(report.shake.error < 0.01, "shaken, a weight on a spring comes back to its length");
//! assert!(report.sag.error > report.shake.error, "hung, the spring stretches under the weight");
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs)]

pub mod brace;
pub mod check;
pub mod connect;
mod error;
pub mod modes;
mod random;
pub mod stiffness_fit;

pub use error::AnalysisError;
