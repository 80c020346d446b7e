//! The imported mesh: what the OBJ and glTF readers produce and the pipeline consumes.

use crate::ConvertError;
use crate::report::ConvertReport;
use glam::{Mat4, Vec2, Vec3};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A triangle soup with texture coordinates, as read from a file, before welding.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawMesh {
    /// Vertex positions (m), after any node transforms.
    pub positions: Vec<Vec3>,
    /// Texture coordinates.
    pub uvs: Vec<Vec2>,
    /// Triangles as position indices, counter-clockwise seen from the front.
    pub triangles: Vec<[u32; 3]>,
    /// Per triangle, the uv index of each corner, when the source has texture coordinates.
    pub triangle_uvs: Vec<Option<[u32; 3]>>,
    /// Quads of the source, as position indices in order around the quad (for quad shear).
    pub quads: Vec<[u32; 4]>,
    /// Vertices of the file that no face uses, left out by the reader.
    pub unreferenced: usize,
    /// Point primitives skipped.
    pub points: usize,
    /// Line primitives (segments) skipped.
    pub lines: usize,
    /// The base-colour texture, if the source names one.
    pub texture: Option<Texture>,
    /// Problems the reader noticed but got past (missing material file, ...).
    pub notes: Vec<String>,
    /// Vertex colours (RGBA, 0 to 1), one per position, or none at all; NaN for the vertices
    /// of a part that has none.
    pub colors: Vec<[f32; 4]>,
    /// Painted scalar attributes by name (`_PIN`, `_STIFFNESS`, `_MASS`), one value per
    /// position; NaN for the vertices of a part that has none ([`crate::painted`]).
    pub attributes: BTreeMap<String, Vec<f32>>,
    /// The skeleton the mesh is skinned to, parents first (empty: none) ([`crate::rigging`]).
    pub skeleton: Vec<springmesh_core::model::Joint>,
    /// Per position, its joints (indices into `skeleton`) and weights (summing to 1, or all 0:
    /// not skinned); empty when the file has no skin.
    pub joint_weights: Vec<([u16; 4], [f32; 4])>,
    /// The character the mesh is worn on: its vertices at rest with their joints and weights.
    pub character: Vec<(Vec3, [u16; 4], [f32; 4])>,
    /// The character's triangles, as indices into `character`.
    pub character_triangles: Vec<[u32; 3]>,
}

/// Where a mesh's base-colour texture is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Texture {
    /// An image file (resolved against the mesh's folder).
    File(PathBuf),
    /// An image stored inside the mesh file.
    Embedded {
        /// MIME type, e.g. `image/png`.
        mime: String,
        /// The encoded image.
        bytes: Vec<u8>,
    },
}

impl RawMesh {
    /// Sets painted attribute `name` for the positions from `start` on to `values`, padding
    /// with NaN the positions before that have none.
    pub fn set_attribute(&mut self, name: &str, start: usize, values: &[f32]) {
        let column = self.attributes.entry(name.to_string()).or_default();
        column.resize(start, f32::NAN);
        column.extend_from_slice(values);
    }

    /// Sets the colours of the positions from `start` on, padding with NaN before.
    pub fn set_colors(&mut self, start: usize, values: &[[f32; 4]]) {
        self.colors.resize(start, [f32::NAN; 4]);
        self.colors.extend_from_slice(values);
    }

    /// Pads every per-position column to the positions read so far.
    pub fn pad_columns(&mut self) {
        let n = self.positions.len();
        for column in self.attributes.values_mut() {
            column.resize(n, f32::NAN);
        }
        if !self.colors.is_empty() {
            self.colors.resize(n, [f32::NAN; 4]);
        }
    }

    /// Puts the positions in the order `order` names them (position k becomes the one at
    /// `order[k]`) with their colours, attributes and joints, and renumbers the triangles and
    /// quads; nothing changes when `order` is not a permutation of the positions.
    pub(crate) fn reorder(&mut self, order: &[u32]) {
        if order.len() != self.positions.len() {
            return;
        }
        let mut renumbered = vec![u32::MAX; order.len()];
        for (k, &old) in order.iter().enumerate() {
            match renumbered.get_mut(old as usize) {
                Some(slot) if *slot == u32::MAX => *slot = k as u32,
                _ => return,
            }
        }
        fn permute<T: Copy>(column: &mut Vec<T>, order: &[u32]) {
            if column.len() == order.len() {
                *column = order.iter().map(|&old| column[old as usize]).collect();
            }
        }
        permute(&mut self.positions, order);
        permute(&mut self.colors, order);
        permute(&mut self.joint_weights, order);
        self.attributes.values_mut().for_each(|column| permute(column, order));
        let at = |i: u32| renumbered.get(i as usize).copied().unwrap_or(i);
        self.triangles.iter_mut().for_each(|t| *t = t.map(at));
        self.quads.iter_mut().for_each(|q| *q = q.map(at));
    }

    /// Appends a triangle with optional per-corner uvs.
    pub fn push_triangle(&mut self, corners: [u32; 3], uvs: Option<[u32; 3]>) {
        self.triangles.push(corners);
        self.triangle_uvs.push(uvs);
    }
}

impl RawMesh {
    /// Checks the mesh read from `file` before conversion, and scales it by `scale`: it has
    /// triangles, finite positions within [`springmesh_core::model::MAX_COORDINATE`] (after
    /// scaling), and triangles that name existing vertices.
    pub(crate) fn prepare(&mut self, scale: f32, file: &Path) -> Result<(), ConvertError> {
        let file = || file.to_path_buf();
        if self.triangles.is_empty() {
            return Err(ConvertError::NoTriangles {
                file: file(),
                points: self.points,
                lines: self.lines,
            });
        }
        let non_finite = |p: &[Vec3]| p.iter().position(|p| !p.is_finite());
        if let Some(vertex) = non_finite(&self.positions) {
            return Err(ConvertError::NonFinite { file: file(), vertex });
        }
        let n = self.positions.len();
        if let Some(t) = self.triangles.iter().position(|t| t.iter().any(|&i| i as usize >= n)) {
            let what = format!("triangle {t} names a vertex that does not exist");
            return Err(ConvertError::TooLarge { file: file(), what });
        }
        if scale != 1.0 {
            self.scale(scale);
            if let Some(vertex) = non_finite(&self.positions) {
                return Err(ConvertError::NonFinite { file: file(), vertex });
            }
        }
        let limit = springmesh_core::model::MAX_COORDINATE;
        if let Some(vertex) = self.positions.iter().position(|p| p.abs().max_element() > limit) {
            return Err(ConvertError::FarVertex { file: file(), vertex, limit });
        }
        Ok(())
    }

    /// Scales the mesh by `s` about the origin, with the character it is worn on and the
    /// skeleton's rest pose (each inverse bind M⁻¹ becomes M⁻¹ S⁻¹, so the joints at rest are
    /// S M: a game scales the character's root by `s` as well, and the skin of the scaled mesh
    /// is the scaled skin). The painted distances are the rig's to scale
    /// ([`crate::rigging::scale_distances`]).
    fn scale(&mut self, s: f32) {
        for p in &mut self.positions {
            *p *= s;
        }
        for (p, ..) in &mut self.character {
            *p *= s;
        }
        let back = Mat4::from_scale(Vec3::splat(1.0 / s));
        for joint in &mut self.skeleton {
            joint.inverse_bind *= back;
        }
    }

    /// The import's part of the report: points and lines skipped, and the reader's notes.
    pub(crate) fn report_skipped(&mut self, report: &mut ConvertReport) {
        report.warn(
            "points_and_lines",
            self.points + self.lines,
            Vec::new(),
            format!("{} points and {} line segments were skipped", self.points, self.lines),
        );
        for note in std::mem::take(&mut self.notes) {
            report.warn("material", 1, Vec::new(), note);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reordered_positions_take_their_columns_and_faces_along() {
        // Three positions put in the order 2, 0, 1: old 2 becomes 0, old 0 becomes 1, old 1
        // becomes 2, with its colour and attribute; the triangle 0 1 2 names the same places.
        let mut mesh = RawMesh {
            positions: vec![Vec3::X, Vec3::Y, Vec3::Z],
            colors: vec![[0.0; 4], [1.0; 4], [2.0; 4]],
            triangles: vec![[0, 1, 2]],
            quads: vec![[0, 1, 2, 1]],
            ..RawMesh::default()
        };
        mesh.set_attribute("_PIN", 0, &[10.0, 11.0, 12.0]);
        mesh.reorder(&[2, 0, 1]);
        assert_eq!(mesh.positions, [Vec3::Z, Vec3::X, Vec3::Y]);
        assert_eq!(mesh.colors, [[2.0; 4], [0.0; 4], [1.0; 4]]);
        assert_eq!(mesh.attributes["_PIN"], [12.0, 10.0, 11.0]);
        assert_eq!((mesh.triangles[0], mesh.quads[0]), ([1, 2, 0], [1, 2, 0, 2]));
        // Not a permutation: nothing changes.
        let before = mesh.clone();
        mesh.reorder(&[0, 0, 1]);
        mesh.reorder(&[0, 1]);
        assert_eq!(mesh, before);
    }
}
