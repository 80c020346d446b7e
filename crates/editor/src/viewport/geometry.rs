//! What the viewport draws, prepared on the CPU: arrays for the GPU, rebuilt only when what
//! they depend on changes (the model's revision, the selection, the positions). Each array
//! carries a version so that the renderer uploads it only when it is new.
//!
//! The position texture holds the nodes, then, for a model with a skin (a cage model), the
//! skin's vertices where the cage carries them: springs and node billboards index the first
//! part, the faces the second, so the artist sees the mesh they made over the cage they edit.
//! For a worn model whose character was read, the character's vertices come last, posed where the
//! playing clip has the skeleton (at rest otherwise), and the character's faces index them.

use crate::document::{Document, TextureImage};
use crate::live::Live;
use crate::selection::Selection;
use glam::{Vec3, Vec3A};
use springmesh_convert::character::CharacterMesh;
use springmesh_core::NodeId;
use springmesh_core::sim::vertex_normals;
use std::sync::Arc;

/// What the styles depend on besides the selection: the model revision, the run's tears, the
/// stability check's version and whether nodes show their max distance.
type StyleKey = (u64, u64, u64, bool);

/// Texels per row of the position and normal textures.
pub const ROW: usize = 1024;

/// Per-model data: it changes only with the model.
pub struct Statics {
    /// Version for the renderer.
    pub version: u64,
    /// Nodes.
    pub node_count: usize,
    /// Per node, its index (the node billboards' instance attribute).
    pub node_ids: Vec<f32>,
    /// Per spring, its two node indices.
    pub spring_ends: Vec<[f32; 2]>,
    /// Per face corner, its index in the position texture (a node, or a skin vertex after
    /// the nodes).
    pub face_nodes: Vec<f32>,
    /// Per face corner, its texture coordinate (0 without).
    pub face_uvs: Vec<[f32; 2]>,
    /// The faces' texture.
    pub texture: Option<Arc<TextureImage>>,
    /// Per face corner of the character, its index in the position texture.
    pub character_faces: Vec<f32>,
    /// Per face corner of the character, a texture coordinate (0: it is untextured).
    pub character_uvs: Vec<[f32; 2]>,
}

/// Per-selection data.
pub struct Styles {
    /// Version for the renderer.
    pub version: u64,
    /// Per spring: kind index, rest length, selected + 2 × broken, stiffness (N/m).
    pub springs: Vec<[f32; 4]>,
    /// Per node: anchored + 2 × (0 none, 1 selected, 2 current) + 8 × (0 without a stability
    /// check, else 1 + its error level 0..255).
    pub nodes: Vec<f32>,
}

/// Per-frame data while the positions move.
pub struct Dynamic {
    /// Version for the renderer.
    pub version: u64,
    /// Node positions, xyz1, padded to whole rows of [`ROW`].
    pub positions: Vec<[f32; 4]>,
    /// Vertex normals, padded the same way (empty without faces).
    pub normals: Vec<[f32; 4]>,
}

/// Builds and keeps the arrays.
#[derive(Default)]
pub struct GeometryCache {
    versions: u64,
    statics: Option<((u64, u64), Arc<Statics>)>,
    styles: Option<(StyleKey, Selection, Arc<Styles>)>,
    dynamic: Option<((u64, u64, bool), Arc<Dynamic>)>,
}

impl GeometryCache {
    fn next_version(&mut self) -> u64 {
        self.versions += 1;
        self.versions
    }

    /// The per-model arrays of `doc`, without the faces torn in `live`'s run.
    pub fn statics(&mut self, doc: &Document, live: &Live) -> Arc<Statics> {
        let key = (doc.revision(), live.tears());
        if let Some((k, s)) = &self.statics
            && *k == key
        {
            return s.clone();
        }
        let m = doc.model();
        let torn = torn_edges(m, live);
        let whole = |f: &springmesh_core::Face| {
            let [a, b, c] = f.nodes.map(|n| n.0);
            torn.is_empty()
                || ![(a, b), (b, c), (c, a)]
                    .iter()
                    .any(|&(x, y)| torn.contains(&(x.min(y), x.max(y))))
        };
        let uvs = m.surface_uvs();
        let uv_of = |f: &springmesh_core::Face, k: usize| {
            f.uvs.and_then(|u| uvs.get(u[k] as usize)).map_or([0.0, 0.0], |t| t.to_array())
        };
        // Skin faces index the skin's vertices, stored after the nodes; a skin does not tear.
        let (faces, offset) = match &m.skin {
            Some(skin) => (&skin.faces, m.nodes.len() as u32),
            None => (&m.faces, 0),
        };
        let whole = |f: &springmesh_core::Face| offset > 0 || whole(f);
        let before_character = (m.nodes.len() + m.skin.as_ref().map_or(0, |s| s.len())) as u32;
        let character_faces: Vec<f32> = character_mesh(doc)
            .map(|b| b.triangles.iter().flatten().map(|&v| (v + before_character) as f32).collect())
            .unwrap_or_default();
        let statics = Arc::new(Statics {
            version: self.next_version(),
            node_count: m.nodes.len(),
            node_ids: (0..m.nodes.len()).map(|i| i as f32).collect(),
            spring_ends: m
                .springs
                .a()
                .iter()
                .zip(m.springs.b())
                .map(|(a, b)| [a.0 as f32, b.0 as f32])
                .collect(),
            face_nodes: faces
                .iter()
                .filter(|f| whole(f))
                .flat_map(|f| f.nodes)
                .map(|n| (n.0 + offset) as f32)
                .collect(),
            face_uvs: faces
                .iter()
                .filter(|f| whole(f))
                .flat_map(|f| [0, 1, 2].map(|k| uv_of(&f, k)))
                .collect(),
            texture: doc.texture.clone().map(Arc::new),
            character_faces: character_faces.clone(),
            character_uvs: vec![[0.0; 2]; character_faces.len()],
        });
        self.statics = Some((key, statics.clone()));
        statics
    }

    /// The per-selection arrays of `doc` (and which springs broke in `live`'s run); with
    /// `by_distance`, a worn model's nodes carry their max distance as their level (the
    /// node shader's distance ramp) instead of the stability check's error.
    pub fn styles(&mut self, doc: &Document, live: &Live, by_distance: bool) -> Arc<Styles> {
        let key = (doc.revision(), live.tears(), live.check.version(), by_distance);
        if let Some((k, selection, s)) = &self.styles
            && *k == key
            && *selection == doc.selection
        {
            return s.clone();
        }
        let m = doc.model();
        let sel = &doc.selection;
        let springs = m
            .springs
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let id = springmesh_core::SpringId::from_index(i);
                let (selected, broken) = (sel.springs.contains(&id), live.broken().contains(&id));
                let flags = u8::from(selected) + 2 * u8::from(broken);
                [s.kind as usize as f32, s.rest_length, f32::from(flags), s.stiffness]
            })
            .collect();
        let mut nodes = vec![0.0f32; m.nodes.len()];
        for a in &m.anchors {
            if let Some(v) = nodes.get_mut(a.index()) {
                *v = 1.0;
            }
        }
        for n in &sel.nodes {
            if let Some(v) = nodes.get_mut(n.index()) {
                *v += 2.0;
            }
        }
        if let Some(v) = sel.current.and_then(|c| nodes.get_mut(c.index())) {
            *v = v.rem_euclid(2.0) + 4.0;
        }
        if !m.faces.is_empty() {
            let mut on_face = vec![false; m.nodes.len()];
            for n in m.faces.nodes().iter().flatten() {
                if let Some(f) = on_face.get_mut(n.index()) {
                    *f = true;
                }
            }
            for (v, on_face) in nodes.iter_mut().zip(on_face) {
                *v += 8.0 * f32::from(u8::from(!on_face));
            }
        }
        // The check's error level (or the max distance's), 1 + 0..255 in the bits above the
        // state's four.
        let levels = match (&m.rig, by_distance) {
            (Some(rig), true) => distance_levels(&rig.max_distance),
            _ => live.check.node_levels(doc.revision()).unwrap_or_default(),
        };
        for (v, level) in nodes.iter_mut().zip(levels) {
            if level >= 0.0 {
                *v += 16.0 * (1.0 + (level * 255.0).round());
            }
        }
        let styles = Arc::new(Styles { version: self.next_version(), springs, nodes });
        self.styles = Some((key, doc.selection.clone(), styles.clone()));
        styles
    }

    /// The positions (the simulation's while one runs, else the model's) and their normals.
    pub fn dynamic(&mut self, doc: &Document, live: &Live) -> Arc<Dynamic> {
        let key = (doc.revision(), live.version(), live.positions().is_some());
        if let Some((k, d)) = &self.dynamic
            && *k == key
        {
            return d.clone();
        }
        let m = doc.model();
        let nodes: Vec<Vec3> = match live.positions() {
            Some(p) => p.iter().map(|&v| Vec3::from(v)).collect(),
            None => m.nodes.positions().to_vec(),
        };
        let mut normals = Vec::new();
        let mut skin = Vec::new();
        match &m.skin {
            Some(s) => {
                s.deform(&nodes, &mut skin);
                vertex_normals(&skin, s.faces.nodes(), &mut normals);
                // The nodes have no normal: the faces are the skin's.
                normals.splice(0..0, std::iter::repeat_n(Vec3::ZERO, nodes.len()));
            }
            None if !m.faces.is_empty() => vertex_normals(&nodes, m.faces.nodes(), &mut normals),
            None => {}
        }
        let mut posed = Vec::new();
        let mut character_normals = Vec::new();
        if let (Some(b), Some(rig)) = (character_mesh(doc), &m.rig) {
            let pose = live.pose().map_or_else(|| rig.rest_pose(), <[_]>::to_vec);
            b.posed(&rig.skinning(&pose), &mut posed);
            let faces: Vec<[NodeId; 3]> = b.triangles.iter().map(|t| t.map(NodeId)).collect();
            vertex_normals(&posed, &faces, &mut character_normals);
        }
        let before_character = nodes.len() + skin.len();
        let padded = (before_character + posed.len()).div_ceil(ROW).max(1) * ROW;
        let mut positions = Vec::with_capacity(padded);
        positions.extend(nodes.iter().chain(&skin).chain(&posed).map(|v| v.extend(1.0).to_array()));
        positions.resize(padded, [0.0; 4]);
        let mut normals: Vec<[f32; 4]> = normals.iter().map(|n| n.extend(0.0).to_array()).collect();
        if !normals.is_empty() || !posed.is_empty() {
            normals.resize(before_character, [0.0; 4]);
            normals.extend(character_normals.iter().map(|n| n.extend(0.0).to_array()));
            normals.resize(padded, [0.0; 4]);
        }
        let dynamic = Arc::new(Dynamic { version: self.next_version(), positions, normals });
        self.dynamic = Some((key, dynamic.clone()));
        dynamic
    }
}

/// Per node, its max distance as a fraction of the largest (0..1), or −1 (no level: drawn in
/// its state's colour) for a free node and a kinematic one (max distance 0, an anchor).
pub fn distance_levels(max_distance: &[Option<f32>]) -> Vec<f32> {
    let largest = max_distance.iter().flatten().fold(0.0f32, |a, &b| a.max(b));
    max_distance
        .iter()
        .map(|r| match r {
            Some(r) if *r > 0.0 && largest > 0.0 => r / largest,
            _ => -1.0,
        })
        .collect()
}

/// The mesh of the character `doc`'s worn model is worn on, when one was read.
fn character_mesh(doc: &Document) -> Option<&CharacterMesh> {
    doc.model().rig.as_ref()?;
    let mesh = &doc.character.as_ref()?.mesh;
    (!mesh.triangles.is_empty()).then_some(mesh)
}

/// The node pairs (smaller index first) of the springs broken in `live`'s run.
fn torn_edges(
    m: &springmesh_core::SpringModel,
    live: &Live,
) -> std::collections::HashSet<(u32, u32)> {
    live.broken()
        .iter()
        .filter_map(|&id| m.springs.get(id))
        .map(|s| (s.a.0.min(s.b.0), s.a.0.max(s.b.0)))
        .collect()
}

/// Current node positions as `Vec3`s (the simulation's while one runs), for picking.
pub fn current_positions(doc: &Document, live: &Live) -> Vec<Vec3> {
    match live.positions() {
        Some(p) => p.iter().map(|&v: &Vec3A| v.into()).collect(),
        None => doc.model().nodes.positions().to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use springmesh_convert::samples::Sample;
    use springmesh_core::NodeId;

    #[test]
    fn arrays_are_rebuilt_only_when_what_they_show_changes() {
        let mut doc = Document::sample(Sample::Cloth);
        let mut live = Live::default();
        let mut cache = GeometryCache::default();
        let versions = |c: &mut GeometryCache, d: &Document, l: &Live| {
            (c.statics(d, l).version, c.styles(d, l, false).version, c.dynamic(d, l).version)
        };
        let first = versions(&mut cache, &doc, &live);
        assert_eq!(versions(&mut cache, &doc, &live), first, "an unchanged frame uploads nothing");

        doc.selection.go_to(NodeId(3));
        let selected = versions(&mut cache, &doc, &live);
        assert_eq!(
            (selected.0, selected.2),
            (first.0, first.2),
            "a selection changes only the styles"
        );
        assert_ne!(selected.1, first.1);
        assert_eq!(
            cache.styles(&doc, &live, false).nodes[3],
            4.0,
            "node 3 is drawn as the current node"
        );

        live.playing = true;
        // The step may be published before `advance` returns, and taken by it.
        let taken = live.advance(&doc, 1.0 / 60.0);
        assert!(live.catch_up(&doc) || taken);
        let playing = versions(&mut cache, &doc, &live);
        assert_eq!(
            (playing.0, playing.1),
            (selected.0, selected.1),
            "a step changes only positions"
        );
        assert_ne!(playing.2, selected.2);
        let d = cache.dynamic(&doc, &live);
        assert_eq!(d.positions.len(), ROW, "625 nodes padded to one row");
        assert_eq!(d.normals.len(), ROW);

        let model = doc.model().clone();
        doc.replace_model(model);
        let replaced = versions(&mut cache, &doc, &live);
        assert!(replaced.0 != playing.0 && replaced.1 != playing.1 && replaced.2 != playing.2);
        let other = Document::sample(Sample::Cloth);
        let live = Live::default();
        assert_ne!(
            cache.statics(&other, &live).version,
            replaced.0,
            "another document is not mistaken for this one"
        );
    }

    #[test]
    fn broken_springs_and_torn_faces_are_not_drawn() {
        let doc = Document::sample(Sample::Tear);
        let mut live = Live::default();
        live.playing = true;
        let mut cache = GeometryCache::default();
        let faces_before = cache.statics(&doc, &live).face_nodes.len();
        for _ in 0..120 {
            live.advance(&doc, 1.0 / 60.0);
            live.catch_up(&doc);
        }
        assert!(!live.broken().is_empty(), "the ball tore the cloth");
        let styles = cache.styles(&doc, &live, false);
        let hidden = styles.springs.iter().filter(|s| s[2] >= 2.0).count();
        assert_eq!(hidden, live.broken().len(), "every broken spring is flagged");
        let faces_after = cache.statics(&doc, &live).face_nodes.len();
        assert!(
            faces_after < faces_before,
            "torn faces go: {faces_before} → {faces_after} corners"
        );
        live.reset();
        assert_eq!(cache.statics(&doc, &live).face_nodes.len(), faces_before, "a reset mends it");
    }
}
