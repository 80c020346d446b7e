//! `springmesh check`: a cube lattice without diagonals is unstable, the jelly sample stable; a
//! hollow blob sags where a solid one stands; `springmesh brace` keeps only a fix that helps.

use crate::{at, scratch, springmesh, write};
use serde_json::json;

/// A 4 × 4 × 4 lattice of 30 cm with springs along its edges only, as .spring.json.
fn edge_lattice() -> String {
    let n = 4;
    let id = |i: usize, j: usize, k: usize| (k * n + j) * n + i;
    let mut nodes = Vec::new();
    for k in 0..n {
        for j in 0..n {
            for i in 0..n {
                nodes.push(json!({"position": [i as f32 * 0.1, j as f32 * 0.1, k as f32 * 0.1], "mass": 0.01}));
            }
        }
    }
    let mut springs = Vec::new();
    for k in 0..n {
        for j in 0..n {
            for i in 0..n {
                for (di, dj, dk) in [(1, 0, 0), (0, 1, 0), (0, 0, 1)] {
                    if i + di < n && j + dj < n && k + dk < n {
                        springs.push(json!({"a": id(i, j, k), "b": id(i + di, j + dj, k + dk), "stiffness": 200}));
                    }
                }
            }
        }
    }
    json!({"nodes": nodes, "springs": springs}).to_string()
}

#[test]
fn lattice_without_diagonals_is_unstable_and_jelly_stable() {
    let dir = scratch("check");
    let lattice = write(&dir, "lattice.spring.json", edge_lattice().as_bytes());
    let v = springmesh(&["check", &lattice, "--json"]).ok().json();
    println!("edge lattice: shape error {}", v["shape_error"]);
    assert_eq!(v["stable"], false, "{v}");
    assert!(v["shape_error"].as_f64().unwrap() > v["threshold"].as_f64().unwrap());
    assert_eq!((v["components"].clone(), v["unconnected_nodes"].clone()), (json!(1), json!([])));
    assert_eq!(v["worst_nodes"].as_array().unwrap().len(), 10);

    let jelly = at(&dir, "jelly.spring");
    springmesh(&["sample", "jelly", "-o", &jelly]).ok();
    let v = springmesh(&["check", &jelly, "--json"]).ok().json();
    println!("jelly: shape error {}", v["shape_error"]);
    assert_eq!(v["stable"], true, "{v}");

    let text = springmesh(&["check", &lattice]).ok().stdout;
    assert!(text.contains("UNSTABLE"), "{text}");
    let same = springmesh(&["check", &lattice, "--json", "--seed", "1"]).ok().json();
    let other = springmesh(&["check", &lattice, "--json", "--seed", "2"]).ok().json();
    assert_eq!(
        same["shape_error"],
        springmesh(&["check", &lattice, "--json"]).ok().json()["shape_error"]
    );
    assert_ne!(same["shape_error"], other["shape_error"], "the seed matters");
}

/// The cow-like blob the project authored (assets/meshes/blob.obj).
fn blob() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/meshes/blob.obj").to_string()
}

#[test]
fn check_tells_the_hollow_blob_that_sags_from_the_solid_one_that_stands() {
    let dir = scratch("check-blob");
    let hollow = at(&dir, "hollow.spring");
    let solid = at(&dir, "solid.spring");
    springmesh(&["convert", &blob(), "-o", &hollow]).ok();
    let report = springmesh(&["convert", &blob(), "-o", &solid, "--solid", "--json"]).ok().json();
    assert!(report["springs"]["interior"].as_u64().unwrap() > 0, "{report}");
    assert!(report["solid"]["interior_nodes"].as_u64().unwrap() > 0, "{report}");
    let h = springmesh(&["check", &hollow, "--json"]).ok().json();
    let s = springmesh(&["check", &solid, "--json"]).ok().json();
    println!(
        "hollow: sag {} shake {}; solid: sag {} shake {}",
        h["sag_error"], h["shape_error"], s["sag_error"], s["shape_error"]
    );
    assert_eq!((h["stable"].clone(), s["stable"].clone()), (json!(false), json!(true)));
    assert!(h["sag_error"].as_f64().unwrap() > 0.05, "the hollow blob sags into a puddle: {h}");
    assert!(s["sag_error"].as_f64().unwrap() < 0.01, "{s}");
    assert!(h["sag_support"]["ground"].is_number(), "no anchors: it rests on the ground");
    assert_eq!(h["sag_worst_nodes"].as_array().unwrap().len(), 10);
}

#[test]
fn brace_keeps_a_fix_only_when_the_error_falls() {
    let dir = scratch("brace");
    let lattice = write(&dir, "lattice.spring.json", edge_lattice().as_bytes());
    let out = at(&dir, "braced.spring.json");
    let v = springmesh(&["brace", &lattice, "-o", &out, "--json"]).ok().json();
    println!("lattice: {v}");
    assert_eq!(v["kept"], json!(true), "{v}");
    assert!(v["error_after"].as_f64().unwrap() < v["error_before"].as_f64().unwrap());
    let braced = springmesh(&["info", &out, "--json"]).ok().json();
    assert_eq!(braced["springs"]["total"].as_u64().unwrap(), 144 + v["tried"].as_u64().unwrap());
    // Springs of no stiffness cannot lower the error: the model is saved unchanged.
    let same = at(&dir, "same.spring.json");
    let v = springmesh(&["brace", &lattice, "-o", &same, "--stiffness", "0", "--json"]).ok().json();
    assert_eq!(v["kept"], json!(false), "{v}");
    assert_eq!(springmesh(&["info", &same, "--json"]).ok().json()["springs"]["total"], json!(144));
}
