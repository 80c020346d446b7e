//! Which edges meet at each node: what a pass over the edges needs to look again only at the
//! edges around the nodes it moved ([`crate::sim::constraints::strain`]).

/// Each node's edges, in the order of the edge list (compressed rows: node k's are
/// `edges[start[k]..start[k + 1]]`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Incidence {
    start: Vec<u32>,
    edges: Vec<u32>,
    /// How many edges the list had: a pass over another list must not use these rows.
    listed: usize,
}

impl Incidence {
    /// The edges of `edges` (node pairs) at each of `nodes` nodes; an end outside `0..nodes`
    /// is left out.
    pub fn new(edges: &[[u32; 2]], nodes: usize) -> Incidence {
        let mut start = vec![0u32; nodes + 1];
        let ends = || edges.iter().enumerate().flat_map(|(e, ends)| ends.map(|k| (e, k as usize)));
        for (_, k) in ends() {
            if let Some(count) = start.get_mut(k + 1).filter(|_| k < nodes) {
                *count += 1;
            }
        }
        for k in 1..start.len() {
            start[k] += start[k - 1];
        }
        let mut next = start.clone();
        let mut around = vec![0u32; start.last().map_or(0, |&n| n as usize)];
        for (e, k) in ends() {
            if let Some(at) = next.get_mut(k).filter(|_| k < nodes) {
                around[*at as usize] = e as u32;
                *at += 1;
            }
        }
        Incidence { start, edges: around, listed: edges.len() }
    }

    /// The edges at node `k` (none for a node outside the rows).
    pub fn of(&self, k: usize) -> &[u32] {
        let range = self.start.get(k).zip(self.start.get(k + 1));
        range.and_then(|(&a, &b)| self.edges.get(a as usize..b as usize)).unwrap_or(&[])
    }

    /// True when these rows are of a list of `edges` edges over `nodes` nodes.
    pub fn fits(&self, edges: usize, nodes: usize) -> bool {
        self.listed == edges && self.start.len() == nodes + 1
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
        assert_eq!(at.of(0), &[0, 2]);
        assert_eq!(at.of(1), &[0, 1, 3]);
        assert_eq!(at.of(2), &[1, 2, 4]);
        assert_eq!(at.of(3), &[3, 4]);
        assert_eq!(at.of(4), &[] as &[u32]);
        assert!(at.fits(5, 4) && !at.fits(4, 4) && !at.fits(5, 5));
        // An end past the nodes is left out, and the others kept.
        let at = Incidence::new(&[[0, 9], [0, 1]], 2);
        assert_eq!((at.of(0), at.of(1)), (&[0, 1][..], &[1][..]));
    }
}
