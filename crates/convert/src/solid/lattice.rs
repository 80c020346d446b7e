//! # The body-centred cubic lattice that fills a solid
//!
//! Nodes sit on two interleaved cubic grids of spacing h: the cube corners o + h(i, j, k) and
//! the cube centres o + h(i + ½, j + ½, k + ½). Its edges are those of the BCC
//! tetrahedralization (Molino, Bridson, Teran & Fedkiw 2003, "A crystalline, red green strategy
//! for meshing highly deformable objects with tetrahedra"): every corner to its six axis
//! neighbours and every centre to its six (length h), and every centre to the eight corners of
//! its cube (length √3 h / 2). They are the edges of twelve congruent tetrahedra per cube (each
//! two corners and two centres, volume h³/12), all well shaped, so the lattice is a rigid
//! framework: a tetrahedron of springs is rigid, and tetrahedra sharing faces stay rigid
//! together. An edge of length h is shared by 4 of them, a diagonal by 6.
//!
//! The grid is centred on the mesh's bounding box, so a symmetric mesh gets a symmetric fill.

use glam::{IVec3, Vec3};

/// Which of the two grids a lattice point is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sublattice {
    /// Cube corners, o + h(i, j, k) for i in 0..=n.x.
    Corner,
    /// Cube centres, o + h(i + ½, j + ½, k + ½) for i in 0..n.x.
    Centre,
}

/// A BCC lattice over a box: its origin, spacing and number of cubes per axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lattice {
    /// The first corner (m).
    pub origin: Vec3,
    /// The cube edge h (m).
    pub spacing: f32,
    /// Cubes along x, y and z (≥ 1).
    pub cubes: IVec3,
}

/// One lattice edge: two point indices and whether it is a centre-to-corner diagonal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LatticeEdge {
    /// First point.
    pub a: usize,
    /// Second point.
    pub b: usize,
    /// A diagonal (length √3 h / 2) rather than an axis edge (length h).
    pub diagonal: bool,
}

impl Lattice {
    /// The lattice of spacing `spacing` covering the box `min..max`, centred on it.
    pub fn covering(min: Vec3, max: Vec3, spacing: f32) -> Lattice {
        let size = (max - min).max(Vec3::ZERO);
        let cubes = (size / spacing).ceil().as_ivec3().max(IVec3::ONE);
        let origin = min - 0.5 * (cubes.as_vec3() * spacing - size);
        Lattice { origin, spacing, cubes }
    }

    /// How many corner points.
    fn corners(&self) -> usize {
        let n = self.cubes + IVec3::ONE;
        n.x as usize * n.y as usize * n.z as usize
    }

    /// How many points in all (corners, then centres).
    pub fn points(&self) -> usize {
        let c = self.cubes;
        self.corners() + c.x as usize * c.y as usize * c.z as usize
    }

    /// The point with this index.
    pub fn point(&self, index: usize) -> Vec3 {
        let (sub, cell) = self.cell(index);
        let offset = match sub {
            Sublattice::Corner => Vec3::ZERO,
            Sublattice::Centre => Vec3::splat(0.5),
        };
        self.origin + (cell.as_vec3() + offset) * self.spacing
    }

    /// The sublattice and grid coordinates of a point index.
    fn cell(&self, index: usize) -> (Sublattice, IVec3) {
        let corners = self.corners();
        let (sub, dims, i) = if index < corners {
            (Sublattice::Corner, self.cubes + IVec3::ONE, index)
        } else {
            (Sublattice::Centre, self.cubes, index - corners)
        };
        let (nx, ny) = (dims.x as usize, dims.y as usize);
        (sub, IVec3::new((i % nx) as i32, ((i / nx) % ny) as i32, (i / (nx * ny)) as i32))
    }

    /// The index of a point, `None` outside the grid.
    pub(crate) fn index(&self, sub: Sublattice, cell: IVec3) -> Option<usize> {
        let (dims, base) = match sub {
            Sublattice::Corner => (self.cubes + IVec3::ONE, 0),
            Sublattice::Centre => (self.cubes, self.corners()),
        };
        if cell.cmplt(IVec3::ZERO).any() || cell.cmpge(dims).any() {
            return None;
        }
        let (nx, ny) = (dims.x as usize, dims.y as usize);
        Some(base + cell.x as usize + nx * (cell.y as usize + ny * cell.z as usize))
    }

    /// The axis edges from point `index` towards +x, +y and +z, and a centre's diagonals to
    /// its cube's corners: over every point, each lattice edge once.
    pub fn edges_from(&self, index: usize) -> impl Iterator<Item = LatticeEdge> + '_ {
        let (sub, cell) = self.cell(index);
        let axis = [IVec3::X, IVec3::Y, IVec3::Z]
            .into_iter()
            .filter_map(move |d| self.index(sub, cell + d))
            .map(move |b| LatticeEdge { a: index, b, diagonal: false });
        let diagonals = (0..8)
            .filter(move |_| sub == Sublattice::Centre)
            .filter_map(move |c| {
                let corner = cell + IVec3::new(c & 1, (c >> 1) & 1, c >> 2);
                self.index(Sublattice::Corner, corner)
            })
            .map(move |b| LatticeEdge { a: index, b, diagonal: true });
        axis.chain(diagonals)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_two_cube_lattice_has_the_counts_worked_out_by_hand() {
        // 2 × 1 × 1 cubes: 3 × 2 × 2 = 12 corners and 2 centres.
        let l = Lattice::covering(Vec3::ZERO, Vec3::new(2.0, 1.0, 1.0), 1.0);
        assert_eq!((l.cubes, l.points()), (IVec3::new(2, 1, 1), 14));
        let edges: Vec<LatticeEdge> = (0..l.points()).flat_map(|i| l.edges_from(i)).collect();
        // Corner axis edges: x 2·2·2 = 8, y 3·1·2 = 6, z 3·2·1 = 6; centre axis edges: 1;
        // diagonals: 8 per centre.
        let axis = edges.iter().filter(|e| !e.diagonal).count();
        let diagonal = edges.iter().filter(|e| e.diagonal).count();
        assert_eq!((axis, diagonal), (21, 16));
        for e in &edges {
            let length = l.point(e.a).distance(l.point(e.b));
            let expected = if e.diagonal { 3f32.sqrt() / 2.0 } else { 1.0 };
            assert!((length - expected).abs() < 1e-6, "{e:?}: {length}");
        }
        let mut pairs: Vec<(usize, usize)> =
            edges.iter().map(|e| (e.a.min(e.b), e.a.max(e.b))).collect();
        pairs.sort_unstable();
        pairs.dedup();
        assert_eq!(pairs.len(), edges.len(), "every edge once");
    }

    #[test]
    fn the_lattice_is_centred_on_the_box() {
        let l = Lattice::covering(Vec3::ZERO, Vec3::new(1.0, 0.5, 0.25), 0.3);
        assert_eq!(l.cubes, IVec3::new(4, 2, 1));
        let far = l.origin + l.cubes.as_vec3() * l.spacing;
        assert!(((l.origin + far) / 2.0).distance(Vec3::new(0.5, 0.25, 0.125)) < 1e-6);
    }
}
