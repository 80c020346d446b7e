//! # Struts across thin parts
//!
//! Where a part is hardly thicker than the lattice spacing — a leg, a tail, an ear — few lattice
//! nodes fall inside it, often a single file, and a surface bound to a line of nodes can still
//! bend about it: a thin leg buckles under the body. Struts brace such parts across. Two
//! surface nodes s and t get an `interior` spring between them when they face each other
//! through the inside: t lies within [`REACH`] lattice spacings of s, within 60° of s's inward
//! normal, s within 60° of t's, and the midpoint of s–t is inside the mesh (winding number at
//! least ½). In a thick body no two surface nodes face each other that closely, so struts only
//! appear where they are needed (and along sharp creases, which they stiffen a little).
//!
//! Pairs are found in a uniform grid of cell size [`REACH`] × h over the surface nodes.

use glam::{IVec3, Vec3};
use rustc_hash::FxHashMap;

/// How far apart (in lattice spacings) two surface nodes may be to get a strut: across a part
/// up to one and a half spacings thick, which is where the lattice thins to a single file.
pub const REACH: f32 = 1.5;

/// About how many partners a surface node is tested against (it scans at most twice this many,
/// half of them on average of higher index): a mesh far finer than the lattice in one
/// place (or made so on purpose) would otherwise make the pass quadratic. Real meshes have a
/// few dozen surface nodes within reach of each other.
const MAX_CANDIDATES: usize = 256;

/// cos 60°: how closely each end's inward normal must point at the other.
const FACING: f32 = 0.5;

/// The struts among surface nodes at `surface` with unit inward normals `inward`, for a
/// lattice of spacing `h`; `inside` tells whether a point is inside the mesh.
pub fn struts(
    surface: &[Vec3],
    inward: &[Vec3],
    h: f32,
    inside: impl Fn(Vec3) -> bool,
) -> Vec<(u32, u32)> {
    let reach = REACH * h;
    if !(reach.is_finite() && reach > 0.0) {
        return Vec::new();
    }
    let key = |p: Vec3| (p / reach).floor().as_ivec3();
    let mut grid: FxHashMap<IVec3, Vec<u32>> = FxHashMap::default();
    for (i, &p) in surface.iter().enumerate() {
        grid.entry(key(p)).or_default().push(i as u32);
    }
    let mut pairs = Vec::new();
    for (s, (&p, &n)) in surface.iter().zip(inward).enumerate() {
        let home = key(p);
        let near = (-1..=1)
            .flat_map(|dz| {
                (-1..=1).flat_map(move |dy| (-1..=1).map(move |dx| IVec3::new(dx, dy, dz)))
            })
            .filter_map(|d| grid.get(&(home + d)))
            .flatten()
            .take(2 * MAX_CANDIDATES)
            .filter(|&&t| t as usize > s);
        for &t in near {
            let (q, m) = (surface[t as usize], inward[t as usize]);
            let d = q - p;
            let length = d.length();
            let facing = d.dot(n) > FACING * length && -d.dot(m) > FACING * length;
            if length > 0.0 && length <= reach && facing && inside(0.5 * (p + q)) {
                pairs.push((s as u32, t));
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_sides_of_a_thin_slab_are_braced_and_a_thick_one_is_not() {
        // Two parallel faces of a slab, 3 × 3 nodes 0.1 m apart each, their inward normals
        // facing each other; the slab is `thickness` thick.
        let slab = |thickness: f32| {
            let mut p = Vec::new();
            let mut n = Vec::new();
            for (y, normal) in [(0.0, Vec3::Y), (thickness, Vec3::NEG_Y)] {
                for i in 0..3 {
                    for j in 0..3 {
                        p.push(Vec3::new(0.1 * i as f32, y, 0.1 * j as f32));
                        n.push(normal);
                    }
                }
            }
            (p, n)
        };
        let (p, n) = slab(0.1);
        let thin = struts(&p, &n, 0.1, |_| true);
        // Each bottom node to the top nodes within 0.15 m and 60°: straight up (0.1 m) and the
        // four axis neighbours above (0.141 m, 45°) where they exist: 9 + 2·(2·3·2) = 33.
        assert_eq!(thin.len(), 9 + 24, "{thin:?}");
        assert!(thin.iter().all(|&(a, b)| a < 9 && b >= 9));
        let (p, n) = slab(0.5);
        assert!(struts(&p, &n, 0.1, |_| true).is_empty(), "thick: nothing to brace");
        let (p, n) = slab(0.1);
        assert!(struts(&p, &n, 0.1, |_| false).is_empty(), "the gap between two parts");
    }
}
