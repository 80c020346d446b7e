//! `springmesh info`: models and meshes, text and JSON.

use crate::{CUBE, at, scratch, springmesh, write};
use serde_json::json;

#[test]
fn info_on_a_model_and_on_a_mesh() {
    let dir = scratch("info");
    let jelly = at(&dir, "jelly.spring");
    springmesh(&["sample", "jelly", "-o", &jelly]).ok();
    let v = springmesh(&["info", &jelly, "--json"]).ok().json();
    assert_eq!(
        (v["nodes"].clone(), v["faces"].clone(), v["anchors"].clone()),
        (json!(216), json!(300), json!(36))
    );
    assert_eq!(v["springs"]["total"], json!(1940));
    assert!((v["total_mass"].as_f64().unwrap() - 1.08).abs() < 1e-6);
    assert_eq!(v["params"]["integrator"], json!("xpbd"));
    assert_eq!(v["metadata"]["name"], json!("jelly"));
    let b = &v["bounding_box"];
    assert!((b["diagonal"].as_f64().unwrap() - 0.3 * 3f64.sqrt()).abs() < 1e-5, "{b}");
    assert!(v.get("conversion").is_none());

    let cube = write(&dir, "cube.obj", CUBE.as_bytes());
    let v = springmesh(&["info", &cube, "--json"]).ok().json();
    assert_eq!((v["nodes"].clone(), v["springs"]["bend"].clone()), (json!(8), json!(7)));
    assert_eq!(v["conversion"]["boundary_edges"], json!(0));
    assert!(!dir.join("cube.spring").exists(), "a mesh is reported, not saved");

    let text = springmesh(&["info", &jelly]).ok().stdout;
    assert!(text.contains("nodes        216 (36 anchored, 0 without springs)"), "{text}");
    assert!(text.contains("total mass   1.080000 kg"), "{text}");
    assert!(text.contains(" Hz (springs alone, anchors held)"), "{text}");
}

#[test]
fn no_modes_leaves_the_modes_out_and_the_rest_alone() {
    let jelly = jelly_sample("info-no-modes");
    let with = springmesh(&["info", &jelly, "--json"]).ok().json();
    let modes = with["modes_hz"].as_array().unwrap();
    assert_eq!(modes.len(), 6, "{modes:?}");
    let mut without = springmesh(&["info", &jelly, "--json", "--no-modes"]).ok().json();
    assert_eq!(without["modes_hz"], json!(null));
    without["modes_hz"] = with["modes_hz"].clone();
    assert_eq!(without, with);
    let text = springmesh(&["info", &jelly, "--no-modes"]).ok().stdout;
    assert!(text.contains("modes        not looked for (--no-modes)"), "{text}");
}

#[test]
fn a_reader_that_went_away_is_not_an_internal_error() {
    // `springmesh info model | head -1`: stdout is a pipe whose reader has closed.
    let jelly = jelly_sample("info-pipe");
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_springmesh"))
        .args(["info", &jelly])
        .stdout(writer)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("internal error"), "{stderr}");
    assert_eq!(out.status.code(), Some(141), "{stderr}");
}

/// The jelly sample written to a scratch folder of its own; its path.
fn jelly_sample(folder: &str) -> String {
    let jelly = at(&scratch(folder), "jelly.spring");
    springmesh(&["sample", "jelly", "-o", &jelly]).ok();
    jelly
}
