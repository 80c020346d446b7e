//! `springmesh convert`: exact reports and every option family.

use crate::{CUBE, TWO_TRIANGLES, at, scratch, springmesh, write};
use serde_json::json;
use springmesh_core::{SpringKind, io};

#[test]
fn exact_json_report_for_authored_meshes() {
    let dir = scratch("convert-json");
    for (name, obj, nodes, faces, stretch, bend) in
        [("two.obj", TWO_TRIANGLES, 4, 2, 5, 1), ("cube.obj", CUBE, 8, 12, 18, 7)]
    {
        let input = write(&dir, name, obj.as_bytes());
        let output = at(&dir, &format!("{name}.spring"));
        let v = springmesh(&["convert", &input, "-o", &output, "--json"]).ok().json();
        assert_eq!(v["nodes"], json!(nodes), "{name}");
        assert_eq!(v["faces"], json!(faces));
        assert_eq!(
            v["springs"],
            json!({"stretch": stretch, "bend": bend, "vicinity": 0, "manual": 0, "interior": 0, "total": stretch + bend, "shear": 0})
        );
        assert_eq!(
            (v["anchors"].clone(), v["welded"].clone(), v["warnings"].clone()),
            (json!(0), json!(0), json!([]))
        );
        assert_eq!((v["input"].clone(), v["output"].clone()), (json!(input), json!(output)));
        let model = io::load(output.as_ref()).unwrap();
        assert_eq!((model.nodes.len(), model.springs.len()), (nodes, stretch + bend));
    }
}

#[test]
fn text_output_is_one_line_with_warnings_below() {
    let dir = scratch("convert-text");
    let input = write(
        &dir,
        "lonely.obj",
        b"mtllib gone.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 9 9 9\nf 1 2 3\n",
    );
    let run = springmesh(&["convert", &input, "-o", &at(&dir, "out.spring")]).ok();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0].contains("3 nodes, 1 faces, 3 springs (stretch 3, bend 0, vicinity 0)"),
        "{}",
        run.stdout
    );
    assert!(
        lines.iter().any(|l| l.contains("warning: 1 vertices are used by no triangle")),
        "{}",
        run.stdout
    );
    assert!(lines.iter().any(|l| l.contains("warning: material file not read")), "{}", run.stdout);
}

#[test]
fn spring_options() {
    let dir = scratch("convert-options");
    let quad = write(&dir, "quad.obj", b"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n");
    let out = at(&dir, "quad.spring.json");
    let convert = |extra: &[&str]| {
        let mut args = vec!["convert", quad.as_str(), "-o", out.as_str(), "--json"];
        args.extend_from_slice(extra);
        springmesh(&args).ok().json()
    };
    assert_eq!(convert(&[])["springs"]["bend"], json!(1));
    assert_eq!(convert(&["--no-bend"])["springs"]["bend"], json!(0));
    assert_eq!(
        convert(&["--no-bend", "--bend"])["springs"]["bend"],
        json!(1),
        "the last flag wins"
    );
    let sheared = convert(&["--quad-shear"]);
    assert_eq!(
        (sheared["springs"]["stretch"].clone(), sheared["springs"]["shear"].clone()),
        (json!(6), json!(1))
    );
    // The quad diagonal that no edge joins is √2 m long: radius 1.5 reaches it (the bend
    // spring would join the same pair, hence --no-bend).
    let near = convert(&["--no-bend", "--vicinity", "1.5"]);
    assert_eq!(near["springs"]["vicinity"], json!(1));
    assert_eq!(
        convert(&["--no-bend", "--vicinity", "1.5", "--vicinity-cap", "1"])["springs"]["vicinity"],
        json!(1)
    );
    convert(&[
        "--stretch-stiffness",
        "123",
        "--stretch-damping",
        "0.5",
        "--bend-stiffness",
        "45",
        "--bend-damping",
        "0.25",
    ]);
    let model = io::load(out.as_ref()).unwrap();
    for s in model.springs.iter() {
        let expected = if s.kind == SpringKind::Stretch { (123.0, 0.5) } else { (45.0, 0.25) };
        assert_eq!((s.stiffness, s.damping), expected);
    }
    assert_eq!(model.metadata.conversion["stretch_stiffness"], "123");
    convert(&[
        "--vicinity",
        "1.5",
        "--vicinity-stiffness",
        "7",
        "--vicinity-damping",
        "0.125",
        "--no-bend",
    ]);
    let model = io::load(out.as_ref()).unwrap();
    let v = model.springs.iter().find(|s| s.kind == SpringKind::Vicinity).unwrap();
    assert_eq!((v.stiffness, v.damping), (7.0, 0.125));
}

#[test]
fn mass_options() {
    let dir = scratch("convert-mass");
    // Triangle areas 0.5 and 1.5.
    let input = write(&dir, "m.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 3 1 0\nf 1 2 3\nf 2 4 3\n");
    let out = at(&dir, "m.spring");
    let masses = |extra: &[&str]| {
        let mut args = vec!["convert", input.as_str(), "-o", out.as_str()];
        args.extend_from_slice(extra);
        springmesh(&args).ok();
        io::load(out.as_ref()).unwrap().nodes.masses().to_vec()
    };
    assert_eq!(masses(&[]), vec![0.002; 4]);
    assert_eq!(masses(&["--mass", "0.5"]), vec![0.5; 4]);
    assert_eq!(masses(&["--total-mass", "6"]), vec![1.5; 4]);
    let by_area = masses(&["--total-mass", "6", "--mass-by-area"]);
    for (got, want) in by_area.iter().zip([0.5, 2.0, 2.0, 1.5]) {
        assert!((got - want).abs() < 1e-5, "{by_area:?}");
    }
    assert_eq!(
        springmesh(&["convert", &input, "-o", &out, "--mass", "1", "--total-mass", "2"]).code,
        2
    );
    assert_eq!(springmesh(&["convert", &input, "-o", &out, "--mass-by-area"]).code, 2);
    assert_eq!(springmesh(&["convert", &input, "-o", &out, "--mass", "-1"]).code, 2);
}

#[test]
fn weld_tolerance() {
    let dir = scratch("convert-weld");
    // Five vertices; vertex 4 sits 1e-4 from vertex 3: welded at 1e-3, not at the default
    // (1e-6 × the diagonal) or at 0.
    let input = write(
        &dir,
        "w.obj",
        b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0.0001 1 0\nv 1 1 0\nf 1 2 3\nf 4 2 5\n",
    );
    let out = at(&dir, "w.spring");
    let nodes = |extra: &[&str]| {
        let mut args = vec!["convert", input.as_str(), "-o", out.as_str(), "--json"];
        args.extend_from_slice(extra);
        springmesh(&args).ok().json()["nodes"].clone()
    };
    assert_eq!(nodes(&[]), json!(5));
    assert_eq!(nodes(&["--weld-tolerance", "0"]), json!(5));
    assert_eq!(nodes(&["--weld-tolerance", "0.001"]), json!(4));
}

#[test]
fn several_inputs_convert_in_parallel_into_a_directory() {
    let dir = scratch("convert-batch");
    let a = write(&dir, "a.obj", TWO_TRIANGLES.as_bytes());
    let b = write(&dir, "b.obj", CUBE.as_bytes());
    let bad = write(&dir, "bad.obj", b"v 0 0 0\nf 1 2 3\n");
    let out = format!("{}/", at(&dir, "models"));
    let run = springmesh(&["convert", &a, &bad, &b, "-o", &out, "--json"]);
    assert_eq!(run.code, 1, "one input failed");
    let lines: Vec<serde_json::Value> =
        run.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3, "one line per input, in order");
    assert_eq!((lines[0]["nodes"].clone(), lines[2]["nodes"].clone()), (json!(4), json!(8)));
    assert!(lines[1]["error"].as_str().unwrap().contains("bad.obj"), "{}", lines[1]);
    assert!(dir.join("models/a.spring").exists() && dir.join("models/b.spring").exists());
    assert!(!dir.join("models/bad.spring").exists());
    assert!(run.stderr.contains("1 of 3 inputs failed"), "{}", run.stderr);
    let run = springmesh(&["convert", &a, &b, "-o", &out, "--json-files"]).ok();
    assert_eq!(run.stdout.lines().count(), 2);
    assert!(dir.join("models/a.spring.json").exists());
    let same_stem = write(&scratch("convert-batch-2"), "a.obj", TWO_TRIANGLES.as_bytes());
    assert_eq!(
        springmesh(&["convert", &a, &same_stem, "-o", &out]).code,
        2,
        "two inputs, one output name"
    );
    assert_eq!(
        springmesh(&["convert", &a, &b, "-o", &at(&dir, "one.spring")]).code,
        2,
        "several inputs need a directory"
    );
}

#[test]
fn keep_edits_carries_an_anchor_and_lists_what_it_drops() {
    // Convert with non-default options, anchor node 0 by hand, re-export with a vertex moved:
    // the new model has the anchor and the old options (dropped edits: crates/convert/tests/keep.rs).
    let dir = scratch("convert-keep");
    let mesh = write(&dir, "two.obj", TWO_TRIANGLES.as_bytes());
    let old = at(&dir, "old.spring.json");
    springmesh(&["convert", &mesh, "-o", &old, "--stretch-stiffness", "777"]).ok();
    let mut model = io::load(std::path::Path::new(&old)).unwrap().into_inner();
    model.anchors = vec![springmesh_core::NodeId(0)];
    io::save(&springmesh_core::ValidModel::new(model.clone()).unwrap(), std::path::Path::new(&old))
        .unwrap();
    let moved =
        write(&dir, "moved.obj", TWO_TRIANGLES.replacen("v 0 0 0", "v 0 0.001 0", 1).as_bytes());
    let new = at(&dir, "new.spring");
    let v =
        springmesh(&["convert", &moved, "--keep-edits", &old, "-o", &new, "--json"]).ok().json();
    assert_eq!(v["kept"], json!({"anchors": 1}));
    assert_eq!(v["dropped"], json!([]));
    let m = io::load(std::path::Path::new(&new)).unwrap();
    assert_eq!(m.anchors.len(), 1);
    assert!(
        m.springs.iter().all(|s| s.kind != SpringKind::Stretch || s.stiffness == 777.0),
        "the old options"
    );
    let text = springmesh(&["convert", &moved, "--keep-edits", &mesh, "-o", &new]);
    assert_ne!(text.code, 0, "a mesh is no model to keep edits from");
}
