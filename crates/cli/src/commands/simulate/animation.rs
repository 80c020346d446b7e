//! A clip of a glTF file played on the models worn on a skeleton.

use crate::Usage;
use anyhow::Result;
use glam::Mat4;
use springmesh_convert::ConvertOptions;
use springmesh_convert::import::animation::Clip;
use springmesh_core::{CoreError, Simulation, ValidModel, World, io};
use std::path::{Path, PathBuf};

/// A clip played on the bodies that are worn on a skeleton.
pub(super) struct Animation {
    pub(super) clip: Clip,
    /// The glTF file it was read from.
    pub(super) file: PathBuf,
    /// Per body with a rig, its joints' names in the rig's order and the scale it was
    /// converted at.
    pub(super) joints: Vec<(usize, Vec<String>, f32)>,
    /// Played in a loop (`--loop`), or holding its last pose.
    pub(super) looping: bool,
    /// The clip's time at the run's start (s; `--clip-start`).
    pub(super) start: f64,
}

impl Animation {
    /// The clip `name` of the glTF file `file`, to play on `world`'s rigged bodies; an error
    /// when none has a rig or a joint is missing from the file.
    pub(super) fn open(
        file: &Path,
        name: &str,
        models: &[ValidModel],
        (looping, start): (bool, f64),
    ) -> Result<Animation> {
        let bytes = io::read_file(file)?;
        let clip = Clip::read(file, &bytes, name)?;
        for note in &clip.notes {
            eprintln!("warning: {}: {note}", file.display());
        }
        let joints: Vec<(usize, Vec<String>, f32)> = models
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                let names = m.rig.as_ref()?.joints.iter().map(|j| j.name.clone()).collect();
                Some((i, names, ConvertOptions::scale_of(m)))
            })
            .collect();
        if joints.is_empty() {
            let why =
                "--animation: no model is worn on a skeleton (convert a skinned mesh with --mesh)";
            return Err(Usage(why.to_string()).into());
        }
        let animation = Animation { clip, file: file.to_path_buf(), joints, looping, start };
        for (_, names, _) in &animation.joints {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            animation.clip.pose(0.0, &names).map_err(|joint| {
                anyhow::anyhow!(
                    "{}: no joint called \"{joint}\" for the model's skeleton",
                    file.display()
                )
            })?;
        }
        Ok(animation)
    }

    /// The error of a pose the clip gives at time `t` for the joints `names` that the
    /// simulation refused: the clip, the time and the joint named.
    pub(super) fn refused(&self, e: CoreError, t: f32, names: &[&str]) -> anyhow::Error {
        let joint = match e {
            CoreError::NonFinitePose { joint } | CoreError::PoseOutOfBounds { joint, .. } => {
                names.get(joint).map(|n| format!(" (joint {joint} is \"{n}\")"))
            }
            _ => None,
        };
        let joint = joint.unwrap_or_default();
        anyhow::anyhow!(
            "{}: clip \"{}\" at {t:.3} s: {e}{joint}",
            self.file.display(),
            self.clip.name
        )
    }

    /// Puts every rigged body of `world` at rest on the clip's pose at the run's start, before
    /// its first frame: the cloth starts on the character as the clip does.
    pub(super) fn start(&self, world: &mut World) -> Result<()> {
        let t = if self.looping { self.clip.looped(self.start) } else { self.start as f32 };
        self.each(world, t, |body, pose| body.reset(pose))
    }

    /// Poses every rigged body of `world` for a step from simulated time `now` to `next` (s,
    /// from the run's start, which is `--clip-start` into the clip): at the clip's time at its end, the clip looped or held at its end; a wrap of a looped
    /// clip within the step is a teleport.
    pub(super) fn pose(&self, world: &mut World, now: f64, next: f64) -> Result<()> {
        let (now, next) = (now + self.start, next + self.start);
        let (t, wraps) = if self.looping {
            (self.clip.looped(next), self.clip.wraps(now, next))
        } else {
            (next as f32, false)
        };
        self.each(
            world,
            t,
            |body, pose| {
                if wraps { body.teleport(pose) } else { body.set_pose(pose).map(drop) }
            },
        )
    }

    /// Applies `posed` to every rigged body of `world` with the clip's pose at time `t`.
    pub(super) fn each(
        &self,
        world: &mut World,
        t: f32,
        posed: impl Fn(&mut Simulation, &[Mat4]) -> Result<(), CoreError>,
    ) -> Result<()> {
        for (i, names, scale) in &self.joints {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let pose = self.clip.pose_scaled(t, &names, *scale);
            let pose = pose.map_err(|j| anyhow::anyhow!("no joint {j}"))?;
            if let Some(body) = world.body_mut(*i) {
                posed(body, &pose).map_err(|e| self.refused(e, t, &names))?;
            }
        }
        Ok(())
    }
}
