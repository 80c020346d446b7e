//! # Keeping hand edits across a re-export
//!
//! The artist's loop is: convert, fix the model by hand, change the mesh in the modeler,
//! re-export — and keep the fixes. A model records how it was converted (its metadata's
//! conversion options), so what the artist changed is what differs from what that conversion
//! makes. The bookkeeping needs nothing stored beyond the options:
//!
//! 1. **What was generated**: the old model's own surface (its drawn vertices, faces and uvs,
//!    already welded: the nodes', or the skin's for a solid simulated as a cage) is converted
//!    again with its recorded options; conversion is deterministic, so this is exactly what
//!    the old model was before any edit.
//! 2. **What was edited**: the old model against that baseline — anchors added or freed, springs
//!    added by hand or deleted, springs whose stiffness, damping, rest length or break limits
//!    differ, node masses that differ, and the simulation parameters (always carried).
//! 3. **Where it goes**: each old node is matched to a node of the new conversion at the same
//!    rest position (within the weld tolerance), else the nearest within
//!    [`MATCH_RADIUS`] of the new model's mean edge; the edits are replayed on those nodes.
//!    An edit whose nodes have no match (the vertex was deleted), or whose spring the new mesh
//!    no longer has, is reported as dropped with the reason: nothing is lost silently.
//!
//! Every node is matched this way, interior (solid) and cage nodes too: a mesh changed a little
//! gives a lattice a little different, whose nodes are found near the old ones.

use crate::pipeline::validated;
use crate::{Conversion, ConvertError, ConvertOptions, RawMesh, convert_mesh};
use glam::Vec3;
use serde::Serialize;
use springmesh_core::{NodeId, Spring, SpringModel};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

/// Old nodes match new ones within this fraction of the new model's mean edge length.
pub const MATCH_RADIUS: f32 = 0.5;

/// What was carried over and what could not be.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct KeptEdits {
    /// How many edits of each kind were carried over.
    pub kept: BTreeMap<&'static str, usize>,
    /// Each edit that could not be carried, with the reason.
    pub dropped: Vec<Dropped>,
}

/// One edit that could not be carried.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Dropped {
    /// What the edit was, e.g. "anchor on node 12".
    pub edit: String,
    /// Why it could not be carried.
    pub reason: String,
}

/// The edits of `old` relative to its own conversion, replayed on `new` (a conversion of the
/// new mesh with `old`'s options). `source` names the old model in errors.
pub fn keep_edits(
    old: &SpringModel,
    new: &mut Conversion,
    options: &ConvertOptions,
    source: &Path,
) -> Result<KeptEdits, ConvertError> {
    let baseline = baseline(old, options, source)?;
    let same = baseline.nodes.positions().len() == old.nodes.len()
        && baseline
            .nodes
            .positions()
            .iter()
            .zip(old.nodes.positions())
            .all(|(a, b)| a.distance(*b) < 1e-6);
    if !same {
        let reason = format!(
            "{}: its recorded conversion does not give back its own nodes (they were added, removed or moved by hand), so its edits cannot be told apart",
            source.display()
        );
        return Err(ConvertError::Options { reason });
    }
    let mut model = new.model.clone().into_inner();
    let map = match_nodes(old, &model, options);
    let mut out = KeptEdits::default();
    let mut keep = |kind: &'static str| *out.kept.entry(kind).or_default() += 1;
    let mut drops = Vec::new();
    let gone = |n: NodeId| format!("node {} has no match in the new mesh", n.0);

    let generated: BTreeSet<NodeId> = baseline.anchors.iter().copied().collect();
    let edited: BTreeSet<NodeId> = old.anchors.iter().copied().collect();
    let mut anchors: BTreeSet<NodeId> = model.anchors.iter().copied().collect();
    for &n in edited.difference(&generated) {
        match map.get(&n) {
            Some(&m) => {
                anchors.insert(m);
                keep("anchors");
            }
            None => {
                drops.push(Dropped { edit: format!("anchor on node {}", n.0), reason: gone(n) })
            }
        }
    }
    for &n in generated.difference(&edited) {
        match map.get(&n) {
            Some(m) => {
                anchors.remove(m);
                keep("freed_anchors");
            }
            None => drops.push(Dropped { edit: format!("freed node {}", n.0), reason: gone(n) }),
        }
    }
    model.anchors = anchors.into_iter().collect();

    let by_pair = |m: &SpringModel| -> BTreeMap<(NodeId, NodeId), Spring> {
        m.springs.iter().map(|s| (s.pair(), s)).collect()
    };
    let (generated, edited) = (by_pair(&baseline), by_pair(old));
    let mut springs = by_pair(&model);
    let mapped = |(a, b): (NodeId, NodeId)| -> Result<(NodeId, NodeId), String> {
        let (Some(&x), Some(&y)) = (map.get(&a), map.get(&b)) else {
            let missing = if map.contains_key(&a) { b } else { a };
            return Err(gone(missing));
        };
        Ok(if x <= y { (x, y) } else { (y, x) })
    };
    let describe = |(a, b): (NodeId, NodeId)| format!("spring {}–{}", a.0, b.0);
    for (&pair, spring) in &edited {
        let generated_spring = generated.get(&pair);
        if generated_spring == Some(spring) {
            continue;
        }
        let kind = if generated_spring.is_some() { "changed_springs" } else { "added_springs" };
        let what = if generated_spring.is_some() { "changed" } else { "added" };
        match mapped(pair) {
            Ok(target) => {
                let present = springs.contains_key(&target);
                if generated_spring.is_some() && !present {
                    let reason = "the new mesh has no spring there".to_string();
                    drops.push(Dropped { edit: format!("{what} {}", describe(pair)), reason });
                    continue;
                }
                springs.insert(target, Spring { a: target.0, b: target.1, ..*spring });
                keep(kind);
            }
            Err(reason) => {
                drops.push(Dropped { edit: format!("{what} {}", describe(pair)), reason })
            }
        }
    }
    for pair in generated.keys().filter(|p| !edited.contains_key(p)) {
        match mapped(*pair) {
            Ok(target) => {
                if springs.remove(&target).is_some() {
                    keep("deleted_springs");
                }
            }
            Err(reason) => {
                drops.push(Dropped { edit: format!("deleted {}", describe(*pair)), reason })
            }
        }
    }
    model.springs = springs.into_values().collect();

    let (old_mass, base_mass) = (old.nodes.masses(), baseline.nodes.masses());
    let new_mass = model.nodes.masses_mut();
    for (i, (&m, &g)) in old_mass.iter().zip(base_mass).enumerate() {
        if m == g {
            continue;
        }
        let n = NodeId(i as u32);
        match map.get(&n) {
            Some(&t) => {
                new_mass[t.index()] = m;
                keep("masses");
            }
            None => drops.push(Dropped { edit: format!("mass of node {i}"), reason: gone(n) }),
        }
    }
    model.params = old.params.clone();
    new.report.anchors = model.anchors.len();
    new.model = validated(model, source)?;
    out.dropped = drops;
    Ok(out)
}

/// What `old`'s conversion made of its own surface, before any edit.
fn baseline(
    old: &SpringModel,
    options: &ConvertOptions,
    source: &Path,
) -> Result<SpringModel, ConvertError> {
    let mesh = RawMesh {
        positions: old.surface_positions().to_vec(),
        uvs: old.surface_uvs().to_vec(),
        triangles: old.surface_faces().nodes().iter().map(|f| f.map(|n| n.0)).collect(),
        triangle_uvs: old.surface_faces().uvs().to_vec(),
        ..RawMesh::default()
    };
    // The old positions are already scaled and welded: convert them as they are.
    let options = ConvertOptions { scale: 1.0, weld_tolerance: Some(0.0), ..options.clone() };
    Ok(convert_mesh(mesh, &options, source)?.model.into_inner())
}

/// Each old node's match in `new`: the same rest position within the weld tolerance, else
/// the nearest within [`MATCH_RADIUS`] of the mean edge.
fn match_nodes(
    old: &SpringModel,
    new: &SpringModel,
    options: &ConvertOptions,
) -> HashMap<NodeId, NodeId> {
    let positions = new.nodes.positions();
    let edges: Vec<f32> = new.springs.iter().map(|s| s.rest_length).collect();
    let mean = edges.iter().sum::<f32>() / edges.len().max(1) as f32;
    let radius = (MATCH_RADIUS * mean).max(options.weld_tolerance.unwrap_or(0.0)).max(1e-9);
    let cell = |p: Vec3| (p / radius).floor().as_ivec3();
    let mut grid: HashMap<glam::IVec3, Vec<u32>> = HashMap::new();
    for (i, &p) in positions.iter().enumerate() {
        grid.entry(cell(p)).or_default().push(i as u32);
    }
    let mut taken = vec![false; positions.len()];
    let mut out = HashMap::new();
    for (i, &p) in old.nodes.positions().iter().enumerate() {
        let c = cell(p);
        let mut best: Option<(f32, u32)> = None;
        for dz in -1..=1 {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    for &j in grid.get(&(c + glam::IVec3::new(dx, dy, dz))).into_iter().flatten() {
                        let d = positions[j as usize].distance(p);
                        if d <= radius && !taken[j as usize] && best.is_none_or(|(bd, _)| d < bd) {
                            best = Some((d, j));
                        }
                    }
                }
            }
        }
        if let Some((_, j)) = best {
            taken[j as usize] = true;
            out.insert(NodeId(i as u32), NodeId(j));
        }
    }
    out
}
