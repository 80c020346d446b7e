//! The skeleton a model is worn on: its joints' names, and the pose a game sets each frame.

use crate::error::{Failure, SM_ERR_ARGUMENT, copy_out, status, value};
use crate::sim::{SmSim, read, write};
use glam::Mat4;
use springmesh_core::{CoreError, Simulation, Teleport};
use std::ffi::{c_char, c_int};

/// Number of joints of the skeleton the model is worn on (0 without one, or for NULL).
///
/// # Safety
/// `s` is NULL or a live simulation.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_joint_count(s: *const SmSim) -> u32 {
    // SAFETY: `s` is NULL or a live simulation (this function's contract).
    value(0, || Ok(unsafe { read(s) }?.sim.rig().map_or(0, |r| r.joints.len() as u32)))
}

/// The name of joint `index` (NUL-terminated UTF-8, valid while the simulation lives), or NULL
/// for an index past the end: how the game finds the bone to read each frame.
///
/// # Safety
/// `s` is NULL or a live simulation.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_joint_name(s: *const SmSim, index: u32) -> *const c_char {
    value(std::ptr::null(), || {
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        let s = unsafe { read(s) }?;
        let name = s.joint_names.get(index as usize).ok_or_else(|| {
            Failure::new(SM_ERR_ARGUMENT, format!("joint {index} does not exist"))
        })?;
        Ok(name.as_ptr())
    })
}

/// Writes the rest pose, each joint's world matrix when the model is at rest (16 floats each,
/// column-major), to `out` (room for `cap` floats); returns how many floats were written.
///
/// # Safety
/// `s` is NULL or a live simulation; `out` is NULL or has room for `cap` floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_rest_pose(s: *const SmSim, out: *mut f32, cap: usize) -> usize {
    value(0, || {
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        let s = unsafe { read(s) }?;
        let rest = s.sim.rig().map(|r| r.rest_pose()).unwrap_or_default();
        let floats = rest.iter().flat_map(|m| m.to_cols_array());
        // SAFETY: `out` is NULL or has room for `cap` floats (this function's contract).
        Ok(unsafe { copy_out(floats, out, cap) })
    })
}

/// The pose of `count` joint matrices at `matrices` given to `apply` on the simulation `s`.
///
/// # Safety
/// As for `sm_sim_set_pose`.
unsafe fn posed(
    s: *mut SmSim,
    matrices: *const f32,
    count: u32,
    apply: impl FnOnce(&mut Simulation, &[Mat4]) -> Result<(), CoreError>,
) -> c_int {
    status(|| {
        // SAFETY: `s` is NULL or a live simulation (the caller's contract).
        let s = unsafe { write(s) }?;
        if matrices.is_null() {
            return Err(Failure::null("matrices"));
        }
        // SAFETY: `matrices` is non-NULL and points to 16 × count floats (the C contract).
        let floats = unsafe { std::slice::from_raw_parts(matrices, 16 * count as usize) };
        let pose: Vec<Mat4> = floats
            .chunks_exact(16)
            .map(|m| {
                let mut cols = [0.0; 16];
                cols.copy_from_slice(m);
                Mat4::from_cols_array(&cols)
            })
            .collect();
        apply(&mut s.sim, &pose).map_err(|e| Failure::new(SM_ERR_ARGUMENT, e.to_string()))?;
        s.repack();
        Ok(())
    })
}

/// Sets the pose of the skeleton for the next step: `count` joint matrices, 16 floats each,
/// column-major, joint space to world (glTF's and OpenGL's convention), in the order of
/// `sm_sim_joint_name`. The nodes painted 0 follow their skinned positions in equal parts
/// across the step's sub-steps, the others stay within their painted max distance, and the
/// body's colliders move with their joints. A pose that jumps further than the teleport
/// thresholds (`sm_sim_set_teleport`) is a teleport (`sm_sim_teleport`). Call it once a
/// frame, before `sm_sim_step`. A count that is not the joint count, or a matrix that is not
/// finite, is `SM_ERR_ARGUMENT` and changes nothing.
///
/// # Safety
/// `s` is NULL or a live simulation used by this thread alone; `matrices` is NULL or
/// `16 × count` floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_set_pose(s: *mut SmSim, matrices: *const f32, count: u32) -> c_int {
    // SAFETY: this function's contract is `posed`'s.
    unsafe { posed(s, matrices, count, |sim, pose| sim.set_pose(pose).map(|_| ())) }
}

/// Sets the pose for the next step as `sm_sim_set_pose` does, after carrying the cloth with
/// the character's rigid motion from the last pose at once, its shape and its velocity
/// relative to the character kept: for a respawn, a cut, a looping clip's jump back.
///
/// # Safety
/// As for `sm_sim_set_pose`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_teleport(s: *mut SmSim, matrices: *const f32, count: u32) -> c_int {
    // SAFETY: this function's contract is `posed`'s.
    unsafe { posed(s, matrices, count, Simulation::teleport) }
}

/// Puts the cloth on the pose at rest: every skinned node at its skinned position with no
/// velocity (when a character is spawned). Arguments as for `sm_sim_set_pose`.
///
/// # Safety
/// As for `sm_sim_set_pose`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_reset(s: *mut SmSim, matrices: *const f32, count: u32) -> c_int {
    // SAFETY: this function's contract is `posed`'s.
    unsafe { posed(s, matrices, count, Simulation::reset) }
}

/// Sets how far (m) and how far round (radians) a character may move in one pose before
/// `sm_sim_set_pose` takes it as a teleport (defaults 0.5 m and 45°); a distance of 0 or less
/// turns it off. A value that is not finite is `SM_ERR_ARGUMENT`.
///
/// # Safety
/// `s` is NULL or a live simulation used by this thread alone.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_set_teleport(s: *mut SmSim, distance: f32, angle: f32) -> c_int {
    status(|| {
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        let s = unsafe { write(s) }?;
        if !(distance.is_finite() && angle.is_finite()) {
            let message = format!("teleport thresholds {distance} m, {angle} rad: not finite");
            return Err(Failure::new(SM_ERR_ARGUMENT, message));
        }
        s.sim.set_teleport((distance > 0.0).then_some(Teleport { distance, angle }));
        Ok(())
    })
}
