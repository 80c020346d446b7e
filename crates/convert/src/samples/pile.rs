//! Many solids dropped in a heap: the scene of the pile benchmarks (the core's `World` and the
//! Bevy plugin's) and examples.

use crate::{ConvertError, ConvertOptions, MassMode, SolidOptions, convert_file};
use glam::{Quat, Vec3};
use springmesh_core::ValidModel;
use springmesh_core::model::Ground;
use std::path::Path;
use std::time::{Duration, Instant};

/// Distance between neighbouring bodies of a layer (m): a turned blob's footprint is at most
/// 1.66 m across.
const SPACING: f32 = 1.7;

/// How far above the layer under it a layer starts (m), and how far aside (m), so that it
/// lands on the lower bodies' backs.
const LAYER_RISE: f32 = 1.2;
const LAYER_SHIFT: f32 = 0.3;

/// The options of `springmesh convert --solid`: no bend springs (the lattice holds the
/// surface), masses from a density of 1000 kg/m³ (water), the default lattice.
pub fn solid_options() -> ConvertOptions {
    ConvertOptions {
        bend: false,
        mass: MassMode::Density { density: 1000.0 },
        solid: Some(SolidOptions::default()),
        ..ConvertOptions::default()
    }
}

/// The mesh `path` converted as a solid ([`solid_options`]), on a ground just under it.
pub fn solid(path: &Path) -> Result<ValidModel, ConvertError> {
    let mut model = convert_file(path, &solid_options())?.model;
    let mut params = model.params.clone();
    params.ground = Some(Ground { height: model.ground_under(), ..Ground::default() });
    model.set_params(params).map_err(ConvertError::Simulation)?;
    Ok(model)
}

/// `count` copies of `body` in layers of `columns` × `rows`, [`SPACING`] apart, each layer
/// [`LAYER_RISE`] over the last and [`LAYER_SHIFT`] aside, each copy turned 0.7 rad more than
/// the last about its own vertical axis (so its footprint stays where it is placed). Copies
/// that cannot be placed (beyond the model's coordinate limits) are left out.
pub fn pile(body: &ValidModel, count: usize, (columns, rows): (usize, usize)) -> Vec<ValidModel> {
    let Some(bounds) = body.bounding_box() else { return Vec::new() };
    let centre = bounds.center() * Vec3::new(1.0, 0.0, 1.0);
    let per_layer = (columns * rows).max(1);
    (0..count)
        .filter_map(|k| {
            let (i, j, layer) =
                (k % columns.max(1), (k / columns.max(1)) % rows.max(1), k / per_layer);
            let mut copy = body.clone();
            let turn = Quat::from_rotation_y(0.7 * k as f32);
            let shift = LAYER_SHIFT * layer as f32;
            let at = Vec3::new(
                SPACING * i as f32 + shift,
                LAYER_RISE * layer as f32,
                SPACING * j as f32 + shift,
            );
            copy.place(turn, at + centre - turn * centre).ok()?;
            Some(copy)
        })
        .collect()
}

/// Frames a pile benchmark times from its settled pile before setting it back.
pub const WINDOW: u64 = 60;

/// The time of `iters` frames stepped by `frame` from a settled pile, which `reset` puts
/// `pile` back to (untimed) before the first frame and every [`WINDOW`] frames: runs that step
/// alike time the same frames, however fast they are (a pile still settling takes fewer world
/// steps as it calms, so a run left to go on would time later, calmer frames the faster it
/// is). For criterion's `iter_custom`.
pub fn windowed<T>(
    iters: u64,
    pile: &mut T,
    mut reset: impl FnMut(&mut T),
    mut frame: impl FnMut(&mut T),
) -> Duration {
    let mut total = Duration::ZERO;
    for i in 0..iters {
        if i % WINDOW == 0 {
            reset(pile);
        }
        let start = Instant::now();
        frame(pile);
        total += start.elapsed();
    }
    total
}
