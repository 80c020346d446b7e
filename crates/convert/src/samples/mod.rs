//! The built-in sample models: what the editor opens on first start and `springmesh sample`
//! writes. Each is generated in code (no asset files) and simulates for 5 s with the default
//! integrator without NaN and without turning inside out (tests/samples.rs).
//!
//! - [`Sample::String`]: a rope held at one end, starting horizontal so it swings.
//! - [`Sample::Cloth`]: a quad-grid cloth with shear and bend springs, two corners held.
//! - [`Sample::Jelly`]: a cube lattice braced by face and body diagonals, so it keeps its shape.
//! - [`Sample::Balloon`]: a sphere of helium at 2 kPa, lifted by its buoyancy, on a string.
//! - [`Sample::Flag`]: a cloth on a flexible pole held at its foot, in a gusty breeze.
//! - [`Sample::Tear`]: a heavy ball on a drum of breakable cloth, which tears and lets it through.

mod balloon;
mod build;
mod cloth;
mod flag;
mod jelly;
pub mod pile;
mod rope;
mod tear;

pub use build::grid_mesh;

use springmesh_core::SpringModel;

/// A built-in sample model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sample {
    /// A rope held at one end.
    String,
    /// A cloth held at two corners.
    Cloth,
    /// A braced cube lattice.
    Jelly,
    /// A balloon on a string.
    Balloon,
    /// A flag on a flexible pole.
    Flag,
    /// A heavy ball tearing a cloth.
    Tear,
}

impl Sample {
    /// Every sample.
    pub const ALL: [Sample; 6] =
        [Sample::String, Sample::Cloth, Sample::Jelly, Sample::Balloon, Sample::Flag, Sample::Tear];

    /// The sample's name on the command line and in menus.
    pub fn name(self) -> &'static str {
        match self {
            Sample::String => "string",
            Sample::Cloth => "cloth",
            Sample::Jelly => "jelly",
            Sample::Balloon => "balloon",
            Sample::Flag => "flag",
            Sample::Tear => "tear",
        }
    }

    /// The sample called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Sample> {
        Sample::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Builds the model.
    pub fn model(self) -> SpringModel {
        let mut model = match self {
            Sample::String => rope::model(),
            Sample::Cloth => cloth::model(),
            Sample::Jelly => jelly::model(),
            Sample::Balloon => balloon::model(),
            Sample::Flag => flag::model(),
            Sample::Tear => tear::model(),
        };
        model.metadata.name = self.name().to_string();
        model.metadata.source = Some(format!("built-in sample \"{}\"", self.name()));
        model
    }
}
