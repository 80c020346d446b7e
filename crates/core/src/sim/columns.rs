//! Node vectors as x, y and z columns, for the loops the compiler vectorizes across nodes.
//!
//! The solver keeps a node's position, velocity or displacement as one `Vec3A` (16 bytes, a
//! fourth lane unused), which suits a loop that handles one node at a time. A loop over runs
//! of consecutive nodes — a band of springs ([`crate::sim::forces::bands`]), a run of tethers
//! ([`crate::sim::constraints::tethers`]) — instead works on 4 or 8 nodes at once when each
//! component lies in an array of its own: here the vectors are copied into such columns and
//! back, four at a time through one 4 × 4 transpose (a node at a time was 6% slower on the
//! 128 × 128 cloth's explicit step).
//!
//! Such a loop is built twice: for the target the crate is compiled for (SSE2 on x86-64, what
//! games ship) and, on x86-64, for AVX, which [`run`] picks at run time when the CPU has it
//! (8 lanes instead of 4). Both do the same operations lane by lane in the same order, and
//! Rust never fuses a multiply and an add on its own, so they give the same bits. A third
//! build for AVX-512 (16 lanes) was no faster on the 128 × 128 cloth (explicit step 116
//! against 112–119 µs, Xpbd frame 1.06–1.10 against 1.03–1.07 ms): the loops wait on the
//! square roots and divisions, whose throughput per lane wider registers do not raise.
#![allow(unsafe_code)]

use crate::sim::threads::{NODES_PER_TASK, Threads};
use glam::{Mat4, Vec3A, Vec4};
use rayon::prelude::*;

/// x, y and z columns of node vectors.
pub(crate) type Columns = [Vec<f32>; 3];

/// Four vectors as components: `x_axis` holds their x, `y_axis` their y, `z_axis` their z
/// (`w_axis` is zero). One 4 × 4 transpose.
#[inline(always)]
pub(crate) fn components(d: &[Vec3A; 4]) -> Mat4 {
    Mat4::from_cols(d[0].extend(0.0), d[1].extend(0.0), d[2].extend(0.0), d[3].extend(0.0))
        .transpose()
}

/// Copies vectors into x, y and z columns (sized to match).
pub(crate) fn split(from: &[Vec3A], to: &mut Columns) {
    split_on(Threads::One, from, to);
}

/// [`split`], node runs split between `threads` when allowed.
pub(crate) fn split_on(threads: Threads, from: &[Vec3A], to: &mut Columns) {
    to.iter_mut().for_each(|c| c.resize(from.len(), 0.0));
    let [x, y, z] = to;
    let runs = from.par_chunks(NODES_PER_TASK).zip(x.par_chunks_mut(NODES_PER_TASK));
    let runs = runs.zip(y.par_chunks_mut(NODES_PER_TASK).zip(z.par_chunks_mut(NODES_PER_TASK)));
    runs.with_min_len(threads.min_len(1))
        .for_each(|((from, x), (y, z))| split_run(from, [x, y, z]));
}

/// [`split`] of one run of nodes into columns of its length.
fn split_run(from: &[Vec3A], [x, y, z]: [&mut [f32]; 3]) {
    let (quads, rest) = from.as_chunks::<4>();
    let columns = x.as_chunks_mut::<4>().0.iter_mut().zip(y.as_chunks_mut::<4>().0.iter_mut());
    for (q, ((x, y), z)) in quads.iter().zip(columns.zip(z.as_chunks_mut::<4>().0)) {
        let t = components(q);
        (*x, *y, *z) = (t.x_axis.to_array(), t.y_axis.to_array(), t.z_axis.to_array());
    }
    let done = 4 * quads.len();
    for (i, p) in rest.iter().enumerate() {
        (x[done + i], y[done + i], z[done + i]) = (p.x, p.y, p.z);
    }
}

/// Adds x, y and z columns to vectors (or, unless `ADD`, writes them over the vectors).
pub(crate) fn gather<const ADD: bool>(from: &Columns, to: &mut [Vec3A]) {
    gather_on::<ADD>(Threads::One, from, to);
}

/// [`gather`], node runs split between `threads` when allowed.
pub(crate) fn gather_on<const ADD: bool>(threads: Threads, [x, y, z]: &Columns, to: &mut [Vec3A]) {
    let runs = to.par_chunks_mut(NODES_PER_TASK).zip(x.par_chunks(NODES_PER_TASK));
    let runs = runs.zip(y.par_chunks(NODES_PER_TASK).zip(z.par_chunks(NODES_PER_TASK)));
    runs.with_min_len(threads.min_len(1))
        .for_each(|((to, x), (y, z))| gather_run::<ADD>([x, y, z], to));
}

/// [`gather`] of one run of nodes from columns of its length.
fn gather_run<const ADD: bool>([x, y, z]: [&[f32]; 3], to: &mut [Vec3A]) {
    let put = |v: &mut Vec3A, c: Vec3A| *v = if ADD { *v + c } else { c };
    let (quads, rest) = to.as_chunks_mut::<4>();
    let columns = x.as_chunks::<4>().0.iter().zip(y.as_chunks::<4>().0);
    for (q, ((x, y), z)) in quads.iter_mut().zip(columns.zip(z.as_chunks::<4>().0)) {
        let t =
            Mat4::from_cols(Vec4::from(*x), Vec4::from(*y), Vec4::from(*z), Vec4::ZERO).transpose();
        for (v, c) in q.iter_mut().zip([t.x_axis, t.y_axis, t.z_axis, t.w_axis]) {
            put(v, Vec3A::from_vec4(c));
        }
    }
    let done = 4 * quads.len();
    for (i, v) in rest.iter_mut().enumerate() {
        put(v, Vec3A::new(x[done + i], y[done + i], z[done + i]));
    }
}

/// The instruction set a column loop is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Isa {
    /// The target the crate is built for (SSE2 on x86-64).
    Baseline,
    /// 8-lane AVX, when the CPU has it.
    #[cfg(target_arch = "x86_64")]
    Avx,
}

impl Isa {
    /// The best this CPU has.
    pub fn detect() -> Isa {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx") {
            return Isa::Avx;
        }
        Isa::Baseline
    }

    /// Every instruction set this CPU has (for the tests that compare them).
    #[cfg(test)]
    pub fn available() -> Vec<Isa> {
        let mut all = vec![Isa::Baseline];
        #[cfg(target_arch = "x86_64")]
        all.extend((Isa::detect() == Isa::Avx).then_some(Isa::Avx));
        all
    }
}

/// A loop over columns. `run` is `#[inline(always)]` in every implementation, so that it is
/// compiled into each of [`run`]'s builds.
pub(crate) trait ColumnLoop {
    fn run(self);
}

/// Runs `work` built for `isa`.
pub(crate) fn run<L: ColumnLoop>(isa: Isa, work: L) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Isa::Avx` is only made by `Isa::detect` after the CPU was found to have
        // AVX, the one requirement of a `#[target_feature(enable = "avx")]` function.
        Isa::Avx => unsafe { run_avx(work) },
        Isa::Baseline => work.run(),
    }
}

/// `work` built for AVX; the caller has checked that the CPU has it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
fn run_avx<L: ColumnLoop>(work: L) {
    work.run();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_hold_the_vectors_and_give_them_back() {
        // 7 vectors: a group of four through the transpose and three left over.
        let v: Vec<Vec3A> =
            (0..7).map(|i| Vec3A::new(i as f32, 10.0 + i as f32, -(i as f32))).collect();
        let mut c = Columns::default();
        split(&v, &mut c);
        assert_eq!(c[1], (0..7).map(|i| 10.0 + i as f32).collect::<Vec<_>>());
        let mut back = vec![Vec3A::ONE; 7];
        gather::<false>(&c, &mut back);
        assert_eq!(back, v);
        gather::<true>(&c, &mut back);
        assert_eq!(back, v.iter().map(|&p| p * 2.0).collect::<Vec<_>>());
    }
}
