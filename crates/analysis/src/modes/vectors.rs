//! Blocks of vectors and K as whole rows of 3 × 3 node blocks: what the iterative solver
//! ([`super::lobpcg`]) and its preconditioner ([`super::multigrid`]) multiply.
//!
//! A block of `width` vectors over n coordinates is stored coordinate by coordinate (a
//! width × n column-major matrix): one pass over K's blocks multiplies all the vectors,
//! each block entry scaling a short contiguous run, where a vector at a time would read K
//! once per vector (K is the bulk of the memory traffic: 54 MB for a 50k-node solid).

use super::stiffness::{Block, NodeBlocks};
use faer::{MatMut, MatRef};
use rayon::prelude::*;

/// `width` vectors over n coordinates, coordinate i's values at `data[i * width..][..width]`.
#[derive(Clone)]
pub(super) struct Vectors {
    width: usize,
    data: Vec<f64>,
}

impl Vectors {
    pub fn zeros(width: usize, n: usize) -> Vectors {
        Vectors { width, data: vec![0.0; width * n] }
    }

    /// Vector j's coordinate i is `f(j, i)`.
    pub fn from_fn(width: usize, n: usize, mut f: impl FnMut(usize, usize) -> f64) -> Vectors {
        let data = (0..n).flat_map(|i| (0..width).map(move |j| (i, j))).map(|(i, j)| f(j, i));
        Vectors { width, data: data.collect() }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    /// The coordinates each vector has.
    pub fn len(&self) -> usize {
        self.data.len().checked_div(self.width).unwrap_or(0)
    }

    /// The vectors as the rows of a width × n matrix.
    pub fn rows(&self) -> MatRef<'_, f64> {
        MatRef::from_column_major_slice(&self.data, self.width, self.len())
    }

    pub fn rows_mut(&mut self) -> MatMut<'_, f64> {
        let n = self.len();
        MatMut::from_column_major_slice_mut(&mut self.data, self.width, n)
    }

    /// Each coordinate's values, `width` at a time.
    pub fn coordinates(&self) -> std::slice::ChunksExact<'_, f64> {
        self.data.chunks_exact(self.width.max(1))
    }

    /// Node i's three coordinates' values (3 × width), on all cores.
    pub fn par_nodes_mut(&mut self) -> rayon::slice::ChunksExactMut<'_, f64> {
        self.data.par_chunks_exact_mut(3 * self.width.max(1))
    }

    /// Node i's three coordinates' values.
    pub fn node(&self, i: usize) -> &[f64] {
        &self.data[3 * i * self.width..][..3 * self.width]
    }

    /// The vectors `picked` of this block, in that order.
    pub fn pick(&self, picked: &[usize]) -> Vectors {
        let data = self.coordinates().flat_map(|c| picked.iter().map(|&j| c[j])).collect();
        Vectors { width: picked.len(), data }
    }

    /// The blocks' vectors one after another (all over the same coordinates).
    pub fn stack(blocks: &[&Vectors]) -> Vectors {
        let n = blocks.first().map_or(0, |b| b.len());
        let width = blocks.iter().map(|b| b.width).sum();
        let mut data = Vec::with_capacity(width * n);
        for i in 0..n {
            for b in blocks {
                data.extend_from_slice(&b.data[i * b.width..][..b.width]);
            }
        }
        Vectors { width, data }
    }

    /// Each coordinate's values, `width` at a time, to change.
    pub fn coordinates_mut(&mut self) -> std::slice::ChunksExactMut<'_, f64> {
        self.data.chunks_exact_mut(self.width.max(1))
    }

    /// `self *= factor`.
    pub fn scale(&mut self, factor: f64) {
        self.data.par_iter_mut().for_each(|v| *v *= factor);
    }

    /// `self += factor · other`.
    pub fn add_scaled(&mut self, factor: f64, other: &Vectors) {
        self.data.par_iter_mut().zip(&other.data).for_each(|(a, b)| *a += factor * b);
    }
}

/// A symmetric matrix over the free nodes as whole rows of 3 × 3 blocks: row i's blocks are
/// `blocks[start[i]..start[i + 1]]` at the nodes `columns[..]` alike, its diagonal first.
#[derive(Clone)]
pub(super) struct BlockRows {
    start: Vec<usize>,
    columns: Vec<u32>,
    blocks: Vec<Block>,
}

impl BlockRows {
    /// K's rows from its blocks on and below the diagonal (each mirrored above it).
    pub fn of(lower: &NodeBlocks) -> BlockRows {
        let nodes = lower.nodes();
        let mut count = vec![0usize; nodes + 1];
        for j in 0..nodes {
            for &(row, _) in lower.column(j) {
                count[row + 1] += 1;
                if row != j {
                    count[j + 1] += 1;
                }
            }
        }
        for i in 0..nodes {
            count[i + 1] += count[i];
        }
        let start = count;
        let mut next = start.clone();
        let mut columns = vec![0u32; start[nodes]];
        let mut blocks = vec![[[0.0; 3]; 3]; start[nodes]];
        let mut put = |row: usize, column: usize, block: Block| {
            columns[next[row]] = column as u32;
            blocks[next[row]] = block;
            next[row] += 1;
        };
        // Diagonals first (each column's first entry), then the rest in column order.
        for j in 0..nodes {
            if let Some(&(row, block)) = lower.column(j).first() {
                put(row, j, block);
            }
        }
        for j in 0..nodes {
            for &(row, block) in lower.column(j).iter().skip(1) {
                put(row, j, block);
                put(j, row, transpose(&block));
            }
        }
        BlockRows { start, columns, blocks }
    }

    /// How many nodes (rows of blocks) there are.
    pub fn nodes(&self) -> usize {
        self.start.len() - 1
    }

    /// Row i: its blocks' columns and the blocks, the diagonal first.
    pub fn row(&self, i: usize) -> impl Iterator<Item = (usize, &Block)> {
        let range = self.start[i]..self.start[i + 1];
        self.columns[range.clone()].iter().map(|&c| c as usize).zip(&self.blocks[range])
    }

    /// Node i's diagonal block.
    pub fn diagonal(&self, i: usize) -> &Block {
        &self.blocks[self.start[i]]
    }

    /// Adds `shift[k]` to each coordinate k's diagonal entry.
    pub fn add_to_diagonal(&mut self, shift: &[f64]) {
        for (i, s) in shift.chunks_exact(3).enumerate() {
            let block = &mut self.blocks[self.start[i]];
            (0..3).for_each(|r| block[r][r] += s[r]);
        }
    }

    /// `y = A x` for every vector of the block, the nodes' rows on all cores.
    pub fn apply(&self, x: &Vectors) -> Vectors {
        let width = x.width();
        let mut y = Vectors::zeros(width, x.len());
        y.par_nodes_mut().enumerate().for_each(|(i, out)| {
            for (k, block) in self.row(i) {
                multiply_add(out, block, x.node(k), width);
            }
        });
        y
    }
}

/// `out += block · x` for a node's 3 × width values.
pub(super) fn multiply_add(out: &mut [f64], block: &Block, x: &[f64], width: usize) {
    let (x0, rest) = x.split_at(width);
    let (x1, x2) = rest.split_at(width);
    for (row, out) in block.iter().zip(out.chunks_exact_mut(width)) {
        let [b0, b1, b2] = *row;
        for (((o, v0), v1), v2) in out.iter_mut().zip(x0).zip(x1).zip(x2) {
            *o += b0 * v0 + b1 * v1 + b2 * v2;
        }
    }
}

pub(super) fn transpose(block: &Block) -> Block {
    std::array::from_fn(|r| std::array::from_fn(|c| block[c][r]))
}
