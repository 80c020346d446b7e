//! # Vertex normals
//!
//! The normal of a vertex is the normalised sum of the normals of the triangles around it,
//! each weighted by the triangle's area: for a triangle (p₀, p₁, p₂) the cross product
//! (p₁ − p₀) × (p₂ − p₀) is the normal times twice the area, so summing cross products
//! gives the area weighting for free (Max, "Weights for Computing Vertex Normals from Facet
//! Normals", JGT 1999, compares weightings; area weighting is the common choice for smooth
//! shading of animated meshes). Counter-clockwise triangles give outward normals. A vertex
//! with no triangle, or whose triangles cancel, gets the zero vector.

use crate::NodeId;
use glam::{Vec3, Vec3A};

/// Area-weighted vertex normals of the triangles `faces` over `positions`, written to `out`
/// (resized to `positions.len()`).
pub fn vertex_normals<P: Copy + Into<Vec3A>>(
    positions: &[P],
    faces: &[[NodeId; 3]],
    out: &mut Vec<Vec3>,
) {
    let mut sum = vec![Vec3A::ZERO; positions.len()];
    for f in faces {
        let [a, b, c] = f.map(|n| n.index());
        let (Some(&pa), Some(&pb), Some(&pc)) =
            (positions.get(a), positions.get(b), positions.get(c))
        else {
            continue;
        };
        let (pa, pb, pc): (Vec3A, Vec3A, Vec3A) = (pa.into(), pb.into(), pc.into());
        let n = (pb - pa).cross(pc - pa);
        sum[a] += n;
        sum[b] += n;
        sum[c] += n;
    }
    out.clear();
    out.extend(sum.into_iter().map(|n| Vec3::from(n.normalize_or_zero())));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_square_points_up_and_cube_corner_points_outward() {
        let square = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, -1.0),
            Vec3::new(0.0, 0.0, -1.0),
        ];
        let faces = [[0, 1, 2], [0, 2, 3]].map(|f| f.map(NodeId));
        let mut out = Vec::new();
        vertex_normals(&square, &faces, &mut out);
        assert!(out.iter().all(|n| (*n - Vec3::Y).length() < 1e-6), "{out:?}");

        // Three faces of a unit cube meeting at the origin, each wound to face outward.
        let p = [
            Vec3::ZERO,
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(0.0, -1.0, 0.0),
            Vec3::new(0.0, 0.0, -1.0),
        ];
        let faces = [[0, 1, 2], [0, 2, 3], [0, 3, 1]].map(|f| f.map(NodeId));
        vertex_normals(&p, &faces, &mut out);
        let expected = Vec3::ONE.normalize();
        assert!((out[0] - expected).length() < 1e-6, "{:?}", out[0]);
    }
}
