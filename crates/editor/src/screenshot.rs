//! `--screenshot OUT.png`: open, draw a few frames, save a PNG of the window and exit.
//!
//! The window is captured with egui's screenshot command. Before saving, the viewport's part of
//! the picture is checked: if (almost) every pixel there has the background colour, nothing
//! was drawn, and the run fails, so that CI notices a blank viewport. The frame times of the
//! run are reported with the result.

use crate::timing::{FrameStats, FrameTime};
use eframe::egui;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Frames drawn after the model is open and before the capture (the simulation, when
/// playing, moves meanwhile).
const SETTLE_FRAMES: u32 = 30;

/// The least fraction of the viewport that must differ from the background.
const MIN_DRAWN: f32 = 0.005;

/// Progress of a screenshot run; `outcome` is shared with `main`, which sets the exit code.
pub struct Screenshot {
    path: PathBuf,
    frames: u32,
    requested: bool,
    stats: FrameStats,
    image: Arc<Mutex<Option<Arc<egui::ColorImage>>>>,
    /// Set once the run is over: the message to print, or why it failed.
    pub outcome: Arc<Mutex<Option<Result<String, String>>>>,
    /// What the run's arguments asked that it could not do (a clip the character lacks):
    /// the picture is still written, and the run fails with these.
    unmet: Vec<String>,
}

impl Screenshot {
    /// A run writing `path`, reporting to `outcome`.
    pub fn new(path: PathBuf, outcome: Arc<Mutex<Option<Result<String, String>>>>) -> Screenshot {
        Screenshot {
            path,
            frames: 0,
            requested: false,
            stats: FrameStats::default(),
            image: Arc::default(),
            outcome,
            unmet: Vec::new(),
        }
    }

    /// Notes that the run cannot do what its arguments ask, and why: it fails once the
    /// picture is written.
    pub fn unmet(&mut self, why: String) {
        self.unmet.push(why);
    }

    /// Called every frame once the model is open; `viewport` is the viewport's rectangle in
    /// points, `background` its clear colour, `time` the previous frame's times. Returns true
    /// when the app should close.
    pub fn frame(
        &mut self,
        ctx: &egui::Context,
        viewport: egui::Rect,
        background: [f32; 4],
        time: FrameTime,
    ) -> bool {
        self.frames += 1;
        // The first frame after opening prepares and uploads everything (the largest figures);
        // the rest show the steady state (the medians).
        self.stats.push(time);
        ctx.request_repaint();
        if self.frames < SETTLE_FRAMES {
            return false;
        }
        if !self.requested {
            self.requested = true;
            let slot = self.image.clone();
            let waker = ctx.clone();
            ctx.request_screenshot(move |image| {
                if let Ok(mut s) = slot.lock() {
                    *s = Some(image);
                }
                waker.request_repaint();
            });
            return false;
        }
        let Some(image) = self.image.lock().ok().and_then(|mut s| s.take()) else {
            return false;
        };
        let result = self.save(&image, viewport * ctx.pixels_per_point(), background);
        let result = match result {
            Ok(summary) if !self.unmet.is_empty() => {
                Err(format!("{} ({summary})", self.unmet.join("; ")))
            }
            other => other,
        };
        if let Ok(mut o) = self.outcome.lock() {
            *o = Some(result);
        }
        true
    }

    fn save(
        &self,
        image: &egui::ColorImage,
        viewport: egui::Rect,
        background: [f32; 4],
    ) -> Result<String, String> {
        let [w, h] = image.size;
        let background = background.map(|c| (c * 255.0).round() as i32);
        let region = viewport
            .intersect(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(w as f32, h as f32)));
        let (x0, y0, x1, y1) = (
            region.min.x as usize,
            region.min.y as usize,
            region.max.x as usize,
            region.max.y as usize,
        );
        let mut drawn = 0usize;
        for y in y0..y1 {
            for x in x0..x1 {
                let p = image.pixels[y * w + x].to_array();
                let differs = (0..3).any(|k| (i32::from(p[k]) - background[k]).abs() > 8);
                drawn += usize::from(differs);
            }
        }
        let area = ((x1 - x0) * (y1 - y0)).max(1);
        let fraction = drawn as f32 / area as f32;
        let rgba: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
        let mut png = Vec::new();
        image::ImageEncoder::write_image(
            // The screenshots go into the docs: the smallest file is worth the extra time.
            image::codecs::png::PngEncoder::new_with_quality(
                &mut png,
                image::codecs::png::CompressionType::Best,
                image::codecs::png::FilterType::Adaptive,
            ),
            &rgba,
            w as u32,
            h as u32,
            image::ExtendedColorType::Rgba8,
        )
        .map_err(|e| format!("{}: {e}", self.path.display()))?;
        springmesh_core::io::write_atomic(&self.path, &png).map_err(|e| e.to_string())?;
        let summary = format!(
            "{}: {w} × {h} pixels; {:.1}% of the viewport ({} × {}) drawn\n{}",
            self.path.display(),
            fraction * 100.0,
            x1 - x0,
            y1 - y0,
            self.stats.summary()
        );
        if fraction < MIN_DRAWN {
            return Err(format!("{summary}: the viewport is blank"));
        }
        Ok(summary)
    }
}
