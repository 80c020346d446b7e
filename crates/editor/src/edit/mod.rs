//! # Edits: every change the editor makes to a model
//!
//! The editor changes a [`SpringModel`] only by [`apply`]ing an [`Edit`], which checks the
//! edit against the model first (so a bad edit changes nothing) and returns the edit that
//! undoes it. The [`crate::history::History`] keeps those inverses, so undo and redo are just
//! more edits, and "undo restores the model exactly" is a property a test can check over
//! random edit sequences.
//!
//! Small edits have small inverses (a removed spring is put back at its index); removing nodes
//! renumbers everything after them, so its inverse is the whole previous model.

mod remove_nodes;
mod rig;

pub use rig::{set_character_colliders, set_max_distance};
pub use springmesh_analysis::connect::{Connect, connecting_springs};

use crate::error::EditorError;
use springmesh_core::model::Rig;
use springmesh_core::{Node, NodeId, SimParams, Spring, SpringId, SpringModel};
use std::collections::BTreeSet;

/// One change to a model.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Appends springs.
    AddSprings(Vec<Spring>),
    /// Removes springs; later springs move down.
    RemoveSprings(Vec<SpringId>),
    /// Puts springs back at their indices (ascending): the undo of [`Edit::RemoveSprings`].
    InsertSprings(Vec<(SpringId, Spring)>),
    /// Gives springs new values (stiffness, damping, rest length, limits, ends, kind).
    SetSprings(Vec<(SpringId, Spring)>),
    /// Gives nodes new positions and masses.
    SetNodes(Vec<(NodeId, Node)>),
    /// Anchors the nodes that are free and frees the anchored ones.
    ToggleAnchors(Vec<NodeId>),
    /// Replaces the list of anchors.
    SetAnchors(Vec<NodeId>),
    /// Removes nodes with their springs and faces; later nodes move down and every index is
    /// renumbered.
    RemoveNodes(Vec<NodeId>),
    /// Replaces the simulation parameters.
    SetParams(Box<SimParams>),
    /// Replaces a worn model's skeleton binding (its max distances, back-stops and the character's
    /// colliders) and its anchors with it: a node of max distance 0 is kinematic, an anchor.
    SetRig {
        /// The new binding.
        rig: Box<Rig>,
        /// The new anchors.
        anchors: Vec<NodeId>,
    },
    /// Replaces the whole model (a new conversion; the undo of [`Edit::RemoveNodes`]).
    Replace(Box<SpringModel>),
}

impl Edit {
    /// True unless the edit changes only the simulation parameters.
    pub fn is_structural(&self) -> bool {
        !matches!(self, Edit::SetParams(_))
    }
}

/// Applies `edit` to `model` and returns the edit that undoes it. On error the model is
/// unchanged.
pub fn apply(model: &mut SpringModel, edit: Edit) -> Result<Edit, EditorError> {
    match edit {
        Edit::AddSprings(springs) => {
            for s in &springs {
                check_ends(model, s)?;
            }
            let first = model.springs.len();
            for s in springs {
                model.springs.push(s);
            }
            Ok(Edit::RemoveSprings(
                (first..model.springs.len()).map(SpringId::from_index).collect(),
            ))
        }
        Edit::RemoveSprings(ids) => {
            let ids = unique(ids.iter().map(|s| s.index()), model.springs.len(), Item::Spring)?;
            let mut removed = Vec::with_capacity(ids.len());
            for &i in ids.iter().rev() {
                let id = SpringId::from_index(i);
                removed.extend(model.springs.remove(id).map(|s| (id, s)));
            }
            removed.reverse();
            Ok(Edit::InsertSprings(removed))
        }
        Edit::InsertSprings(entries) => {
            let mut last = None;
            for (len, (id, s)) in (model.springs.len()..).zip(&entries) {
                check_ends(model, s)?;
                if id.index() > len || last.is_some_and(|l| id.index() <= l) {
                    return Err(Item::Spring.missing(id.index(), len));
                }
                last = Some(id.index());
            }
            let ids = entries.iter().map(|(id, _)| *id).collect();
            for (id, s) in entries {
                model.springs.insert(id, s);
            }
            Ok(Edit::RemoveSprings(ids))
        }
        Edit::SetSprings(entries) => {
            let count = model.springs.len();
            unique(entries.iter().map(|(id, _)| id.index()), count, Item::Spring)?;
            for (_, s) in &entries {
                check_ends(model, s)?;
            }
            let springs = &mut model.springs;
            Ok(Edit::SetSprings(swap_values(entries, |id, s| {
                let old = springs.get(id)?;
                springs.set(id, s);
                Some(old)
            })))
        }
        Edit::SetNodes(entries) => {
            unique(entries.iter().map(|(id, _)| id.index()), model.nodes.len(), Item::Node)?;
            let nodes = &mut model.nodes;
            Ok(Edit::SetNodes(swap_values(entries, |id, n| {
                let old = nodes.get(id)?;
                nodes.set(id, n);
                Some(old)
            })))
        }
        Edit::ToggleAnchors(nodes) => {
            let nodes = unique(nodes.iter().map(|n| n.index()), model.nodes.len(), Item::Node)?;
            let old = model.anchors.clone();
            for n in nodes.into_iter().map(NodeId::from_index) {
                if model.is_anchor(n) {
                    model.anchors.retain(|&a| a != n);
                } else {
                    model.anchors.push(n);
                }
            }
            Ok(Edit::SetAnchors(old))
        }
        Edit::SetAnchors(anchors) => {
            let count = model.nodes.len();
            if let Some(bad) = anchors.iter().find(|n| n.index() >= count) {
                return Err(Item::Node.missing(bad.index(), count));
            }
            Ok(Edit::SetAnchors(std::mem::replace(&mut model.anchors, anchors)))
        }
        Edit::RemoveNodes(nodes) => {
            let gone = unique(nodes.iter().map(|n| n.index()), model.nodes.len(), Item::Node)?;
            let kept = remove_nodes::without(model, &gone)?;
            Ok(Edit::Replace(Box::new(std::mem::replace(model, kept))))
        }
        Edit::SetParams(params) => {
            Ok(Edit::SetParams(Box::new(std::mem::replace(&mut model.params, *params))))
        }
        Edit::SetRig { rig, anchors } => {
            let count = model.nodes.len();
            let Some(old) = model.rig.as_mut() else { return Err(EditorError::NotWorn) };
            if let Some(p) = rig.problems(count).first() {
                return Err(EditorError::BadRig { reason: p.to_string() });
            }
            if let Some(bad) = anchors.iter().find(|n| n.index() >= count) {
                return Err(Item::Node.missing(bad.index(), count));
            }
            let old_rig = Box::new(std::mem::replace(old, *rig));
            let old_anchors = std::mem::replace(&mut model.anchors, anchors);
            Ok(Edit::SetRig { rig: old_rig, anchors: old_anchors })
        }
        Edit::Replace(other) => Ok(Edit::Replace(Box::new(std::mem::replace(model, *other)))),
    }
}

/// Gives each entry's item its new value with `swap` (which returns the old one) and returns
/// the old values, for the undo.
fn swap_values<I: Copy, V>(
    entries: Vec<(I, V)>,
    mut swap: impl FnMut(I, V) -> Option<V>,
) -> Vec<(I, V)> {
    entries.into_iter().filter_map(|(id, v)| swap(id, v).map(|old| (id, old))).collect()
}

/// What an index names.
#[derive(Clone, Copy)]
enum Item {
    Node,
    Spring,
}

impl Item {
    fn missing(self, index: usize, count: usize) -> EditorError {
        match self {
            Item::Node => EditorError::NoSuchNode { index, count },
            Item::Spring => EditorError::NoSuchSpring { index, count },
        }
    }

    fn name(self) -> &'static str {
        match self {
            Item::Node => "node",
            Item::Spring => "spring",
        }
    }
}

/// The indices `ids` of `item`s, checked to be below `count` and named once, ascending.
fn unique(
    ids: impl Iterator<Item = usize>,
    count: usize,
    item: Item,
) -> Result<BTreeSet<usize>, EditorError> {
    let mut seen = BTreeSet::new();
    for i in ids {
        if i >= count {
            return Err(item.missing(i, count));
        }
        if !seen.insert(i) {
            return Err(EditorError::Twice { what: item.name(), index: i });
        }
    }
    Ok(seen)
}

/// A spring's ends must be two different nodes of the model.
fn check_ends(model: &SpringModel, s: &Spring) -> Result<(), EditorError> {
    let count = model.nodes.len();
    for end in [s.a, s.b] {
        if end.index() >= count {
            return Err(Item::Node.missing(end.index(), count));
        }
    }
    if s.a == s.b {
        return Err(EditorError::SameNode { node: s.a.index() });
    }
    Ok(())
}

#[cfg(test)]
mod tests;
