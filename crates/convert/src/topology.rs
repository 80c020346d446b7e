//! # Topology: the edges of the triangles, and which triangles share each
//!
//! Every triangle (a, b, c) contributes its three edges, each with the corner opposite it:
//! (ab, c), (bc, a), (ca, b). Grouped by edge, the count of an edge's entries says what it is:
//! 1 a boundary edge, 2 an ordinary (manifold) edge, 3 or more a non-manifold edge (a fin, or
//! surfaces glued along a line).
//!
//! Grouping uses [`ByFirst`]: pairs bucketed by their smaller node with a counting sort, then
//! each small bucket sorted (core's [`Buckets`]). That is linear in the number of pairs (a mesh node has about six
//! edges), where sorting all pairs is O(m log m); on a million triangles the difference is most
//! of a second.

use springmesh_core::model::Buckets;

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
/// key order. (Core's [`Buckets`] with each pair put smaller node first.)
pub struct ByFirst<T> {
    buckets: Buckets<T>,
}

impl<T: Copy + Ord + Default> ByFirst<T> {
    /// Groups `pairs` (node, node, value) over nodes `0..nodes`; `pairs` is walked twice.
    pub fn new<I>(nodes: usize, pairs: impl Fn() -> I) -> ByFirst<T>
    where
        I: Iterator<Item = (u32, u32, T)>,
    {
        let ordered = || {
            pairs().map(|(a, b, value)| {
                let (lo, hi) = pair(a, b);
                (lo, hi, value)
            })
        };
        ByFirst { buckets: Buckets::new(nodes, ordered) }
    }

    /// The (larger node, value) entries of the pairs whose smaller node is `a`.
    pub fn group(&self, a: u32) -> &[(u32, T)] {
        self.buckets.get(a)
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
        self.buckets.iter().flat_map(move |(a, bucket)| {
            bucket
                .chunk_by(|x, y| x.0 == y.0)
                .map(move |run| (key(a, run[0].0), run.iter().map(|e| e.1)))
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
