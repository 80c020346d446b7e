//! Compiling a [`SpringModel`] into the flat arrays the solvers walk.

use crate::parallel::both;
use crate::sim::coloring::{Batch, colour_edges, colour_faces};
use crate::sim::constraints::tethers::Tethers;
use crate::sim::forces::bands::{Bands, LONG_OFFSET};
use crate::sim::forces::pressure::{Gas, signed_volume};
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

/// Per-spring constants in solver order (grouped by colour, see [`crate::sim::coloring`]).
///
/// The end indices are private and fixed at construction, together with a bound that all of
/// them are below: the loops of [`crate::sim::forces::kernels`] rely on it to index node arrays unchecked.
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
    /// The springs at the ends of the batches ([`Batch::banded`]) again, as bands for the
    /// explicit force pass.
    pub bands: Bands,
    /// Solver indices of the springs with break limits that have not broken yet, with their
    /// limits (min, max) in metres (0 and ∞ where a limit is absent).
    pub limited: Vec<(u32, f32, f32)>,
    /// True when any spring has damping: only then do the solvers walk the damping pass.
    pub has_damping: bool,
}

impl SpringData {
    /// The springs `s` (over `nodes` nodes) in solver order ([`colour_edges`]).
    fn new(s: &crate::model::Springs, nodes: usize) -> SpringData {
        let raw_a: Vec<u32> = s.a().iter().map(|n| n.0).collect();
        let raw_b: Vec<u32> = s.b().iter().map(|n| n.0).collect();
        let (order, mut batches) = colour_edges(&raw_a, &raw_b, nodes);
        let (bands, order) = band(s, (&raw_a, &raw_b), order, &mut batches);
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
        SpringData {
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
        }
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

    /// Drops the springs at solver indices `gone` (sorted) from every array and batch; the
    /// rest keep their order, so batches stay independent. `limited` must not name them.
    pub fn remove(&mut self, gone: &[usize]) {
        if gone.is_empty() {
            return;
        }
        let mut keep = vec![true; self.len()];
        for &i in gone {
            keep[i] = false;
        }
        for batch in &self.batches {
            let banded = batch.unbanded().end..batch.range.end;
            let ends = self.a[banded.clone()].iter().zip(&self.b[banded.clone()]);
            for ((&a, &b), _) in ends.zip(&keep[banded]).filter(|(_, kept)| !**kept) {
                self.bands.clear(a, b);
            }
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
        self.has_damping = self.damping.iter().any(|&d| d > 0.0);
    }
}

/// Puts the springs of `s` (ends `a`, `b`) in bands where they fit
/// ([`crate::sim::forces::bands`]): returns the bands and the solver order `order` with each
/// independent batch's banded springs moved to its end, those of long bands last (each group
/// in its order), counted in [`Batch::banded`] and [`Batch::striped`].
fn band(
    s: &crate::model::Springs,
    (a, b): (&[u32], &[u32]),
    order: Vec<u32>,
    batches: &mut [Batch],
) -> (Bands, Vec<u32>) {
    let mut eligible = vec![false; a.len()];
    for batch in batches.iter().filter(|b| b.independent) {
        for &i in &order[batch.range.clone()] {
            eligible[i as usize] = true;
        }
    }
    let columns = (s.rest_lengths(), s.stiffnesses(), s.dampings());
    let (bands, taken) = Bands::find(a, b, columns, &eligible);
    if bands.is_empty() {
        return (bands, order);
    }
    // 0: not banded, 1: in a short band, 2: in a long one.
    let group = |i: u32| {
        let i = i as usize;
        usize::from(taken[i]) * (1 + usize::from(a[i].abs_diff(b[i]) as usize >= LONG_OFFSET))
    };
    let mut reordered = Vec::with_capacity(order.len());
    for batch in batches.iter_mut() {
        let springs = &order[batch.range.clone()];
        for g in 0..3 {
            reordered.extend(springs.iter().filter(|&&i| group(i) == g));
        }
        batch.banded = springs.iter().filter(|&&i| group(i) > 0).count();
        batch.striped = springs.iter().filter(|&&i| group(i) == 2).count();
    }
    (bands, reordered)
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

/// What the triangles enclose, worked out once.
#[derive(Clone, Debug)]
pub(crate) struct SurfaceData {
    /// The triangles close a volume (see [`SpringModel::is_closed`]).
    pub closed: bool,
    /// Directed triangle edges without their opposite ([`SpringModel::open_edges`]).
    pub open_edges: usize,
    /// +1 when a closed surface is wound outwards, −1 inwards (+1 when open).
    pub sign: f32,
    /// Signed volume at the rest positions (m³; 0 when open).
    pub rest_signed_volume: f32,
    /// Each node's share of the rest area: a third of each adjacent triangle's area over the
    /// total (sums to 1; empty without faces).
    pub area_share: Vec<f32>,
}

impl SurfaceData {
    fn new(model: &SpringModel) -> SurfaceData {
        let p = model.nodes.positions();
        let faces = model.faces.nodes();
        let open_edges = model.open_edges();
        let closed = !faces.is_empty() && open_edges == 0;
        let rest_signed_volume = if closed { signed_volume(p, faces) } else { 0.0 };
        let mut area_share = vec![0.0f32; if faces.is_empty() { 0 } else { p.len() }];
        let mut total = 0.0;
        for &[a, b, c] in faces {
            let third =
                (p[b.index()] - p[a.index()]).cross(p[c.index()] - p[a.index()]).length() / 6.0;
            for n in [a, b, c] {
                area_share[n.index()] += third;
            }
            total += 3.0 * third;
        }
        if total > 0.0 {
            area_share.iter_mut().for_each(|s| *s /= total);
        }
        SurfaceData {
            closed,
            open_edges,
            sign: if rest_signed_volume < 0.0 { -1.0 } else { 1.0 },
            rest_signed_volume,
            area_share,
        }
    }
}

/// Everything a step reads and does not write.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    pub nodes: NodeData,
    pub springs: SpringData,
    pub anchors: Anchors,
    /// Each tethered node's nearest anchors and rest geodesic distances to them; `None` until
    /// needed (built when the parameters turn tethers on, again after springs break).
    pub tethers: Option<Tethers>,
    /// The model's triangles, reordered so that neighbours share no node ([`colour_faces`]).
    pub faces: Vec<[NodeId; 3]>,
    pub surface: SurfaceData,
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

        // The triangles' part does not depend on the springs': it runs on a second core
        // while the springs are put in solver order.
        let ((faces, surface), springs) = both(
            || (colour_faces(model.faces.nodes(), n), SurfaceData::new(model)),
            || SpringData::new(&model.springs, n),
        );
        let anchor_nodes: Vec<u32> = model.anchors.iter().map(|a| a.0).collect();
        let mut compiled = Compiled {
            nodes: NodeData { mass: model.nodes.masses().to_vec(), inv_mass, free },
            tethers: None,
            springs,
            anchors: Anchors { nodes: anchor_nodes, start: anchor_pos.clone(), target: anchor_pos },
            faces,
            surface,
            params: model.params.clone(),
        };
        compiled.ready_tethers();
        compiled
    }

    /// Builds the tethers if the parameters turn them on and they are not built for the
    /// present springs (a model compiled without them, or springs broken since).
    pub fn ready_tethers(&mut self) {
        if self.params.tethers.is_some() && self.tethers.is_none() {
            let nodes = self.nodes.mass.len();
            self.tethers =
                Some(Tethers::new(nodes, &self.springs, &self.anchors.nodes, &self.faces));
        }
    }

    /// The gas inside, when the parameters have pressure and the surface is closed (pressure
    /// set on an open surface through `Simulation::params_mut` does nothing).
    pub fn gas(&self) -> Option<Gas> {
        let pressure = self.params.pressure.as_ref()?;
        if !self.surface.closed {
            return None;
        }
        Gas::new(pressure, self.surface.rest_signed_volume)
    }
}
