//! The run's steps and frames.

/// The run's steps. With `--fps F`, each frame's 1/F s is cut into the fewest equal steps
/// no longer than `--dt`, so that the frame times k/F are steps' ends and the caches sample
/// the run, and the clip poses it, at exactly those times (a 24 fps run of a 60 Hz model
/// takes three steps of 1/72 s a frame; at 60 fps one of 1/60 s, as without `--fps`); the
/// run lasts the whole frames nearest `--seconds`. Without, steps of `--dt`.
pub(super) struct Clock {
    /// The steps' length (s) and how many the run takes.
    pub(super) step: f32,
    pub(super) steps: u64,
    /// Steps per second, exactly as the times are worked out.
    pub(super) rate: f64,
}

impl Clock {
    pub(super) fn new(seconds: f64, dt: f32, fps: Option<f64>) -> Clock {
        let dt = f64::from(dt);
        let (rate, steps) = match fps {
            Some(fps) => {
                let per_frame = (1.0 / (fps * dt) * (1.0 - 1e-9)).ceil().max(1.0);
                (fps * per_frame, (seconds * fps).round() * per_frame)
            }
            None => (1.0 / dt, (seconds / dt).round()),
        };
        Clock { step: (1.0 / rate) as f32, steps: steps as u64, rate }
    }

    /// The simulated time at the end of step `k` (s; 0 before the first).
    pub(super) fn time(&self, k: u64) -> f64 {
        k as f64 / self.rate
    }
}
