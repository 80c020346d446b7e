//! Ordering springs so that consecutive ones never share a node (greedy edge colouring).
//!
//! The solvers walk the springs in this order. Two springs that share no node can be worked on
//! at once: the CPU overlaps them instead of waiting for one's store to a node before the
//! next one's load from it, and threads can split a colour between them. Measured on the
//! 128 × 128 benchmark cloth, the order mattered more than SIMD.
//!
//! Greedy colouring visits the edges in order of their first node and gives each the smallest
//! colour that neither end already has. It uses at most 2Δ − 1 colours for maximum degree Δ
//! (each end blocks at most Δ − 1); a cloth node of degree 12 gets about 13–16. Colours are
//! tracked as 64-bit masks per node; an edge whose ends together already use all 64 colours
//! goes to a final batch that is walked sequentially.

use crate::model::Buckets;
use crate::sim::data::Batch;

/// Number of colours tracked per node.
const COLOURS: u32 = 64;

/// Returns the edges `(a[i], b[i])` as a permutation grouped by colour, and the batches of the
/// permutation. Within a colour, edges keep the order of their smaller end.
pub(crate) fn colour_edges(a: &[u32], b: &[u32], nodes: usize) -> (Vec<u32>, Vec<Batch>) {
    let pairs = || a.iter().zip(b).enumerate().map(|(e, (&x, &y))| (x.min(y), x.max(y), e as u32));
    let by_first: Vec<u32> =
        Buckets::new(nodes, pairs).iter().flat_map(|(_, bucket)| bucket).map(|&(_, e)| e).collect();
    let mut used = vec![0u64; nodes];
    let mut colour_of = vec![COLOURS; a.len()];
    let mut counts = [0usize; COLOURS as usize + 1];
    for &e in &by_first {
        let (x, y) = (a[e as usize] as usize, b[e as usize] as usize);
        let free = !(used[x] | used[y]);
        let c = if free == 0 {
            COLOURS
        } else {
            let c = free.trailing_zeros();
            used[x] |= 1 << c;
            used[y] |= 1 << c;
            c
        };
        colour_of[e as usize] = c;
        counts[c as usize] += 1;
    }
    let mut starts = [0usize; COLOURS as usize + 2];
    for c in 0..=COLOURS as usize {
        starts[c + 1] = starts[c] + counts[c];
    }
    let mut next = starts;
    let mut order = vec![0u32; a.len()];
    for &e in &by_first {
        let c = colour_of[e as usize] as usize;
        order[next[c]] = e;
        next[c] += 1;
    }
    let batches = (0..=COLOURS as usize)
        .filter(|&c| counts[c] > 0)
        .map(|c| Batch {
            range: starts[c]..starts[c + 1],
            independent: c < COLOURS as usize,
            banded: 0,
            striped: 0,
        })
        .collect();
    (order, batches)
}

/// The triangles `faces` reordered by greedy colour, so that triangles next to each other in
/// the new order share no node (except in the final run of triangles whose corners had used up
/// all 64 colours). The passes over faces (air, pressure) add into their corners' forces;
/// consecutive triangles of a mesh share two corners, and each addition would wait for the
/// last to be stored; reordered, they overlap. Within a colour, triangles keep their order.
pub(crate) fn colour_faces(faces: &[[crate::NodeId; 3]], nodes: usize) -> Vec<[crate::NodeId; 3]> {
    let mut used = vec![0u64; nodes];
    let mut colour_of = Vec::with_capacity(faces.len());
    for face in faces {
        let busy = face.iter().fold(0u64, |m, n| m | used.get(n.index()).copied().unwrap_or(!0));
        let c = if busy == !0 { COLOURS } else { (!busy).trailing_zeros() };
        if c < COLOURS {
            for n in face {
                used[n.index()] |= 1 << c;
            }
        }
        colour_of.push(c);
    }
    let mut order: Vec<usize> = (0..faces.len()).collect();
    order.sort_by_key(|&f| colour_of[f]);
    order.into_iter().map(|f| faces[f]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::data::share_no_node;
    use proptest::prelude::*;

    #[test]
    fn neighbouring_faces_share_no_node_after_colouring() {
        use crate::NodeId;
        // A strip of 10 triangles where each shares two corners with the next.
        let faces: Vec<[NodeId; 3]> = (0..10u32).map(|i| [i, i + 1, i + 2].map(NodeId)).collect();
        let coloured = colour_faces(&faces, 12);
        let mut sorted = coloured.clone();
        sorted.sort();
        assert_eq!(sorted, faces, "a permutation");
        let shares = |a: &[NodeId; 3], b: &[NodeId; 3]| a.iter().any(|n| b.contains(n));
        let touching = coloured.windows(2).filter(|w| shares(&w[0], &w[1])).count();
        assert!(touching <= 2, "only where one colour ends and the next begins: {touching}");
    }

    fn check(a: &[u32], b: &[u32], nodes: usize) {
        let (order, batches) = colour_edges(a, b, nodes);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..a.len() as u32).collect::<Vec<_>>(), "a permutation");
        let covered: usize = batches.iter().map(|b| b.range.len()).sum();
        assert_eq!(covered, a.len());
        let (sa, sb): (Vec<u32>, Vec<u32>) =
            order.iter().map(|&e| (a[e as usize], b[e as usize])).unzip();
        assert!(share_no_node(&sa, &sb, &batches, nodes), "a node twice in one colour");
    }

    #[test]
    fn a_path_needs_two_colours() {
        let a = [0, 1, 2, 3];
        let b = [1, 2, 3, 4];
        let (order, batches) = colour_edges(&a, &b, 5);
        assert_eq!(order, vec![0, 2, 1, 3]);
        assert_eq!(batches.len(), 2);
    }

    #[test]
    fn a_star_of_70_spills_into_the_sequential_batch() {
        let a = vec![0; 70];
        let b: Vec<u32> = (1..=70).collect();
        let (_, batches) = colour_edges(&a, &b, 71);
        assert_eq!(batches.len(), 65);
        let last = batches.last().expect("overflow batch");
        assert!(!last.independent);
        assert_eq!(last.range.len(), 6);
        check(&a, &b, 71);
    }

    proptest! {
        #[test]
        fn colours_never_share_a_node(edges in prop::collection::vec((0u32..40, 0u32..40), 0..300)) {
            let edges: Vec<_> = edges.into_iter().filter(|(x, y)| x != y).collect();
            let a: Vec<u32> = edges.iter().map(|e| e.0).collect();
            let b: Vec<u32> = edges.iter().map(|e| e.1).collect();
            check(&a, &b, 40);
        }
    }
}
