//! Which edges meet at each node: what a pass over the edges needs to look again only at the
//! edges around the nodes it moved ([`crate::sim::constraints::strain`]).

use crate::model::Buckets;

/// Each node's edges, in the order of the edge list.
#[derive(Clone, Debug)]
pub(crate) struct Incidence {
    /// Node k's bucket holds (edge, ()) for each edge that ends at k.
    rows: Buckets<()>,
    /// How many edges the list had and how many nodes: a pass over another list must not use
    /// these rows.
    listed: (usize, usize),
}

impl Default for Incidence {
    fn default() -> Incidence {
        Incidence::new(&[], 0)
    }
}

impl Incidence {
    /// The edges of `edges` (node pairs) at each of `nodes` nodes; an end outside `0..nodes`
    /// is left out.
    pub fn new(edges: &[[u32; 2]], nodes: usize) -> Incidence {
        let ends = || {
            let edges = edges.iter().zip(0u32..);
            edges.flat_map(|(ends, e)| ends.map(|k| (k, e, ())))
        };
        Incidence { rows: Buckets::in_order(nodes, ends), listed: (edges.len(), nodes) }
    }

    /// The edges at node `k` (none for a node outside the rows).
    pub fn of(&self, k: usize) -> impl Iterator<Item = u32> + '_ {
        let k = u32::try_from(k).unwrap_or(u32::MAX);
        self.rows.get(k).iter().map(|&(e, ())| e)
    }

    /// True when these rows are of a list of `edges` edges over `nodes` nodes.
    pub fn fits(&self, edges: usize, nodes: usize) -> bool {
        self.listed == (edges, nodes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_node_has_the_edges_that_end_at_it_in_list_order() {
        // Two triangles (0 1 2) and (1 3 2): five edges.
        let edges = [[0, 1], [1, 2], [2, 0], [1, 3], [3, 2]];
        let at = Incidence::new(&edges, 4);
        let of = |k: usize| at.of(k).collect::<Vec<u32>>();
        assert_eq!(of(0), [0, 2]);
        assert_eq!(of(1), [0, 1, 3]);
        assert_eq!(of(2), [1, 2, 4]);
        assert_eq!(of(3), [3, 4]);
        assert_eq!(of(4), Vec::<u32>::new());
        assert!(at.fits(5, 4) && !at.fits(4, 4) && !at.fits(5, 5));
        // An end past the nodes is left out, and the others kept.
        let at = Incidence::new(&[[0, 9], [0, 1]], 2);
        assert_eq!(at.of(0).collect::<Vec<u32>>(), [0, 1]);
        assert_eq!(at.of(1).collect::<Vec<u32>>(), [1]);
    }
}
