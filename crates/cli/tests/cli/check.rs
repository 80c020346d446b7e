//! `springmesh check`: a cube lattice without diagonals is unstable, the jelly sample stable.

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
