//! glTF 2.0 (`.gltf` with embedded or external buffers, and `.glb`) through the gltf crate.
//!
//! The default scene (or the first, or with none every mesh once) is walked with each node's
//! world transform (parent × local, from its matrix or its translation-rotation-scale). A
//! skinned mesh is placed in its bind pose: the vertices are in the mesh's bind space, which
//! joint 0's world transform times its inverse bind matrix takes to the world. Every
//! primitive of mode triangles, triangle strip or triangle fan is read, indexed or not;
//! points and lines are counted and skipped. Accessor data goes through [`super::accessor`],
//! which handles sparse accessors and the integer types of KHR_mesh_quantization (the gltf
//! crate refuses files that require that extension, so it is taken off the list before
//! validation). Draco-compressed files and other required extensions are refused by name.

use super::accessor::{read_indices, read_vectors};
use super::reference::{read_bounded, resolve};
use crate::limits::{Budget, ImportLimits};
use crate::mesh::{RawMesh, Texture};
use crate::{CharacterMeshes, ConvertError};
use base64::Engine;
use glam::{Mat4, Vec2, Vec3};
use gltf::mesh::Mode;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const DRACO: &str = "KHR_draco_mesh_compression";
const QUANTIZATION: &str = "KHR_mesh_quantization";

/// Reads the glTF or GLB file `path` (its bytes are `bytes`) within `limits`: every mesh of
/// its scene, or with `only` the meshes whose node or mesh has that name; the meshes on the
/// same skeleton that `character` chooses are read as the character ([`RawMesh::character`]).
pub fn read(
    path: &Path,
    bytes: &[u8],
    limits: &ImportLimits,
    (only, character): (Option<&str>, &CharacterMeshes),
) -> Result<RawMesh, ConvertError> {
    let file = || path.to_path_buf();
    let error = |reason: String| ConvertError::Gltf { file: file(), reason };
    let (document, buffers) = open(path, bytes, limits)?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let anywhere = limits.outside_references;
    let mut budget = Budget::new(limits);
    let scene = placements(&document, &buffers, &mut budget).map_err(error)?;
    let names: Vec<String> = scene.meshes.iter().map(|p| p.name.clone()).collect();
    let chosen: Vec<&Placed> =
        scene.meshes.iter().filter(|p| only.is_none_or(|n| p.answers_to(n))).collect();
    if let (Some(name), true) = (only, chosen.is_empty()) {
        return Err(ConvertError::NoSuchMesh { file: file(), name: name.into(), meshes: names });
    }
    let mut reader =
        Reader { file: file(), buffers, mesh: RawMesh::default(), dir, anywhere, budget };
    // One skeleton: the first chosen skinned mesh's skin (meshes on another are not skinned).
    let skin = chosen.iter().find_map(|p| p.skin.as_ref().map(|s| (s.index(), p.transform)));
    let joints = match &skin {
        Some((index, bind)) => {
            let skin = document.skins().nth(*index);
            let skin = skin.ok_or_else(|| error(format!("skins[{index}] does not exist")))?;
            reader.skeleton(&skin, &scene.parents, *bind)?
        }
        None => Vec::new(),
    };
    for placed in chosen {
        let on_skin = placed.skin.as_ref().filter(|s| Some(s.index()) == skin.map(|s| s.0));
        if placed.skin.is_some() && on_skin.is_none() {
            reader
                .note(format!("mesh {} is skinned to another skeleton: not skinned", placed.name));
        }
        reader.add_mesh(&placed.mesh, placed.transform, on_skin.map(|_| &joints[..]))?;
    }
    let Some((index, _)) = skin else { return Ok(reader.mesh) };
    // The character: the other meshes on the same skeleton that are not garments themselves
    // (or those named), read the same way.
    let is_character = |p: &Placed| {
        let on_skin = p.skin.as_ref().is_some_and(|s| s.index() == index);
        let not_worn = !only.is_some_and(|n| p.answers_to(n)) && only.is_some();
        on_skin
            && match character {
                CharacterMeshes::Others => not_worn && !p.is_garment(),
                CharacterMeshes::Named(name) => p.answers_to(name),
                CharacterMeshes::Off => false,
            }
    };
    let worn = std::mem::take(&mut reader.mesh);
    for placed in scene.meshes.iter().filter(|p| is_character(p)) {
        reader.add_mesh(&placed.mesh, placed.transform, Some(&joints[..]))?;
    }
    let character = std::mem::replace(&mut reader.mesh, worn);
    reader.mesh.character_triangles = character.triangles;
    let bound = character.positions.into_iter().zip(character.joint_weights);
    reader.mesh.character = bound.map(|(p, (j, w))| (p, j, w)).collect();
    Ok(reader.mesh)
}

/// The validated document of the glTF or GLB file `path` (its bytes are `bytes`) and its
/// buffers, read within `limits`: what the mesh and the animation readers start from.
pub(crate) fn open(
    path: &Path,
    bytes: &[u8],
    limits: &ImportLimits,
) -> Result<(gltf::Document, Vec<gltf::buffer::Data>), ConvertError> {
    let file = || path.to_path_buf();
    let error = |reason: String| ConvertError::Gltf { file: file(), reason };
    let gltf::Gltf { document, blob } =
        gltf::Gltf::from_slice_without_validation(bytes).map_err(|e| error(e.to_string()))?;
    if document.extensions_used().chain(document.extensions_required()).any(|e| e == DRACO) {
        return Err(ConvertError::Draco { file: file() });
    }
    if let Some(extension) = document.extensions_required().find(|e| *e != QUANTIZATION) {
        return Err(ConvertError::UnsupportedExtension {
            file: file(),
            extension: extension.to_string(),
        });
    }
    let document = validate(document).map_err(error)?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let buffers = load_buffers(&document, &dir, limits.outside_references, blob).map_err(error)?;
    Ok((document, buffers))
}

/// The document's buffers: the GLB's binary chunk, `data:` URIs, and files inside the mesh's
/// folder ([`super::reference`]), each read to its declared `byteLength` and no further (the
/// gltf crate's own loader would follow any path, absolute or `../`, and read it whole).
fn load_buffers(
    document: &gltf::Document,
    dir: &Path,
    anywhere: bool,
    mut blob: Option<Vec<u8>>,
) -> Result<Vec<gltf::buffer::Data>, String> {
    document
        .buffers()
        .map(|buffer| {
            let (b, length) = (buffer.index(), buffer.length());
            let mut bytes = match buffer.source() {
                gltf::buffer::Source::Bin => blob.take().ok_or_else(|| {
                    format!("buffers[{b}] is the binary chunk of a GLB, but there is none")
                })?,
                gltf::buffer::Source::Uri(uri) => match uri.strip_prefix("data:") {
                    Some(data) => {
                        let (_, encoded) = data.split_once(',').ok_or_else(|| {
                            format!("buffers[{b}].uri is a data URI without data")
                        })?;
                        base64::engine::general_purpose::STANDARD
                            .decode(encoded)
                            .map_err(|e| format!("buffers[{b}].uri: {e}"))?
                    }
                    None => {
                        let name = String::from_utf8(percent_decoded(uri)).map_err(|_| {
                            format!("buffers[{b}].uri is not valid UTF-8 once decoded")
                        })?;
                        let refused = |why: String| format!("buffers[{b}].uri \"{name}\" {why}");
                        let path = resolve(dir, &name, anywhere).map_err(refused)?;
                        read_bounded(&path, length as u64, true).map_err(refused)?
                    }
                },
            };
            if bytes.len() < length {
                return Err(format!(
                    "buffers[{b}] holds {} bytes, fewer than its byteLength {length}",
                    bytes.len()
                ));
            }
            bytes.truncate(length);
            Ok(gltf::buffer::Data(bytes))
        })
        .collect()
}

/// Checks what the gltf crate would panic on rather than report: primitives naming accessors
/// that do not exist (its validation indexes them before checking), and images with neither a
/// `uri` nor a `bufferView` (it unwraps one of them).
fn precheck(root: &gltf::json::Root) -> Result<(), String> {
    if let Some(i) = root.images.iter().position(|i| i.uri.is_none() && i.buffer_view.is_none()) {
        return Err(format!("images[{i}] has neither a uri nor a bufferView"));
    }
    let accessors = root.accessors.len();
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let named = primitive.attributes.values().chain(&primitive.indices).map(|a| a.value());
            if let Some(bad) = named.into_iter().find(|&a| a >= accessors) {
                return Err(format!(
                    "meshes[{m}].primitives[{p}] names accessor {bad}, but there are {accessors}"
                ));
            }
        }
    }
    Ok(())
}

/// `uri` with its `%XX` escapes replaced by the bytes they stand for.
fn percent_decoded(uri: &str) -> Vec<u8> {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    out
}

/// Validates the document, except for what this reader handles itself: the
/// KHR_mesh_quantization requirement and the POSITION accessors' min/max, which some exporters
/// leave out and which this reader does not use.
fn validate(document: gltf::Document) -> Result<gltf::Document, String> {
    let mut root = document.into_json();
    precheck(&root)?;
    root.extensions_required.retain(|e| e != QUANTIZATION);
    match gltf::Document::from_json(root.clone()) {
        Ok(document) => Ok(document),
        Err(gltf::Error::Validation(errors)) => {
            let serious: Vec<String> = errors
                .iter()
                .filter(|(path, _)| {
                    !(path.as_str().ends_with(".min") || path.as_str().ends_with(".max"))
                })
                .map(|(path, e)| format!("{path}: {e}"))
                .collect();
            if serious.is_empty() {
                Ok(gltf::Document::from_json_without_validation(root))
            } else {
                Err(serious.join("; "))
            }
        }
        Err(e) => Err(e.to_string()),
    }
}

/// A mesh placed in the scene: by which node, with which transform to the world and skin.
struct Placed<'d> {
    mesh: gltf::Mesh<'d>,
    /// The node's name (or the mesh's, or "mesh N").
    name: String,
    mesh_name: Option<String>,
    transform: Mat4,
    skin: Option<gltf::Skin<'d>>,
}

impl Placed<'_> {
    /// True when the mesh is painted as worn cloth (a `_MAX_DISTANCE` on any primitive): a
    /// garment, not the character, when another mesh of the figure is converted.
    fn is_garment(&self) -> bool {
        let painted = |s: gltf::Semantic| matches!(s, gltf::Semantic::Extras(name) if format!("_{name}") == crate::rigging::MAX_DISTANCE);
        self.mesh.primitives().any(|p| p.attributes().any(|(s, _)| painted(s)))
    }

    /// True when the node or the mesh is called `name`.
    fn answers_to(&self, name: &str) -> bool {
        self.name == name || self.mesh_name.as_deref() == Some(name)
    }
}

/// The scene's meshes, and each node's parent.
struct Scene<'d> {
    meshes: Vec<Placed<'d>>,
    parents: HashMap<usize, usize>,
}

/// Every mesh to read, with the transform that takes it to the world.
fn placements<'d>(
    document: &'d gltf::Document,
    buffers: &[gltf::buffer::Data],
    budget: &mut Budget,
) -> Result<Scene<'d>, String> {
    let unplaced = |m: gltf::Mesh<'d>| Placed {
        name: m.name().map_or_else(|| format!("mesh {}", m.index()), str::to_string),
        mesh_name: m.name().map(str::to_string),
        mesh: m,
        transform: Mat4::IDENTITY,
        skin: None,
    };
    let Some(scene) = document.default_scene().or_else(|| document.scenes().next()) else {
        return Ok(Scene {
            meshes: document.meshes().map(unplaced).collect(),
            parents: HashMap::new(),
        });
    };
    let mut parents = HashMap::new();
    for node in document.nodes() {
        for child in node.children() {
            parents.insert(child.index(), node.index());
        }
    }
    let mut world = HashMap::new();
    let mut stack: Vec<(gltf::Node, Mat4)> = scene.nodes().map(|n| (n, Mat4::IDENTITY)).collect();
    let limit = 4 * document.nodes().len() + 4;
    let mut visited = Vec::new();
    while let Some((node, parent)) = stack.pop() {
        if visited.len() > limit {
            return Err(
                "the node hierarchy is not a tree (a node has two parents or is its own ancestor)"
                    .into(),
            );
        }
        let transform = parent * Mat4::from_cols_array_2d(&node.transform().matrix());
        world.insert(node.index(), transform);
        stack.extend(node.children().map(|c| (c, transform)));
        visited.push(node);
    }
    let mut out = Vec::new();
    for node in visited {
        let Some(mesh) = node.mesh() else { continue };
        let transform = match node.skin() {
            Some(skin) => bind_pose(&skin, &world, buffers, budget).unwrap_or(Mat4::IDENTITY),
            None => world[&node.index()],
        };
        let name = node.name().map(str::to_string);
        let placed = unplaced(mesh);
        out.push(Placed {
            name: name.unwrap_or(placed.name),
            transform,
            skin: node.skin(),
            ..placed
        });
    }
    Ok(Scene { meshes: out, parents })
}

/// The transform of a skinned mesh in its bind pose: joint 0's world transform times its
/// inverse bind matrix (identity when the skin has no matrices). `None` when joint 0 is not in
/// the scene or its matrix cannot be read.
fn bind_pose(
    skin: &gltf::Skin,
    world: &HashMap<usize, Mat4>,
    buffers: &[gltf::buffer::Data],
    budget: &mut Budget,
) -> Option<Mat4> {
    let joint_world = *world.get(&skin.joints().next()?.index())?;
    let Some(accessor) = skin.inverse_bind_matrices() else {
        return Some(joint_world);
    };
    let first = *read_vectors::<16>(&accessor, buffers, budget).ok()?.first()?;
    Some(joint_world * Mat4::from_cols_array(&first))
}

/// The state of one read: the buffers and the mesh being built.
struct Reader {
    file: PathBuf,
    buffers: Vec<gltf::buffer::Data>,
    mesh: RawMesh,
    dir: PathBuf,
    /// References may lead outside `dir`.
    anywhere: bool,
    budget: Budget,
}

impl Reader {
    /// Adds `note` to the mesh's notes, once.
    fn note(&mut self, note: String) {
        if !self.mesh.notes.contains(&note) {
            self.mesh.notes.push(note);
        }
    }

    /// The joints of `skin`, parents first ([`crate::rigging`]), for a mesh placed in the
    /// world by `bind`; the mesh's skeleton is set to them. Each joint's index in the skin is
    /// mapped to its place in the result by `self.joint_order`.
    fn skeleton(
        &mut self,
        skin: &gltf::Skin,
        parents: &HashMap<usize, usize>,
        bind: Mat4,
    ) -> Result<Vec<u16>, ConvertError> {
        let nodes: Vec<gltf::Node> = skin.joints().collect();
        if nodes.len() > springmesh_core::model::MAX_JOINTS {
            let reason = format!("skin {} has {} joints", skin.index(), nodes.len());
            return Err(ConvertError::Gltf { file: self.file.clone(), reason });
        }
        let inverse_binds = match skin.inverse_bind_matrices() {
            Some(a) => read_vectors::<16>(&a, &self.buffers, &mut self.budget)
                .map_err(|e| self.accessor_error(&a, e))?,
            None => vec![Mat4::IDENTITY.to_cols_array(); nodes.len()],
        };
        let names: Vec<String> = nodes
            .iter()
            .map(|n| n.name().map_or_else(|| format!("joint {}", n.index()), str::to_string))
            .collect();
        let field = format!("skins[{}].inverseBindMatrices", skin.index());
        if inverse_binds.len() < nodes.len() {
            let reason = format!(
                "{field}: {} matrices for the skin's {} joints (one a joint)",
                inverse_binds.len(),
                nodes.len()
            );
            return Err(ConvertError::Gltf { file: self.file.clone(), reason });
        }
        let limit = springmesh_core::model::MAX_COORDINATE;
        let bad =
            inverse_binds.iter().position(|m| m.iter().any(|e| !e.is_finite() || e.abs() > limit));
        if let Some(k) = bad {
            let reason = format!(
                "{field}[{k}] (joint \"{}\"): an entry is not a finite number within ±{limit}",
                names[k]
            );
            return Err(ConvertError::Gltf { file: self.file.clone(), reason });
        }
        let names = names.into_iter();
        let index_of: HashMap<usize, usize> =
            nodes.iter().enumerate().map(|(k, n)| (n.index(), k)).collect();
        // A joint's parent: its nearest ancestor in the skin (a chain of at most every node).
        let parent = |node: usize| {
            let mut at = node;
            for _ in 0..=parents.len() {
                at = *parents.get(&at)?;
                if let Some(&k) = index_of.get(&at) {
                    return Some(k);
                }
            }
            None
        };
        let back = bind.inverse();
        let joints: Vec<(String, Option<usize>, Mat4)> = names
            .zip(&nodes)
            .enumerate()
            .map(|(k, (name, node))| {
                let ib = inverse_binds.get(k).map_or(Mat4::IDENTITY, Mat4::from_cols_array);
                (name, parent(node.index()), ib * back)
            })
            .collect();
        let (skeleton, order) = crate::rigging::parents_first(joints);
        self.mesh.skeleton = skeleton;
        Ok(order)
    }

    fn accessor_error(&self, accessor: &gltf::Accessor, reason: String) -> ConvertError {
        ConvertError::Accessor { file: self.file.clone(), accessor: accessor.index(), reason }
    }

    /// Adds every primitive of `mesh`, transformed by `transform`; `joints` maps a skinned
    /// mesh's joint indices to the skeleton's.
    fn add_mesh(
        &mut self,
        mesh: &gltf::Mesh,
        transform: Mat4,
        joints: Option<&[u16]>,
    ) -> Result<(), ConvertError> {
        for primitive in mesh.primitives() {
            let Some(positions) = primitive.get(&gltf::Semantic::Positions) else { continue };
            self.take(&primitive, &positions)?;
            let points = read_vectors::<3>(&positions, &self.buffers, &mut self.budget)
                .map_err(|e| self.accessor_error(&positions, e))?;
            let count = points.len();
            let order: Vec<u32> = match primitive.indices() {
                Some(a) => read_indices(&a, &self.buffers, &mut self.budget)
                    .map_err(|e| self.accessor_error(&a, e))?,
                None => (0..count as u32).collect(),
            };
            if let Some(&bad) = order.iter().find(|&&i| i as usize >= count) {
                let reason = format!("vertex index {bad} beyond the primitive's {count} vertices");
                return Err(ConvertError::Gltf { file: self.file.clone(), reason });
            }
            match primitive.mode() {
                Mode::Points => {
                    self.mesh.points += order.len();
                    continue;
                }
                Mode::Lines => {
                    self.mesh.lines += order.len() / 2;
                    continue;
                }
                Mode::LineStrip | Mode::LineLoop => {
                    self.mesh.lines += order.len().saturating_sub(1);
                    continue;
                }
                Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan => {}
            }
            let base = self.mesh.positions.len() as u32;
            for (i, p) in points.iter().enumerate() {
                let p = transform.transform_point3(Vec3::from_array(*p));
                if !p.is_finite() {
                    return Err(ConvertError::NonFinite {
                        file: self.file.clone(),
                        vertex: base as usize + i,
                    });
                }
                self.mesh.positions.push(p);
            }
            let field = format!("meshes[{}].primitives[{}]", mesh.index(), primitive.index());
            self.painted((&primitive, &field), base as usize, count)?;
            self.weights((&primitive, &field), joints, count)?;
            let uv_base = self.mesh.uvs.len() as u32;
            let has_uvs = match primitive.get(&gltf::Semantic::TexCoords(0)) {
                Some(a) => {
                    let uvs = read_vectors::<2>(&a, &self.buffers, &mut self.budget)
                        .map_err(|e| self.accessor_error(&a, e))?;
                    let matches = uvs.len() == count;
                    self.mesh.uvs.extend(uvs.into_iter().map(Vec2::from_array));
                    matches
                }
                None => false,
            };
            for t in triangles(primitive.mode(), &order) {
                self.mesh
                    .push_triangle(t.map(|i| base + i), has_uvs.then(|| t.map(|i| uv_base + i)));
            }
            if self.mesh.texture.is_none() {
                self.mesh.texture = self.texture(&primitive.material());
            }
        }
        Ok(())
    }

    /// Reads the painted attributes (`_NAME`) and vertex colours (`COLOR_0`) of `primitive`
    /// (the file's `field`), whose `count` vertices start at `base`; other application-specific
    /// attributes are noted and skipped. A painted attribute of another count than the
    /// vertices' is an error (dropped, a cape's max distances would free every node); vertex
    /// colours so are noted and left out.
    fn painted(
        &mut self,
        (primitive, field): (&gltf::Primitive, &str),
        base: usize,
        count: usize,
    ) -> Result<(), ConvertError> {
        for (semantic, accessor) in primitive.attributes() {
            match semantic {
                gltf::Semantic::Extras(name) => {
                    let name = format!("_{name}");
                    if !crate::painted::KNOWN.contains(&name.as_str()) {
                        let note = format!(
                            "attribute {name} ignored (Springmesh reads {})",
                            crate::painted::KNOWN.join(", ")
                        );
                        if !self.mesh.notes.contains(&note) {
                            self.mesh.notes.push(note);
                        }
                        continue;
                    }
                    let values = read_vectors::<1>(&accessor, &self.buffers, &mut self.budget)
                        .map_err(|e| self.accessor_error(&accessor, e))?;
                    if values.len() != count {
                        let reason = format!(
                            "{field}.attributes.{name}: {} values for the primitive's {count} vertices",
                            values.len()
                        );
                        return Err(ConvertError::Gltf { file: self.file.clone(), reason });
                    }
                    let values: Vec<f32> = values.into_iter().map(|[v]| v).collect();
                    self.mesh.set_attribute(&name, base, &values);
                }
                gltf::Semantic::Colors(0) => {
                    let colors: Vec<[f32; 4]> = match accessor.dimensions() {
                        gltf::accessor::Dimensions::Vec3 => {
                            read_vectors::<3>(&accessor, &self.buffers, &mut self.budget)
                                .map_err(|e| self.accessor_error(&accessor, e))?
                                .into_iter()
                                .map(|[r, g, b]| [r, g, b, 1.0])
                                .collect()
                        }
                        _ => read_vectors::<4>(&accessor, &self.buffers, &mut self.budget)
                            .map_err(|e| self.accessor_error(&accessor, e))?,
                    };
                    if colors.len() == count {
                        self.mesh.set_colors(base, &colors);
                    } else {
                        self.note(format!(
                            "{field}.attributes.COLOR_0: {} colours for the primitive's {count} \
                             vertices: not read",
                            colors.len()
                        ));
                    }
                }
                _ => {}
            }
        }
        self.mesh.pad_columns();
        Ok(())
    }

    /// Reads the joints and weights (`JOINTS_0`, `WEIGHTS_0`) of `primitive`'s (the file's
    /// `field`) `count` vertices when the mesh is on the skeleton (`joints` maps its joint
    /// indices), weights normalised; none (all zero) otherwise. Either of another count than
    /// the vertices', or a weighted joint the skin does not have, is an error; a negative or
    /// non-finite weight counts as 0, noted with how many vertices had one, and so are the
    /// vertices left with no weight (they stay where they were bound).
    fn weights(
        &mut self,
        (primitive, field): (&gltf::Primitive, &str),
        joints: Option<&[u16]>,
        count: usize,
    ) -> Result<(), ConvertError> {
        let read = |reader: &mut Self, semantic| match (joints, primitive.get(&semantic)) {
            (Some(_), Some(a)) => read_vectors::<4>(&a, &reader.buffers, &mut reader.budget)
                .map(Some)
                .map_err(|e| reader.accessor_error(&a, e)),
            _ => Ok(None),
        };
        let ids = read(self, gltf::Semantic::Joints(0))?;
        let weights = read(self, gltf::Semantic::Weights(0))?;
        let (Some(map), Some(ids), Some(weights)) = (joints, ids, weights) else {
            self.mesh.joint_weights.extend(std::iter::repeat_n(([0; 4], [0.0; 4]), count));
            return Ok(());
        };
        for (name, read) in [("JOINTS_0", ids.len()), ("WEIGHTS_0", weights.len())] {
            if read != count {
                let reason = format!(
                    "{field}.attributes.{name}: {read} values for the primitive's {count} vertices"
                );
                return Err(ConvertError::Gltf { file: self.file.clone(), reason });
            }
        }
        let (mut bad_weights, mut unweighted) = (0, 0);
        for (k, (id, w)) in ids.iter().zip(&weights).enumerate() {
            let mut out = ([0u16; 4], [0.0f32; 4]);
            bad_weights += usize::from(w.iter().any(|w| !(w.is_finite() && *w >= 0.0)));
            for slot in 0..4 {
                if !(w[slot].is_finite() && w[slot] > 0.0) {
                    continue;
                }
                // An index stored as a float (outside the specification) must be a whole one.
                let whole = id[slot] >= 0.0 && id[slot].fract() == 0.0;
                let Some(&j) = map.get(id[slot] as usize).filter(|_| whole) else {
                    let reason = format!(
                        "{field}.attributes.JOINTS_0: vertex {k} is weighted to joint {}, the \
                         skin has {}",
                        id[slot],
                        map.len()
                    );
                    return Err(ConvertError::Gltf { file: self.file.clone(), reason });
                };
                out.0[slot] = j;
                out.1[slot] = w[slot];
            }
            let sum: f32 = out.1.iter().sum();
            if sum > 0.0 {
                out.1 = out.1.map(|w| w / sum);
            } else {
                unweighted += 1;
            }
            self.mesh.joint_weights.push(out);
        }
        if bad_weights > 0 {
            self.note(format!(
                "{field}.attributes.WEIGHTS_0: {bad_weights} vertices have a negative or \
                 non-finite weight, taken as 0"
            ));
        }
        if unweighted > 0 {
            self.note(format!(
                "{field}: {unweighted} vertices weigh on no joint: they stay where they were bound"
            ));
        }
        Ok(())
    }

    /// Takes the vertices and triangles `primitive` declares from the budget, before any of
    /// its data is read.
    fn take(
        &mut self,
        primitive: &gltf::Primitive,
        positions: &gltf::Accessor,
    ) -> Result<(), ConvertError> {
        let corners = primitive.indices().map_or(positions.count(), |a| a.count());
        let triangles = match primitive.mode() {
            Mode::Triangles => corners / 3,
            Mode::TriangleStrip | Mode::TriangleFan => corners.saturating_sub(2),
            _ => 0,
        };
        self.budget
            .take_triangles(triangles)
            .and_then(|()| self.budget.take_vertices(positions.count()))
            .map_err(|what| ConvertError::TooLarge { file: self.file.clone(), what })
    }

    /// The material's base-colour texture, if it has one this reader can locate.
    fn texture(&mut self, material: &gltf::Material) -> Option<Texture> {
        let info = material.pbr_metallic_roughness().base_color_texture()?;
        match info.texture().source().source() {
            gltf::image::Source::View { view, mime_type } => {
                let data = self.buffers.get(view.buffer().index())?;
                let bytes = data.get(view.offset()..view.offset().checked_add(view.length())?)?;
                Some(Texture::Embedded { mime: mime_type.to_string(), bytes: bytes.to_vec() })
            }
            gltf::image::Source::Uri { uri, mime_type } => match uri.strip_prefix("data:") {
                Some(data) => {
                    let (header, encoded) = data.split_once(',')?;
                    let bytes = base64::engine::general_purpose::STANDARD.decode(encoded).ok()?;
                    let mime = mime_type.unwrap_or(header.trim_end_matches(";base64"));
                    Some(Texture::Embedded { mime: mime.to_string(), bytes })
                }
                None => {
                    let name = String::from_utf8(percent_decoded(uri)).ok()?;
                    match resolve(&self.dir, &name, self.anywhere) {
                        Ok(file) => Some(Texture::File(file)),
                        Err(why) => {
                            let note =
                                format!("texture \"{name}\" {why}; the model has no texture");
                            if !self.mesh.notes.contains(&note) {
                                self.mesh.notes.push(note);
                            }
                            None
                        }
                    }
                }
            },
        }
    }
}

/// The triangles of a primitive of `mode` with vertex order `v` (glTF 2.0, "Primitive
/// topology": strip triangle i is (v_i, v_{i+1+i%2}, v_{i+2−i%2}); fan triangle i is
/// (v_{i+1}, v_{i+2}, v_0)).
fn triangles(mode: Mode, v: &[u32]) -> Vec<[u32; 3]> {
    match mode {
        Mode::TriangleStrip => (0..v.len().saturating_sub(2))
            .map(|i| [v[i], v[i + 1 + i % 2], v[i + 2 - i % 2]])
            .collect(),
        Mode::TriangleFan => {
            (0..v.len().saturating_sub(2)).map(|i| [v[i + 1], v[i + 2], v[0]]).collect()
        }
        _ => v.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_and_fans_follow_the_specification() {
        let v = [0, 1, 2, 3, 4];
        assert_eq!(triangles(Mode::TriangleStrip, &v), vec![[0, 1, 2], [1, 3, 2], [2, 3, 4]]);
        assert_eq!(triangles(Mode::TriangleFan, &v), vec![[1, 2, 0], [2, 3, 0], [3, 4, 0]]);
        assert_eq!(triangles(Mode::Triangles, &v), vec![[0, 1, 2]]);
        assert!(triangles(Mode::TriangleStrip, &[0, 1]).is_empty());
    }
}
