//! The serialized form of a model, shared by `.spring` (its records) and `.spring.json`.
//!
//! Records are stored as lists of objects (one object per node, spring, face) because that is
//! the readable JSON contract; in memory the model keeps one column per field. Field order here
//! is the order of the binary layout (docs/file-format.md); changing it changes the format
//! version.

use super::rig::{RigFile, Slot};
use crate::NodeId;
use crate::bounded;
use crate::model::Rig;
use crate::model::{
    Air, Face, Faces, Ground, Integrator, Metadata, Node, Obstacle, Pressure, SKIN_WEIGHTS,
    ShapeMatching, SimParams, Skin, SkinVertex, Spring, SpringKind, SpringModel, Tethers,
};
use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

/// A whole model as written to a file; `P` is the parameters' layout (version 1 files have
/// [`SimParamsV1`]), `S` the skin's and `R` the rig's: [`SkinFile`] and [`RigFile`] in JSON,
/// nothing in the records of versions 1 and 2 ([`LegacyFile`]), which had neither.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ModelFile<
    P = SimParams,
    S: Slot<Skin> = Option<SkinFile>,
    R: Slot<Rig> = Option<RigFile>,
> {
    #[serde(deserialize_with = "bounded::vec")]
    nodes: Vec<NodeRecord>,
    #[serde(default, deserialize_with = "bounded::vec")]
    springs: Vec<SpringRecord>,
    #[serde(default, deserialize_with = "bounded::vec")]
    anchors: Vec<NodeId>,
    #[serde(default, deserialize_with = "bounded::vec")]
    faces: Vec<FaceRecord>,
    #[serde(default, deserialize_with = "bounded::vec")]
    uvs: Vec<Vec2>,
    #[serde(default)]
    params: P,
    #[serde(default)]
    metadata: Metadata,
    #[serde(default, skip_serializing_if = "no_skin")]
    skin: S,
    #[serde(default, skip_serializing_if = "no_rig")]
    rig: R,
}

/// A version 1 or 2 `.spring` payload: a model without a skin or a rig.
pub(crate) type LegacyFile<P = SimParams> = ModelFile<P, (), ()>;

impl Slot<Skin> for Option<SkinFile> {
    fn absent(&self) -> bool {
        self.is_none()
    }
    fn take(self) -> Option<Skin> {
        self.map(Skin::from)
    }
}

/// True when the skin slot `s` has nothing to write.
fn no_skin<S: Slot<Skin>>(s: &S) -> bool {
    s.absent()
}

/// True when the rig slot `r` has nothing to write.
fn no_rig<R: Slot<Rig>>(r: &R) -> bool {
    r.absent()
}

/// A skin in JSON: its vertices, and its faces and uvs over them.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SkinFile {
    #[serde(deserialize_with = "bounded::vec")]
    vertices: Vec<SkinVertexRecord>,
    #[serde(default, deserialize_with = "bounded::vec")]
    faces: Vec<SkinFaceRecord>,
    #[serde(default, deserialize_with = "bounded::vec")]
    uvs: Vec<Vec2>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SkinVertexRecord {
    position: Vec3,
    nodes: [NodeId; SKIN_WEIGHTS],
    weights: [f32; SKIN_WEIGHTS],
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SkinFaceRecord {
    vertices: [u32; 3],
    #[serde(default)]
    uvs: Option<[u32; 3]>,
}

impl From<&Skin> for SkinFile {
    fn from(s: &Skin) -> Self {
        SkinFile {
            vertices: s
                .vertices()
                .map(|v| SkinVertexRecord {
                    position: v.position,
                    nodes: v.nodes,
                    weights: v.weights,
                })
                .collect(),
            faces: s
                .faces
                .iter()
                .map(|f| SkinFaceRecord { vertices: f.nodes.map(|n| n.0), uvs: f.uvs })
                .collect(),
            uvs: s.uvs.clone(),
        }
    }
}

impl From<SkinFile> for Skin {
    fn from(f: SkinFile) -> Self {
        let vertices = f.vertices.into_iter().map(|v| SkinVertex {
            position: v.position,
            nodes: v.nodes,
            weights: v.weights,
        });
        let faces: Faces = f
            .faces
            .into_iter()
            .map(|f| Face { nodes: f.vertices.map(NodeId), uvs: f.uvs })
            .collect();
        Skin::new(vertices, faces, f.uvs)
    }
}

/// The parameters as format version 1 stored them: [`SimParamsV4`] without `tethers`. Frozen:
/// it is what version 1 files hold. (`Default` only because [`ModelFile`] defaults its
/// parameters for JSON, which never uses this layout.)
#[derive(Debug, Default, Deserialize)]
pub(crate) struct SimParamsV1 {
    gravity: Vec3,
    damping: f32,
    integrator: Integrator,
    dt: f32,
    substeps: u32,
    node_radius: f32,
    air: Option<Air>,
    pressure: Option<Pressure>,
    ground: Option<Ground>,
    #[serde(deserialize_with = "bounded::vec")]
    colliders: Vec<Obstacle>,
}

/// The parameters as format versions 2 to 4 stored them: [`SimParams`] without
/// `shape_matching`. Frozen, as [`SimParamsV1`]; a record is a struct's fields in
/// order, so the nested version 1 fields are the same bytes as listing them here.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct SimParamsV4 {
    v1: SimParamsV1,
    tethers: Option<Tethers>,
}

/// The parameters as format version 5 stored them: [`SimParams`] without `self_collision`.
/// Frozen, as [`SimParamsV1`].
#[derive(Debug, Default, Deserialize)]
pub(crate) struct SimParamsV5 {
    v4: SimParamsV4,
    shape_matching: Option<ShapeMatching>,
}

impl From<SimParamsV1> for SimParams {
    /// Version 1 parameters, without tethers (version 1 had none, and they are off by
    /// default).
    fn from(p: SimParamsV1) -> Self {
        SimParams {
            gravity: p.gravity,
            damping: p.damping,
            integrator: p.integrator,
            dt: p.dt,
            substeps: p.substeps,
            node_radius: p.node_radius,
            air: p.air,
            pressure: p.pressure,
            ground: p.ground,
            colliders: p.colliders,
            ..SimParams::default()
        }
    }
}

impl From<SimParamsV4> for SimParams {
    /// Versions 2 to 4 parameters, without shape matching (they had none).
    fn from(p: SimParamsV4) -> Self {
        SimParams { tethers: p.tethers, shape_matching: None, ..SimParams::from(p.v1) }
    }
}

impl From<SimParamsV5> for SimParams {
    /// Version 5 parameters, without self-collision (they had none).
    fn from(p: SimParamsV5) -> Self {
        SimParams { shape_matching: p.shape_matching, ..SimParams::from(p.v4) }
    }
}

impl<P: Into<SimParams>> ModelFile<P, (), ()> {
    /// The same model with today's parameters.
    pub(crate) fn upgraded(self) -> LegacyFile {
        let ModelFile { nodes, springs, anchors, faces, uvs, params, metadata, skin, rig } = self;
        let params = params.into();
        ModelFile { nodes, springs, anchors, faces, uvs, params, metadata, skin, rig }
    }
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct NodeRecord {
    position: Vec3,
    mass: f32,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SpringRecord {
    a: NodeId,
    b: NodeId,
    /// Absent in a hand-written JSON file: the distance between the nodes.
    #[serde(default)]
    rest_length: Option<f32>,
    stiffness: f32,
    #[serde(default)]
    damping: f32,
    #[serde(default)]
    kind: SpringKind,
    #[serde(default)]
    break_min: Option<f32>,
    #[serde(default)]
    break_max: Option<f32>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FaceRecord {
    nodes: [NodeId; 3],
    #[serde(default)]
    uvs: Option<[u32; 3]>,
}

impl From<&SpringModel> for ModelFile {
    fn from(m: &SpringModel) -> Self {
        ModelFile {
            nodes: m
                .nodes
                .iter()
                .map(|n| NodeRecord { position: n.position, mass: n.mass })
                .collect(),
            springs: m
                .springs
                .iter()
                .map(|s| SpringRecord {
                    a: s.a,
                    b: s.b,
                    rest_length: Some(s.rest_length),
                    stiffness: s.stiffness,
                    damping: s.damping,
                    kind: s.kind,
                    break_min: s.break_min,
                    break_max: s.break_max,
                })
                .collect(),
            anchors: m.anchors.clone(),
            faces: m.faces.iter().map(|f| FaceRecord { nodes: f.nodes, uvs: f.uvs }).collect(),
            uvs: m.uvs.clone(),
            params: m.params.clone(),
            metadata: m.metadata.clone(),
            skin: m.skin.as_ref().map(SkinFile::from),
            rig: m.rig.as_ref().map(RigFile::from),
        }
    }
}

impl<S: Slot<Skin>, R: Slot<Rig>> From<ModelFile<SimParams, S, R>> for SpringModel {
    /// Builds the column-wise model. A missing rest length becomes the distance between the
    /// spring's nodes (0 when an index is out of range: validation reports that spring).
    fn from(f: ModelFile<SimParams, S, R>) -> Self {
        let nodes =
            f.nodes.into_iter().map(|n| Node { position: n.position, mass: n.mass }).collect();
        let mut model = SpringModel {
            nodes,
            anchors: f.anchors,
            uvs: f.uvs,
            params: f.params,
            metadata: f.metadata,
            skin: f.skin.take(),
            rig: f.rig.take(),
            ..SpringModel::default()
        };
        model.springs = f
            .springs
            .into_iter()
            .map(|s| Spring {
                a: s.a,
                b: s.b,
                rest_length: s
                    .rest_length
                    .unwrap_or_else(|| model.distance(s.a, s.b).unwrap_or(0.0)),
                stiffness: s.stiffness,
                damping: s.damping,
                kind: s.kind,
                break_min: s.break_min,
                break_max: s.break_max,
            })
            .collect();
        model.faces = f.faces.into_iter().map(|f| Face { nodes: f.nodes, uvs: f.uvs }).collect();
        model
    }
}
