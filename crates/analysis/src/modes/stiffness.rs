//! The springs' stiffness matrix K (the parent module's docs give the 3 × 3 block of one
//! spring), assembled straight into compressed columns of its lower triangle.
//!
//! Each spring adds a block to its two nodes' diagonal blocks and one below the diagonal
//! between them, so K is assembled node by node: the blocks gathered per column node
//! (a counting sort), each column's few blocks sorted by row node and summed, then written
//! out coordinate by coordinate. That is linear in the springs, where sorting their scalar
//! entries as triplets (21 per spring) took 0.4 s for a 50k-node surface.

use super::STRETCH_ROUND_OFF;
use springmesh_core::SpringModel;

/// A 3 × 3 block, `block[row][column]`.
pub(super) type Block = [[f64; 3]; 3];

/// K's 3 × 3 node blocks on and below the diagonal, by column node: node j's column holds
/// `(row node, block)` for `entries[start[j]..start[j + 1]]`, rows ascending, the first j
/// itself (present for every node, zero where no spring reaches it).
pub(super) struct NodeBlocks {
    pub start: Vec<usize>,
    pub entries: Vec<(usize, Block)>,
}

impl NodeBlocks {
    /// How many free nodes there are.
    pub fn nodes(&self) -> usize {
        self.start.len() - 1
    }

    /// Node j's column: its diagonal block first, then the blocks below it.
    pub fn column(&self, j: usize) -> &[(usize, Block)] {
        &self.entries[self.start[j]..self.start[j + 1]]
    }
}

/// K's entries on and below the diagonal over the free coordinates, in compressed columns:
/// column k's rows (ascending) are `row_idx[col_ptr[k]..col_ptr[k + 1]]`, the first of them
/// k itself, present for every coordinate (zero where no spring reaches it).
pub(super) struct Stiffness {
    pub col_ptr: Vec<usize>,
    pub row_idx: Vec<usize>,
    pub values: Vec<f64>,
}

impl Stiffness {
    /// The blocks written out coordinate by coordinate.
    pub fn of(blocks: &NodeBlocks) -> Stiffness {
        let free = blocks.nodes();
        let mut stiffness = Stiffness {
            col_ptr: Vec::with_capacity(3 * free + 1),
            row_idx: Vec::new(),
            values: Vec::new(),
        };
        stiffness.col_ptr.push(0);
        for j in 0..free {
            for c in 0..3 {
                for &(row_node, block) in blocks.column(j) {
                    // The diagonal block's upper part is left out. Zeros are kept: a node's
                    // three columns then share one pattern and the factorization treats them
                    // as one dense column of three (a flat sheet's out-of-plane coordinates,
                    // all zero but the diagonal, otherwise split every supernode: a 50k-node
                    // cloth factorized in 11.6 s instead of 1.5 s).
                    let rows = if row_node == j { c..3 } else { 0..3 };
                    for r in rows {
                        stiffness.row_idx.push(3 * row_node + r);
                        stiffness.values.push(block[r][c]);
                    }
                }
                stiffness.col_ptr.push(stiffness.row_idx.len());
            }
        }
        stiffness
    }

    /// Adds `shift[k]` to each coordinate k's diagonal entry.
    pub fn add_to_diagonal(&mut self, shift: impl Iterator<Item = f64>) {
        for (start, s) in self.col_ptr.iter().zip(shift) {
            self.values[*start] += s;
        }
    }
}

/// K's node blocks at the rest positions of `model`'s springs over the `free` nodes
/// (`free_index[i]`: node i's first coordinate, `usize::MAX` if anchored; `free` nodes in
/// all).
pub(super) fn spring_blocks(model: &SpringModel, free_index: &[usize], free: usize) -> NodeBlocks {
    let positions = model.nodes.positions();
    let mut diagonal: Vec<Block> = vec![[[0.0; 3]; 3]; free];
    // (column node, row node, block) below the diagonal, the row node the larger.
    let mut below: Vec<(usize, usize, Block)> = Vec::new();
    for s in model.springs.iter() {
        let (a, b) = (s.a.index(), s.b.index());
        let (Some(&pa), Some(&pb)) = (positions.get(a), positions.get(b)) else { continue };
        let (Some(&ia), Some(&ib)) = (free_index.get(a), free_index.get(b)) else { continue };
        let Some(block) = spring_block(pa.as_dvec3(), pb.as_dvec3(), s.rest_length, s.stiffness)
        else {
            continue;
        };
        let (free_a, free_b) = (ia != usize::MAX, ib != usize::MAX);
        for (i, is_free) in [(ia, free_a), (ib, free_b)] {
            if let Some(d) = diagonal.get_mut(i / 3).filter(|_| is_free) {
                add(d, &block, 1.0);
            }
        }
        let (na, nb) = (ia / 3, ib / 3);
        if free_a && free_b && na != nb {
            below.push((na.min(nb), na.max(nb), block.map(|row| row.map(|v| -v))));
        }
    }
    // Counting sort by column node.
    let mut start = vec![0usize; free + 1];
    for &(column, ..) in &below {
        start[column + 1] += 1;
    }
    for j in 0..free {
        start[j + 1] += start[j];
    }
    let mut next = start.clone();
    let mut sorted = vec![(0usize, [[0.0; 3]; 3]); below.len()];
    for (column, row, block) in below {
        sorted[next[column]] = (row, block);
        next[column] += 1;
    }
    let mut blocks = NodeBlocks { start: Vec::with_capacity(free + 1), entries: Vec::new() };
    blocks.start.push(0);
    for j in 0..free {
        let column = &mut sorted[start[j]..start[j + 1]];
        column.sort_unstable_by_key(|&(row, _)| row);
        blocks.entries.push((j, diagonal[j]));
        for &(row, block) in column.iter() {
            match blocks.entries.last_mut() {
                Some((last, sum)) if *last == row => add(sum, &block, 1.0),
                _ => blocks.entries.push((row, block)),
            }
        }
        blocks.start.push(blocks.entries.len());
    }
    blocks
}

/// One spring's block B = k [n nᵀ + t (I − n nᵀ)] between nodes at `pa` and `pb` (parent
/// module docs), t its stretch 1 − L/ℓ when above [`STRETCH_ROUND_OFF`] (else no tension);
/// `None` for a spring of no length.
fn spring_block(pa: glam::DVec3, pb: glam::DVec3, rest_length: f32, k: f32) -> Option<Block> {
    let d = pb - pa;
    let length = d.length();
    if length.is_nan() || length <= 0.0 {
        return None;
    }
    let n = d / length;
    let stretch = 1.0 - f64::from(rest_length) / length;
    let tension = if stretch > STRETCH_ROUND_OFF { stretch } else { 0.0 };
    let k = f64::from(k);
    let mut block = [[0.0; 3]; 3];
    for (r, row) in block.iter_mut().enumerate() {
        for (c, v) in row.iter_mut().enumerate() {
            let outer = n[r] * n[c];
            let identity = if r == c { 1.0 } else { 0.0 };
            *v = k * (outer + tension * (identity - outer));
        }
    }
    Some(block)
}

/// `sum += sign · block`.
fn add(sum: &mut Block, block: &Block, sign: f64) {
    for (s, b) in sum.iter_mut().zip(block) {
        for (s, b) in s.iter_mut().zip(b) {
            *s += sign * b;
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // Test code.
    use super::*;
    use glam::Vec3;
    use springmesh_core::{Node, NodeId, Spring, SpringKind};

    #[test]
    fn two_springs_along_x_and_y_give_the_entries_worked_out_by_hand() {
        // Nodes 0 (anchored), 1 at x = 1 and 2 at (1, 1); springs 0–1 (k = 10) along x
        // and 1–2 (k = 20) along y, at rest. Free coordinates: node 1's 0..3, node 2's 3..6.
        // K_11 = diag(10, 20, 0), K_22 = diag(0, 20, 0), K_21 = diag(0, −20, 0).
        let mut model = SpringModel::default();
        for p in [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0)] {
            model.nodes.push(Node { position: p, mass: 1.0 });
        }
        model.springs.push(Spring::new(NodeId(0), NodeId(1), 1.0, 10.0, SpringKind::Stretch));
        model.springs.push(Spring::new(NodeId(1), NodeId(2), 1.0, 20.0, SpringKind::Stretch));
        let k = Stiffness::of(&spring_blocks(&model, &[usize::MAX, 0, 3], 2));
        let columns: Vec<Vec<(usize, f64)>> = (0..6)
            .map(|c| {
                let range = k.col_ptr[c]..k.col_ptr[c + 1];
                range.map(|e| (k.row_idx[e], k.values[e])).collect()
            })
            .collect();
        // Every block written whole (the diagonal ones' lower triangle), zeros included.
        let expected: Vec<Vec<(usize, f64)>> = vec![
            vec![(0, 10.0), (1, 0.0), (2, 0.0), (3, 0.0), (4, 0.0), (5, 0.0)],
            vec![(1, 20.0), (2, 0.0), (3, 0.0), (4, -20.0), (5, 0.0)],
            vec![(2, 0.0), (3, 0.0), (4, 0.0), (5, 0.0)],
            vec![(3, 0.0), (4, 0.0), (5, 0.0)],
            vec![(4, 20.0), (5, 0.0)],
            vec![(5, 0.0)],
        ];
        assert_eq!(columns, expected);
    }
}
