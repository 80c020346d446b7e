//! The inner loops of the solvers — and the only `unsafe` code in springmesh-core.
//!
//! Both loops walk the springs batch by batch ([`super::coloring`]). The springs of an
//! independent batch share no node, so four are processed at once: their four lengths come
//! from one 4 × 4 transpose, one vector square root and one vector division (the two slowest
//! instructions of the loop, not pipelined), and their four updates cannot collide.
//!
//! Node arrays are indexed without per-access bounds checks. On the 128 × 128 benchmark cloth
//! those checks (16 per group of four springs: two ends, read and write, two arrays) took half
//! of the loop's time. Instead, each loop asserts once that the node arrays it indexes are at
//! least `SpringData::end_bound` long; `SpringData` records that bound when it is built and
//! its end indices are private and never change, so every index is below it.
//!
//! The formulas are those of [`super::explicit`] (forces) and [`super::xpbd`] (projections);
//! a four-spring group computes exactly what four single springs would, operation for
//! operation, so the result does not depend on how springs fall into groups.
#![allow(unsafe_code)]

use super::compile::SpringData;
use super::state::State;
use glam::{Mat4, Vec3A, Vec4};

/// Squared length below which a spring has no direction (m²).
const MIN_LENGTH_SQUARED: f32 = 1e-24;

/// |d_j|² of four vectors: a 4 × 4 transpose and three multiply-adds.
#[inline(always)]
fn squared_lengths(d: &[Vec3A; 4]) -> Vec4 {
    let t = Mat4::from_cols(d[0].extend(0.0), d[1].extend(0.0), d[2].extend(0.0), d[3].extend(0.0))
        .transpose();
    t.x_axis * t.x_axis + t.y_axis * t.y_axis + t.z_axis * t.z_axis
}

/// `[a as usize; 4]`.
#[inline(always)]
fn indices(a: &[u32; 4]) -> [usize; 4] {
    a.map(|i| i as usize)
}

/// Adds every spring's force at state `s` to `forces` (the force pass of the explicit
/// integrators).
pub(crate) fn spring_forces(springs: &SpringData, s: &State, forces: &mut [Vec3A]) {
    let bound = springs.end_bound();
    assert!(bound <= s.pos.len() && bound <= s.vel.len() && bound <= forces.len());
    if springs.has_damping {
        spring_forces_in::<true>(springs, s, forces);
    } else {
        spring_forces_in::<false>(springs, s, forces);
    }
}

/// [`spring_forces`], with the damping term compiled in or out.
fn spring_forces_in<const DAMPED: bool>(springs: &SpringData, s: &State, forces: &mut [Vec3A]) {
    for batch in &springs.batches {
        let r = batch.range.clone();
        let (a, b) = (&springs.a()[r.clone()], &springs.b()[r.clone()]);
        let rest = &springs.rest[r.clone()];
        let k = &springs.stiffness[r.clone()];
        let damping = &springs.damping[r];
        let quads = if batch.independent { a.len() / 4 } else { 0 };
        let groups = a.as_chunks::<4>().0.iter().zip(b.as_chunks::<4>().0);
        let constants = rest.as_chunks::<4>().0.iter().zip(k.as_chunks::<4>().0);
        let groups = groups.zip(constants.zip(damping.as_chunks::<4>().0)).take(quads);
        for ((a4, b4), ((rest4, k4), d4)) in groups {
            let (a4, b4) = (indices(a4), indices(b4));
            // SAFETY: every end index is < end_bound <= the lengths of s.pos, s.vel and forces
            // (asserted in spring_forces); the four springs share no node, so the writes
            // below do not alias.
            let d = unsafe {
                [0, 1, 2, 3].map(|j| *s.pos.get_unchecked(b4[j]) - *s.pos.get_unchecked(a4[j]))
            };
            let len2 = squared_lengths(&d);
            let inv_len = Vec4::ONE / len2.sqrt();
            let mut f_over_len = Vec4::from(*k4) * (Vec4::ONE - Vec4::from(*rest4) * inv_len);
            if DAMPED {
                // SAFETY: as above.
                let closing = unsafe {
                    [0, 1, 2, 3].map(|j| {
                        (*s.vel.get_unchecked(b4[j]) - *s.vel.get_unchecked(a4[j])).dot(d[j])
                    })
                };
                f_over_len += Vec4::from(*d4) * Vec4::from(closing) * inv_len * inv_len;
            }
            let has_direction = len2.cmpgt(Vec4::splat(MIN_LENGTH_SQUARED));
            let f = Vec4::select(has_direction, f_over_len, Vec4::ZERO).to_array();
            for j in 0..4 {
                let force = d[j] * f[j];
                // SAFETY: as above.
                unsafe {
                    *forces.get_unchecked_mut(a4[j]) += force;
                    *forces.get_unchecked_mut(b4[j]) -= force;
                }
            }
        }
        for i in 4 * quads..a.len() {
            let (ai, bi) = (a[i] as usize, b[i] as usize);
            let d = s.pos[bi] - s.pos[ai];
            let len2 = d.length_squared();
            if len2 <= MIN_LENGTH_SQUARED {
                continue;
            }
            let inv_len = 1.0 / len2.sqrt();
            let mut f_over_len = k[i] * (1.0 - rest[i] * inv_len);
            if DAMPED {
                f_over_len += damping[i] * (s.vel[bi] - s.vel[ai]).dot(d) * inv_len * inv_len;
            }
            let force = d * f_over_len;
            forces[ai] += force;
            forces[bi] -= force;
        }
    }
}

/// One Xpbd constraint iteration over every spring, in order, on positions `pos`, with the
/// per-spring weights `ga`, `gb` (solver order).
pub(crate) fn project_springs(springs: &SpringData, ga: &[f32], gb: &[f32], pos: &mut [Vec3A]) {
    assert!(springs.end_bound() <= pos.len());
    for batch in &springs.batches {
        let r = batch.range.clone();
        let (a, b) = (&springs.a()[r.clone()], &springs.b()[r.clone()]);
        let rest = &springs.rest[r.clone()];
        let (ga, gb) = (&ga[r.clone()], &gb[r]);
        let quads = if batch.independent { a.len() / 4 } else { 0 };
        let groups = a.as_chunks::<4>().0.iter().zip(b.as_chunks::<4>().0);
        let weights = ga.as_chunks::<4>().0.iter().zip(gb.as_chunks::<4>().0);
        let groups = groups.zip(rest.as_chunks::<4>().0.iter().zip(weights)).take(quads);
        for ((a4, b4), (rest4, (ga4, gb4))) in groups {
            let (a4, b4) = (indices(a4), indices(b4));
            // SAFETY: every end index is < end_bound <= pos.len() (asserted above); the four
            // springs share no node, so the writes below do not alias.
            let d = unsafe {
                [0, 1, 2, 3].map(|j| *pos.get_unchecked(a4[j]) - *pos.get_unchecked(b4[j]))
            };
            let len2 = squared_lengths(&d);
            let len = len2.sqrt();
            let has_direction = len2.cmpgt(Vec4::splat(MIN_LENGTH_SQUARED));
            // −C/|d|, so that w Δλ n = d·(g·s).
            let s = Vec4::select(has_direction, (Vec4::from(*rest4) - len) / len, Vec4::ZERO);
            let (sa, sb) = ((Vec4::from(*ga4) * s).to_array(), (Vec4::from(*gb4) * s).to_array());
            for j in 0..4 {
                // SAFETY: as above.
                unsafe {
                    *pos.get_unchecked_mut(a4[j]) += d[j] * sa[j];
                    *pos.get_unchecked_mut(b4[j]) -= d[j] * sb[j];
                }
            }
        }
        for i in 4 * quads..a.len() {
            let (ai, bi) = (a[i] as usize, b[i] as usize);
            let d = pos[ai] - pos[bi];
            let len2 = d.length_squared();
            if len2 <= MIN_LENGTH_SQUARED {
                continue;
            }
            let len = len2.sqrt();
            let s = (rest[i] - len) / len;
            pos[ai] += d * (ga[i] * s);
            pos[bi] -= d * (gb[i] * s);
        }
    }
}
