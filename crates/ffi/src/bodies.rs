//! Worlds: several simulations stepped together that collide with each other.

use crate::error::{Failure, SM_ERR_ARGUMENT, SM_ERR_NON_FINITE, copy_out, status, value};
use crate::model::{SmModel, model};
use springmesh_core::sim::Threads;
use springmesh_core::{CoreError, World};
use std::ffi::c_int;

/// A world (opaque): simulations of the models added to it, stepped together; their bodies
/// never pass through each other. One thread at a time.
pub struct SmWorld {
    world: World,
}

/// The world behind `w` for reading, or a NULL failure.
///
/// # Safety
/// `w` is NULL or a live world not changed by another thread while the reference lives.
unsafe fn read<'a>(w: *const SmWorld) -> Result<&'a SmWorld, Failure> {
    // SAFETY: a non-NULL `w` is a live world nothing changes meanwhile (the contract).
    unsafe { w.as_ref() }.ok_or_else(|| Failure::null("world"))
}

/// The world behind `w` for changing, or a NULL failure.
///
/// # Safety
/// `w` is NULL or a live world used by this thread alone while the reference lives.
unsafe fn write<'a>(w: *mut SmWorld) -> Result<&'a mut SmWorld, Failure> {
    // SAFETY: a non-NULL `w` is a live world used by this thread alone (the contract).
    unsafe { w.as_mut() }.ok_or_else(|| Failure::null("world"))
}

/// Makes an empty world. 0 and `*out` set, or an error code and `*out` = NULL.
///
/// # Safety
/// `out` is NULL or points to a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_world_new(out: *mut *mut SmWorld) -> c_int {
    status(|| {
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        let w = Box::new(SmWorld { world: World::new() });
        // SAFETY: `out` is non-NULL and points to a writable pointer (the C contract).
        unsafe { out.write(Box::into_raw(w)) };
        Ok(())
    })
}

/// Frees a world and its bodies (NULL is fine).
///
/// # Safety
/// `w` is NULL or a world from `sm_world_new` not freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_world_free(w: *mut SmWorld) {
    if !w.is_null() {
        // SAFETY: `w` came from Box::into_raw in sm_world_new and is freed once (the contract).
        drop(unsafe { Box::from_raw(w) });
    }
}

/// Adds a body simulating the model `m` from its rest state (the model may be freed
/// afterwards); its index (0, 1, ... in the order added) goes to `*index` when `index` is not
/// NULL.
///
/// # Safety
/// `w` is NULL or a live world used by this thread alone; `m` is NULL or a live model;
/// `index` is NULL or points to a writable u32.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_world_add(
    w: *mut SmWorld,
    m: *const SmModel,
    index: *mut u32,
) -> c_int {
    status(|| {
        // SAFETY: `w` and `m` are NULL or live (this function's contract).
        let (w, model) = unsafe { (write(w)?, model(m)?) };
        let i = w.world.add(model) as u32;
        if !index.is_null() {
            // SAFETY: `index` is non-NULL and points to a writable u32 (the contract).
            unsafe { index.write(i) };
        }
        Ok(())
    })
}

/// The world's bodies (0 for NULL).
///
/// # Safety
/// `w` is NULL or a live world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_world_body_count(w: *const SmWorld) -> u32 {
    // SAFETY: `w` is NULL or a live world (this function's contract).
    value(0, || Ok(unsafe { read(w) }?.world.bodies().len() as u32))
}

/// Steps the bodies on all cores (`all` ≠ 0) or on the calling thread (0); the result is the
/// same.
///
/// # Safety
/// `w` is NULL or a live world used by this thread alone.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_world_set_threads(w: *mut SmWorld, all: c_int) -> c_int {
    status(|| {
        // SAFETY: `w` is NULL or a live world (this function's contract).
        let w = unsafe { write(w) }?;
        w.world.set_threads(if all != 0 { Threads::All } else { Threads::One });
        Ok(())
    })
}

/// Advances every body by `dt` seconds (finite and > 0) and answers their contacts. A bad `dt`
/// is `SM_ERR_ARGUMENT` and changes nothing; a body that would go non-finite is
/// `SM_ERR_NON_FINITE` (that body keeps its state before the step, the others their step).
///
/// # Safety
/// `w` is NULL or a live world used by this thread alone.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_world_step(w: *mut SmWorld, dt: f32) -> c_int {
    status(|| {
        // SAFETY: `w` is NULL or a live world (this function's contract).
        let w = unsafe { write(w) }?;
        w.world.step(dt).map_err(|e| match e {
            CoreError::BadTimeStep { .. } => Failure::new(SM_ERR_ARGUMENT, e.to_string()),
            other => Failure::new(SM_ERR_NON_FINITE, other.to_string()),
        })?;
        Ok(())
    })
}

/// Writes body `body`'s drawn surface positions now, 3 floats per surface vertex (as
/// `sm_sim_copy_surface_positions`), to `out` (room for `cap` floats); returns how many floats
/// were written (0 for a body that does not exist, with the error).
///
/// # Safety
/// `w` is NULL or a live world; `out` is NULL or has room for `cap` floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_world_copy_surface_positions(
    w: *const SmWorld,
    body: u32,
    out: *mut f32,
    cap: usize,
) -> usize {
    value(0, || {
        // SAFETY: `w` is NULL or a live world (this function's contract).
        let w = unsafe { read(w) }?;
        let count = w.world.bodies().len();
        let Some(sim) = w.world.bodies().get(body as usize) else {
            let message = format!("body {body} does not exist (the world has {count})");
            return Err(Failure::new(SM_ERR_ARGUMENT, message));
        };
        let mut positions = Vec::new();
        sim.surface_positions(&mut positions);
        // SAFETY: `out` is NULL or holds `cap` writable items (this function's contract).
        Ok(unsafe { copy_out(positions.iter().flat_map(|p| p.to_array()), out, cap) })
    })
}
