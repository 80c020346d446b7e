//! OBJ import cases.

use crate::{convert, scratch, sorted_positions, write};
use springmesh_convert::{ConvertError, ConvertOptions, convert_file};

#[test]
fn triangles_quads_and_ngons() {
    let dir = scratch("obj-ngons");
    let obj = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\nv 3 0 0\nv 3 1 0\nv 2.5 1.5 0\nv 2 1 0\n\
               f 1 2 3\nf 1 3 4\nf 5 6 7 8 9\n";
    let c = convert(&write(&dir, "ngons.obj", obj.as_bytes())).expect("converts");
    assert_eq!((c.report.nodes, c.report.faces), (9, 5), "1 + 1 + 3 triangles");
    let quad = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n";
    let path = write(&dir, "quad.obj", quad.as_bytes());
    let c = convert(&path).expect("converts");
    assert_eq!((c.report.faces, c.report.springs.stretch, c.report.springs.bend), (2, 5, 1));
    let sheared =
        convert_file(&path, &ConvertOptions { quad_shear: true, ..ConvertOptions::default() })
            .expect("ok");
    assert_eq!(
        (sheared.report.springs.stretch, sheared.report.springs.shear, sheared.report.springs.bend),
        (6, 1, 0)
    );
}

#[test]
fn concave_polygon_is_ear_clipped() {
    let dir = scratch("obj-concave");
    // An L-shaped hexagon listed from a corner next to the reflex corner: a fan would cover
    // the notch (1..2, 1..2).
    let obj = "v 2 1 0\nv 1 1 0\nv 1 2 0\nv 0 2 0\nv 0 0 0\nv 2 0 0\nf 1 2 3 4 5 6\n";
    let c = convert(&write(&dir, "l.obj", obj.as_bytes())).expect("converts");
    assert_eq!(c.report.faces, 4);
    let p = c.model.nodes.positions();
    let mut area = 0.0;
    for f in c.model.faces.nodes() {
        let [a, b, d] = f.map(|n| p[n.index()]);
        let n = (b - a).cross(d - a);
        assert!(n.z > 0.0, "wound like the polygon");
        area += 0.5 * n.length();
        let centre = (a + b + d) / 3.0;
        assert!(!(centre.x > 1.0 && centre.y > 1.0), "no triangle in the notch");
    }
    assert!((area - 3.0).abs() < 1e-5, "covers the L exactly: {area}");
}

#[test]
fn negative_indices_groups_and_objects() {
    let dir = scratch("obj-groups");
    let obj = "o first\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n\
               o second\ng part\nv 5 0 0\nv 6 0 0\nv 5 1 0\nf -3 -2 -1\ng other\nf 4 6 1\n";
    let c = convert(&write(&dir, "groups.obj", obj.as_bytes())).expect("converts");
    assert_eq!(
        (c.report.nodes, c.report.faces, c.report.components),
        (6, 3, 1),
        "merged into one model"
    );
    assert_eq!(sorted_positions(&c)[0], [0, 0, 0]);
}

#[test]
fn missing_material_is_a_warning_and_crlf_is_fine() {
    let dir = scratch("obj-mtl");
    let obj = "mtllib nowhere.mtl\r\nusemtl red\r\nv 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nvn 0 0 1\r\nf 1//1 2//1 3//1\r\n";
    let c = convert(&write(&dir, "crlf.obj", obj.as_bytes())).expect("converts");
    assert_eq!(c.report.nodes, 3);
    assert!(c.report.warnings.iter().any(|w| w.kind == "material"), "{:?}", c.report.warnings);
    assert!(c.texture.is_none());
}

#[test]
fn material_texture_is_found() {
    let dir = scratch("obj-texture");
    write(&dir, "skin.mtl", b"newmtl skin\nmap_Kd textures/skin.png\n");
    std::fs::create_dir_all(dir.join("textures")).unwrap();
    write(&dir.join("textures"), "skin.png", b"not really a png: the editor reads it later");
    let obj = "mtllib skin.mtl\nusemtl skin\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nf 1/1 2/2 3/3\n";
    let c = convert(&write(&dir, "textured.obj", obj.as_bytes())).expect("converts");
    let found = dir.join("textures/skin.png").canonicalize().unwrap();
    assert_eq!(c.texture, Some(springmesh_convert::Texture::File(found)));
    assert!(c.report.warnings.is_empty(), "{:?}", c.report.warnings);
    // Issue 16: a material library or texture outside the folder is a note, never read.
    write(dir.parent().unwrap(), "beside.png", b"a file beside the mesh's folder");
    write(&dir, "away.mtl", b"newmtl skin\nmap_Kd ../beside.png\n");
    let away = obj.replace("skin.mtl", "away.mtl");
    let c = convert(&write(&dir, "away.obj", away.as_bytes())).expect("converts");
    assert!(c.texture.is_none());
    let notes: Vec<&str> = c.report.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(notes.iter().any(|n| n.contains("leads outside the mesh's folder")), "{notes:?}");
    // Issue 16: tobj panicked on a colour of one number; a malformed library is a note too.
    write(&dir, "short.mtl", b"newmtl skin\nKd 0.8\n");
    let short = obj.replace("skin.mtl", "short.mtl");
    let c = convert(&write(&dir, "short.obj", short.as_bytes())).expect("converts");
    let notes: Vec<&str> = c.report.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(notes.iter().any(|n| n.contains("line 2: a colour needs three numbers")), "{notes:?}");
    let outside = obj.replace("skin.mtl", "/dev/zero");
    let c = convert(&write(&dir, "zero.obj", outside.as_bytes())).expect("converts");
    let notes: Vec<&str> = c.report.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(notes.iter().any(|n| n.contains("is not a path relative")), "{notes:?}");
}

#[test]
fn uv_seams_weld_but_keep_uvs() {
    let dir = scratch("obj-seam");
    // Two triangles sharing positions 1 and 3 but with different uvs on either side.
    let obj = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 0.5 0\nvt 0.5 1\nvt 0.6 0\nvt 0.6 1\nvt 1 1\n\
               f 1/1 2/2 3/3\nf 1/4 3/5 4/6\n";
    let c = convert(&write(&dir, "seam.obj", obj.as_bytes())).expect("converts");
    assert_eq!((c.report.nodes, c.report.springs.stretch, c.report.springs.bend), (4, 5, 1));
    let uv_sets: Vec<_> = c.model.faces.uvs().iter().map(|u| u.expect("uvs")).collect();
    assert_ne!(uv_sets[0][0], uv_sets[1][0], "the shared corner has a uv on each side");
    assert_eq!(c.model.uvs.len(), 6);
    let v: Vec<f32> = c.model.uvs.iter().map(|t| t.y).collect();
    assert_eq!(v, [1.0, 1.0, 0.0, 1.0, 0.0, 0.0], "OBJ's bottom-up v becomes top-down");
}

#[test]
fn points_and_lines_only_is_refused() {
    let dir = scratch("obj-lines");
    let path = write(&dir, "lines.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\np 1\nl 1 2 3\n");
    let err = convert(&path).expect_err("nothing to convert");
    assert!(
        matches!(err, ConvertError::NoTriangles { points: 1, lines: 2, .. }),
        "a polyline of 3 vertices is 2 segments: {err:?}"
    );
    assert!(err.to_string().starts_with(&format!("{}: no triangles", path.display())), "{err}");
}

#[test]
fn non_finite_coordinates_and_garbage_are_refused() {
    let dir = scratch("obj-bad");
    let path = write(&dir, "nan.obj", b"v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n");
    let err = convert(&path).expect_err("NaN");
    assert!(
        err.to_string().contains("vertex 1 has a coordinate that is not a finite number"),
        "{err}"
    );
    // Issue 16: one vertex at 1e20 once made the weld tolerance infinite and the model empty.
    let path = write(&dir, "far.obj", b"v 0 0 0\nv 1e20 0 0\nv 0 1 0\nf 1 2 3\n");
    let err = convert(&path).expect_err("too far");
    assert!(err.to_string().contains("vertex 1 is more than 1000000 m from the origin"), "{err}");
    for (name, bytes) in [
        ("empty.obj", &b""[..]),
        ("garbage.obj", &b"\x00\xff\x13 v v v f f 7 8 9 \xfe"[..]),
        ("cut.obj", &b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 "[..]),
        ("range.obj", &b"v 0 0 0\nf 1 2 3\n"[..]),
    ] {
        let path = write(&dir, name, bytes);
        let err = convert(&path).expect_err(name);
        assert!(err.to_string().starts_with(&path.display().to_string()), "{name}: {err}");
    }
}

#[test]
fn errors_name_the_line() {
    let dir = scratch("obj-lines-named");
    for (name, bytes, expected) in [
        (
            "vertex.obj",
            &b"v 0 0 0\nv 1 x 0\nv 0 1 0\nf 1 2 3\n"[..],
            "line 2: a vertex (v) needs 3 numbers",
        ),
        (
            "range.obj",
            &b"v 0 0 0\r\nv 1 0 0\r\n\r\nf 1 2 3\r\n"[..],
            "line 4: face corner \"3\" names no vertex (the file has 2)",
        ),
        (
            "uv.obj",
            &b"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/2 3/1\n"[..],
            "line 5: face corner \"2/2\" names no texture coordinate (the file has 1)",
        ),
        (
            "normal.obj",
            &b"v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0\nf 1 2 3\n"[..],
            "line 4: a normal (vn) needs 3 numbers",
        ),
    ] {
        let path = write(&dir, name, bytes);
        let err = convert(&path).expect_err(name).to_string();
        assert!(err.contains(expected), "{name}: {err}");
    }
    // What tobj accepts stays accepted: normals named where the file has none (as some
    // exporters write), and a face before the vertices it names.
    for (name, bytes) in [
        ("no-normals.obj", &b"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1/1 2/1/2 3/1/3\n"[..]),
        ("forward.obj", &b"f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\n"[..]),
    ] {
        let c = convert(&write(&dir, name, bytes)).expect(name);
        assert_eq!((c.report.nodes, c.report.faces), (3, 1), "{name}");
    }
}

#[test]
fn a_polygon_of_thousands_of_corners_is_triangulated_and_a_huge_one_refused() {
    // Issue 16: a 16 KB OBJ with one 8,000-corner polygon took 22 s (cubic ear clipping).
    let dir = scratch("obj-big-polygon");
    let star = |n: usize| {
        let mut obj = String::new();
        for i in 0..n {
            let a = i as f32 * std::f32::consts::TAU / n as f32;
            let r = if i % 2 == 0 { 1.0 } else { 0.6 };
            obj += &format!("v {} {} 0\n", r * a.cos(), r * a.sin());
        }
        obj += "f";
        for i in 1..=n {
            obj += &format!(" {i}");
        }
        obj + "\n"
    };
    let path = write(&dir, "star.obj", star(8000).as_bytes());
    let model = convert(&path).expect("an 8,000-corner star converts").model;
    assert_eq!(model.faces.len(), 7998);
    let huge = springmesh_convert::MAX_FACE_CORNERS + 1;
    let path = write(&dir, "huge.obj", star(huge).as_bytes());
    let err = convert(&path).expect_err("too many corners").to_string();
    assert!(err.contains(&format!("line {}: a face of {huge} corners", huge + 1)), "{err}");
}

#[test]
fn vertices_keep_the_files_order_whatever_order_the_faces_use_them_in() {
    // tobj numbers vertices in the order faces first use them: 5, 4, 3, 1 here. A point cache
    // of the nodes plays on the modeler's object only in the file's order: 1, 3, 4, 5 (2 is
    // used by no face and left out), the faces renumbered with them.
    let dir = scratch("obj-order");
    let obj = "v 0 0 0\nv 9 9 9\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 5 4 3\nf 1 3 4\n";
    let c = convert(&write(&dir, "order.obj", obj.as_bytes())).expect("converts");
    let at = |i: usize| c.model.nodes.positions()[i].to_array();
    let order: Vec<[f32; 3]> = (0..4).map(at).collect();
    assert_eq!(order, [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]]);
    let faces: Vec<[[f32; 3]; 3]> =
        c.model.faces.nodes().iter().map(|f| f.map(|n| at(n.index()))).collect();
    assert!(faces.contains(&[[1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]), "{faces:?}");
    assert!(faces.contains(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]), "{faces:?}");
}
