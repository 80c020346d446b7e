//! How long frames take on the CPU, shown in the status bar and reported by `--screenshot`.
//!
//! Five figures per frame: `ui` is the app's own work (panels, preparing geometry, copying the
//! simulated positions); `step` is the last simulation step, taken on the simulation's own
//! thread, so not part of the frame; `upload` is the viewport's uploading of changed geometry
//! to the GPU; `draw` its
//! clearing and draw calls (with a software renderer such as Mesa's llvmpipe, the vertex
//! shading happens inside them, on the CPU); `total` is eframe's measure of the whole frame on
//! the CPU (also egui's tessellation and painting, not the wait for the display), which it
//! reports one frame late.

/// The times of one frame, ms.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameTime {
    /// The app's update.
    pub ui_ms: f32,
    /// The last simulation step, on its own thread.
    pub sim_ms: f32,
    /// The viewport's uploads.
    pub upload_ms: f32,
    /// The viewport's draw calls.
    pub draw_ms: f32,
    /// The whole frame, as eframe measured it (absent in tests and on the first frame).
    pub total_ms: Option<f32>,
}

/// Frame times collected over a run.
#[derive(Clone, Debug, Default)]
pub struct FrameStats {
    frames: Vec<FrameTime>,
}

/// The median and the largest of some values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// The middle value (the upper one of an even count).
    pub median: f32,
    /// The largest value.
    pub max: f32,
}

impl FrameStats {
    /// Adds one frame.
    pub fn push(&mut self, time: FrameTime) {
        self.frames.push(time);
    }

    /// The spread of one figure over the frames that have it.
    fn spread(&self, figure: impl Fn(&FrameTime) -> Option<f32>) -> Option<Spread> {
        let mut values: Vec<f32> = self.frames.iter().filter_map(figure).collect();
        values.sort_by(f32::total_cmp);
        Some(Spread { median: *values.get(values.len() / 2)?, max: *values.last()? })
    }

    /// One line: median and largest of each figure.
    pub fn summary(&self) -> String {
        let show = |name: &str, s: Option<Spread>| {
            s.map_or(format!("{name} -"), |s| {
                format!("{name} {:.2} ms (max {:.2})", s.median, s.max)
            })
        };
        format!(
            "{} frames, CPU per frame: {}, {}, {}, {}, {}",
            self.frames.len(),
            show("total", self.spread(|f| f.total_ms)),
            show("ui", self.spread(|f| Some(f.ui_ms))),
            show("step (own thread)", self.spread(|f| Some(f.sim_ms))),
            show("upload", self.spread(|f| Some(f.upload_ms))),
            show("draw", self.spread(|f| Some(f.draw_ms))),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_max_per_figure() {
        let mut stats = FrameStats::default();
        for (ui, total) in [(3.0, None), (1.0, Some(4.0)), (2.0, Some(6.0)), (9.0, Some(5.0))] {
            stats.push(FrameTime {
                ui_ms: ui,
                sim_ms: 0.0,
                upload_ms: 0.25,
                draw_ms: 0.5,
                total_ms: total,
            });
        }
        assert_eq!(stats.spread(|f| Some(f.ui_ms)), Some(Spread { median: 3.0, max: 9.0 }));
        assert_eq!(stats.spread(|f| f.total_ms), Some(Spread { median: 5.0, max: 6.0 }));
        assert_eq!(FrameStats::default().spread(|f| f.total_ms), None);
        assert_eq!(
            stats.summary(),
            "4 frames, CPU per frame: total 5.00 ms (max 6.00), ui 3.00 ms (max 9.00), \
             step (own thread) 0.00 ms (max 0.00), upload 0.25 ms (max 0.25), draw 0.50 ms (max 0.50)"
        );
    }
}
