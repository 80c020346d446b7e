//! # The character a worn model is worn on, for a preview
//!
//! A model converted from a skinned mesh (a cape) keeps its own nodes, the skeleton and the
//! character's colliders, which is all a game needs. A preview (the editor playing a clip with
//! the cape simulated on the character) also wants the character as the artist drew it: its
//! meshes' triangles, skinned to the same skeleton, and the file's clips. [`Character::read`]
//! reads them again from the source file, choosing the worn mesh as the model's recorded
//! options did. The character's mesh is posed as the rig's nodes are, by linear blend skinning
//! ([`springmesh_core::model::blend`]):
//!
//! ```text
//! s_v = Σ_k w_vk (J_k B_k) x_v
//! ```
//!
//! with x_v the character's vertex's rest position (in the model's frame, as the rig's inverse bind
//! matrices B_k are), w_vk its weights and J_k the joints' world matrices of the pose.

use crate::import::animation::Clip;
use crate::pipeline::read_source;
use crate::{CharacterMeshes, ConvertError, ConvertOptions};
use glam::{Mat4, Vec3};
use springmesh_core::model::{RIG_WEIGHTS, blend};
use std::path::Path;

/// A character's meshes as drawn, as one: its triangles and each vertex's skinning.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CharacterMesh {
    /// Rest positions (m), in the model's frame.
    pub positions: Vec<Vec3>,
    /// Triangles, as indices into `positions`.
    pub triangles: Vec<[u32; 3]>,
    /// Per vertex, its joints (the rig's indices).
    pub joints: Vec<[u16; RIG_WEIGHTS]>,
    /// Per vertex, the weights of its joints (summing to one, or all zero: not skinned).
    pub weights: Vec<[f32; RIG_WEIGHTS]>,
}

impl CharacterMesh {
    /// The vertices posed by the skinning matrices `skinning` (J_k B_k), into `out`.
    pub fn posed(&self, skinning: &[Mat4], out: &mut Vec<Vec3>) {
        out.clear();
        let skins = self.joints.iter().zip(&self.weights);
        out.extend(self.positions.iter().zip(skins).map(|(&x, (j, w))| blend(x, j, w, skinning)));
    }
}

/// The character a worn model is worn on: its mesh and the clips that move it.
#[derive(Clone, Debug)]
pub struct Character {
    /// Its meshes as one (empty when the file has no other mesh on the skeleton).
    pub mesh: CharacterMesh,
    /// The file's animation clips, in its order.
    pub clips: Vec<Clip>,
}

impl Character {
    /// The character in the glTF or GLB file `path` that a model converted from it with
    /// `options` is worn on: the meshes `options.character` names (the others on the skeleton when
    /// it is off: a preview shows the character even where the model does not collide with
    /// it) and every clip.
    pub fn read(path: &Path, options: &ConvertOptions) -> Result<Character, ConvertError> {
        let bytes = read_source(path)?;
        let meshes = match &options.character {
            CharacterMeshes::Off => CharacterMeshes::Others,
            chosen => chosen.clone(),
        };
        let mesh =
            crate::import::read(path, &bytes, &options.limits, (options.mesh.as_deref(), &meshes))?;
        let (joints, weights) = mesh.character.iter().map(|&(_, j, w)| (j, w)).unzip();
        let character = CharacterMesh {
            positions: mesh.character.iter().map(|b| b.0).collect(),
            triangles: mesh.character_triangles,
            joints,
            weights,
        };
        Ok(Character { mesh: character, clips: Clip::read_all(path, &bytes)? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_figures_body_and_walk_are_read_and_the_rest_pose_leaves_the_body_in_place() {
        let hero = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/hero.glb");
        let options = ConvertOptions { mesh: Some("Cape".into()), ..ConvertOptions::default() };
        let character = Character::read(&hero, &options).expect("reads");
        let body = &character.mesh;
        assert!(body.triangles.len() > 100, "{} triangles", body.triangles.len());
        let n = body.positions.len();
        assert!(body.triangles.iter().flatten().all(|&v| (v as usize) < n));
        assert_eq!((body.joints.len(), body.weights.len()), (n, n));
        let names: Vec<&str> = character.clips.iter().map(|c| c.name.as_str()).collect();
        assert!(names.contains(&"Walk"), "{names:?}");
        // At the rest pose every skinning matrix is the identity: the mesh stays put.
        let model = crate::convert_file(&hero, &options).expect("converts").model.into_inner();
        let rig = model.rig.expect("worn");
        let mut posed = Vec::new();
        body.posed(&rig.skinning(&rig.rest_pose()), &mut posed);
        let moved = posed.iter().zip(&body.positions).map(|(a, b)| a.distance(*b));
        assert!(moved.fold(0.0f32, f32::max) < 1e-4);
    }
}
