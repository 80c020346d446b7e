//! The order in which the factorization eliminates the free nodes: nested dissection by
//! position (George 1973; geometric bisection as in Miller, Teng, Thurston & Vavasis 1998),
//! and approximate minimum degree (Amestoy, Davis & Duff 1996).
//!
//! A Cholesky factor fills in wherever elimination joins a node's neighbours. Minimum degree
//! keeps a surface's fill small but not a solid's: a 50k-node solid sphere's factor has 686M
//! entries in its order and 271M in nested dissection's (the 70k-node one took 90 s to
//! factorize against 34 s), while a 50k-node surface has 72M against 87M. The modes take
//! whichever takes less work to factorize (the sum of its columns' squared lengths), and
//! leave a solid too large for either to LOBPCG. Both order nodes, not coordinates: every
//! spring couples its nodes' three coordinates alike, and minimum degree run on the
//! coordinates themselves is at the mercy of which entries happen to cancel (the solid's
//! factor: 4.7G entries when the lattice's symmetric springs cancel in its diagonal blocks).
//! Nested dissection cuts the nodes in two halves at the median of their longest extent,
//! takes out the nodes of one half that touch the other (a separator: no spring then joins
//! the halves), orders each half the same way, and the separator last. Elimination inside
//! one half then never reaches into the other, and fill is confined to the separators, of
//! about n^⅔ nodes each in a solid (n^½ on a surface): the factor costs O(n²) work in 3D
//! instead of the O(n^7/3) and worse of an order that lets fronts grow.

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::sparse::SymbolicSparseColMatRef;
use faer::sparse::linalg::amd;
use glam::DVec3;

/// Sets of at most this many nodes are not cut further: their fill is small anyway.
const LEAF: usize = 64;

/// An elimination order of `positions.len()` nodes (`order[k]` is the node eliminated k-th)
/// joined as `edges` says (pairs of node indices; either order, repeats allowed).
pub(super) fn nested_dissection(positions: &[DVec3], edges: &[(usize, usize)]) -> Vec<usize> {
    let n = positions.len();
    let (start, neighbours) = adjacency(n, edges);
    let mut dissection = Dissection {
        positions,
        start,
        neighbours,
        owner: vec![u32::MAX; n],
        call: 0,
        order: Vec::with_capacity(n),
    };
    let mut nodes: Vec<usize> = (0..n).collect();
    dissection.dissect(&mut nodes);
    dissection.order
}

/// An approximate minimum degree order of the `n` nodes of `graph` (faer's AMD); `None` if
/// it fails (indices overflow).
pub(super) fn minimum_degree(n: usize, graph: &NodeGraph) -> Option<Vec<usize>> {
    let nnz = graph.row_idx.len();
    let graph = SymbolicSparseColMatRef::new_checked(n, n, &graph.col_ptr, None, &graph.row_idx);
    let mut order = vec![0usize; n];
    let mut inverse = vec![0usize; n];
    let mut scratch = MemBuffer::try_new(amd::order_scratch::<usize>(n, nnz)).ok()?;
    let control = amd::Control::default();
    amd::order(&mut order, &mut inverse, graph, control, MemStack::new(&mut scratch)).ok()?;
    Some(order)
}

/// Which nodes a spring joins: the lower triangle of the nodes' adjacency matrix with its
/// diagonal, in compressed columns (rows ascending and unique per column).
pub(super) struct NodeGraph {
    pub col_ptr: Vec<usize>,
    pub row_idx: Vec<usize>,
}

impl NodeGraph {
    /// The graph of `n` nodes joined as `edges` says (pairs of node indices; either order,
    /// repeats allowed).
    pub fn of(n: usize, edges: &[(usize, usize)]) -> NodeGraph {
        let (start, neighbours) = adjacency(n, edges);
        let mut col_ptr = Vec::with_capacity(n + 1);
        let mut row_idx = Vec::with_capacity(n + neighbours.len() / 2);
        col_ptr.push(0);
        for j in 0..n {
            let first = row_idx.len();
            row_idx.push(j);
            row_idx.extend(neighbours[start[j]..start[j + 1]].iter().filter(|&&i| i > j));
            row_idx[first + 1..].sort_unstable();
            let mut kept = first + 1;
            for k in first + 1..row_idx.len() {
                if row_idx[k] != row_idx[kept - 1] {
                    row_idx[kept] = row_idx[k];
                    kept += 1;
                }
            }
            row_idx.truncate(kept);
            col_ptr.push(row_idx.len());
        }
        NodeGraph { col_ptr, row_idx }
    }
}

/// Compressed adjacency: node i's neighbours are `neighbours[start[i]..start[i + 1]]`.
fn adjacency(n: usize, edges: &[(usize, usize)]) -> (Vec<usize>, Vec<usize>) {
    let mut degree = vec![0usize; n + 1];
    for &(a, b) in edges {
        if a < n && b < n && a != b {
            degree[a + 1] += 1;
            degree[b + 1] += 1;
        }
    }
    for i in 0..n {
        degree[i + 1] += degree[i];
    }
    let start = degree;
    let mut fill = start.clone();
    let mut neighbours = vec![0; start[n]];
    for &(a, b) in edges {
        if a < n && b < n && a != b {
            neighbours[fill[a]] = b;
            fill[a] += 1;
            neighbours[fill[b]] = a;
            fill[b] += 1;
        }
    }
    (start, neighbours)
}

/// Splits `nodes` at the median of their longest extent: the first `middle` (returned,
/// half of them) lie below it along that axis, the rest above.
pub(super) fn halve(positions: &[DVec3], nodes: &mut [usize]) -> usize {
    let (min, max) = nodes
        .iter()
        .fold((DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)), |(lo, hi), &i| {
            (lo.min(positions[i]), hi.max(positions[i]))
        });
    let extent = max - min;
    let axis = if extent.x >= extent.y && extent.x >= extent.z {
        0
    } else if extent.y >= extent.z {
        1
    } else {
        2
    };
    let middle = nodes.len() / 2;
    let coordinate = |i: &usize| positions[*i][axis];
    nodes.select_nth_unstable_by(middle, |a, b| coordinate(a).total_cmp(&coordinate(b)));
    middle
}

struct Dissection<'a> {
    positions: &'a [DVec3],
    start: Vec<usize>,
    neighbours: Vec<usize>,
    /// The call that last put a node in its lower half (a stamp, so no clearing is needed).
    owner: Vec<u32>,
    call: u32,
    order: Vec<usize>,
}

impl Dissection<'_> {
    fn dissect(&mut self, nodes: &mut [usize]) {
        if nodes.len() <= LEAF {
            self.order.extend_from_slice(nodes);
            return;
        }
        let middle = halve(self.positions, nodes);
        self.call = self.call.wrapping_add(1);
        let (lower, upper) = nodes.split_at_mut(middle);
        for &i in lower.iter() {
            self.owner[i] = self.call;
        }
        // The upper half's nodes that touch the lower half, moved to its end.
        let mut kept = 0;
        for k in 0..upper.len() {
            let i = upper[k];
            let touches = self.neighbours[self.start[i]..self.start[i + 1]]
                .iter()
                .any(|&j| self.owner[j] == self.call);
            if !touches {
                upper.swap(kept, k);
                kept += 1;
            }
        }
        let (rest, separator) = upper.split_at_mut(kept);
        let separator = separator.to_vec();
        self.dissect(lower);
        self.dissect(rest);
        self.order.extend_from_slice(&separator);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // Test code.
    use super::*;

    #[test]
    fn a_chain_is_cut_in_the_middle_and_every_node_ordered_once() {
        // 200 nodes in a line: the first cut takes node 100 (the upper half's node that
        // touches the lower), eliminated last.
        let positions: Vec<DVec3> = (0..200).map(|i| DVec3::X * i as f64).collect();
        let edges: Vec<(usize, usize)> = (0..199).map(|i| (i, i + 1)).collect();
        let order = nested_dissection(&positions, &edges);
        assert_eq!(order.last(), Some(&100));
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..200).collect::<Vec<_>>());
    }

    #[test]
    fn minimum_degree_eliminates_a_shuffled_chain_without_fill() {
        // A chain numbered out of its order along the line (node i at place 37 i mod 101):
        // eliminating a node whose remaining neighbours are at most one joins nobody, and
        // a chain always has such a node (an end), so minimum degree fills nothing.
        let n = 101;
        let place: Vec<usize> = (0..n).map(|i| 37 * i % n).collect();
        let mut at = vec![0; n];
        for (node, &p) in place.iter().enumerate() {
            at[p] = node;
        }
        let edges: Vec<(usize, usize)> = (0..n - 1).map(|p| (at[p], at[p + 1])).collect();
        let order = minimum_degree(n, &NodeGraph::of(n, &edges)).unwrap();
        let mut eliminated = vec![false; n];
        for &node in &order {
            let p = place[node];
            let remaining = [p.checked_sub(1), (p + 1 < n).then_some(p + 1)]
                .into_iter()
                .flatten()
                .filter(|&q| !eliminated[at[q]])
                .count();
            assert!(remaining <= 1, "node {node} eliminated with {remaining} neighbours left");
            eliminated[node] = true;
        }
        assert!(eliminated.iter().all(|&e| e));
    }
}
