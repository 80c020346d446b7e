//! Issue 16, acceptance 3: any model that validates, extreme values within the limits
//! included, steps 100 times with every integrator without a panic or an abort, and each step
//! either succeeds or is refused (a non-finite state), never hangs. CI runs 16 models from a
//! fixed seed; `SPRINGMESH_FUZZ_CASES=N SPRINGMESH_FUZZ_SEED=S cargo test -p springmesh-core
//! --release --test files stepping` runs N from seed S (random models cost very differently:
//! 400 took five minutes here, some a few seconds each).

use crate::strategy;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use springmesh_core::{Integrator, Simulation};

/// How many random models, and from which seed: `SPRINGMESH_FUZZ_CASES` (16) and
/// `SPRINGMESH_FUZZ_SEED` (1).
fn config() -> ProptestConfig {
    let var = |name: &str, default: u64| {
        std::env::var(name).ok().and_then(|n| n.parse().ok()).unwrap_or(default)
    };
    ProptestConfig {
        cases: var("SPRINGMESH_FUZZ_CASES", 16) as u32,
        rng_seed: RngSeed::Fixed(var("SPRINGMESH_FUZZ_SEED", 1)),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_valid_model_steps_with_every_integrator(model in strategy::model()) {
        prop_assert_eq!(model.validate(), Ok(()));
        for integrator in Integrator::ALL {
            let mut m = model.clone();
            m.params.integrator = integrator;
            // The strategy's sub-steps go to 1000; a hundred steps of that many is what a game
            // at that setting would do, and bounded.
            let mut sim = Simulation::new(&springmesh_core::ValidModel::new(m.clone()).expect("a valid model compiles"));
            for _ in 0..100 {
                if sim.step(m.params.dt).is_err() {
                    break;
                }
            }
        }
    }
}
