//! Issue 16's classes of hostile mesh files, each rebuilt here from its description: every one
//! gets a clean error naming the file or a correct result, quickly and in bounded memory.
//! (Class 1 — references outside the folder — is `gltf::references_outside_the_mesh_folder_are_refused`
//! and `obj::material_texture_is_found`; class 7's far vertex and line numbers are in `obj`.)

use crate::builder::{F32, Gltf, U8};
use crate::{convert, scratch, write};
use serde_json::json;
use springmesh_convert::{ConvertError, ConvertOptions, ImportLimits, convert_file};

const TRIANGLE: [[f32; 3]; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];

#[test]
fn class_3_sparse_accessors_without_data_are_bounded() {
    // A 603-byte glTF: four primitives whose positions are a sparse accessor of 2^27 zeros
    // with no buffer view; it used 2.6 GB each, and four aborted.
    let dir = scratch("hostile-sparse");
    for count in [1usize << 27, 2_000_000] {
        let mut g = Gltf::default();
        let index = g.view(&[0, 0, 0, 0]);
        let value = g.view(&[0; 12]);
        let sparse = json!({"sparse": {"count": 1,
            "indices": {"bufferView": index, "componentType": U8},
            "values": {"bufferView": value}}});
        let p = g.accessor(None, F32, count, "VEC3", sparse);
        let primitive = json!({"attributes": {"POSITION": p}});
        g.meshes.push(json!({"primitives": vec![primitive; 4]}));
        let n = g.node(json!({"mesh": 0}));
        g.scene = Some(vec![n]);
        let path = write(&dir, "sparse.gltf", &g.embedded());
        let err = convert(&path).expect_err("bounded");
        assert!(
            matches!(err, ConvertError::TooLarge { .. } | ConvertError::Accessor { .. }),
            "{err:?}"
        );
        assert!(err.to_string().starts_with(&path.display().to_string()), "{err}");
    }
}

#[test]
fn class_3_instancing_is_counted_against_the_triangle_limit() {
    // One triangle placed by 20,000 nodes: 20,000 triangles. Allowed by default; refused by a
    // limit of 10,000 before any instance is read.
    let dir = scratch("hostile-instances");
    let mut g = Gltf::default();
    let p = g.positions(&TRIANGLE);
    let m = g.mesh(json!({"attributes": {"POSITION": p}}));
    let nodes: Vec<usize> = (0..20_000)
        .map(|i| g.node(json!({"mesh": m, "translation": [2.0 * i as f32, 0.0, 0.0]})))
        .collect();
    g.scene = Some(nodes);
    let path = write(&dir, "instances.gltf", &g.embedded());
    let c = convert(&path).expect("within the default limit");
    assert_eq!((c.report.nodes, c.report.faces), (60_000, 20_000));
    let tight = ConvertOptions {
        limits: ImportLimits { max_triangles: 10_000, ..ImportLimits::default() },
        ..ConvertOptions::default()
    };
    let err = convert_file(&path, &tight).expect_err("over the limit").to_string();
    assert!(err.contains("too large: more than 10000 triangles after instancing"), "{err}");
}

#[test]
fn class_4_repeated_triangles_stay_linear() {
    // 2,000 copies of the same two triangles took 8.4 s (bend pairs cubic in the triangles of
    // an edge); 100,000 copies of one triangle took 7 s.
    let dir = scratch("hostile-repeats");
    let mut two = String::from("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n");
    two += &"f 1 2 3\nf 2 4 3\n".repeat(2000);
    let c = convert(&write(&dir, "two.obj", two.as_bytes())).expect("converts");
    assert_eq!((c.report.nodes, c.report.springs.stretch, c.report.springs.bend), (4, 5, 1));
    let one = String::from("v 0 0 0\nv 1 0 0\nv 0 1 0\n") + &"f 1 2 3\n".repeat(100_000);
    let c = convert(&write(&dir, "one.obj", one.as_bytes())).expect("converts");
    assert_eq!((c.report.nodes, c.report.springs.stretch, c.report.springs.bend), (3, 3, 0));
    assert!(c.report.warnings.iter().any(|w| w.kind == "non_manifold_edges"));
}

#[test]
fn class_6_an_image_without_a_source_is_an_error_not_a_panic() {
    // The gltf crate unwraps an image's uri-or-bufferView.
    let dir = scratch("hostile-image");
    let mut g = Gltf::default();
    let p = g.positions(&TRIANGLE);
    let m = g.mesh(json!({"attributes": {"POSITION": p}, "material": 0}));
    let n = g.node(json!({"mesh": m}));
    g.scene = Some(vec![n]);
    g.extra.insert("images".into(), json!([{}]));
    g.extra.insert("textures".into(), json!([{"source": 0}]));
    g.extra.insert(
        "materials".into(),
        json!([{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]),
    );
    let path = write(&dir, "image.gltf", &g.embedded());
    let err = convert(&path).expect_err("no image source").to_string();
    assert!(err.contains("images[0] has neither a uri nor a bufferView"), "{err}");
}

#[test]
fn trusted_files_may_name_buffers_outside_their_folder() {
    let dir = scratch("hostile-trusted");
    let models = dir.join("models");
    std::fs::create_dir_all(&models).expect("a folder");
    let mut g = Gltf::default();
    let p = g.positions(&TRIANGLE);
    let m = g.mesh(json!({"attributes": {"POSITION": p}}));
    let n = g.node(json!({"mesh": m}));
    g.scene = Some(vec![n]);
    let (gltf, bin) = g.external("../shared.bin");
    write(&dir, "shared.bin", &bin);
    let path = write(&models, "outside.gltf", &gltf);
    assert!(convert(&path).is_err(), "refused by default");
    let trusted = ConvertOptions {
        limits: ImportLimits { outside_references: true, ..ImportLimits::default() },
        ..ConvertOptions::default()
    };
    let c = convert_file(&path, &trusted).expect("read when trusted");
    assert_eq!(c.report.nodes, 3);
}

#[cfg(unix)]
#[test]
fn class_1_an_input_that_is_not_a_regular_file_is_refused_unread() {
    // A FIFO would never answer, a device never end.
    let dir = scratch("hostile-fifo");
    let fifo = dir.join("pipe.obj");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let err = convert(&fifo).expect_err("a FIFO").to_string();
        assert!(err.ends_with("pipe.obj: is not a regular file"), "{err}");
    }
    let err = convert(std::path::Path::new("/dev/zero")).expect_err("a device").to_string();
    assert_eq!(err, "/dev/zero: is not a regular file");
    let err = springmesh_core::io::load(std::path::Path::new("/dev/zero")).expect_err("a device");
    assert_eq!(err.to_string(), "/dev/zero: is not a regular file");
}
