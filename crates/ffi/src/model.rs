//! Models: loading a `.spring` or `.spring.json` and reading what a renderer needs.

use crate::error::{Failure, SM_ERR_FILE, copy_out, status, value};
use springmesh_core::{ValidModel, io};
use std::ffi::{CStr, c_char, c_int};
use std::path::Path;

/// A loaded model (opaque). Read-only: it may be shared between threads.
pub struct SmModel {
    pub(crate) model: ValidModel,
}

/// Gives `model` to the caller through `out`.
fn hand_over(model: ValidModel, out: *mut *mut SmModel) {
    let boxed = Box::into_raw(Box::new(SmModel { model }));
    // SAFETY: `out` was checked non-NULL by the caller of this function and points to a
    // writable `SmModel *` (the C contract).
    unsafe { out.write(boxed) };
}

/// Sets `*out` to NULL if `out` is not NULL.
fn clear(out: *mut *mut SmModel) {
    if !out.is_null() {
        // SAFETY: `out` is non-NULL and points to a writable `SmModel *` (the C contract).
        unsafe { out.write(std::ptr::null_mut()) };
    }
}

/// Loads the model file `path` (UTF-8, NUL-terminated; `.spring`, or `.spring.json` by its
/// name). 0 and `*out` set, or an error code and `*out` = NULL.
///
/// # Safety
/// `path` is NULL or a NUL-terminated string; `out` is NULL or points to a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_model_load(path: *const c_char, out: *mut *mut SmModel) -> c_int {
    clear(out);
    status(|| {
        if path.is_null() {
            return Err(Failure::null("path"));
        }
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        // SAFETY: `path` is non-NULL and NUL-terminated (the C contract).
        let path = unsafe { CStr::from_ptr(path) };
        let path = path.to_str().map_err(|_| Failure::new(SM_ERR_FILE, "path is not UTF-8"))?;
        let model =
            io::load(Path::new(path)).map_err(|e| Failure::new(SM_ERR_FILE, e.to_string()))?;
        hand_over(model, out);
        Ok(())
    })
}

/// Loads a model from `len` bytes at `bytes` (a `.spring` file's contents, or `.spring.json`
/// text). 0 and `*out` set, or an error code and `*out` = NULL.
///
/// # Safety
/// `bytes` is NULL or points to `len` readable bytes; `out` is NULL or points to a writable
/// pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_model_load_memory(
    bytes: *const u8,
    len: usize,
    out: *mut *mut SmModel,
) -> c_int {
    clear(out);
    status(|| {
        if bytes.is_null() {
            return Err(Failure::null("bytes"));
        }
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        // SAFETY: `bytes` is non-NULL and points to `len` readable bytes (the C contract).
        let data = unsafe { std::slice::from_raw_parts(bytes, len) };
        let name = if data.starts_with(&io::binary::MAGIC) {
            "memory.spring"
        } else {
            "memory.spring.json"
        };
        let model = io::decode(data, Path::new(name))
            .map_err(|e| Failure::new(SM_ERR_FILE, e.to_string()))?;
        hand_over(model, out);
        Ok(())
    })
}

/// Frees a model (NULL is fine). Simulations made from it stay valid.
///
/// # Safety
/// `m` is NULL or a model from `sm_model_load*` not freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_model_free(m: *mut SmModel) {
    if !m.is_null() {
        // SAFETY: `m` came from Box::into_raw in hand_over and is freed once (the C contract).
        drop(unsafe { Box::from_raw(m) });
    }
}

/// The model behind `m`, or a NULL failure.
///
/// # Safety
/// `m` is NULL or a live model from `sm_model_load*`, not freed while the reference lives.
pub(crate) unsafe fn model<'a>(m: *const SmModel) -> Result<&'a ValidModel, Failure> {
    // SAFETY: a non-NULL `m` is a live model (the function's contract), only read.
    unsafe { m.as_ref() }.map(|m| &m.model).ok_or_else(|| Failure::null("model"))
}

/// Number of nodes (0 for NULL).
///
/// # Safety
/// `m` is NULL or a live model.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_model_node_count(m: *const SmModel) -> u32 {
    // SAFETY: `m` is NULL or a live model (this function's contract).
    value(0, || Ok(unsafe { model(m) }?.nodes.len() as u32))
}

/// Number of springs (0 for NULL).
///
/// # Safety
/// `m` is NULL or a live model.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_model_spring_count(m: *const SmModel) -> u32 {
    // SAFETY: `m` is NULL or a live model (this function's contract).
    value(0, || Ok(unsafe { model(m) }?.springs.len() as u32))
}

/// Number of vertices of the surface a game draws (0 for NULL): the skin's when the nodes
/// are a simulation cage, else one per node. `sm_model_faces` indexes them, and
/// `sm_sim_copy_surface_positions` and `sm_sim_copy_surface_normals` write one per vertex.
///
/// # Safety
/// `m` is NULL or a live model.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_model_surface_vertex_count(m: *const SmModel) -> u32 {
    // SAFETY: `m` is NULL or a live model (this function's contract).
    value(0, || Ok(unsafe { model(m) }?.surface_vertex_count() as u32))
}

/// Number of triangles of the drawn surface (0 for NULL).
///
/// # Safety
/// `m` is NULL or a live model.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_model_face_count(m: *const SmModel) -> u32 {
    // SAFETY: `m` is NULL or a live model (this function's contract).
    value(0, || Ok(unsafe { model(m) }?.surface_faces().len() as u32))
}

/// Writes the drawn surface's triangles, 3 surface vertex indices per face (the node indices
/// of a model without a skin), counter-clockwise seen from the front, to `out` (room for
/// `cap` numbers); returns how many numbers were written.
///
/// # Safety
/// `m` is NULL or a live model; `out` is NULL or has room for `cap` numbers.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_model_faces(m: *const SmModel, out: *mut u32, cap: usize) -> usize {
    value(0, || {
        // SAFETY: `m` is NULL or a live model (this function's contract).
        let faces = unsafe { model(m) }?.surface_faces().nodes();
        // SAFETY: `out` is NULL or holds `cap` writable items (this function's contract).
        Ok(unsafe { copy_out(faces.iter().flatten().map(|n| n.0), out, cap) })
    })
}

/// Writes the drawn surface's texture coordinates, 2 per face corner in face order (u, v with v down, as glTF), to
/// `out` (room for `cap` numbers); 0 if the model has none (a face without uvs gets zeros).
///
/// # Safety
/// `m` is NULL or a live model; `out` is NULL or has room for `cap` numbers.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_model_uvs(m: *const SmModel, out: *mut f32, cap: usize) -> usize {
    value(0, || {
        // SAFETY: `m` is NULL or a live model (this function's contract).
        let m = unsafe { model(m) }?;
        let uvs = m.surface_uvs();
        if uvs.is_empty() {
            return Ok(0);
        }
        let corner = |i: u32| uvs.get(i as usize).map_or([0.0, 0.0], |t| t.to_array());
        let corners = m.surface_faces().uvs().iter().flat_map(|f| match f {
            Some(c) => c.map(corner),
            None => [[0.0, 0.0]; 3],
        });
        // SAFETY: `out` is NULL or holds `cap` writable items (this function's contract).
        Ok(unsafe { copy_out(corners.flatten(), out, cap) })
    })
}

/// Writes the anchored nodes' indices to `out` (room for `cap`); returns how many.
///
/// # Safety
/// `m` is NULL or a live model; `out` is NULL or has room for `cap` numbers.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sm_model_anchors(m: *const SmModel, out: *mut u32, cap: usize) -> usize {
    // SAFETY: `m` is NULL or a live model; `out` is NULL or holds `cap` writable items (this function's contract).
    value(0, || Ok(unsafe { copy_out(model(m)?.anchors.iter().map(|a| a.0), out, cap) }))
}
