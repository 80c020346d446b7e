//! glTF and GLB import cases.

use crate::builder::{Gltf, I16, U8, U16};
use crate::{convert, scratch, sorted_positions, write};
use serde_json::json;
use springmesh_convert::{ConvertError, Texture};

const TRIANGLE: [[f32; 3]; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];

/// A one-triangle glTF with uvs, in a scene.
fn triangle() -> Gltf {
    let mut g = Gltf::default();
    let p = g.positions(&TRIANGLE);
    let t = g.uvs(&[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]);
    let m = g.mesh(json!({"attributes": {"POSITION": p, "TEXCOORD_0": t}}));
    let n = g.node(json!({"mesh": m}));
    g.scene = Some(vec![n]);
    g
}

#[test]
fn embedded_external_and_binary_buffers() {
    let dir = scratch("gltf-buffers");
    let g = triangle();
    let embedded = convert(&write(&dir, "embedded.gltf", &g.embedded())).expect("embedded");
    let (json, bin) = g.external("triangle data.bin");
    write(&dir, "triangle data.bin", &bin);
    let external = convert(&write(&dir, "external.gltf", &json)).expect("external");
    let glb = convert(&write(&dir, "binary.glb", &g.glb())).expect("glb");
    for c in [&embedded, &external, &glb] {
        assert_eq!((c.report.nodes, c.report.faces, c.report.springs.stretch), (3, 1, 3));
        assert_eq!(c.model.uvs.len(), 3);
        assert_eq!(c.model.faces.uvs()[0], Some([0, 1, 2]));
    }
    let err =
        convert(&write(&dir, "lost.gltf", &g.external("missing.bin").0)).expect_err("no .bin");
    assert!(err.to_string().contains("lost.gltf"), "{err}");
}

#[test]
fn references_outside_the_mesh_folder_are_refused() {
    // Issue 16: a buffer uri that is absolute, a file: URL, or climbs out with ../ was read,
    // and its bytes became node positions; /dev/zero grew memory without end.
    let dir = scratch("gltf-outside");
    let models = dir.join("models");
    std::fs::create_dir_all(&models).unwrap();
    let g = triangle();
    let (_, bin) = g.external("x.bin");
    write(&dir, "secret.bin", &bin);
    for (uri, why) in [
        ("../secret.bin", "leads outside the mesh's folder"),
        ("/etc/passwd", "is not a path relative to the mesh's folder"),
        ("file:///etc/passwd", "is not a path relative to the mesh's folder"),
        ("%2E%2E/secret.bin", "leads outside the mesh's folder"),
    ] {
        let path = write(&models, "outside.gltf", &g.external(uri).0);
        let err = convert(&path).expect_err(uri).to_string();
        let decoded = uri.replace("%2E", ".");
        assert!(err.contains(&format!("buffers[0].uri \"{decoded}\" {why}")), "{uri}: {err}");
        assert!(!err.contains("root:"), "no bytes of the file are quoted: {err}");
    }
    #[cfg(unix)]
    {
        let zero = models.join("zero.bin");
        let _ = std::fs::remove_file(&zero);
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let err = convert(&write(&models, "zero.gltf", &g.external("zero.bin").0))
            .expect_err("a device")
            .to_string();
        assert!(err.contains("leads outside") || err.contains("not a regular file"), "{err}");
    }
    // A file longer than its byteLength is read up to it.
    let mut long = bin.clone();
    long.extend_from_slice(&[0xAB; 1000]);
    write(&models, "long.bin", &long);
    let c = convert(&write(&models, "long.gltf", &g.external("long.bin").0)).expect("converts");
    assert_eq!(c.report.nodes, 3);
}

#[test]
fn node_transforms_matrix_trs_and_hierarchy() {
    let dir = scratch("gltf-transforms");
    let mut g = Gltf::default();
    let p = g.positions(&TRIANGLE);
    let m = g.mesh(json!({"attributes": {"POSITION": p}}));
    // Child: scale 2, then rotate 90° about z; parent: translate (10, 0, 0) by a matrix.
    let child =
        g.node(json!({"mesh": m, "scale": [2, 2, 2], "rotation": [0, 0, 0.70710677, 0.70710677]}));
    let parent =
        g.node(json!({"children": [child], "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 10,0,0,1]}));
    g.scene = Some(vec![parent]);
    let c = convert(&write(&dir, "transforms.gltf", &g.embedded())).expect("converts");
    // (1,0,0) → scale (2,0,0) → rotate (0,2,0) → translate (10,2,0); (0,1,0) → (8,0,0).
    assert_eq!(sorted_positions(&c), vec![[80000, 0, 0], [100000, 0, 0], [100000, 20000, 0]]);
}

#[test]
fn strips_fans_and_unindexed_triangles() {
    let dir = scratch("gltf-modes");
    let square = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]];
    for (mode, indices) in
        [(5, Some(vec![0u16, 1, 2, 3])), (5, None), (6, Some(vec![0, 1, 3, 2])), (4, None)]
    {
        let mut g = Gltf::default();
        let p = g.positions(&square);
        let mut primitive = json!({"attributes": {"POSITION": p}, "mode": mode});
        if let Some(i) = &indices {
            primitive["indices"] = json!(g.indices(i));
        }
        let m = g.mesh(primitive);
        g.node(json!({"mesh": m}));
        g.scene = Some(vec![0]);
        let c =
            convert(&write(&dir, &format!("mode{mode}.gltf"), &g.embedded())).expect("converts");
        let faces = if mode == 4 { 1 } else { 2 };
        assert_eq!(c.report.faces, faces, "mode {mode} {indices:?}");
        let p = c.model.nodes.positions();
        for f in c.model.faces.nodes() {
            let [a, b, d] = f.map(|n| p[n.index()]);
            assert!((b - a).cross(d - a).z > 0.0, "mode {mode}: triangles keep the winding");
        }
    }
}

#[test]
fn sparse_accessor_replaces_listed_vertices() {
    let dir = scratch("gltf-sparse");
    let mut g = Gltf::default();
    let base = g.positions(&[[0.0, 0.0, 0.0], [9.0, 9.0, 9.0], [0.0, 1.0, 0.0]]);
    let idx = g.view(&[1u16.to_le_bytes(), [0, 0]].concat());
    let values: Vec<u8> = [1.0f32, 0.0, 0.0].iter().flat_map(|x| x.to_le_bytes()).collect();
    let val = g.view(&values);
    g.accessors[base]["sparse"] = json!({
        "count": 1,
        "indices": {"bufferView": idx, "componentType": U16},
        "values": {"bufferView": val}
    });
    let m = g.mesh(json!({"attributes": {"POSITION": base}}));
    g.node(json!({"mesh": m}));
    g.scene = Some(vec![0]);
    let c = convert(&write(&dir, "sparse.gltf", &g.embedded())).expect("converts");
    assert_eq!(sorted_positions(&c), vec![[0, 0, 0], [0, 10000, 0], [10000, 0, 0]]);
}

#[test]
fn quantized_positions_and_uvs_are_dequantized() {
    let dir = scratch("gltf-quantized");
    let mut g = Gltf::default();
    // i16 normalized positions: 32767 → 1.0; u16 positions unnormalized with a node scale.
    let pos: Vec<u8> = [[0i16, 0, 0, 0], [32767, 0, 0, 0], [0, 32767, 0, 0]]
        .iter()
        .flatten()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let pv = g.view(&pos);
    g.views[pv]["byteStride"] = json!(8);
    let p = g.accessor(
        Some(pv),
        I16,
        3,
        "VEC3",
        json!({"normalized": true, "min": [0, 0, 0], "max": [1, 1, 0]}),
    );
    let uv: Vec<u8> = [[0u8, 0], [255, 0], [0, 255]].iter().flatten().copied().collect();
    let uvv = g.view(&uv);
    let t = g.accessor(Some(uvv), U8, 3, "VEC2", json!({"normalized": true}));
    let m = g.mesh(json!({"attributes": {"POSITION": p, "TEXCOORD_0": t}}));
    g.node(json!({"mesh": m, "scale": [2, 2, 2]}));
    g.scene = Some(vec![0]);
    g.extra.insert("extensionsUsed".into(), json!(["KHR_mesh_quantization"]));
    g.extra.insert("extensionsRequired".into(), json!(["KHR_mesh_quantization"]));
    let c = convert(&write(&dir, "quantized.glb", &g.glb())).expect("converts");
    assert_eq!(sorted_positions(&c), vec![[0, 0, 0], [0, 20000, 0], [20000, 0, 0]]);
    let uvs: Vec<[f32; 2]> = c.model.uvs.iter().map(|u| u.to_array()).collect();
    assert_eq!(uvs, vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]);
}

#[test]
fn skinned_mesh_in_bind_pose() {
    let dir = scratch("gltf-skin");
    let mut g = Gltf::default();
    let p = g.positions(&TRIANGLE);
    let m = g.mesh(json!({"attributes": {"POSITION": p}}));
    // The joint sits at (1, 0, 0) and its inverse bind matrix undoes that: the bind pose is the
    // mesh as authored. The skinned node's own translation is ignored, as the spec says.
    let ibm: Vec<u8> = [1.0f32, 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0., -1., 0., 0., 1.]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let v = g.view(&ibm);
    let ibm = g.accessor(Some(v), 5126, 1, "MAT4", json!({}));
    let joint = g.node(json!({"translation": [1, 0, 0]}));
    let skinned = g.node(json!({"mesh": m, "skin": 0, "translation": [50, 0, 0]}));
    g.extra.insert("skins".into(), json!([{"joints": [joint], "inverseBindMatrices": ibm}]));
    g.scene = Some(vec![joint, skinned]);
    let c = convert(&write(&dir, "skinned.gltf", &g.embedded())).expect("converts");
    assert_eq!(sorted_positions(&c), vec![[0, 0, 0], [0, 10000, 0], [10000, 0, 0]]);
}

#[test]
fn draco_lines_and_unknown_extensions_are_refused() {
    let dir = scratch("gltf-refused");
    let mut g = triangle();
    g.extra.insert("extensionsUsed".into(), json!(["KHR_draco_mesh_compression"]));
    g.extra.insert("extensionsRequired".into(), json!(["KHR_draco_mesh_compression"]));
    let path = write(&dir, "draco.glb", &g.glb());
    let err = convert(&path).expect_err("draco");
    assert!(matches!(err, ConvertError::Draco { .. }));
    assert!(err.to_string().contains("re-export without Draco"), "{err}");
    assert!(err.to_string().starts_with(&path.display().to_string()));

    let mut g = triangle();
    g.extra.insert("extensionsRequired".into(), json!(["EXT_meshopt_compression"]));
    let err = convert(&write(&dir, "meshopt.gltf", &g.embedded())).expect_err("unknown");
    assert!(
        err.to_string().contains("requires the glTF extension EXT_meshopt_compression"),
        "{err}"
    );

    let mut g = Gltf::default();
    let p = g.positions(&TRIANGLE);
    let m = g.mesh(json!({"attributes": {"POSITION": p}, "mode": 1}));
    g.node(json!({"mesh": m}));
    g.scene = Some(vec![0]);
    let err = convert(&write(&dir, "lines.gltf", &g.embedded())).expect_err("lines");
    assert!(matches!(err, ConvertError::NoTriangles { lines: 1, .. }), "{err:?}");
}

#[test]
fn broken_files_are_errors_not_panics() {
    let dir = scratch("gltf-broken");
    let good = triangle().glb();
    for len in [0, 11, 12, 20, good.len() / 2, good.len() - 1] {
        let path = write(&dir, &format!("cut{len}.glb"), &good[..len]);
        let err = convert(&path).expect_err("truncated");
        assert!(err.to_string().starts_with(&path.display().to_string()), "{err}");
    }
    let mut g = triangle();
    g.accessors[0]["count"] = json!(1000);
    let err = convert(&write(&dir, "overrun.gltf", &g.embedded())).expect_err("accessor overruns");
    assert!(err.to_string().contains("accessor 0"), "{err}");
    let mut g = triangle();
    g.meshes[0]["primitives"][0]["attributes"]["POSITION"] = json!(7);
    assert!(convert(&write(&dir, "badindex.gltf", &g.embedded())).is_err());
    let mut g = triangle();
    g.extra.insert("buffers".into(), json!([{"byteLength": 4, "uri": "%FF%FE.bin"}]));
    assert!(convert(&write(&dir, "baduri.gltf", &g.embedded())).is_err());
    for (name, text) in
        [("garbage.gltf", "{\"asset\": 12"), ("nothing.gltf", "{\"asset\":{\"version\":\"2.0\"}}")]
    {
        assert!(convert(&write(&dir, name, text.as_bytes())).is_err(), "{name}");
    }
}

#[test]
fn embedded_base_colour_texture() {
    let dir = scratch("gltf-texture");
    let mut g = triangle();
    let png = [0x89u8, b'P', b'N', b'G', 13, 10, 26, 10];
    let view = g.view(&png);
    g.extra.insert("images".into(), json!([{"bufferView": view, "mimeType": "image/png"}]));
    g.extra.insert("textures".into(), json!([{"source": 0}]));
    g.extra.insert(
        "materials".into(),
        json!([{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]),
    );
    g.meshes[0]["primitives"][0]["material"] = json!(0);
    let c = convert(&write(&dir, "textured.glb", &g.glb())).expect("converts");
    assert_eq!(
        c.texture,
        Some(Texture::Embedded { mime: "image/png".into(), bytes: png.to_vec() })
    );
}
