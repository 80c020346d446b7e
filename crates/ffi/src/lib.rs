//! # The C API of springmesh-core
//!
//! Games written in C, C++ (Unreal, in-house engines), C# (Unity, through P/Invoke) or on
//! Godot (GDExtension is a C ABI) load `.spring` models and simulate them through these
//! functions; `include/springmesh.h` is generated from them by cbindgen, and
//! `include/springmesh.hpp` wraps them in RAII classes. docs/engine-integration.md shows the
//! use from each.
//!
//! The contract every function keeps:
//! - A status-returning function returns [`SM_OK`] (0) or an error code, and on an error sets
//!   this thread's message ([`sm_last_error`]) and changes nothing: output pointers are set to
//!   NULL, a simulation keeps its state.
//! - Every pointer is checked for NULL; a NULL handle is an error ([`SM_ERR_NULL`]), and the
//!   `*_free` functions accept NULL.
//! - No panic crosses the boundary: each entry point runs behind `catch_unwind` and a panic is
//!   reported as [`SM_ERR_INTERNAL`].
//! - Buffers the library returns (`sm_sim_positions`) stay valid until the next call that
//!   changes the same handle (a step) or frees it; `sm_last_error`'s text until the next
//!   failing call on the same thread.
//! - Threading: one `SmSim` is used by one thread at a time; an `SmModel` is read-only and
//!   may be shared between threads.
//!
//! `unsafe` code in the workspace lives here — dereferencing the pointers a C caller passes —
//! and in two of springmesh-core's solver kernels (`sim::forces::kernels`, `sim::columns`);
//! every other module denies it. Each helper that dereferences a caller's pointer is an
//! `unsafe fn` whose `# Safety` section states its contract, and each block says why it is
//! sound, given the caller keeps the contract above. (The tests' and benches' counting
//! allocators implement `GlobalAlloc`, which is unsafe by definition.)
#![allow(unsafe_code)] // The C boundary; every block has a SAFETY comment.

mod bodies;
mod environment;
mod error;
mod model;
mod pose;
mod rigid;
mod sim;

pub use bodies::{
    SmWorld, sm_world_add, sm_world_body_count, sm_world_copy_surface_positions, sm_world_free,
    sm_world_new, sm_world_set_threads, sm_world_step,
};
pub use environment::{
    SmCollisionFn, SmForceFn, sm_sim_add_capsule, sm_sim_add_collider, sm_sim_add_force,
    sm_sim_collider_count, sm_sim_set_collider_pose, sm_sim_set_gravity, sm_sim_set_self_collision,
    sm_sim_set_wind,
};
pub use error::{
    SM_ERR_ARGUMENT, SM_ERR_FILE, SM_ERR_INTERNAL, SM_ERR_NON_FINITE, SM_ERR_NULL, SM_OK,
    sm_last_error,
};
pub use model::{
    SmModel, sm_model_anchors, sm_model_face_count, sm_model_faces, sm_model_free, sm_model_load,
    sm_model_load_memory, sm_model_node_count, sm_model_spring_count,
    sm_model_surface_vertex_count, sm_model_uvs,
};
pub use pose::{
    sm_sim_joint_count, sm_sim_joint_name, sm_sim_reset, sm_sim_rest_pose, sm_sim_set_pose,
    sm_sim_set_teleport, sm_sim_teleport,
};
pub use rigid::{
    SM_RIGID_BOX, SM_RIGID_CAPSULE, SM_RIGID_SPHERE, SM_RIGID_TRIANGLE, SmRigidBody,
    sm_sim_rigid_impulses, sm_sim_set_rigid_bodies,
};
pub use sim::{
    SmEnergy, SmSim, sm_sim_broken_springs, sm_sim_clone, sm_sim_copy_normals,
    sm_sim_copy_positions, sm_sim_copy_surface_normals, sm_sim_copy_surface_positions,
    sm_sim_energy, sm_sim_free, sm_sim_new, sm_sim_node_count, sm_sim_positions,
    sm_sim_set_anchor_position, sm_sim_step, sm_sim_surface_vertex_count, sm_sim_time,
};

/// The library's version as 0xMMmmpp (0x000100 for 0.1.0).
#[unsafe(no_mangle)]
pub extern "C" fn sm_version() -> u32 {
    let part = |s: &str| s.parse::<u32>().unwrap_or(0) & 0xFF;
    (part(env!("CARGO_PKG_VERSION_MAJOR")) << 16)
        | (part(env!("CARGO_PKG_VERSION_MINOR")) << 8)
        | part(env!("CARGO_PKG_VERSION_PATCH"))
}
