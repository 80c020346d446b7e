//! Reading glTF accessors with every access bounds-checked.
//!
//! An accessor is `count` elements of `dimensions` components of one component type, at
//! `offset` in a buffer view, `stride` bytes apart (glTF 2.0, "Accessors"). Components may be
//! floats or, with KHR_mesh_quantization, 8- or 16-bit integers, normalized (mapped to
//! [0, 1] or [−1, 1]) or not. A sparse accessor replaces some elements of its base (or of
//! zeros, without a buffer view) with values listed by index ("Sparse accessors").
//!
//! The gltf crate's typed readers assume floats; this reader converts every component type to
//! f32 as the specification says, and refuses an accessor that does not fit its buffer
//! instead of reading out of bounds.

use crate::limits::Budget;
use gltf::accessor::{DataType, Dimensions};
use gltf::buffer::Data;

/// The glTF name of an element type.
fn dimensions_name(d: Dimensions) -> &'static str {
    match d {
        Dimensions::Scalar => "SCALAR",
        Dimensions::Vec2 => "VEC2",
        Dimensions::Vec3 => "VEC3",
        Dimensions::Vec4 => "VEC4",
        Dimensions::Mat2 => "MAT2",
        Dimensions::Mat3 => "MAT3",
        Dimensions::Mat4 => "MAT4",
    }
}

/// The glTF name of a component type.
fn type_name(t: DataType) -> &'static str {
    match t {
        DataType::I8 => "BYTE",
        DataType::U8 => "UNSIGNED_BYTE",
        DataType::I16 => "SHORT",
        DataType::U16 => "UNSIGNED_SHORT",
        DataType::U32 => "UNSIGNED_INT",
        DataType::F32 => "FLOAT",
    }
}

/// Size in bytes of one component.
fn component_size(t: DataType) -> usize {
    match t {
        DataType::I8 | DataType::U8 => 1,
        DataType::I16 | DataType::U16 => 2,
        DataType::U32 | DataType::F32 => 4,
    }
}

/// Component `t` at the start of `b`, as f32: normalized integers as glTF 2.0 maps them
/// (`max(c / 127, −1)`, `c / 255`, `max(c / 32767, −1)`, `c / 65535`), others as their value.
fn component(b: &[u8], t: DataType, normalized: bool) -> f32 {
    match (t, normalized) {
        (DataType::F32, _) => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        (DataType::U32, _) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32,
        (DataType::I8, false) => f32::from(b[0] as i8),
        (DataType::I8, true) => (f32::from(b[0] as i8) / 127.0).max(-1.0),
        (DataType::U8, false) => f32::from(b[0]),
        (DataType::U8, true) => f32::from(b[0]) / 255.0,
        (DataType::I16, false) => f32::from(i16::from_le_bytes([b[0], b[1]])),
        (DataType::I16, true) => (f32::from(i16::from_le_bytes([b[0], b[1]])) / 32767.0).max(-1.0),
        (DataType::U16, false) => f32::from(u16::from_le_bytes([b[0], b[1]])),
        (DataType::U16, true) => f32::from(u16::from_le_bytes([b[0], b[1]])) / 65535.0,
    }
}

/// Unsigned integer component `t` at the start of `b` (index data).
fn index(b: &[u8], t: DataType) -> Option<u32> {
    match t {
        DataType::U8 => Some(u32::from(b[0])),
        DataType::U16 => Some(u32::from(u16::from_le_bytes([b[0], b[1]]))),
        DataType::U32 => Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        _ => None,
    }
}

/// The bytes of `count` elements of `element` bytes each, `stride` apart, from `offset` in
/// view `view`; an error if they do not fit.
fn strided<'b>(
    view: &gltf::buffer::View,
    offset: usize,
    count: usize,
    element: usize,
    buffers: &'b [Data],
) -> Result<impl Iterator<Item = &'b [u8]> + use<'b>, String> {
    let stride = view.stride().unwrap_or(element);
    if stride < element {
        return Err(format!("byte stride {stride} is smaller than an element ({element} bytes)"));
    }
    let buffer = buffers.get(view.buffer().index()).ok_or("buffer missing")?;
    let start = view.offset().checked_add(offset).ok_or("offset overflows")?;
    let span = match count {
        0 => 0,
        n => (n - 1)
            .checked_mul(stride)
            .and_then(|s| s.checked_add(element))
            .ok_or("size overflows")?,
    };
    let view_end = view.offset().saturating_add(view.length());
    let end = start.checked_add(span).ok_or("size overflows")?;
    if end > view_end || end > buffer.len() {
        return Err(format!(
            "{count} elements of {element} bytes at offset {start} do not fit (view ends at {view_end}, buffer at {})",
            buffer.len()
        ));
    }
    Ok((0..count).map(move |i| &buffer[start + i * stride..start + i * stride + element]))
}

/// The elements of accessor `a` as `N`-component f32 vectors; the elements of a sparse
/// accessor without a buffer view (zeros that cost the file nothing) are taken from `budget`.
pub fn read_vectors<const N: usize>(
    a: &gltf::Accessor,
    buffers: &[Data],
    budget: &mut Budget,
) -> Result<Vec<[f32; N]>, String> {
    let dims = match a.dimensions() {
        Dimensions::Scalar => 1,
        Dimensions::Vec2 => 2,
        Dimensions::Vec3 => 3,
        Dimensions::Vec4 => 4,
        // Float matrices have no column padding (only 1- and 2-byte ones do).
        Dimensions::Mat4 if a.data_type() == DataType::F32 => 16,
        other => {
            let (d, t) = (dimensions_name(other), type_name(a.data_type()));
            return Err(format!("{d} elements of {t} where {N} components were expected"));
        }
    };
    if dims != N {
        return Err(format!("{dims} components per element where {N} were expected"));
    }
    let (t, normalized) = (a.data_type(), a.normalized());
    let size = component_size(t);
    let decode = |b: &[u8]| -> [f32; N] {
        std::array::from_fn(|k| component(&b[k * size..], t, normalized))
    };
    let count = a.count();
    let mut out: Vec<[f32; N]> = match a.view() {
        Some(view) => strided(&view, a.offset(), count, size * N, buffers)?.map(decode).collect(),
        None if a.sparse().is_some() => {
            budget.take_implicit(count)?;
            vec![[0.0; N]; count]
        }
        None => return Err("no buffer view and no sparse values".into()),
    };
    if let Some(sparse) = a.sparse() {
        let n = sparse.count();
        let it = sparse.indices();
        let index_type = match it.index_type() {
            gltf::accessor::sparse::IndexType::U8 => DataType::U8,
            gltf::accessor::sparse::IndexType::U16 => DataType::U16,
            gltf::accessor::sparse::IndexType::U32 => DataType::U32,
        };
        let indices = strided(&it.view(), it.offset(), n, component_size(index_type), buffers)?;
        let values =
            strided(&sparse.values().view(), sparse.values().offset(), n, size * N, buffers)?;
        for (i, v) in indices.zip(values) {
            let i = index(i, index_type).ok_or("bad sparse index type")? as usize;
            *out.get_mut(i).ok_or_else(|| format!("sparse index {i} beyond {count} elements"))? =
                decode(v);
        }
    }
    Ok(out)
}

/// The elements of a scalar unsigned-integer accessor (vertex indices).
pub fn read_indices(
    a: &gltf::Accessor,
    buffers: &[Data],
    budget: &mut Budget,
) -> Result<Vec<u32>, String> {
    let t = a.data_type();
    if a.dimensions() != Dimensions::Scalar || index(&[0; 4], t).is_none() {
        let (d, t) = (dimensions_name(a.dimensions()), type_name(t));
        return Err(format!("indices must be unsigned integer scalars, not {d} of {t}"));
    }
    if a.sparse().is_some() {
        // Sparse indices are allowed but unusual; read them through the float path (exact
        // below 2^24, far above any index a file this reader accepts can hold).
        return Ok(read_vectors::<1>(a, buffers, budget)?
            .into_iter()
            .map(|[v]| v as u32)
            .collect());
    }
    let view = a.view().ok_or("indices without a buffer view")?;
    let size = component_size(t);
    Ok(strided(&view, a.offset(), a.count(), size, buffers)?.filter_map(|b| index(b, t)).collect())
}
