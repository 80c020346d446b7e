//! Small index newtypes, so a node index is never mistaken for a spring index.
//!
//! Both are `u32`: a model with four billion nodes is out of scope, and half-size indices keep the
//! solver's arrays (two endpoints per spring) compact in cache.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Index of a node in [`crate::SpringModel::nodes`] (and of its state in a [`crate::Simulation`]).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct NodeId(pub u32);

/// Index of a spring in [`crate::SpringModel::springs`].
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct SpringId(pub u32);

/// Index of a triangle in [`crate::SpringModel::faces`].
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct FaceId(pub u32);

macro_rules! index_impls {
    ($($t:ident),*) => {$(
        impl $t {
            /// The index as a `usize`, for indexing slices.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The id of the element at slice index `i`.
            ///
            /// Model sizes are checked against `u32::MAX` where models are built, so `i` fits.
            #[inline]
            pub const fn from_index(i: usize) -> Self {
                Self(i as u32)
            }
        }

        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    )*};
}

index_impls!(NodeId, SpringId, FaceId);
