//! # Breakage
//!
//! A spring with break limits breaks when, at the end of a step, its length ℓ = |x_b − x_a|
//! is outside [min, max]. A broken spring stays broken: it leaves the solver's arrays, so it
//! adds neither force nor energy and later passes do not walk it. The step reports which
//! springs broke, by their ids in the model, and so does every break listener
//! ([`crate::Simulation::on_break`]) — once per spring.
//!
//! The triangles along a broken spring tear with it: a triangle with an edge between the two
//! nodes of a broken spring leaves the face passes (air, pressure, normals, and
//! [`crate::Simulation::faces`] for drawing). A closed surface that tears is no longer closed:
//! its gas escapes, as a popped balloon's does.

use crate::SpringId;
use crate::sim::data::SpringData;
use glam::Vec3A;

/// A spring that broke.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BreakEvent {
    /// The spring, by its id in the model.
    pub spring: SpringId,
    /// Its length when it broke (m).
    pub length: f32,
    /// Simulated time (s) at the end of the step in which it broke.
    pub time: f64,
}

/// The squared length of spring `i` of `springs` at positions `pos`.
fn squared(springs: &SpringData, pos: &[Vec3A], i: u32) -> f32 {
    let (a, b) = (springs.a()[i as usize], springs.b()[i as usize]);
    pos[a as usize].distance_squared(pos[b as usize])
}

/// True when spring `i` of `springs` is outside its limits `min..=max` at positions `pos`:
/// squares compared, no square root per spring (the limits are ≥ 0, or ∞).
fn outside(springs: &SpringData, pos: &[Vec3A], (i, min, max): (u32, f32, f32)) -> bool {
    !(min * min..=max * max).contains(&squared(springs, pos, i))
}

/// True when a spring of `springs` is outside its limits at positions `pos`.
pub(crate) fn any_breaking(springs: &SpringData, pos: &[Vec3A]) -> bool {
    springs.limited.iter().any(|&l| outside(springs, pos, l))
}

/// Breaks the springs outside their limits at positions `pos` at `time`, removing them from
/// `springs`, and returns them in solver order with their end nodes.
pub(crate) fn break_springs(
    springs: &mut SpringData,
    pos: &[Vec3A],
    time: f64,
) -> Vec<(BreakEvent, (u32, u32))> {
    if !any_breaking(springs, pos) {
        return Vec::new();
    }
    let (a, b) = (springs.a(), springs.b());
    let length = |i: u32| squared(springs, pos, i).sqrt();
    let (breaking, intact): (Vec<_>, Vec<_>) =
        springs.limited.iter().partition(|&&l| outside(springs, pos, l));
    let events = breaking
        .iter()
        .map(|&(i, _, _)| {
            let spring = springs.model_id[i as usize];
            let ends = (a[i as usize], b[i as usize]);
            (BreakEvent { spring, length: length(i), time }, ends)
        })
        .collect();
    springs.limited = intact;
    let gone: Vec<usize> = breaking.iter().map(|&(i, _, _)| i as usize).collect();
    springs.remove(&gone);
    events
}

/// Removes the triangles with an edge between the ends of one of the springs `broken` (given
/// by their end nodes); returns how many went.
pub(crate) fn tear(faces: &mut Vec<[crate::NodeId; 3]>, broken: &[(u32, u32)]) -> usize {
    let before = faces.len();
    let along = |x: u32, y: u32| broken.iter().any(|&(a, b)| (a, b) == (x, y) || (a, b) == (y, x));
    faces.retain(|&[a, b, c]| !(along(a.0, b.0) || along(b.0, c.0) || along(c.0, a.0)));
    before - faces.len()
}
