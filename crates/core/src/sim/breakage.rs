//! # Breakage
//!
//! A spring with break limits breaks when, at the end of a step, its length ℓ = |x_b − x_a|
//! is outside [min, max]. A broken spring stays broken: its stiffness and damping become 0,
//! so it adds neither force nor energy, and it leaves the list of springs checked here. The
//! step reports which springs broke, by their ids in the model.

use super::compile::SpringData;
use crate::SpringId;
use glam::Vec3A;

/// Breaks the springs outside their limits at positions `pos`, returning their model ids.
pub(crate) fn break_springs(springs: &mut SpringData, pos: &[Vec3A]) -> Vec<SpringId> {
    let (a, b) = (springs.a(), springs.b());
    let outside = |&(i, min, max): &(u32, f32, f32)| {
        let i = i as usize;
        let len = pos[a[i] as usize].distance(pos[b[i] as usize]);
        !(min..=max).contains(&len)
    };
    if !springs.limited.iter().any(outside) {
        return Vec::new();
    }
    let (breaking, intact): (Vec<_>, Vec<_>) = springs.limited.iter().partition(|l| outside(l));
    springs.limited = intact;
    breaking
        .into_iter()
        .map(|(i, _, _)| {
            let i = i as usize;
            springs.stiffness[i] = 0.0;
            springs.damping[i] = 0.0;
            springs.model_id[i]
        })
        .collect()
}
