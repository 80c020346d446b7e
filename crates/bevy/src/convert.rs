//! Between Bevy's math types and the core's: the same layout, different `glam` releases.

use bevy::math::{Affine3A, Mat4, Quat, Vec3};
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

/// A Bevy matrix as the core's.
pub(crate) fn to_core_matrix(m: Mat4) -> glam::Mat4 {
    glam::Mat4::from_cols_array(&m.to_cols_array())
}

/// A core matrix as a Bevy affine transform (its last row dropped: the core's are affine).
pub(crate) fn from_core_matrix(m: glam::Mat4) -> Affine3A {
    Affine3A::from_mat4(Mat4::from_cols_array(&m.to_cols_array()))
}

/// The transform a share `s` ∈ [0, 1] of the way from `a` to `b`: scales and translations
/// interpolated linearly, rotations along the shorter arc (slerp); `b` itself at `s` = 1, so a
/// frame's last step ends exactly on its target.
pub(crate) fn blend(a: glam::Mat4, b: glam::Mat4, s: f32) -> glam::Mat4 {
    if s >= 1.0 || a == b {
        return b;
    }
    let (sa, ra, ta) = a.to_scale_rotation_translation();
    let (sb, rb, tb) = b.to_scale_rotation_translation();
    glam::Mat4::from_scale_rotation_translation(sa.lerp(sb, s), ra.slerp(rb, s), ta.lerp(tb, s))
}
