//! Compiling a [`SpringModel`] into the flat arrays the solvers walk.

use super::coloring::{Batch, colour_edges};
use crate::{NodeId, SimParams, SpringId, SpringModel};
use glam::Vec3A;

/// Per-node constants.
#[derive(Clone, Debug)]
pub(crate) struct NodeData {
    /// Mass m (kg).
    pub mass: Vec<f32>,
    /// Inverse mass w = 1/m (1/kg); 0 for anchored nodes, which no force moves.
    pub inv_mass: Vec<f32>,
    /// 1 for a free node, 0 for an anchored one: multiplies gravity.
    pub free: Vec<f32>,
}

/// Per-spring constants in solver order (grouped by colour, see [`super::coloring`]).
///
/// The end indices are private and fixed at construction, together with a bound that all of
/// them are below: the loops of [`super::kernels`] rely on it to index node arrays unchecked.
#[derive(Clone, Debug)]
pub(crate) struct SpringData {
    a: Vec<u32>,
    b: Vec<u32>,
    /// 1 + the largest end index (0 without springs).
    end_bound: usize,
    /// Rest length L (m).
    pub rest: Vec<f32>,
    /// Stiffness k (N/m); set to 0 when the spring breaks.
    pub stiffness: Vec<f32>,
    /// Damping along the spring (N·s/m); set to 0 when the spring breaks.
    pub damping: Vec<f32>,
    /// The model's id of each solver spring.
    pub model_id: Vec<SpringId>,
    /// Runs of springs that share no node.
    pub batches: Vec<Batch>,
    /// Solver indices of the springs with break limits that have not broken yet, with their
    /// limits (min, max) in metres (0 and ∞ where a limit is absent).
    pub limited: Vec<(u32, f32, f32)>,
    /// True when any spring has damping: only then do the solvers walk the damping pass.
    pub has_damping: bool,
}

impl SpringData {
    pub fn len(&self) -> usize {
        self.a.len()
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
}

/// Anchored nodes and where they are going. During a step each anchor moves in a straight
/// line from `start` to `target`, so a moved anchor drags the model along smoothly instead of
/// jumping at one sub-step.
#[derive(Clone, Debug)]
pub(crate) struct Anchors {
    pub nodes: Vec<u32>,
    pub start: Vec<Vec3A>,
    pub target: Vec<Vec3A>,
}

impl Anchors {
    /// Position of anchor `i` at fraction `t` ∈ [0, 1] of the step.
    #[inline]
    pub fn at(&self, i: usize, t: f32) -> Vec3A {
        self.start[i].lerp(self.target[i], t)
    }

    /// Velocity of anchor `i` over a step of `dt` seconds.
    #[inline]
    pub fn velocity(&self, i: usize, dt: f32) -> Vec3A {
        (self.target[i] - self.start[i]) / dt
    }
}

/// Everything a step reads and does not write.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    pub nodes: NodeData,
    pub springs: SpringData,
    pub anchors: Anchors,
    pub faces: Vec<[NodeId; 3]>,
    pub params: SimParams,
}

impl Compiled {
    /// Compiles a model that has passed [`SpringModel::validate`].
    pub fn new(model: &SpringModel) -> Compiled {
        let n = model.nodes.len();
        let mut inv_mass: Vec<f32> = model.nodes.masses().iter().map(|m| 1.0 / m).collect();
        let mut free = vec![1.0; n];
        for a in &model.anchors {
            inv_mass[a.index()] = 0.0;
            free[a.index()] = 0.0;
        }
        let positions = model.nodes.positions();
        let anchor_pos: Vec<Vec3A> =
            model.anchors.iter().map(|a| positions[a.index()].into()).collect();

        let s = &model.springs;
        let raw_a: Vec<u32> = s.a().iter().map(|n| n.0).collect();
        let raw_b: Vec<u32> = s.b().iter().map(|n| n.0).collect();
        let (order, batches) = colour_edges(&raw_a, &raw_b, n);
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
        let a: Vec<u32> = order.iter().map(|&i| raw_a[i as usize]).collect();
        let b: Vec<u32> = order.iter().map(|&i| raw_b[i as usize]).collect();
        let end_bound = a.iter().chain(&b).max().map_or(0, |&m| m as usize + 1);
        let springs = SpringData {
            a,
            b,
            end_bound,
            rest: pick(s.rest_lengths()),
            stiffness: pick(s.stiffnesses()),
            damping: pick(s.dampings()),
            model_id: order.iter().map(|&i| SpringId(i)).collect(),
            batches,
            limited,
            has_damping: s.dampings().iter().any(|&d| d > 0.0),
        };
        Compiled {
            nodes: NodeData { mass: model.nodes.masses().to_vec(), inv_mass, free },
            springs,
            anchors: Anchors {
                nodes: model.anchors.iter().map(|a| a.0).collect(),
                start: anchor_pos.clone(),
                target: anchor_pos,
            },
            faces: model.faces.nodes().to_vec(),
            params: model.params.clone(),
        }
    }
}
