//! Issue 64: the Blender-made dancer's clips with their JSON changed as a careless exporter
//! or an attacker would: a result or an error naming the field, never a panic or a hang.

use crate::builder::{chunks, glb};
use serde_json::{Value, json};
use springmesh_convert::ConvertError;
use springmesh_convert::import::animation::Clip;
use std::path::Path;

/// `assets/characters/dancer.glb` with `change` applied to its JSON.
fn dancer(change: impl FnOnce(&mut Value)) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/dancer.glb");
    let (mut root, bin) = chunks(&std::fs::read(path).unwrap());
    change(&mut root);
    glb(&root, &bin)
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
