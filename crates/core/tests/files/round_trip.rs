//! Acceptance 9: random valid models come back equal through `.spring` and `.spring.json`,
//! in memory and through files.

use crate::strategy;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use springmesh_core::io::{self, FileFormat};
use std::path::Path;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn binary_round_trip(model in strategy::model()) {
        prop_assert_eq!(model.validate(), Ok(()));
        let file = Path::new("random.spring");
        let bytes = io::encode(&model, FileFormat::Binary, file).expect("encodes");
        prop_assert_eq!(io::decode(&bytes, file).expect("decodes"), model);
    }

    #[test]
    fn json_round_trip(model in strategy::model()) {
        let file = Path::new("random.spring.json");
        let bytes = io::encode(&model, FileFormat::Json, file).expect("encodes");
        prop_assert_eq!(io::decode(&bytes, file).expect("decodes"), model);
    }
}

#[test]
fn save_and_load_choose_the_format_by_extension() {
    let dir = std::env::temp_dir().join(format!("springmesh-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let model = strategy::model().new_tree(&mut runner).expect("a model").current();
    for (name, binary) in [("m.spring", true), ("m.spring.json", false), ("M.SPRING.JSON", false)] {
        let path = dir.join(name);
        let valid = springmesh_core::ValidModel::new(model.clone()).expect("valid");
        io::save(&valid, &path).expect("saves");
        let bytes = std::fs::read(&path).expect("written");
        assert_eq!(bytes.starts_with(&io::binary::MAGIC), binary, "{name}");
        assert_eq!(io::load(&path).expect("loads"), model, "{name}");
    }
}

#[test]
fn world_params_round_trip_in_both_forms() {
    let model = crate::common::files::world_model();
    assert_eq!(model.validate(), Ok(()));
    for (name, format) in [("w.spring", FileFormat::Binary), ("w.spring.json", FileFormat::Json)] {
        let bytes = io::encode(&model, format, Path::new(name)).expect("encodes");
        assert_eq!(io::decode(&bytes, Path::new(name)).expect("decodes"), model, "{name}");
    }
    let json = io::encode(&model, FileFormat::Json, Path::new("w.spring.json")).expect("encodes");
    let text: String = String::from_utf8(json).expect("utf-8").split_whitespace().collect();
    for field in [
        r#""sphere":{"center""#,
        r#""gas_density":0.166"#,
        r#""restitution":0.25"#,
        r#""rotation":[0.0,0.0,0.0,1.0]"#,
    ] {
        assert!(text.contains(field), "{field} in {text}");
    }
}
