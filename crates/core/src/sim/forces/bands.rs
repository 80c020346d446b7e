//! # Bands: springs at one index offset, walked without indices
//!
//! When a model's nodes are numbered row by row — a grid made in a modeller, a cloth built in
//! code, the rings of a UV sphere — most of its springs join node i to node i + o for a
//! handful of offsets o: on an N × N grid, 1 and N (structural), N − 1 and N + 1 (shear), 2
//! and 2N (bend). The springs of one offset are one diagonal of the model's connection matrix,
//! stored as a band (the DIA format of sparse matrices: Saad, "Iterative Methods for Sparse
//! Linear Systems", 2nd ed., SIAM 2003, §3.4): lane j of the band with first node s is the
//! spring from node s + j to node s + j + o. The explicit force pass walks a band as
//! contiguous columns of the nodes' x, y and z — the first ends, and the same columns shifted
//! by o for the second ends — so the compiler works on 4 lanes at once (8 where the CPU has
//! AVX), with no end index loaded and no gather or scatter. On the 128 × 128 benchmark cloth
//! an explicit step costs 38% less than with the colour-batch kernel
//! ([`crate::sim::forces::kernels`]), whose every group of four springs fetches its eight
//! nodes one by one (185 → 115 µs; on a 32 × 32 cloth 10.0 → 6.2 µs); the copies of
//! positions into columns and of forces back are included.
//!
//! Each lane computes the force of [`crate::sim::integrators::explicit`]:
//!
//! ```text
//! d = x_(s+j+o) − x_(s+j),   ℓ = |d|
//! f/ℓ = k (1 − L/ℓ) + d_s (v_(s+j+o) − v_(s+j))·d / ℓ²
//! F_(s+j) += (f/ℓ) d,   F_(s+j+o) −= (f/ℓ) d
//! ```
//!
//! with x, v a node's position (m) and velocity (m/s), and k, L, d_s the spring's stiffness
//! (N/m), rest length (m) and damping (N·s/m). A lane with no spring has k = L = d_s = 0 and
//! adds nothing, nor does a spring of zero length (no direction); a spring that breaks has
//! its lane zeroed.
//!
//! **Xpbd: stripes.** Xpbd projects its springs one after another (Gauss–Seidel), so only
//! springs that share no node may be worked on together. In a band, lane j and lane j + o
//! share node s + j + o; lanes less than o apart share none. So a band of a long offset
//! (o ≥ 64, four of the six on a 128 × 128 grid) is cut into stripes of o lanes: the even
//! stripes share no node with each other, nor the odd ones, and each stripe is one contiguous
//! vector loop over the columns of the displacements u. Xpbd projects every long band's even
//! stripes, then its odd ones, band by band, and then the other springs colour by colour
//! ([`crate::sim::integrators::xpbd`]). Each lane does what
//! [`crate::sim::forces::kernels`]'s projection does for a spring, with the same weights.
//! This order converges no worse than the colour order: the 128 × 128 stiff cloth at 5
//! sub-steps holds its worst structural spring within 2.6% of rest (4.0% before), the 64 × 64
//! at 16 sub-steps within 0.45% (0.74%). Short bands (o = 1, 2 on a grid) stay in the colour
//! batches for Xpbd: their stripes would be one or two lanes long.
//!
//! **Which springs.** The springs of one offset become a band when there are at least 256 of
//! them (fewer would not pay back a band's set-up) and they fill at least three lanes in four
//! between the first and the last: on a row-major grid every band is over 98% full (a row's
//! last nodes have no spring to the right), while on a mesh numbered in no particular order an
//! offset's few springs are scattered over the node range and stay in the colour batches. So
//! the lanes never outnumber their springs by more than a third, and the memory is bounded by
//! the model's size. Only springs of independent colour batches are taken, and each batch
//! keeps its banded springs at its end, those of long bands last: the explicit pass walks the
//! batch up to its banded springs, Xpbd up to those of long bands.
//!
//! **Two passes or one.** With o ≥ 64 a chunk of up to o lanes writes the forces at its first
//! ends and at its second ends in one loop: the two runs of nodes cannot overlap. A smaller
//! offset keeps a chunk's forces in a scratch column and subtracts them at the second ends in a
//! second loop (on the 128 × 128 cloth two passes for every band cost 4% more; on a 32 × 32
//! one, one pass for its offsets 31 to 33 cost 15% more: chunks that short leave the vector
//! loop too soon). Chunks are at most 1,024 lanes, so that their columns stay in the
//! first-level cache.
//!
//! **Same bits everywhere.** The AVX loops and the baseline ones (SSE2 on x86-64) do the same
//! operations lane by lane, in the same order, without fused multiply-adds (Rust never fuses on
//! its own), so the result does not depend on the CPU. Bands run on the calling thread.
//!
//! Measured and left out (128 × 128 cloth, builds timed in turns): copying positions into
//! columns and forces back one node at a time instead of four through a transpose (+6%);
//! adding the band forces inside the integration's node loop instead of copying them back
//! first (no change); each band's second-end pass over the whole band instead of chunk by
//! chunk (+8%: the scratch column then leaves the cache). And a lesson: the lane loop reached
//! the columns through the vectors owning them at first, so the compiler could not tell that
//! they do not overlap; it guarded the vector loop with run-time checks, and on damped models
//! (twelve input columns) gave up and ran scalar code, slower than the colour batches. Each
//! column is now an argument of its own (`chunk`).
use crate::sim::columns::{ColumnLoop, Columns, Isa, gather, gather_on, run, split, split_on};
use crate::sim::data::{Band, Bands, LONG_OFFSET};
use crate::sim::forces::spring::{force_over_length, projection, weights};
use crate::sim::threads::Threads;
use glam::Vec3A;
use rayon::prelude::*;
use std::ops::Range;

/// Most lanes of one chunk: a chunk's streams stay in the first-level cache.
const CHUNK: usize = 1024;

impl Bands {
    /// Adds the force of every banded spring at positions `pos` and velocities `vel` to
    /// `forces` (`damped`: some spring has damping). Every array covers the model's nodes.
    pub fn add_forces(
        &self,
        (pos, vel): (&[Vec3A], &[Vec3A]),
        damped: bool,
        scratch: &mut BandScratch,
        forces: &mut [Vec3A],
    ) {
        self.add_forces_on(Isa::detect(), (pos, vel), damped, scratch, forces);
    }

    /// [`Bands::add_forces`] with the loops built for `isa`.
    fn add_forces_on(
        &self,
        isa: Isa,
        (pos, vel): (&[Vec3A], &[Vec3A]),
        damped: bool,
        scratch: &mut BandScratch,
        forces: &mut [Vec3A],
    ) {
        if self.is_empty() {
            return;
        }
        scratch.ready(pos.len());
        split(pos, &mut scratch.x);
        if damped {
            split(vel, &mut scratch.v);
        }
        let s = &mut *scratch;
        let (bands, x, v, f, g) = (self.all(), &s.x, &s.v, &mut s.f, &mut s.g);
        if damped {
            run(isa, AllBands::<true> { bands, x, v, f, g });
        } else {
            run(isa, AllBands::<false> { bands, x, v, f, g });
        }
        gather::<true>(&scratch.f, forces);
        scratch.f.iter_mut().for_each(|c| c.fill(0.0));
    }
}

/// Node columns of the band passes, kept between steps: positions, velocities and forces as
/// x, y and z columns, and the forces of a band's lanes for its second pass.
#[derive(Clone, Debug, Default)]
pub(crate) struct BandScratch {
    x: Columns,
    v: Columns,
    /// All zero between passes.
    f: Columns,
    g: Columns,
}

impl BandScratch {
    /// Sizes the force columns for `n` nodes, and the scratch for a chunk.
    fn ready(&mut self, n: usize) {
        self.f.iter_mut().for_each(|c| c.resize(n, 0.0));
        self.g.iter_mut().for_each(|c| c.resize(CHUNK, 0.0));
    }
}

/// [`all_bands`] as a [`ColumnLoop`].
struct AllBands<'a, const DAMPED: bool> {
    bands: &'a [Band],
    x: &'a Columns,
    v: &'a Columns,
    f: &'a mut Columns,
    g: &'a mut Columns,
}

impl<const DAMPED: bool> ColumnLoop for AllBands<'_, DAMPED> {
    #[inline(always)]
    fn run(self) {
        all_bands::<DAMPED>(self.bands, self.x, self.v, self.f, self.g);
    }
}

/// Every band's forces into `f` (columns of the nodes' forces), from positions `x` and
/// velocities `v` (read only when `DAMPED`); `g` is scratch. Chunk by chunk (module doc).
#[inline(always)]
fn all_bands<const DAMPED: bool>(
    bands: &[Band],
    [x, y, z]: &Columns,
    [vx, vy, vz]: &Columns,
    [fx, fy, fz]: &mut Columns,
    [gx, gy, gz]: &mut Columns,
) {
    for band in bands {
        let (o, lanes) = (band.offset, band.lanes());
        let one_pass = o >= LONG_OFFSET;
        let mut done = 0;
        while done < lanes {
            let n = (lanes - done).min(if one_pass { o.min(CHUNK) } else { CHUNK });
            let (a, b) = (band.start + done, band.start + done + o);
            let (ra, rb) = (a..a + n, b..b + n);
            let velocities = |r: &Range<usize>| -> [&[f32]; 3] {
                if DAMPED { [&vx[r.clone()], &vy[r.clone()], &vz[r.clone()]] } else { [&[]; 3] }
            };
            let ([vxa, vya, vza], [vxb, vyb, vzb]) = (velocities(&ra), velocities(&rb));
            let lanes = done..done + n;
            let damping = if DAMPED { &band.damping[lanes.clone()] } else { &[] };
            let (k, rest) = (&band.stiffness[lanes.clone()], &band.rest[lanes]);
            // The forces at the first ends and at the second (or the scratch that keeps the
            // latter for a second loop).
            let (fa, fb) = if one_pass {
                let (fxa, fxb) = fx[a..b + n].split_at_mut(o);
                let (fya, fyb) = fy[a..b + n].split_at_mut(o);
                let (fza, fzb) = fz[a..b + n].split_at_mut(o);
                ([fxa, fya, fza], [fxb, fyb, fzb])
            } else {
                let fa = [&mut fx[ra.clone()], &mut fy[ra.clone()], &mut fz[ra.clone()]];
                (fa, [&mut gx[..n], &mut gy[..n], &mut gz[..n]])
            };
            let ([fxa, fya, fza], [fxb, fyb, fzb]) = (fa, fb);
            let (xa, ya, za) = (&x[ra.clone()], &y[ra.clone()], &z[ra.clone()]);
            let (xb, yb, zb) = (&x[rb.clone()], &y[rb.clone()], &z[rb.clone()]);
            if one_pass {
                #[rustfmt::skip]
                chunk::<DAMPED, false>(
                    xa, ya, za, xb, yb, zb, vxa, vya, vza, vxb, vyb, vzb,
                    k, rest, damping, fxa, fya, fza, fxb, fyb, fzb,
                );
            } else {
                #[rustfmt::skip]
                chunk::<DAMPED, true>(
                    xa, ya, za, xb, yb, zb, vxa, vya, vza, vxb, vyb, vzb,
                    k, rest, damping, fxa, fya, fza, fxb, fyb, fzb,
                );
                subtract(&mut fx[rb.clone()], &gx[..n]);
                subtract(&mut fy[rb.clone()], &gy[..n]);
                subtract(&mut fz[rb], &gz[..n]);
            }
            done += n;
        }
    }
}

/// The n lanes of one chunk: each lane's force (module doc) added to `fa` (at its first end)
/// and subtracted from `fb` (at its second) — or, when `KEEP`, stored in `fb` for a later
/// pass. `xa`, `xb` (and `va`, `vb` when `DAMPED`) are the ends' positions and velocities;
/// `k`, `rest`, `damping` (read when `DAMPED`) the lanes' constants; the slices of positions,
/// forces and constants are at least n long.
///
/// Every column is an argument of its own: only so does the compiler know that no two
/// overlap, and vectorize the loop with no run-time overlap checks (module doc).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn chunk<const DAMPED: bool, const KEEP: bool>(
    xa: &[f32],
    ya: &[f32],
    za: &[f32],
    xb: &[f32],
    yb: &[f32],
    zb: &[f32],
    vxa: &[f32],
    vya: &[f32],
    vza: &[f32],
    vxb: &[f32],
    vyb: &[f32],
    vzb: &[f32],
    k: &[f32],
    rest: &[f32],
    damping: &[f32],
    fxa: &mut [f32],
    fya: &mut [f32],
    fza: &mut [f32],
    fxb: &mut [f32],
    fyb: &mut [f32],
    fzb: &mut [f32],
) {
    let n = k.len();
    let (xa, ya, za, xb, yb, zb) = (&xa[..n], &ya[..n], &za[..n], &xb[..n], &yb[..n], &zb[..n]);
    let (rest, fxa, fya, fza) = (&rest[..n], &mut fxa[..n], &mut fya[..n], &mut fza[..n]);
    let (fxb, fyb, fzb) = (&mut fxb[..n], &mut fyb[..n], &mut fzb[..n]);
    let velocities = if DAMPED {
        let (vxa, vya, vza) = (&vxa[..n], &vya[..n], &vza[..n]);
        Some((vxa, vya, vza, &vxb[..n], &vyb[..n], &vzb[..n], &damping[..n]))
    } else {
        None
    };
    for j in 0..n {
        let (dx, dy, dz) = (xb[j] - xa[j], yb[j] - ya[j], zb[j] - za[j]);
        let len2 = dx * dx + dy * dy + dz * dz;
        let (closing, damping) = match velocities {
            Some((vxa, vya, vza, vxb, vyb, vzb, damping)) => {
                let (ux, uy, uz) = (vxb[j] - vxa[j], vyb[j] - vya[j], vzb[j] - vza[j]);
                (ux * dx + uy * dy + uz * dz, damping[j])
            }
            None => (0.0, 0.0),
        };
        let f_over_len = force_over_length::<f32, DAMPED>(len2, closing, k[j], rest[j], damping);
        let (qx, qy, qz) = (dx * f_over_len, dy * f_over_len, dz * f_over_len);
        (fxa[j], fya[j], fza[j]) = (fxa[j] + qx, fya[j] + qy, fza[j] + qz);
        (fxb[j], fyb[j], fzb[j]) =
            if KEEP { (qx, qy, qz) } else { (fxb[j] - qx, fyb[j] - qy, fzb[j] - qz) };
    }
}

/// Xpbd's side of the long bands: each lane's weights for one sub-step size (g_a, g_b, g_k,
/// g_d of [`crate::sim::forces::kernels::Weights`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Stripes {
    /// Per long band, in offset order: g_a, g_b, g_k, g_d per lane.
    weights: Vec<[Vec<f32>; 4]>,
}

/// What Xpbd's stripes work on: their weights, and the nodes' columns — positions at the
/// step's start (filled by the caller), and scratch for the displacements now and a sub-step
/// ago.
pub(crate) struct StripeWork<'a> {
    pub stripes: &'a Stripes,
    pub base: &'a Columns,
    pub u: &'a mut Columns,
    pub u_prev: &'a mut Columns,
}

impl Bands {
    /// Works out the Xpbd weights of every lane of the long bands for sub-step `h`, with the
    /// nodes' inverse masses `w`, as [`crate::sim::integrators::xpbd`] does for every spring.
    pub fn stripe_weights(&self, h: f32, w: &[f32], stripes: &mut Stripes) {
        stripes.weights.clear();
        for band in self.long() {
            let lanes = band.lanes();
            let mut g = [(); 4].map(|_| Vec::with_capacity(lanes));
            for j in 0..lanes {
                let a = band.start + j;
                let (wa, wb) = (w.get(a).copied(), w.get(a + band.offset).copied());
                let ends = (wa.unwrap_or(0.0), wb.unwrap_or(0.0));
                let lane = weights(band.stiffness[j], band.damping[j], ends, h);
                for (column, value) in g.iter_mut().zip([lane.ga, lane.gb, lane.gk, lane.gd]) {
                    column.push(value);
                }
            }
            stripes.weights.push(g);
        }
    }
}

impl StripeWork<'_> {
    /// One Xpbd iteration over the springs of the long `bands` on the displacements `u`
    /// (`u_prev`: those a sub-step ago, read when `damped`), stripe by stripe: a band's even
    /// stripes of `offset` lanes, then its odd ones (module doc), each half's stripes split
    /// between `threads` when there are enough of them. Nothing when the base columns do not
    /// cover `u`.
    pub fn project(
        &mut self,
        bands: &Bands,
        damped: bool,
        (u_prev, u): (&[Vec3A], &mut [Vec3A]),
        threads: Threads,
    ) {
        self.project_on(Isa::detect(), bands, damped, (u_prev, u), threads);
    }

    /// [`StripeWork::project`] with the loops built for `isa`.
    fn project_on(
        &mut self,
        isa: Isa,
        bands: &Bands,
        damped: bool,
        (u_prev, u): (&[Vec3A], &mut [Vec3A]),
        threads: Threads,
    ) {
        if self.base.iter().any(|c| c.len() != u.len()) {
            return;
        }
        split_on(threads, u, self.u);
        if damped {
            split_on(threads, u_prev, self.u_prev);
        }
        let (base, prev) = (self.base, &*self.u_prev);
        for (band, weights) in bands.long().zip(&self.stripes.weights) {
            for parity in 0..2 {
                let half = Half { band, weights, parity };
                if damped {
                    half.project::<true>(isa, (base, prev), self.u, threads);
                } else {
                    half.project::<false>(isa, (base, prev), self.u, threads);
                }
            }
        }
        gather_on::<false>(threads, self.u, u);
    }
}

impl Bands {
    /// The lanes of the long bands' halves that [`StripeWork::project`] splits between
    /// `parts` threads.
    pub fn split_lanes(&self, parts: usize) -> usize {
        let halves = self
            .long()
            .flat_map(|band| [0, 1].map(|parity| Half { band, weights: &EMPTY_WEIGHTS, parity }));
        halves.filter(|half| half.splits(parts)).map(|half| half.lanes()).sum()
    }
}

/// The weights of a [`Half`] only counted, not projected.
static EMPTY_WEIGHTS: [Vec<f32>; 4] = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];

/// The even (`parity` 0) or odd (1) stripes of a long band: stripe k is the lanes from
/// parity·o + 2ko, o of them or the band's last, and its springs join nodes
/// start + parity·o + 2ko … + 2o. No two share a node.
#[derive(Clone, Copy)]
struct Half<'a> {
    band: &'a Band,
    /// The band's g_a, g_b, g_k, g_d per lane ([`Stripes`]).
    weights: &'a [Vec<f32>; 4],
    parity: usize,
}

impl Half<'_> {
    /// Its stripes.
    fn stripes(&self) -> usize {
        self.spanned().div_ceil(2 * self.band.offset)
    }

    /// The band's lanes from its first stripe on (every other stripe of them is this half's).
    fn spanned(&self) -> usize {
        self.band.lanes().saturating_sub(self.parity * self.band.offset)
    }

    /// The lanes of its stripes.
    fn lanes(&self) -> usize {
        let (o, spanned) = (self.band.offset, self.spanned());
        (0..self.stripes()).map(|k| (spanned - 2 * k * o).min(o)).sum()
    }

    /// True when its stripes are split between `parts` threads: at least two stripes and
    /// [`STRIPE_LANES_PER_TASK`] lanes a thread.
    fn splits(&self, parts: usize) -> bool {
        parts >= 2 && self.stripes() >= 2 && self.lanes() >= parts * STRIPE_LANES_PER_TASK
    }

    /// Projects its stripes on the displacement columns `u`: on the calling thread, or cut
    /// into one run of consecutive stripes per thread when `threads` allows and the half holds
    /// [`STRIPE_LANES_PER_TASK`] lanes per thread. Each run's nodes are a slice of the
    /// columns no other run touches, and each lane does the same operations either way.
    fn project<const DAMPED: bool>(
        self,
        isa: Isa,
        at: (&Columns, &Columns),
        [ux, uy, uz]: &mut Columns,
        threads: Threads,
    ) {
        let (o, stripes) = (self.band.offset, self.stripes());
        let first = self.band.start + self.parity * o;
        let parts = match threads {
            Threads::All => rayon::current_num_threads(),
            Threads::One => 1,
        };
        if !self.splits(parts) {
            let u = [&mut ux[first..], &mut uy[first..], &mut uz[first..]];
            run(isa, Run::<DAMPED> { half: self, at, u, first, stripes: 0..stripes });
            return;
        }
        let per = stripes.div_ceil(parts);
        let nodes = 2 * o * per;
        let columns = ux[first..].par_chunks_mut(nodes).zip(uy[first..].par_chunks_mut(nodes));
        columns.zip(uz[first..].par_chunks_mut(nodes)).enumerate().for_each(
            |(part, ((x, y), z))| {
                let from = (part * per).min(stripes);
                let stripes = from..(from + per).min(stripes);
                let first = first + part * nodes;
                run(isa, Run::<DAMPED> { half: self, at, u: [x, y, z], first, stripes });
            },
        );
    }
}

/// A half band of fewer than [`STRIPE_LANES_PER_TASK`] lanes a thread stays on one. On 2
/// cores, the 226k-spring converted sphere's halves (about 18,900 lanes in 70 stripes of 271)
/// gain when split in two, and the 128 × 128 cloth's (about 8,100 lanes) lost 5% of its frame.
const STRIPE_LANES_PER_TASK: usize = 4096;

/// A run of consecutive stripes of a [`Half`], on displacement columns `u` that begin at
/// node `first`; `at` holds the nodes' positions at the step's start and their displacements
/// a sub-step ago (read when `DAMPED`), as whole columns.
struct Run<'a, const DAMPED: bool> {
    half: Half<'a>,
    at: (&'a Columns, &'a Columns),
    u: [&'a mut [f32]; 3],
    first: usize,
    stripes: Range<usize>,
}

impl<const DAMPED: bool> ColumnLoop for Run<'_, DAMPED> {
    #[inline(always)]
    fn run(self) {
        let Run { half: Half { band, weights: [ga, gb, gk, gd], parity }, at, u, first, stripes } =
            self;
        let ([bx, by, bz], [px, py, pz]) = at;
        let [ux, uy, uz] = u;
        let (o, lanes) = (band.offset, band.lanes());
        for k in stripes {
            let done = parity * o + 2 * k * o;
            let n = (lanes - done).min(o);
            let (a, b) = (band.start + done, band.start + done + o);
            let (ra, rb) = (a..a + n, b..b + n);
            let earlier = |r: &Range<usize>| -> [&[f32]; 3] {
                if DAMPED { [&px[r.clone()], &py[r.clone()], &pz[r.clone()]] } else { [&[]; 3] }
            };
            let ([pxa, pya, pza], [pxb, pyb, pzb]) = (earlier(&ra), earlier(&rb));
            let lane = done..done + n;
            let damping = if DAMPED { &gd[lane.clone()] } else { &[] };
            let mine = a - first..b + n - first;
            let (uxa, uxb) = ux[mine.clone()].split_at_mut(o);
            let (uya, uyb) = uy[mine.clone()].split_at_mut(o);
            let (uza, uzb) = uz[mine].split_at_mut(o);
            let (bxa, bya, bza) = (&bx[ra.clone()], &by[ra.clone()], &bz[ra]);
            let (bxb, byb, bzb) = (&bx[rb.clone()], &by[rb.clone()], &bz[rb]);
            #[rustfmt::skip]
            stripe::<DAMPED>(
                bxa, bya, bza, bxb, byb, bzb, uxa, uya, uza, uxb, uyb, uzb,
                pxa, pya, pza, pxb, pyb, pzb,
                &band.rest[lane.clone()], &gk[lane.clone()], damping,
                &ga[lane.clone()], &gb[lane],
            );
        }
    }
}

/// The n lanes of one stripe, which share no node: each spring's Xpbd correction (the
/// formula of [`crate::sim::forces::kernels`]'s projection) on the displacements of its first
/// ends `ua` and second ends `ub`. `ba`, `bb` are the ends' positions at the step's start,
/// `pa`, `pb` their displacements a sub-step ago (read when `DAMPED`); every column is an
/// argument of its own, as in [`chunk`], and the slices are at least n = `rest.len()` long.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn stripe<const DAMPED: bool>(
    bxa: &[f32],
    bya: &[f32],
    bza: &[f32],
    bxb: &[f32],
    byb: &[f32],
    bzb: &[f32],
    uxa: &mut [f32],
    uya: &mut [f32],
    uza: &mut [f32],
    uxb: &mut [f32],
    uyb: &mut [f32],
    uzb: &mut [f32],
    pxa: &[f32],
    pya: &[f32],
    pza: &[f32],
    pxb: &[f32],
    pyb: &[f32],
    pzb: &[f32],
    rest: &[f32],
    gk: &[f32],
    gd: &[f32],
    ga: &[f32],
    gb: &[f32],
) {
    let n = rest.len();
    let (bxa, bya, bza, bxb, byb, bzb) =
        (&bxa[..n], &bya[..n], &bza[..n], &bxb[..n], &byb[..n], &bzb[..n]);
    let (uxa, uya, uza) = (&mut uxa[..n], &mut uya[..n], &mut uza[..n]);
    let (uxb, uyb, uzb) = (&mut uxb[..n], &mut uyb[..n], &mut uzb[..n]);
    let (gk, ga, gb) = (&gk[..n], &ga[..n], &gb[..n]);
    let earlier = if DAMPED {
        let (pxa, pya, pza) = (&pxa[..n], &pya[..n], &pza[..n]);
        Some((pxa, pya, pza, &pxb[..n], &pyb[..n], &pzb[..n], &gd[..n]))
    } else {
        None
    };
    for j in 0..n {
        let dx = (bxa[j] - bxb[j]) + (uxa[j] - uxb[j]);
        let dy = (bya[j] - byb[j]) + (uya[j] - uyb[j]);
        let dz = (bza[j] - bzb[j]) + (uza[j] - uzb[j]);
        let len2 = dx * dx + dy * dy + dz * dz;
        let (moved, gd) = match earlier {
            Some((pxa, pya, pza, pxb, pyb, pzb, gd)) => {
                let mx = (uxa[j] - pxa[j]) - (uxb[j] - pxb[j]);
                let my = (uya[j] - pya[j]) - (uyb[j] - pyb[j]);
                let mz = (uza[j] - pza[j]) - (uzb[j] - pzb[j]);
                (dx * mx + dy * my + dz * mz, gd[j])
            }
            None => (0.0, 0.0),
        };
        let s = projection::<f32, DAMPED>(len2, moved, rest[j], gk[j], gd);
        let (sa, sb) = (ga[j] * s, gb[j] * s);
        (uxa[j], uya[j], uza[j]) = (uxa[j] + dx * sa, uya[j] + dy * sa, uza[j] + dz * sa);
        (uxb[j], uyb[j], uzb[j]) = (uxb[j] - dx * sb, uyb[j] - dy * sb, uzb[j] - dz * sb);
    }
}

/// `f −= g`, element by element (both n long).
#[inline(always)]
fn subtract(f: &mut [f32], g: &[f32]) {
    for (f, g) in f.iter_mut().zip(g) {
        *f -= g;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::data::NO_SPRING;
    use crate::sim::forces::spring::reference_forces;

    /// An n × n grid numbered row by row, with the benchmark cloth's springs (structural,
    /// shear, skip-one bend), bent out of plane so that every spring is stretched or squeezed;
    /// returns positions, velocities and the springs as (a, b, rest, k, damping).
    #[allow(clippy::type_complexity)]
    fn grid(n: usize) -> (Vec<Vec3A>, Vec<Vec3A>, Vec<(u32, u32, f32, f32, f32)>) {
        let id = |i: usize, j: usize| (j * n + i) as u32;
        let at = |k: usize| {
            let (i, j) = ((k % n) as f32, (k / n) as f32);
            Vec3A::new(0.05 * i, 0.01 * (0.7 * i).sin() * (0.3 * j).cos(), 0.05 * j)
        };
        let pos: Vec<Vec3A> = (0..n * n).map(at).collect();
        let vel: Vec<Vec3A> =
            (0..n * n).map(|k| Vec3A::new(0.0, 0.1 * (k % 7) as f32, -0.02)).collect();
        let mut springs = Vec::new();
        let mut add = |a: u32, b: u32, k: f32| {
            let rest = 0.97 * pos[a as usize].distance(pos[b as usize]);
            springs.push((a, b, rest, k, 0.01 * (a % 3) as f32));
        };
        for j in 0..n {
            for i in 0..n {
                if i + 1 < n {
                    add(id(i, j), id(i + 1, j), 1000.0);
                }
                if j + 1 < n {
                    add(id(i, j + 1), id(i, j), 1000.0);
                }
                if i + 1 < n && j + 1 < n {
                    add(id(i, j), id(i + 1, j + 1), 800.0);
                    add(id(i + 1, j), id(i, j + 1), 800.0);
                }
                if i + 2 < n {
                    add(id(i, j), id(i + 2, j), 100.0);
                }
                if j + 2 < n {
                    add(id(i, j), id(i, j + 2), 100.0);
                }
            }
        }
        (pos, vel, springs)
    }

    fn bands_of(springs: &[(u32, u32, f32, f32, f32)], eligible: &[bool]) -> (Bands, Vec<bool>) {
        let a: Vec<u32> = springs.iter().map(|s| s.0).collect();
        let b: Vec<u32> = springs.iter().map(|s| s.1).collect();
        let rest: Vec<f32> = springs.iter().map(|s| s.2).collect();
        let k: Vec<f32> = springs.iter().map(|s| s.3).collect();
        let damping: Vec<f32> = springs.iter().map(|s| s.4).collect();
        let (mut bands, taken) = Bands::find(&a, &b, eligible);
        bands.refresh(&rest, &k, &damping);
        (bands, taken)
    }

    /// The band forces on every node, added to zero forces.
    fn banded_forces(
        bands: &Bands,
        isa: Isa,
        at: (&[Vec3A], &[Vec3A]),
        damped: bool,
    ) -> Vec<Vec3A> {
        let mut forces = vec![Vec3A::ZERO; at.0.len()];
        bands.add_forces_on(isa, at, damped, &mut BandScratch::default(), &mut forces);
        forces
    }

    /// The forces of `springs`, one at a time in f64: the truth the bands are checked against.
    fn reference(
        springs: &[(u32, u32, f32, f32, f32)],
        pos: &[Vec3A],
        vel: &[Vec3A],
    ) -> Vec<glam::DVec3> {
        reference_forces(springs.iter().copied(), pos, vel)
    }

    #[test]
    fn a_row_major_grid_falls_into_six_full_bands() {
        let n = 20;
        let (_, _, springs) = grid(n);
        // 2·20·19 structural, 2·19² shear, 2·20·18 bend.
        assert_eq!(springs.len(), 760 + 722 + 720);
        let (bands, taken) = bands_of(&springs, &vec![true; springs.len()]);
        let offsets: Vec<usize> = bands.all().iter().map(|b| b.offset).collect();
        assert_eq!(offsets, vec![1, 2, 19, 20, 21, 40]);
        assert!(taken.iter().all(|&t| t), "every spring is in a band");
        // Offset 1 spans first ends 0..=398 (the last row's 18), with a gap at each row's end.
        let first = &bands.all()[0];
        assert_eq!((first.start, first.stiffness.len()), (0, 399));
        assert_eq!(first.stiffness.iter().filter(|&&k| k == 0.0).count(), 399 - 380);
    }

    #[test]
    fn springs_scattered_over_the_nodes_or_not_eligible_stay_out() {
        // 300 springs of offset 5, spread over 3,000 nodes: a tenth of the lanes full.
        let sparse: Vec<_> = (0..300u32).map(|i| (10 * i, 10 * i + 5, 1.0, 1.0, 0.0)).collect();
        let (bands, taken) = bands_of(&sparse, &[true; 300]);
        assert!(bands.is_empty() && !taken.contains(&true));
        // 255 springs of one offset: one short of a band.
        let few: Vec<_> = (0..255u32).map(|i| (i, i + 1, 1.0, 1.0, 0.0)).collect();
        assert!(bands_of(&few, &[true; 255]).0.is_empty());
        // 256 of them make one, unless some are not eligible.
        let enough: Vec<_> = (0..256u32).map(|i| (i, i + 1, 1.0, 1.0, 0.0)).collect();
        assert!(!bands_of(&enough, &[true; 256]).0.is_empty());
        let mut eligible = [true; 256];
        eligible[7] = false;
        assert!(bands_of(&enough, &eligible).0.is_empty());
    }

    #[test]
    fn banded_forces_match_each_spring_worked_out_alone() {
        let (pos, vel, springs) = grid(40);
        let (bands, taken) = bands_of(&springs, &vec![true; springs.len()]);
        assert!(taken.iter().all(|&t| t));
        let truth = reference(&springs, &pos, &vel);
        let largest = truth.iter().map(|f| f.length()).fold(0.0, f64::max);
        assert!(largest > 1.0, "the springs pull: {largest} N");
        for damped in [false, true] {
            let truth = if damped {
                truth.clone()
            } else {
                let undamped: Vec<_> =
                    springs.iter().map(|&(a, b, r, k, _)| (a, b, r, k, 0.0)).collect();
                reference(&undamped, &pos, &vel)
            };
            let forces = banded_forces(&bands, Isa::detect(), (&pos, &vel), damped);
            for (i, (f, t)) in forces.iter().zip(&truth).enumerate() {
                let error = (f.as_dvec3() - *t).length();
                assert!(error < 1e-4 * largest, "node {i} (damped {damped}): {f} vs {t}");
            }
        }
    }

    #[test]
    fn a_cleared_lane_adds_no_force() {
        let (pos, vel, springs) = grid(20);
        let (mut bands, _) = bands_of(&springs, &vec![true; springs.len()]);
        // Break a structural spring (offset 1), a vertical one given from its larger end
        // (offset 20) and a bend spring (offset 40): their lanes lose their springs.
        let broken = [(45u32, 46u32), (65, 45), (101, 141)];
        let is_broken = |s: &(u32, u32, f32, f32, f32)| broken.contains(&(s.0, s.1));
        let renamed: Vec<u32> = (0..springs.len() as u32)
            .map(|i| if is_broken(&springs[i as usize]) { NO_SPRING } else { i })
            .collect();
        bands.renumber(&renamed);
        let column = |f: fn(&(u32, u32, f32, f32, f32)) -> f32| springs.iter().map(f).collect();
        let (rest, k, damping): (Vec<f32>, Vec<f32>, Vec<f32>) =
            (column(|s| s.2), column(|s| s.3), column(|s| s.4));
        bands.refresh(&rest, &k, &damping);
        let left: Vec<_> = springs
            .iter()
            .copied()
            .filter(|s| !broken.iter().any(|&(a, b)| (s.0, s.1) == (a, b)))
            .collect();
        assert_eq!(left.len(), springs.len() - 3);
        let truth = reference(&left, &pos, &vel);
        let forces = banded_forces(&bands, Isa::detect(), (&pos, &vel), true);
        for (f, t) in forces.iter().zip(&truth) {
            assert!((f.as_dvec3() - *t).length() < 1e-3, "{f} vs {t}");
        }
    }

    /// Xpbd's projection of the long bands' springs done one at a time, in stripe order (a
    /// band's even stripes, then its odd ones), per component in the kernel's order of
    /// operations: the same bits are expected.
    fn stripes_one_by_one(
        bands: &Bands,
        (h, w): (f32, &[f32]),
        (base, u_prev): (&[Vec3A], &[Vec3A]),
        damped: bool,
        u: &mut [Vec3A],
    ) {
        for band in bands.long() {
            let o = band.offset;
            let lanes = band.lanes();
            let order = (0..lanes)
                .filter(|j| (j / o) % 2 == 0)
                .chain((0..lanes).filter(|j| (j / o) % 2 == 1));
            for j in order {
                let (a, b) = (band.start + j, band.start + j + o);
                let g = weights(band.stiffness[j], band.damping[j], (w[a], w[b]), h);
                let c = |v: Vec3A| v.to_array();
                let (ba, bb, ua, ub, pa, pb) =
                    (c(base[a]), c(base[b]), c(u[a]), c(u[b]), c(u_prev[a]), c(u_prev[b]));
                let dv: [f32; 3] = std::array::from_fn(|i| (ba[i] - bb[i]) + (ua[i] - ub[i]));
                let len2 = dv[0] * dv[0] + dv[1] * dv[1] + dv[2] * dv[2];
                let m: [f32; 3] = std::array::from_fn(|i| (ua[i] - pa[i]) - (ub[i] - pb[i]));
                let moved = dv[0] * m[0] + dv[1] * m[1] + dv[2] * m[2];
                let s = if damped {
                    projection::<f32, true>(len2, moved, band.rest[j], g.gk, g.gd)
                } else {
                    projection::<f32, false>(len2, moved, band.rest[j], g.gk, g.gd)
                };
                let (sa, sb) = (g.ga * s, g.gb * s);
                u[a] = Vec3A::from_array(std::array::from_fn(|i| ua[i] + dv[i] * sa));
                u[b] = Vec3A::from_array(std::array::from_fn(|i| ub[i] - dv[i] * sb));
            }
        }
    }

    #[test]
    fn stripes_project_as_the_springs_one_by_one_in_stripe_order() {
        // 70 × 70: offsets 1, 2 (short), 69, 70, 71, 140 (long); halves of about 2,400 lanes,
        // on one thread.
        let (bands, moved) = stripes_match_one_by_one(70);
        assert_eq!(bands, vec![69, 70, 71, 140]);
        assert!(moved > 70 * 70 / 2, "the springs move the nodes: {moved}");
        // 200 × 200: halves of about 19,900 lanes, split between threads when asked.
        let (bands, moved) = stripes_match_one_by_one(200);
        assert_eq!(bands, vec![199, 200, 201, 400]);
        assert!(moved > 200 * 200 / 2, "the springs move the nodes: {moved}");
    }

    /// Projects the long bands of the n × n grid with every instruction set, on one thread and
    /// on all, and checks each against the springs one by one in stripe order; returns the
    /// long bands' offsets and how many nodes the springs moved.
    fn stripes_match_one_by_one(n: usize) -> (Vec<usize>, usize) {
        let (pos, vel, springs) = grid(n);
        let (bands, _) = bands_of(&springs, &vec![true; springs.len()]);
        let (h, w) = (
            1.0 / 300.0,
            (0..n * n).map(|i| if i < 2 { 0.0 } else { 1.0 + (i % 3) as f32 }).collect::<Vec<_>>(),
        );
        let u_prev: Vec<Vec3A> = vel.iter().map(|v| *v * 0.01).collect();
        let u: Vec<Vec3A> =
            u_prev.iter().map(|p| *p * 1.5 + Vec3A::new(0.0, -0.001, 0.0)).collect();
        let mut stripes = Stripes::default();
        bands.stripe_weights(h, &w, &mut stripes);
        let mut base = Columns::default();
        split(&pos, &mut base);
        let (mut cols, mut prev_cols) = (Columns::default(), Columns::default());
        let mut moved = usize::MAX;
        for damped in [false, true] {
            let mut truth = u.clone();
            stripes_one_by_one(&bands, (h, &w), (&pos, &u_prev), damped, &mut truth);
            moved = moved.min(truth.iter().zip(&u).filter(|(t, u)| t != u).count());
            for (isa, threads) in Isa::available()
                .into_iter()
                .flat_map(|isa| [Threads::One, Threads::All].map(|threads| (isa, threads)))
            {
                let mut striped = u.clone();
                let (u_cols, u_prev_cols) = (&mut cols, &mut prev_cols);
                let mut work =
                    StripeWork { stripes: &stripes, base: &base, u: u_cols, u_prev: u_prev_cols };
                work.project_on(isa, &bands, damped, (&u_prev, &mut striped), threads);
                let same = striped.iter().zip(&truth).all(|(s, t)| s.to_array() == t.to_array());
                assert!(same, "{n} × {n}, {isa:?}, {threads:?}, damped {damped}");
            }
        }
        (bands.long().map(|b| b.offset).collect(), moved)
    }

    #[test]
    fn every_instruction_set_gives_the_same_forces_bit_for_bit() {
        let (pos, vel, springs) = grid(40);
        let (bands, _) = bands_of(&springs, &vec![true; springs.len()]);
        for damped in [false, true] {
            let run = |isa| {
                let forces = banded_forces(&bands, isa, (&pos, &vel), damped);
                forces.iter().map(|f| f.to_array()).collect::<Vec<_>>()
            };
            let baseline = run(Isa::Baseline);
            for isa in Isa::available() {
                assert_eq!(run(isa), baseline, "{isa:?}, damped {damped}");
            }
        }
    }
}
