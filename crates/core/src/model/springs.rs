//! The springs of a model, one column per field.

use crate::{NodeId, SpringId};
use serde::{Deserialize, Serialize};

/// Why a spring exists. The solver treats all kinds alike; the kind tells the editor how to draw
/// it and the converter how it was made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SpringKind {
    /// Along a mesh edge.
    Stretch,
    /// Across two triangles that share an edge, between their opposite corners.
    Bend,
    /// Between two nodes closer than a radius that no mesh edge joins.
    Vicinity,
    /// Added by hand.
    #[default]
    Manual,
    /// Inside a solid: an edge of the lattice that fills it, or one binding a surface node to
    /// that lattice (`springmesh convert --solid`). Tag 4, after the kinds of format version 1's
    /// first files, so those still load unchanged.
    Interior,
}

impl SpringKind {
    /// Every kind, in tag order.
    pub const ALL: [SpringKind; 5] = [
        SpringKind::Stretch,
        SpringKind::Bend,
        SpringKind::Vicinity,
        SpringKind::Manual,
        SpringKind::Interior,
    ];

    /// The lowercase name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SpringKind::Stretch => "stretch",
            SpringKind::Bend => "bend",
            SpringKind::Vicinity => "vicinity",
            SpringKind::Manual => "manual",
            SpringKind::Interior => "interior",
        }
    }
}

/// One spring as a record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spring {
    /// First end.
    pub a: NodeId,
    /// Second end; never equal to `a` in a valid model.
    pub b: NodeId,
    /// Length (m) at which the spring exerts no force.
    pub rest_length: f32,
    /// Stiffness k (N/m), ≥ 0.
    pub stiffness: f32,
    /// Damping along the spring (N·s/m), ≥ 0.
    pub damping: f32,
    /// How the spring came to be.
    pub kind: SpringKind,
    /// The spring breaks when it gets shorter than this (m).
    pub break_min: Option<f32>,
    /// The spring breaks when it gets longer than this (m).
    pub break_max: Option<f32>,
}

impl Spring {
    /// A spring of `kind` between `a` and `b` with the given rest length and stiffness, no
    /// damping and no break limits.
    pub fn new(a: NodeId, b: NodeId, rest_length: f32, stiffness: f32, kind: SpringKind) -> Self {
        Self { a, b, rest_length, stiffness, damping: 0.0, kind, break_min: None, break_max: None }
    }

    /// The same spring with damping `d` (N·s/m).
    pub fn with_damping(self, d: f32) -> Self {
        Self { damping: d, ..self }
    }

    /// The two ends ordered (smaller index first): the key of an unordered pair.
    pub fn pair(&self) -> (NodeId, NodeId) {
        if self.a <= self.b { (self.a, self.b) } else { (self.b, self.a) }
    }
}

/// The columns of a spring table, for building one in a single move (a file reader).
pub(crate) struct SpringColumns {
    pub a: Vec<NodeId>,
    pub b: Vec<NodeId>,
    pub rest_length: Vec<f32>,
    pub stiffness: Vec<f32>,
    pub damping: Vec<f32>,
    pub kind: Vec<SpringKind>,
    pub break_min: Vec<Option<f32>>,
    pub break_max: Vec<Option<f32>>,
}

/// All springs of a model, stored column-wise; `a[i]`, `b[i]`, ... belong to spring `i`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Springs {
    a: Vec<NodeId>,
    b: Vec<NodeId>,
    rest_length: Vec<f32>,
    stiffness: Vec<f32>,
    damping: Vec<f32>,
    kind: Vec<SpringKind>,
    break_min: Vec<Option<f32>>,
    break_max: Vec<Option<f32>>,
}

impl Springs {
    /// An empty spring table with room for `n` springs.
    pub fn with_capacity(n: usize) -> Self {
        Self {
            a: Vec::with_capacity(n),
            b: Vec::with_capacity(n),
            rest_length: Vec::with_capacity(n),
            stiffness: Vec::with_capacity(n),
            damping: Vec::with_capacity(n),
            kind: Vec::with_capacity(n),
            break_min: Vec::with_capacity(n),
            break_max: Vec::with_capacity(n),
        }
    }

    /// Springs from their columns; `None` when the columns differ in length.
    pub(crate) fn from_columns(c: SpringColumns) -> Option<Self> {
        let n = c.a.len();
        let lengths = [
            c.b.len(),
            c.rest_length.len(),
            c.stiffness.len(),
            c.damping.len(),
            c.kind.len(),
            c.break_min.len(),
            c.break_max.len(),
        ];
        lengths.iter().all(|&l| l == n).then_some(Self {
            a: c.a,
            b: c.b,
            rest_length: c.rest_length,
            stiffness: c.stiffness,
            damping: c.damping,
            kind: c.kind,
            break_min: c.break_min,
            break_max: c.break_max,
        })
    }

    /// Number of springs.
    pub fn len(&self) -> usize {
        self.a.len()
    }

    /// True when there are no springs.
    pub fn is_empty(&self) -> bool {
        self.a.is_empty()
    }

    /// Appends a spring and returns its id.
    pub fn push(&mut self, s: Spring) -> SpringId {
        let id = SpringId::from_index(self.len());
        self.a.push(s.a);
        self.b.push(s.b);
        self.rest_length.push(s.rest_length);
        self.stiffness.push(s.stiffness);
        self.damping.push(s.damping);
        self.kind.push(s.kind);
        self.break_min.push(s.break_min);
        self.break_max.push(s.break_max);
        id
    }

    /// Spring `id`, or `None` when out of range.
    pub fn get(&self, id: SpringId) -> Option<Spring> {
        let i = id.index();
        Some(Spring {
            a: *self.a.get(i)?,
            b: *self.b.get(i)?,
            rest_length: *self.rest_length.get(i)?,
            stiffness: *self.stiffness.get(i)?,
            damping: *self.damping.get(i)?,
            kind: *self.kind.get(i)?,
            break_min: *self.break_min.get(i)?,
            break_max: *self.break_max.get(i)?,
        })
    }

    /// Overwrites spring `id`; returns `false` (and changes nothing) when out of range.
    pub fn set(&mut self, id: SpringId, s: Spring) -> bool {
        let i = id.index();
        if i >= self.len() {
            return false;
        }
        self.a[i] = s.a;
        self.b[i] = s.b;
        self.rest_length[i] = s.rest_length;
        self.stiffness[i] = s.stiffness;
        self.damping[i] = s.damping;
        self.kind[i] = s.kind;
        self.break_min[i] = s.break_min;
        self.break_max[i] = s.break_max;
        true
    }

    /// Inserts a spring at `id`, shifting the later springs up by one. `id` may equal `len()`.
    pub fn insert(&mut self, id: SpringId, s: Spring) {
        let i = id.index().min(self.len());
        self.a.insert(i, s.a);
        self.b.insert(i, s.b);
        self.rest_length.insert(i, s.rest_length);
        self.stiffness.insert(i, s.stiffness);
        self.damping.insert(i, s.damping);
        self.kind.insert(i, s.kind);
        self.break_min.insert(i, s.break_min);
        self.break_max.insert(i, s.break_max);
    }

    /// Removes spring `id`, shifting the later springs down by one; `None` when out of range.
    pub fn remove(&mut self, id: SpringId) -> Option<Spring> {
        let s = self.get(id)?;
        let i = id.index();
        self.a.remove(i);
        self.b.remove(i);
        self.rest_length.remove(i);
        self.stiffness.remove(i);
        self.damping.remove(i);
        self.kind.remove(i);
        self.break_min.remove(i);
        self.break_max.remove(i);
        Some(s)
    }

    /// Keeps only the springs for which `keep(id, spring)` is true, preserving order.
    pub fn retain(&mut self, mut keep: impl FnMut(SpringId, &Spring) -> bool) {
        let kept: Springs = self
            .iter()
            .enumerate()
            .filter(|(i, s)| keep(SpringId::from_index(*i), s))
            .map(|(_, s)| s)
            .collect();
        *self = kept;
    }

    /// First ends.
    pub fn a(&self) -> &[NodeId] {
        &self.a
    }

    /// Second ends.
    pub fn b(&self) -> &[NodeId] {
        &self.b
    }

    /// Rest lengths (m).
    pub fn rest_lengths(&self) -> &[f32] {
        &self.rest_length
    }

    /// Rest lengths (m), writable in place.
    pub fn rest_lengths_mut(&mut self) -> &mut [f32] {
        &mut self.rest_length
    }

    /// Stiffnesses (N/m).
    pub fn stiffnesses(&self) -> &[f32] {
        &self.stiffness
    }

    /// Stiffnesses (N/m), writable in place.
    pub fn stiffnesses_mut(&mut self) -> &mut [f32] {
        &mut self.stiffness
    }

    /// Damping coefficients (N·s/m).
    pub fn dampings(&self) -> &[f32] {
        &self.damping
    }

    /// Damping coefficients (N·s/m), writable in place.
    pub fn dampings_mut(&mut self) -> &mut [f32] {
        &mut self.damping
    }

    /// Kinds.
    pub fn kinds(&self) -> &[SpringKind] {
        &self.kind
    }

    /// Lower break limits (m).
    pub fn break_mins(&self) -> &[Option<f32>] {
        &self.break_min
    }

    /// Upper break limits (m).
    pub fn break_maxs(&self) -> &[Option<f32>] {
        &self.break_max
    }

    /// The springs as records, in index order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Spring> + '_ {
        (0..self.len()).map(|i| Spring {
            a: self.a[i],
            b: self.b[i],
            rest_length: self.rest_length[i],
            stiffness: self.stiffness[i],
            damping: self.damping[i],
            kind: self.kind[i],
            break_min: self.break_min[i],
            break_max: self.break_max[i],
        })
    }

    /// How many springs of each kind, in the order of [`SpringKind::ALL`].
    pub fn count_by_kind(&self) -> [usize; SpringKind::ALL.len()] {
        let mut counts = [0; SpringKind::ALL.len()];
        for k in &self.kind {
            counts[*k as usize] += 1;
        }
        counts
    }
}

impl FromIterator<Spring> for Springs {
    fn from_iter<I: IntoIterator<Item = Spring>>(iter: I) -> Self {
        let mut springs = Springs::default();
        for s in iter {
            springs.push(s);
        }
        springs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spring(a: u32, b: u32, kind: SpringKind) -> Spring {
        Spring::new(NodeId(a), NodeId(b), 1.0, 10.0, kind)
    }

    #[test]
    fn push_remove_insert_round_trip() {
        let mut springs: Springs = [
            spring(0, 1, SpringKind::Stretch),
            spring(1, 2, SpringKind::Bend),
            spring(2, 3, SpringKind::Manual),
        ]
        .into_iter()
        .collect();
        let before = springs.clone();
        let removed = springs.remove(SpringId(1));
        assert_eq!(removed, Some(spring(1, 2, SpringKind::Bend)));
        assert_eq!(springs.a(), &[NodeId(0), NodeId(2)]);
        springs.insert(SpringId(1), spring(1, 2, SpringKind::Bend));
        assert_eq!(springs, before);
        assert_eq!(springs.count_by_kind(), [1, 1, 0, 1, 0]);
    }

    #[test]
    fn retain_keeps_order() {
        let mut springs: Springs = (0..5).map(|i| spring(i, i + 1, SpringKind::Stretch)).collect();
        springs.retain(|id, _| id.0 % 2 == 0);
        assert_eq!(springs.a(), &[NodeId(0), NodeId(2), NodeId(4)]);
    }

    #[test]
    fn pair_is_unordered() {
        assert_eq!(spring(3, 1, SpringKind::Manual).pair(), (NodeId(1), NodeId(3)));
        assert_eq!(spring(1, 3, SpringKind::Manual).pair(), (NodeId(1), NodeId(3)));
    }
}
