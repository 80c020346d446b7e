//! The run's models, and the run's options checked against them.

use super::Args;
use crate::{Usage, input};
use anyhow::{Context, Result};
use springmesh_core::{NodeId, ValidModel};

/// The models of the run's files, with the overrides, the second and later under the
/// first's gravity, ground, colliders and air.
pub(super) fn bodies(args: &Args) -> Result<Vec<ValidModel>> {
    let mut models = Vec::with_capacity(args.files.len());
    for file in &args.files {
        let mut model = input::model(file)?;
        args.overrides.apply(&mut model)?;
        if let Some(first) = models.first() {
            let first: &ValidModel = first;
            let mut params = model.params.clone();
            params.gravity = first.params.gravity;
            params.ground = first.params.ground;
            params.colliders = first.params.colliders.clone();
            params.air = first.params.air;
            model.set_params(params).with_context(|| file.display().to_string())?;
        }
        models.push(model);
    }
    Ok(models)
}

/// The run's time step checked with `--seconds`, `--fps` and `--nodes`, and the outputs of
/// one model refused with several; the nodes to record.
pub(super) fn checked(args: &Args, models: &[ValidModel], dt: f32) -> Result<Vec<NodeId>> {
    if !(dt.is_finite() && dt > 0.0) {
        return Err(Usage(format!("--dt {dt} must be a finite number > 0")).into());
    }
    if !(args.seconds.is_finite() && args.seconds >= 0.0) {
        return Err(
            Usage(format!("--seconds {} must be a finite number >= 0", args.seconds)).into()
        );
    }
    if let Some(fps) = args.fps
        && !(fps.is_finite() && fps > 0.0)
    {
        return Err(Usage(format!("--fps {fps} must be a finite number > 0")).into());
    }
    if !args.clip_start.is_finite() {
        return Err(
            Usage(format!("--clip-start {} must be a finite number", args.clip_start)).into()
        );
    }
    if models.len() > 1 && (args.trajectory.is_some() || args.output.is_some()) {
        return Err(Usage(
            "--trajectory and --output take one model; with several, use --pc2, --mdd or --frames"
                .into(),
        )
        .into());
    }
    let model = &models[0];
    let Some(list) = &args.nodes else {
        return Ok((0..model.nodes.len()).map(NodeId::from_index).collect());
    };
    if let Some(&bad) = list.iter().find(|&&n| n as usize >= model.nodes.len()) {
        let nodes = model.nodes.len();
        return Err(
            Usage(format!("--nodes: node {bad} does not exist (the model has {nodes})")).into()
        );
    }
    Ok(list.iter().map(|&n| NodeId(n)).collect())
}
