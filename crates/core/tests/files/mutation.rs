//! Issue 16, acceptance 2, for models: `.spring` and `.spring.json` seeds using every part of
//! the format, mutated ([`crate::mutate`]); each result either fails to load with an error or
//! loads, validates, compiles and steps 20 times with its own integrator without a panic. In
//! binary files most edits break the checksum, so half the binary cases have it rewritten to
//! reach the decoder. CI runs 2,000 cases per form; `SPRINGMESH_FUZZ_CASES=N` runs more.

use crate::common::files::{fix_checksum, small_model, world_model};
use crate::mutate::{apply, config, edits};
use proptest::prelude::*;
use springmesh_core::Simulation;
use springmesh_core::io::{self, FileFormat};
use std::path::Path;

/// The seeds: both models in one form.
fn seeds(format: FileFormat, name: &str) -> Vec<Vec<u8>> {
    [small_model(), world_model()]
        .iter()
        .map(|m| io::encode(m, format, Path::new(name)).expect("encodes"))
        .collect()
}

/// Loads `bytes`; a model that loads must validate and step.
fn exercise(bytes: &[u8], name: &str) -> Result<(), TestCaseError> {
    let Ok(model) = io::decode(bytes, Path::new(name)) else { return Ok(()) };
    prop_assert_eq!(model.validate(), Ok(()));
    step(&model);
    Ok(())
}

/// Twenty steps of the model's own `dt`; a rejected step ends the run.
fn step(model: &springmesh_core::ValidModel) {
    let mut sim = Simulation::new(model);
    for _ in 0..20 {
        if sim.step(model.params.dt).is_err() {
            break;
        }
    }
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn mutated_binary_models_load_or_fail_cleanly(
        seed in 0usize..2,
        edits in edits(),
        checksum in any::<bool>(),
    ) {
        let mut bytes = apply(&seeds(FileFormat::Binary, "m.spring")[seed], &edits);
        if checksum && bytes.len() >= io::binary::HEADER_LEN {
            fix_checksum(&mut bytes);
        }
        exercise(&bytes, "m.spring")?;
    }

    #[test]
    fn mutated_json_models_load_or_fail_cleanly(seed in 0usize..2, edits in edits()) {
        let bytes = apply(&seeds(FileFormat::Json, "m.spring.json")[seed], &edits);
        exercise(&bytes, "m.spring.json")?;
    }
}
