//! The inner loops of the solvers over colour batches, with unchecked node indexing.
//!
//! springmesh-core has `unsafe` code in three modules, all solver kernels: this one (node
//! arrays indexed without bounds checks, and written from several threads through
//! `Shared`), `crate::sim::columns` (calling a loop built for AVX once the CPU is known to
//! have it) and `crate::sim::forces::eights` (this module's projection eight springs at a
//! time, in AVX registers). Every other module denies it (the workspace's `unsafe_code` lint).
//!
//! Both loops walk the springs batch by batch ([`crate::sim::coloring`]). The springs of an
//! independent batch share no node, so four are processed at once: their four lengths come
//! from one 4 × 4 transpose, one vector square root and one vector division (the two slowest
//! instructions of the loop, not pipelined), and their four updates cannot collide. For the
//! same reason the groups of a large independent batch can be split between threads
//! ([`Threads::All`]): every thread writes only nodes that no other spring of the batch
//! touches.
//!
//! Node arrays are indexed without per-access bounds checks. On the 128 × 128 benchmark cloth
//! those checks (16 per group of four springs: two ends, read and write, two arrays) took half
//! of the loop's time. Instead, each loop asserts once that the node arrays it indexes are at
//! least `SpringData::end_bound` long; `SpringData` records that bound when it is built and
//! its end indices are private and never change, so every index is below it.
//!
//! The explicit force pass leaves the springs that lie in bands of one index offset (a grid
//! numbered row by row) to [`crate::sim::forces::bands`], which walks them without indices,
//! and takes only the rest of each batch.
//!
//! The formulas are those of `crate::sim::forces::spring`, called on four springs at once
//! (`Vec4`) and on the left-overs one at a time (`f32`); a four-spring group computes exactly
//! what four single springs would, operation for operation, and threads split batches only at
//! group boundaries, so the result does not depend on how springs fall into groups or on the
//! number of threads.
//!
//! ## Measured and left out
//!
//! On the 128 × 128 benchmark cloth (Xpbd, 5 sub-steps; the same binary built both ways and
//! timed in turns, as single runs on a shared machine vary by 10%), each of these was slower
//! or no faster than the loops here, and is recorded so that it is not tried again blindly:
//! reciprocal square root with a Newton step instead of the square root and division (+10%);
//! software prefetch of the ends eight groups ahead (+25%); each node's x0 and u side by side
//! in one array (+10%, the copies in and out included); a batch's constants as one array of
//! four-spring records instead of one array each (+3%); working out one group while applying
//! the last one's corrections (+20%: the pending group no longer fits in registers); the whole
//! crate built for AVX2 and FMA (no change); colours walked tile by tile of 512 to 2,048
//! nodes, so that a tile's nodes stay in the first-level cache (no change: they are in the
//! second anyway). What did help was reading fewer bytes per spring (the ends' start
//! positions from the nodes' array instead of a per-spring offset: −8%).
//!
//! On the converted blob (491 nodes, 2,696 springs in 16 colours, 8 sub-steps; two groups of
//! four as eight lanes, built for AVX through [`crate::sim::columns`]): an eight-lane `[f32; 8]`
//! stayed scalar code (the compiler did not vectorize it), and the blob's frame took 170
//! against 148 µs. The loop is bound by its instructions per spring (gathering and scattering
//! the ends), not by the square root and division alone. Written out in AVX intrinsics
//! instead (`crate::sim::forces::eights`: one transpose, square root, division and set of
//! multiplies for eight springs, the ends still read and written one by one), the batches
//! that stay on one thread take eight at a time when the CPU has AVX.
#![allow(unsafe_code)]

use crate::Integrator;
use crate::sim::columns::components;
use crate::sim::data::{Batch, SpringData};
use crate::sim::forces::bands::{BandScratch, StripeWork};
use crate::sim::forces::spring::{force_over_length, projection, weights};
use crate::sim::state::State;
use crate::sim::threads::Threads;
#[cfg(target_arch = "x86_64")]
use crate::sim::{columns::Isa, forces::eights::project_eights};
use glam::{DVec3, Mat4, Vec3A, Vec4};
use rayon::prelude::*;
use std::ops::Range;

/// Independent batches smaller than this many springs are not split between threads: the
/// fork-join of every batch of every sub-step would cost more than it saves. Measured on 2
/// cores: at 4096, the 128 × 128 cloth (colours of about 7,500 springs) stepped slower with
/// two threads than with one (Xpbd 1.82 ms against 1.60); at 16,384 it stays on one, and the
/// 226k-spring converted sphere (colours of about 16,000) still gains (18.2 ms against 19.4).
const PARALLEL_MIN_SPRINGS: usize = 16384;

/// Groups of four springs per task when a batch is split between threads.
const GROUPS_PER_TASK: usize = 256;

/// A node array written by several threads at once, each at nodes no other thread touches.
#[derive(Clone, Copy)]
struct Shared(*mut Vec3A);

// SAFETY: threads only write through a `Shared` at the nodes of the springs of their own
// groups, and the springs of an independent batch share no node (coloring.rs makes them so;
// compile.rs checks it with a debug assertion whenever a model compiles), so no element is
// accessed by two threads.
unsafe impl Send for Shared {}
// SAFETY: as above.
unsafe impl Sync for Shared {}

impl Shared {
    /// # Safety
    /// `i` is below the array's length and no other thread accesses element `i` meanwhile.
    #[inline(always)]
    unsafe fn get(self, i: usize) -> Vec3A {
        // SAFETY: guaranteed by the caller.
        unsafe { *self.0.add(i) }
    }

    /// # Safety
    /// As for [`Shared::get`].
    #[inline(always)]
    unsafe fn set(self, i: usize, v: Vec3A) {
        // SAFETY: guaranteed by the caller.
        unsafe { *self.0.add(i) = v }
    }

    /// # Safety
    /// As for [`Shared::get`].
    #[inline(always)]
    unsafe fn add(self, i: usize, v: Vec3A) {
        // SAFETY: guaranteed by the caller.
        unsafe { *self.0.add(i) += v }
    }

    /// # Safety
    /// As for [`Shared::get`].
    #[inline(always)]
    unsafe fn sub(self, i: usize, v: Vec3A) {
        // SAFETY: guaranteed by the caller.
        unsafe { *self.0.add(i) -= v }
    }
}

/// |d_j|² of four vectors: a 4 × 4 transpose and three multiply-adds.
#[inline(always)]
pub(crate) fn squared_lengths(d: &[Vec3A; 4]) -> Vec4 {
    let t = components(d);
    dots(&t, &t)
}

/// d_j·m_j of four pairs of vectors as components ([`components`]): each in the order of
/// `Vec3A::dot`, (x x′ + y y′) + z z′, so that four at once give what one at a time does.
#[inline(always)]
fn dots(d: &Mat4, m: &Mat4) -> Vec4 {
    d.x_axis * m.x_axis + d.y_axis * m.y_axis + d.z_axis * m.z_axis
}

/// The first `groups` groups of four of `v` (`v` holds at least that many).
fn quads<T>(v: &[T], groups: usize) -> &[[T; 4]] {
    &v.as_chunks::<4>().0[..groups]
}

/// True when the groups of an independent batch of `springs` springs go to all threads.
fn split(threads: Threads, springs: usize) -> bool {
    threads == Threads::All && springs >= PARALLEL_MIN_SPRINGS
}

/// The threads worth using for `springs` under `integrator`: [`Threads::All`] only when asked
/// for, when there is more than one thread, and when the work large enough to be split holds
/// at least half of the springs: the batches' springs the integrator takes from them (for the
/// explicit integrators not those in bands, which run on one thread) and, under Xpbd, the
/// lanes of the long bands' stripes it splits ([`crate::sim::forces::bands`]); otherwise a
/// step does not even move to the pool. Its wake-up alone would make a small model slower than
/// on one thread, and so did splitting a few batches while most of the work stays on one
/// thread: the 226k-spring converted sphere, whose stripes of long bands hold 83% of its
/// springs, stepped in 17.9 ms on two threads against 16.0 ms on one before its stripes were
/// split too.
pub(crate) fn worth(threads: Threads, springs: &SpringData, integrator: Integrator) -> Threads {
    let parts = rayon::current_num_threads();
    let (walked, striped) = match integrator {
        Integrator::Xpbd => {
            (Batch::unstriped as fn(&Batch) -> Range<usize>, springs.bands.split_lanes(parts))
        }
        Integrator::Explicit | Integrator::Adaptive => {
            (Batch::unbanded as fn(&Batch) -> Range<usize>, 0)
        }
    };
    let batched: usize = springs
        .batches
        .iter()
        .filter(|b| b.independent)
        .map(|b| walked(b).len())
        .filter(|&walked| split(threads, walked))
        .sum();
    let splittable = batched + if threads == Threads::All { striped } else { 0 };
    let pays = splittable > 0 && 2 * splittable >= springs.len();
    if pays && parts > 1 { Threads::All } else { Threads::One }
}

/// Adds every spring's force at state `s` to `forces` (the force pass of the explicit
/// integrators): the springs in bands through [`crate::sim::forces::bands`], the others batch
/// by batch here.
pub(crate) fn spring_forces(
    springs: &SpringData,
    s: &State,
    (forces, scratch): (&mut [Vec3A], &mut BandScratch),
    threads: Threads,
) {
    let bound = springs.end_bound();
    assert!(bound <= s.pos.len() && bound <= s.vel.len() && bound <= forces.len());
    let out = Shared(forces.as_mut_ptr());
    if springs.has_damping {
        spring_forces_in::<true>(springs, s, out, threads);
    } else {
        spring_forces_in::<false>(springs, s, out, threads);
    }
    springs.bands.add_forces((&s.pos, &s.vel), springs.has_damping, scratch, forces);
}

/// [`spring_forces`], with the damping term compiled in or out.
fn spring_forces_in<const DAMPED: bool>(
    springs: &SpringData,
    s: &State,
    out: Shared,
    threads: Threads,
) {
    type Group<'a> = ((&'a [u32; 4], &'a [u32; 4]), ((&'a [f32; 4], &'a [f32; 4]), &'a [f32; 4]));
    // Local slices: writes through `out` cannot change them, so they stay in registers.
    let (pos, vel) = (&s.pos[..], &s.vel[..]);
    let group = |((a4, b4), ((rest4, k4), damping4)): Group| {
        let (a4, b4) = (a4.map(|n| n as usize), b4.map(|n| n as usize));
        // SAFETY: every end index is < end_bound <= the lengths of pos, vel and forces
        // (asserted in spring_forces); the four springs share no node with each other or with
        // any other spring of the batch, so no other write touches these nodes.
        let d = unsafe {
            [0, 1, 2, 3].map(|j| *s.pos.get_unchecked(b4[j]) - *s.pos.get_unchecked(a4[j]))
        };
        let closing = if DAMPED {
            // SAFETY: as above.
            Vec4::from(unsafe {
                [0, 1, 2, 3]
                    .map(|j| (*s.vel.get_unchecked(b4[j]) - *s.vel.get_unchecked(a4[j])).dot(d[j]))
            })
        } else {
            Vec4::ZERO
        };
        let (k, rest, damping) = (Vec4::from(*k4), Vec4::from(*rest4), Vec4::from(*damping4));
        let f = force_over_length::<Vec4, DAMPED>(squared_lengths(&d), closing, k, rest, damping)
            .to_array();
        for j in 0..4 {
            let force = d[j] * f[j];
            // SAFETY: as above.
            unsafe {
                out.add(a4[j], force);
                out.sub(b4[j], force);
            }
        }
    };
    for batch in &springs.batches {
        let r = batch.unbanded();
        let (a, b) = (&springs.a()[r.clone()], &springs.b()[r.clone()]);
        let (rest, k) = (&springs.rest[r.clone()], &springs.stiffness[r.clone()]);
        let damping = &springs.damping[r];
        let groups = if batch.independent { a.len() / 4 } else { 0 };
        let (a4, b4) = (quads(a, groups), quads(b, groups));
        let (rest4, k4, damping4) = (quads(rest, groups), quads(k, groups), quads(damping, groups));
        if split(threads, a.len()) {
            let ends = a4.par_iter().zip(b4);
            ends.zip(rest4.par_iter().zip(k4).zip(damping4))
                .with_min_len(GROUPS_PER_TASK)
                .for_each(group);
        } else {
            a4.iter().zip(b4).zip(rest4.iter().zip(k4).zip(damping4)).for_each(group);
        }
        for i in 4 * groups..a.len() {
            let (ai, bi) = (a[i] as usize, b[i] as usize);
            let d = pos[bi] - pos[ai];
            let closing = if DAMPED { (vel[bi] - vel[ai]).dot(d) } else { 0.0 };
            let len2 = d.length_squared();
            let force =
                d * force_over_length::<f32, DAMPED>(len2, closing, k[i], rest[i], damping[i]);
            // SAFETY: ai, bi < end_bound <= forces' length; left-over springs run on this
            // thread alone, after the batch's groups have finished.
            unsafe {
                out.add(ai, force);
                out.sub(bi, force);
            }
        }
    }
}

/// The per-spring constants of an Xpbd sub-step h (see [`crate::sim::integrators::xpbd`]), in solver order:
/// `ga`, `gb` = w_a q, w_b q; `gc` = q = 1 / ((k h² + d h)(w_a + w_b) + 1); `gk` = k h²;
/// `gd` = d h.
#[derive(Clone, Copy)]
pub(crate) struct Weights<'a> {
    pub ga: &'a [f32],
    pub gb: &'a [f32],
    pub gc: &'a [f32],
    pub gk: &'a [f32],
    pub gd: &'a [f32],
}

/// The per-spring Xpbd weights for one sub-step size, owned ([`Weights`] borrows them).
#[derive(Clone, Debug, Default)]
pub(crate) struct WeightColumns {
    ga: Vec<f32>,
    gb: Vec<f32>,
    gc: Vec<f32>,
    gk: Vec<f32>,
    gd: Vec<f32>,
}

impl WeightColumns {
    /// Every spring's [`weights`] for sub-step `h`, with the nodes' inverse masses `w`.
    pub fn fill(&mut self, springs: &SpringData, w: &[f32], h: f32) {
        let columns = [&mut self.ga, &mut self.gb, &mut self.gc, &mut self.gk, &mut self.gd];
        for g in columns {
            g.clear();
        }
        let constants = springs.stiffness.iter().zip(&springs.damping);
        for ((&a, &b), (&k, &damping)) in springs.a().iter().zip(springs.b()).zip(constants) {
            let g = weights(k, damping, (w[a as usize], w[b as usize]), h);
            self.ga.push(g.ga);
            self.gb.push(g.gb);
            self.gc.push(g.gc);
            self.gk.push(g.gk);
            self.gd.push(g.gd);
        }
    }

    /// Springs they are for.
    pub fn len(&self) -> usize {
        self.ga.len()
    }

    pub fn weights(&self) -> Weights<'_> {
        Weights { ga: &self.ga, gb: &self.gb, gc: &self.gc, gk: &self.gk, gd: &self.gd }
    }
}

/// One Xpbd constraint iteration over every spring on node displacements `u`: the springs of
/// long bands stripe by stripe ([`crate::sim::forces::bands`], with `stripes`), then the rest
/// batch by batch, in order:
/// spring s's vector is `(base[a] − base[b]) + (u[a] − u[b])` (see
/// [`crate::sim::integrators::xpbd`]), and `u_prev` holds
/// the displacements at the start of the sub-step (for the damping term, which is compiled
/// out when no spring has damping).
pub(crate) fn project_springs(
    springs: &SpringData,
    base: &[Vec3A],
    (weights, mut stripes): (Weights, StripeWork),
    u_prev: &[Vec3A],
    u: &mut [Vec3A],
    threads: Threads,
) {
    let (n, bound) = (springs.len(), springs.end_bound());
    let Weights { ga, gb, gk, gd, .. } = weights;
    assert!(bound <= u.len() && bound <= u_prev.len() && bound <= base.len());
    assert!(ga.len() == n && gb.len() == n && gk.len() == n && gd.len() == n);
    if springs.bands.has_long() {
        stripes.project(&springs.bands, springs.has_damping, (u_prev, u), threads);
    }
    #[cfg(target_arch = "x86_64")]
    let eights = Isa::detect() == Isa::Avx;
    #[cfg(not(target_arch = "x86_64"))]
    let eights = false;
    if springs.has_damping {
        project_springs_in::<true>(springs, base, weights, (u_prev, u), (threads, eights));
    } else {
        project_springs_in::<false>(springs, base, weights, (u_prev, u), (threads, eights));
    }
}

/// [`project_springs`], with the damping term compiled in or out, the batches that stay on
/// one thread eight springs at a time when `eights` asks and the CPU has AVX
/// ([`crate::sim::forces::eights`]).
fn project_springs_in<const DAMPED: bool>(
    springs: &SpringData,
    base: &[Vec3A],
    weights: Weights,
    (u_prev, u): (&[Vec3A], &mut [Vec3A]),
    (threads, eights): (Threads, bool),
) {
    let Weights { ga, gb, gk, gd, .. } = weights;
    let p = Shared(u.as_mut_ptr());
    type Ends<'a> = (&'a [u32; 4], &'a [u32; 4]);
    type Constants<'a> =
        ((&'a [f32; 4], &'a [f32; 4]), (&'a [f32; 4], (&'a [f32; 4], &'a [f32; 4])));
    let group = |((a4, b4), ((rest4, gk4), (gd4, (ga4, gb4)))): (Ends, Constants)| {
        let (a4, b4) = (a4.map(|n| n as usize), b4.map(|n| n as usize));
        // The ends' displacements, read once: the group's eight ends are distinct nodes, so
        // they are still these when the group writes them back.
        // SAFETY: every end index is < end_bound <= u.len(), u_prev.len() and base.len()
        // (asserted in project_springs); the four springs share no node with each other or
        // with any other spring of the batch, so no other access touches these nodes.
        let (ua, ub) = unsafe { (a4.map(|a| p.get(a)), b4.map(|b| p.get(b))) };
        // SAFETY: as above.
        let d = unsafe {
            [0, 1, 2, 3].map(|j| {
                (*base.get_unchecked(a4[j]) - *base.get_unchecked(b4[j])) + (ua[j] - ub[j])
            })
        };
        let t = components(&d);
        let moved = if DAMPED {
            // SAFETY: as above.
            let m = unsafe {
                [0, 1, 2, 3].map(|j| {
                    (ua[j] - *u_prev.get_unchecked(a4[j])) - (ub[j] - *u_prev.get_unchecked(b4[j]))
                })
            };
            dots(&t, &components(&m))
        } else {
            Vec4::ZERO
        };
        // s = −(k h² C + d h ∇C·Δx)/|d|, so that w Δλ n = d·(g·s): one division.
        let (rest, gk, gd) = (Vec4::from(*rest4), Vec4::from(*gk4), Vec4::from(*gd4));
        let s = projection::<Vec4, DAMPED>(dots(&t, &t), moved, rest, gk, gd);
        let (sa, sb) = ((Vec4::from(*ga4) * s).to_array(), (Vec4::from(*gb4) * s).to_array());
        for j in 0..4 {
            // SAFETY: as above.
            unsafe {
                p.set(a4[j], ua[j] + d[j] * sa[j]);
                p.set(b4[j], ub[j] - d[j] * sb[j]);
            }
        }
    };
    for batch in &springs.batches {
        #[allow(unused_mut)] // Only x86-64 has the eight-lane loop.
        let mut r = batch.unstriped();
        #[cfg(target_arch = "x86_64")]
        if eights && batch.independent && !split(threads, r.len()) {
            r.start += project_by_eights::<DAMPED>(springs, r.clone(), (base, u_prev), weights, p);
        }
        let (a, b) = (&springs.a()[r.clone()], &springs.b()[r.clone()]);
        let (rest, ga, gb) = (&springs.rest[r.clone()], &ga[r.clone()], &gb[r.clone()]);
        let (gk, gd) = (&gk[r.clone()], &gd[r]);
        let groups = if batch.independent { a.len() / 4 } else { 0 };
        let ends = (quads(a, groups), quads(b, groups));
        let (rest4, ga4, gb4) = (quads(rest, groups), quads(ga, groups), quads(gb, groups));
        let (gk4, gd4) = (quads(gk, groups), quads(gd, groups));
        if split(threads, a.len()) {
            let consts = rest4.par_iter().zip(gk4).zip(gd4.par_iter().zip(ga4.par_iter().zip(gb4)));
            let all = ends.0.par_iter().zip(ends.1).zip(consts);
            all.with_min_len(GROUPS_PER_TASK).for_each(group);
        } else {
            let consts = rest4.iter().zip(gk4).zip(gd4.iter().zip(ga4.iter().zip(gb4)));
            ends.0.iter().zip(ends.1).zip(consts).for_each(group);
        }
        for i in 4 * groups..a.len() {
            let (ai, bi) = (a[i] as usize, b[i] as usize);
            // SAFETY: ai, bi < end_bound <= u.len(), u_prev.len() and base.len(); left-over
            // springs run on this thread alone, after the batch's groups have finished.
            unsafe {
                let d =
                    (*base.get_unchecked(ai) - *base.get_unchecked(bi)) + (p.get(ai) - p.get(bi));
                let moved = (p.get(ai) - *u_prev.get_unchecked(ai))
                    - (p.get(bi) - *u_prev.get_unchecked(bi));
                let s = correction::<DAMPED>(d, moved, rest[i], gk[i], gd[i]);
                p.add(ai, d * (ga[i] * s));
                p.sub(bi, d * (gb[i] * s));
            }
        }
    }
}

/// Projects the first springs of the independent batch's range `r` eight at a time
/// ([`crate::sim::forces::eights`]) when the CPU has AVX; returns how many (a multiple of
/// eight, none without AVX).
#[cfg(target_arch = "x86_64")]
fn project_by_eights<const DAMPED: bool>(
    springs: &SpringData,
    r: Range<usize>,
    (base, u_prev): (&[Vec3A], &[Vec3A]),
    Weights { ga, gb, gk, gd, .. }: Weights,
    u: Shared,
) -> usize {
    if Isa::detect() != Isa::Avx {
        return 0;
    }
    fn eights<T>(v: &[T], r: Range<usize>) -> &[[T; 8]] {
        v[r].as_chunks::<8>().0
    }
    let ends = (eights(springs.a(), r.clone()), eights(springs.b(), r.clone()));
    let [rest, gk, gd, ga, gb] = [&springs.rest[..], gk, gd, ga, gb].map(|c| eights(c, r.clone()));
    let constants = [rest, gk, gd, ga, gb];
    // SAFETY: `Isa::detect` found AVX (above); every end index is < end_bound <= the lengths of u,
    // u_prev and base (asserted in project_springs); the batch is independent, so its springs
    // share no node, and this thread alone works on it.
    unsafe { project_eights::<DAMPED>(ends, constants, (base, u_prev), u.0) };
    8 * ends.0.len()
}

/// s of one spring along `d` whose ends moved apart by `moved` in the sub-step
/// ([`projection`]; `gk` = k h², `gd` = d h), so that w Δλ n = d·(g·s).
#[inline(always)]
fn correction<const DAMPED: bool>(d: Vec3A, moved: Vec3A, rest: f32, gk: f32, gd: f32) -> f32 {
    let moved = if DAMPED { d.dot(moved) } else { 0.0 };
    projection::<f32, DAMPED>(d.length_squared(), moved, rest, gk, gd)
}

/// [`project_springs`] one spring at a time on this thread, in the same order, returning also
/// the angular momentum (times h) that the corrections leak ([`crate::sim::integrators::spin`]):
/// Σ (x₀_a − x₀_b) × Δλ n, where x₀ = base + `u_old` is where the sub-step began and
/// Δλ n = s d q is the spring's impulse times h.
pub(crate) fn project_springs_leaking(
    springs: &SpringData,
    base: &[Vec3A],
    Weights { ga, gb, gc, gk, gd }: Weights,
    u_old: &[Vec3A],
    u: &mut [Vec3A],
) -> DVec3 {
    let ends = springs.a().iter().zip(springs.b()).zip(&springs.rest);
    let constants = ga.iter().zip(gb.iter().zip(gc)).zip(gk.iter().zip(gd));
    let mut leak = DVec3::ZERO;
    for (((&a, &b), &rest), ((&ga, (&gb, &gc)), (&gk, &gd))) in ends.zip(constants) {
        let (a, b) = (a as usize, b as usize);
        let offset = base[a] - base[b];
        let d = offset + (u[a] - u[b]);
        let moved = (u[a] - u_old[a]) - (u[b] - u_old[b]);
        let s = if springs.has_damping {
            correction::<true>(d, moved, rest, gk, gd)
        } else {
            correction::<false>(d, moved, rest, gk, gd)
        };
        u[a] += d * (ga * s);
        u[b] -= d * (gb * s);
        let start = offset + (u_old[a] - u_old[b]);
        leak += start.cross(d * (gc * s)).as_dvec3();
    }
    leak
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::columns::{Columns, Isa};
    use crate::sim::data::Compiled;
    use crate::sim::data::LONG_OFFSET;
    use crate::sim::forces::bands::Stripes;
    use crate::sim::forces::spring::reference_forces;
    use crate::sim::integrators::spin::FreeBody;
    use crate::{Node, NodeId, Spring, SpringId, SpringKind, SpringModel};
    use glam::Vec3;

    /// A model spring as (a, b, rest, k, damping), for [`reference_forces`].
    fn constants(s: Spring) -> (u32, u32, f32, f32, f32) {
        (s.a.0, s.b.0, s.rest_length, s.stiffness, s.damping)
    }

    /// Twelve nodes on a helix ([`twisted_of`]).
    fn twisted() -> (Compiled, Vec<Vec3A>, Vec<Vec3A>, Vec<Vec3A>) {
        twisted_of(12)
    }

    /// `n` nodes on a helix, each joined to the next three: springs of several colours, all
    /// stretched or squeezed by a displacement that also turns the model.
    fn twisted_of(n: usize) -> (Compiled, Vec<Vec3A>, Vec<Vec3A>, Vec<Vec3A>) {
        let mut m = SpringModel::default();
        let at = |i: usize| {
            let t = i as f32 * 0.7;
            Vec3::new(t.cos(), 0.2 * t, t.sin())
        };
        for i in 0..n {
            m.nodes.push(Node { position: at(i), mass: 0.5 + 0.1 * i as f32 });
        }
        for i in 0..n {
            for j in i + 1..(i + 4).min(n) {
                let rest = 0.9 * at(i).distance(at(j));
                m.springs.push(
                    Spring::new(
                        NodeId(i as u32),
                        NodeId(j as u32),
                        rest,
                        500.0,
                        SpringKind::Stretch,
                    )
                    .with_damping(0.5 * (i % 2) as f32),
                );
            }
        }
        let c = Compiled::new(&m);
        let base: Vec<Vec3A> = (0..n).map(|i| at(i).into()).collect();
        let u_old: Vec<Vec3A> = (0..n).map(|i| Vec3A::new(0.01 * i as f32, 0.0, -0.005)).collect();
        let u: Vec<Vec3A> =
            u_old.iter().zip(&base).map(|(&u, &x)| u + Vec3A::Y.cross(x) * 0.05).collect();
        (c, base, u_old, u)
    }

    #[test]
    fn banded_and_batched_springs_each_add_their_force_also_after_breaks() {
        // A 70 × 70 grid numbered row by row (its springs go into bands: short ones of offsets
        // 1 and 2, long ones of 69, 70, 71 and 140), plus 40 springs between scattered nodes
        // (which stay in the colour batches); damped, all stretched or squeezed and moving.
        let n = 70;
        let mut m = SpringModel::default();
        let at = |k: u32| {
            let (i, j) = ((k % n) as f32, (k / n) as f32);
            Vec3::new(0.05 * i, 0.01 * (0.7 * i).sin() * (0.3 * j).cos(), 0.05 * j)
        };
        for k in 0..n * n {
            m.nodes.push(Node { position: at(k), mass: 0.1 });
        }
        let mut add = |a: u32, b: u32| {
            let rest = 0.95 * at(a).distance(at(b));
            let spring =
                Spring::new(NodeId(a), NodeId(b), rest, 300.0 + a as f32, SpringKind::Manual);
            m.springs.push(spring.with_damping(0.01 * (b % 4) as f32));
        };
        for k in 0..n * n {
            let (i, j) = (k % n, k / n);
            for (di, dj) in [(1, 0), (0, 1), (1, 1), (2, 0), (0, 2)] {
                if i + di < n && j + dj < n {
                    add(k, k + di + dj * n);
                }
            }
            if i >= 1 && j + 1 < n {
                add(k, k - 1 + n);
            }
        }
        for k in 0..40 {
            add(k * 97 % 4900, (k * 97 + 13 * k + 500) % 4900);
        }
        let mut c = Compiled::new(&m);
        let banded: usize = c.springs.batches.iter().map(|b| b.banded).sum();
        assert!(banded > 28000 && banded < c.springs.len(), "{banded} of {}", c.springs.len());
        // Each batch ends with its springs of short bands, then those of long bands.
        let layout = |c: &Compiled| {
            let offset = |i: usize| c.springs.a()[i].abs_diff(c.springs.b()[i]) as usize;
            let mut striped = 0;
            for batch in &c.springs.batches {
                let (short, long) =
                    (batch.unbanded().end..batch.unstriped().end, batch.unstriped());
                assert!(short.clone().all(|i| offset(i) < LONG_OFFSET));
                assert!((long.end..batch.range.end).all(|i| offset(i) >= LONG_OFFSET));
                striped += batch.striped;
            }
            striped
        };
        assert_eq!(layout(&c), 2 * 69 * 69 + 70 * 69 + 70 * 68);
        let state = State {
            pos: (0..n * n).map(|k| Vec3A::from(at(k)) * 1.02).collect(),
            vel: (0..n * n).map(|k| Vec3A::new(0.1 * (k % 5) as f32, 0.0, -0.05)).collect(),
        };
        let check = |c: &Compiled, gone: &[SpringId]| {
            let kept = |(id, _): &(usize, Spring)| !gone.contains(&SpringId(*id as u32));
            let springs = m.springs.iter().enumerate().filter(kept).map(|(_, s)| s);
            let truth = reference_forces(springs.map(constants), &state.pos, &state.vel);
            let mut forces = vec![Vec3A::ZERO; state.pos.len()];
            let mut scratch = BandScratch::default();
            spring_forces(&c.springs, &state, (&mut forces, &mut scratch), Threads::One);
            for (i, (f, t)) in forces.iter().zip(&truth).enumerate() {
                assert!((f.as_dvec3() - *t).length() < 1e-3, "node {i}: {f} vs {t}");
            }
        };
        check(&c, &[]);
        // Break the first spring of each batch and the last (banded where the batch has bands).
        let mut gone: Vec<usize> =
            c.springs.batches.iter().flat_map(|b| [b.range.start, b.range.end - 1]).collect();
        gone.dedup();
        let ids: Vec<SpringId> = gone.iter().map(|&i| c.springs.model_id[i]).collect();
        let tails = c.springs.batches.iter().map(|b| b.unstriped().end..b.range.end);
        let long_gone = tails.flat_map(|t| gone.iter().filter(move |&i| t.contains(i)));
        let striped_left = layout(&c) - long_gone.count();
        c.springs.remove(&gone);
        assert_eq!(c.springs.len(), m.springs.len() - gone.len());
        assert_eq!(layout(&c), striped_left);
        check(&c, &ids);
    }

    #[test]
    fn only_batches_of_16384_springs_or_more_go_to_the_threads() {
        // `pairs` springs that share no node: one colour, one batch of that many.
        let disjoint = |pairs: u32| {
            let mut m = SpringModel::default();
            for i in 0..2 * pairs {
                m.nodes.push(Node { position: Vec3::new(i as f32, 0.0, 0.0), mass: 1.0 });
            }
            for i in 0..pairs {
                let (a, b) = (NodeId(2 * i), NodeId(2 * i + 1));
                m.springs.push(Spring::new(a, b, 1.0, 10.0, SpringKind::Stretch));
            }
            Compiled::new(&m)
        };
        let (small, large) = (disjoint(16383), disjoint(16384));
        assert_eq!(worth(Threads::All, &small.springs, Integrator::Xpbd), Threads::One);
        assert_eq!(worth(Threads::One, &large.springs, Integrator::Xpbd), Threads::One);
        let pool = if rayon::current_num_threads() > 1 { Threads::All } else { Threads::One };
        assert_eq!(worth(Threads::All, &large.springs, Integrator::Xpbd), pool);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// Any pattern of springs — dense or sparse runs at short and long offsets, constants of
        /// zero included, some of them broken — gives each spring its force, through bands or
        /// batches.
        #[test]
        fn any_spring_pattern_gives_each_spring_its_force(seed in 1u64.., nodes in 300usize..900, density in 0.3f32..1.0) {
            let mut state = seed;
            let mut next = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state % 1_000_000) as f32 / 1_000_000.0
            };
            let mut m = SpringModel::default();
            for i in 0..nodes {
                let position = Vec3::new(0.1 * i as f32, next() * 0.1, next() * 0.1);
                m.nodes.push(Node { position, mass: 0.01 + next() });
            }
            for o in [1, 2, 7, 64, 65, 131] {
                for i in 0..nodes.saturating_sub(o) {
                    if next() < density {
                        let draws = [next(), next(), next(), next(), next(), next()];
                        let constant = |x: f32, zero: f32| if zero < 0.1 { 0.0 } else { x };
                        let k = constant(100.0 * draws[0], draws[1]);
                        let rest = constant(0.2 * draws[2], draws[3]);
                        let damping = constant(draws[4], draws[5]);
                        let spring = Spring::new(NodeId(i as u32), NodeId((i + o) as u32), rest, k, SpringKind::Manual);
                        m.springs.push(spring.with_damping(damping));
                    }
                }
            }
            let mut c = Compiled::new(&m);
            let state = State {
                pos: m.nodes.positions().iter().map(|&p| Vec3A::from(p) * 1.01).collect(),
                vel: (0..nodes).map(|_| Vec3A::new(next() - 0.5, next() - 0.5, 0.0)).collect(),
            };
            let gone: Vec<usize> = (0..c.springs.len()).filter(|_| next() < 0.05).collect();
            let ids: Vec<SpringId> = gone.iter().map(|&i| c.springs.model_id[i]).collect();
            c.springs.remove(&gone);
            let kept = m.springs.iter().enumerate().filter(|(id, _)| !ids.contains(&SpringId(*id as u32)));
            let truth = reference_forces(kept.map(|(_, s)| constants(s)), &state.pos, &state.vel);
            let mut forces = vec![Vec3A::ZERO; nodes];
            let mut scratch = BandScratch::default();
            spring_forces(&c.springs, &state, (&mut forces, &mut scratch), Threads::One);
            for (i, (f, t)) in forces.iter().zip(&truth).enumerate() {
                proptest::prop_assert!((f.as_dvec3() - *t).length() < 1e-3 * (1.0 + t.length()), "node {} {} {}", i, f, t);
            }
        }
    }

    #[test]
    fn only_the_springs_a_pass_splits_count_towards_the_threads() {
        // A 200 × 200 grid, numbered row by row, with structural and shear springs: colour
        // batches of over 16,384 springs, all in bands. The explicit pass walks none of them
        // from the batches (its bands run on one thread), Xpbd only those of offset 1 (the
        // rows' springs, a short band).
        // Shuffled, the same grid would have no bands and go to the threads (the threads
        // test of tests/physics steps both).
        let n = 200u32;
        let mut m = SpringModel::default();
        for k in 0..n * n {
            let position = Vec3::new((k % n) as f32, 0.0, (k / n) as f32);
            m.nodes.push(Node { position, mass: 1.0 });
        }
        for k in 0..n * n {
            let (i, j) = (k % n, k / n);
            let right = (i + 1 < n).then_some(k + 1);
            let below = (j + 1 < n).then_some(k + n);
            let diagonal = (i + 1 < n && j + 1 < n).then_some(k + n + 1);
            let anti = (i >= 1 && j + 1 < n).then(|| k + n - 1);
            for b in [right, below, diagonal, anti].into_iter().flatten() {
                m.springs.push(Spring::new(NodeId(k), NodeId(b), 1.0, 10.0, SpringKind::Stretch));
            }
        }
        let c = Compiled::new(&m);
        let largest = c.springs.batches.iter().map(|b| b.range.len()).max().unwrap_or(0);
        assert!(largest >= PARALLEL_MIN_SPRINGS, "{largest}");
        assert_eq!(worth(Threads::All, &c.springs, Integrator::Explicit), Threads::One);
        // Xpbd splits the rows' batches, a quarter of the springs, and the stripes of the
        // long bands (offsets 199, 200, 201), whose halves of about 19,900 lanes each are
        // split between two threads or more.
        let rows = c.springs.batches.iter().map(|b| b.unstriped().len()).max().unwrap_or(0);
        assert!(rows >= PARALLEL_MIN_SPRINGS, "the rows' springs could split: {rows}");
        let lanes = c.springs.bands.split_lanes(2);
        assert!(lanes > c.springs.len() / 2, "{lanes} of {} springs", c.springs.len());
        assert_eq!(c.springs.bands.split_lanes(1), 0, "nothing to split on one thread");
        let two = if rayon::current_num_threads() > 1 { Threads::All } else { Threads::One };
        assert_eq!(worth(Threads::All, &c.springs, Integrator::Xpbd), two);
        assert_eq!(worth(Threads::One, &c.springs, Integrator::Xpbd), Threads::One);
    }

    #[test]
    fn eight_springs_at_once_move_the_nodes_as_four_and_one_at_a_time() {
        // 94 nodes: colours of 46 or 47 springs, each five eights, a four and two or three alone.
        let (c, base, u_old, u) = twisted_of(94);
        let long = c.springs.batches.iter().filter(|b| b.range.len() % 8 >= 5).count();
        let sizes: Vec<usize> = c.springs.batches.iter().map(|b| b.range.len()).collect();
        assert!(long >= 2, "colours that end in a four and single springs: {sizes:?}");
        let mut columns = WeightColumns::default();
        columns.fill(&c.springs, &c.nodes.inv_mass, 1.0 / 600.0);
        let run = |eights: bool| {
            let mut moved = u.clone();
            let with = (&u_old[..], &mut moved[..]);
            let weights = columns.weights();
            project_springs_in::<true>(&c.springs, &base, weights, with, (Threads::One, eights));
            moved
        };
        let mut single = u.clone();
        project_springs_leaking(&c.springs, &base, columns.weights(), &u_old, &mut single);
        assert_ne!(single, u, "the springs move the nodes");
        assert_eq!(run(false), single, "four at a time");
        if Isa::available().len() > 1 {
            assert_eq!(run(true), single, "eight at a time");
        }
    }

    #[test]
    fn the_leaking_pass_moves_like_the_batched_one_and_measures_its_leak() {
        let (c, base, u_old, u) = twisted();
        let mut columns = WeightColumns::default();
        columns.fill(&c.springs, &c.nodes.inv_mass, 1.0 / 600.0);
        let weights = columns.weights();
        let mut batched = u.clone();
        let (stripes, base_cols) = (Stripes::default(), Columns::default());
        let (mut u_cols, mut u_prev_cols) = (Columns::default(), Columns::default());
        let work = StripeWork {
            stripes: &stripes,
            base: &base_cols,
            u: &mut u_cols,
            u_prev: &mut u_prev_cols,
        };
        let with = (weights, work);
        project_springs(&c.springs, &base, with, &u_old, &mut batched, Threads::One);
        let mut single = u.clone();
        let leak = project_springs_leaking(&c.springs, &base, weights, &u_old, &mut single);
        assert_eq!(batched, single, "the same corrections, operation for operation");
        // Without anchors every correction's moment is a leak: it must be what FreeBody
        // measures from the displacements alone.
        let mut body = FreeBody::default();
        assert!(body.measure(&c.nodes.mass, (&base, &u_old, &u), Threads::One), "not on a line");
        let moved = body.turn(&c.nodes.mass, &u, &single);
        assert!(leak.length() > 1e-6, "the twisted springs leak: {leak}");
        assert!((leak - moved).length() < 1e-4 * moved.length(), "{leak} vs {moved}");
    }
}
