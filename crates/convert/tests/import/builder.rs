//! Builds small glTF files: one binary buffer, accessors over it, meshes, nodes, a scene.

use base64::Engine;
use serde_json::{Value, json};

pub const F32: u32 = 5126;
pub const U16: u32 = 5123;
pub const I16: u32 = 5122;
pub const U8: u32 = 5121;

#[derive(Default)]
pub struct Gltf {
    pub bin: Vec<u8>,
    pub views: Vec<Value>,
    pub accessors: Vec<Value>,
    pub meshes: Vec<Value>,
    pub nodes: Vec<Value>,
    pub scene: Option<Vec<usize>>,
    pub extra: serde_json::Map<String, Value>,
}

impl Gltf {
    /// Appends `bytes` (4-byte aligned) as a buffer view; its index.
    pub fn view(&mut self, bytes: &[u8]) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        self.views
            .push(json!({"buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len()}));
        self.bin.extend_from_slice(bytes);
        self.views.len() - 1
    }

    /// An accessor over `view` (or none) with the given fields; its index.
    pub fn accessor(
        &mut self,
        view: Option<usize>,
        component: u32,
        count: usize,
        kind: &str,
        more: Value,
    ) -> usize {
        let mut a = json!({"componentType": component, "count": count, "type": kind});
        if let Some(v) = view {
            a["bufferView"] = json!(v);
        }
        if let Value::Object(m) = more {
            for (k, v) in m {
                a[k] = v;
            }
        }
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    /// Float VEC3 positions with min and max; the accessor index.
    pub fn positions(&mut self, p: &[[f32; 3]]) -> usize {
        let bytes: Vec<u8> = p.iter().flatten().flat_map(|x| x.to_le_bytes()).collect();
        let view = self.view(&bytes);
        let min: Vec<f32> =
            (0..3).map(|k| p.iter().map(|v| v[k]).fold(f32::INFINITY, f32::min)).collect();
        let max: Vec<f32> =
            (0..3).map(|k| p.iter().map(|v| v[k]).fold(f32::NEG_INFINITY, f32::max)).collect();
        self.accessor(Some(view), F32, p.len(), "VEC3", json!({"min": min, "max": max}))
    }

    /// Float VEC2 texture coordinates.
    pub fn uvs(&mut self, t: &[[f32; 2]]) -> usize {
        let bytes: Vec<u8> = t.iter().flatten().flat_map(|x| x.to_le_bytes()).collect();
        let view = self.view(&bytes);
        self.accessor(Some(view), F32, t.len(), "VEC2", json!({}))
    }

    /// u16 indices.
    pub fn indices(&mut self, i: &[u16]) -> usize {
        let bytes: Vec<u8> = i.iter().flat_map(|x| x.to_le_bytes()).collect();
        let view = self.view(&bytes);
        self.accessor(Some(view), U16, i.len(), "SCALAR", json!({}))
    }

    /// A mesh with one primitive; its index.
    pub fn mesh(&mut self, primitive: Value) -> usize {
        self.meshes.push(json!({"primitives": [primitive]}));
        self.meshes.len() - 1
    }

    /// A node; its index.
    pub fn node(&mut self, node: Value) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    fn root(&self, buffer: Value) -> Value {
        let mut root = json!({
            "asset": {"version": "2.0"},
            "buffers": [buffer],
            "bufferViews": self.views,
            "accessors": self.accessors,
            "meshes": self.meshes,
            "nodes": self.nodes,
        });
        if let Some(nodes) = &self.scene {
            root["scenes"] = json!([{"nodes": nodes}]);
            root["scene"] = json!(0);
        }
        for (k, v) in &self.extra {
            root[k] = v.clone();
        }
        root
    }

    /// `.gltf` with the buffer as a data URI.
    pub fn embedded(&self) -> Vec<u8> {
        let data = base64::engine::general_purpose::STANDARD.encode(&self.bin);
        let uri = format!("data:application/octet-stream;base64,{data}");
        serde_json::to_vec(&self.root(json!({"byteLength": self.bin.len(), "uri": uri}))).unwrap()
    }

    /// `.gltf` naming the external buffer file `bin_name`, and that file's contents.
    pub fn external(&self, bin_name: &str) -> (Vec<u8>, Vec<u8>) {
        let json = self.root(json!({"byteLength": self.bin.len(), "uri": bin_name}));
        (serde_json::to_vec(&json).unwrap(), self.bin.clone())
    }

    /// `.glb`: header, JSON chunk, BIN chunk.
    pub fn glb(&self) -> Vec<u8> {
        glb(&self.root(json!({"byteLength": self.bin.len()})), &self.bin)
    }
}

/// A `.glb` of the JSON `root` and the binary chunk `bin`: header, JSON chunk, BIN chunk.
pub fn glb(root: &Value, bin: &[u8]) -> Vec<u8> {
    let mut json = serde_json::to_vec(root).unwrap();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let mut bin = bin.to_vec();
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = Vec::new();
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    out
}

/// The JSON and the binary chunk of the `.glb` bytes `glb` (a well-formed one: the
/// project's own figures).
pub fn chunks(glb: &[u8]) -> (Value, Vec<u8>) {
    let word = |at: usize| u32::from_le_bytes([glb[at], glb[at + 1], glb[at + 2], glb[at + 3]]);
    let json_length = word(12) as usize;
    let root = serde_json::from_slice(&glb[20..20 + json_length]).unwrap();
    let bin_at = 20 + json_length;
    let bin_length = word(bin_at) as usize;
    (root, glb[bin_at + 8..bin_at + 8 + bin_length].to_vec())
}
