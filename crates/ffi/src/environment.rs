//! The environment a game sets at run time: gravity, wind, where its colliders are each frame, and
//! its own forces and collision shapes as callbacks.

use crate::error::{Failure, SM_ERR_ARGUMENT, status, value};
use crate::sim::{SmSim, read, vec3, write};
use glam::{Quat, Vec3, Vec3A};
use springmesh_core::model::{Air, Obstacle, SelfCollision, Shape, Surface};
use springmesh_core::{Collider, Contact, ForceField};
use std::ffi::{c_int, c_void};
use std::sync::{Arc, Mutex};

/// A force callback: adds to `forces` (3 floats per node, N) the game's force on each of the
/// `count` nodes at `time` (s), given their `positions` (m) and `velocities` (m/s), 3 floats
/// per node. Called during `sm_sim_step`, on the stepping thread, once per step.
pub type SmForceFn = Option<
    unsafe extern "C" fn(
        user: *mut c_void,
        time: f64,
        positions: *const f32,
        velocities: *const f32,
        forces: *mut f32,
        count: u32,
    ),
>;

/// A collision callback: a node of `radius` (m) moves from `from` to `to` (3 floats each)
/// during a sub-step. If that takes it into the game's shape, write where it may be instead
/// (`out_position`, outside the shape) and the surface's outward unit normal there
/// (`out_normal`), and return 1; otherwise return 0. Called during `sm_sim_step`, on the
/// stepping thread, for every free node every sub-step: keep it cheap.
pub type SmCollisionFn = Option<
    unsafe extern "C" fn(
        user: *mut c_void,
        from: *const f32,
        to: *const f32,
        radius: f32,
        out_position: *mut f32,
        out_normal: *mut f32,
    ) -> c_int,
>;

/// A C function and the pointer it is called with.
struct Callback<F> {
    f: F,
    user: *mut c_void,
}

// SAFETY: the C contract of sm_sim_add_force and sm_sim_add_collider: the callback may be
// called from whichever thread steps the simulation (one at a time), and `user` stays valid
// for as long as the simulation lives. The library never calls it concurrently with itself
// for one simulation.
unsafe impl<F> Send for Callback<F> {}
// SAFETY: as above; shared references only ever call the function, one call at a time.
unsafe impl<F> Sync for Callback<F> {}

/// A force field calling a C function, with the packed arrays it is given.
struct CForce {
    callback:
        Callback<unsafe extern "C" fn(*mut c_void, f64, *const f32, *const f32, *mut f32, u32)>,
    /// Positions, velocities and forces, 3 floats per node each.
    scratch: Mutex<(Vec<f32>, Vec<f32>, Vec<f32>)>,
}

impl ForceField for CForce {
    fn add_forces(&self, time: f64, x: &[Vec3A], v: &[Vec3A], forces: &mut [Vec3A]) {
        let Ok(mut scratch) = self.scratch.lock() else { return };
        let (px, pv, pf) = &mut *scratch;
        px.clear();
        px.extend(x.iter().flat_map(|p| p.to_array()));
        pv.clear();
        pv.extend(v.iter().flat_map(|p| p.to_array()));
        pf.clear();
        pf.resize(3 * forces.len(), 0.0);
        let count = x.len().min(v.len()).min(forces.len()) as u32;
        // SAFETY: the arrays hold 3 × count floats each and live through the call; the
        // function and `user` are valid (the C contract of sm_sim_add_force).
        unsafe {
            (self.callback.f)(
                self.callback.user,
                time,
                px.as_ptr(),
                pv.as_ptr(),
                pf.as_mut_ptr(),
                count,
            )
        };
        for (f, added) in forces.iter_mut().zip(pf.chunks_exact(3)) {
            let added = Vec3A::new(added[0], added[1], added[2]);
            if added.is_finite() {
                *f += added;
            }
        }
    }
}

/// A collider calling a C function, with the surface it has.
struct CCollider {
    callback: Callback<
        unsafe extern "C" fn(*mut c_void, *const f32, *const f32, f32, *mut f32, *mut f32) -> c_int,
    >,
    friction: f32,
    restitution: f32,
}

impl Collider for CCollider {
    fn contact(&self, from: Vec3, to: Vec3, radius: f32) -> Option<Contact> {
        let (from, to) = (from.to_array(), to.to_array());
        let (mut position, mut normal) = ([0f32; 3], [0f32; 3]);
        // SAFETY: every pointer is to a live local array of 3 floats; the function and `user`
        // are valid (the C contract of sm_sim_add_collider).
        let hit = unsafe {
            (self.callback.f)(
                self.callback.user,
                from.as_ptr(),
                to.as_ptr(),
                radius,
                position.as_mut_ptr(),
                normal.as_mut_ptr(),
            )
        };
        let (position, normal) = (Vec3::from_array(position), Vec3::from_array(normal));
        (hit != 0 && position.is_finite() && normal.is_finite()).then(|| Contact {
            position,
            normal: normal.normalize_or(Vec3::Y),
            friction: self.friction,
            restitution: self.restitution,
            velocity: Vec3::ZERO,
        })
    }
}

/// Sets gravity (m/s², 3 floats).
///
/// # Safety
/// `s` is NULL or a live simulation used by this thread alone; `g` is NULL or 3 floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_set_gravity(s: *mut SmSim, g: *const f32) -> c_int {
    status(|| {
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        let s = unsafe { write(s) }?;
        s.sim.params_mut().gravity = vec3(g, "gravity")?;
        Ok(())
    })
}

/// Sets the wind (m/s, 3 floats); a model without air gets the default air (drag and lift on
/// its faces) with that wind.
///
/// # Safety
/// `s` is NULL or a live simulation used by this thread alone; `wind` is NULL or 3 floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_set_wind(s: *mut SmSim, wind: *const f32) -> c_int {
    status(|| {
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        let s = unsafe { write(s) }?;
        let wind = vec3(wind, "wind")?;
        s.sim.params_mut().air.get_or_insert_with(Air::default).wind = wind;
        Ok(())
    })
}

/// Turns self-collision on with layers `thickness` m apart and `friction` between them, or
/// off when `thickness` is 0. A thickness that is not finite and ≥ 0, or a friction that is
/// not finite and ≥ 0, is an error and changes nothing.
///
/// # Safety
/// `s` is NULL or a live simulation used by this thread alone.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_set_self_collision(
    s: *mut SmSim,
    thickness: f32,
    friction: f32,
) -> c_int {
    status(|| {
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        let s = unsafe { write(s) }?;
        if !(thickness.is_finite() && thickness >= 0.0) {
            return Err(Failure::new(SM_ERR_ARGUMENT, "thickness is not a finite number ≥ 0"));
        }
        if !(friction.is_finite() && friction >= 0.0) {
            return Err(Failure::new(SM_ERR_ARGUMENT, "friction is not a finite number ≥ 0"));
        }
        s.sim.params_mut().self_collision =
            (thickness > 0.0).then_some(SelfCollision { thickness, friction });
        Ok(())
    })
}

/// Number of the model's colliders (0 for NULL).
///
/// # Safety
/// `s` is NULL or a live simulation.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_collider_count(s: *const SmSim) -> u32 {
    // SAFETY: `s` is NULL or a live simulation (this function's contract).
    value(0, || Ok(unsafe { read(s) }?.sim.colliders().len() as u32))
}

/// Moves the model's collider `index` by the end of the next step to its shape as saved in
/// the model, turned by `rotation` (a unit quaternion x, y, z, w; NULL: none) about its own
/// centre (a sphere's or box's centre, a capsule's midpoint, a plane's point) and moved so that
/// centre is at `position` (m). It moves there at a constant velocity across the step's
/// sub-steps, pushing and dragging the cloth it touches at that velocity: call it once a frame,
/// before `sm_sim_step`.
///
/// # Safety
/// `s` is NULL or a live simulation used by this thread alone; `position` is NULL or 3 floats;
/// `rotation` is NULL or 4 floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_set_collider_pose(
    s: *mut SmSim,
    index: u32,
    position: *const f32,
    rotation: *const f32,
) -> c_int {
    status(|| {
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        let s = unsafe { write(s) }?;
        let at = vec3(position, "position")?;
        let turn = if rotation.is_null() {
            Quat::IDENTITY
        } else {
            // SAFETY: `rotation` is non-NULL and points to 4 readable floats (the C contract).
            let q = Quat::from_array(unsafe { rotation.cast::<[f32; 4]>().read_unaligned() });
            if !q.is_finite() || q.length() < 1e-6 {
                return Err(Failure::new(SM_ERR_ARGUMENT, "rotation is not a finite quaternion"));
            }
            q.normalize()
        };
        s.sim
            .set_collider_pose(index as usize, at, turn)
            .map_err(|e| Failure::new(SM_ERR_ARGUMENT, e.to_string()))
    })
}

/// Adds a capsule, the points within `radius` (m) of the segment `a`–`b` (3 floats each, m),
/// to the model's colliders, with its surface's `friction` (≥ 0) and `restitution` (0 to 1);
/// writes its index to `out_index` (may be NULL). Move it each frame with
/// `sm_sim_set_collider_pose` (its centre is the segment's midpoint): a character's limb.
///
/// # Safety
/// `s` is NULL or a live simulation used by this thread alone; `a` and `b` are NULL or 3
/// floats; `out_index` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_add_capsule(
    s: *mut SmSim,
    a: *const f32,
    b: *const f32,
    radius: f32,
    friction: f32,
    restitution: f32,
    out_index: *mut u32,
) -> c_int {
    status(|| {
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        let s = unsafe { write(s) }?;
        let (a, b) = (vec3(a, "a")?, vec3(b, "b")?);
        let obstacle = Obstacle {
            shape: Shape::Capsule { a, b, radius },
            surface: Surface { friction, restitution },
        };
        let index = s
            .sim
            .add_obstacle(obstacle)
            .map_err(|e| Failure::new(SM_ERR_ARGUMENT, e.to_string()))?;
        if !out_index.is_null() {
            // SAFETY: `out_index` is non-NULL and writable (this function's contract).
            unsafe { out_index.write_unaligned(index as u32) };
        }
        Ok(())
    })
}

/// Adds the game's force callback `f`, called with `user` (which must stay valid while the
/// simulation lives).
///
/// # Safety
/// `s` is NULL or a live simulation used by this thread alone; `f` is NULL or a function that
/// keeps the [`SmForceFn`] contract.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_add_force(s: *mut SmSim, f: SmForceFn, user: *mut c_void) -> c_int {
    status(|| {
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        let s = unsafe { write(s) }?;
        let f = f.ok_or_else(|| Failure::null("force callback"))?;
        let scratch = Mutex::new((Vec::new(), Vec::new(), Vec::new()));
        s.sim.add_force_field(Arc::new(CForce { callback: Callback { f, user }, scratch }));
        Ok(())
    })
}

/// Adds the game's collision callback `f` (a shape of its own: a character, a moving
/// platform), called with `user` (which must stay valid while the simulation lives), with the
/// surface's friction (≥ 0) and restitution (0 to 1).
///
/// # Safety
/// `s` is NULL or a live simulation used by this thread alone; `f` is NULL or a function that
/// keeps the [`SmCollisionFn`] contract.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_add_collider(
    s: *mut SmSim,
    f: SmCollisionFn,
    user: *mut c_void,
    friction: f32,
    restitution: f32,
) -> c_int {
    status(|| {
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        let s = unsafe { write(s) }?;
        let f = f.ok_or_else(|| Failure::null("collision callback"))?;
        if !(friction.is_finite() && friction >= 0.0 && (0.0..=1.0).contains(&restitution)) {
            return Err(Failure::new(
                SM_ERR_ARGUMENT,
                "friction must be finite and >= 0, restitution between 0 and 1",
            ));
        }
        let collider = CCollider { callback: Callback { f, user }, friction, restitution };
        s.sim.add_collider(Arc::new(collider));
        Ok(())
    })
}
