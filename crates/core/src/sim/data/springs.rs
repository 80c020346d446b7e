//! The springs in solver order: one array per field, the colour batches and the band layout.

use crate::SpringId;
use crate::model::Springs;
use crate::sim::data::bands::{Bands, NO_SPRING};
use crate::sim::data::batches::Batch;

/// Per-spring constants in solver order (grouped by colour, see [`crate::sim::coloring`]).
///
/// The end indices are private and fixed at construction, together with a bound that all of
/// them are below: the loops of [`crate::sim::forces::kernels`] rely on it to index node
/// arrays unchecked.
#[derive(Clone, Debug)]
pub(crate) struct SpringData {
    a: Vec<u32>,
    b: Vec<u32>,
    /// 1 + the largest end index (0 without springs).
    end_bound: usize,
    /// Rest length L (m).
    pub rest: Vec<f32>,
    /// Stiffness k (N/m).
    pub stiffness: Vec<f32>,
    /// Damping along the spring (N·s/m).
    pub damping: Vec<f32>,
    /// The model's id of each solver spring.
    pub model_id: Vec<SpringId>,
    /// Runs of springs that share no node.
    pub batches: Vec<Batch>,
    /// The springs at the ends of the batches ([`Batch::banded`]) laid out again as bands,
    /// their lanes naming them by solver index.
    pub bands: Bands,
    /// Solver indices of the springs with break limits that have not broken yet, with their
    /// limits (min, max) in metres (0 and ∞ where a limit is absent).
    pub limited: Vec<(u32, f32, f32)>,
    /// True when any spring has damping: only then do the solvers walk the damping pass.
    pub has_damping: bool,
}

impl SpringData {
    /// The model's springs `s` put in solver order `order` (solver index → model index), with
    /// their `batches`, and `bands` whose lanes name the springs by model index.
    pub fn new(s: &Springs, order: &[u32], batches: Vec<Batch>, mut bands: Bands) -> SpringData {
        let pick = |col: &[f32]| -> Vec<f32> { order.iter().map(|&i| col[i as usize]).collect() };
        let limited = order
            .iter()
            .enumerate()
            .filter_map(|(solver, &i)| {
                let (lo, hi) = (s.break_mins()[i as usize], s.break_maxs()[i as usize]);
                (lo.is_some() || hi.is_some())
                    .then(|| (solver as u32, lo.unwrap_or(0.0), hi.unwrap_or(f32::INFINITY)))
            })
            .collect();
        let a: Vec<u32> = order.iter().map(|&i| s.a()[i as usize].0).collect();
        let b: Vec<u32> = order.iter().map(|&i| s.b()[i as usize].0).collect();
        let end_bound = a.iter().chain(&b).max().map_or(0, |&m| m as usize + 1);
        let mut solver_of = vec![NO_SPRING; s.len()];
        for (solver, &i) in order.iter().enumerate() {
            solver_of[i as usize] = solver as u32;
        }
        bands.renumber(&solver_of);
        let mut springs = SpringData {
            a,
            b,
            end_bound,
            rest: pick(s.rest_lengths()),
            stiffness: pick(s.stiffnesses()),
            damping: pick(s.dampings()),
            model_id: order.iter().map(|&i| SpringId(i)).collect(),
            batches,
            bands,
            limited,
            has_damping: s.dampings().iter().any(|&d| d > 0.0),
        };
        springs.bands.refresh(&springs.rest, &springs.stiffness, &springs.damping);
        springs
    }

    pub fn len(&self) -> usize {
        self.a.len()
    }

    pub fn is_empty(&self) -> bool {
        self.a.is_empty()
    }

    /// First ends, in solver order.
    pub fn a(&self) -> &[u32] {
        &self.a
    }

    /// Second ends, in solver order.
    pub fn b(&self) -> &[u32] {
        &self.b
    }

    /// Every end index is below this.
    pub fn end_bound(&self) -> usize {
        self.end_bound
    }

    /// Drops the springs at solver indices `gone` (sorted) from every array, batch and band;
    /// the rest keep their order, so batches stay independent. `limited` must not name them.
    pub fn remove(&mut self, gone: &[usize]) {
        if gone.is_empty() {
            return;
        }
        let mut keep = vec![true; self.len()];
        for &i in gone {
            keep[i] = false;
        }
        fn retain<T: Copy>(v: &mut Vec<T>, keep: &[bool]) {
            let mut k = keep.iter();
            v.retain(|_| k.next().copied().unwrap_or(true));
        }
        retain(&mut self.a, &keep);
        retain(&mut self.b, &keep);
        retain(&mut self.rest, &keep);
        retain(&mut self.stiffness, &keep);
        retain(&mut self.damping, &keep);
        retain(&mut self.model_id, &keep);
        // New solver index of each old one: the number of kept springs before it.
        let mut new_index = Vec::with_capacity(keep.len() + 1);
        let mut kept = 0;
        for &k in &keep {
            new_index.push(kept);
            kept += usize::from(k);
        }
        new_index.push(kept);
        for batch in &mut self.batches {
            let banded_from = new_index[batch.unbanded().end];
            let striped_from = new_index[batch.unstriped().end];
            batch.range = new_index[batch.range.start]..new_index[batch.range.end];
            batch.banded = batch.range.end - banded_from;
            batch.striped = batch.range.end - striped_from;
        }
        self.batches.retain(|b| !b.range.is_empty());
        for l in &mut self.limited {
            l.0 = new_index[l.0 as usize] as u32;
        }
        let renamed: Vec<u32> = keep
            .iter()
            .zip(&new_index)
            .map(|(&k, &i)| if k { i as u32 } else { NO_SPRING })
            .collect();
        self.bands.renumber(&renamed);
        self.bands.refresh(&self.rest, &self.stiffness, &self.damping);
        self.has_damping = self.damping.iter().any(|&d| d > 0.0);
    }
}
