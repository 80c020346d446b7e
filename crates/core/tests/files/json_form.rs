//! The `.spring.json` contract of DESIGN.md: the minimal form, defaults, field names, errors.

use glam::Vec3;
use springmesh_core::io::{self, FileFormat};
use springmesh_core::{CoreError, Integrator, NodeId, SpringKind};
use std::path::Path;

const MINIMAL: &str = r#"{"nodes":[{"position":[0,0,0],"mass":1},{"position":[1,0,0],"mass":1}],
  "springs":[{"a":0,"b":1,"stiffness":100}], "anchors":[0]}"#;

#[test]
fn minimal_form_loads_with_defaults() {
    let m = io::decode(MINIMAL.as_bytes(), Path::new("minimal.spring.json")).expect("loads");
    assert_eq!(m.nodes.len(), 2);
    assert_eq!(m.anchors, vec![NodeId(0)]);
    let s = m.springs.iter().next().expect("one spring");
    assert_eq!((s.a, s.b, s.stiffness), (NodeId(0), NodeId(1), 100.0));
    assert_eq!(s.rest_length, 1.0, "the nodes' distance");
    assert_eq!(s.damping, 0.0);
    assert_eq!(s.kind, SpringKind::Manual);
    assert_eq!((s.break_min, s.break_max), (None, None));
    assert!(m.faces.is_empty() && m.uvs.is_empty());
    assert_eq!(m.params.gravity, Vec3::new(0.0, -9.81, 0.0));
    assert_eq!(m.params.integrator, Integrator::Xpbd);
}

#[test]
fn written_json_uses_the_contract_field_names() {
    let m = io::decode(MINIMAL.as_bytes(), Path::new("minimal.spring.json")).expect("loads");
    let bytes = io::encode(&m, FileFormat::Json, Path::new("out.spring.json")).expect("encodes");
    let v: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
    assert_eq!(v["nodes"][1]["position"], serde_json::json!([1.0, 0.0, 0.0]));
    assert_eq!(v["nodes"][1]["mass"], 1.0);
    let spring = &v["springs"][0];
    for (key, value) in [
        ("a", serde_json::json!(0)),
        ("b", serde_json::json!(1)),
        ("stiffness", serde_json::json!(100.0)),
        ("damping", serde_json::json!(0.0)),
        ("rest_length", serde_json::json!(1.0)),
        ("kind", serde_json::json!("manual")),
    ] {
        assert_eq!(spring[key], value, "{key}");
    }
    assert_eq!(v["anchors"], serde_json::json!([0]));
    for key in ["gravity", "damping", "integrator", "dt", "substeps"] {
        assert!(v["params"].get(key).is_some(), "params.{key}");
    }
    assert_eq!(v["params"]["integrator"], "xpbd");
    assert!(v.get("faces").is_some() && v.get("uvs").is_some() && v.get("metadata").is_some());
}

fn error(text: &str) -> String {
    let err = io::decode(text.as_bytes(), Path::new("bad.spring.json")).expect_err("refused");
    err.to_string()
}

#[test]
fn errors_name_the_file_and_the_problem() {
    let text = error(
        r#"{"nodes":[{"position":[0,0,0],"mass":1}],"springs":[{"a":0,"b":7,"stiffness":1}]}"#,
    );
    assert_eq!(
        text,
        "bad.spring.json: invalid model: spring 0: node index 7 out of range (the model has 1 nodes)"
    );
    let text = error(r#"{"nodes":[{"position":[0,0,0],"mass":1,"stifness":3}]}"#);
    assert!(text.starts_with("bad.spring.json:1:"), "{text}");
    assert!(text.contains("unknown field `stifness`"), "{text}");
    let text = error("{\"nodes\":[\n{\"position\":[0,0],\"mass\":1}]}");
    assert!(text.starts_with("bad.spring.json:2:"), "{text}");
    let text = error(r#"{"nodes":[{"position":[0,0,0],"mass":-1}]}"#);
    assert!(text.contains("node 0: mass -1 is not a finite number > 0"), "{text}");
    let err = io::decode(b"{\"nodes\":[]", Path::new("cut.spring.json")).expect_err("truncated");
    assert!(matches!(err, CoreError::Json { .. }), "{err:?}");
}
