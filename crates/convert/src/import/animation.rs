//! # Animation clips of a glTF file, sampled into joint poses
//!
//! A glTF animation is a set of channels, each driving one node's translation, rotation or
//! scale through a sampler: key times t_0 < t_1 < … and values, interpolated as the
//! specification says (glTF 2.0, "Animations", Appendix C):
//!
//! ```text
//! STEP:        v(t) = v_k                                   for t_k ≤ t < t_{k+1}
//! LINEAR:      v(t) = (1 − s) v_k + s v_{k+1}               s = (t − t_k) / (t_{k+1} − t_k)
//!              rotations: slerp(q_k, q_{k+1}, s)
//! CUBICSPLINE: v(t) = (2s³ − 3s² + 1) v_k + (s³ − 2s² + s) Δ b_k
//!                   + (−2s³ + 3s²) v_{k+1} + (s³ − s²) Δ a_{k+1}      Δ = t_{k+1} − t_k
//!              (each key stores an in-tangent a, the value v and an out-tangent b;
//!               rotations are normalised after)
//! ```
//!
//! A unit quaternion q and −q are the same rotation, and exporters write either: Blender
//! turns each key of an Euler curve into a quaternion of its own sign, so a leg swung out by
//! 40° can be keyed (1, 0, 0, 0) then (−0.94, −0.34, 0, 0). Slerp takes the shorter way
//! either way, but the cubic of the raw components passes near zero between them, and the
//! normalised result swings the leg through 90° on the way (measured on a Blender-made
//! dancer). So, as slerp does, a rotation key whose value points away from the previous one
//! (q_k · q_{k+1} < 0) is taken negated, with its in-tangent.
//!
//! A clip plays as the file says, which is not always as the modeler showed it: Blender's
//! exporter (bpy 5.0.1), asked not to sample, writes CUBICSPLINE tangents of an Euler curve
//! that miss Blender's own curve between keys where its handles are clamped. A figure keyed
//! every second frame turning 180° in 0.5 s is at −168.3° in the file where Blender has it at
//! −160.9°, one frame before the turn ends: its cape's kinematic top row 4 cm off Blender's
//! skin there, and on every frame within 3 µm when the clip is exported sampled (as the
//! Blender add-on does).
//!
//! Before the first key a channel holds its first value, after the last its last. A node no
//! channel drives keeps the translation, rotation and scale of the file. Each node's world
//! matrix is its parent's times its own T·R·S, so an animated armature above the joints counts.
//! A pose is asked for by joint name (a model's rig keeps the names of the file it came from).

use super::accessor::read_vectors;
use super::gltf::open;
use crate::ConvertError;
use crate::limits::{Budget, ImportLimits};
use glam::{Mat4, Quat, Vec3, Vec4};
use gltf::animation::{Interpolation, Property};
use gltf::json::validation::Checked;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One node's rest transform and place in the hierarchy.
#[derive(Clone, Debug)]
struct Node {
    name: Option<String>,
    parent: Option<usize>,
    translation: Vec3,
    rotation: Quat,
    scale: Vec3,
}

/// One channel: a node's property over time.
#[derive(Clone, Debug)]
struct Channel {
    node: usize,
    property: Property,
    interpolation: Interpolation,
    times: Vec<f32>,
    /// Per key its value (x, y, z[, w]); CUBICSPLINE: in-tangent, value, out-tangent per key.
    values: Vec<Vec4>,
}

/// A clip of a glTF file: its nodes and the channels that move them.
#[derive(Clone, Debug)]
pub struct Clip {
    /// The clip's name.
    pub name: String,
    /// Its length (s): the last key of any channel.
    pub duration: f32,
    /// What of the file's clip is not played, as sentences naming the field: channels that
    /// target a property other than a node's translation, rotation or scale.
    pub notes: Vec<String>,
    nodes: Vec<Node>,
    /// The first node of each name.
    named: HashMap<String, usize>,
    /// Nodes, parents first.
    order: Vec<usize>,
    channels: Vec<Channel>,
}

impl Clip {
    /// Reads the clip called `name` from the glTF or GLB file `path` (its bytes `bytes`).
    /// Errors name the clips the file has when none is called so.
    pub fn read(path: &Path, bytes: &[u8], name: &str) -> Result<Clip, ConvertError> {
        let limits = ImportLimits::default();
        let (document, buffers) = open(path, bytes, &limits)?;
        let Some(animation) = document.animations().find(|a| a.name() == Some(name)) else {
            let clips = document.animations().filter_map(|a| a.name().map(str::to_string));
            return Err(ConvertError::NoSuchClip {
                file: path.to_path_buf(),
                name: name.into(),
                clips: clips.collect(),
            });
        };
        let mut budget = Budget::new(&limits);
        Clip::of(path, &document, &buffers, &animation, &mut budget)
    }

    /// Reads every clip of the glTF or GLB file `path` (its bytes `bytes`), in the file's
    /// order; a clip without a name is called "clip K" after its index.
    pub fn read_all(path: &Path, bytes: &[u8]) -> Result<Vec<Clip>, ConvertError> {
        let limits = ImportLimits::default();
        let (document, buffers) = open(path, bytes, &limits)?;
        let mut budget = Budget::new(&limits);
        document
            .animations()
            .map(|a| Clip::of(path, &document, &buffers, &a, &mut budget))
            .collect()
    }

    /// The clip `animation` of `document` (read from `path`), its keys read within `budget`.
    fn of(
        path: &Path,
        document: &gltf::Document,
        buffers: &[gltf::buffer::Data],
        animation: &gltf::Animation,
        budget: &mut Budget,
    ) -> Result<Clip, ConvertError> {
        let file = || path.to_path_buf();
        let name =
            animation.name().map_or_else(|| format!("clip {}", animation.index()), str::to_string);
        let mut nodes = nodes(document);
        let order = parents_first(&mut nodes);
        let (mut channels, mut notes) = (Vec::new(), Vec::new());
        let targets = document.as_json().animations.get(animation.index());
        for (k, channel) in animation.channels().enumerate() {
            // The gltf crate's validation leaves a channel's target unchecked (and its `node`
            // and `property` would panic on a bad one): read from the JSON.
            let field = format!("animations[{}].channels[{k}].target", animation.index());
            let target = targets.and_then(|a| a.channels.get(k)).map(|c| &c.target);
            let Some(target) = target else { continue };
            let node = target.node.value();
            if node >= nodes.len() {
                let reason =
                    format!("{field}.node {node}: no such node (the file has {})", nodes.len());
                return Err(ConvertError::Gltf { file: file(), reason });
            }
            let property = match target.path {
                Checked::Valid(Property::MorphTargetWeights) => {
                    notes.push(format!("{field}.path: morph target weights are not played"));
                    continue;
                }
                Checked::Valid(property) => property,
                Checked::Invalid => {
                    notes.push(format!(
                        "{field}.path: not \"translation\", \"rotation\", \"scale\" or \
                         \"weights\"; the channel is not played"
                    ));
                    continue;
                }
            };
            let sampler = channel.sampler();
            let times = read_vectors::<1>(&sampler.input(), buffers, budget)
                .map_err(|e| accessor(file(), &sampler.input(), e))?;
            let output = sampler.output();
            let values: Vec<Vec4> = match property {
                Property::Rotation => read_vectors::<4>(&output, buffers, budget)
                    .map(|v| v.into_iter().map(Vec4::from_array).collect()),
                Property::Translation | Property::Scale | Property::MorphTargetWeights => {
                    read_vectors::<3>(&output, buffers, budget)
                        .map(|v| v.into_iter().map(|[x, y, z]| Vec4::new(x, y, z, 0.0)).collect())
                }
            }
            .map_err(|e| accessor(file(), &output, e))?;
            let interpolation = sampler.interpolation();
            let times: Vec<f32> = times.into_iter().map(|[t]| t).collect();
            let field = format!("animations[{}].samplers[{}]", animation.index(), sampler.index());
            if let Err(problem) = keys(interpolation, property, &times, &values) {
                let reason = format!("animation \"{name}\": {field}.{problem}");
                return Err(ConvertError::Gltf { file: file(), reason });
            }
            channels.push(Channel { node, property, interpolation, times, values });
        }
        let duration =
            channels.iter().filter_map(|c| c.times.last()).fold(0.0f32, |a, &b| a.max(b));
        let mut named = HashMap::new();
        for (i, n) in nodes.iter().enumerate() {
            if let Some(name) = &n.name {
                named.entry(name.clone()).or_insert(i);
            }
        }
        Ok(Clip { name, duration, notes, nodes, named, order, channels })
    }

    /// The world matrices, at time `t` (s), of the nodes called `joints`, in that order; the
    /// first name no node has is the error.
    pub fn pose(&self, t: f32, joints: &[&str]) -> Result<Vec<Mat4>, String> {
        let index: Vec<usize> = joints
            .iter()
            .map(|&j| self.named.get(j).copied().ok_or_else(|| j.to_string()))
            .collect::<Result<_, _>>()?;
        let world = self.world(t);
        Ok(index.into_iter().map(|i| world[i]).collect())
    }

    /// The clip's time when it is played in a loop and `t` seconds have passed since its start.
    pub fn looped(&self, t: f64) -> f32 {
        let length = f64::from(self.duration);
        if length > 0.0 { t.rem_euclid(length) as f32 } else { 0.0 }
    }

    /// True when the clip, played in a loop, wraps round to its start between `from` and `to`
    /// seconds since its start: the pose at `to` is a jump back, a teleport.
    pub fn wraps(&self, from: f64, to: f64) -> bool {
        let length = f64::from(self.duration);
        length > 0.0 && (to / length).floor() > (from / length).floor()
    }

    /// [`Clip::pose`] for a model converted at `scale` ([`crate::ConvertOptions::scale`]):
    /// each matrix S M, the character's root scaled as the model was.
    pub fn pose_scaled(&self, t: f32, joints: &[&str], scale: f32) -> Result<Vec<Mat4>, String> {
        let s = Mat4::from_scale(Vec3::splat(scale));
        Ok(self.pose(t, joints)?.into_iter().map(|m| s * m).collect())
    }

    /// Every node's world matrix at time `t`.
    fn world(&self, t: f32) -> Vec<Mat4> {
        let mut trs: Vec<(Vec3, Quat, Vec3)> =
            self.nodes.iter().map(|n| (n.translation, n.rotation, n.scale)).collect();
        for c in &self.channels {
            let Some(node) = trs.get_mut(c.node) else { continue };
            let v = sample(c, t);
            match c.property {
                Property::Translation => node.0 = v.truncate(),
                Property::Rotation => node.1 = Quat::from_vec4(v).normalize(),
                Property::Scale => node.2 = v.truncate(),
                Property::MorphTargetWeights => {}
            }
        }
        let mut world = vec![Mat4::IDENTITY; self.nodes.len()];
        for &i in &self.order {
            let (t, r, s) = trs[i];
            let local = Mat4::from_scale_rotation_translation(s, r, t);
            world[i] = self.nodes[i].parent.map_or(local, |p| world[p] * local);
        }
        world
    }
}

/// The error of an accessor of `file` that cannot be read.
fn accessor(file: PathBuf, a: &gltf::Accessor, reason: String) -> ConvertError {
    ConvertError::Accessor { file, accessor: a.index(), reason }
}

/// Every node of `document` with its parent and rest transform.
fn nodes(document: &gltf::Document) -> Vec<Node> {
    let mut nodes: Vec<Node> = document
        .nodes()
        .map(|n| {
            let (translation, rotation, scale) = n.transform().decomposed();
            Node {
                name: n.name().map(str::to_string),
                parent: None,
                translation: Vec3::from_array(translation),
                rotation: Quat::from_array(rotation).normalize(),
                scale: Vec3::from_array(scale),
            }
        })
        .collect();
    for n in document.nodes() {
        for child in n.children() {
            if let Some(c) = nodes.get_mut(child.index()) {
                c.parent = Some(n.index());
            }
        }
    }
    nodes
}

/// The nodes' indices with every parent before its children, walked breadth first from the
/// roots: linear in the nodes, however deep the hierarchy (a chain of 100,000 nodes between
/// the scene's root and the armature took 80 s when each node's depth was walked up to the
/// root). A node on a cycle, which no root reaches, is made a root. The depth needs no limit
/// of its own: nothing recurses (a queue, not the call stack, holds the walk), so a chain as
/// deep as the file has nodes is walked as fast as a flat list (`tests/import/skins.rs`: 20,000).
fn parents_first(nodes: &mut [Node]) -> Vec<usize> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        if let Some(p) = n.parent.filter(|&p| p < children.len()) {
            children[p].push(i);
        }
    }
    let mut order = Vec::with_capacity(nodes.len());
    let mut seen = vec![false; nodes.len()];
    let roots: Vec<usize> = (0..nodes.len()).filter(|&i| nodes[i].parent.is_none()).collect();
    let walk = |root: usize, order: &mut Vec<usize>, seen: &mut [bool]| {
        let start = order.len();
        order.push(root);
        seen[root] = true;
        let mut next = start;
        while let Some(&at) = order.get(next) {
            next += 1;
            for &c in &children[at] {
                if !seen[c] {
                    seen[c] = true;
                    order.push(c);
                }
            }
        }
    };
    for root in roots {
        walk(root, &mut order, &mut seen);
    }
    for i in 0..nodes.len() {
        if !seen[i] {
            nodes[i].parent = None;
            walk(i, &mut order, &mut seen);
        }
    }
    order
}

/// Channel `c`'s value at time `t` (module doc).
fn sample(c: &Channel, t: f32) -> Vec4 {
    let cubic = c.interpolation == Interpolation::CubicSpline;
    let value = |k: usize| if cubic { c.values[3 * k + 1] } else { c.values[k] };
    let last = c.times.len() - 1;
    if t <= c.times[0] {
        return value(0);
    }
    if t >= c.times[last] {
        return value(last);
    }
    let k = c.times.partition_point(|&x| x <= t) - 1;
    let (t0, t1) = (c.times[k], c.times[k + 1]);
    let dt = t1 - t0;
    let s = (t - t0) / dt;
    let rotation = c.property == Property::Rotation;
    match c.interpolation {
        Interpolation::Step => value(k),
        Interpolation::Linear if rotation => {
            let (a, b) =
                (Quat::from_vec4(value(k)).normalize(), Quat::from_vec4(value(k + 1)).normalize());
            Vec4::from(a.slerp(b, s))
        }
        Interpolation::Linear => value(k).lerp(value(k + 1), s),
        Interpolation::CubicSpline => {
            let (s2, s3) = (s * s, s * s * s);
            let out_tangent = c.values[3 * k + 2];
            // A rotation's next key on the far side of the sphere of unit quaternions is the
            // same rotation negated, with its tangent (module doc).
            let far = rotation && value(k).dot(value(k + 1)) < 0.0;
            let sign = if far { -1.0 } else { 1.0 };
            let in_tangent = c.values[3 * (k + 1)] * sign;
            value(k) * (2.0 * s3 - 3.0 * s2 + 1.0)
                + out_tangent * (dt * (s3 - 2.0 * s2 + s))
                + value(k + 1) * (sign * (-2.0 * s3 + 3.0 * s2))
                + in_tangent * (dt * (s3 - s2))
        }
    }
}

/// What is wrong with a sampler's keys at `times` and their `values` for `property` with
/// `interpolation`, as "input: …" or "output: …": none, times not finite or not increasing,
/// values not finite or beyond the models' coordinate limit (a translation or a scale), or
/// not as many as the interpolation needs (CUBICSPLINE: an in-tangent, a value and an
/// out-tangent a key).
fn keys(
    interpolation: Interpolation,
    property: Property,
    times: &[f32],
    values: &[Vec4],
) -> Result<(), String> {
    if times.is_empty() {
        return Err("input: no keys (a sampler needs at least one)".into());
    }
    if let Some(k) = times.iter().position(|t| !t.is_finite()) {
        return Err(format!("input: key {k}'s time {} is not a finite number", times[k]));
    }
    if let Some(k) = times.windows(2).position(|w| w[0] >= w[1]) {
        let (before, at) = (times[k], times[k + 1]);
        return Err(format!(
            "input: key {}'s time {at} s is not after key {k}'s {before} s (times must increase)",
            k + 1
        ));
    }
    let (per_key, how) = match interpolation {
        Interpolation::CubicSpline => (3, "CUBICSPLINE needs 3 values a key"),
        Interpolation::Linear => (1, "LINEAR needs 1 value a key"),
        Interpolation::Step => (1, "STEP needs 1 value a key"),
    };
    if values.len() != per_key * times.len() {
        let (wanted, found) = (per_key * times.len(), values.len());
        return Err(format!("output: {how}: {wanted} for {} keys, found {found}", times.len()));
    }
    let limit = springmesh_core::model::MAX_COORDINATE;
    let bounded = matches!(property, Property::Translation | Property::Scale);
    let bad = |v: &Vec4| !v.is_finite() || (bounded && v.abs().max_element() > limit);
    if let Some(k) = values.iter().position(bad) {
        let why = if values[k].is_finite() {
            format!("is beyond ±{limit}, the models' coordinate limit")
        } else {
            "is not a finite number".into()
        };
        return Err(format!("output: value {k} ({}) {why}", values[k]));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel(property: Property, interpolation: Interpolation, values: Vec<Vec4>) -> Channel {
        Channel { node: 0, property, interpolation, times: vec![0.0, 1.0], values }
    }

    #[test]
    fn samplers_interpolate_as_the_specification_says() {
        let (a, b) = (Vec4::new(0.0, 0.0, 0.0, 0.0), Vec4::new(2.0, 4.0, 6.0, 0.0));
        let linear = channel(Property::Translation, Interpolation::Linear, vec![a, b]);
        assert_eq!(sample(&linear, 0.25), Vec4::new(0.5, 1.0, 1.5, 0.0));
        assert_eq!(sample(&linear, -1.0), a, "before the first key: the first value");
        assert_eq!(sample(&linear, 9.0), b, "after the last: the last");
        let step = channel(Property::Translation, Interpolation::Step, vec![a, b]);
        assert_eq!(sample(&step, 0.99), a);
        // A quarter turn about y, half way: an eighth.
        let q = Vec4::from(Quat::from_rotation_y(std::f32::consts::FRAC_PI_2));
        let turn = channel(Property::Rotation, Interpolation::Linear, vec![Vec4::W, q]);
        let half = Quat::from_vec4(sample(&turn, 0.5));
        assert!(half.angle_between(Quat::from_rotation_y(std::f32::consts::FRAC_PI_4)) < 1e-5);
        // Hermite with zero tangents: smoothstep between the values.
        let zero = Vec4::ZERO;
        let cubic = channel(
            Property::Translation,
            Interpolation::CubicSpline,
            vec![zero, a, zero, zero, b, zero],
        );
        let v = sample(&cubic, 0.25);
        let smooth = 3.0 * 0.25f32.powi(2) - 2.0 * 0.25f32.powi(3);
        assert!((v - b * smooth).length() < 1e-6, "{v}");
    }

    #[test]
    fn a_cubic_rotation_keyed_with_the_other_sign_takes_the_short_way() {
        // As Blender writes a leg swung out by 40°: a half turn about x, then the same turn
        // and 40° more with the other sign. Half way, with zero tangents, the result is
        // slerp's half way (equal weights), 20° from each, not the 90° swing of the raw cubic.
        let q0 = Vec4::new(1.0, 0.0, 0.0, 0.0);
        let q1 = Vec4::new(-0.9397, -0.342, 0.0, 0.0);
        let zero = Vec4::ZERO;
        let keys = vec![zero, q0, zero, zero, q1, zero];
        let turn = channel(Property::Rotation, Interpolation::CubicSpline, keys);
        let half = Quat::from_vec4(sample(&turn, 0.5)).normalize();
        let expected = Quat::from_vec4(q0).slerp(Quat::from_vec4(q1).normalize(), 0.5);
        assert!(half.angle_between(expected) < 1e-3, "{half} against {expected}");
        assert!(half.angle_between(Quat::from_vec4(q0)) < 0.36, "{half}");
    }
}
