//! Whether a model's triangles close a volume, and how large it is.
//!
//! A surface encloses a volume when every edge is shared by exactly two triangles that run
//! along it in opposite directions (a closed, consistently wound 2-manifold): then each
//! directed edge a→b of a triangle meets exactly one b→a of another. Pressure and the enclosed
//! volume need that; a cloth, with its boundary, has neither.

use super::SpringModel;
use super::buckets::Buckets;
use crate::geometry::signed_volume;
use crate::{CoreError, NodeId};

impl SpringModel {
    /// The number of directed triangle edges a→b that are not matched by exactly one b→a
    /// (and are not unique themselves): 0 for a closed, consistently wound surface. A boundary
    /// edge counts once, an edge of three triangles at least three times, an edge of two
    /// triangles wound the same way twice.
    pub fn open_edges(&self) -> usize {
        open_edges(self.faces.nodes(), self.nodes.len())
    }

    /// True when the triangles close a volume (there are some, and no edge is open).
    pub fn is_closed(&self) -> bool {
        !self.faces.is_empty() && self.open_edges() == 0
    }

    /// The volume (m³) the triangles enclose at the rest positions; an error for a surface
    /// that is not closed. Positive whichever way the triangles are wound.
    pub fn enclosed_volume(&self) -> Result<f32, CoreError> {
        let open_edges = self.open_edges();
        if self.faces.is_empty() || open_edges > 0 {
            return Err(CoreError::OpenSurface { open_edges });
        }
        let faces = self.faces.nodes().iter().map(|f| f.map(NodeId::index));
        Ok(signed_volume(self.nodes.positions(), faces).abs() as f32)
    }
}

/// [`SpringModel::open_edges`] of the triangles `faces` over `nodes` nodes, in linear time and
/// with memory bounded by `nodes` and the faces whatever indices they hold (an edge both of
/// whose nodes lie past `nodes`, in a model that fails validation, is not counted): the
/// directed edges are
/// grouped by their smaller node ([`super::buckets`]) with their direction; an undirected edge
/// with `f` edges one way and `r` the other is closed when f = r = 1, and otherwise all f + r
/// of its directed edges are open.
pub(crate) fn open_edges(faces: &[[NodeId; 3]], nodes: usize) -> usize {
    let directed = || {
        faces.iter().flat_map(|&[a, b, c]| [(a.0, b.0), (b.0, c.0), (c.0, a.0)]).map(|(a, b)| {
            let forward = a < b;
            (a.min(b), a.max(b), forward)
        })
    };
    let grouped = Buckets::new(nodes, directed);
    let mut open = 0;
    for (_, bucket) in grouped.iter() {
        for run in bucket.chunk_by(|x, y| x.0 == y.0) {
            let forward = run.iter().filter(|e| e.1).count();
            if (forward, run.len() - forward) != (1, 1) {
                open += run.len();
            }
        }
    }
    open
}

#[cfg(test)]
mod tests {
    use crate::{Face, Node, NodeId, SpringModel};
    use glam::Vec3;

    /// A tetrahedron with corners at the origin and the three unit points, wound outwards
    /// (volume 1/6), and the same with one triangle removed or flipped.
    fn tetrahedron(faces: &[[u32; 3]]) -> SpringModel {
        let mut m = SpringModel::default();
        for p in [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z] {
            m.nodes.push(Node { position: p, mass: 1.0 });
        }
        for f in faces {
            m.faces.push(Face { nodes: f.map(NodeId), uvs: None });
        }
        m
    }

    const OUTWARD: [[u32; 3]; 4] = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];

    #[test]
    fn a_closed_tetrahedron_encloses_a_sixth() {
        let m = tetrahedron(&OUTWARD);
        assert_eq!(m.open_edges(), 0);
        let v = m.enclosed_volume().expect("closed");
        assert!((v - 1.0 / 6.0).abs() < 1e-7, "{v}");
        let inward: Vec<[u32; 3]> = OUTWARD.iter().map(|&[a, b, c]| [a, c, b]).collect();
        let v = tetrahedron(&inward).enclosed_volume().expect("closed");
        assert!((v - 1.0 / 6.0).abs() < 1e-7, "winding does not change the volume: {v}");
    }

    #[test]
    fn open_or_inconsistent_surfaces_have_no_volume() {
        let open = tetrahedron(&OUTWARD[..3]);
        assert_eq!(open.open_edges(), 3, "the missing face's three edges");
        assert!(open.enclosed_volume().is_err());
        let mut flipped = OUTWARD;
        flipped[3] = [1, 3, 2];
        assert_eq!(
            tetrahedron(&flipped).open_edges(),
            6,
            "three edges, each wound twice the same way"
        );
        assert!(!SpringModel::default().is_closed());
    }

    #[test]
    fn a_face_naming_a_far_node_costs_nothing() {
        // Found by the mutation harness: a face index of 4e9 once sized the edge buckets by
        // it (a 34 GB allocation) while validating the model that holds it.
        let mut m = tetrahedron(&OUTWARD);
        m.faces.push(Face { nodes: [NodeId(0), NodeId(1), NodeId(4_000_000_000)], uvs: None });
        assert_eq!(m.open_edges(), 5, "0-1 is wound thrice, and the two edges to the far node");
        assert!(m.validate().is_err());
    }
}
