//! One module per subcommand.

pub mod brace;
pub mod check;
pub mod convert;
pub mod info;
pub mod sample;
pub mod settle;
pub mod simulate;
pub mod tune;
