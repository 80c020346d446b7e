//! Issue 16, acceptance 2, for meshes: valid seeds of every format the converter reads — an
//! OBJ with its material library, a `.gltf` with embedded data, one with an external `.bin`, a
//! GLB — mutated ([`crate::mutate`]); each result converts to a model that validates or fails
//! with an error, never a panic. A panic inside a third-party parser is caught and reported as
//! a clean error, but it is still counted as a failure here: such inputs should be checked
//! before the parser sees them. CI runs 500 cases per seed (about 2,500 conversions); `SPRINGMESH_FUZZ_CASES=N` runs more.

use crate::builder::{F32, Gltf, U16};
use crate::mutate::{apply, config, edits};
use crate::scratch;
use proptest::prelude::*;
use serde_json::json;
use springmesh_convert::{ConvertOptions, ImportLimits, convert_file, in_isolated_parser};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Panics caught inside the parsers, and the last one's message.
static ISOLATED: AtomicUsize = AtomicUsize::new(0);
static LAST: Mutex<String> = Mutex::new(String::new());

/// Counts the panics of isolated parsers (other panics go to the default hook as usual).
fn count_isolated_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if in_isolated_parser() {
                ISOLATED.fetch_add(1, Ordering::SeqCst);
                if let Ok(mut last) = LAST.lock() {
                    *last = info.to_string();
                }
            } else {
                default(info);
            }
        }));
    });
}

/// Converts `dir/name` with a limit a mutation can reach without slowing the run (a repeated
/// run of a face line makes thousands of triangles); a model must validate.
fn exercise(dir: &Path, name: &str) -> Result<(), TestCaseError> {
    count_isolated_panics();
    let before = ISOLATED.load(Ordering::SeqCst);
    let options = ConvertOptions {
        limits: ImportLimits { max_triangles: 200_000, ..ImportLimits::default() },
        ..ConvertOptions::default()
    };
    if let Ok(c) = convert_file(&dir.join(name), &options) {
        prop_assert_eq!(c.model.validate(), Ok(()));
    }
    let last = LAST.lock().map(|l| l.clone()).unwrap_or_default();
    prop_assert_eq!(ISOLATED.load(Ordering::SeqCst), before, "a parser panicked: {}", last);
    Ok(())
}

const OBJ: &str = "mtllib m.mtl\no cube\ng sides\nusemtl skin\n\
v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1 0.5 0.5 0.5\n\
vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 1\n\
f 1/1/1 2/2/1 3/3/1 4/4/1\nf 5/1 6/2 7/3 8/4\nf -8//1 -7//1 -3//1 -4//1\nf 2 3 7 6\n\
f 3 4 8 7 -2\np 1\nl 1 2 3\n";
const MTL: &str = "newmtl skin\nKa 0.1 0.1 0.1\nKd 0.8 0.7 0.6\nNs 10\nd 1\nmap_Kd skin.png\n";

/// A textured, indexed, transformed, partly sparse glTF scene.
fn scene() -> Gltf {
    let mut g = Gltf::default();
    let p = g.positions(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.5]]);
    let t = g.uvs(&[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]);
    let i = g.indices(&[0, 1, 2, 2, 1, 3]);
    let index = g.view(&1u16.to_le_bytes());
    let value = g.view(&[0.5f32, 0.5, 0.5].map(f32::to_le_bytes).concat());
    let sparse = json!({"sparse": {"count": 1, "indices": {"bufferView": index, "componentType": U16},
        "values": {"bufferView": value}}});
    let base = g.accessors[p]["bufferView"].clone();
    let moved = g.accessor(base.as_u64().map(|v| v as usize), F32, 4, "VEC3", sparse);
    let strip = g.mesh(json!({"attributes": {"POSITION": moved}, "mode": 5}));
    let m = g
        .mesh(json!({"attributes": {"POSITION": p, "TEXCOORD_0": t}, "indices": i, "material": 0}));
    let child = g.node(json!({"mesh": strip, "translation": [0, 0, 2], "scale": [2, 2, 2]}));
    let root = g.node(json!({"mesh": m, "children": [child], "rotation": [0.0, 0.0, 0.6, 0.8]}));
    g.scene = Some(vec![root]);
    g.extra.insert("images".into(), json!([{"uri": "skin.png"}]));
    g.extra.insert("textures".into(), json!([{"source": 0}]));
    g.extra.insert(
        "materials".into(),
        json!([{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]),
    );
    g
}

/// A folder holding the side files every seed may name.
fn folder(test: &str) -> std::path::PathBuf {
    let dir = scratch(test);
    std::fs::write(dir.join("m.mtl"), MTL).expect("writes");
    std::fs::write(dir.join("skin.png"), b"an image the converter only locates").expect("writes");
    dir
}

proptest! {
    #![proptest_config(config(500))]

    #[test]
    fn mutated_obj_files_convert_or_fail_cleanly(edits in edits()) {
        let dir = folder("mutation-obj");
        std::fs::write(dir.join("m.obj"), apply(OBJ.as_bytes(), &edits)).expect("writes");
        exercise(&dir, "m.obj")?;
    }

    #[test]
    fn mutated_material_libraries_convert_or_fail_cleanly(edits in edits()) {
        let dir = folder("mutation-mtl");
        std::fs::write(dir.join("m.obj"), OBJ).expect("writes");
        std::fs::write(dir.join("m.mtl"), apply(MTL.as_bytes(), &edits)).expect("writes");
        exercise(&dir, "m.obj")?;
    }

    #[test]
    fn mutated_gltf_files_convert_or_fail_cleanly(edits in edits()) {
        let dir = folder("mutation-gltf");
        std::fs::write(dir.join("m.gltf"), apply(&scene().embedded(), &edits)).expect("writes");
        exercise(&dir, "m.gltf")?;
    }

    #[test]
    fn mutated_external_buffers_convert_or_fail_cleanly(edits in edits(), json in any::<bool>()) {
        let dir = folder("mutation-bin");
        let (gltf, bin) = scene().external("m.bin");
        let (gltf, bin) = if json { (apply(&gltf, &edits), bin) } else { (gltf, apply(&bin, &edits)) };
        std::fs::write(dir.join("m.gltf"), gltf).expect("writes");
        std::fs::write(dir.join("m.bin"), bin).expect("writes");
        exercise(&dir, "m.gltf")?;
    }

    #[test]
    fn mutated_glb_files_convert_or_fail_cleanly(edits in edits()) {
        let dir = folder("mutation-glb");
        std::fs::write(dir.join("m.glb"), apply(&scene().glb(), &edits)).expect("writes");
        exercise(&dir, "m.glb")?;
    }
}

#[test]
fn the_seeds_themselves_convert() {
    let dir = folder("mutation-seeds");
    std::fs::write(dir.join("m.obj"), OBJ).expect("writes");
    std::fs::write(dir.join("m.gltf"), scene().embedded()).expect("writes");
    std::fs::write(dir.join("m.glb"), scene().glb()).expect("writes");
    for name in ["m.obj", "m.gltf", "m.glb"] {
        let c = convert_file(&dir.join(name), &ConvertOptions::default()).expect(name);
        assert!(c.texture.is_some(), "{name}: the texture is found");
        assert!(c.report.faces >= 4, "{name}: {} faces", c.report.faces);
    }
}
