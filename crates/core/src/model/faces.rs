//! The triangles of a model (for drawing, normals, and the air and pressure forces), one column
//! per field.

use crate::{FaceId, NodeId};

/// One triangle: three node indices, counter-clockwise seen from the front, and optionally one
/// texture-coordinate index per corner into [`crate::SpringModel::uvs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Face {
    /// The corners.
    pub nodes: [NodeId; 3],
    /// The texture coordinate of each corner, when the mesh has them.
    pub uvs: Option<[u32; 3]>,
}

/// All triangles of a model, stored column-wise.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Faces {
    nodes: Vec<[NodeId; 3]>,
    uvs: Vec<Option<[u32; 3]>>,
}

impl Faces {
    /// An empty face table with room for `n` triangles.
    pub fn with_capacity(n: usize) -> Self {
        Self { nodes: Vec::with_capacity(n), uvs: Vec::with_capacity(n) }
    }

    /// Triangles from their columns; `None` when the columns differ in length.
    pub(crate) fn from_columns(
        nodes: Vec<[NodeId; 3]>,
        uvs: Vec<Option<[u32; 3]>>,
    ) -> Option<Self> {
        (nodes.len() == uvs.len()).then_some(Self { nodes, uvs })
    }

    /// Number of triangles.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when there are no triangles.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Appends a triangle and returns its id.
    pub fn push(&mut self, face: Face) -> FaceId {
        let id = FaceId::from_index(self.len());
        self.nodes.push(face.nodes);
        self.uvs.push(face.uvs);
        id
    }

    /// Triangle `id`, or `None` when out of range.
    pub fn get(&self, id: FaceId) -> Option<Face> {
        Some(Face { nodes: *self.nodes.get(id.index())?, uvs: *self.uvs.get(id.index())? })
    }

    /// Inserts a triangle at `id`, shifting the later ones up by one. `id` may equal `len()`.
    pub fn insert(&mut self, id: FaceId, face: Face) {
        let i = id.index().min(self.len());
        self.nodes.insert(i, face.nodes);
        self.uvs.insert(i, face.uvs);
    }

    /// Removes triangle `id`, shifting the later ones down by one; `None` when out of range.
    pub fn remove(&mut self, id: FaceId) -> Option<Face> {
        let face = self.get(id)?;
        self.nodes.remove(id.index());
        self.uvs.remove(id.index());
        Some(face)
    }

    /// Corner node indices.
    pub fn nodes(&self) -> &[[NodeId; 3]] {
        &self.nodes
    }

    /// Corner node indices, writable in place.
    pub fn nodes_mut(&mut self) -> &mut [[NodeId; 3]] {
        &mut self.nodes
    }

    /// Corner texture-coordinate indices.
    pub fn uvs(&self) -> &[Option<[u32; 3]>] {
        &self.uvs
    }

    /// The triangles as records, in index order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Face> + '_ {
        self.nodes.iter().zip(&self.uvs).map(|(&nodes, &uvs)| Face { nodes, uvs })
    }
}

impl FromIterator<Face> for Faces {
    fn from_iter<I: IntoIterator<Item = Face>>(iter: I) -> Self {
        let mut faces = Faces::default();
        for f in iter {
            faces.push(f);
        }
        faces
    }
}
