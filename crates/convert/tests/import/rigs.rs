//! Issue 64, acceptance 1: the Blender-made dancer (a skin of 13 joints, a body and three
//! painted garments, two clips with CUBICSPLINE keys) with its skins, nodes, animations and
//! accessors changed field by field, as a careless exporter or an attacker would, and bytes of
//! its binary chunk (keys, matrices, weights, joint indices) overwritten; each result is read
//! as every user of it reads it: `convert --mesh Skirt`, the character (body and clips), each
//! clip posed at a few times on the garment's skeleton, and the garment stepped on the poses.
//! Each ends in a result or an error, never a panic, within a bound that only a hang breaks
//! (the reads are bounded by the import limits, the hierarchy walked once). CI runs 256 cases;
//! `SPRINGMESH_FUZZ_CASES=N` runs more.

use crate::builder::{chunks, glb};
use crate::mutate::config;
use crate::scratch;
use proptest::prelude::*;
use serde_json::{Value, json};
use springmesh_convert::character::Character;
use springmesh_convert::import::animation::Clip;
use springmesh_convert::{ConvertOptions, convert_file};
use springmesh_core::{Simulation, ValidModel};
use std::path::Path;
use std::time::{Duration, Instant};

/// Longer than any case takes (a debug build reads, converts and steps the dancer in well
/// under a second): only a hang reaches it.
const HANG: Duration = Duration::from_secs(60);

/// The dancer's JSON and binary chunk.
fn dancer() -> (Value, Vec<u8>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/dancer.glb");
    chunks(&std::fs::read(path).unwrap())
}

/// The JSON pointers of every number, string and `null` under the fields a skin and its
/// clips are made of.
fn leaves(root: &Value) -> Vec<String> {
    fn walk(v: &Value, at: String, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => m.iter().for_each(|(k, v)| walk(v, format!("{at}/{k}"), out)),
            Value::Array(a) => {
                a.iter().enumerate().for_each(|(k, v)| walk(v, format!("{at}/{k}"), out))
            }
            _ => out.push(at),
        }
    }
    let mut out = Vec::new();
    for field in ["skins", "nodes", "animations", "accessors", "bufferViews", "scenes"] {
        walk(&root[field], format!("/{field}"), &mut out);
    }
    out
}

/// What a number may be set to: indices just past and far past any array, negatives, zero,
/// huge and tiny numbers.
fn numbers() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(-1)),
        Just(json!(0)),
        Just(json!(1)),
        Just(json!(13)),
        Just(json!(999)),
        Just(json!(4_294_967_295u64)),
        Just(json!(1e30)),
        Just(json!(-1e30)),
        Just(json!(1e-30)),
        Just(json!(0.5)),
        any::<i32>().prop_map(|n| json!(n)),
    ]
}

/// What a string may be set to: another of the names a glTF's strings take, or none of them.
fn strings() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!("wobble")),
        Just(json!("weights")),
        Just(json!("translation")),
        Just(json!("scale")),
        Just(json!("CUBICSPLINE")),
        Just(json!("STEP")),
        Just(json!("LINEAR")),
        Just(json!("VEC2")),
        Just(json!("MAT4")),
        Just(json!("Hips")),
        Just(json!("")),
    ]
}

/// One field's change: a number or a string of its own kind (a field of another type only
/// tests the JSON reader, which refuses it), or, one time in eight, a value of another type.
fn change() -> impl Strategy<Value = (prop::sample::Index, Value, Value, bool)> {
    (any::<prop::sample::Index>(), numbers(), strings(), prop::bool::weighted(0.125))
}

/// Reads `file` as convert, the editor and simulate do, posing and stepping what converts.
fn exercise(file: &Path) {
    let options = ConvertOptions { mesh: Some("Skirt".into()), ..ConvertOptions::default() };
    let converted = convert_file(file, &options).map(|c| c.model);
    let character = Character::read(file, &options);
    let bytes = std::fs::read(file).unwrap();
    let clips = Clip::read_all(file, &bytes).unwrap_or_default();
    let (Ok(model), Ok(_)) = (converted, character) else { return };
    let Some(rig) = model.rig.as_ref() else { return };
    let names: Vec<&str> = rig.joints.iter().map(|j| j.name.as_str()).collect();
    let mut sim = Simulation::new(&ValidModel::new(model.clone().into_inner()).unwrap());
    for clip in &clips {
        for t in [0.0, 0.3, 1.0, clip.duration, clip.duration + 1.0] {
            if let Ok(pose) = clip.pose(t, &names) {
                // A pose beyond the limits is refused; a refused step leaves the state as it was.
                if sim.set_pose(&pose).is_ok() {
                    let _ = sim.step(1.0 / 60.0);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn a_dancer_changed_field_by_field_reads_or_fails_cleanly(
        fields in prop::collection::vec(change(), 1..4),
        bytes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
    ) {
        let (mut root, mut bin) = dancer();
        let leaves = leaves(&root);
        for (at, number, string, other) in fields {
            if let Some(field) = root.pointer_mut(at.get(&leaves).as_str()) {
                *field = match (&*field, other) {
                    (_, true) => Value::Null,
                    (Value::String(_), false) => string,
                    _ => number,
                };
            }
        }
        for (at, byte) in bytes {
            let k = at.index(bin.len());
            bin[k] = byte;
        }
        let dir = scratch("rig-mutation");
        let file = dir.join("dancer.glb");
        std::fs::write(&file, glb(&root, &bin)).unwrap();
        let started = Instant::now();
        exercise(&file);
        prop_assert!(started.elapsed() < HANG, "took {:?}", started.elapsed());
    }
}

#[test]
fn the_dancer_itself_converts_poses_and_steps() {
    let dir = scratch("rig-seed");
    let (root, bin) = dancer();
    let file = dir.join("dancer.glb");
    std::fs::write(&file, glb(&root, &bin)).unwrap();
    let options = ConvertOptions { mesh: Some("Skirt".into()), ..ConvertOptions::default() };
    let model = convert_file(&file, &options).expect("converts").model;
    assert_eq!(model.rig.as_ref().map(|r| r.joints.len()), Some(13));
    let clips = Clip::read_all(&file, &std::fs::read(&file).unwrap()).expect("clips");
    assert_eq!(clips.len(), 2);
    let n = leaves(&root).len();
    assert!(n > 500, "the fields the cases change: {n}");
    exercise(&file);
}
