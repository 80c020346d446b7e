//! Acceptance tests of the `.spring` and `.spring.json` files: round trips, the minimal JSON
//! form, hostile input, and a reader written from docs/file-format.md alone.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code: a failed expectation is a failed test.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/mutate.rs"]
mod mutate;

mod corrupt;
mod independent_reader;
mod json_form;
mod mutation;
mod round_trip;
mod stepping;
mod strategy;
