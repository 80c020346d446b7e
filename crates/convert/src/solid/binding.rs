//! # Binding the surface to the lattice
//!
//! Each surface node is joined by springs to its [`BINDINGS`] nearest lattice nodes that lie on
//! its inner side (the side its vertex normal points away from, within a cone a little wider
//! than a half-space). A point held by three or more springs to points that are not coplanar
//! with it cannot move without stretching one of them, so with the lattice rigid
//! ([`super::lattice`]) no surface patch can fold in. Taking partners on the inner side only
//! keeps a leg from being tied to the leg beside it across the gap between them.
//!
//! Nearest nodes are found in a uniform grid of cell size h (the lattice spacing), searched in
//! growing shells of cells until the shell is farther than the worst partner kept, so the work
//! per node is a few cells wherever lattice nodes are near, and at most `MAX_SHELLS` shells
//! where they are not (a part thinner than the lattice, whose surface binds to the nearest
//! lattice nodes of the body it hangs from).

use glam::{IVec3, Vec3};
use rustc_hash::FxHashMap;

/// Lattice partners per surface node: one more than the three that fix a point in space, so a
/// nearly coplanar triple does not leave it loose.
pub const BINDINGS: usize = 4;

/// How many lattice spacings a surface node looks for partners: a part thinner than the
/// lattice and longer than this (a tail, an antenna) is held by its surface and struts alone
/// (reported as unbound). It bounds the search at (2·16 + 1)³ cells a node whatever the mesh.
const MAX_SHELLS: i32 = 16;

/// How far off the inner half-space a partner may lie: cos of the angle between the inward
/// normal and the direction to the partner must be above this.
const CONE: f32 = -0.25;

/// For each surface node, the interior nodes it binds to (indices into `interior`).
pub fn bind(surface: &[Vec3], inward: &[Vec3], interior: &[Vec3], cell: f32) -> Vec<Vec<u32>> {
    if interior.is_empty() || !(cell.is_finite() && cell > 0.0) {
        return vec![Vec::new(); surface.len()];
    }
    let key = |p: Vec3| (p / cell).floor().as_ivec3();
    let mut grid: FxHashMap<IVec3, Vec<u32>> = FxHashMap::default();
    let (mut lo, mut hi) = (IVec3::MAX, IVec3::MIN);
    for (i, &p) in interior.iter().enumerate() {
        let k = key(p);
        lo = lo.min(k);
        hi = hi.max(k);
        grid.entry(k).or_default().push(i as u32);
    }
    surface
        .iter()
        .zip(inward)
        .map(|(&s, &n)| nearest_inside(s, n, interior, &grid, key(s), (lo, hi), cell))
        .collect()
}

/// The [`BINDINGS`] nearest interior nodes on the inner side of the surface node at `s`.
fn nearest_inside(
    s: Vec3,
    inward: Vec3,
    interior: &[Vec3],
    grid: &FxHashMap<IVec3, Vec<u32>>,
    home: IVec3,
    (lo, hi): (IVec3, IVec3),
    cell: f32,
) -> Vec<u32> {
    // The farthest shell that can hold a grid cell, and no farther than MAX_SHELLS.
    let reach = (home - lo).abs().max((hi - home).abs()).max_element().clamp(0, MAX_SHELLS);
    let mut best: Vec<(f32, u32)> = Vec::with_capacity(BINDINGS + 1);
    for r in 0..=reach {
        // Every point of shell r is at least (r − 1) cells away.
        if best.len() == BINDINGS && best[BINDINGS - 1].0 < ((r - 1) as f32 * cell).powi(2) {
            break;
        }
        for k in shell(home, r) {
            let Some(ids) = grid.get(&k) else { continue };
            for &i in ids {
                let d = interior[i as usize] - s;
                let d2 = d.length_squared();
                let facing = d.dot(inward) > CONE * d2.sqrt() * inward.length();
                if !facing || (best.len() == BINDINGS && d2 >= best[BINDINGS - 1].0) {
                    continue;
                }
                let at = best.partition_point(|&(e, _)| e <= d2);
                best.insert(at, (d2, i));
                best.truncate(BINDINGS);
            }
        }
    }
    best.into_iter().map(|(_, i)| i).collect()
}

/// The grid cells at Chebyshev distance exactly `r` from `c`.
fn shell(c: IVec3, r: i32) -> impl Iterator<Item = IVec3> {
    (-r..=r).flat_map(move |z| {
        (-r..=r).flat_map(move |y| {
            let on_face = z.abs() == r || y.abs() == r;
            let xs: Vec<i32> = if on_face { (-r..=r).collect() } else { vec![-r, r] };
            xs.into_iter().map(move |x| c + IVec3::new(x, y, z))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shells_partition_the_cube_around_a_cell() {
        let mut all: Vec<IVec3> = (0..3).flat_map(|r| shell(IVec3::ZERO, r)).collect();
        let n = all.len();
        all.sort_by_key(|v| (v.x, v.y, v.z));
        all.dedup();
        assert_eq!((n, all.len()), (125, 125), "1 + 26 + 98 cells, none twice");
    }

    #[test]
    fn a_surface_node_binds_to_its_nearest_partners_on_the_inner_side() {
        // Interior points on a line below and above a surface node at the origin whose inward
        // normal points down (−y).
        let interior: Vec<Vec3> = (1..=6)
            .flat_map(|i| {
                [Vec3::new(0.0, -0.1 * i as f32, 0.0), Vec3::new(0.0, 0.1 * i as f32, 0.0)]
            })
            .collect();
        let bound = bind(&[Vec3::ZERO], &[Vec3::NEG_Y], &interior, 0.1);
        let mut below: Vec<f32> = bound[0].iter().map(|&i| interior[i as usize].y).collect();
        below.sort_by(f32::total_cmp);
        let expected = [-0.4, -0.3, -0.2, -0.1];
        assert!(below.iter().zip(expected).all(|(a, b)| (a - b).abs() < 1e-6), "{below:?}");
        assert_eq!(bind(&[Vec3::ZERO], &[Vec3::Y], &[], 0.1), vec![Vec::<u32>::new()]);
    }
}
