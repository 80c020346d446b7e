//! The points of a skin that touch the world: a few surface vertices per cage node.
//!
//! A cage reaches past the surface it carries (its tetrahedra cover the mesh), so a cage that
//! collides holds the drawn surface off the ground by up to a cage spacing, and stands on
//! whatever of it pokes lowest (in Rapier, the cage of a cow 5 cm below its hooves tips it
//! over). Colliding every skin vertex is exact but costs the skin's size in every sub-step
//! (14× the frame on a 35k-vertex bunny in Rapier). Instead each skin vertex is given to its
//! *owner*, the cage node it weighs most on, and of each owner's patch of surface (about a
//! cage cell across) only the vertices furthest out along [`DIRECTIONS`] touch: the lowest of
//! a hoof, the front of a nose. A flat patch between them is held by their neighbours; a
//! curved one dips between them by at most its sagitta over that spacing.
//!
//! Each owner keeps the reach of its points: twice the largest distance from the owner to one
//! of them, where the cage at rest carries them. While the owner is further than that from
//! every collider, its points are not looked at ([`crate::sim::contacts::surface`]); a cage
//! that stretches a patch to twice its rest size has long failed its shape check.

use crate::model::Skin;
use glam::Vec3;

/// The directions along which each owner's furthest vertices touch: the six axes and the
/// eight cube diagonals.
const DIRECTIONS: [Vec3; 14] = {
    const D: f32 = 0.577_350_26;
    [
        Vec3::X,
        Vec3::NEG_X,
        Vec3::Y,
        Vec3::NEG_Y,
        Vec3::Z,
        Vec3::NEG_Z,
        Vec3::new(D, D, D),
        Vec3::new(D, D, -D),
        Vec3::new(D, -D, D),
        Vec3::new(D, -D, -D),
        Vec3::new(-D, D, D),
        Vec3::new(-D, D, -D),
        Vec3::new(-D, -D, D),
        Vec3::new(-D, -D, -D),
    ]
};

/// The touching points of a skin, grouped by owner node; one column per field.
#[derive(Clone, Debug, Default)]
pub(crate) struct TouchPoints {
    /// Each point's cage nodes and weights (the skin vertex's).
    pub nodes: Vec<[u32; 4]>,
    pub weights: Vec<[f32; 4]>,
    /// Per owner: its node, the first of its points (the next owner's first ends them) and
    /// its reach (m).
    pub owners: Vec<u32>,
    pub first: Vec<u32>,
    pub reach: Vec<f32>,
}

impl TouchPoints {
    /// The touching points of `skin` over nodes at rest positions `nodes`.
    pub fn new(skin: &Skin, nodes: &[Vec3]) -> TouchPoints {
        let node_count = nodes.len();
        // Each vertex's owner (its heaviest node); vertices grouped by owner, in vertex order.
        let owner_of = |v: usize| {
            let (n, w) = (&skin.nodes()[v], &skin.weights()[v]);
            let heaviest = (1..4).fold(0, |best, i| if w[i] > w[best] { i } else { best });
            n[heaviest].index()
        };
        let mut count = vec![0u32; node_count + 1];
        for v in 0..skin.len() {
            if let Some(c) = count.get_mut(owner_of(v) + 1) {
                *c += 1;
            }
        }
        for i in 1..count.len() {
            count[i] += count[i - 1];
        }
        let mut slot = count.clone();
        let mut grouped = vec![0u32; skin.len()];
        for v in 0..skin.len() {
            if let Some(s) = slot.get_mut(owner_of(v)) {
                grouped[*s as usize] = v as u32;
                *s += 1;
            }
        }
        let rest = skin.positions();
        // Where the cage at rest carries each vertex, which is where it touches: a file's rest
        // positions may lie elsewhere (moved without their cage, they gave every owner of a
        // placed copy a reach of 10 m, so no point was ever skipped).
        let mut carried = Vec::new();
        skin.deform(nodes, &mut carried);
        let mut points = TouchPoints::default();
        let mut chosen = Vec::with_capacity(DIRECTIONS.len());
        for (owner, patch) in count.windows(2).enumerate() {
            let patch = &grouped[patch[0] as usize..patch[1] as usize];
            chosen.clear();
            for d in DIRECTIONS {
                let out = |&&v: &&u32| rest[v as usize].dot(d);
                if let Some(&v) = patch.iter().max_by(|a, b| out(a).total_cmp(&out(b))) {
                    chosen.push(v);
                }
            }
            chosen.sort_unstable();
            chosen.dedup();
            if chosen.is_empty() {
                continue;
            }
            let centre = nodes[owner];
            let far = chosen.iter().map(|&v| carried[v as usize].distance(centre));
            let far = far.fold(0.0, f32::max);
            points.owners.push(owner as u32);
            points.first.push(points.nodes.len() as u32);
            points.reach.push(2.0 * far);
            for &v in &chosen {
                points.nodes.push(skin.nodes()[v as usize].map(|n| n.0));
                points.weights.push(skin.weights()[v as usize]);
            }
        }
        points.first.push(points.nodes.len() as u32);
        points
    }

    /// The points of owner `k`, as a range of point indices.
    pub fn of(&self, k: usize) -> std::ops::Range<usize> {
        self.first[k] as usize..self.first[k + 1] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NodeId;
    use crate::model::{Faces, SkinVertex};

    #[test]
    fn each_patch_keeps_its_furthest_vertices_and_every_owner_its_reach() {
        // Two nodes 1 m apart; a 5 × 5 grid of vertices in the plane y = 0 around each, all
        // owned by it (weight 0.9 on it).
        let nodes = [Vec3::ZERO, Vec3::new(1.0, 0.0, 0.0)];
        let mut vertices = Vec::new();
        for (owner, &centre) in nodes.iter().enumerate() {
            for i in 0..5 {
                for k in 0..5 {
                    let offset = Vec3::new(i as f32 - 2.0, 0.0, k as f32 - 2.0) * 0.1;
                    let other = 1 - owner as u32;
                    vertices.push(SkinVertex {
                        position: centre + offset,
                        nodes: [NodeId(owner as u32), NodeId(other), NodeId(0), NodeId(0)],
                        weights: [0.9, 0.1, 0.0, 0.0],
                    });
                }
            }
        }
        let skin = Skin::new(vertices, Faces::default(), Vec::new());
        let points = TouchPoints::new(&skin, &nodes);
        assert_eq!(points.owners, [0, 1]);
        // A flat square patch: its four corners are furthest along the diagonals, and the ties
        // along the axes (a whole edge along ±x, the whole patch along ±y) go to the last
        // vertex, a corner too: 4 points per patch.
        assert_eq!((points.of(0).len(), points.of(1).len()), (4, 4));
        // The reach is from where the nodes carry the points: 0.1 of the way to the other
        // node, 0.1 m (the rest positions, up to 0.28 m off, are not where they touch).
        for reach in &points.reach {
            assert!((reach - 2.0 * 0.1).abs() < 1e-6, "{reach}");
        }
        assert!(points.weights.iter().all(|w| w[0] == 0.9));
    }
}
