//! What a step reports and a caller reads: energy, vertex normals, breakage events.

pub mod breakage;
pub mod energy;
pub mod normals;
