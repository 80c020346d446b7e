//! What a run writes: the trajectory, OBJ frames and point caches as it goes, and the final
//! state.

use super::Args;
use crate::frames::FrameSet;
use crate::point_cache::{Layout, PointCache};
use anyhow::{Context, Result};
use glam::{Vec3, Vec3A};
use springmesh_core::io::AtomicFile;
use springmesh_core::{NodeId, Simulation, SpringModel, ValidModel, World, io};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A body's drawn surface: its vertices' positions and normals.
pub(super) type Drawn = (Vec<Vec3>, Vec<Vec3>);

/// What a run writes as it goes: the trajectory, OBJ frames and point caches, each staged
/// until the run ends well.
pub(super) struct Outputs {
    pub(super) trajectory: Option<(PathBuf, AtomicFile)>,
    pub(super) frames: Option<FrameSet>,
    pub(super) caches: Vec<PointCache>,
    pub(super) fps: Option<f64>,
    /// Scratch: every body's surface, one after another (what the point caches hold).
    pub(super) all: Vec<Vec3>,
}

impl Outputs {
    pub(super) fn open(args: &Args, models: &[ValidModel]) -> Result<Outputs> {
        let trajectory = match &args.trajectory {
            Some(path) => {
                let mut f = AtomicFile::create(path)?;
                writeln!(f, "time,node,x,y,z").with_context(|| path.display().to_string())?;
                Some((path.clone(), f))
            }
            None => None,
        };
        let frames = args.frames.as_ref().map(|dir| FrameSet::create(dir)).transpose()?;
        let vertices = models.iter().map(|m| m.surface_vertex_count()).sum();
        let caches = [(&args.pc2, Layout::Pc2), (&args.mdd, Layout::Mdd)]
            .into_iter()
            .filter_map(|(path, layout)| {
                Some(PointCache::new(path.as_ref()?, layout, vertices, args.fps?))
            })
            .collect();
        Ok(Outputs { trajectory, frames, caches, fps: args.fps, all: Vec::new() })
    }

    /// Records the state of the world's bodies (their drawn `surfaces`, in the order of
    /// `models`) at `time` (s) where it is due; the trajectory is of the first body.
    pub(super) fn record(
        &mut self,
        models: &[ValidModel],
        (world, surfaces): (&World, &[Drawn]),
        (nodes, time): (&[NodeId], f64),
    ) -> Result<()> {
        if let (Some((path, f)), Some(first)) = (&mut self.trajectory, world.bodies().first()) {
            record(f, first, nodes).with_context(|| path.display().to_string())?;
        }
        if let (Some(set), Some(fps)) = (&mut self.frames, self.fps) {
            let bodies: Vec<(&SpringModel, &[Vec3])> =
                models.iter().zip(surfaces).map(|(m, (s, _))| (&**m, &s[..])).collect();
            while (set.count() as f64) / fps <= time + 1e-9 {
                set.write(&bodies, time)?;
            }
        }
        self.all.clear();
        self.all.extend(surfaces.iter().flat_map(|(s, _)| s.iter().copied()));
        for cache in &mut self.caches {
            while (cache.frames() as f64) / cache.fps() <= time + 1e-9 {
                cache.push(time, &self.all);
            }
        }
        Ok(())
    }

    /// Writes everything of a run that ended well, and the first body's state to `output`;
    /// returns the frames written.
    pub(super) fn commit(
        self,
        models: &[ValidModel],
        world: &World,
        output: &Option<PathBuf>,
    ) -> Result<usize> {
        let frames = self.frames.as_ref().map_or(0, FrameSet::count);
        if let Some((_, f)) = self.trajectory {
            f.commit()?;
        }
        if let Some(set) = self.frames {
            set.commit()?;
        }
        for cache in &self.caches {
            cache.write()?;
        }
        if let (Some(path), Some(model), Some(sim)) =
            (output, models.first(), world.bodies().first())
        {
            save_state(model, sim.positions(), path)?;
        }
        Ok(frames)
    }
}

/// Appends the positions of `nodes` at the current time to the trajectory.
pub(super) fn record(
    f: &mut impl Write,
    sim: &Simulation,
    nodes: &[NodeId],
) -> std::io::Result<()> {
    let p = sim.positions();
    for n in nodes {
        let v = p[n.index()];
        writeln!(f, "{:.6},{},{},{},{}", sim.time(), n.0, v.x, v.y, v.z)?;
    }
    Ok(())
}

/// Saves `model` with `positions` as its node positions (rest lengths unchanged; a skin's
/// vertices where the cage now carries them).
pub fn save_state(model: &SpringModel, positions: &[Vec3A], path: &Path) -> Result<()> {
    let mut state = model.clone();
    for (p, q) in state.nodes.positions_mut().iter_mut().zip(positions) {
        *p = Vec3::from(*q);
    }
    if let Some(skin) = &mut state.skin {
        let mut carried = Vec::new();
        skin.deform(positions, &mut carried);
        skin.positions_mut().copy_from_slice(&carried);
    }
    io::save(&ValidModel::new(state)?, path)?;
    Ok(())
}
