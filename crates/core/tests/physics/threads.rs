//! Splitting spring batches between threads changes nothing: the same positions bit for bit.

use crate::common::{GridSprings, grid_cloth, shuffled};
use springmesh_core::sim::Threads;
use springmesh_core::{Integrator, Simulation};

#[test]
fn threads_give_the_same_result_bit_for_bit() {
    // 200 × 200: colour batches of up to 20,000 springs, above the 16,384 below which a batch
    // stays on one thread, so they really are split (the 96 × 96 cloth this test had before
    // the threshold rose no longer was) — once the grid is shuffled: numbered row by row, its
    // springs lie in bands (kernels' `worth`), which run on one thread.
    let grid = grid_cloth(200, 0.05, 0.01, GridSprings { stiffness: 200.0, damping: 0.1 });
    for (model, numbering) in [(shuffled(&grid, 7919), "shuffled"), (grid, "row by row")] {
        for integrator in Integrator::ALL {
            let mut model = model.clone();
            model.params.integrator = integrator;
            model.params.substeps = 8;
            let run = |threads| {
                let mut sim = Simulation::new(
                    &springmesh_core::ValidModel::new(model.clone()).expect("valid"),
                );
                sim.set_threads(threads);
                for _ in 0..20 {
                    sim.step(1.0 / 60.0).expect("finite");
                }
                sim.positions().to_vec()
            };
            let (one, all) = (run(Threads::One), run(Threads::All));
            let same = one.iter().zip(&all).all(|(p, q)| p.to_array() == q.to_array());
            assert!(same, "{integrator:?}, {numbering}");
            let lowest = one.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
            assert!(lowest < -0.05, "{integrator:?}, {numbering}: it moved");
        }
    }
}
