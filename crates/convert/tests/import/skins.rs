//! Issue 64: the Blender-made dancer's clips with their JSON changed as a careless exporter
//! or an attacker would: a result or an error naming the field, never a panic or a hang.

use crate::builder::{chunks, glb};
use serde_json::{Value, json};
use springmesh_convert::import::animation::Clip;
use springmesh_convert::import::{ImportLimits, read};
use springmesh_convert::{CharacterMeshes, ConvertError};
use std::path::Path;

/// `assets/characters/dancer.glb` with `change` applied to its JSON.
fn dancer(change: impl FnOnce(&mut Value)) -> Vec<u8> {
    dancer_and_data(|root, _| change(root))
}

/// `assets/characters/dancer.glb` with `change` applied to its JSON and its binary chunk.
fn dancer_and_data(change: impl FnOnce(&mut Value, &mut Vec<u8>)) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/dancer.glb");
    let (mut root, mut bin) = chunks(&std::fs::read(path).unwrap());
    change(&mut root, &mut bin);
    glb(&root, &bin)
}

/// The skirt of `bytes` as `convert --mesh Skirt` reads it.
fn skirt(bytes: &[u8]) -> Result<springmesh_convert::RawMesh, ConvertError> {
    let only = (Some("Skirt"), &CharacterMeshes::Others);
    read(Path::new("dancer.glb"), bytes, &ImportLimits::default(), only)
}

/// Where element `k` of accessor `a` starts in the binary chunk, and its component type.
fn element(root: &Value, a: usize, k: usize) -> (usize, u64) {
    let accessor = &root["accessors"][a];
    let view = &root["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
    let offset = |v: &Value| v.as_u64().unwrap_or(0) as usize;
    let kind = accessor["componentType"].as_u64().unwrap();
    let size = match kind {
        5121 => 1,
        5123 => 2,
        _ => 4,
    };
    let components = match accessor["type"].as_str().unwrap() {
        "SCALAR" => 1,
        "VEC3" => 3,
        "VEC4" => 4,
        _ => 16,
    };
    let stride = view["byteStride"].as_u64().map_or(size * components, |s| s as usize);
    (offset(&view["byteOffset"]) + offset(&accessor["byteOffset"]) + k * stride, kind)
}

/// The accessor of attribute `name` of the skirt's primitive.
fn skirt_attribute(root: &Value, name: &str) -> usize {
    let meshes = root["meshes"].as_array().unwrap();
    let mesh = meshes.iter().find(|m| m["name"] == "Skirt").unwrap();
    mesh["primitives"][0]["attributes"][name].as_u64().unwrap() as usize
}

/// The clip "Leap" of `bytes`.
fn leap(bytes: &[u8]) -> Result<Clip, ConvertError> {
    Clip::read(Path::new("dancer.glb"), bytes, "Leap")
}

/// The index of the node called `name` among `nodes`.
fn named(nodes: &[Value], name: &str) -> usize {
    nodes.iter().position(|n| n["name"] == name).unwrap()
}

#[test]
fn a_channel_of_a_node_that_does_not_exist_is_an_error_naming_the_field() {
    // It panicked: the gltf crate's validation leaves a channel's target unchecked.
    let bytes = dancer(|root| root["animations"][1]["channels"][2]["target"]["node"] = json!(999));
    let error = leap(&bytes).expect_err("no such node").to_string();
    assert!(error.contains("animations[1].channels[2].target.node 999: no such node"), "{error}");
    assert!(error.contains("dancer.glb"), "{error}");
}

#[test]
fn a_channel_of_an_unknown_property_is_left_out_with_a_note() {
    let joints = ["UpperLeg.L"];
    let plain = leap(&dancer(|_| ())).unwrap();
    let bytes = dancer(|root| {
        let leg = named(root["nodes"].as_array().unwrap(), "UpperLeg.L");
        let channels = root["animations"][1]["channels"].as_array_mut().unwrap();
        let rotation = channels
            .iter()
            .position(|c| c["target"]["node"] == leg && c["target"]["path"] == "rotation")
            .unwrap();
        channels[rotation]["target"]["path"] = json!("wobble");
    });
    let clip = leap(&bytes).expect("the rest of the clip");
    assert_eq!(clip.notes.len(), 1, "{:?}", clip.notes);
    assert!(clip.notes[0].contains("target.path: not \"translation\""), "{:?}", clip.notes);
    // The leg spread by 40° at 0.5 s in the file, still at rest without its channel.
    let moved = plain.pose(0.5, &joints).unwrap()[0];
    let still = clip.pose(0.5, &joints).unwrap()[0];
    let rest = clip.pose(0.0, &joints).unwrap()[0];
    assert!(still.abs_diff_eq(rest, 1e-6) && !moved.abs_diff_eq(rest, 1e-3));
}

#[test]
fn a_long_chain_of_nodes_above_the_armature_poses_as_none() {
    // 20,000 nodes of no transform, each the parent of the next, the last the armature's:
    // the joints' world matrices are those of the file without them (each node's depth was
    // walked to the root inside a sort: 100,000 nodes took 80 s).
    const CHAIN: usize = 20_000;
    let bytes = dancer(|root| {
        let nodes = root["nodes"].as_array_mut().unwrap();
        let (armature, first) = (named(nodes, "Armature"), nodes.len());
        for k in 0..CHAIN {
            let child = if k + 1 < CHAIN { first + k + 1 } else { armature };
            nodes.push(json!({ "name": format!("link {k}"), "children": [child] }));
        }
        root["scenes"][0]["nodes"] = json!([first]);
    });
    let joints = ["Hips", "UpperLeg.L", "LowerLeg.R", "Head"];
    let plain = leap(&dancer(|_| ())).unwrap().pose(1.3, &joints).unwrap();
    let chained = leap(&bytes).expect("the clip").pose(1.3, &joints).expect("joints");
    for (a, b) in plain.iter().zip(&chained) {
        assert!(a.abs_diff_eq(*b, 1e-6), "{a} against {b}");
    }
}

#[test]
fn nodes_on_a_cycle_are_taken_as_roots() {
    // The hips made the parent of the scene's root: a cycle, which validation lets through.
    let bytes = dancer(|root| {
        let nodes = root["nodes"].as_array_mut().unwrap();
        let (armature, hips) = (named(nodes, "Armature"), named(nodes, "Hips"));
        nodes[hips]["children"].as_array_mut().unwrap().push(json!(armature));
    });
    let pose = leap(&bytes).expect("the clip").pose(0.5, &["Hips", "Head"]).expect("joints");
    assert!(pose.iter().all(|m| m.is_finite()));
}

#[test]
fn a_cubic_spline_sampler_with_one_value_a_key_is_an_error_saying_what_it_needs() {
    let bytes = dancer(|root| {
        let sampler = root["animations"][1]["samplers"][0].clone();
        let keys = root["accessors"][sampler["input"].as_u64().unwrap() as usize]["count"].clone();
        root["accessors"][sampler["output"].as_u64().unwrap() as usize]["count"] = keys;
    });
    let error = leap(&bytes).expect_err("too few values").to_string();
    assert!(
        error.contains("animations[1].samplers[0].output: CUBICSPLINE needs 3 values a key"),
        "{error}"
    );
    let keys = error.split(" for ").nth(1).unwrap().split(' ').next().unwrap();
    let keys: usize = keys.parse().unwrap();
    assert!(error.contains(&format!("{} for {keys} keys, found {keys}", 3 * keys)), "{error}");
}

#[test]
fn key_times_that_do_not_increase_or_are_not_numbers_are_errors_naming_the_key() {
    for (value, expected) in [
        (f32::NAN, "key 1's time NaN is not a finite number"),
        (-1.0, "key 1's time -1 s is not after key 0's"),
    ] {
        let bytes = dancer_and_data(|root, bin| {
            let input = root["animations"][1]["samplers"][0]["input"].as_u64().unwrap() as usize;
            let (at, _) = element(root, input, 1);
            bin[at..at + 4].copy_from_slice(&value.to_le_bytes());
        });
        let error = leap(&bytes).expect_err("bad times").to_string();
        assert!(
            error.contains("animations[1].samplers[0].input: ") && error.contains(expected),
            "{error}"
        );
    }
}

#[test]
fn translation_keys_beyond_the_coordinate_limit_are_an_error_naming_the_value() {
    let bytes = dancer_and_data(|root, bin| {
        let channels = root["animations"][1]["channels"].as_array().unwrap();
        let moving = channels.iter().find(|c| c["target"]["path"] == "translation").unwrap();
        let sampler = moving["sampler"].as_u64().unwrap() as usize;
        let output = root["animations"][1]["samplers"][sampler]["output"].as_u64().unwrap();
        let (at, _) = element(root, output as usize, 1);
        for k in 0..3 {
            bin[at + 4 * k..at + 4 * k + 4].copy_from_slice(&1e30f32.to_le_bytes());
        }
    });
    let error = leap(&bytes).expect_err("far keys").to_string();
    assert!(error.contains("output: value 1 ") && error.contains("beyond ±1000000"), "{error}");
}

#[test]
fn inverse_bind_matrices_short_or_not_finite_are_errors_naming_the_joint() {
    let short = dancer(|root| {
        let a = root["skins"][0]["inverseBindMatrices"].as_u64().unwrap() as usize;
        let joints = root["skins"][0]["joints"].as_array().unwrap().len();
        root["accessors"][a]["count"] = json!(joints - 1);
    });
    let error = skirt(&short).expect_err("a joint without its matrix").to_string();
    assert!(
        error.contains("skins[0].inverseBindMatrices: 12 matrices for the skin's 13 joints"),
        "{error}"
    );
    for value in [f32::NAN, 1e30] {
        let bytes = dancer_and_data(|root, bin| {
            let a = root["skins"][0]["inverseBindMatrices"].as_u64().unwrap() as usize;
            let (at, _) = element(root, a, 0);
            bin[at + 48..at + 52].copy_from_slice(&value.to_le_bytes());
        });
        let error = skirt(&bytes).expect_err("a bad matrix").to_string();
        assert!(error.contains("skins[0].inverseBindMatrices[0] (joint \""), "{error}");
        assert!(!error.contains("vertex 0") && !error.contains("--scale"), "{error}");
    }
}

#[test]
fn a_painted_attribute_of_the_wrong_count_is_an_error_not_dropped() {
    // Dropped, it left every node of a worn garment free.
    let bytes = dancer(|root| {
        let a = skirt_attribute(root, "_MAX_DISTANCE");
        root["accessors"][a]["count"] = json!(100);
    });
    let error = skirt(&bytes).expect_err("a short paint").to_string();
    assert!(
        error.contains(".attributes._MAX_DISTANCE: 100 values for the primitive's 1232 vertices"),
        "{error}"
    );
}

#[test]
fn a_weighted_joint_the_skin_lacks_is_an_error_and_bad_weights_are_counted_in_a_note() {
    let bytes = dancer_and_data(|root, bin| {
        let (at, kind) = element(root, skirt_attribute(root, "JOINTS_0"), 0);
        match kind {
            5121 => bin[at] = 200,
            _ => bin[at..at + 2].copy_from_slice(&200u16.to_le_bytes()),
        }
    });
    let error = skirt(&bytes).expect_err("no such joint").to_string();
    assert!(
        error.contains("attributes.JOINTS_0: vertex 0 is weighted to joint 200, the skin has 13"),
        "{error}"
    );
    let bytes = dancer_and_data(|root, bin| {
        let a = skirt_attribute(root, "WEIGHTS_0");
        for (k, w) in [(0, -1.0f32), (1, f32::NAN)] {
            let (at, _) = element(root, a, k);
            bin[at..at + 4].copy_from_slice(&w.to_le_bytes());
        }
    });
    let mesh = skirt(&bytes).expect("read with a note");
    let notes = mesh.notes.join("; ");
    assert!(
        notes.contains("WEIGHTS_0: 2 vertices have a negative or non-finite weight"),
        "{notes}"
    );
    assert!(notes.contains("2 vertices weigh on no joint"), "{notes}");
}
