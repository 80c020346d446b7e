//! Simulations: stepping a model and reading its state.

use crate::error::{Failure, SM_ERR_ARGUMENT, SM_ERR_NON_FINITE, copy_out, status, value};
use crate::model::{SmModel, model};
use glam::Vec3;
use springmesh_core::{CoreError, NodeId, Simulation, SpringId};
use std::ffi::c_int;

/// Energy of a simulation's state (J).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SmEnergy {
    /// Kinetic energy of the free nodes.
    pub kinetic: f64,
    /// Energy stored in the springs.
    pub elastic: f64,
    /// Potential energy of the free nodes in gravity (zero at the origin).
    pub gravitational: f64,
}

/// A simulation (opaque): a compiled copy of a model and its state. One thread at a time.
#[derive(Clone)]
pub struct SmSim {
    pub(crate) sim: Simulation,
    /// Positions packed 3 floats per node, refreshed after every change of state.
    packed: Vec<f32>,
    /// Springs that broke in the last step, by their index in the model.
    broken: Vec<SpringId>,
    /// The names of the skeleton's joints, for `sm_sim_joint_name`.
    pub(crate) joint_names: Vec<std::ffi::CString>,
}

impl SmSim {
    /// Packs the positions again: after every change of state (a step, a teleport, a reset).
    pub(crate) fn repack(&mut self) {
        self.packed.clear();
        self.packed.extend(self.sim.positions().iter().flat_map(|p| p.to_array()));
    }
}

/// The simulation behind `s` for reading, or a NULL failure.
///
/// # Safety
/// `s` is NULL or a live simulation from `sm_sim_new`, not changed by another thread while
/// the reference lives.
pub(crate) unsafe fn read<'a>(s: *const SmSim) -> Result<&'a SmSim, Failure> {
    // SAFETY: a non-NULL `s` is a live simulation that nothing changes meanwhile (the
    // function's contract); only read here.
    unsafe { s.as_ref() }.ok_or_else(|| Failure::null("simulation"))
}

/// The simulation behind `s` for changing, or a NULL failure.
///
/// # Safety
/// `s` is NULL or a live simulation from `sm_sim_new`, used by this thread alone while the
/// reference lives.
pub(crate) unsafe fn write<'a>(s: *mut SmSim) -> Result<&'a mut SmSim, Failure> {
    // SAFETY: a non-NULL `s` is a live simulation used by this thread alone (the function's
    // contract).
    unsafe { s.as_mut() }.ok_or_else(|| Failure::null("simulation"))
}

/// Compiles a simulation of the model `m` (which may be freed afterwards). 0 and `*out` set,
/// or an error code and `*out` = NULL.
///
/// # Safety
/// `m` is NULL or a live model; `out` is NULL or points to a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_new(m: *const SmModel, out: *mut *mut SmSim) -> c_int {
    if !out.is_null() {
        // SAFETY: `out` is non-NULL and points to a writable pointer (the C contract).
        unsafe { out.write(std::ptr::null_mut()) };
    }
    status(|| {
        // SAFETY: `m` is NULL or a live model (this function's contract).
        let model = unsafe { model(m) }?;
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        let sim = Simulation::new(model);
        let joint_names = joint_names(&sim);
        let mut s = SmSim { sim, packed: Vec::new(), broken: Vec::new(), joint_names };
        s.repack();
        // SAFETY: `out` is non-NULL and points to a writable pointer (checked above).
        unsafe { out.write(Box::into_raw(Box::new(s))) };
        Ok(())
    })
}

/// Copies the simulation `s` as it is now, into a new one that shares its compiled model: a
/// crowd of one model (32 capes) keeps one copy of its springs and triangles, and each
/// member adds only its own nodes' state. A member that changes its parameters or breaks a
/// spring gets its own copy first, unseen by the others. 0 and `*out` set, or an error code
/// and `*out` = NULL.
///
/// # Safety
/// `s` is NULL or a live simulation; `out` is NULL or points to a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_clone(s: *const SmSim, out: *mut *mut SmSim) -> c_int {
    if !out.is_null() {
        // SAFETY: `out` is non-NULL and points to a writable pointer (the C contract).
        unsafe { out.write(std::ptr::null_mut()) };
    }
    status(|| {
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        let copy = unsafe { read(s) }?.clone();
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        // SAFETY: `out` is non-NULL and points to a writable pointer (checked above).
        unsafe { out.write(Box::into_raw(Box::new(copy))) };
        Ok(())
    })
}

/// Frees a simulation (NULL is fine).
///
/// # Safety
/// `s` is NULL or a simulation from `sm_sim_new` not freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_free(s: *mut SmSim) {
    if !s.is_null() {
        // SAFETY: `s` came from Box::into_raw in sm_sim_new and is freed once (the C contract).
        drop(unsafe { Box::from_raw(s) });
    }
}

/// Advances the simulation by `dt` seconds (finite and > 0) with the model's integrator and
/// sub-steps. On an error nothing changes: a bad `dt` is `SM_ERR_ARGUMENT`; a step that would
/// go non-finite is `SM_ERR_NON_FINITE` and leaves the state before it.
///
/// # Safety
/// `s` is NULL or a live simulation used by this thread alone.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_step(s: *mut SmSim, dt: f32) -> c_int {
    status(|| {
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        let s = unsafe { write(s) }?;
        let report = s.sim.step(dt).map_err(|e| match e {
            CoreError::BadTimeStep { .. } => Failure::new(SM_ERR_ARGUMENT, e.to_string()),
            other => Failure::new(SM_ERR_NON_FINITE, other.to_string()),
        })?;
        s.broken = report.broken;
        s.repack();
        Ok(())
    })
}

/// Number of nodes (0 for NULL).
///
/// # Safety
/// `s` is NULL or a live simulation.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_node_count(s: *const SmSim) -> u32 {
    // SAFETY: `s` is NULL or a live simulation (this function's contract).
    value(0, || Ok(unsafe { read(s) }?.sim.node_count() as u32))
}

/// Simulated time (s) since the simulation was made (0 for NULL).
///
/// # Safety
/// `s` is NULL or a live simulation.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_time(s: *const SmSim) -> f64 {
    // SAFETY: `s` is NULL or a live simulation (this function's contract).
    value(0.0, || Ok(unsafe { read(s) }?.sim.time()))
}

/// The node positions, 3 floats (x, y, z in m) per node; valid until the next step or free of
/// `s`. NULL for a NULL `s`.
///
/// # Safety
/// `s` is NULL or a live simulation.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_positions(s: *const SmSim) -> *const f32 {
    // SAFETY: `s` is NULL or a live simulation (this function's contract).
    value(std::ptr::null(), || Ok(unsafe { read(s) }?.packed.as_ptr()))
}

/// Copies the positions, 3 floats per node, to `out` (room for `cap` floats); returns how
/// many floats were written.
///
/// # Safety
/// `s` is NULL or a live simulation; `out` is NULL or has room for `cap` floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_copy_positions(
    s: *const SmSim,
    out: *mut f32,
    cap: usize,
) -> usize {
    // SAFETY: `s` is NULL or a live simulation; `out` is NULL or holds `cap` writable items (this function's contract).
    value(0, || Ok(unsafe { copy_out(read(s)?.packed.iter().copied(), out, cap) }))
}

/// Writes unit vertex normals (area-weighted over the faces), 3 floats per node, to `out`
/// (room for `cap` floats); returns how many floats were written.
///
/// # Safety
/// `s` is NULL or a live simulation; `out` is NULL or has room for `cap` floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_copy_normals(s: *const SmSim, out: *mut f32, cap: usize) -> usize {
    value(0, || {
        let mut normals = Vec::new();
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        unsafe { read(s) }?.sim.vertex_normals(&mut normals);
        // SAFETY: `out` is NULL or holds `cap` writable items (this function's contract).
        Ok(unsafe { copy_out(normals.iter().flat_map(|n| n.to_array()), out, cap) })
    })
}

/// Number of vertices of the drawn surface (0 for NULL): `sm_model_surface_vertex_count` of
/// the model it was made from.
///
/// # Safety
/// `s` is NULL or a live simulation.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_surface_vertex_count(s: *const SmSim) -> u32 {
    // SAFETY: `s` is NULL or a live simulation (this function's contract).
    value(0, || Ok(unsafe { read(s) }?.sim.surface_vertex_count() as u32))
}

/// Writes the drawn surface's vertex positions now, 3 floats per surface vertex
/// (`sm_model_surface_vertex_count`), to `out` (room for `cap` floats); returns how many
/// floats were written. For a model without a skin these are the node positions, as
/// `sm_sim_copy_positions` writes them; with one, the skin's vertices where the cage carries
/// them, in the mesh's vertex order.
///
/// # Safety
/// `s` is NULL or a live simulation; `out` is NULL or has room for `cap` floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_copy_surface_positions(
    s: *const SmSim,
    out: *mut f32,
    cap: usize,
) -> usize {
    value(0, || {
        let mut positions = Vec::new();
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        unsafe { read(s) }?.sim.surface_positions(&mut positions);
        // SAFETY: `out` is NULL or holds `cap` writable items (this function's contract).
        Ok(unsafe { copy_out(positions.iter().flat_map(|p| p.to_array()), out, cap) })
    })
}

/// Writes the drawn surface's unit vertex normals now (area-weighted over its faces), 3
/// floats per surface vertex, to `out` (room for `cap` floats); returns how many floats were
/// written. For a model without a skin, what `sm_sim_copy_normals` writes.
///
/// # Safety
/// `s` is NULL or a live simulation; `out` is NULL or has room for `cap` floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_copy_surface_normals(
    s: *const SmSim,
    out: *mut f32,
    cap: usize,
) -> usize {
    value(0, || {
        let mut normals = Vec::new();
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        unsafe { read(s) }?.sim.surface_normals(&mut normals);
        // SAFETY: `out` is NULL or holds `cap` writable items (this function's contract).
        Ok(unsafe { copy_out(normals.iter().flat_map(|n| n.to_array()), out, cap) })
    })
}

/// Moves anchor `node` to `xyz` (m); the simulation carries it there over the next step.
/// `SM_ERR_ARGUMENT` if `node` is not an anchor or the position is not finite.
///
/// # Safety
/// `s` is NULL or a live simulation used by this thread alone; `xyz` is NULL or points to 3
/// floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_set_anchor_position(
    s: *mut SmSim,
    node: u32,
    xyz: *const f32,
) -> c_int {
    status(|| {
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        let s = unsafe { write(s) }?;
        let p = vec3(xyz, "xyz")?;
        s.sim
            .set_anchor_position(NodeId(node), p)
            .map_err(|e| Failure::new(SM_ERR_ARGUMENT, e.to_string()))
    })
}

/// The 3 floats at `p` as a finite vector, or a failure naming `what`.
pub(crate) fn vec3(p: *const f32, what: &str) -> Result<Vec3, Failure> {
    if p.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: `p` is non-NULL and points to 3 readable floats (the C contract).
    let v = Vec3::from_array(unsafe { p.cast::<[f32; 3]>().read_unaligned() });
    if !v.is_finite() {
        return Err(Failure::new(SM_ERR_ARGUMENT, format!("{what} is not finite")));
    }
    Ok(v)
}

/// Writes the indices (in the model) of the springs that broke in the last step to `out`
/// (room for `cap`); returns how many.
///
/// # Safety
/// `s` is NULL or a live simulation; `out` is NULL or has room for `cap` numbers.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_broken_springs(
    s: *const SmSim,
    out: *mut u32,
    cap: usize,
) -> usize {
    // SAFETY: `s` is NULL or a live simulation; `out` is NULL or holds `cap` writable items (this function's contract).
    value(0, || Ok(unsafe { copy_out(read(s)?.broken.iter().map(|b| b.0), out, cap) }))
}

/// Writes the state's energy to `out` (zeros for a NULL `s`).
///
/// # Safety
/// `s` is NULL or a live simulation; `out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_sim_energy(s: *const SmSim, out: *mut SmEnergy) {
    let energy = value(SmEnergy::default(), || {
        // SAFETY: `s` is NULL or a live simulation (this function's contract).
        let e = unsafe { read(s) }?.sim.energy();
        Ok(SmEnergy { kinetic: e.kinetic, elastic: e.elastic, gravitational: e.gravitational })
    });
    if !out.is_null() {
        // SAFETY: `out` is non-NULL and writable (the C contract).
        unsafe { out.write(energy) };
    }
}

/// The joints' names of `sim`, as C strings (a name with a NUL byte is cut there).
fn joint_names(sim: &Simulation) -> Vec<std::ffi::CString> {
    let names = sim.rig().map(|r| r.joints.iter().map(|j| j.name.as_str())).into_iter().flatten();
    names
        .map(|n| {
            std::ffi::CString::new(n.split('\0').next().unwrap_or_default()).unwrap_or_default()
        })
        .collect()
}
