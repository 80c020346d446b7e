//! Finding the pairs of points of two bodies closer than their contact distance δ.
//!
//! Each body's drawn points are kept in an order in which every [`CHUNK`] consecutive points
//! make a small patch of the surface where they were when the body joined the world (the
//! leaves of a k-d tree, [`patch_order`]); where the points are now, each chunk has its box
//! ([`Drawn`](super::Drawn)). Two bodies are then
//! searched box by box, the boxes of both sides cut down before any point is looked at:
//!
//! 1. the chunks of each within δ of the other's whole box;
//! 2. of those, each pair of chunks whose boxes come within δ of each other;
//! 3. in such a pair, the first's points within δ of the second's box, each against the
//!    second's points, four of them at once ([`closer`]: one at a time, this step was about
//!    half the search; four at once, the search's share of the one-thread pile's frame went
//!    from 6.3 to 5.1 %, the same pairs found).
//!
//! Where two bodies only come near each other, no pair of chunks passes step 2 and no point
//! is looked at; where they touch, a few patches face each other. Measured on the 32-blob
//! pile after 1.5 s, whose bodies' boxes overlap far beyond where they touch (one thread, one
//! world step): about 40 µs, where a hashed grid (Teschner et al. 2003) of the second's
//! points near the first's box, built per pair of bodies, the first's points looking in its
//! 8 cells around them, took about 300 µs, and 190 µs with each side first cut down to the
//! points within δ of the box of the other's remaining points. A dense block of cells over
//! those points, indexed directly instead of hashed, was slower than the hashed grid: most of
//! the 8 cells a point looks in are empty, and the count of points, not the lookup, was the
//! cost.
//!
//! A body whose surface turns far from where it joined keeps its patches (a chunk is a piece
//! of surface, wherever it goes); only a body torn apart (broken springs) spreads a chunk's
//! points, which makes its box larger and the search slower, never wrong.

use crate::sim::columns::components;
use glam::{Vec3A, Vec4};

/// A box: its lowest and its highest corner (m).
pub(super) type Bounds = (Vec3A, Vec3A);

/// Points per chunk: a patch of a few faces, small enough that a pair of patches that face
/// each other is checked point against point, large enough that a body of thousands of points
/// has a few dozen boxes.
pub(super) const CHUNK: usize = 32;

/// The indices of `at` ordered so that each [`CHUNK`] of consecutive ones is a compact patch
/// (points that are not finite last): the points split in two across the longest side of
/// their box, at a whole number of chunks from its start, and each half again, down to
/// single chunks (a k-d tree's leaves, left to right). Ties go by index, so that the order
/// is the same on every run.
pub(super) fn patch_order(at: &[Vec3A]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..at.len()).filter(|&i| at[i].is_finite()).collect();
    split(at, &mut order);
    order.extend((0..at.len()).filter(|&i| !at[i].is_finite()));
    order
}

/// [`patch_order`] of the points `at[order]`, in place.
fn split(at: &[Vec3A], order: &mut [usize]) {
    if order.len() <= CHUNK {
        return;
    }
    let none = (Vec3A::splat(f32::INFINITY), Vec3A::splat(f32::NEG_INFINITY));
    let (lo, hi) = order.iter().fold(none, |(lo, hi), &i| (lo.min(at[i]), hi.max(at[i])));
    let side = hi - lo;
    let axis = if side.x >= side.y && side.x >= side.z {
        0
    } else if side.y >= side.z {
        1
    } else {
        2
    };
    let chunks = order.len().div_ceil(CHUNK);
    let mid = chunks / 2 * CHUNK;
    order.select_nth_unstable_by(mid, |&i, &j| at[i][axis].total_cmp(&at[j][axis]).then(i.cmp(&j)));
    let (left, right) = order.split_at_mut(mid);
    split(at, left);
    split(at, right);
}

/// The box of each [`CHUNK`] of consecutive points of `at`, into `out`.
pub(super) fn chunk_boxes(at: &[Vec3A], out: &mut Vec<Bounds>) {
    out.clear();
    out.extend(at.chunks(CHUNK).map(|c| {
        let first = c[0];
        c.iter().fold((first, first), |(lo, hi), &p| (lo.min(p), hi.max(p)))
    }));
}

/// True when the boxes `a` and `b` come within `distance` of each other (on every axis).
#[inline]
pub(super) fn boxes_near(a: Bounds, b: Bounds, distance: f32) -> bool {
    let margin = Vec3A::splat(distance);
    a.0.cmple(b.1 + margin).all() && (b.0 - margin).cmple(a.1).all()
}

/// The points of two bodies: where each is, and the box of each chunk.
pub(super) struct Side<'a> {
    pub at: &'a [Vec3A],
    pub chunks: &'a [Bounds],
    pub bounds: Bounds,
}

/// Bit q set for each point q of `chunk` (at most [`CHUNK`]) closer to `x` than √`d2`: the
/// squared distance worked out as `Vec3A::distance_squared` does, (Δx² + Δy²) + Δz², so the
/// same points are found as one at a time; four points at once, their coordinates turned
/// into rows (a point against a facing chunk was most of the search, one point at a time).
#[inline]
fn closer(x: Vec3A, chunk: &[Vec3A], d2: f32) -> u32 {
    const _: () = assert!(CHUNK <= u32::BITS as usize);
    let chunk = &chunk[..chunk.len().min(CHUNK)];
    let (px, py, pz) = (Vec4::splat(x.x), Vec4::splat(x.y), Vec4::splat(x.z));
    let limit = Vec4::splat(d2);
    let mut near = 0u32;
    let fours = chunk.chunks_exact(4);
    let rest = fours.remainder();
    for (k, q) in fours.enumerate() {
        let rows = components(&[q[0], q[1], q[2], q[3]]);
        let (dx, dy, dz) = (rows.x_axis - px, rows.y_axis - py, rows.z_axis - pz);
        near |= (dx * dx + dy * dy + dz * dz).cmplt(limit).bitmask() << (4 * k);
    }
    let whole = chunk.len() - rest.len();
    for (q, y) in rest.iter().enumerate() {
        near |= u32::from(y.distance_squared(x) < d2) << (whole + q);
    }
    near
}

/// The pairs (p, q) of a point p of `mine` and a point q of `others` closer than `distance`,
/// by the steps of the module doc, passed to `found` in the order of p (for each p, in the
/// order of q), at most `most` per p; `near` and `facing` are scratch.
pub(super) fn pairs(
    (mine, others): (Side, Side),
    distance: f32,
    most: usize,
    (near, facing): (&mut Vec<u32>, &mut Vec<u32>),
    mut found: impl FnMut(usize, usize),
) {
    let within =
        |b: Bounds| move |(k, c): (usize, &Bounds)| boxes_near(*c, b, distance).then_some(k as u32);
    near.clear();
    near.extend(others.chunks.iter().enumerate().filter_map(within(mine.bounds)));
    if near.is_empty() {
        return;
    }
    let (d2, margin) = (distance * distance, Vec3A::splat(distance));
    for (m, &chunk) in mine.chunks.iter().enumerate() {
        if !boxes_near(chunk, others.bounds, distance) {
            continue;
        }
        facing.clear();
        let theirs = near.iter().map(|&o| (o as usize, &others.chunks[o as usize]));
        facing.extend(theirs.filter_map(within(chunk)));
        if facing.is_empty() {
            continue;
        }
        let first = m * CHUNK;
        let points = mine.at.get(first..(first + CHUNK).min(mine.at.len())).unwrap_or_default();
        for (k, &x) in points.iter().enumerate() {
            let mut kept = 0;
            for &o in facing.iter() {
                let (lo, hi) = others.chunks[o as usize];
                if !(x.cmpge(lo - margin).all() && x.cmple(hi + margin).all()) {
                    continue;
                }
                let start = o as usize * CHUNK;
                let theirs = others.at.get(start..(start + CHUNK).min(others.at.len()));
                let mut near = closer(x, theirs.unwrap_or_default(), d2);
                while near != 0 && kept < most {
                    found(first + k, start + near.trailing_zeros() as usize);
                    near &= near - 1;
                    kept += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points on two spheres of radius 1, centres `gap` + 2 apart on x, in no useful order.
    fn spheres(gap: f32) -> (Vec<Vec3A>, Vec<Vec3A>) {
        let sphere = |centre: Vec3A| -> Vec<Vec3A> {
            (0..600)
                .map(|k| {
                    let (a, b) = (k as f32 * 2.399_963, (k * 7919 % 600) as f32 / 600.0);
                    let z = 1.0 - 2.0 * b;
                    let r = (1.0 - z * z).max(0.0).sqrt();
                    centre + Vec3A::new(r * a.cos(), r * a.sin(), z)
                })
                .collect()
        };
        (sphere(Vec3A::ZERO), sphere(Vec3A::new(2.0 + gap, 0.3, 0.0)))
    }

    /// The points `at` in patch order, with their chunks' boxes and bounds.
    fn sorted(at: &[Vec3A]) -> (Vec<Vec3A>, Vec<Bounds>, Bounds) {
        let at: Vec<Vec3A> = patch_order(at).into_iter().map(|i| at[i]).collect();
        let mut chunks = Vec::new();
        chunk_boxes(&at, &mut chunks);
        let bounds = chunks.iter().fold(chunks[0], |(lo, hi), b| (lo.min(b.0), hi.max(b.1)));
        (at, chunks, bounds)
    }

    /// A side of the search over `sorted` points.
    fn side<'a>((at, chunks, bounds): &'a (Vec<Vec3A>, Vec<Bounds>, Bounds)) -> Side<'a> {
        Side { at, chunks, bounds: *bounds }
    }

    #[test]
    fn the_search_finds_exactly_the_pairs_a_brute_force_finds_in_point_order() {
        for gap in [-0.05, 0.0, 0.02, 0.3] {
            let (a, b) = spheres(gap);
            let (sa, sb) = (sorted(&a), sorted(&b));
            let (a, b) = (&sa.0, &sb.0);
            let distance = 0.08;
            let mut brute = Vec::new();
            for (p, x) in a.iter().enumerate() {
                for (q, y) in b.iter().enumerate() {
                    if x.distance(*y) < distance {
                        brute.push((p, q));
                    }
                }
            }
            let mut found = Vec::new();
            pairs(
                (side(&sa), side(&sb)),
                distance,
                usize::MAX,
                (&mut Vec::new(), &mut Vec::new()),
                |p, q| found.push((p, q)),
            );
            // At most one a point: each point's first, among those found.
            let mut first = Vec::new();
            pairs(
                (side(&sa), side(&sb)),
                distance,
                1,
                (&mut Vec::new(), &mut Vec::new()),
                |p, q| first.push((p, q)),
            );
            let mut firsts = found.clone();
            firsts.dedup_by_key(|pair| pair.0);
            assert_eq!(first, firsts, "gap {gap}");
            // The same pairs, p in order (q in chunk order within a p).
            assert!(found.windows(2).all(|w| w[0].0 <= w[1].0), "gap {gap}");
            let mut sorted_found = found.clone();
            sorted_found.sort_unstable();
            assert_eq!(sorted_found, brute, "gap {gap}");
            assert_eq!(found.is_empty(), gap > distance, "gap {gap}: {}", found.len());
        }
    }

    #[test]
    fn a_chunk_is_a_patch_and_points_that_are_not_finite_come_last() {
        let (a, _) = spheres(0.0);
        let (sorted_a, chunks, _) = sorted(&a);
        // A chunk of 32 of 600 points on a unit sphere (area 12.6 m²) covers about 0.67 m²,
        // a patch about 0.8 m across: its box is well under the sphere's 2 m.
        let widest = chunks.iter().map(|b| (b.1 - b.0).max_element()).fold(0.0, f32::max);
        assert!(widest < 1.2, "{widest}");
        assert_eq!(sorted_a.len(), a.len());
        let mut with_nan = a.clone();
        with_nan[3] = Vec3A::NAN;
        assert_eq!(patch_order(&with_nan).last(), Some(&3));
        let mut all: Vec<usize> = patch_order(&with_nan);
        all.sort_unstable();
        assert_eq!(all, (0..a.len()).collect::<Vec<_>>(), "each point once");
    }
}
