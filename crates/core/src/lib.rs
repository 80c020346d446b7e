//! # springmesh-core
//!
//! The crate a game links to load and simulate Springmesh models.
//!
//! - [`SpringModel`]: the authoring description — nodes, springs, anchors, faces, parameters.
//! - [`io`]: the binary `.spring` and readable `.spring.json` files ([`io::load`], [`io::save`]).
//! - [`Simulation`]: compiled from a model, stepped many times with one of three
//!   [`Integrator`]s; the model itself never changes while simulating.
//!
//! ```
//! use springmesh_core::{Simulation, ValidModel, io};
//! # fn main() -> Result<(), springmesh_core::CoreError> {
//! let json = br#"{"nodes":[{"position":[0,0,0],"mass":1},{"position":[1,0,0],"mass":1}],
//!                 "springs":[{"a":0,"b":1,"stiffness":100}], "anchors":[0]}"#;
//! let model: ValidModel = io::decode(json, "inline.spring.json".as_ref())?;
//! let mut sim = Simulation::new(&model);
//! for _ in 0..60 {
//!     sim.step(model.params.dt)?;
//! }
//! assert!(sim.positions()[1].y < 0.0); // the free node swings down
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs)]

pub mod align;
mod bounded;
#[cfg(feature = "judge")]
pub mod depth;
mod error;
pub mod geometry;
pub mod grid;
mod ids;
pub mod io;
pub mod model;
mod parallel;
mod problems;
pub mod sim;
mod valid;

pub use error::CoreError;
/// The math library of the core's types (positions are `glam::Vec3`).
pub use glam;
pub use ids::{FaceId, NodeId, SpringId};
pub use model::{
    Aabb, Face, Integrator, Metadata, Node, SimParams, Spring, SpringKind, SpringModel,
};
pub use sim::{
    BreakEvent, Collider, Contact, Energy, ForceField, Overlap, Posing, RigidBody, RigidImpulse,
    Simulation, StepReport, Teleport, World, WorldStepReport,
};
pub use valid::ValidModel;
