//! `springmesh settle`.

use crate::{at, scratch, springmesh};
use springmesh_core::io;

#[test]
fn settle_saves_the_resting_shape() {
    let dir = scratch("settle");
    let string = at(&dir, "string.spring");
    springmesh(&["sample", "string", "-o", &string]).ok();
    let out = at(&dir, "hanging.spring.json");
    let v = springmesh(&["settle", &string, "-o", &out, "--damping", "3", "--json"]).ok().json();
    assert_eq!(v["settled"], true, "{v}");
    assert!(v["seconds"].as_f64().unwrap() < 60.0);
    let hanging = io::load(out.as_ref()).unwrap();
    let start = io::load(string.as_ref()).unwrap();
    assert_eq!(hanging.springs, start.springs, "rest lengths unchanged");
    let end = hanging.nodes.positions()[29];
    assert!(
        end.x.abs() < 0.05 && end.y < 0.1,
        "the rope hangs straight down from its held end: {end}"
    );

    let v = springmesh(&[
        "settle",
        &string,
        "-o",
        &out,
        "--max-seconds",
        "0.5",
        "--energy-threshold",
        "1e-12",
        "--json",
    ])
    .ok()
    .json();
    assert_eq!(v["settled"], false);
    let run = springmesh(&["settle", &string, "-o", &out, "--energy-threshold", "0"]);
    assert_eq!(run.code, 2);
}
