//! Point caches for playback in a DCC: the node positions of every frame as PC2 or MDD, the
//! two formats Blender's Mesh Cache modifier reads (3ds Max, Maya and Houdini read them too).
//!
//! ```text
//! PC2 (little endian; 3ds Max "Point Cache 2", Blender source/blender/modifiers/intern/
//!      MOD_meshcache_pc2.cc):
//!   char[12] "POINTCACHE2\0"   i32 version = 1   i32 points   f32 start frame   f32 sample
//!   rate (frames between samples)   i32 samples;  then samples × points × (f32 x, y, z)
//! MDD (big endian; LightWave's Motion Designer, Blender MOD_meshcache_mdd.cc):
//!   i32 frames   i32 points   f32 time of each frame (s);  then frames × points × (f32 x, y, z)
//! ```
//!
//! Points are the model's nodes in node order, coordinates as the model has them (y up, as the
//! frames' OBJ files). Checked with Blender 5.0 (bpy 5.0.1): `frame_00001.obj` imported, a Mesh
//! Cache modifier with its default settings on either file, and scene frame f matches
//! `frame_{f+1}.obj` exactly (the importer keeps its y-up to z-up turn on the object). An OBJ's
//! nodes are in the file's vertex order, so the cache plays on the modeler's own mesh too: a
//! plane subdivided in Blender and exported as OBJ, imported again with a Mesh Cache of its
//! simulated pile, evaluates to the cache's points exactly at frames 0, 30, 90 and 150 (its
//! faces use its vertices out of order, and nodes in the order the faces first used them
//! had played scrambled). The whole cache is kept in memory (12 bytes per node per frame) and
//! written atomically when the run has finished, like the other outputs.

use anyhow::{Context, Result};
use glam::Vec3;
use springmesh_core::io;
use std::path::{Path, PathBuf};

/// Which layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// PC2, little endian.
    Pc2,
    /// MDD, big endian.
    Mdd,
}

/// The frames of one run, for one file.
pub struct PointCache {
    path: PathBuf,
    layout: Layout,
    fps: f64,
    points: usize,
    times: Vec<f32>,
    /// Every frame's coordinates, in order.
    coordinates: Vec<f32>,
}

impl PointCache {
    /// A cache of `points` points at `fps` frames per second, to be written to `path`.
    pub fn new(path: &Path, layout: Layout, points: usize, fps: f64) -> PointCache {
        PointCache {
            path: path.to_path_buf(),
            layout,
            fps,
            points,
            times: Vec::new(),
            coordinates: Vec::new(),
        }
    }

    /// Adds a frame at `time` (s).
    pub fn push(&mut self, time: f64, positions: &[Vec3]) {
        self.times.push(time as f32);
        self.coordinates.extend(positions.iter().flat_map(|p| p.to_array()));
    }

    /// The file's bytes.
    fn bytes(&self) -> Vec<u8> {
        let frames = self.times.len() as i32;
        let points = self.points as i32;
        let mut out = Vec::with_capacity(64 + 4 * (self.times.len() + self.coordinates.len()));
        match self.layout {
            Layout::Pc2 => {
                out.extend_from_slice(b"POINTCACHE2\0");
                for v in [1, points] {
                    out.extend_from_slice(&i32::to_le_bytes(v));
                }
                // Sample k is frame k, at k / fps seconds; one sample per frame.
                out.extend_from_slice(&0f32.to_le_bytes());
                out.extend_from_slice(&1f32.to_le_bytes());
                out.extend_from_slice(&frames.to_le_bytes());
                out.extend(self.coordinates.iter().flat_map(|c| c.to_le_bytes()));
            }
            Layout::Mdd => {
                out.extend_from_slice(&frames.to_be_bytes());
                out.extend_from_slice(&points.to_be_bytes());
                out.extend(self.times.iter().flat_map(|t| t.to_be_bytes()));
                out.extend(self.coordinates.iter().flat_map(|c| c.to_be_bytes()));
            }
        }
        out
    }

    /// How many frames it holds.
    pub fn frames(&self) -> usize {
        self.times.len()
    }

    /// Frames per second.
    pub fn fps(&self) -> f64 {
        self.fps
    }

    /// Writes the file (atomically).
    pub fn write(&self) -> Result<()> {
        io::write_atomic(&self.path, &self.bytes()).with_context(|| self.path.display().to_string())
    }
}
