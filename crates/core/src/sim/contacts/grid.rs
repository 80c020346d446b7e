//! A spatial hash of points (Teschner, Heidelberger, Müller, Pomeranets & Gross, "Optimized
//! Spatial Hashing for Collision Detection of Deformable Objects", VMV 2003): cubic cells of a
//! chosen size, each point in the bucket of its cell, the buckets a power of two at least
//! twice the points (so that few cells share one), filled by a counting sort into one flat
//! array. Looking up a cell visits its bucket and keeps the points whose cell it is, so two
//! cells that share a bucket never mix. Every pair of points closer than the cell size lies in
//! the same or in neighbouring cells: the self-collision finds its pairs so.

use glam::Vec3A;

/// The points of one build, by cell.
#[derive(Clone, Debug, Default)]
pub(crate) struct Grid {
    /// Each point's cell.
    cell: Vec<[i32; 3]>,
    /// Per bucket, where its points begin in `entries` (one more than the buckets).
    start: Vec<u32>,
    /// The points, bucket by bucket, in index order within a bucket.
    entries: Vec<u32>,
}

impl Grid {
    /// Puts the `n` points `at(0..n)` in cells of edge `size` (m, > 0).
    pub fn build(&mut self, n: usize, at: impl Fn(usize) -> Vec3A, size: f32) {
        let buckets = (2 * n).next_power_of_two();
        self.cell.clear();
        self.cell.extend((0..n).map(|i| cell_of(at(i), size)));
        let cell = &self.cell;
        let by_bucket = |i: usize| bucket(cell[i], buckets);
        counting_sort(n, (by_bucket, buckets), |i| i as u32, (&mut self.start, &mut self.entries));
    }

    /// The cell of point `i` of the build.
    pub fn cell(&self, i: usize) -> [i32; 3] {
        self.cell[i]
    }

    /// The points in cell `c`, in index order.
    pub fn points_in(&self, c: [i32; 3]) -> impl Iterator<Item = usize> + '_ {
        let buckets = self.start.len().saturating_sub(1);
        let range = if buckets == 0 {
            0..0
        } else {
            let b = bucket(c, buckets);
            self.start[b] as usize..self.start[b + 1] as usize
        };
        self.entries[range].iter().map(|&j| j as usize).filter(move |&j| self.cell[j] == c)
    }
}

/// Items `item(0..n)` in the order of their keys `key(i)` (each below `keys`), in the order
/// of i among equal keys, into `out`, with `start[k]` where key k's items begin (`keys` + 1
/// entries, the last n): a counting sort, O(n + keys).
pub(crate) fn counting_sort<T: Copy + Default>(
    n: usize,
    (key, keys): (impl Fn(usize) -> usize, usize),
    item: impl Fn(usize) -> T,
    (start, out): (&mut Vec<u32>, &mut Vec<T>),
) {
    start.clear();
    start.resize(keys + 1, 0);
    for i in 0..n {
        start[key(i) + 1] += 1;
    }
    for k in 0..keys {
        start[k + 1] += start[k];
    }
    out.clear();
    out.resize(n, T::default());
    // Each key's items are placed at its start, which then moves on to the next key's start;
    // shifted back by one key after, the starts are where they were.
    for i in 0..n {
        let k = key(i);
        out[start[k] as usize] = item(i);
        start[k] += 1;
    }
    start.copy_within(0..keys, 1);
    start[0] = 0;
}

/// The cell `c` moved by `d` cells (saturating far from the origin).
pub(crate) fn offset(c: [i32; 3], d: [i32; 3]) -> [i32; 3] {
    [c[0].saturating_add(d[0]), c[1].saturating_add(d[1]), c[2].saturating_add(d[2])]
}

/// The 27 cells around a cell as offsets, ordered by z, then y, then x: the cell itself is the
/// 14th (index 13), and the 13 after it are those a pair of neighbouring cells is looked at
/// from once ([`FORWARD`]).
pub(crate) const AROUND: [[i32; 3]; 27] = {
    let mut all = [[0; 3]; 27];
    let mut n = 0;
    while n < 27 {
        all[n as usize] = [n % 3 - 1, (n / 3) % 3 - 1, n / 9 - 1];
        n += 1;
    }
    all
};

/// A cell and the 13 of the 26 around it that come after it: with the 13 before it, whose
/// own lists hold it, all 27.
pub(crate) const FORWARD: &[[i32; 3]] = AROUND.as_slice().split_at(13).1;

/// The cell of edge `size` holding `x` (coordinates saturate far from the origin).
fn cell_of(x: Vec3A, size: f32) -> [i32; 3] {
    let c = (x / size).floor();
    [c.x as i32, c.y as i32, c.z as i32]
}

/// The bucket of cell `c` among `buckets`, a power of two (Teschner et al.'s three large
/// primes).
fn bucket(c: [i32; 3], buckets: usize) -> usize {
    let h = (c[0].wrapping_mul(73_856_093))
        ^ (c[1].wrapping_mul(19_349_663))
        ^ (c[2].wrapping_mul(83_492_791));
    h as u32 as usize & (buckets - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counting_sort_keeps_the_order_of_equal_keys_and_says_where_each_key_begins() {
        // Keys 2, 0, 3, 0, 2, 1 of items 0..6: key 0 holds items 1 and 3, key 1 item 5, key 2
        // items 0 and 4, key 3 item 2.
        let keys = [2, 0, 3, 0, 2, 1];
        let (mut start, mut out) = (vec![7; 2], vec![9u32; 10]);
        counting_sort(6, (|i| keys[i], 4), |i| i as u32, (&mut start, &mut out));
        assert_eq!(out, [1, 3, 5, 0, 4, 2]);
        assert_eq!(start, [0, 2, 3, 5, 6]);
    }

    #[test]
    fn every_point_is_found_in_its_cell_once_and_only_there() {
        let points: Vec<Vec3A> = (0..500)
            .map(|k| Vec3A::new((k * 37 % 101) as f32, (k % 7) as f32, -(k as f32)) * 0.013)
            .collect();
        let mut grid = Grid::default();
        grid.build(points.len(), |i| points[i], 0.05);
        for (i, &p) in points.iter().enumerate() {
            let c = cell_of(p, 0.05);
            assert_eq!(grid.cell(i), c);
            assert_eq!(grid.points_in(c).filter(|&j| j == i).count(), 1);
            for d in AROUND.iter().filter(|&&d| d != [0, 0, 0]) {
                assert!(grid.points_in(offset(c, *d)).all(|j| j != i));
            }
        }
        assert_eq!(FORWARD[0], [0, 0, 0]);
        assert_eq!(FORWARD.len(), 14);
    }
}
