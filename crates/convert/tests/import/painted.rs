//! Issue 15, acceptance 1: a GLB with painted `_PIN`, `_STIFFNESS` and `COLOR_0`, built here
//! byte by byte as Blender writes one with "Attributes" ticked, converts: the pins are the
//! anchors, painted stiffness scales the springs, and `--pin-color red` takes the red vertices.

use crate::builder::{F32, Gltf, U8};
use crate::{scratch, write};
use serde_json::json;
use springmesh_convert::{ConvertOptions, PinColor, convert_file};
use springmesh_core::SpringModel;

/// A 3 × 3 grid, 1 m apart in x and z (vertex i at (i % 3, 0, i / 3)): `_PIN` 1 on vertices 0
/// and 2, `_STIFFNESS` 2 on the first row (0, 1, 2) and 1 elsewhere, `_MASS` 3 on vertex 4, a
/// `_WIND` attribute nobody reads, and `COLOR_0` (normalized u8 RGBA) red on 6 and 8.
fn painted_grid() -> Vec<u8> {
    let mut g = Gltf::default();
    let positions: Vec<[f32; 3]> = (0..9).map(|i| [(i % 3) as f32, 0.0, (i / 3) as f32]).collect();
    let p = g.positions(&positions);
    let mut indices = Vec::new();
    for j in 0..2u16 {
        for i in 0..2u16 {
            let a = j * 3 + i;
            indices.extend([a, a + 3, a + 1, a + 1, a + 3, a + 4]);
        }
    }
    let t = g.indices(&indices);
    let scalar = |g: &mut Gltf, values: [f32; 9]| {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = g.view(&bytes);
        g.accessor(Some(view), F32, 9, "SCALAR", json!({}))
    };
    let pin = scalar(&mut g, [1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    let stiffness = scalar(&mut g, [2.0, 2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]);
    let mass = scalar(&mut g, [1.0, 1.0, 1.0, 1.0, 3.0, 1.0, 1.0, 1.0, 1.0]);
    let wind = scalar(&mut g, [0.0; 9]);
    let colors: Vec<u8> = (0..9)
        .flat_map(|i| if i == 6 || i == 8 { [255, 0, 0, 255] } else { [0, 0, 0, 255] })
        .collect();
    let view = g.view(&colors);
    let color = g.accessor(Some(view), U8, 9, "VEC4", json!({"normalized": true}));
    let m = g.mesh(json!({"attributes": {"POSITION": p, "_PIN": pin, "_STIFFNESS": stiffness,
        "_MASS": mass, "_WIND": wind, "COLOR_0": color}, "indices": t}));
    let n = g.node(json!({"mesh": m}));
    g.scene = Some(vec![n]);
    g.glb()
}

/// The stiffness of the spring between nodes `a` and `b`.
fn stiffness(model: &SpringModel, a: u32, b: u32) -> f32 {
    let s = model.springs.iter().find(|s| (s.a.0, s.b.0) == (a, b) || (s.a.0, s.b.0) == (b, a));
    s.expect("a spring").stiffness
}

#[test]
fn painted_pins_stiffness_and_mass_drive_the_conversion() {
    let dir = scratch("painted");
    let path = write(&dir, "painted.glb", &painted_grid());
    let c = convert_file(&path, &ConvertOptions::default()).expect("converts");
    let anchors: Vec<u32> = c.model.anchors.iter().map(|a| a.0).collect();
    assert_eq!(anchors, vec![0, 2], "the _PIN vertices");
    assert_eq!(c.report.anchors, 2);
    let (painted, plain) = (stiffness(&c.model, 0, 1), stiffness(&c.model, 3, 4));
    assert_eq!(painted, 2.0 * plain, "springs between two 2s are twice those between two 1s");
    assert_eq!(stiffness(&c.model, 1, 4), 1.5 * plain, "the mean of the two ends");
    let masses = c.model.nodes.masses();
    assert_eq!(masses[4], 3.0 * masses[3]);
    assert!(c.report.weighted_springs > 0 && c.report.weighted_masses == 1);
    let notes: Vec<&str> = c.report.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(notes.iter().any(|n| n.contains("attribute _WIND ignored")), "{notes:?}");

    let red = ConvertOptions {
        pin_color: Some(PinColor { channel: 0, threshold: 0.5 }),
        ..ConvertOptions::default()
    };
    let c = convert_file(&path, &red).expect("converts");
    let anchors: Vec<u32> = c.model.anchors.iter().map(|a| a.0).collect();
    assert_eq!(anchors, vec![6, 8], "the red vertices instead");
}

#[test]
fn obj_vertex_colours_pin_too() {
    let dir = scratch("painted-obj");
    let obj = "v 0 0 0 1 0 0\nv 1 0 0 0 0 0\nv 0 0 1 0 0 0\nv 1 0 1 1 0 0\nf 1 3 2\nf 2 3 4\n";
    let path = write(&dir, "coloured.obj", obj.as_bytes());
    let red = ConvertOptions {
        pin_color: Some(PinColor { channel: 0, threshold: 0.5 }),
        ..ConvertOptions::default()
    };
    let c = convert_file(&path, &red).expect("converts");
    let anchors: Vec<u32> = c.model.anchors.iter().map(|a| a.0).collect();
    assert_eq!(anchors, vec![0, 3]);
}
