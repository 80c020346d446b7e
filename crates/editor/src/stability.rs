//! The stability check in the editor: core's shape-retention and gravity check
//! ([`springmesh_analysis::check`]) run on a copy of the model off the UI thread, its verdict and
//! per-node errors kept for the panel and the viewport's node colours, and the one-click fix
//! ([`springmesh_analysis::brace`]) tried on a copy and handed back only when it lowers the
//! error.

use crate::edit::Edit;
use crate::jobs::{Job, spawn, take};
use eframe::egui;
use springmesh_analysis::brace::{Braced, brace, error};
use springmesh_analysis::check::{CheckOptions, CheckReport, check};
use springmesh_core::SpringModel;

/// What a background job found.
enum Found {
    Checked(Box<CheckReport>),
    Braced(Option<Box<Braced>>),
}

/// The check (or a tried fix) of one model revision: running, or done.
#[derive(Default)]
pub struct StabilityCheck {
    running: Job<Found>,
    /// The last finished check and the model revision it was of.
    pub report: Option<(u64, Result<CheckReport, String>)>,
    /// What the last tried fix did, as a sentence for the panel.
    pub fix_note: Option<String>,
    version: u64,
}

impl StabilityCheck {
    /// Starts checking `model` (revision `revision`) on a thread, dropping any check still
    /// running; `ctx` is woken when it is done.
    pub fn start(&mut self, model: &SpringModel, revision: u64, ctx: &egui::Context) {
        let model = model.clone();
        self.running = Some(spawn(revision, ctx, move || {
            check(&model, &CheckOptions::default()).map(|r| Found::Checked(Box::new(r)))
        }));
    }

    /// Starts trying the fix on `model` (revision `revision`, whose last check is `before`)
    /// with vicinity springs of `stiffness` (N/m) and `damping` (N·s/m).
    pub fn start_fix(
        &mut self,
        model: &SpringModel,
        revision: u64,
        (stiffness, damping): (f32, f32),
        ctx: &egui::Context,
    ) {
        let model = model.clone();
        let before = match &self.report {
            Some((r, Ok(report))) if *r == revision => Some(report.clone()),
            _ => None,
        };
        self.fix_note = None;
        self.running = Some(spawn(revision, ctx, move || {
            brace(&model, before, &CheckOptions::default(), stiffness, damping)
                .map(|b| Found::Braced(b.map(Box::new)))
        }));
    }

    /// True while a check or a fix runs.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Takes a finished job. Returns the fix's springs as an edit when a tried fix lowered the
    /// error: the caller applies it, then calls [`StabilityCheck::adopt`] with the new revision
    /// (the report is then of the fixed model).
    pub fn poll(&mut self) -> Option<Edit> {
        let (revision, result) = take(&mut self.running)?;
        self.version += 1;
        let (report, edit) = match result {
            Err(e) => (Err(e), None),
            Ok(Found::Checked(report)) => (Ok(*report), None),
            Ok(Found::Braced(None)) => {
                self.fix_note = Some("Nothing to add: the region is braced already.".into());
                return None;
            }
            Ok(Found::Braced(Some(tried))) => {
                let (from, to) = (error(&tried.before) * 100.0, error(&tried.after) * 100.0);
                let n = tried.springs.len();
                if tried.helps() {
                    self.fix_note = Some(format!(
                        "Added {n} springs: the error fell from {from:.2}% to {to:.2}%."
                    ));
                    (Ok(tried.after), Some(Edit::AddSprings(tried.springs)))
                } else {
                    self.fix_note = Some(format!(
                        "Not applied: {n} springs would have made the error {to:.2}% (now {from:.2}%)."
                    ));
                    (Ok(tried.before), None)
                }
            }
        };
        self.report = Some((revision, report));
        edit
    }

    /// Marks the last report as of `revision` (the model after applying the fix it came with).
    pub fn adopt(&mut self, revision: u64) {
        if let Some((r, _)) = &mut self.report {
            *r = revision;
        }
    }

    /// Counts changes of the report (for the node colours).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Each node's error (the worse of the two tests) over twice the stability threshold,
    /// clamped to 1 (0 green, 0.5 at the threshold, 1 red), when the last check was of
    /// `revision`.
    pub fn node_levels(&self, revision: u64) -> Option<Vec<f32>> {
        let (r, Ok(report)) = self.report.as_ref()? else { return None };
        let scale = (2.0 * report.threshold) as f32;
        (*r == revision).then(|| {
            report
                .worse_node_errors()
                .iter()
                .map(|e| (e / scale.max(1e-12)).clamp(0.0, 1.0))
                .collect()
        })
    }
}
