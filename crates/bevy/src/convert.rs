//! Between Bevy's math types and the core's: the same layout, different `glam` releases.

use bevy::math::{Quat, Vec3};
use springmesh_core::glam;

/// A Bevy vector as the core's.
pub(crate) fn to_core(v: Vec3) -> glam::Vec3 {
    glam::Vec3::from_array(v.to_array())
}

/// A core vector as Bevy's.
pub(crate) fn to_bevy(v: glam::Vec3) -> Vec3 {
    Vec3::from_array(v.to_array())
}

/// A Bevy rotation as the core's.
pub(crate) fn quat_to_core(q: Quat) -> glam::Quat {
    glam::Quat::from_array(q.to_array())
}
