//! # Points sorted by cell: every pair closer than a distance, without testing all pairs
//!
//! Points sorted by cell (the sort-based neighbour search of particle codes: Green, "Particle
//! Simulation using CUDA", NVIDIA 2010; Hoetzlein, "Fast Fixed-Radius Nearest Neighbors",
//! GTC 2014): cubic cells of a chosen size s, each point given its cell's key (z, then y, then
//! x), and the points sorted by key. Every pair of points closer than s lies in the same or in
//! neighbouring rows (y, z), and within s of each other along x. Along x the cells are cut into
//! [`STEPS`] steps of s/[`STEPS`], and the key holds the step: a row's points are sorted by x
//! to a step, and those within s of a point's x lie in the steps from [`STEPS`] before its own
//! to [`STEPS`] after, one run of the sorted points. So the pairs of a point are found in five
//! runs: its own row's, from the next point up to [`STEPS`] steps after its own, and the rows
//! (y + 1, z), (y − 1, z + 1), (y, z + 1) and (y + 1, z + 1), from [`STEPS`] steps before its
//! own to [`STEPS`] after. Those are the rows after it of the 9 around, which finds each pair
//! of neighbouring rows once. Where each row's run begins only moves forward as the points are
//! taken in key order, so it is kept as a cursor: a query is a sort and one sweep, O(n log n +
//! pairs looked at).
//!
//! The runs along x span 2 s and a step where whole cells spanned 3 s: on the walker's cape
//! (`crates/convert/benches/frame.rs`) and the dancer's skirt, a frame took 0.93–0.97 times
//! the time with whole cells (the two run side by side on the two cores of the same machine,
//! 8 rounds), though a few more instructions (5.24 M against 5.19 M a frame for the cape):
//! fewer pairs looked at, fewer branches mispredicted at their ends. [`Grid::near`] keeps the
//! pairs within a distance without a branch on each.
//!
//! It replaced a spatial hash (Teschner et al., VMV 2003) that looked up 14 cells of hashed
//! buckets for each cell, most of them empty on a sheet: the humanoid figure's cape (266 balls,
//! 2,239 pairs looked at a query, 4.3 queries a frame) took 0.92 times the instructions a frame
//! with the sort (callgrind, 200 frames of its walk). The sort starts from the last build's
//! order, which the points mostly keep, and moves them by insertion while few move
//! ([`sort_nearly_sorted`]): a counting sort over the cells of the points' box instead took
//! more.
//!
//! Cells and steps are counted from the lowest point's and held to 2²¹ − 1 a side (keys of 21
//! bits an axis): points further apart than that many share the last ones, which only adds
//! pairs to look at, never loses one (a far point's cell moves no closer to another's). The
//! caller bounds what a point looks at.

use glam::Vec3A;

/// How much larger than asked the cells are, as a fraction: more than f32's rounding of a
/// distance.
const CELL_ROOM: f64 = 1e-5;

/// Bits of a cell's key per axis.
const BITS: u32 = 21;

/// The largest cell coordinate, one under the largest key of an axis, so that the cell after it
/// still has a key of its own row.
const MAX_CELL: i64 = (1 << BITS) - 2;

/// Steps a cell is cut into along x (module doc).
const STEPS: u64 = 8;

/// The largest step along x.
const MAX_STEP: u64 = (1 << BITS) - 1;

/// The largest step along x and the largest cells along y and z.
const LARGEST: [i64; 3] = [MAX_STEP as i64, MAX_CELL, MAX_CELL];

/// The rows looked in besides a point's own, as (y, z) offsets: those after it (module doc).
const ROWS: [(i64, i64); 4] = [(1, 0), (-1, 1), (0, 1), (1, 1)];

/// The points of one build, sorted by cell.
#[derive(Clone, Debug, Default)]
pub struct Grid {
    /// Each point's key (its step along x, its cells along y and z) and index, in key order
    /// (then index order).
    sorted: Vec<(u64, u32)>,
    /// The points' places in that order.
    places: Vec<Vec3A>,
    /// Scratch: the points' places and cells by index.
    by_index: Vec<Vec3A>,
    cells: Vec<[i64; 3]>,
}

/// The largest whole number not above `t`, saturated to i64's range (0 for NaN): `f64::floor`
/// without its call into the maths library on targets without a rounding instruction.
fn floor(t: f64) -> i64 {
    let i = t as i64;
    if i as f64 > t { i.saturating_sub(1) } else { i }
}

/// The step along x and the cells along y and z of key `key`.
fn key_cell(key: u64) -> [u64; 3] {
    let axis = (1 << BITS) - 1;
    [key & axis, (key >> BITS) & axis, key >> (2 * BITS)]
}

impl Grid {
    /// Puts the `n` points `at(0..n)` in cells of edge `size` (m, > 0).
    pub fn build(&mut self, n: usize, at: impl Fn(usize) -> Vec3A, size: f32) {
        self.by_index.clear();
        self.by_index.extend((0..n).map(at));
        self.cells.clear();
        // In f64 and a hair larger than asked, so that no rounding puts two points that f32
        // arithmetic finds within `size` of each other two cells apart. `as` saturates, and
        // takes NaN to 0.
        let size = f64::from(size) * (1.0 + CELL_ROOM);
        let scale = [STEPS as f64 / size, 1.0 / size, 1.0 / size];
        let cell = |x: Vec3A| std::array::from_fn(|k| floor(f64::from(x[k]) * scale[k]));
        self.cells.extend(self.by_index.iter().map(|&x| cell(x)));
        let lowest =
            self.cells.iter().fold([i64::MAX; 3], |lo, c| std::array::from_fn(|k| lo[k].min(c[k])));
        let key = |c: &[i64; 3]| {
            let [x, y, z] =
                std::array::from_fn(|k| c[k].saturating_sub(lowest[k]).clamp(0, LARGEST[k]) as u64);
            (z << (2 * BITS)) | (y << BITS) | x
        };
        // From the last build's order, which a query's points mostly keep ([`sort_nearly_sorted`]).
        if self.sorted.len() == n {
            for entry in &mut self.sorted {
                entry.0 = key(&self.cells[entry.1 as usize]);
            }
        } else {
            self.sorted.clear();
            self.sorted.extend(self.cells.iter().enumerate().map(|(i, c)| (key(c), i as u32)));
        }
        // Keys and indices together are a total order: the result is one, whatever the start.
        sort_nearly_sorted(&mut self.sorted);
        self.places.clear();
        self.places.extend(self.sorted.iter().map(|&(_, i)| self.by_index[i as usize]));
    }

    /// Calls `look(i, j, d²)` for every pair of points i, j in the same or in neighbouring cells
    /// and within a cell's size of each other along x (module doc), d apart, once a pair; the
    /// pairs of one point i come one after another, and `look` returning false passes on to
    /// the next point.
    pub fn pairs(&self, mut look: impl FnMut(usize, usize, f32) -> bool) {
        let (sorted, places) = (&self.sorted, &self.places);
        // Where each row's window begins: it only moves forward (module doc).
        let mut cursor = [0usize; ROWS.len()];
        'points: for (p, &(key, i)) in sorted.iter().enumerate() {
            let (i, x) = (i as usize, places[p]);
            let [step, y, _] = key_cell(key);
            let row = key - step;
            let (lowest, highest) = (step.saturating_sub(STEPS), (step + STEPS).min(MAX_STEP));
            // The points after it in its own row up to a cell's size along x, then the
            // windows of the rows after it. (One loop written twice: as a closure over the
            // windows, or over zipped slices, the cape's frame took 2-10% more instructions.)
            for (q, &(k, j)) in sorted.iter().enumerate().skip(p + 1) {
                if k > row + highest {
                    break;
                }
                if !look(i, j as usize, x.distance_squared(places[q])) {
                    continue 'points;
                }
            }
            for (&(dy, dz), from) in ROWS.iter().zip(&mut cursor) {
                if dy < 0 && y == 0 {
                    continue;
                }
                let other = row.wrapping_add_signed((dy << BITS) + (dz << (2 * BITS)));
                let (first, last) = (other + lowest, other + highest);
                while sorted.get(*from).is_some_and(|&(k, _)| k < first) {
                    *from += 1;
                }
                for (q, &(k, j)) in sorted.iter().enumerate().skip(*from) {
                    if k > last {
                        break;
                    }
                    if !look(i, j as usize, x.distance_squared(places[q])) {
                        continue 'points;
                    }
                }
            }
        }
    }

    /// Calls `visit(i, near)` for every point i with the points j of its pairs
    /// ([`Grid::pairs`]) that are less than √`within2` from it, and their squared distances:
    /// of the first `most` that it looks at. Which looked-at points are near is kept without a
    /// branch on each (to the branch predictor, a coin toss on a sheet), into `scratch`, which
    /// holds `most` entries: the caller's bound.
    pub fn near(
        &self,
        (within2, most): (f32, usize),
        scratch: &mut Vec<(u32, f32)>,
        mut visit: impl FnMut(usize, &[(u32, f32)]),
    ) {
        // Written before it is read: only its length matters.
        if scratch.len() < most {
            scratch.resize(most, (0, 0.0));
        }
        let (mut current, mut looked, mut found) = (usize::MAX, 0, 0);
        self.pairs(|i, j, d2| {
            if i != current {
                if found > 0 {
                    visit(current, &scratch[..found]);
                }
                (current, looked, found) = (i, 0, 0);
            }
            if looked == most {
                return false;
            }
            looked += 1;
            scratch[found] = (j as u32, d2);
            found += usize::from(d2 < within2);
            true
        });
        if found > 0 {
            visit(current, &scratch[..found]);
        }
    }
}

/// How many places a sort of nearly sorted items moves them, on average an item, before it
/// gives way to a full sort ([`sort_nearly_sorted`]): the humanoid figure's cape, whose
/// points cross into the next layer of cells by the dozen as it swings, took more
/// instructions a frame with 3 or 8 than with 32.
const NEARLY: usize = 32;

/// Sorts `items`, which mostly keep the last build's order (a point changes cells now and
/// then): an insertion sort, O(n + the places the items move), which gives way to a full
/// sort, O(n log n), once they have moved [`NEARLY`] places an item. With the standard
/// library's unstable sort instead, the humanoid figure's skirt took 1.4% more instructions
/// a frame, its cape 0.3% (its stable sort: 1.8% and 0.8%).
fn sort_nearly_sorted<T: Ord>(items: &mut [T]) {
    let (mut moved, budget) = (0, NEARLY.saturating_mul(items.len()));
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && items[j - 1] > items[j] {
            items.swap(j - 1, j);
            j -= 1;
        }
        moved += i - j;
        if moved > budget {
            items.sort_unstable();
            return;
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_is_the_maths_librarys_saturated() {
        let cases = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.999_999, -2.000_001, 1e30, -1e30];
        for t in cases.into_iter().chain([f64::INFINITY, f64::NEG_INFINITY, f64::MAX, f64::MIN]) {
            assert_eq!(floor(t), t.floor() as i64, "{t}");
        }
        assert_eq!(floor(f64::NAN), 0);
    }

    #[test]
    fn a_sort_of_nearly_sorted_items_sorts_any_order() {
        // Sorted but for one item moved far back (insertion), reversed (the full sort it
        // gives way to), and empty.
        let mut far: Vec<u32> = (0..100).collect();
        far[3] = 1000;
        let mut reversed: Vec<u32> = (0..1000).rev().collect();
        for items in [&mut far, &mut reversed, &mut Vec::new()] {
            let mut expected = items.clone();
            expected.sort();
            sort_nearly_sorted(items);
            assert_eq!(*items, expected);
        }
    }

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

    /// Builds `points` in cells of `size` and checks that every pair within `size` is looked
    /// at exactly once (counted pair by pair) with its distance; returns the pairs looked at.
    fn looked_at(grid: &mut Grid, points: &[Vec3A], size: f32) -> Vec<(usize, usize)> {
        grid.build(points.len(), |i| points[i], size);
        let mut seen = std::collections::HashMap::new();
        grid.pairs(|i, j, d2| {
            assert_eq!(d2, points[i].distance_squared(points[j]));
            *seen.entry((i.min(j), i.max(j))).or_insert(0) += 1;
            true
        });
        for i in 0..points.len() {
            for j in i + 1..points.len() {
                let found = seen.get(&(i, j)).copied().unwrap_or(0);
                assert!(found <= 1, "{i}, {j} looked at {found} times");
                assert!(found == 1 || points[i].distance(points[j]) >= size, "{i}, {j} not found");
            }
        }
        seen.into_keys().collect()
    }

    #[test]
    fn every_pair_closer_than_a_cell_is_found_once_and_none_from_beyond_the_cells_around() {
        // Points spread over a few cells, some on cell boundaries, and two 100 m off (a file's
        // stray nodes): no pair looked at is further apart than the diagonal of two cells.
        let mut points: Vec<Vec3A> = (0..500)
            .map(|k| Vec3A::new((k * 37 % 101) as f32, (k % 7) as f32, -(k as f32)) * 0.013)
            .collect();
        points.extend([Vec3A::splat(100.0), Vec3A::splat(-100.0), Vec3A::new(0.05, 0.0, -0.05)]);
        let (size, mut grid) = (0.05, Grid::default());
        for _ in 0..2 {
            let looked = looked_at(&mut grid, &points, size);
            let diagonal = 2.0 * 3f32.sqrt() * size * 1.0001;
            assert!(looked.iter().all(|&(i, j)| points[i].distance(points[j]) < diagonal));
            // Moved a little: built again from the last build's order.
            points.iter_mut().for_each(|p| *p += Vec3A::new(0.011, -0.007, 0.003));
        }
        // Points further apart than the keys reach still find every pair.
        points.extend([Vec3A::splat(1e30), Vec3A::splat(-1e30)]);
        looked_at(&mut grid, &points, size);
    }

    #[test]
    fn near_gives_each_point_the_points_within_the_distance_of_those_it_looks_at() {
        // Ten points 0.1 m apart along x, in cells of 0.25 m: within 0.15 m of each, the next
        // one, with its squared distance; looking at none, none.
        let points: Vec<Vec3A> = (0..10).map(|k| Vec3A::X * (0.1 * k as f32)).collect();
        let mut grid = Grid::default();
        grid.build(points.len(), |i| points[i], 0.25);
        for (most, expected) in [(1024, 9), (0, 0)] {
            let mut found = Vec::new();
            grid.near((0.15 * 0.15, most), &mut Vec::new(), |i, near| {
                found.extend(near.iter().map(|&(j, d2)| (i, j as usize, d2)));
            });
            found.sort_by_key(|&(i, j, _)| (i, j));
            let next = (0..expected).map(|k| (k, k + 1, points[k].distance_squared(points[k + 1])));
            assert_eq!(found, next.collect::<Vec<_>>());
        }
    }

    #[test]
    fn near_keeps_what_pairs_looks_at_within_the_distance_in_its_order_up_to_the_most() {
        // A cloud over a few cells, windows of many points among them: near's points for each
        // point are pairs' within the distance, in pairs' order, of the first `most` looked at.
        let points: Vec<Vec3A> = (0..400)
            .map(|k| Vec3A::new((k * 37 % 101) as f32, (k % 7) as f32, (k % 5) as f32) * 0.01)
            .collect();
        let mut grid = Grid::default();
        grid.build(points.len(), |i| points[i], 0.05);
        let within2 = 0.045 * 0.045;
        for most in [1024, 5, 1] {
            let mut expected = Vec::new();
            let (mut current, mut looked) = (usize::MAX, 0);
            grid.pairs(|i, j, d2| {
                (current, looked) = if i == current { (i, looked + 1) } else { (i, 1) };
                if looked <= most && d2 < within2 {
                    expected.push((i, j as u32, d2));
                }
                looked < most
            });
            let mut found = Vec::new();
            grid.near((within2, most), &mut Vec::new(), |i, near| {
                found.extend(near.iter().map(|&(j, d2)| (i, j, d2)));
            });
            assert!(expected.len() > 100, "{}", expected.len());
            assert_eq!(found, expected, "most {most}");
        }
    }

    #[test]
    fn a_point_whose_look_says_stop_is_left_for_the_next() {
        // Five points in one cell: stopping after the first pair of each point looks at one
        // pair for each of the first four points.
        let points = [Vec3A::ZERO; 5];
        let mut grid = Grid::default();
        grid.build(5, |i| points[i], 1.0);
        let mut looked = Vec::new();
        grid.pairs(|i, j, _| {
            looked.push((i, j));
            false
        });
        assert_eq!(looked, [(0, 1), (1, 2), (2, 3), (3, 4)]);
    }
}
