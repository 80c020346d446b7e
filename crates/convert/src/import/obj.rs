//! Wavefront OBJ through tobj.
//!
//! tobj parses the text (negative indices, groups and objects, CRLF line ends); the faces are
//! triangulated here, by ear clipping ([`super::polygon`]), because tobj fans polygons from
//! their first corner, which is wrong for concave ones. Every object and group goes into one
//! mesh. Quads are remembered for quad shear. Points (`p`) and lines (`l`) are counted and
//! taken out before tobj sees the text: tobj reads a polyline of three or more vertices as a
//! polygon face. A missing or unreadable `.mtl` is a note, not an error; the first material's
//! diffuse texture becomes the mesh's texture.
//!
//! The vertices keep the file's order (tobj numbers each object's vertices in the order its
//! faces first use them): a point cache written for the mesh (`simulate --pc2`) then plays
//! on the modeler's own object, whose vertices are in the file's order. Vertices are told
//! apart by their coordinates, bit for bit as both parse them; vertices at one place take
//! the file's places there in the order the faces use them, and a file whose faces share a
//! vertex between objects (read once per object) keeps tobj's order.

use super::polygon::triangulate;
use super::reference::{read_bounded, resolve};
use crate::ConvertError;
use crate::limits::{Budget, ImportLimits};
use crate::mesh::{RawMesh, Texture};
use glam::{Vec2, Vec3};
use std::collections::HashMap;
use std::io::BufReader;
use std::path::Path;

/// The largest material library read (bytes): far more than any real `.mtl` (a few KB).
const MAX_MTL_BYTES: u64 = 16 << 20;

/// Reads the OBJ file `path` (its bytes are `bytes`) within `limits`.
pub fn read(path: &Path, bytes: &[u8], limits: &ImportLimits) -> Result<RawMesh, ConvertError> {
    let options = tobj::LoadOptions {
        single_index: false,
        triangulate: false,
        ignore_points: false,
        ignore_lines: false,
    };
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let Prepared { text, points, lines, unreferenced, notes, places } =
        prepare(bytes).map_err(|reason| ConvertError::Obj { file: path.to_path_buf(), reason })?;
    // Why the material library was refused, for the note (tobj's error has no words for it).
    let refusal = std::cell::RefCell::new(None);
    let (models, materials) = tobj::load_obj_buf(&mut BufReader::new(&text[..]), &options, |mtl| {
        let name = mtl.to_string_lossy().replace('\\', "/");
        let bytes = resolve(&dir, &name, limits.outside_references)
            .and_then(|p| read_bounded(&p, MAX_MTL_BYTES, false))
            .and_then(|bytes| match short_colour(&bytes) {
                Some(line) => {
                    Err(format!("is malformed (line {line}: a colour needs three numbers)"))
                }
                None => Ok(bytes),
            });
        match bytes {
            Ok(bytes) => tobj::load_mtl_buf(&mut BufReader::new(&bytes[..])),
            Err(why) => {
                *refusal.borrow_mut() = Some(format!("\"{name}\" {why}"));
                Err(tobj::LoadError::OpenFileFailed)
            }
        }
    })
    .map_err(|e| ConvertError::Obj { file: path.to_path_buf(), reason: e.to_string() })?;

    let mut budget = Budget::new(limits);
    for model in &models {
        let triangles = match model.mesh.face_arities.is_empty() {
            true => model.mesh.indices.len() / 3,
            false => model.mesh.face_arities.iter().map(|&a| (a as usize).saturating_sub(2)).sum(),
        };
        budget
            .take_triangles(triangles)
            .map_err(|what| ConvertError::TooLarge { file: path.to_path_buf(), what })?;
    }
    let mut mesh = RawMesh { points, lines, unreferenced, notes, ..RawMesh::default() };
    match materials {
        Ok(materials) => {
            if let Some(t) = materials.iter().find_map(|m| m.diffuse_texture.as_ref()) {
                let name = t.replace('\\', "/");
                match resolve(&dir, &name, limits.outside_references) {
                    Ok(file) => mesh.texture = Some(Texture::File(file)),
                    Err(why) => mesh
                        .notes
                        .push(format!("texture \"{name}\" {why}; the model has no texture")),
                }
            }
        }
        Err(e) => {
            let why = refusal.borrow_mut().take().unwrap_or_else(|| e.to_string());
            mesh.notes.push(format!("material file not read ({why}); the model has no texture"))
        }
    }
    for model in &models {
        append(&mut mesh, &model.mesh, path)?;
    }
    in_file_order(&mut mesh, &places);
    Ok(mesh)
}

/// Puts `mesh`'s vertices in the file's order, the file's vertices being at `places` (module
/// doc).
fn in_file_order(mesh: &mut RawMesh, places: &[[u32; 3]]) {
    let mut at: HashMap<[u32; 3], Vec<u32>> = HashMap::new();
    for (i, place) in places.iter().enumerate().rev() {
        at.entry(*place).or_default().push(i as u32);
    }
    let mut file_index = Vec::with_capacity(mesh.positions.len());
    for p in &mesh.positions {
        match at.get_mut(&p.to_array().map(f32::to_bits)).and_then(Vec::pop) {
            Some(i) => file_index.push(i),
            None => return,
        }
    }
    let mut order: Vec<u32> = (0..file_index.len() as u32).collect();
    order.sort_unstable_by_key(|&k| file_index[k as usize]);
    mesh.reorder(&order);
}

/// The first line (from 1) of a material library whose colour statement (`Ka`, `Kd`, `Ks`,
/// `Ke`) has fewer than three values: tobj 4 panics on those rather than report them.
fn short_colour(mtl: &[u8]) -> Option<usize> {
    mtl.split(|&b| b == b'\n')
        .position(|line| {
            let mut words = line.split(|b| b.is_ascii_whitespace()).filter(|w| !w.is_empty());
            matches!(words.next(), Some(b"Ka" | b"Kd" | b"Ks" | b"Ke")) && words.count() < 3
        })
        .map(|i| i + 1)
}

/// The most corners of one face. Ear clipping takes time that grows faster than the corners
/// on unlucky shapes (a 100,000-corner random star takes 3 s); real n-gons (caps, lettering)
/// have hundreds.
pub const MAX_FACE_CORNERS: usize = 1 << 16;

/// The OBJ text made ready for tobj, and what was learnt on the way.
struct Prepared {
    /// The text without point and line statements (tobj reads a polyline of three or more
    /// vertices as a face), and without vertex colours when only some vertices have them
    /// (tobj then refuses the file).
    text: Vec<u8>,
    /// Points and line segments taken out.
    points: usize,
    lines: usize,
    /// Vertices no face uses (tobj leaves those out without a word).
    unreferenced: usize,
    /// What was changed, for the report.
    notes: Vec<String>,
    /// Each vertex's coordinates as parsed (their bits), in the file's order.
    places: Vec<[u32; 3]>,
}

/// Prepares the OBJ text for tobj ([`Prepared`]). Statements tobj would refuse without saying
/// where are refused here with their line number.
fn prepare(bytes: &[u8]) -> Result<Prepared, String> {
    let (mut points, mut lines) = (0, 0);
    let mut kept = Vec::with_capacity(bytes.len());
    // A first pass counts what the file defines: tobj resolves positive indices against the
    // whole file (a face may come before its vertices) and negative ones against what precedes.
    let (mut totals, mut coloured) = ([0usize; 3], 0);
    for line in bytes.split(|&b| b == b'\n') {
        let mut words = line.split(|b| b.is_ascii_whitespace()).filter(|w| !w.is_empty());
        match words.next() {
            Some(b"v") => {
                totals[0] += 1;
                coloured += usize::from(words.count() >= 6);
            }
            Some(b"vt") => totals[1] += 1,
            Some(b"vn") => totals[2] += 1,
            _ => {}
        }
    }
    let strip_colours = coloured > 0 && coloured < totals[0];
    let mut used = vec![false; totals[0]];
    let mut places = Vec::with_capacity(totals[0]);
    let mut seen = [0usize; 3];
    for (number, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        let at = |why: String| format!("line {}: {why}", number + 1);
        let mut words = line.split(|b| b.is_ascii_whitespace()).filter(|w| !w.is_empty());
        let numbers = |words: &mut dyn Iterator<Item = &[u8]>, n: usize, what: &str| {
            let parsed = words.take(n).filter(|w| parse::<f32>(w).is_some()).count();
            if parsed < n { Err(at(format!("{what} needs {n} numbers"))) } else { Ok(()) }
        };
        match words.next() {
            Some(b"p") => points += words.count(),
            Some(b"l") => lines += words.count().saturating_sub(1),
            Some(b"v") => {
                let place: Vec<u32> =
                    words.clone().take(3).filter_map(parse::<f32>).map(f32::to_bits).collect();
                numbers(&mut words, 3, "a vertex (v)")?;
                places.extend(<[u32; 3]>::try_from(place));
                seen[0] += 1;
                if strip_colours {
                    let mut words =
                        line.split(|b| b.is_ascii_whitespace()).filter(|w| !w.is_empty());
                    for word in words.by_ref().take(4) {
                        kept.extend_from_slice(word);
                        kept.push(b' ');
                    }
                    kept.push(b'\n');
                } else {
                    kept.extend_from_slice(line);
                }
            }
            Some(b"vt") => {
                numbers(&mut words, 2, "a texture coordinate (vt)")?;
                seen[1] += 1;
                kept.extend_from_slice(line);
            }
            Some(b"vn") => {
                numbers(&mut words, 3, "a normal (vn)")?;
                seen[2] += 1;
                kept.extend_from_slice(line);
            }
            Some(b"f") => {
                let mut corners = 0;
                for word in words {
                    let mut parts = word.split(|&b| b == b'/');
                    let names_none = |what: &str, total: usize| {
                        let word = String::from_utf8_lossy(word);
                        at(format!("face corner \"{word}\" names no {what} (the file has {total})"))
                    };
                    let v = parts.next().and_then(|v| index_of(v, seen[0], totals[0]));
                    let v = v.ok_or_else(|| names_none("vertex", totals[0]))?;
                    let kinds = [(1, "texture coordinate"), (2, "normal")];
                    for (part, (k, what)) in parts.zip(kinds) {
                        // tobj ignores the index of a kind the file has none of.
                        let ignored = totals[k] == 0 && parse::<u64>(part).is_some();
                        if !part.is_empty()
                            && !ignored
                            && index_of(part, seen[k], totals[k]).is_none()
                        {
                            return Err(names_none(what, totals[k]));
                        }
                    }
                    used[v] = true;
                    corners += 1;
                }
                if corners > MAX_FACE_CORNERS {
                    return Err(at(format!(
                        "a face of {corners} corners (Springmesh reads faces of at most {MAX_FACE_CORNERS})"
                    )));
                }
                kept.extend_from_slice(line);
            }
            _ => kept.extend_from_slice(line),
        }
    }
    let unreferenced = used.iter().filter(|&&u| !u).count();
    let notes = match strip_colours {
        true => {
            vec![format!("{coloured} of {} vertices have a colour: colours ignored", totals[0])]
        }
        false => Vec::new(),
    };
    Ok(Prepared { text: kept, points, lines, unreferenced, notes, places })
}

/// `word` parsed as a `T`.
fn parse<T: std::str::FromStr>(word: &[u8]) -> Option<T> {
    std::str::from_utf8(word).ok()?.parse().ok()
}

/// The 0-based index named by `word`: 1-based among the `total` items of the file, or negative
/// counting back from the last of the `seen` so far; `None` if it names none.
fn index_of(word: &[u8], seen: usize, total: usize) -> Option<usize> {
    let index: i64 = parse(word)?;
    let zero_based = if index < 0 { seen as i64 + index } else { index - 1 };
    usize::try_from(zero_based).ok().filter(|&v| v < total)
}

/// Adds one tobj mesh (an object or group) to `out`.
fn append(out: &mut RawMesh, m: &tobj::Mesh, path: &Path) -> Result<(), ConvertError> {
    let base = out.positions.len() as u32;
    let uv_base = out.uvs.len() as u32;
    for (i, p) in m.positions.chunks_exact(3).enumerate() {
        let p = Vec3::new(p[0], p[1], p[2]);
        if !p.is_finite() {
            return Err(ConvertError::NonFinite {
                file: path.to_path_buf(),
                vertex: base as usize + i,
            });
        }
        out.positions.push(p);
    }
    if m.vertex_color.len() == m.positions.len() && !m.vertex_color.is_empty() {
        let colors: Vec<[f32; 4]> =
            m.vertex_color.chunks_exact(3).map(|c| [c[0], c[1], c[2], 1.0]).collect();
        out.set_colors(base as usize, &colors);
    }
    out.pad_columns();
    // OBJ puts v = 0 at the bottom of the image; the model keeps glTF's top-down v.
    out.uvs.extend(m.texcoords.chunks_exact(2).map(|t| Vec2::new(t[0], 1.0 - t[1])));
    let has_uvs = !m.texcoord_indices.is_empty() && m.texcoord_indices.len() == m.indices.len();
    let arities: Box<dyn Iterator<Item = usize>> = if m.face_arities.is_empty() {
        Box::new(std::iter::repeat_n(3, m.indices.len() / 3))
    } else {
        Box::new(m.face_arities.iter().map(|&a| a as usize))
    };
    let mut start = 0;
    for arity in arities {
        let Some(face) = m.indices.get(start..start + arity) else {
            return Err(ConvertError::Obj {
                file: path.to_path_buf(),
                reason: "face indices end early".into(),
            });
        };
        let uvs = has_uvs.then(|| &m.texcoord_indices[start..start + arity]);
        start += arity;
        match arity {
            1 => out.points += 1,
            2 => out.lines += 1,
            _ => {
                let corner = |&i: &u32| out.positions.get((base + i) as usize).copied();
                let Some(corners) = face.iter().map(corner).collect::<Option<Vec<Vec3>>>() else {
                    return Err(ConvertError::Obj {
                        file: path.to_path_buf(),
                        reason: "face index out of range".into(),
                    });
                };
                if arity == 4 {
                    out.quads.push([0, 1, 2, 3].map(|k| base + face[k]));
                }
                for t in triangulate(&corners) {
                    out.push_triangle(
                        t.map(|k| base + face[k]),
                        uvs.map(|uv| t.map(|k| uv_base + uv[k])),
                    );
                }
            }
        }
    }
    Ok(())
}
