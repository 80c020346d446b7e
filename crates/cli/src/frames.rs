//! Writing the simulated state as OBJ files, one per frame, for Blender and friends.
//!
//! Frames are written into a hidden staging folder inside the output folder and moved into it
//! only when the run succeeds ([`FrameSet::commit`]), so a failed run leaves the folder as it
//! was, like `--output` and `--trajectory`.

use anyhow::{Context, Result};
use glam::Vec3;
use springmesh_core::{SpringModel, io};
use std::path::{Path, PathBuf};

/// The file of frame `index` in `dir`: `frame_00001.obj`, numbered from 1 so that Blender's
/// sequence importers pick the series up.
pub fn frame_path(dir: &Path, index: usize) -> PathBuf {
    dir.join(format!("frame_{:05}.obj", index + 1))
}

/// The frames of one run, staged until [`FrameSet::commit`]; dropped uncommitted, the staged
/// frames are removed.
pub struct FrameSet {
    dir: PathBuf,
    staging: PathBuf,
    written: usize,
    committed: bool,
}

impl FrameSet {
    /// Starts a set of frames for `dir` (created if missing).
    pub fn create(dir: &Path) -> Result<FrameSet> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create the directory", dir.display()))?;
        let staging = dir.join(format!(".frames-{}.tmp", std::process::id()));
        if staging.exists() {
            std::fs::remove_dir_all(&staging)
                .with_context(|| format!("{}: cannot clear it", staging.display()))?;
        }
        std::fs::create_dir(&staging)
            .with_context(|| format!("{}: cannot create the directory", staging.display()))?;
        Ok(FrameSet { dir: dir.to_path_buf(), staging, written: 0, committed: false })
    }

    /// How many frames were written.
    pub fn count(&self) -> usize {
        self.written
    }

    /// Stages the next frame: each body's model drawn at its surface positions, one after
    /// another in one file.
    pub fn write(&mut self, bodies: &[(&SpringModel, &[Vec3])], time: f64) -> Result<()> {
        write_frame(&frame_path(&self.staging, self.written), bodies, time)?;
        self.written += 1;
        Ok(())
    }

    /// Moves the staged frames into the output folder. An existing frame file there that is
    /// not a regular file is refused (before anything is moved).
    pub fn commit(mut self) -> Result<()> {
        for i in 0..self.written {
            let target = frame_path(&self.dir, i);
            if std::fs::metadata(&target).is_ok_and(|m| !m.is_file()) {
                anyhow::bail!(
                    "{}: exists and is not a regular file; refusing to replace it",
                    target.display()
                );
            }
        }
        for i in 0..self.written {
            let target = frame_path(&self.dir, i);
            std::fs::rename(frame_path(&self.staging, i), &target)
                .with_context(|| target.display().to_string())?;
        }
        self.committed = true;
        std::fs::remove_dir(&self.staging)
            .with_context(|| format!("{}: cannot remove it", self.staging.display()))
    }
}

impl Drop for FrameSet {
    fn drop(&mut self) {
        if !self.committed {
            // Best effort: an uncommitted run's frames go; nothing else to do here.
            let _ = std::fs::remove_dir_all(&self.staging);
        }
    }
}

/// Writes each body's drawn surface (its skin, or its faces, with uvs) at its positions (one
/// per surface vertex) as one OBJ file, the bodies' vertices one after another; a model
/// without faces is written as line segments, one per spring.
fn write_frame(path: &Path, bodies: &[(&SpringModel, &[Vec3])], time: f64) -> Result<()> {
    io::write_atomic_with(path, |w| {
        writeln!(w, "# springmesh frame at t = {time:.6} s")?;
        for p in bodies.iter().flat_map(|(_, positions)| positions.iter()) {
            writeln!(w, "v {} {} {}", p.x, p.y, p.z)?;
        }
        for t in bodies.iter().flat_map(|(model, _)| model.surface_uvs()) {
            writeln!(w, "vt {} {}", t.x, t.y)?;
        }
        let (mut vertices, mut uvs) = (0, 0);
        for (model, positions) in bodies {
            let faces = model.surface_faces();
            for f in faces.iter() {
                let [a, b, c] = f.nodes.map(|n| n.0 + 1 + vertices);
                match f.uvs {
                    Some(t) => {
                        let [ta, tb, tc] = t.map(|t| t + 1 + uvs);
                        writeln!(w, "f {a}/{ta} {b}/{tb} {c}/{tc}")?
                    }
                    None => writeln!(w, "f {a} {b} {c}")?,
                }
            }
            if faces.is_empty() {
                for (a, b) in model.springs.a().iter().zip(model.springs.b()) {
                    writeln!(w, "l {} {}", a.0 + 1 + vertices, b.0 + 1 + vertices)?;
                }
            }
            vertices += positions.len() as u32;
            uvs += model.surface_uvs().len() as u32;
        }
        Ok(())
    })?;
    Ok(())
}
