//! Forces: the spring's formulas (`spring`) and the loops that apply them ([`kernels`],
//! [`bands`]), damping, air, the gas of closed models, forces held over a step, shape matching.

pub mod air;
pub mod bands;
pub mod damping;
#[cfg(target_arch = "x86_64")]
mod eights;
pub mod external;
pub mod kernels;
pub mod pressure;
pub(crate) mod shape;
pub(crate) mod spring;
