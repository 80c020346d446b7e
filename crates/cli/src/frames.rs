//! Writing the simulated state as OBJ files, one per frame, for Blender and friends.

use anyhow::Result;
use glam::Vec3A;
use springmesh_core::{SpringModel, io};
use std::path::{Path, PathBuf};

/// The file of frame `index` in `dir`: `frame_00001.obj`, numbered from 1 so that Blender's
/// sequence importers pick the series up.
pub fn frame_path(dir: &Path, index: usize) -> PathBuf {
    dir.join(format!("frame_{:05}.obj", index + 1))
}

/// Writes the model's faces (with uvs) at `positions` as an OBJ file; a model without faces is
/// written as line segments, one per spring.
pub fn write_frame(path: &Path, model: &SpringModel, positions: &[Vec3A], time: f64) -> Result<()> {
    io::write_atomic_with(path, |w| {
        writeln!(w, "# springmesh frame at t = {time:.6} s")?;
        for p in positions {
            writeln!(w, "v {} {} {}", p.x, p.y, p.z)?;
        }
        for t in &model.uvs {
            writeln!(w, "vt {} {}", t.x, t.y)?;
        }
        for f in model.faces.iter() {
            let [a, b, c] = f.nodes.map(|n| n.0 + 1);
            match f.uvs {
                Some([ta, tb, tc]) => {
                    writeln!(w, "f {a}/{} {b}/{} {c}/{}", ta + 1, tb + 1, tc + 1)?
                }
                None => writeln!(w, "f {a} {b} {c}")?,
            }
        }
        if model.faces.is_empty() {
            for (a, b) in model.springs.a().iter().zip(model.springs.b()) {
                writeln!(w, "l {} {}", a.0 + 1, b.0 + 1)?;
            }
        }
        Ok(())
    })?;
    Ok(())
}
