//! Pairs of nodes grouped by their first node in linear time.
//!
//! A counting sort buckets the pairs by their first node, then each bucket (a node's few
//! neighbours) is sorted on its own: linear in the number of pairs, where sorting all of them
//! is O(m log m). Finding repeated springs and the open edges of a surface both need it; on the
//! 2.6-million-spring model of a detailed scan it is most of the difference between loading in
//! a second and in a fraction of one.

/// `(second node, value)` entries bucketed by first node, each bucket sorted. Also used by the
/// converter to find edges, bend pairs and joined pairs.
#[derive(Clone, Debug)]
pub struct Buckets<T> {
    start: Vec<usize>,
    entries: Vec<(u32, T)>,
}

impl<T: Copy + Ord + Default> Buckets<T> {
    /// Groups `pairs()` (first node, second node, value) over nodes `0..nodes`, each bucket
    /// sorted; a pair naming a node past `nodes` is left out. `pairs` is walked twice.
    pub fn new<I>(nodes: usize, pairs: impl Fn() -> I) -> Buckets<T>
    where
        I: Iterator<Item = (u32, u32, T)>,
    {
        let mut grouped = Buckets::in_order(nodes, pairs);
        for w in grouped.start.windows(2) {
            grouped.entries[w[0]..w[1]].sort_unstable();
        }
        grouped
    }
}

impl<T: Copy + Default> Buckets<T> {
    /// As [`Buckets::new`], but each bucket keeps the order in which `pairs()` gave its
    /// entries (no sorting, and no order needed of the values: for callers that only look for
    /// repeats within a bucket, or walk a node's neighbours).
    pub fn in_order<I>(nodes: usize, pairs: impl Fn() -> I) -> Buckets<T>
    where
        I: Iterator<Item = (u32, u32, T)>,
    {
        let mut start = vec![0usize; nodes + 1];
        for (a, _, _) in pairs() {
            if let Some(count) = start.get_mut(a as usize + 1) {
                *count += 1;
            }
        }
        for i in 0..nodes {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut entries = vec![(0, T::default()); start[nodes]];
        for (a, b, value) in pairs() {
            if let Some(slot) = next.get_mut(a as usize).filter(|_| (a as usize) < nodes) {
                entries[*slot] = (b, value);
                *slot += 1;
            }
        }
        Buckets { start, entries }
    }

    /// Each node's bucket, in node order: (first node, its entries).
    pub fn iter(&self) -> impl Iterator<Item = (u32, &[(u32, T)])> + '_ {
        self.start.windows(2).enumerate().map(|(a, w)| (a as u32, &self.entries[w[0]..w[1]]))
    }

    /// Node `a`'s entries (none for a node past the end).
    pub fn get(&self, a: u32) -> &[(u32, T)] {
        let a = a as usize;
        match (self.start.get(a), self.start.get(a + 1)) {
            (Some(&s), Some(&e)) => &self.entries[s..e],
            _ => &[],
        }
    }
}
