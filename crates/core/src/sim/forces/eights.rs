//! The Xpbd projection of [`crate::sim::forces::kernels`] eight springs at a time, built for
//! AVX (x86-64 only; [`crate::sim::columns::Isa`] says when the CPU has it).
//!
//! A group of four springs takes one 4 × 4 transpose, one square root and one division of
//! four lanes; here two groups share each of them, as the low and high halves of 256-bit
//! registers: the ends of springs j and j + 4 are loaded side by side, transposed within each
//! half, and their corrections are written back half by half. The formula is
//! [`projection`], the same as for one spring and for four, lane for lane in the same order
//! (square root and division are exactly rounded at any width, and Rust fuses no multiply and
//! add on its own), so eight at once give the bits of four at once and of one at a time.
//!
//! Measured on the converted blob (491 nodes, 2,696 springs in 16 colours, 8 sub-steps),
//! lying on the ground, the same bits either way: best of 300 runs of 20 frames, builds in
//! turns, 154–160 µs a frame against 172–175 µs four at a time. The ends are still read and
//! written one vector at a time: that, not the arithmetic, is what the loop now waits on.
#![allow(unsafe_code)]

use crate::sim::forces::spring::{Lane, MIN_LENGTH_SQUARED, projection};
use glam::Vec3A;
use std::arch::x86_64::{
    __m128, __m256, _CMP_GT_OQ, _mm256_add_ps, _mm256_and_ps, _mm256_castps256_ps128,
    _mm256_cmp_ps, _mm256_div_ps, _mm256_extractf128_ps, _mm256_loadu_ps, _mm256_mul_ps,
    _mm256_permute_ps, _mm256_set_m128, _mm256_set1_ps, _mm256_setzero_ps, _mm256_shuffle_ps,
    _mm256_sqrt_ps, _mm256_sub_ps, _mm256_unpackhi_ps, _mm256_unpacklo_ps,
};
use std::ops::{Add, Div, Mul, Sub};

/// Eight f32 lanes. Private to this module and made only inside [`project_eights`], which
/// runs only on a CPU with AVX: that is what makes its operations' intrinsics sound. The
/// helpers below likewise are called from [`project_eights`] alone.
#[derive(Clone, Copy)]
struct F8(__m256);

/// The binary operators of [`F8`], each one AVX instruction.
macro_rules! lanes {
    ($trait:ident, $method:ident, $intrinsic:ident) => {
        impl $trait for F8 {
            type Output = F8;
            #[inline(always)]
            fn $method(self, other: F8) -> F8 {
                // SAFETY: an F8 exists only within project_eights, on a CPU with AVX.
                F8(unsafe { $intrinsic(self.0, other.0) })
            }
        }
    };
}
lanes!(Add, add, _mm256_add_ps);
lanes!(Sub, sub, _mm256_sub_ps);
lanes!(Mul, mul, _mm256_mul_ps);
lanes!(Div, div, _mm256_div_ps);

impl Lane for F8 {
    // SAFETY: [f32; 8] and __m256 are both 32 bytes, and any 32 bytes are a valid __m256.
    const ONE: F8 = F8(unsafe { std::mem::transmute::<[f32; 8], __m256>([1.0; 8]) });

    #[inline(always)]
    fn sqrt(self) -> F8 {
        // SAFETY: as for the operators.
        F8(unsafe { _mm256_sqrt_ps(self.0) })
    }

    /// `value` where `len2` > [`MIN_LENGTH_SQUARED`], else +0, as `Vec4::select` gives.
    #[inline(always)]
    fn where_directed(len2: F8, value: F8) -> F8 {
        // SAFETY: as for the operators.
        F8(unsafe {
            let directed = _mm256_cmp_ps::<_CMP_GT_OQ>(len2.0, _mm256_set1_ps(MIN_LENGTH_SQUARED));
            _mm256_and_ps(directed, value.0)
        })
    }
}

/// The vectors of `from` at the ends `at`: end j in the low half and end j + 4 in the high
/// half, for j = 0..4 (no closure and no array `map`: what the kernel calls must be inlined
/// into it, or its intrinsics are called as functions, three times slower).
///
/// # Safety
/// The CPU has AVX (as for the operators), and every index of `at` is within `from`'s array.
#[inline(always)]
unsafe fn pairs(from: *const Vec3A, at: &[u32; 8]) -> [__m256; 4] {
    let end = |k: usize| at[k] as usize;
    // SAFETY: guaranteed by the caller.
    unsafe {
        [
            _mm256_set_m128((*from.add(end(4))).into(), (*from.add(end(0))).into()),
            _mm256_set_m128((*from.add(end(5))).into(), (*from.add(end(1))).into()),
            _mm256_set_m128((*from.add(end(6))).into(), (*from.add(end(2))).into()),
            _mm256_set_m128((*from.add(end(7))).into(), (*from.add(end(3))).into()),
        ]
    }
}

/// The x, y and z components of four pairs of vectors ([`pairs`]): a 4 × 4 transpose within
/// each half.
#[inline(always)]
fn components(r: &[__m256; 4]) -> [F8; 3] {
    // SAFETY: as for the operators.
    unsafe {
        let (xy01, xy23) = (_mm256_unpacklo_ps(r[0], r[1]), _mm256_unpacklo_ps(r[2], r[3]));
        let (zw01, zw23) = (_mm256_unpackhi_ps(r[0], r[1]), _mm256_unpackhi_ps(r[2], r[3]));
        [
            F8(_mm256_shuffle_ps::<0x44>(xy01, xy23)),
            F8(_mm256_shuffle_ps::<0xEE>(xy01, xy23)),
            F8(_mm256_shuffle_ps::<0x44>(zw01, zw23)),
        ]
    }
}

/// d_j·m_j in the order of `Vec3A::dot`, (x x′ + y y′) + z z′.
#[inline(always)]
fn dots(d: &[F8; 3], m: &[F8; 3]) -> F8 {
    d[0] * m[0] + d[1] * m[1] + d[2] * m[2]
}

/// Lane `j` of each half of `s`, spread over its half.
#[inline(always)]
fn spread(s: F8, j: usize) -> __m256 {
    // SAFETY: as for the operators.
    unsafe {
        match j {
            0 => _mm256_permute_ps::<0x00>(s.0),
            1 => _mm256_permute_ps::<0x55>(s.0),
            2 => _mm256_permute_ps::<0xAA>(s.0),
            _ => _mm256_permute_ps::<0xFF>(s.0),
        }
    }
}

/// The low and high halves of `v`.
#[inline(always)]
fn halves(v: __m256) -> (Vec3A, Vec3A) {
    // SAFETY: as for the operators.
    let (lo, hi): (__m128, __m128) =
        unsafe { (_mm256_castps256_ps128(v), _mm256_extractf128_ps::<1>(v)) };
    (lo.into(), hi.into())
}

/// A group's eight rest lengths and weights (`rest`, `gk` = k h², `gd` = d_s h, `ga` = w_a q,
/// `gb` = w_b q), as in [`crate::sim::forces::kernels::Weights`].
pub(crate) type Constants<'a> = [&'a [[f32; 8]]; 5];

/// Projects the springs `ends` (groups of eight) of one independent batch once, on node
/// displacements `u` from `base`, `u_prev` those at the start of the sub-step (read when
/// `DAMPED`), as [`crate::sim::forces::kernels::project_springs`] does four at a time.
///
/// # Safety
/// The CPU has AVX. Every end index is below the lengths of `base`, `u_prev` and the array
/// `u` points to, and no two springs of `ends` share a node; nothing else accesses `u`
/// meanwhile.
#[target_feature(enable = "avx")]
pub(crate) unsafe fn project_eights<const DAMPED: bool>(
    ends: (&[[u32; 8]], &[[u32; 8]]),
    [rest, gk, gd, ga, gb]: Constants,
    (base, u_prev): (&[Vec3A], &[Vec3A]),
    u: *mut Vec3A,
) {
    // SAFETY: `c` is eight f32 in a row.
    let load = |c: &[f32; 8]| F8(unsafe { _mm256_loadu_ps(c.as_ptr()) });
    let zero = F8(_mm256_setzero_ps());
    let groups =
        ends.0.iter().zip(ends.1).zip(rest.iter().zip(gk).zip(gd.iter().zip(ga.iter().zip(gb))));
    for ((a8, b8), ((rest8, gk8), (gd8, (ga8, gb8)))) in groups {
        // SAFETY: the indices are in bounds and the nodes distinct (the caller's promise), so
        // every read and write below touches a node of this group alone.
        let (ua, ub) = unsafe { (pairs(u, a8), pairs(u, b8)) };
        // SAFETY: as above.
        let (ba, bb) = unsafe { (pairs(base.as_ptr(), a8), pairs(base.as_ptr(), b8)) };
        let mut d = [zero.0; 4];
        for j in 0..4 {
            d[j] = ((F8(ba[j]) - F8(bb[j])) + (F8(ua[j]) - F8(ub[j]))).0;
        }
        let t = components(&d);
        let moved = if DAMPED {
            // SAFETY: as above.
            let (pa, pb) = unsafe { (pairs(u_prev.as_ptr(), a8), pairs(u_prev.as_ptr(), b8)) };
            let mut m = [zero.0; 4];
            for j in 0..4 {
                m[j] = ((F8(ua[j]) - F8(pa[j])) - (F8(ub[j]) - F8(pb[j]))).0;
            }
            dots(&t, &components(&m))
        } else {
            zero
        };
        let s = projection::<F8, DAMPED>(dots(&t, &t), moved, load(rest8), load(gk8), load(gd8));
        let (sa, sb) = (load(ga8) * s, load(gb8) * s);
        for j in 0..4 {
            let new_a = halves((F8(ua[j]) + F8(d[j]) * F8(spread(sa, j))).0);
            let new_b = halves((F8(ub[j]) - F8(d[j]) * F8(spread(sb, j))).0);
            // SAFETY: as above.
            unsafe {
                *u.add(a8[j] as usize) = new_a.0;
                *u.add(a8[j + 4] as usize) = new_a.1;
                *u.add(b8[j] as usize) = new_b.0;
                *u.add(b8[j + 4] as usize) = new_b.1;
            }
        }
    }
}
