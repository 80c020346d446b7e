//! Colour batches: runs of springs in solver order that share no node
//! ([`crate::sim::coloring`] makes them).

use std::ops::Range;

/// A run of springs in solver order that share no node with each other (unless `independent`
/// is false: the overflow batch of springs at nodes with very many springs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Batch {
    /// Solver indices of the batch.
    pub range: Range<usize>,
    /// True when no two springs of the batch share a node.
    pub independent: bool,
    /// How many springs at the end of the batch are in bands
    /// ([`crate::sim::forces::bands`]): the explicit force pass takes them from there.
    pub banded: usize,
    /// How many of those, at the very end, are in long bands: Xpbd projects them in stripes.
    pub striped: usize,
}

impl Batch {
    /// The springs the explicit force pass takes from the batch (those not in bands).
    pub fn unbanded(&self) -> Range<usize> {
        self.range.start..self.range.end - self.banded
    }

    /// The springs Xpbd takes from the batch (those not in long bands).
    pub fn unstriped(&self) -> Range<usize> {
        self.range.start..self.range.end - self.striped
    }
}

/// True when no two springs `(a[i], b[i])` of an independent batch share a node (over `nodes`
/// nodes): what makes the batch kernels' unchecked, threaded writes sound.
pub(crate) fn share_no_node(a: &[u32], b: &[u32], batches: &[Batch], nodes: usize) -> bool {
    let mut seen_in = vec![usize::MAX; nodes];
    for (k, batch) in batches.iter().enumerate().filter(|(_, b)| b.independent) {
        for i in batch.range.clone() {
            for n in [a[i] as usize, b[i] as usize] {
                match seen_in.get_mut(n) {
                    Some(seen) if *seen != k => *seen = k,
                    _ => return false,
                }
            }
        }
    }
    true
}
