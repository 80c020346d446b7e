//! Forces: the spring kernels, damping, air, the gas of closed models, forces held over a step.

pub mod air;
pub mod bands;
pub mod damping;
pub mod external;
pub mod kernels;
pub mod pressure;
