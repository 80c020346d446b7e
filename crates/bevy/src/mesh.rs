//! The body's drawn surface as a Bevy [`Mesh`], rewritten after every frame that steps.
//!
//! The surface is the model's skin when it has one, else its nodes and faces
//! ([`SpringModel::surface_faces`]). Its texture coordinates belong to face corners, so a
//! vertex on a uv seam is drawn as one vertex per distinct uv: each drawn vertex shows one
//! surface vertex, found through `vertex_of`. Positions and area-weighted normals are
//! computed once per surface vertex by the core ([`Simulation::surface`]) and copied to the
//! drawn vertices, in the entity's frame, so the mesh sits where the simulation is
//! whatever the entity's transform. When springs break and faces tear
//! ([`Simulation::faces`]), the triangles are rebuilt from the faces still whole.

use crate::convert::to_bevy;
use bevy::asset::{Assets, Handle, RenderAssetUsages};
use bevy::ecs::component::Component;
use bevy::math::{Affine3A, Vec3};
use bevy::mesh::{Indices, Mesh, PrimitiveTopology, VertexAttributeValues};
use bevy::platform::collections::HashMap;
use springmesh_core::{NodeId, Simulation, SpringModel, glam};

/// A face's corners in ascending order: the key that finds its drawn vertices whatever
/// corner the solver's order starts at.
type FaceKey = [u32; 3];

/// The drawn mesh of a soft body and how its vertices map to the simulation's surface.
#[derive(Component, Debug)]
pub(crate) struct SoftBodyMesh {
    pub handle: Handle<Mesh>,
    /// The surface vertex each drawn vertex shows.
    vertex_of: Vec<u32>,
    /// For each face of the model: (surface vertex, drawn vertex) at its corners.
    corners: HashMap<FaceKey, [(u32, u32); 3]>,
    /// The first drawn vertex of each surface vertex (for a face the model did not have).
    first_drawn: Vec<u32>,
    /// How many faces the triangles were built from.
    faces: usize,
    /// The surface's positions and normals, and the drawn vertices' ([`SoftBodyMesh::prepare`]).
    positions: Vec<glam::Vec3>,
    normals: Vec<glam::Vec3>,
    drawn_positions: Vec<[f32; 3]>,
    drawn_normals: Vec<[f32; 3]>,
}

fn key(face: [u32; 3]) -> FaceKey {
    let mut k = face;
    k.sort_unstable();
    k
}

impl SoftBodyMesh {
    /// The mesh of `model`'s surface, drawn with `sim`'s current faces, added to `meshes`.
    pub fn new(model: &SpringModel, sim: &Simulation, meshes: &mut Assets<Mesh>) -> SoftBodyMesh {
        let faces = model.surface_faces();
        let uvs = model.surface_uvs();
        let vertices = model.surface_vertex_count();
        let mut drawn: HashMap<(u32, u32), u32> = HashMap::default();
        let mut vertex_of = Vec::with_capacity(vertices);
        let mut tex = Vec::with_capacity(vertices);
        let mut corners = HashMap::default();
        for face in faces.iter() {
            let nodes = face.nodes.map(|n| n.0);
            let uv = face.uvs.unwrap_or([u32::MAX; 3]);
            let at = std::array::from_fn(|i| {
                let index = *drawn.entry((nodes[i], uv[i])).or_insert_with(|| {
                    vertex_of.push(nodes[i]);
                    tex.push(uvs.get(uv[i] as usize).map_or([0.0, 0.0], |t| t.to_array()));
                    (vertex_of.len() - 1) as u32
                });
                (nodes[i], index)
            });
            corners.insert(key(nodes), at);
        }
        let mut first_drawn = vec![u32::MAX; vertices];
        for (d, &v) in vertex_of.iter().enumerate().rev() {
            if let Some(slot) = first_drawn.get_mut(v as usize) {
                *slot = d as u32;
            }
        }
        // A vertex no face uses is still drawn (as a point of no triangle), so every
        // surface vertex has a drawn one.
        for (v, slot) in first_drawn.iter_mut().enumerate() {
            if *slot == u32::MAX {
                *slot = vertex_of.len() as u32;
                vertex_of.push(v as u32);
                tex.push([0.0, 0.0]);
            }
        }
        let zeros = vec![[0.0f32; 3]; vertex_of.len()];
        let mut mesh = Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default());
        mesh.insert_attribute(Mesh::ATTRIBUTE_POSITION, zeros.clone());
        mesh.insert_attribute(Mesh::ATTRIBUTE_NORMAL, zeros);
        mesh.insert_attribute(Mesh::ATTRIBUTE_UV_0, tex);
        let mut this = SoftBodyMesh {
            handle: Handle::default(),
            vertex_of,
            corners,
            first_drawn,
            faces: usize::MAX,
            positions: Vec::new(),
            normals: Vec::new(),
            drawn_positions: Vec::new(),
            drawn_normals: Vec::new(),
        };
        this.prepare(sim, &Affine3A::IDENTITY);
        this.write(sim, &mut mesh);
        this.handle = meshes.add(mesh);
        this
    }

    /// Works out `sim`'s surface now, as the drawn vertices in the frame of an entity at
    /// `entity`: the costly part of an update, which touches no asset, so the bodies do it in
    /// parallel.
    pub fn prepare(&mut self, sim: &Simulation, entity: &Affine3A) {
        sim.surface(&mut self.positions, &mut self.normals);
        let identity = *entity == Affine3A::IDENTITY;
        let to_local = entity.inverse();
        // Normals go to the entity's frame by the transpose of its linear part: the
        // renderer takes them back by the inverse transpose.
        let normal_to_local = entity.matrix3.transpose();
        let (positions, normals) = (&self.positions, &self.normals);
        self.drawn_positions.clear();
        self.drawn_positions.extend(self.vertex_of.iter().map(|&v| {
            let p = positions.get(v as usize).map_or(Vec3::ZERO, |&p| to_bevy(p));
            let p = if identity { p } else { to_local.transform_point3(p) };
            p.to_array()
        }));
        self.drawn_normals.clear();
        self.drawn_normals.extend(self.vertex_of.iter().map(|&v| {
            let n = normals.get(v as usize).map_or(Vec3::Y, |&n| to_bevy(n));
            let n = if identity { n } else { (normal_to_local * n).normalize_or_zero() };
            n.to_array()
        }));
    }

    /// Rewrites the mesh from the surface [`SoftBodyMesh::prepare`] worked out.
    pub fn update(&mut self, sim: &Simulation, meshes: &mut Assets<Mesh>) {
        if let Some(mut mesh) = meshes.get_mut(&self.handle) {
            self.write(sim, &mut mesh);
        }
    }

    fn write(&mut self, sim: &Simulation, mesh: &mut Mesh) {
        if sim.surface_faces().len() != self.faces {
            mesh.insert_indices(Indices::U32(self.triangles(sim.surface_faces())));
            self.faces = sim.surface_faces().len();
        }
        let attributes = [
            (Mesh::ATTRIBUTE_POSITION, &self.drawn_positions),
            (Mesh::ATTRIBUTE_NORMAL, &self.drawn_normals),
        ];
        for (attribute, drawn) in attributes {
            if let Ok(VertexAttributeValues::Float32x3(out)) = mesh.try_attribute_mut(attribute)
                && out.len() == drawn.len()
            {
                out.copy_from_slice(drawn);
            }
        }
    }

    /// The drawn triangles of `faces` (surface vertex indices).
    fn triangles(&self, faces: &[[NodeId; 3]]) -> Vec<u32> {
        let mut indices = Vec::with_capacity(faces.len() * 3);
        for face in faces {
            let nodes = face.map(|n| n.0);
            let corners = self.corners.get(&key(nodes));
            for v in nodes {
                let at = corners.and_then(|c| c.iter().find(|&&(n, _)| n == v));
                let first = self.first_drawn.get(v as usize).copied().unwrap_or(0);
                indices.push(at.map_or(first, |&(_, d)| d));
            }
        }
        indices
    }
}
