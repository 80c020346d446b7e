//! The game's rigid bodies (Jolt's, PhysX's, any engine's), met by a simulation's nodes: set
//! where they are and how they move before a step, read the impulses they took after it
//! (springmesh_core's `sim::contacts::rigid_bodies` gives the equations).

use crate::error::{Failure, SM_ERR_ARGUMENT, copy_out, status, value};
use crate::sim::{SmSim, read, write};
use glam::{Mat3, Quat, Vec3};
use springmesh_core::RigidBody;
use springmesh_core::model::{Shape, Surface};
use std::ffi::c_int;

/// `SmRigidBody::shape`: a sphere of `radius`.
pub const SM_RIGID_SPHERE: u32 = 0;
/// `SmRigidBody::shape`: a capsule of `radius` along the body's local y axis, its axis from
/// −`half_height` to +`half_height` (Jolt's, PhysX's once turned, avian's capsule).
pub const SM_RIGID_CAPSULE: u32 = 1;
/// `SmRigidBody::shape`: a box of `half_extents`.
pub const SM_RIGID_BOX: u32 = 2;
/// `SmRigidBody::shape`: the triangle of `corners` (world space; `position` and `rotation`
/// unused), thin and two-sided, met on the side each node came from: one face of a body's
/// triangle mesh or convex hull, the faces after its first given as its parts (`part_of`).
pub const SM_RIGID_TRIANGLE: u32 = 3;

/// A rigid body of the game's physics engine, as it is when the next step begins. Vectors and
/// matrices in world space; the shape is centred on `position` and turned by `rotation`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SmRigidBody {
    /// `SM_RIGID_SPHERE`, `SM_RIGID_CAPSULE`, `SM_RIGID_BOX` or `SM_RIGID_TRIANGLE`.
    pub shape: u32,
    /// The shape's centre (m).
    pub position: [f32; 3],
    /// The body's orientation, a unit quaternion x, y, z, w.
    pub rotation: [f32; 4],
    /// A sphere's or capsule's radius (m).
    pub radius: f32,
    /// Half a capsule's axis (m).
    pub half_height: f32,
    /// A box's half sizes (m).
    pub half_extents: [f32; 3],
    /// The centre of mass (m), what the body turns about.
    pub center_of_mass: [f32; 3],
    /// Velocity (m/s).
    pub linear_velocity: [f32; 3],
    /// Angular velocity (rad/s).
    pub angular_velocity: [f32; 3],
    /// 1 / mass (1/kg); 0 for a static or kinematic body, which the nodes do not push.
    pub inverse_mass: f32,
    /// The inverse inertia tensor about the centre of mass (1/(kg·m²)), 9 floats
    /// column-major; zeros for a body the nodes do not turn.
    pub inverse_inertia: [f32; 9],
    /// Coulomb friction against the nodes (≥ 0).
    pub friction: f32,
    /// Restitution against the nodes (0 to 1).
    pub restitution: f32,
    /// What the engine adds to the velocity over the step besides these contacts (m/s²): its
    /// gravity, when it adds gravity after `sm_sim_step`; zeros when the velocity given has it.
    pub acceleration: [f32; 3],
    /// A triangle's corners a, b, c (m), x, y, z each.
    pub corners: [f32; 9],
    /// 0: a body of its own. k ≥ 1: another part of the body given at index k − 1 (an earlier
    /// one, itself a body of its own), such as a face of its mesh or hull: the parts of a body
    /// move as one, by its centre, velocities and masses (a part's own are not read), and
    /// what the body takes is written to its first part's impulses (the others' are zero).
    pub part_of: u32,
}

impl SmRigidBody {
    /// The body in springmesh_core's terms; a shape kind that does not exist is an error.
    fn body(&self, index: usize) -> Result<RigidBody, Failure> {
        let rotation = Quat::from_array(self.rotation);
        let centre = Vec3::from_array(self.position);
        let shape = match self.shape {
            SM_RIGID_SPHERE => Shape::Sphere { center: centre, radius: self.radius },
            SM_RIGID_CAPSULE => {
                let half = rotation * Vec3::Y * self.half_height;
                Shape::Capsule { a: centre - half, b: centre + half, radius: self.radius }
            }
            SM_RIGID_BOX => Shape::Box {
                center: centre,
                half_extents: Vec3::from_array(self.half_extents),
                rotation,
            },
            SM_RIGID_TRIANGLE => {
                let corner = |k: usize| Vec3::from_slice(&self.corners[3 * k..3 * k + 3]);
                Shape::Triangle { a: corner(0), b: corner(1), c: corner(2) }
            }
            other => {
                let reason = format!("rigid body {index}: no shape kind {other}");
                return Err(Failure::new(SM_ERR_ARGUMENT, reason));
            }
        };
        Ok(RigidBody {
            shape,
            center_of_mass: Vec3::from_array(self.center_of_mass),
            linear_velocity: Vec3::from_array(self.linear_velocity),
            angular_velocity: Vec3::from_array(self.angular_velocity),
            acceleration: Vec3::from_array(self.acceleration),
            inverse_mass: self.inverse_mass,
            inverse_inertia: Mat3::from_cols_array(&self.inverse_inertia),
            surface: Surface { friction: self.friction, restitution: self.restitution },
            part_of: self.part_of.checked_sub(1).map(|k| k as usize),
        })
    }
}

/// Sets the `count` rigid bodies at `bodies` that the simulation's nodes meet from the next
/// step on (call it once a frame, before `sm_sim_step`; until it is called again a step starts
/// them where the last one left them). Count 0 removes them. A body that is not valid (a
/// shape kind that does not exist, a size that is not positive, a value that is not finite, a
/// negative mass), or bodies given to a model whose integrator is not Xpbd, is
/// `SM_ERR_ARGUMENT` and changes nothing.
///
/// # Safety
/// `s` is NULL or a live simulation used by this thread alone; `bodies` is NULL (with count
/// 0) or points to `count` bodies.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_set_rigid_bodies(
    s: *mut SmSim,
    bodies: *const SmRigidBody,
    count: u32,
) -> c_int {
    status(|| {
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        let s = unsafe { write(s) }?;
        let given = if count == 0 {
            &[][..]
        } else if bodies.is_null() {
            return Err(Failure::null("bodies"));
        } else {
            // SAFETY: `bodies` is non-NULL and points to `count` bodies (the C contract).
            unsafe { std::slice::from_raw_parts(bodies, count as usize) }
        };
        let bodies: Vec<RigidBody> =
            given.iter().enumerate().map(|(i, b)| b.body(i)).collect::<Result<_, _>>()?;
        s.sim.set_rigid_bodies(&bodies).map_err(|e| Failure::new(SM_ERR_ARGUMENT, e.to_string()))
    })
}

/// Writes what each rigid body took over the steps since `sm_sim_set_rigid_bodies` set them
/// (the last step, for a game that sets them every frame), 12 floats a body in the order they
/// were set, world space: the linear impulse (N·s) and the angular impulse about its centre of
/// mass (N·m·s), for the game to apply to its bodies (Jolt's `AddImpulse` and
/// `AddAngularImpulse`, PhysX's `addForce` and `addTorque` with `eIMPULSE`); then how far the
/// step moved its centre (m) and turned it (a rotation vector, rad) beyond where the engine,
/// moving it on from its start at its new velocity, will put it: move the body by them before
/// the engine's step to keep it exactly where the contacts left it (a body resting on a jelly
/// then rests, instead of shaking as the step's impulses all come at its start). Writes at
/// most `cap` floats to `out`; returns how many floats were written.
///
/// # Safety
/// `s` is NULL or a live simulation; `out` is NULL or has room for `cap` floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_rigid_impulses(
    s: *const SmSim,
    out: *mut f32,
    cap: usize,
) -> usize {
    value(0, || {
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        let s = unsafe { read(s) }?;
        let impulses = s.sim.rigid_impulses().iter();
        let floats = impulses.flat_map(|j| {
            let parts = [j.linear, j.angular, j.pushed, j.turned];
            parts.into_iter().flat_map(|v| v.to_array())
        });
        // SAFETY: `out` is NULL or has room for `cap` floats (this function's contract).
        Ok(unsafe { copy_out(floats, out, cap) })
    })
}
