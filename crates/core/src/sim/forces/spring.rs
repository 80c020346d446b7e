//! # The spring: its force and its Xpbd projection, written once
//!
//! Every loop over springs — the colour batches four at a time
//! ([`crate::sim::forces::kernels`]), their left-overs one at a time, the bands' chunks and
//! stripes ([`crate::sim::forces::bands`]) eight or four lanes at a time — calls the functions
//! here, generic over the [`Lane`] type it works on (`f32` for one spring or one lane of a
//! vectorized loop, `Vec4` for four springs at once). Each loop only gathers the geometry (the
//! spring's vector d and the dot products below) in its own layout.
//!
//! **Force** (Hooke with damping along the spring; the explicit integrators):
//!
//! ```text
//! d = x_b − x_a,   ℓ = |d|
//! f/ℓ = k (1 − L/ℓ) + d_s ((v_b − v_a)·d) / ℓ²
//! F_a += (f/ℓ) d,   F_b −= (f/ℓ) d
//! ```
//!
//! **Projection** (one Xpbd iteration, λ = 0; see [`crate::sim::integrators::xpbd`]):
//!
//! ```text
//! d = x_a − x_b,   ℓ = |d|,   m = Δx_a − Δx_b   (how far the ends moved in the sub-step)
//! s = (k h² (L − ℓ) − d_s h (d·m)/ℓ) / ℓ
//! x_a += g_a s d,   x_b −= g_b s d
//! g_a = w_a q,  g_b = w_b q,  q = 1 / ((k h² + d_s h)(w_a + w_b) + 1)
//! ```
//!
//! - x, v, w: a node's position (m), velocity (m/s), inverse mass (1/kg; 0 when anchored).
//! - k, L, d_s: the spring's stiffness (N/m), rest length (m), damping (N·s/m); h the
//!   sub-step (s). The weights g depend only on h, so they are worked out once per sub-step
//!   size ([`weights`]).
//!
//! A spring shorter than √[`MIN_LENGTH_SQUARED`] has no direction: its force and its
//! correction are zero (no division by zero reaches a node). The operations are done in the
//! order written, the same for every lane type, so that the loops agree bit for bit.

use glam::Vec4;
use std::ops::{Add, Div, Mul, Sub};

/// Squared length below which a spring has no direction (m²).
pub(crate) const MIN_LENGTH_SQUARED: f32 = 1e-24;

/// What a spring formula computes on: one spring (`f32`) or four at once (`Vec4`).
pub(crate) trait Lane:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    const ONE: Self;
    fn sqrt(self) -> Self;
    /// `value` where `len2` > [`MIN_LENGTH_SQUARED`] (the spring has a direction), else 0.
    fn where_directed(len2: Self, value: Self) -> Self;
}

impl Lane for f32 {
    const ONE: f32 = 1.0;

    #[inline(always)]
    fn sqrt(self) -> f32 {
        f32::sqrt(self)
    }

    #[inline(always)]
    fn where_directed(len2: f32, value: f32) -> f32 {
        if len2 > MIN_LENGTH_SQUARED { value } else { 0.0 }
    }
}

impl Lane for Vec4 {
    const ONE: Vec4 = Vec4::ONE;

    #[inline(always)]
    fn sqrt(self) -> Vec4 {
        Vec4::sqrt(self)
    }

    #[inline(always)]
    fn where_directed(len2: Vec4, value: Vec4) -> Vec4 {
        Vec4::select(len2.cmpgt(Vec4::splat(MIN_LENGTH_SQUARED)), value, Vec4::ZERO)
    }
}

/// f/ℓ of a spring of squared length `len2` whose ends close at `closing` = (v_b − v_a)·d
/// (read only when `DAMPED`), with stiffness `k`, rest length `rest` and damping `damping`:
/// the force on its first end is (f/ℓ) d.
#[inline(always)]
pub(crate) fn force_over_length<L: Lane, const DAMPED: bool>(
    len2: L,
    closing: L,
    k: L,
    rest: L,
    damping: L,
) -> L {
    let inv_len = L::ONE / len2.sqrt();
    let mut f_over_len = k * (L::ONE - rest * inv_len);
    if DAMPED {
        f_over_len = f_over_len + damping * closing * inv_len * inv_len;
    }
    L::where_directed(len2, f_over_len)
}

/// s of a spring's projection (module doc): squared length `len2`, `moved` = d·m (read only
/// when `DAMPED`), rest length `rest`, and the weights `gk` = k h², `gd` = d_s h.
#[inline(always)]
pub(crate) fn projection<L: Lane, const DAMPED: bool>(
    len2: L,
    moved: L,
    rest: L,
    gk: L,
    gd: L,
) -> L {
    let len = len2.sqrt();
    let inv_len = L::ONE / len;
    let mut numerator = gk * (rest - len);
    if DAMPED {
        numerator = numerator - gd * moved * inv_len;
    }
    L::where_directed(len2, numerator * inv_len)
}

/// A spring's Xpbd weights for one sub-step size (module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SpringWeights {
    /// g_a = w_a q.
    pub ga: f32,
    /// g_b = w_b q.
    pub gb: f32,
    /// q.
    pub gc: f32,
    /// k h².
    pub gk: f32,
    /// d_s h.
    pub gd: f32,
}

/// The weights of a spring of stiffness `k` and damping `damping` between nodes of inverse
/// masses `wa` and `wb`, for sub-step `h`. A broken spring (k = d_s = 0) gets g_k = g_d = 0
/// and does nothing.
#[inline]
pub(crate) fn weights(k: f32, damping: f32, (wa, wb): (f32, f32), h: f32) -> SpringWeights {
    let (gk, gd) = (k * h * h, damping * h);
    let q = 1.0 / ((gk + gd) * (wa + wb) + 1.0);
    SpringWeights { ga: wa * q, gb: wb * q, gc: q, gk, gd }
}

/// The forces of springs `(a, b, rest, k, damping)` at positions `pos` and velocities `vel`,
/// one at a time in f64: the truth the loops are tested against.
#[cfg(test)]
pub(crate) fn reference_forces(
    springs: impl IntoIterator<Item = (u32, u32, f32, f32, f32)>,
    pos: &[glam::Vec3A],
    vel: &[glam::Vec3A],
) -> Vec<glam::DVec3> {
    let mut f = vec![glam::DVec3::ZERO; pos.len()];
    for (a, b, rest, k, damping) in springs {
        let (a, b) = (a as usize, b as usize);
        let d = (pos[b] - pos[a]).as_dvec3();
        let len = d.length();
        let closing = (vel[b] - vel[a]).as_dvec3().dot(d) / len;
        let tension = f64::from(k) * (len - f64::from(rest)) + f64::from(damping) * closing;
        f[a] += d / len * tension;
        f[b] -= d / len * tension;
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stretched_spring_pulls_its_ends_together_by_hooke() {
        // 2 m long, rest 1.5 m, k = 10 N/m: tension 5 N; f/ℓ = 2.5 N/m.
        let f = force_over_length::<f32, false>(4.0, 0.0, 10.0, 1.5, 0.0);
        assert_eq!(f, 2.5);
        // Ends closing at 1 m/s along d (d·Δv = −2): damping 3 N·s/m adds −3 N, over ℓ = 2.
        let damped = force_over_length::<f32, true>(4.0, -2.0, 10.0, 1.5, 3.0);
        assert_eq!(damped, 2.5 - 1.5);
        assert_eq!(force_over_length::<f32, true>(0.0, 0.0, 10.0, 1.5, 3.0), 0.0);
    }

    #[test]
    fn four_lanes_compute_what_four_springs_do() {
        let len2 = Vec4::new(4.0, 0.25, 1e-30, 9.0);
        let other = Vec4::new(-2.0, 0.1, 0.0, 3.0);
        let (rest, k, d) = (Vec4::new(1.5, 1.0, 1.0, 2.0), Vec4::splat(7.0), Vec4::splat(0.3));
        let f = force_over_length::<Vec4, true>(len2, other, k, rest, d).to_array();
        let s = projection::<Vec4, true>(len2, other, rest, k, d).to_array();
        for j in 0..4 {
            let one = force_over_length::<f32, true>(len2[j], other[j], k[j], rest[j], d[j]);
            assert_eq!(f[j].to_bits(), one.to_bits());
            let one = projection::<f32, true>(len2[j], other[j], rest[j], k[j], d[j]);
            assert_eq!(s[j].to_bits(), one.to_bits());
        }
        assert_eq!((f[2], s[2]), (0.0, 0.0), "no direction, no force");
    }

    #[test]
    fn a_rod_between_equal_masses_is_closed_in_one_projection() {
        // k h² ≫ 1: q → 0, and each end moves half of the stretch back.
        let w = weights(1e12, 0.0, (1.0, 1.0), 0.01);
        let (len2, rest) = (4.0f32, 1.0);
        let s = projection::<f32, false>(len2, 0.0, rest, w.gk, w.gd);
        let moved = 2.0 * (w.ga * s) * len2.sqrt();
        assert!((moved + 1.0).abs() < 1e-6, "{moved}");
        // An anchored end (w = 0) does not move.
        assert_eq!(weights(100.0, 1.0, (0.0, 2.0), 0.01).ga, 0.0);
    }
}
