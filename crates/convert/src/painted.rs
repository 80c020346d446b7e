//! # Painted data: pins, stiffness and mass painted in the modeler
//!
//! Artists paint per-vertex data in Blender or Maya and export it with the mesh: glTF allows
//! application-specific vertex attributes whose names start with an underscore (Blender's
//! glTF exporter writes them with "Attributes" ticked), and every exporter writes vertex
//! colours (glTF `COLOR_0`, OBJ's `v x y z r g b`). Springmesh reads:
//!
//! - `_PIN` (scalar): a vertex with a value ≥ 0.5 becomes an anchor;
//! - `_STIFFNESS` (scalar): each spring's stiffness is multiplied by the mean of its two ends'
//!   values (1 where a node has none);
//! - `_MASS` (scalar): multiplies the node's mass;
//! - with [`PinColor`] (`--pin-color red|green|blue|alpha`), anchors come from a vertex-colour
//!   channel ≥ its threshold instead of `_PIN`.
//!
//! Vertices welded into one node combine their values: the largest for pins (a painted pin on
//! any of them holds the node), the mean for the rest. A part of the mesh without an attribute
//! has none (NaN in [`crate::RawMesh::attributes`]): no pin, factor 1.

use crate::ConvertError;
use serde::Serialize;
use springmesh_core::model::{Springs, painted};

/// The attribute names Springmesh reads.
pub const KNOWN: [&str; 6] = painted::PAINTED;

/// Anchors from a vertex-colour channel.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PinColor {
    /// The channel: 0 red, 1 green, 2 blue, 3 alpha.
    pub channel: usize,
    /// The value (0 to 1) from which a vertex is pinned.
    pub threshold: f32,
}

/// The painted values of every node (after welding), where the mesh had them.
#[derive(Debug, Default)]
pub struct Painted {
    /// Whether each node is pinned; empty when nothing is painted.
    pub pinned: Vec<bool>,
    /// Stiffness factor per node (1 where none was painted); empty when none was.
    pub stiffness: Vec<f32>,
    /// Mass factor per node; empty when none was painted.
    pub mass: Vec<f32>,
}

impl Painted {
    /// The painted values of `nodes` nodes, `node_of[v]` being vertex v's node (or `None`).
    pub fn combine(
        mesh: &crate::RawMesh,
        node_of: &[Option<u32>],
        nodes: usize,
        pin_color: Option<PinColor>,
    ) -> Painted {
        // One pass over the vertices, no list per node: the largest value, or the sum and
        // count for the mean.
        fn nodes_of<'a>(
            values: &'a [f32],
            node_of: &'a [Option<u32>],
        ) -> impl Iterator<Item = (f32, usize)> + 'a {
            let painted = values.iter().zip(node_of).filter(|(x, _)| !x.is_nan());
            painted.filter_map(|(&x, n)| Some((x, (*n)? as usize)))
        }
        let max = |values: &[f32]| {
            let mut out = vec![f32::NAN; nodes];
            for (x, n) in nodes_of(values, node_of) {
                out[n] = out[n].max(x);
            }
            out
        };
        let mean = |values: &[f32]| {
            let mut sums = vec![(0.0f32, 0u32); nodes];
            for (x, n) in nodes_of(values, node_of) {
                sums[n] = (sums[n].0 + x, sums[n].1 + 1);
            }
            sums.iter()
                .map(|&(sum, k)| if k == 0 { 1.0 } else { sum / k as f32 })
                .collect::<Vec<f32>>()
        };
        let pins: Option<Vec<f32>> = match pin_color {
            Some(c) if !mesh.colors.is_empty() => {
                let channel: Vec<f32> =
                    mesh.colors.iter().map(|rgba| rgba[c.channel.min(3)]).collect();
                Some(
                    max(&channel)
                        .iter()
                        .map(|&x| if x >= c.threshold { 1.0 } else { 0.0 })
                        .collect(),
                )
            }
            Some(_) => None,
            None => mesh.attributes.get(painted::PIN).map(|p| max(p)),
        };
        Painted {
            pinned: pins.map(|p| p.iter().map(|&x| x >= 0.5).collect()).unwrap_or_default(),
            stiffness: mesh.attributes.get(painted::STIFFNESS).map(|s| mean(s)).unwrap_or_default(),
            mass: mesh.attributes.get(painted::MASS).map(|m| mean(m)).unwrap_or_default(),
        }
    }

    /// The nodes to anchor.
    pub fn anchors(&self) -> impl Iterator<Item = u32> + '_ {
        self.pinned.iter().enumerate().filter(|&(_, &p)| p).map(|(i, _)| i as u32)
    }

    /// The stiffness factor of a spring between nodes `a` and `b` (1 for a node past the
    /// painted ones: a solid's interior).
    pub fn stiffness_factor(&self, a: u32, b: u32) -> f32 {
        if self.stiffness.is_empty() {
            return 1.0;
        }
        let at = |n: u32| self.stiffness.get(n as usize).copied().unwrap_or(1.0);
        0.5 * (at(a) + at(b))
    }

    /// The mass factor of node `n`.
    pub fn mass_factor(&self, n: usize) -> f32 {
        self.mass.get(n).copied().unwrap_or(1.0)
    }

    /// The painted values of a cage's `nodes` nodes that surface vertices ride on by
    /// `bindings` (nodes and weights): a node carrying a pinned vertex is pinned (so the vertex
    /// is held whole), and its stiffness and mass factors are the weighted means of the
    /// vertices' (1 for a node that carries none).
    pub fn onto_cage(&self, bindings: &[([u32; 4], [f32; 4])], nodes: usize) -> Painted {
        let carried = bindings.iter().enumerate().flat_map(|(v, (n, w))| {
            n.iter().zip(w).filter(|(_, w)| **w > 0.0).map(move |(&n, &w)| (v, n as usize, w))
        });
        let mut pinned = vec![false; if self.pinned.is_empty() { 0 } else { nodes }];
        let mut sums = vec![(0.0f32, 0.0f32, 0.0f32); nodes];
        for (v, n, w) in carried {
            if self.pinned.get(v).copied().unwrap_or(false) {
                pinned[n] = true;
            }
            let s = &mut sums[n];
            *s = (
                s.0 + w * self.stiffness.get(v).unwrap_or(&1.0),
                s.1 + w * self.mass_factor(v),
                s.2 + w,
            );
        }
        let mean = |painted: bool, pick: fn(&(f32, f32, f32)) -> f32| -> Vec<f32> {
            if !painted {
                return Vec::new();
            }
            sums.iter().map(|s| if s.2 > 0.0 { pick(s) / s.2 } else { 1.0 }).collect()
        };
        Painted {
            pinned,
            stiffness: mean(!self.stiffness.is_empty(), |s| s.0),
            mass: mean(!self.mass.is_empty(), |s| s.1),
        }
    }

    /// These values, if every painted mass factor is a number > 0.
    pub(crate) fn checked(self) -> Result<Painted, ConvertError> {
        if self.mass.iter().any(|&f| !(f.is_finite() && f > 0.0)) {
            let reason = "a painted _MASS must be a number > 0 wherever it is painted";
            return Err(ConvertError::Options { reason: reason.into() });
        }
        Ok(self)
    }

    /// Multiplies each spring's stiffness by its painted factor (a negative one counts as 0);
    /// how many springs had a factor other than 1.
    pub(crate) fn scale_stiffness(&self, springs: &mut Springs) -> usize {
        if self.stiffness.is_empty() {
            return 0;
        }
        let mut weighted = 0;
        let ends = springs.a().iter().zip(springs.b()).map(|(a, b)| (a.0, b.0));
        let factors: Vec<f32> = ends.map(|(a, b)| self.stiffness_factor(a, b)).collect();
        for (k, factor) in springs.stiffnesses_mut().iter_mut().zip(factors) {
            if factor != 1.0 {
                weighted += 1;
                *k *= factor.max(0.0);
            }
        }
        weighted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RawMesh;

    #[test]
    fn welded_vertices_take_the_largest_pin_and_the_mean_of_the_rest() {
        let mut mesh = RawMesh::default();
        mesh.set_attribute("_PIN", 0, &[0.0, 0.6, 0.2, f32::NAN]);
        mesh.set_attribute("_STIFFNESS", 0, &[2.0, 4.0, 1.0, f32::NAN]);
        // Vertices 0 and 1 weld into node 0; 2 is node 1; 3 (unpainted) node 2.
        let node_of = [Some(0), Some(0), Some(1), Some(2)];
        let p = Painted::combine(&mesh, &node_of, 3, None);
        assert_eq!(p.pinned, vec![true, false, false]);
        assert_eq!(p.stiffness, vec![3.0, 1.0, 1.0]);
        assert_eq!(p.stiffness_factor(0, 1), 2.0);
        assert_eq!(p.stiffness_factor(0, 9), 2.0, "a node past the painted ones counts 1");
        assert_eq!(p.mass_factor(1), 1.0, "no _MASS painted");
        mesh.colors = vec![[1.0, 0.0, 0.0, 1.0], [0.0; 4], [0.0; 4], [0.9, 0.0, 0.0, 1.0]];
        let red =
            Painted::combine(&mesh, &node_of, 3, Some(PinColor { channel: 0, threshold: 0.5 }));
        assert_eq!(red.anchors().collect::<Vec<_>>(), vec![0, 2], "the colour replaces _PIN");
    }
}
