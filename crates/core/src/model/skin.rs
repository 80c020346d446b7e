//! # The skin: a drawn surface that follows a coarse cage
//!
//! When a solid's mesh is finer than a game can afford to simulate node by node, the
//! converter simulates a coarse lattice that covers the mesh (the *cage*) and keeps the mesh
//! as a *skin*: every surface vertex v rides on up to [`SKIN_WEIGHTS`] cage nodes with fixed
//! weights,
//!
//! ```text
//! x_v = Σᵢ w_{v,i} x_{n_{v,i}},      Σᵢ w_{v,i} = 1,  w_{v,i} ≥ 0
//! ```
//!
//! where x_n is the position of cage node n, n_{v,i} the nodes the vertex rides on and
//! w_{v,i} its weights: the barycentric coordinates of the vertex's rest position in the
//! cage tetrahedron that holds it (free-form deformation, Sederberg & Parry 1986, with a
//! tetrahedral lattice as in the simulation meshes of PhysX and Rapier). Weights that sum to
//! one keep a rigid motion of the cage a rigid motion of the skin; non-negative ones keep the
//! skin inside its cage's hull, so a bounded cage gives a bounded surface. Unused slots have
//! weight 0.
//!
//! The skin's faces index its vertices (a [`super::Face`]'s `nodes` are vertex indices here), with
//! uvs of their own; the game draws them. A model without a skin draws its nodes and faces.

use super::Faces;
use crate::NodeId;
use glam::{Vec2, Vec3, Vec3A};

/// Most cage nodes one surface vertex rides on: the four corners of a tetrahedron.
pub const SKIN_WEIGHTS: usize = 4;

/// How far a vertex's weights may sum from one.
pub const SKIN_WEIGHT_TOLERANCE: f32 = 1e-3;

/// One surface vertex: its rest position and the cage nodes it follows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkinVertex {
    /// Rest position (m).
    pub position: Vec3,
    /// The cage nodes it rides on (unused slots: any node, weight 0).
    pub nodes: [NodeId; SKIN_WEIGHTS],
    /// Their weights, non-negative, summing to one.
    pub weights: [f32; SKIN_WEIGHTS],
}

/// A surface drawn over a cage, one column per field.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Skin {
    positions: Vec<Vec3>,
    nodes: Vec<[NodeId; SKIN_WEIGHTS]>,
    weights: Vec<[f32; SKIN_WEIGHTS]>,
    /// Triangles over the skin's vertices (corner indices are vertex indices).
    pub faces: Faces,
    /// Texture coordinates the faces' corners refer to.
    pub uvs: Vec<Vec2>,
}

impl Skin {
    /// A skin of `vertices`, drawn as `faces` with `uvs`.
    pub fn new(
        vertices: impl IntoIterator<Item = SkinVertex>,
        faces: Faces,
        uvs: Vec<Vec2>,
    ) -> Self {
        let mut skin = Skin { faces, uvs, ..Skin::default() };
        for v in vertices {
            skin.positions.push(v.position);
            skin.nodes.push(v.nodes);
            skin.weights.push(v.weights);
        }
        skin
    }

    /// A skin from its columns; `None` when they differ in length.
    pub(crate) fn from_columns(
        positions: Vec<Vec3>,
        nodes: Vec<[NodeId; SKIN_WEIGHTS]>,
        weights: Vec<[f32; SKIN_WEIGHTS]>,
        (faces, uvs): (Faces, Vec<Vec2>),
    ) -> Option<Self> {
        let same = positions.len() == nodes.len() && nodes.len() == weights.len();
        same.then_some(Skin { positions, nodes, weights, faces, uvs })
    }

    /// Number of surface vertices.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// True when the skin has no vertex.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Rest positions of the vertices.
    pub fn positions(&self) -> &[Vec3] {
        &self.positions
    }

    /// Rest positions of the vertices, writable in place.
    pub fn positions_mut(&mut self) -> &mut [Vec3] {
        &mut self.positions
    }

    /// The cage nodes each vertex rides on.
    pub fn nodes(&self) -> &[[NodeId; SKIN_WEIGHTS]] {
        &self.nodes
    }

    /// The weights of those nodes.
    pub fn weights(&self) -> &[[f32; SKIN_WEIGHTS]] {
        &self.weights
    }

    /// Every vertex in order.
    pub fn vertices(&self) -> impl ExactSizeIterator<Item = SkinVertex> + '_ {
        let columns = self.positions.iter().zip(&self.nodes).zip(&self.weights);
        columns.map(|((&position, &nodes), &weights)| SkinVertex { position, nodes, weights })
    }

    /// The vertices' positions when the cage nodes are at `nodes` (module docs), written to
    /// `out` (resized to [`Skin::len`]). A node index out of range counts as the origin
    /// (validation refuses such a skin).
    pub fn deform<P: Copy + Into<Vec3A>>(&self, nodes: &[P], out: &mut Vec<Vec3>) {
        out.clear();
        out.extend(self.nodes.iter().zip(&self.weights).map(|(n, w)| {
            let mut x = Vec3A::ZERO;
            for (node, &weight) in n.iter().zip(w) {
                if let Some(&p) = nodes.get(node.index()) {
                    x += weight * p.into();
                }
            }
            Vec3::from(x)
        }));
    }

    /// The skin after cage nodes are removed: `renumber[n]` is node n's new index, `None` for
    /// a removed node. A vertex keeps the weights of the nodes that remain, scaled back to a
    /// sum of one; `Err` with the first vertex that rides on removed nodes only.
    pub fn renumbered(&self, renumber: &[Option<NodeId>]) -> Result<Skin, usize> {
        let mut skin = Skin { faces: self.faces.clone(), uvs: self.uvs.clone(), ..Skin::default() };
        for (i, v) in self.vertices().enumerate() {
            let mut nodes = [NodeId(0); SKIN_WEIGHTS];
            let mut weights = [0.0; SKIN_WEIGHTS];
            for (slot, (n, w)) in v.nodes.iter().zip(v.weights).enumerate() {
                if let Some(Some(new)) = renumber.get(n.index()).filter(|_| w > 0.0) {
                    (nodes[slot], weights[slot]) = (*new, w);
                }
            }
            let sum: f32 = weights.iter().sum();
            if sum.is_nan() || sum <= 0.0 {
                return Err(i);
            }
            skin.positions.push(v.position);
            skin.nodes.push(nodes);
            skin.weights.push(weights.map(|w| w / sum));
        }
        Ok(skin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(position: Vec3, nodes: [u32; 4], weights: [f32; 4]) -> SkinVertex {
        SkinVertex { position, nodes: nodes.map(NodeId), weights }
    }

    #[test]
    fn a_vertex_follows_its_tetrahedron_by_its_barycentric_weights() {
        // The unit tetrahedron; a vertex at its centroid has weights ¼ each.
        let tet = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        let skin = Skin::new(
            [
                vertex(Vec3::splat(0.25), [0, 1, 2, 3], [0.25; 4]),
                vertex(Vec3::X, [1, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
            ],
            Faces::default(),
            Vec::new(),
        );
        let mut out = Vec::new();
        skin.deform(&tet, &mut out);
        assert!(out[0].distance(Vec3::splat(0.25)) < 1e-6 && out[1] == Vec3::X, "{out:?}");
        // Stretch the cage along x by 2 and shift it: an affine map moves the vertex the same.
        let moved = tet.map(|p| Vec3::new(2.0 * p.x, p.y, p.z) + Vec3::new(1.0, 2.0, 3.0));
        skin.deform(&moved, &mut out);
        assert!(out[0].distance(Vec3::new(1.5, 2.25, 3.25)) < 1e-6, "{out:?}");
    }

    #[test]
    fn removing_a_node_renormalises_the_rest_and_refuses_a_vertex_left_on_nothing() {
        let skin = Skin::new(
            [
                vertex(Vec3::ZERO, [0, 1, 2, 3], [0.5, 0.25, 0.25, 0.0]),
                vertex(Vec3::ONE, [2, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
            ],
            Faces::default(),
            Vec::new(),
        );
        // Remove node 0: 1 -> 0, 2 -> 1, 3 -> 2.
        let renumber = [None, Some(NodeId(0)), Some(NodeId(1)), Some(NodeId(2))];
        let kept = skin.renumbered(&renumber).unwrap_or_default();
        assert_eq!(kept.nodes()[0][1..3], [NodeId(0), NodeId(1)]);
        assert_eq!(kept.weights()[0], [0.0, 0.5, 0.5, 0.0]);
        assert_eq!(kept.weights()[1][0], 1.0);
        // Remove node 2: vertex 1 rides on nothing else.
        let renumber = [Some(NodeId(0)), Some(NodeId(1)), None, Some(NodeId(2))];
        assert_eq!(skin.renumbered(&renumber), Err(1));
    }
}
