//! # The shape-retention check
//!
//! A converted mesh is rarely a good spring network: a cube made of its edges alone has no
//! springs through its inside, so a knock leaves it sheared or collapsed, and a closed mesh
//! with springs on its surface only sags into a puddle under its own weight. The check makes
//! both measurable with two tests, each ending in the same measure:
//!
//! - **Shake test.** Gravity off, every free node gets a random velocity, each component drawn
//!   uniformly from [−s, s] with s = `shake` × the bounding-box diagonal per second, from a
//!   xorshift64 generator seeded with `seed` (so a check is repeatable). For a model without
//!   anchors the mean velocity is removed, so it does not drift off. The model then settles
//!   with its own integrator and sub-steps for `settle_seconds`, with the global damping raised
//!   to `damping` (1/s) so it comes to rest.
//! - **Gravity test** (what a game will do with it). From rest, the model hangs from its
//!   anchors or, when it has none, rests on a ground plane just under its lowest node (the
//!   model's own ground and friction if it has one, moved there; else friction 0.5), with the
//!   model's own parameters (gravity, damping, air, pressure, integrator) for `sag_seconds`.
//!
//! **Measure.** The positions are moved onto the rest positions by the best rigid transform
//! ([`crate::check::align`]): turning or moving as a whole is not a change of shape. Each node's
//! error is its distance from its rest position after alignment, over the bounding-box
//! diagonal; the shape error is the root mean square of the node errors. The shake test
//! measures it at its end, once the model has settled (`shape_error`). The gravity test
//! measures it at every frame and keeps the worst moment (`sag_error`, and when it was): a
//! body whose legs buckle and which then lies down on its side has not kept its shape, though
//! its end shape may be fine. [`rest_sag`] measures the same error once the model has come
//! to rest under gravity: what `springmesh tune --sag` aims at.
//!
//! **Tilt.** A body on the ground is judged from where a rigid copy of it comes to rest
//! ([`base`]): the face of the convex hull of its surface under its centre of mass, found by
//! tipping it quasi-statically from its rest pose (a posed figure whose feet are not level
//! rests on the face its lowest feet make, tilted a little; that is not a fall). At every
//! frame of the gravity test, the tilt is the angle between that face's outward normal and
//! where the alignment's rotation carries the ground's down (−y), less the angle it started
//! at: how far the body has turned away from its rest beyond the way to it. It counts when
//! the rest face is a **stable base**: tipping the body over the face's nearest edge would
//! raise its centre of mass by at least 0.2% of the diagonal (four feet, a flat bottom) — a
//! ball, which rolls over the rim of its lowest faces, or a body hanging from anchors, may
//! turn without failing. The model is `stable` when the shake error and the worst sag error are below
//! `threshold` and, on a stable base, the tilt stayed within `max_tilt_degrees`.
//!
//! Defaults: a shake of 1 diagonal per second (a 30 cm jelly gets up to 30 cm/s per axis,
//! enough to flatten any cell that has no diagonal), 5 s of settling at 4/s damping (kinetic
//! energy falls by e^(−40)), 5 s under gravity (a second or two to land and a few periods of
//! any wobble, which the default damping of 0.5/s and the springs' own damping shrink well
//! below the threshold), threshold 2% (a braced lattice returns to within 0.1%; a solid filled
//! by the converter sags about 1% of its height, a diagonal's fraction less; a mechanism or a
//! hollow shell ends tens of percent off). A sheet hung from its anchors drapes, which the
//! gravity test reports as sag: for cloth, read `shape_error`.

use crate::random::Xorshift64;
pub use springmesh_core::align;
use springmesh_core::model::{Ground, Surface};
mod base;

use crate::AnalysisError;
use align::best_rigid;
use glam::{Quat, Vec3, Vec3A};
use springmesh_core::{NodeId, Simulation, SpringModel, ValidModel};

/// How to shake and judge a model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckOptions {
    /// Seed of the random velocity field.
    pub seed: u64,
    /// Shake strength: velocity components up to this many bounding-box diagonals per second.
    pub shake: f32,
    /// How long (s) the model settles after the shake.
    pub settle_seconds: f32,
    /// Global damping rate (1/s) while settling.
    pub damping: f32,
    /// How long (s) the model rests on the ground or hangs in the gravity test.
    pub sag_seconds: f32,
    /// Largest error (fraction of the diagonal) of either test still called stable.
    pub threshold: f64,
    /// Largest tilt (degrees) of a body on a stable base still called stable.
    pub max_tilt_degrees: f64,
}

impl Default for CheckOptions {
    fn default() -> Self {
        Self {
            seed: 1,
            shake: 1.0,
            settle_seconds: 5.0,
            damping: 4.0,
            sag_seconds: 5.0,
            threshold: 0.02,
            max_tilt_degrees: 5.0,
        }
    }
}

/// How far a model ended from its rest shape after one test.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Deviation {
    /// RMS distance of the nodes from their rest positions after rigid alignment, over the
    /// bounding-box diagonal.
    pub error: f64,
    /// The largest node error, over the diagonal.
    pub max_node_error: f64,
    /// The nodes with the largest errors, largest first (at most ten).
    pub worst_nodes: Vec<(NodeId, f64)>,
    /// Per node, its error over the diagonal (for colouring).
    pub node_errors: Vec<f32>,
}

/// What held the model in the gravity test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Support {
    /// It hung from its anchors.
    Anchors,
    /// It rested on a ground plane at this height (m).
    Ground {
        /// Height of the plane (m).
        height: f32,
    },
}

/// How the gravity test went, frame by frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Course {
    /// When (s into the test) the shape error was largest: the moment of [`CheckReport::sag`].
    pub worst_at: f64,
    /// The shape error at the end of the test.
    pub end_error: f64,
    /// The largest tilt of the up axis (degrees) over the test.
    pub tilt_degrees: f64,
    /// When (s) the tilt was largest.
    pub tilt_at: f64,
    /// The body rests on a stable base, so its tilt counts (module docs).
    pub stable_base: bool,
}

/// What the check found.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckReport {
    /// The shake test.
    pub shake: Deviation,
    /// The gravity test at its worst moment.
    pub sag: Deviation,
    /// The gravity test frame by frame: when it was worst, its end, the tilt.
    pub course: Course,
    /// What held the model in the gravity test.
    pub support: Support,
    /// Both errors below the threshold.
    pub stable: bool,
    /// The threshold used.
    pub threshold: f64,
    /// Groups of nodes joined by springs.
    pub components: usize,
    /// Nodes that no spring touches.
    pub unconnected_nodes: Vec<NodeId>,
}

impl CheckReport {
    /// Per node, the larger of its two errors (for colouring).
    pub fn worse_node_errors(&self) -> Vec<f32> {
        self.shake.node_errors.iter().zip(&self.sag.node_errors).map(|(&a, &b)| a.max(b)).collect()
    }

    /// The test with the larger error.
    pub fn worse(&self) -> &Deviation {
        if self.sag.error > self.shake.error { &self.sag } else { &self.shake }
    }
}

/// Shakes, settles, rests and measures `model` (see the module docs).
pub fn check(model: &SpringModel, options: &CheckOptions) -> Result<CheckReport, AnalysisError> {
    let parts = model.parts();
    let diagonal = model.bounding_box().map_or(1.0, |b| b.diagonal()).max(f32::MIN_POSITIVE);
    let shake = shake_test(model, options, diagonal)?;
    let (sag, course, support) = gravity_test(model, options, diagonal)?;
    let upright = !course.stable_base || course.tilt_degrees <= options.max_tilt_degrees;
    Ok(CheckReport {
        stable: shake.error < options.threshold && sag.error < options.threshold && upright,
        shake,
        sag,
        course,
        support,
        threshold: options.threshold,
        components: parts.count,
        unconnected_nodes: parts.unconnected,
    })
}

/// The shake test: gravity off, random velocities, damped settling.
fn shake_test(
    model: &SpringModel,
    options: &CheckOptions,
    diagonal: f32,
) -> Result<Deviation, AnalysisError> {
    let mut quiet = model.clone();
    quiet.params.gravity = Vec3::ZERO;
    quiet.params.damping = options.damping.max(0.0);
    let mut sim = Simulation::new(&ValidModel::new(quiet)?);
    shake(&mut sim, model, options.shake * diagonal, options.seed);
    run(&mut sim, options.settle_seconds, |_| {})?;
    Ok(deviation(sim.positions(), model.nodes.positions(), diagonal))
}

/// The gravity test: hanging from the anchors, or resting on a ground just under the model;
/// measured at every frame (module docs).
fn gravity_test(
    model: &SpringModel,
    options: &CheckOptions,
    diagonal: f32,
) -> Result<(Deviation, Course, Support), AnalysisError> {
    let (resting, support) = supported(model);
    let mut sim = Simulation::new(&ValidModel::new(resting)?);
    let rest = model.nodes.positions();
    // The ground is horizontal: its normal is the up axis a body on it keeps (or not).
    let up = Vec3::Y;
    // A body on the ground is judged from where a rigid copy of it comes to rest: its tilt
    // is how far it turned from that rest face, beyond the turn it started with.
    let base = (support != Support::Anchors).then(|| base::stable_rest(model, up, diagonal));
    let base = base.flatten();
    let down = base.map_or(-up, |r| r.down);
    let start = f64::from(down.angle_between(-up).to_degrees());
    let mut course = Course { stable_base: base.is_some(), ..Course::default() };
    let mut worst = sim.positions().to_vec();
    let mut worst_error = 0.0;
    run(&mut sim, options.sag_seconds, |sim| {
        let (rotation, translation) = best_rigid(sim.positions(), rest);
        let error = rms(&node_errors(sim.positions(), rest, (rotation, translation), diagonal));
        let turned = f64::from((rotation * -up).dot(down).clamp(-1.0, 1.0).acos().to_degrees());
        let tilt = (turned - start).max(0.0);
        if error > worst_error {
            (worst_error, course.worst_at) = (error, sim.time());
            worst.copy_from_slice(sim.positions());
        }
        if tilt > course.tilt_degrees {
            (course.tilt_degrees, course.tilt_at) = (tilt, sim.time());
        }
        course.end_error = error;
    })?;
    Ok((deviation(&worst, rest, diagonal), course, support))
}

/// How long [`rest_sag`] lets a model settle at most (s).
const REST_SECONDS: usize = 60;

/// The gravity test's shape error once the model is at rest: its sag under its own weight
/// (module docs). It settles with the global damping raised to the shake test's `damping`
/// (which changes no resting shape, only how soon it is reached) until a second changes the
/// error by less than 0.1% of it, or for [`REST_SECONDS`].
pub fn rest_sag(model: &SpringModel, options: &CheckOptions) -> Result<f64, AnalysisError> {
    let diagonal = model.bounding_box().map_or(1.0, |b| b.diagonal()).max(f32::MIN_POSITIVE);
    let (mut resting, _) = supported(model);
    resting.params.damping = resting.params.damping.max(options.damping);
    let mut sim = Simulation::new(&ValidModel::new(resting)?);
    let rest = model.nodes.positions();
    let error = |sim: &Simulation| {
        let fit = best_rigid(sim.positions(), rest);
        rms(&node_errors(sim.positions(), rest, fit, diagonal))
    };
    let mut last = error(&sim);
    for _ in 0..REST_SECONDS {
        run(&mut sim, 1.0, |_| {})?;
        let now = error(&sim);
        let settled = (now - last).abs() <= 1e-3 * now;
        last = now;
        if settled {
            break;
        }
    }
    Ok(last)
}

/// The model as the gravity test holds it: from its anchors, or (without any) on a ground
/// just under it.
fn supported(model: &SpringModel) -> (SpringModel, Support) {
    let mut resting = model.clone();
    let support = if model.anchors.is_empty() {
        let height = model.ground_under();
        let surface = model.params.ground.map_or_else(Surface::default, |g| g.surface);
        resting.params.ground = Some(Ground { height, surface });
        Support::Ground { height }
    } else {
        Support::Anchors
    };
    (resting, support)
}

/// Steps `sim` by the model's frame step for `seconds`, calling `each_frame` after every step.
fn run(
    sim: &mut Simulation,
    seconds: f32,
    mut each_frame: impl FnMut(&Simulation),
) -> Result<(), AnalysisError> {
    let dt = sim.params().dt;
    let steps = (seconds / dt).ceil().max(0.0) as usize;
    for _ in 0..steps {
        sim.step(dt)?;
        each_frame(sim);
    }
    Ok(())
}

/// Each node's distance from its rest position in `rest` once `end` is moved by `(rotation,
/// translation)`, over `diagonal`.
fn node_errors(
    end: &[Vec3A],
    rest: &[Vec3],
    (rotation, translation): (Quat, Vec3),
    diagonal: f32,
) -> Vec<f32> {
    end.iter()
        .zip(rest)
        .map(|(&p, &r)| (rotation * Vec3::from(p) + translation).distance(r) / diagonal)
        .collect()
}

/// The root mean square of `errors`.
fn rms(errors: &[f32]) -> f64 {
    let n = errors.len().max(1) as f64;
    (errors.iter().map(|&e| f64::from(e) * f64::from(e)).sum::<f64>() / n).sqrt()
}

/// How far `end` is from `rest` after the best rigid alignment, over `diagonal`.
fn deviation(end: &[Vec3A], rest: &[Vec3], diagonal: f32) -> Deviation {
    let node_errors = node_errors(end, rest, best_rigid(end, rest), diagonal);
    let error = rms(&node_errors);
    let mut worst: Vec<(NodeId, f64)> = node_errors
        .iter()
        .enumerate()
        .map(|(i, &e)| (NodeId::from_index(i), f64::from(e)))
        .collect();
    worst.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    worst.truncate(10);
    Deviation {
        error,
        max_node_error: worst.first().map_or(0.0, |w| w.1),
        worst_nodes: worst,
        node_errors,
    }
}

/// Gives every free node a seeded random velocity with components in [−speed, speed]; removes
/// the mean when nothing is anchored.
fn shake(sim: &mut Simulation, model: &SpringModel, speed: f32, seed: u64) {
    let mut random = Xorshift64::new(seed);
    let mut uniform = move || random.symmetric_f32();
    let mut anchored = vec![false; model.nodes.len()];
    for a in &model.anchors {
        anchored[a.index()] = true;
    }
    let v = sim.velocities_mut();
    for (v, &held) in v.iter_mut().zip(&anchored) {
        let random = Vec3A::new(uniform(), uniform(), uniform()) * speed;
        if !held {
            *v = random;
        }
    }
    if model.anchors.is_empty() && !v.is_empty() {
        let mean = v.iter().copied().sum::<Vec3A>() / v.len() as f32;
        for v in v.iter_mut() {
            *v -= mean;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use springmesh_core::{Node, Spring, SpringKind};

    /// An n × n × n lattice of 1 m, edges only or braced by face and body diagonals.
    fn lattice(n: usize, braced: bool) -> SpringModel {
        block([n, n, n], braced)
    }

    /// A lattice of `[nx, ny, nz]` nodes 1 / (nx − 1) m apart, edges only or braced by face
    /// and body diagonals.
    fn block([nx, ny, nz]: [usize; 3], braced: bool) -> SpringModel {
        let mut m = SpringModel::default();
        let id = |i: usize, j: usize, k: usize| NodeId(((k * ny + j) * nx + i) as u32);
        let h = 1.0 / (nx - 1) as f32;
        for k in 0..nz {
            for j in 0..ny {
                for i in 0..nx {
                    m.nodes.push(Node {
                        position: Vec3::new(i as f32, j as f32, k as f32) * h,
                        mass: 0.01,
                    });
                }
            }
        }
        let mut pairs = Vec::new();
        for k in 0..nz - 1 {
            for j in 0..ny - 1 {
                for i in 0..nx - 1 {
                    let c: Vec<NodeId> =
                        (0..8).map(|c| id(i + (c & 1), j + ((c >> 1) & 1), k + (c >> 2))).collect();
                    for (x, &a) in c.iter().enumerate() {
                        for &b in &c[x + 1..] {
                            let d = m.distance(a, b).unwrap_or(0.0);
                            if braced || d < 1.01 * h {
                                pairs.push((a.min(b), a.max(b)));
                            }
                        }
                    }
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        for (a, b) in pairs {
            let d = m.distance(a, b).unwrap_or(0.0);
            m.springs.push(Spring::new(a, b, d, 200.0, SpringKind::Manual));
        }
        m
    }

    #[test]
    fn a_lattice_of_edges_is_unstable_and_a_braced_one_stable() {
        let loose = check(&lattice(4, false), &CheckOptions::default()).expect("finite");
        let braced = check(&lattice(4, true), &CheckOptions::default()).expect("finite");
        let (loose_shake, braced_shake) = (loose.shake.error, braced.shake.error);
        assert!(!loose.stable && loose_shake > 0.05, "edges only: {loose_shake}");
        assert!(braced.stable && braced_shake < 0.005, "braced: {braced_shake}");
        assert_eq!(
            (braced.components, braced.unconnected_nodes.len(), braced.shake.node_errors.len()),
            (1, 0, 64)
        );
        assert!(loose.shake.worst_nodes.windows(2).all(|w| w[0].1 >= w[1].1));
        let again = check(&lattice(4, false), &CheckOptions::default()).expect("finite");
        assert_eq!(again.shake.error, loose_shake, "seeded: the same every time");
    }

    #[test]
    fn the_gravity_test_rests_the_model_on_a_ground_just_under_it() {
        let mut m = lattice(3, true);
        m.params.ground = Some(Ground { height: -5.0, surface: Surface::default() });
        let report = check(&m, &CheckOptions::default()).expect("finite");
        let below = -m.params.node_radius;
        assert_eq!(report.support, Support::Ground { height: below });
        assert!(report.sag.error < 0.02, "a braced lattice stands: {}", report.sag.error);
        m.anchors.push(NodeId(0));
        assert_eq!(check(&m, &CheckOptions::default()).expect("finite").support, Support::Anchors);
    }

    #[test]
    fn an_unbraced_lattice_sags_under_gravity() {
        // Edges only: it shears flat on the ground. A perfectly upright lattice under perfectly
        // vertical gravity is in (unstable) balance, so gravity leans 3° to tip it over.
        let mut m = lattice(3, false);
        m.params.gravity = Vec3::new(0.5, -9.8, 0.0);
        let report = check(&m, &CheckOptions::default()).expect("finite");
        assert!(report.sag.error > 0.05, "a mechanism folds: {}", report.sag.error);
        assert!(!report.stable);
    }

    #[test]
    fn a_block_on_feet_a_few_millimetres_uneven_is_judged_and_stands() {
        // A braced 1 m block on four 5 cm feet under its bottom corners, whose heights differ
        // by up to 6 mm: the nodes within 0.2% of the diagonal of the lowest are two feet on a
        // line, which judged nothing; a rigid copy rests on its lowest feet, a few tenths of
        // a degree off level, and the body stands there.
        let mut m = block([3, 3, 3], true);
        for k in m.springs.stiffnesses_mut() {
            *k = 2000.0;
        }
        for (lift, (x, z)) in
            [0.0, 0.006, 0.002, 0.005].into_iter().zip([(0, 0), (2, 0), (0, 2), (2, 2)])
        {
            let corner = NodeId((z * 9 + x) as u32);
            let foot = NodeId(m.nodes.len() as u32);
            let above = m.nodes.positions()[corner.index()];
            m.nodes.push(Node { position: above - Vec3::Y * (0.05 - lift), mass: 0.01 });
            let near: Vec<NodeId> = (0..27u32)
                .map(NodeId)
                .filter(|&n| m.distance(n, corner).is_some_and(|d| d < 0.75))
                .collect();
            for n in near {
                let d = m.distance(foot, n).unwrap_or(0.0);
                m.springs.push(Spring::new(foot, n, d, 2000.0, SpringKind::Manual));
            }
        }
        assert_eq!(m.validate(), Ok(()));
        let report = check(&m, &CheckOptions::default()).expect("finite");
        let c = report.course;
        println!("uneven feet: {c:?}, worst error {}", report.sag.error);
        assert!(c.stable_base, "its rest face is a base");
        assert!(c.tilt_degrees < 1.0, "it stands where a rigid copy rests: {}°", c.tilt_degrees);
        assert!(report.stable, "{report:?}");
    }

    #[test]
    fn a_column_that_tips_over_is_unstable_though_its_shape_holds() {
        // A braced column 1 × 3 × 1 m, stiff enough to stay a column, on the ground under
        // gravity leaning 30° (past atan(0.5 / 1.5) = 18.4°, where its centre of mass leaves
        // its foot): it topples and lies on its side, whole. Measured at its end
        // only, its shape is fine; its tilt tells.
        let mut m = block([3, 7, 3], true);
        for k in m.springs.stiffnesses_mut() {
            *k = 2000.0;
        }
        let lean = 30f32.to_radians();
        m.params.gravity = Vec3::new(lean.sin(), -lean.cos(), 0.0) * 9.81;
        let report = check(&m, &CheckOptions::default()).expect("finite");
        let c = report.course;
        println!("column: {c:?}, worst error {}", report.sag.error);
        assert!(c.stable_base, "a column stands on its square foot");
        assert!(c.end_error < 0.02, "it lies down whole: {}", c.end_error);
        assert!(c.tilt_degrees > 45.0, "it fell over: {}°", c.tilt_degrees);
        assert!(c.tilt_at > 0.0 && c.tilt_at <= 5.0 + 1e-6);
        assert!(!report.stable, "a body on a stable base that tips over is unstable");
        // Upright gravity: it stands, untilted.
        m.params.gravity = Vec3::new(0.0, -9.81, 0.0);
        let standing = check(&m, &CheckOptions::default()).expect("finite");
        assert!(standing.stable && standing.course.tilt_degrees < 1.0, "{:?}", standing.course);
    }

    #[test]
    fn the_worst_moment_is_kept_not_the_end() {
        // An unbraced cube shears flat under leaning gravity: its error grows as it folds; the
        // worst moment is at least the end and comes at a time within the test.
        let mut m = lattice(3, false);
        m.params.gravity = Vec3::new(0.5, -9.8, 0.0);
        let report = check(&m, &CheckOptions::default()).expect("finite");
        let c = report.course;
        assert!(report.sag.error >= c.end_error, "{} < {}", report.sag.error, c.end_error);
        assert!(c.worst_at > 0.0 && c.worst_at <= 5.0 + 1e-6, "{}", c.worst_at);
    }
}
