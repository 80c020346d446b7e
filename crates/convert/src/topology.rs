//! # Topology: the edges of the triangles, and which triangles share each
//!
//! Every triangle (a, b, c) contributes its three edges, each with the corner opposite it:
//! (ab, c), (bc, a), (ca, b). Grouped by edge, the count of an edge's entries says what it is:
//! 1 a boundary edge, 2 an ordinary (manifold) edge, 3 or more a non-manifold edge (a fin, or
//! surfaces glued along a line).
//!
//! Grouping uses [`ByFirst`]: pairs bucketed by their smaller node with a counting sort, then
//! each small bucket sorted. That is linear in the number of pairs (a mesh node has about six
//! edges), where sorting all pairs is O(m log m); on a million triangles the difference is most
//! of a second.

/// The unordered pair (smaller, larger).
#[inline]
pub fn pair(a: u32, b: u32) -> (u32, u32) {
    if a <= b { (a, b) } else { (b, a) }
}

/// A pair as one sortable key (smaller node in the high half).
#[inline]
pub fn key(a: u32, b: u32) -> u64 {
    let (lo, hi) = pair(a, b);
    (u64::from(lo) << 32) | u64::from(hi)
}

/// The pair of a key.
#[inline]
pub fn unkey(k: u64) -> (u32, u32) {
    ((k >> 32) as u32, k as u32)
}

/// Pairs of nodes, each with a value, grouped by the pair's smaller node and sorted within a
/// group by (larger node, value): the entries of one pair are adjacent, and pairs come out in
/// key order.
pub struct ByFirst<T> {
    /// `entries[offsets[a]..offsets[a + 1]]` are the pairs whose smaller node is `a`.
    offsets: Vec<u32>,
    /// (larger node, value).
    entries: Vec<(u32, T)>,
}

impl<T: Copy + Ord + Default> ByFirst<T> {
    /// Groups `pairs` (node, node, value) over nodes `0..nodes`; `pairs` is walked twice.
    pub fn new<I>(nodes: usize, pairs: impl Fn() -> I) -> ByFirst<T>
    where
        I: Iterator<Item = (u32, u32, T)>,
    {
        let mut offsets = vec![0u32; nodes + 1];
        for (a, b, _) in pairs() {
            offsets[a.min(b) as usize + 1] += 1;
        }
        for i in 0..nodes {
            offsets[i + 1] += offsets[i];
        }
        let mut next = offsets.clone();
        let mut entries = vec![(0, T::default()); offsets[nodes] as usize];
        for (a, b, value) in pairs() {
            let (lo, hi) = pair(a, b);
            let slot = &mut next[lo as usize];
            entries[*slot as usize] = (hi, value);
            *slot += 1;
        }
        for w in offsets.windows(2) {
            entries[w[0] as usize..w[1] as usize].sort_unstable();
        }
        ByFirst { offsets, entries }
    }

    /// The (larger node, value) entries of the pairs whose smaller node is `a`.
    pub fn group(&self, a: u32) -> &[(u32, T)] {
        let a = a as usize;
        match (self.offsets.get(a), self.offsets.get(a + 1)) {
            (Some(&s), Some(&e)) => &self.entries[s as usize..e as usize],
            _ => &[],
        }
    }

    /// True when the pair (a, b) is present.
    pub fn contains(&self, a: u32, b: u32) -> bool {
        let (lo, hi) = pair(a, b);
        self.group(lo).binary_search_by_key(&hi, |e| e.0).is_ok()
    }

    /// Each distinct pair, in key order, with the values of its entries.
    pub fn pairs(
        &self,
    ) -> impl Iterator<Item = (u64, impl ExactSizeIterator<Item = T> + Clone + '_)> + '_ {
        self.offsets.windows(2).enumerate().flat_map(move |(a, w)| {
            self.entries[w[0] as usize..w[1] as usize]
                .chunk_by(|x, y| x.0 == y.0)
                .map(move |run| (key(a as u32, run[0].0), run.iter().map(|e| e.1)))
        })
    }
}

/// The edges of `triangles` (node indices over `nodes` nodes), each with the corners opposite it.
pub fn edge_table(nodes: usize, triangles: &[[u32; 3]]) -> ByFirst<u32> {
    ByFirst::new(nodes, || {
        triangles.iter().flat_map(|&[a, b, c]| [(a, b, c), (b, c, a), (c, a, b)])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_triangles_share_one_edge() {
        let table = edge_table(4, &[[0, 1, 2], [2, 1, 3]]);
        let edges: Vec<(u64, Vec<u32>)> = table.pairs().map(|(k, o)| (k, o.collect())).collect();
        assert_eq!(edges.len(), 5);
        assert!(edges.windows(2).all(|w| w[0].0 < w[1].0), "in key order");
        let shared: Vec<_> = edges.iter().filter(|(_, o)| o.len() == 2).collect();
        assert_eq!(shared.len(), 1);
        assert_eq!(unkey(shared[0].0), (1, 2));
        assert_eq!(shared[0].1, vec![0, 3]);
        assert!(table.contains(2, 1) && table.contains(3, 2) && !table.contains(0, 3));
    }
}
