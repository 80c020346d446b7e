//! Checking a model's invariants, reporting every violation at once.
//!
//! Besides what makes a model meaningless (a spring to a node that does not exist), validation
//! refuses magnitudes that no game needs and that would make stepping unbounded or lose all
//! precision: coordinates beyond [`MAX_COORDINATE`], lengths beyond [`MAX_LENGTH`], a frame
//! step outside [[`MIN_DT`], [`MAX_DT`]], a sub-step shorter than [`MIN_SUBSTEP`], gusts shorter
//! than a frame step. A model that
//! validates can be stepped forever with bounded work per step.

use super::buckets::Buckets;
use super::environment::Check;
use super::params::environment_checks;
use super::{MAX_SUBSTEPS, SpringModel};
use crate::parallel::both;
pub use crate::problems::{
    MAX_COORDINATE, MAX_DT, MAX_LENGTH, MIN_DT, MIN_SUBSTEP, Problem, Problems,
};
use crate::{FaceId, NodeId, SpringId};

/// The problems of a skin over `nodes` cage nodes.
fn skin_problems(skin: &super::Skin, nodes: usize, out: &mut Vec<Problem>) {
    for (vertex, v) in skin.vertices().enumerate() {
        if !v.position.is_finite() || v.position.abs().max_element() > MAX_COORDINATE {
            out.push(Problem::BadSkinPosition { vertex });
        }
        for &node in &v.nodes {
            if node.index() >= nodes {
                out.push(Problem::SkinNodeOutOfRange { vertex, node, nodes });
            }
        }
        let sum: f32 = v.weights.iter().sum();
        let each = v.weights.iter().all(|w| w.is_finite() && *w >= 0.0);
        let near_one = (sum - 1.0).abs() <= super::SKIN_WEIGHT_TOLERANCE;
        if !each || !near_one {
            out.push(Problem::BadSkinWeights { vertex, sum });
        }
    }
    let vertices = skin.len();
    for (i, f) in skin.faces.iter().enumerate() {
        let face = FaceId::from_index(i);
        for vertex in f.nodes.map(|n| n.0) {
            if vertex as usize >= vertices {
                out.push(Problem::SkinFaceOutOfRange { face, vertex, vertices });
            }
        }
        for uv in f.uvs.into_iter().flatten().filter(|&uv| uv as usize >= skin.uvs.len()) {
            out.push(Problem::BadSkinUv { face: Some(face), uv });
        }
    }
    for (uv, t) in skin.uvs.iter().enumerate() {
        if !t.is_finite() {
            out.push(Problem::BadSkinUv { face: None, uv: uv as u32 });
        }
    }
}

/// The problems of `rig` on a model of `nodes` nodes: at most one per joint and per node.
impl super::Rig {
    /// What is wrong with this rig for a model of `nodes` nodes (empty: nothing), as
    /// [`SpringModel::validate`] finds it: for an editor that changes a rig before it validates
    /// the whole model.
    pub fn problems(&self, nodes: usize) -> Vec<Problem> {
        let mut out = Vec::new();
        rig_problems(self, nodes, &mut out);
        out
    }
}

fn rig_problems(rig: &super::Rig, nodes: usize, out: &mut Vec<Problem>) {
    let mut bad = |reason: String| out.push(Problem::BadRig { reason });
    let joints = rig.joints.len();
    if joints > super::MAX_JOINTS {
        bad(format!("{joints} joints, more than {}", super::MAX_JOINTS));
    }
    for (i, j) in rig.joints.iter().enumerate() {
        let name = &j.name;
        if name.len() > super::MAX_JOINT_NAME {
            bad(format!("joint {i}: its name is longer than {} bytes", super::MAX_JOINT_NAME));
        } else if j.parent.is_some_and(|p| usize::from(p) >= i) {
            bad(format!("joint {i} ({name}): its parent is not before it"));
        } else if !(j.inverse_bind.is_finite() && j.inverse_bind.determinant().abs() > 1e-12) {
            bad(format!(
                "joint {i} ({name}): its inverse bind matrix is not finite and invertible"
            ));
        }
    }
    for (k, c) in rig.colliders.iter().enumerate() {
        let mut checks = Vec::new();
        super::environment::obstacle_checks(&c.collider, k, &mut checks);
        if usize::from(c.joint) >= joints {
            bad(format!("collider {k}: joint {} does not exist ({joints} joints)", c.joint));
        } else if let Some((field, _, must)) = checks.into_iter().find(|c| !c.1) {
            bad(format!("{field} (a collider on a joint) must be {must}"));
        }
    }
    if !(rig.backstop.is_empty() || rig.backstop.len() == nodes) {
        bad(format!("{} back-stops for {nodes} nodes (none, or one per node)", rig.backstop.len()));
    }
    for (i, b) in rig.backstop.iter().enumerate() {
        if let Some(b) = b
            && !(b.distance.is_finite()
                && b.distance.abs() <= MAX_LENGTH
                && b.radius.is_finite()
                && b.radius > 0.0
                && b.radius <= MAX_LENGTH)
        {
            bad(format!("node {i}: back-stop {b:?} needs a finite distance and a radius > 0"));
        }
    }
    let columns = [rig.node_joints.len(), rig.node_weights.len(), rig.max_distance.len()];
    if columns.iter().any(|&n| n != nodes) {
        bad(format!("{columns:?} bindings for {nodes} nodes"));
        return;
    }
    for (i, ((js, ws), r)) in
        rig.node_joints.iter().zip(&rig.node_weights).zip(&rig.max_distance).enumerate()
    {
        let sum: f32 = ws.iter().sum();
        let each = ws.iter().all(|w| w.is_finite() && *w >= 0.0);
        if !each || !(sum == 0.0 || (sum - 1.0).abs() <= super::SKIN_WEIGHT_TOLERANCE) {
            bad(format!("node {i}: weights {ws:?} are not ≥ 0 summing to 1 (or all 0)"));
        } else if let Some(k) =
            js.iter().zip(ws).find(|&(&k, &w)| w > 0.0 && usize::from(k) >= joints)
        {
            bad(format!("node {i}: joint {} does not exist ({joints} joints)", k.0));
        } else if r.is_some_and(|r| !(r.is_finite() && (0.0..=MAX_LENGTH).contains(&r))) {
            bad(format!("node {i}: max distance {r:?} is not between 0 and {MAX_LENGTH} m"));
        }
    }
}

/// Each spring that joins a pair an earlier spring already joins, with the first spring of
/// that pair, in linear time: springs are grouped by their smaller end
/// ([`super::buckets`], in spring order), and within a group a per-node mark remembers which
/// larger ends were seen. Springs with an end out of range or both ends on one node are left
/// out (they are problems of their own). The first pass groups only the larger ends (half the
/// memory traffic); only a model that has repeats is grouped again with spring indices.
fn duplicates(nodes: usize, a: &[NodeId], b: &[NodeId]) -> Vec<Problem> {
    let pairs = || {
        a.iter()
            .zip(b)
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, (a, b))| (a.0.min(b.0), a.0.max(b.0), SpringId::from_index(i)))
    };
    let ends_only = || pairs().map(|(a, b, _)| (a, b, ()));
    if !repeats(&Buckets::in_order(nodes, ends_only), nodes, |_, _| ()) {
        return Vec::new();
    }
    let mut out = Vec::new();
    repeats(&Buckets::in_order(nodes, pairs), nodes, |spring, first| {
        out.push(Problem::DuplicateSpring { spring, first });
    });
    out
}

/// Walks grouped pairs and calls `found(value, value of the first entry of its pair)` for each
/// entry whose pair an earlier entry of its group had; true when there was one. Within a
/// group a per-node mark remembers which second ends were seen, and the first value with each.
fn repeats<T: Copy + Ord + Default>(
    grouped: &Buckets<T>,
    nodes: usize,
    mut found: impl FnMut(T, T),
) -> bool {
    let mut seen: Vec<Option<(u32, T)>> = vec![None; nodes];
    let mut any = false;
    for (first_end, bucket) in grouped.iter() {
        for &(second_end, value) in bucket {
            match seen.get_mut(second_end as usize) {
                Some(Some((owner, first))) if *owner == first_end => {
                    found(value, *first);
                    any = true;
                }
                Some(mark) => *mark = Some((first_end, value)),
                None => {}
            }
        }
    }
    any
}

/// True when a length (a rest length or a set break limit) is in range: finite, ≥ 0 and at
/// most [`MAX_LENGTH`].
fn length_ok(value: f32) -> bool {
    (0.0..=MAX_LENGTH).contains(&value)
}

/// True when a coefficient (stiffness, damping) is finite and ≥ 0.
fn coefficient_ok(value: f32) -> bool {
    value.is_finite() && value >= 0.0
}

/// The problem of one value of a spring (its field's name, the value, whether it is a
/// length), if it has one: not finite or negative, or (for a length) longer than
/// [`MAX_LENGTH`].
fn value_problems(
    spring: SpringId,
    (field, value, length): (&'static str, f32, bool),
    out: &mut Vec<Problem>,
) {
    if !coefficient_ok(value) {
        out.push(Problem::BadSpringValue { spring, field, value });
    } else if length && value > MAX_LENGTH {
        out.push(Problem::LongSpringValue { spring, field, value });
    }
}

impl SpringModel {
    /// Checks every invariant and reports every violation, or `Ok` for a valid model.
    ///
    /// A valid model has: finite positions; masses > 0; springs between two distinct existing
    /// nodes, at most one per pair, with finite non-negative rest length, stiffness, damping
    /// and break limits; anchors naming distinct existing nodes; triangles of three distinct
    /// existing nodes with existing uvs; finite uvs; parameters in range.
    pub fn validate(&self) -> Result<(), Problems> {
        // The search for repeated springs, the longest check, runs beside the others.
        let (a, b) = (self.springs.a(), self.springs.b());
        let (repeated, mut problems) = both(
            || duplicates(self.nodes.len(), a, b),
            || {
                let mut problems = Vec::new();
                self.check_nodes(&mut problems);
                self.check_springs(&mut problems);
                problems
            },
        );
        problems.extend(repeated);
        self.check_anchors(&mut problems);
        self.check_faces(&mut problems);
        if let Some(skin) = &self.skin {
            skin_problems(skin, self.nodes.len(), &mut problems);
        }
        if let Some(rig) = &self.rig {
            rig_problems(rig, self.nodes.len(), &mut problems);
        }
        self.check_params(&mut problems);
        if problems.is_empty() { Ok(()) } else { Err(Problems(problems)) }
    }

    fn check_nodes(&self, out: &mut Vec<Problem>) {
        for (i, n) in self.nodes.iter().enumerate() {
            let node = NodeId::from_index(i);
            if !n.position.is_finite() {
                out.push(Problem::NonFinitePosition { node });
            } else if n.position.abs().max_element() > MAX_COORDINATE {
                out.push(Problem::FarPosition { node });
            }
            if !(n.mass.is_finite() && n.mass > 0.0) {
                out.push(Problem::BadMass { node, mass: n.mass });
            }
        }
    }

    /// Every spring is tested column by column with a cheap test first; only a spring that
    /// fails it is looked at field by field (the 2.6 million springs of a detailed scan are
    /// checked in milliseconds).
    fn check_springs(&self, out: &mut Vec<Problem>) {
        let nodes = self.nodes.len();
        let s = &self.springs;
        let (a, b) = (s.a(), s.b());
        let columns = a.iter().zip(b).zip(s.rest_lengths()).zip(s.stiffnesses()).zip(s.dampings());
        for (i, ((((a, b), &rest), &k), &d)) in columns.enumerate() {
            let ends = a.index() < nodes && b.index() < nodes && a != b;
            let values = length_ok(rest) && coefficient_ok(k) && coefficient_ok(d);
            if !(ends && values) {
                self.spring_problems(SpringId::from_index(i), out);
            }
        }
        let limits = s.break_mins().iter().zip(s.break_maxs());
        for (i, (&min, &max)) in limits.enumerate() {
            let crossed = matches!((min, max), (Some(min), Some(max)) if min > max);
            if !min.is_none_or(length_ok) || !max.is_none_or(length_ok) || crossed {
                self.spring_limit_problems(SpringId::from_index(i), out);
            }
        }
    }

    /// The problems of spring `spring`'s ends, rest length, stiffness and damping.
    fn spring_problems(&self, spring: SpringId, out: &mut Vec<Problem>) {
        let Some(s) = self.springs.get(spring) else { return };
        let nodes = self.nodes.len();
        for node in [s.a, s.b] {
            if node.index() >= nodes {
                out.push(Problem::SpringEndOutOfRange { spring, node, nodes });
            }
        }
        if s.a == s.b {
            out.push(Problem::SpringToItself { spring, node: s.a });
        }
        let values = [
            ("rest_length", s.rest_length, true),
            ("stiffness", s.stiffness, false),
            ("damping", s.damping, false),
        ];
        for value in values {
            value_problems(spring, value, out);
        }
    }

    /// The problems of spring `spring`'s break limits.
    fn spring_limit_problems(&self, spring: SpringId, out: &mut Vec<Problem>) {
        let Some(s) = self.springs.get(spring) else { return };
        for (field, value) in [("break_min", s.break_min), ("break_max", s.break_max)] {
            if let Some(value) = value {
                value_problems(spring, (field, value, true), out);
            }
        }
        if let (Some(min), Some(max)) = (s.break_min, s.break_max)
            && min > max
        {
            out.push(Problem::CrossedBreakLimits { spring, min, max });
        }
    }

    fn check_anchors(&self, out: &mut Vec<Problem>) {
        let nodes = self.nodes.len();
        let mut seen = vec![false; nodes];
        for (anchor, &node) in self.anchors.iter().enumerate() {
            match seen.get_mut(node.index()) {
                None => out.push(Problem::AnchorOutOfRange { anchor, node, nodes }),
                Some(true) => out.push(Problem::DuplicateAnchor { anchor, node }),
                Some(flag) => *flag = true,
            }
        }
    }

    fn check_faces(&self, out: &mut Vec<Problem>) {
        let nodes = self.nodes.len();
        let uvs = self.uvs.len();
        for (i, f) in self.faces.iter().enumerate() {
            let face = FaceId::from_index(i);
            for &node in &f.nodes {
                if node.index() >= nodes {
                    out.push(Problem::FaceNodeOutOfRange { face, node, nodes });
                }
            }
            let [a, b, c] = f.nodes;
            if a == b || b == c || a == c {
                out.push(Problem::DegenerateFace { face });
            }
            for uv in f.uvs.into_iter().flatten() {
                if uv as usize >= uvs {
                    out.push(Problem::FaceUvOutOfRange { face, uv, uvs });
                }
            }
        }
        for (uv, t) in self.uvs.iter().enumerate() {
            if !t.is_finite() {
                out.push(Problem::NonFiniteUv { uv });
            }
        }
    }

    pub(crate) fn check_params(&self, out: &mut Vec<Problem>) {
        let p = &self.params;
        let mut checks: Vec<Check> = vec![
            ("gravity".into(), p.gravity.is_finite(), "finite"),
            (
                "damping".into(),
                p.damping.is_finite() && p.damping >= 0.0,
                "a finite number ≥ 0 (1/s)",
            ),
            ("dt".into(), (MIN_DT..=MAX_DT).contains(&p.dt), "between 1e-6 and 1 (s)"),
            ("substeps".into(), (1..=MAX_SUBSTEPS).contains(&p.substeps), "between 1 and 10000"),
            (
                "substeps".into(),
                // Reported only for a valid dt (a bad dt is its own problem).
                !(MIN_DT..=MAX_DT).contains(&p.dt)
                    || p.dt / p.substeps.max(1) as f32 >= MIN_SUBSTEP * (1.0 - 1e-6),
                "at most dt / 1e-6 s (sub-steps of a microsecond or longer)",
            ),
        ];
        environment_checks(p, &mut checks);
        for (name, ok, expected) in checks {
            if !ok {
                out.push(Problem::BadParam { name, expected });
            }
        }
        if p.pressure.is_some() && !self.is_closed() {
            out.push(Problem::PressureOnOpenSurface { open_edges: self.open_edges() });
        }
        if let Some(layers) = &p.self_collision
            && layers.thickness > self.bounding_box().map_or(0.0, |b| b.diagonal())
        {
            let name = "self_collision.thickness".into();
            let expected = "at most the diagonal of the body's bounding box (m)";
            out.push(Problem::BadParam { name, expected });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Air;
    use crate::model::fixtures::two_nodes;
    use crate::{Face, Spring, SpringKind};
    use glam::{Vec2, Vec3};

    #[test]
    fn valid_model_passes() {
        assert_eq!(two_nodes().validate(), Ok(()));
    }

    #[test]
    fn reports_every_problem_with_its_index() {
        let mut m = two_nodes();
        m.nodes.masses_mut()[1] = 0.0;
        m.nodes.positions_mut()[0].x = f32::NAN;
        m.springs.push(Spring::new(NodeId(1), NodeId(0), 1.0, 100.0, SpringKind::Manual));
        m.springs.push(Spring::new(NodeId(0), NodeId(7), 1.0, -1.0, SpringKind::Manual));
        m.springs.push(Spring::new(NodeId(1), NodeId(1), 1.0, 1.0, SpringKind::Manual));
        m.anchors = vec![NodeId(0), NodeId(0), NodeId(5)];
        m.faces.push(Face { nodes: [NodeId(0), NodeId(1), NodeId(1)], uvs: Some([0, 0, 3]) });
        m.uvs.push(Vec2::new(f32::INFINITY, 0.0));
        m.params.dt = 0.0;
        let problems = m.validate().expect_err("invalid").0;
        let expected = vec![
            Problem::NonFinitePosition { node: NodeId(0) },
            Problem::BadMass { node: NodeId(1), mass: 0.0 },
            Problem::SpringEndOutOfRange { spring: SpringId(2), node: NodeId(7), nodes: 2 },
            Problem::BadSpringValue { spring: SpringId(2), field: "stiffness", value: -1.0 },
            Problem::SpringToItself { spring: SpringId(3), node: NodeId(1) },
            Problem::DuplicateSpring { spring: SpringId(1), first: SpringId(0) },
            Problem::DuplicateAnchor { anchor: 1, node: NodeId(0) },
            Problem::AnchorOutOfRange { anchor: 2, node: NodeId(5), nodes: 2 },
            Problem::DegenerateFace { face: FaceId(0) },
            Problem::FaceUvOutOfRange { face: FaceId(0), uv: 3, uvs: 1 },
            Problem::NonFiniteUv { uv: 0 },
            Problem::BadParam { name: "dt".into(), expected: "between 1e-6 and 1 (s)" },
        ];
        assert_eq!(problems, expected);
        let text = Problems(problems).to_string();
        assert!(text.starts_with("12 problems: node 0: position is not finite"), "{text}");
        assert!(text.ends_with("and 4 more"), "{text}");
    }

    #[test]
    fn refuses_magnitudes_that_make_stepping_unbounded() {
        // The hostile files of issue 16: a node a light-year away, a rest length of 1.8e19 m,
        // crossed break limits, a frame step of 1e-30 s, gusts shorter than a frame step.
        let mut m = two_nodes();
        m.nodes.positions_mut()[1] = Vec3::new(2e6, 0.0, 0.0);
        let mut s = m.springs.get(SpringId(0)).expect("one spring");
        s.rest_length = 1.8e19;
        s.break_min = Some(2.0);
        s.break_max = Some(1.0);
        m.springs = std::iter::once(s).collect();
        m.params.dt = 1e-30;
        let problems = m.validate().expect_err("invalid").0;
        let expected = vec![
            Problem::FarPosition { node: NodeId(1) },
            Problem::LongSpringValue { spring: SpringId(0), field: "rest_length", value: 1.8e19 },
            Problem::CrossedBreakLimits { spring: SpringId(0), min: 2.0, max: 1.0 },
            Problem::BadParam { name: "dt".into(), expected: "between 1e-6 and 1 (s)" },
        ];
        assert_eq!(problems, expected);
        let mut gusty = two_nodes();
        gusty.params.air = Some(Air { gusts: 0.5, gust_period: 1e-9, ..Air::default() });
        let gust = Problem::BadParam {
            name: "air.gust_period".into(),
            expected: "a number ≥ the frame step dt (s)",
        };
        assert_eq!(gusty.validate(), Err(Problems(vec![gust])));
        // The limits themselves are allowed.
        let mut m = two_nodes();
        m.nodes.positions_mut()[1] = Vec3::new(MAX_COORDINATE, -MAX_COORDINATE, 0.0);
        m.params.dt = MIN_DT;
        m.params.substeps = 1;
        m.params.air = Some(Air { gusts: 0.5, gust_period: MIN_DT, ..Air::default() });
        assert_eq!(m.validate(), Ok(()));
        // Sub-steps: 10,000 of a 60 Hz frame are 1.7 µs each; of a millisecond, 0.1 µs.
        let mut m = two_nodes();
        m.params.substeps = MAX_SUBSTEPS;
        assert_eq!(m.validate(), Ok(()));
        m.params.dt = 1e-3;
        let short = Problem::BadParam { name: "substeps".into(), expected: SUBSTEP };
        assert_eq!(m.validate(), Err(Problems(vec![short])));
    }

    /// What a too-short sub-step is reported as.
    const SUBSTEP: &str = "at most dt / 1e-6 s (sub-steps of a microsecond or longer)";
}
