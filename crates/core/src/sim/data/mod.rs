//! # The compiled model: the arrays the solver walks
//!
//! What [`crate::sim::compile`] builds from a [`crate::SpringModel`] and every pass of the
//! solver reads: per-node constants ([`NodeData`]), the springs in solver order with their
//! colour batches and band layout ([`SpringData`], [`Batch`], [`Bands`]), the rig
//! ([`Posed`]), what the triangles enclose ([`SurfaceData`]) and the skin's points that touch
//! the environment ([`TouchPoints`]), all in one immutable [`Compiled`]; and where each
//! simulation's anchors and pose targets go during a step ([`Goals`]). One `Vec` per field.
//!
//! This module imports nothing of the solver (forces, constraints, integrators, readout): the
//! code that walks these arrays lives above them and changes without touching them, and each
//! array's invariants are kept here, by the only functions that change it (a spring's
//! constants live in [`SpringData`] alone; a band's lanes name their springs and copy the
//! constants from there, see [`Bands::refresh`]).

mod bands;
mod batches;
mod compiled;
mod goals;
mod incidence;
mod nodes;
mod posed;
mod springs;
mod surface;
pub(crate) mod tethers;
mod touch_points;

#[cfg(test)]
pub(crate) use bands::NO_SPRING;
pub(crate) use bands::{Band, Bands, LONG_OFFSET};
pub(crate) use batches::{Batch, share_no_node};
pub(crate) use compiled::Compiled;
pub(crate) use goals::Goals;
pub(crate) use incidence::Incidence;
pub(crate) use nodes::NodeData;
pub(crate) use posed::Posed;
pub(crate) use springs::SpringData;
pub(crate) use surface::SurfaceData;
pub(crate) use tethers::Tethers;
pub(crate) use touch_points::TouchPoints;
