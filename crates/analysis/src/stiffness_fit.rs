//! # Tuning by behaviour: one factor on the stiffness for a stated frequency or sag
//!
//! An artist states what a model should do: wobble at f Hz, or sag s of its size under its
//! own weight. Both follow from one factor a on the stiffness of the chosen springs:
//!
//! ```text
//! k ← a k,   c ← √a c,   f_shape ← √a f_shape
//! ```
//!
//! - k (N/m), c (N·s/m): each chosen spring's stiffness and damping. A spring's damping ratio
//!   ζ = c / (2 √(k m)) stays what it was when c grows as √k: the model rings as long as
//!   before, only faster. The global damping rate (1/s, air-like) is left as it is.
//! - f_shape (Hz): shape matching's frequency, whose pull m ω² is a stiffness too
//!   ([`springmesh_core::model::ShapeMatching`]); scaled when shape matching is chosen.
//!
//! **Frequency.** The lowest vibration frequency f₁ ([`crate::modes`]) comes from K φ = λ M φ
//! with K linear in every stiffness (the springs' tension terms included). When every
//! stiffness is scaled, K becomes a K, so f₁ becomes √a f₁: a = (f / f₁)², exact. When only
//! some kinds are, f₁(a) is found by the secant method on ln f₁ against ln a.
//!
//! **Sag.** The check's sag at rest ([`crate::check::rest_sag`]): the RMS distance
//! of the nodes from their rest shape after the best rigid alignment, over the diagonal, once
//! the model hangs from its anchors (or rests on a ground under it) and has come to rest.
//! Measured by simulating with the model's own integrator and sub-steps, so a solver's own
//! softness counts; about ∝ 1/a for a small sag (linear springs: u = K⁻¹ m g), so the secant
//! method on ln sag against ln a meets it in a few simulations. Not always smoothly: a body
//! that comes to rest on more of itself as it softens stops sagging, then gives way at once,
//! so the search steps past plateaus and brackets the goal, and a goal the sag jumps over is
//! refused with the figures on either side (`seek`).
//!
//! **Sub-steps.** All frequencies of a scaled model grow by √a. A time integrator's accuracy
//! and (explicit) stability depend on ω h, so `substeps · √a` keeps the model exactly as
//! well resolved as it was. Fewer often do: the sub-steps kept are the fewest, doubling from
//! the model's own, whose rest sag is within [`SUBSTEP_TOLERANCE`] of that at `substeps · √a`.
//! A softer model (a ≤ 1) keeps its sub-steps.

use crate::AnalysisError;
use crate::check::{CheckOptions, rest_sag};
use crate::modes::modes_hz;
use springmesh_core::model::MAX_SUBSTEPS;
use springmesh_core::{Simulation, SpringKind, SpringModel, ValidModel};

/// The factor is kept within [1/LIMIT, LIMIT]: a target beyond is not reachable.
const LIMIT: f64 = 1e6;

/// The figure reached counts as the target within this fraction.
pub const TOLERANCE: f64 = 0.005;

/// Two factors whose ln differ by less than this are one: a figure that differs across them
/// by more than [`TOLERANCE`] jumps there.
const JUMP: f64 = 1e-3;

/// Most models simulated or solved while seeking the factor.
const MAX_EVALUATIONS: usize = 16;

/// A rest sag below this fraction of the diagonal is none: the model rests on all its nodes.
const NO_SAG: f64 = 1e-6;

/// How close (a fraction of it) the rest sag at fewer sub-steps must be to the fully resolved
/// one for those sub-steps to do.
pub const SUBSTEP_TOLERANCE: f64 = 0.05;

/// What to aim at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// The lowest vibration frequency (Hz).
    Frequency(f64),
    /// The sag at rest under gravity (fraction of the bounding-box diagonal).
    Sag(f64),
}

impl Target {
    /// This target's figure for `model`: its lowest frequency or its rest sag.
    pub fn measure(&self, model: &SpringModel) -> Result<f64, AnalysisError> {
        match self {
            Target::Frequency(_) => lowest_frequency(model),
            Target::Sag(_) => rest_sag(model, &CheckOptions::default()),
        }
    }

    fn value(&self) -> f64 {
        match *self {
            Target::Frequency(f) | Target::Sag(f) => f,
        }
    }
}

/// Which stiffnesses the factor scales.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The kinds of springs.
    pub kinds: Vec<SpringKind>,
    /// Shape matching's frequency too.
    pub shape_matching: bool,
}

impl Default for Choice {
    /// Everything: every kind of spring and shape matching.
    fn default() -> Self {
        Self { kinds: SpringKind::ALL.to_vec(), shape_matching: true }
    }
}

impl Choice {
    /// Every stiffness of `model` is chosen.
    fn is_whole(&self, model: &SpringModel) -> bool {
        let kinds = SpringKind::ALL.iter().all(|k| self.kinds.contains(k));
        kinds && (self.shape_matching || model.params.shape_matching.is_none())
    }
}

/// What [`tune`] did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitReport {
    /// The factor a on the chosen stiffnesses.
    pub factor: f64,
    /// The target's figure before (Hz or fraction).
    pub before: f64,
    /// The figure reached.
    pub achieved: f64,
    /// The model's sub-steps before.
    pub substeps_before: u32,
    /// The sub-steps of the tuned model (module docs).
    pub substeps: u32,
}

/// Scales the chosen stiffnesses of `model` by `factor` (module docs: k, c and f_shape).
pub fn scale(model: &mut SpringModel, factor: f64, choice: &Choice) {
    let root = factor.sqrt();
    let kinds: Vec<bool> = model.springs.kinds().iter().map(|k| choice.kinds.contains(k)).collect();
    for (k, &chosen) in model.springs.stiffnesses_mut().iter_mut().zip(&kinds) {
        if chosen {
            *k = (f64::from(*k) * factor) as f32;
        }
    }
    for (c, &chosen) in model.springs.dampings_mut().iter_mut().zip(&kinds) {
        if chosen {
            *c = (f64::from(*c) * root) as f32;
        }
    }
    if choice.shape_matching
        && let Some(shape) = &mut model.params.shape_matching
    {
        shape.frequency = (f64::from(shape.frequency) * root) as f32;
    }
}

/// `model` with the chosen stiffnesses scaled so that `target` is met, and its sub-steps
/// raised where the stiffer model needs them (module docs). `progress` gets the fraction done.
pub fn fit_stiffness(
    model: &SpringModel,
    target: Target,
    choice: &Choice,
    mut progress: impl FnMut(f32),
) -> Result<(SpringModel, FitReport), AnalysisError> {
    let goal = target.value();
    let has_spring = model.springs.kinds().iter().any(|k| choice.kinds.contains(k));
    let has_shape = choice.shape_matching && model.params.shape_matching.is_some();
    if !(has_spring || has_shape) {
        return Err(unreachable(
            "the model has none of the chosen stiffnesses (no spring of the chosen kinds, and no shape matching among them)",
        ));
    }
    let before = match target {
        Target::Frequency(f) if f.is_finite() && f > 0.0 => lowest_frequency(model)?,
        Target::Sag(s) if s.is_finite() && s > 0.0 && s < 1.0 => {
            let sag = target.measure(model)?;
            if sag < NO_SAG {
                return Err(unreachable(format!(
                    "it does not sag (rest sag {sag:.1e} of its diagonal): it rests on all its nodes or its anchors hold all of it, at any stiffness"
                )));
            }
            sag
        }
        Target::Frequency(f) => {
            return Err(unreachable(format!("a frequency must be above 0 Hz, not {f}")));
        }
        Target::Sag(s) => {
            return Err(unreachable(format!("a sag must be between 0 and 1, not {s}")));
        }
    };
    let substeps_before = model.params.substeps;
    let scaled = |factor: f64, substeps: u32| {
        let mut m = model.clone();
        scale(&mut m, factor, choice);
        m.params.substeps = substeps;
        m
    };
    progress(0.1);
    let (factor, achieved, substeps) = match target {
        Target::Frequency(_) if choice.is_whole(model) => {
            let factor = (goal / before).powi(2);
            let substeps = needed_substeps(&scaled(factor, substeps_before), factor)?;
            (factor, lowest_frequency(&scaled(factor, substeps))?, substeps)
        }
        Target::Frequency(_) => {
            let eval = |a: f64| lowest_frequency(&scaled(a, substeps_before));
            let (factor, achieved) = seek(eval, before, goal, 0.5, Figure::Frequency)?;
            (factor, achieved, needed_substeps(&scaled(factor, substeps_before), factor)?)
        }
        Target::Sag(_) => {
            let eval = |a: f64| target.measure(&scaled(a, substeps_before));
            let (mut factor, mut achieved) = seek(eval, before, goal, -1.0, Figure::Sag)?;
            progress(0.6);
            let substeps = needed_substeps(&scaled(factor, substeps_before), factor)?;
            if substeps != substeps_before {
                // More sub-steps resolve the stiffer springs better: seek again with them.
                let first = target.measure(&scaled(factor, substeps))?;
                let eval = |a: f64| target.measure(&scaled(a * factor, substeps));
                let (refined, reached) = seek(eval, first, goal, -1.0, Figure::Sag)?;
                (factor, achieved) = (factor * refined, reached);
            }
            (factor, achieved, substeps)
        }
    };
    progress(1.0);
    let report = FitReport { factor, before, achieved, substeps_before, substeps };
    Ok((scaled(factor, substeps), report))
}

/// The mean wall-clock time (s) of one frame step of `model` over `frames` frames from rest,
/// supported as the check's gravity test supports it: what the sub-steps cost.
pub fn frame_seconds(model: &SpringModel, frames: u32) -> Result<f64, AnalysisError> {
    let mut resting = model.clone();
    if resting.anchors.is_empty() && resting.params.ground.is_none() {
        let height = model.ground_under();
        resting.params.ground =
            Some(springmesh_core::model::Ground { height, surface: Default::default() });
    }
    let dt = resting.params.dt;
    let mut sim = Simulation::new(&ValidModel::new(resting)?);
    let start = std::time::Instant::now();
    for _ in 0..frames {
        sim.step(dt)?;
    }
    Ok(start.elapsed().as_secs_f64() / f64::from(frames.max(1)))
}

/// The lowest vibration frequency (Hz), or why the model has none.
fn lowest_frequency(model: &SpringModel) -> Result<f64, AnalysisError> {
    modes_hz(model, 1, |_| {})?.first().copied().ok_or_else(|| {
        unreachable(
            "the model has no vibration: every motion it has is rigid or stretches no spring (a mechanism), so no stiffness gives it a frequency",
        )
    })
}

/// The factor a at which `eval(a)` is `goal`, from `first` = eval(1) and the expected slope
/// of ln figure against ln a; the factor and the figure reached.
///
/// The secant method on ln figure against ln a while it behaves. A figure need not be
/// smooth in a: a body that sags onto its belly stops sagging for a while, then gives way
/// further (the caged blob's sag stays at 1.52% from a = 0.026 to 0.0175 and is 2.46% at
/// 0.017). So where the secant runs flat or the wrong way, steps of growing length go on
/// the way the figure should move until the goal is passed, and once it lies between two
/// factors, each next one is the secant's between them, or their middle where that falls
/// outside the middle half of the bracket. A bracket narrower than [`JUMP`] whose figures
/// still miss the goal is a jump over it: refused, with the figures on either side.
fn seek(
    mut eval: impl FnMut(f64) -> Result<f64, AnalysisError>,
    first: f64,
    goal: f64,
    slope_guess: f64,
    what: Figure,
) -> Result<(f64, f64), AnalysisError> {
    let name = what.name();
    let bound = LIMIT.ln();
    // h = ±(ln figure − ln goal), signed to rise with x = ln a; h = 0 is the goal.
    let sign = slope_guess.signum();
    let h = |figure: f64| sign * (figure.ln() - goal.ln());
    let figure_of = |h: f64| (goal.ln() + h * sign).exp();
    // A point (x, h) below the goal and one above it: the nearest seen until both sides
    // have one, then the latest on each side (each next point lies between them).
    let (mut below, mut above): (Option<Point>, Option<Point>) = (None, None);
    let mut note = |(x, h): (f64, f64)| {
        let bracketed = below.is_some() && above.is_some();
        let side = if h < 0.0 { &mut below } else { &mut above };
        if bracketed || side.is_none_or(|(_, seen)| seen.abs() > h.abs()) {
            *side = Some((x, h));
        }
        (below, above)
    };
    let mut last = (0.0, h(first));
    if last.1.abs() <= TOLERANCE {
        return Ok((1.0, first));
    }
    note(last);
    let mut step = std::f64::consts::LN_2;
    let mut x = (-last.1 / slope_guess.abs()).clamp(-bound, bound);
    for _ in 0..MAX_EVALUATIONS {
        let figure = eval(x.exp())?;
        let hx = h(figure);
        if !hx.is_finite() {
            return Err(unreachable(format!(
                "the {name} is {} at a factor of {:.4}",
                what.show(figure),
                x.exp()
            )));
        }
        if hx.abs() <= TOLERANCE {
            return Ok((x.exp(), figure));
        }
        let next = match note((x, hx)) {
            (Some((xb, hb)), Some((xa, ha))) => {
                if (xa - xb).abs() < JUMP {
                    return Err(unreachable(format!(
                        "the {name} jumps from {} to {} between factors {:.5} and {:.5}: the model settles into another shape there (a part comes to rest on the ground, or gives way); either figure can be had",
                        what.show(figure_of(hb)),
                        what.show(figure_of(ha)),
                        xb.exp(),
                        xa.exp()
                    )));
                }
                let secant = xb - hb * (xa - xb) / (ha - hb);
                let (lo, hi) = (xb.min(xa), xb.max(xa));
                let quarter = (hi - lo) / 4.0;
                if secant > lo + quarter && secant < hi - quarter {
                    secant
                } else {
                    (lo + hi) / 2.0
                }
            }
            _ => {
                // Short of the goal: on the way it lies, by the secant while it rises as it
                // should, else by a step twice the last.
                let slope = (hx - last.1) / (x - last.0);
                let guess = if slope >= 0.02 * slope_guess.abs() {
                    x - hx / slope
                } else {
                    step *= 2.0;
                    x - hx.signum() * step / 2.0
                };
                let guess = guess.clamp(-bound, bound);
                if guess == x {
                    return Err(unreachable(format!(
                        "the {name} stays near {} whatever the stiffness of the chosen springs (target {}, a factor of {:.0e} reached; the solver's sub-steps or what the chosen springs leave out set it)",
                        what.show(figure),
                        what.show(goal),
                        x.exp()
                    )));
                }
                guess
            }
        };
        (last, x) = ((x, hx), next);
    }
    Err(unreachable(format!(
        "the {name} did not settle on {} in {MAX_EVALUATIONS} tries",
        what.show(goal)
    )))
}

/// A factor and its figure as [`seek`] sees them: (ln a, h).
type Point = (f64, f64);

/// The figure a tune aims at, as its messages name and print it.
#[derive(Clone, Copy, Debug)]
enum Figure {
    /// The lowest vibration frequency (Hz).
    Frequency,
    /// The rest sag, a fraction of the diagonal (printed as a percent).
    Sag,
}

impl Figure {
    fn name(self) -> &'static str {
        match self {
            Figure::Frequency => "lowest frequency",
            Figure::Sag => "sag",
        }
    }

    fn show(self, x: f64) -> String {
        match self {
            Figure::Frequency => format!("{x:.4} Hz"),
            Figure::Sag => format!("{:.2}%", 100.0 * x),
        }
    }
}

/// The sub-steps `tuned` (scaled by `factor`) needs (module docs).
fn needed_substeps(tuned: &SpringModel, factor: f64) -> Result<u32, AnalysisError> {
    let own = tuned.params.substeps.max(1);
    if factor <= 1.0 {
        return Ok(own);
    }
    let full = ((f64::from(own) * factor.sqrt()).ceil() as u32).min(MAX_SUBSTEPS);
    if full <= own {
        return Ok(own);
    }
    let with = |substeps: u32| {
        let mut m = tuned.clone();
        m.params.substeps = substeps;
        rest_sag(&m, &CheckOptions::default())
    };
    let reference = with(full)?;
    let mut substeps = own;
    while substeps < full {
        // A model that fails at these sub-steps (it diverged) needs more.
        if let Ok(sag) = with(substeps)
            && (sag - reference).abs() <= SUBSTEP_TOLERANCE * reference + NO_SAG
        {
            return Ok(substeps);
        }
        substeps = substeps.saturating_mul(2);
    }
    Ok(full)
}

fn unreachable(reason: impl Into<String>) -> AnalysisError {
    AnalysisError::Fit { reason: reason.into() }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // Test code.
    use super::*;

    /// A sag that falls as 1/a but rests on a plateau of 2% for a between 0.25 and 0.5 (a
    /// body whose belly meets the ground), then falls again from 4% at a = 0.25.
    fn staircase(a: f64) -> Result<f64, AnalysisError> {
        Ok(if a >= 0.5 {
            0.01 / a
        } else if a >= 0.25 {
            0.02
        } else {
            0.01 / a
        })
    }

    #[test]
    fn a_sag_that_rests_on_a_plateau_is_sought_past_it() {
        // 5% lies past the plateau, at a = 0.2.
        let (factor, sag) = seek(staircase, 0.01, 0.05, -1.0, Figure::Sag).unwrap();
        assert!((sag / 0.05 - 1.0).abs() <= TOLERANCE && (factor - 0.2).abs() < 0.002, "{factor}");
        // 1.5% lies before it, at a = 2/3.
        let (factor, _) = seek(staircase, 0.01, 0.015, -1.0, Figure::Sag).unwrap();
        assert!((factor - 2.0 / 3.0).abs() < 0.005, "{factor}");
    }

    #[test]
    fn a_sag_the_figure_jumps_over_is_refused_with_both_sides() {
        // 3% lies in the jump from 2% to 4% at a = 0.25.
        let e = seek(staircase, 0.01, 0.03, -1.0, Figure::Sag).unwrap_err().to_string();
        assert!(e.contains("jumps from 4.00% to 2.00% between factors 0.2499"), "{e}");
        // A frequency that no stiffness moves past 1 Hz.
        let flat = |a: f64| Ok(1.0 - 0.5 / (1.0 + a));
        let e = seek(flat, 0.75, 2.0, 0.5, Figure::Frequency).unwrap_err().to_string();
        assert!(e.contains("stays near 1.0000 Hz"), "{e}");
    }
}
