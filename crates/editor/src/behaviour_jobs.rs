//! Tuning by behaviour in the editor: the model's vibration modes
//! ([`springmesh_analysis::modes`]) and a tune to a stated frequency or sag
//! ([`springmesh_analysis::stiffness_fit`]), each worked out on a copy off the UI thread. A finished
//! tune comes back as one undoable edit (the tuned model replacing the model), with the
//! figures before and after.

use crate::edit::Edit;
use crate::jobs::{Job, spawn, take};
use eframe::egui;
use springmesh_analysis::modes::{DEFAULT_MODES, modes_hz};
use springmesh_analysis::stiffness_fit::{Choice, FitReport, Target, fit_stiffness};
use springmesh_core::SpringModel;

/// Models of at most this many nodes get their modes found as soon as they change (well
/// under a second); larger ones when asked.
pub const AUTO_MODES_NODES: usize = 20_000;

/// The modes and the tune of the model, running or done.
#[derive(Default)]
pub struct BehaviourJobs {
    modes_job: Job<Vec<f64>>,
    fit_job: Job<(Box<SpringModel>, FitReport, Target)>,
    /// The last modes found (Hz, ascending) and the model revision they are of.
    pub modes: Option<(u64, Result<Vec<f64>, String>)>,
    /// What the last tune did, as a sentence for the panel.
    pub note: Option<String>,
}

impl BehaviourJobs {
    /// Starts finding the modes of `model` (revision `revision`) unless they are known or
    /// being found; `ctx` is woken when they are.
    pub fn find_modes(&mut self, model: &SpringModel, revision: u64, ctx: &egui::Context) {
        let known = self.modes.as_ref().is_some_and(|(r, _)| *r == revision);
        let running = self.modes_job.as_ref().is_some_and(|(r, _)| *r == revision);
        if known || running {
            return;
        }
        let model = model.clone();
        self.modes_job =
            Some(spawn(revision, ctx, move || modes_hz(&model, DEFAULT_MODES, |_| {})));
    }

    /// Finds the modes of small models whenever they change ([`AUTO_MODES_NODES`]).
    pub fn follow(&mut self, model: &SpringModel, revision: u64, ctx: &egui::Context) {
        if model.nodes.len() <= AUTO_MODES_NODES {
            self.find_modes(model, revision, ctx);
        }
    }

    /// True while the modes of the model are being found.
    pub fn finding_modes(&self) -> bool {
        self.modes_job.is_some()
    }

    /// Starts tuning `model` (revision `revision`) to `target` with every stiffness scaled.
    pub fn start_fit(
        &mut self,
        model: &SpringModel,
        revision: u64,
        target: Target,
        ctx: &egui::Context,
    ) {
        let model = model.clone();
        self.note = None;
        self.fit_job = Some(spawn(revision, ctx, move || {
            fit_stiffness(&model, target, &Choice::default(), |_| {})
                .map(|(tuned, report)| (Box::new(tuned), report, target))
        }));
    }

    /// True while a tune runs.
    pub fn tuning(&self) -> bool {
        self.fit_job.is_some()
    }

    /// Takes finished jobs. Returns a finished tune's edit and its label when it was of
    /// `revision` (the model has not changed since it started).
    pub fn poll(&mut self, revision: u64) -> Option<(Edit, String)> {
        if let Some((r, result)) = take(&mut self.modes_job) {
            self.modes = Some((r, result));
        }
        let (r, result) = take(&mut self.fit_job)?;
        match result {
            Err(e) => {
                self.note = Some(format!("Not tuned: {e}"));
                None
            }
            Ok(_) if r != revision => {
                self.note = Some("Not tuned: the model changed while it was being tuned.".into());
                None
            }
            Ok((tuned, report, target)) => {
                let (what, before, after) = figures(&report, target);
                let substeps = if report.substeps == report.substeps_before {
                    format!("{} sub-steps are enough", report.substeps)
                } else {
                    format!(
                        "sub-steps raised from {} to {}",
                        report.substeps_before, report.substeps
                    )
                };
                self.note = Some(format!(
                    "{what} {before} -> {after}: stiffness x {:.4}, damping x {:.4}; {substeps}.",
                    report.factor,
                    report.factor.sqrt()
                ));
                Some((Edit::Replace(tuned), format!("Tune to {what} {after}")))
            }
        }
    }
}

/// What a tune aimed at, and its figure before and after, as text.
fn figures(report: &FitReport, target: Target) -> (&'static str, String, String) {
    match target {
        Target::Frequency(_) => (
            "lowest frequency",
            format!("{:.3} Hz", report.before),
            format!("{:.3} Hz", report.achieved),
        ),
        Target::Sag(_) => (
            "sag at rest",
            format!("{:.2}%", report.before * 100.0),
            format!("{:.2}%", report.achieved * 100.0),
        ),
    }
}
