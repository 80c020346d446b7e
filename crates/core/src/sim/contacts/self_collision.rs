//! # Self-collision: layers of one model kept a thickness apart
//!
//! A folded sheet, a pile of cloth or a solid's surface pressed onto itself must not pass
//! through itself. Every node is a ball, and two nodes i, j closer than the thickness τ are
//! pushed apart along their line, unless they were close at rest (neighbours in the mesh,
//! which the springs hold: below). As a position constraint solved once per Xpbd sub-step
//! after the springs (Müller et al., "Position Based Dynamics", 2007, §3.3):
//!
//! ```text
//! d = x_i − x_j,   C = τ − |d| > 0,   n = d / |d|
//! x_i ← x_i + w_i/(w_i + w_j) C n,     x_j ← x_j − w_j/(w_i + w_j) C n
//! ```
//!
//! and friction takes away the pair's relative sliding in the sub-step, Δx_⊥ (their
//! displacements' difference across n), up to μ times the normal push (Coulomb, as position
//! corrections: Macklin, Müller, Chentanez & Kim, "Unified Particle Physics for Real-Time
//! Applications", SIGGRAPH 2014, §6.1):
//!
//! ```text
//! Δx_⊥ = [(x_i − x̄_i) − (x_j − x̄_j)]_⊥,   s = min(1, μ C_a / |Δx_⊥|)
//! C_a = C − min(C, max(0, τ − |x̄_i − x̄_j|))
//! x_i ← x_i − w_i/(w_i + w_j) s Δx_⊥,      x_j ← x_j + w_j/(w_i + w_j) s Δx_⊥
//! ```
//!
//! Velocities come from positions in Xpbd, so the push stops the nodes' approach and adds no
//! speed beyond it: a pile at rest stays at rest. Anchors (w = 0) do not move.
//!
//! The friction's bound is μ times C_a, the push that answers the pair's approach within the
//! sub-step: C less the depth it had at the sub-step's start. A node squeezed between two
//! layers is pushed every sub-step by the depth it keeps, and friction as large as that push
//! held it against its springs each sub-step and let it go the next. A strip folded under
//! more sub-steps (below) lay with such nodes at 0.1 to 0.2 m/s for as long as it lay;
//! bounded so, at 0.02.
//!
//! - x, x̄: a node's position now and at the start of the sub-step (m); w: its inverse mass
//!   (1/kg); τ: [`crate::model::SelfCollision::thickness`] (m); μ: its friction.
//!
//! **Why nodes, and how thick.** Two layers whose nodes are all τ apart cannot cross where the
//! balls of each layer close its triangles: a node passing through a triangle of edge L comes
//! within L/√3 of its corners (the middle of a square of the grid, L/√2). The converter's default τ
//! is 0.9 of the mean edge, which closes both with room to spare; a thinner τ lets layers slip
//! through the middle of large triangles. The room is what a pile squeezes: its lowest layers lie
//! between the ground and the weight above, one pass a sub-step does not hold them fully τ apart,
//! and on fine cells they end 16 % closer. At ¾ of the mean edge (τ = 0.85 L on a square grid with
//! diagonals, 21 % above L/√2) that let layers through: strips dropped as in the tests crossed at
//! 112 of 151 samples (0.3 × 1.6 m of 8 mm cells), 3 (2 × 0.5 m of 1 cm) and 142 (0.3 × 1.6 m of 6
//! mm, up to 91 pairs); at 0.9 (τ = 1.02 L, 45 % above), at 1, 0 and 3 (one pair at a time), and
//! every coarser strip of the tests, oblong, modeler-made or Blender-made, at none either way
//! (those at 0.9 with sub-steps capped at four times the model's; at eight, below, at 0, 0 and 0).
//! Point–triangle tests would hold any τ but cost a triangle query per node; the nodes' balls hold
//! the strip pile of `crates/convert/tests/self_collision.rs` (no two triangles cross at any
//! sample) at 1.4 to 1.6 times the frame without self-collision (`cargo bench -p springmesh-convert
//! --bench frame -- strip_pile`: 479 and 683 µs at 0.9 of the mean edge, 1.43 times).
//!
//! **Balls on long edges.** Two edges of length L that cross at their middles keep their ends
//! L/√2 apart, so the nodes' balls hold them only up to L = √2 τ. A sheet of oblong cells (a
//! plane scaled and subdivided, as modelers make one) has edges longer than its mean: cells of
//! 5 × 2.5 cm, τ = 3.9 cm, edges of 5 and 5.6 cm. Every edge longer than [`LONG_EDGE`] τ
//! (about √2) therefore gets balls between its nodes, at most that far apart, each at a
//! fraction t along its edge (i, j) and riding on both: p = (1 − t) x_i + t x_j. A pair of
//! balls a, b is pushed as two nodes are, by the smallest mass-weighted change of the nodes
//! they ride on (Müller et al. 2007, §3.3, with ∂p/∂x_k = w_k):
//!
//! ```text
//! S = Σ_a w_k² m_k⁻¹ + Σ_b w_k² m_k⁻¹,     Δx_k = ± w_k m_k⁻¹ (C n − s Δx_⊥) / S
//! ```
//!
//! with C, n, Δx_⊥ and s of the balls' places and moves as above; two nodes (w = 1) give the
//! formula above. The cells of 5 × 2.5 cm piled up as the strip does crossed at 134 of 151
//! samples without these balls and at none with them; cells of 10 × 2.5 cm at 126 and 1,
//! cells of 1.25 × 2.5 cm at 134 and 1 (measured at τ = ¾ of the mean edge). Square cells'
//! diagonals, 1.38 τ at 0.9 of the mean edge, stay just under [`LONG_EDGE`] and keep no
//! balls: balls on them (at ¾, where they were 1.66 τ) made the strip's frame cost 2.3 times
//! the plain one and its pile jitter at 1 m/s.
//!
//! **Neighbours.** Nodes closer than 1.1 τ at rest ([`NEIGHBOURS_AT_REST`]) are never pushed apart:
//! those closer than τ cannot be held τ apart without fighting the springs, and the 1.1 leaves a
//! square grid's edges (at 0.98 τ) to its springs too, with room for rounding. Every pair left out
//! is one the layers may fold through: a plane scaled and subdivided as modelers make one has cells
//! of 1.2 × 6.4 cm (τ = 3.5 cm at ¾ of the mean edge), and 1.5 τ left out the nodes four columns
//! apart, 4.8 cm, so its columns folded over each other unseen: its pile crossed at 134 of 151
//! samples; at 1.3 τ, at none (nor the 1 × 5.2 cm cells of one subdivided 30 times). At τ = 0.9 of
//! the mean edge (4.2 cm there) those nodes are 1.13 τ apart: hence 1.1. Taking only the pairs
//! closer than τ at ¾ of the mean edge also crossed at none, but kept every edge of a square grid
//! (then 1.17 τ) as a pair pushed whenever the pile squeezed it: piles lay with nodes at up to 0.11
//! m/s.
//!
//! **How many sub-steps.** Two layers that close by more than their window in one sub-step pass
//! through each other between two looks: a node crossing a square cell of edge L comes within τ of
//! a corner over 2 √(τ² − L²/2) of its path, 1.2 cm for a strip of 1.25 cm cells at τ = 1.07 cm (¾
//! of its mean edge; 1.28 cm now). That 1 × 0.25 m strip, at 16 sub-steps a 60 Hz frame, dropped on
//! its end, folds with its top at up to 5.8 m/s onto its foot at rest, 0.56 τ a sub-step: its
//! layers crossed at 6 samples (up to 49 pairs). So a step takes at least as many sub-steps as keep
//! any two nodes from closing by more than [`LAYER_TRAVEL`] τ in one ([`substeps_for_layers`]):
//! they close no faster than the diagonal of the box around the nodes' velocities, plus what
//! gravity adds over the step (g Δt, if one is held and the other falls), so
//!
//! ```text
//! n ≥ (|v_max − v_min| + |g| Δt) Δt / (LAYER_TRAVEL τ)
//! ```
//!
//! (v_min, v_max: the box's corners), at most [`MAX_LAYER_SUBSTEPS`] times the model's own:
//! a sheet carried along whole (a cape on a running figure) takes none extra, nor a pile at
//! rest. The strip then crosses at no sample. Why eight times: strips of cells under a
//! centimetre, whose tops fall onto their feet at 4.5 to 5 m/s, ask for 78 to 100 sub-steps a
//! frame in their fall, five to six times their 16; held to four times, a cell crumpled at the
//! impact left two triangles of neighbouring cells crossing (0.3 × 1.6 m of 8 mm cells: one
//! pair at one of 151 samples; 0.15 × 1.6 m of 6 mm: two pairs at one), and at eight, none.
//! What the eight cost: the worn cape of `crates/convert/benches/frame.rs`, whose walk clip
//! loops back to its start (the figure jumps back), whips for a few frames at each jump and
//! takes 64 sub-steps for two frames and 33 to 53 for the next two or three, where it took
//! 32 (its own 8 otherwise, 1,109 frames of 1,200).
//!
//! Why a quarter of the thickness, on the worn figures as well: the sub-steps it asks for are
//! most of what a worn cape costs above its own six (the walker's cape takes 8.4 a 60 Hz frame
//! on its walk, run and turn). At 0.35 of a thickness it took 6.9 and 11 % fewer instructions
//! a frame (callgrind, 200 frames), at half a thickness 6.2 and 19 % fewer, but the runner's
//! long cape (`crates/convert/tests/worn_figure.rs`) then crossed itself: at 0.35, 2 pairs of
//! triangles at 1/24 and at 1/48 s, 16 mm deep in a leg at 1/24 s; at half, 2 and 1 pairs,
//! 24 mm deep. Its shins flick the hem up into the rows above, and the sub-steps a quarter
//! asks for are what hold it.
//!
//! Tried and not kept: only the nodes that can meet in the step. Two nodes further apart than
//! R = τ + (S + |g| Δt) Δt at the step's start (S: the diagonal above) stay more than τ apart
//! through it, so the bound needs only the velocities of nodes within R of each other, bounded by
//! the boxes of velocities of neighbouring cells of edge R. The worn figures then took fewer
//! sub-steps a frame (400 frames: the walker's cape 7.45 against 8.51, the runner's 13.43 against
//! 15.60, the dancer's skirt 6.06 against 6.40, the walker's scarf 6.14 against 6.48), the walker's
//! cape's frame 0.94 times the time and the skirt's 0.97 (`worn_frames`, in turns), every worn test
//! passing; taking out first the rigid motion that best fits the velocities, the walker's cape
//! 7.18. But the strip of 8 mm cells of `crates/convert/tests/self_collision.rs` then lay boiling,
//! a node here and there at up to 0.17 m/s in its last second (and with the rigid fit, crossed at
//! one sample). That strip's tests are a draw at either bound: with the bound scaled by 0.95 to
//! 1.05 (20 runs), at the box's diagonal its layers crossed in 3 and its pile did not rest in 7; at
//! the nearer nodes', 3 and 3. With the frame step moved instead (11 drops from 57 to 63 Hz,
//! `how_often_each_strip_holds_as_the_frame_step_moves` in that file), at the box's none crossed
//! and 3 did not rest; at the nearer nodes', 2 crossed and 2 did not rest. Which heap a fall
//! crumples into decides, and at the exact bound the tests pass by chance. Fewer sub-steps here
//! wait on piles that rest and hold whatever heap they land in. Weighting the pushes by height, the
//! lower node of a pair made e^(K Δh/τ) times heavier (the stacking of Macklin et al. 2014), is not
//! yet that: at K = 0.5 the 8 mm strip held in 19 of 20 such runs, but the strip of oblong cells
//! then lay moving in 7 of 10 (in none without), and at K = 2 the 8 mm strip crossed in 13 of 20.
//! Nor is a second pass of the pushes in each sub-step: the 8 mm strip failed in 11 of 20, the
//! strip of oblong cells lay moving in 10 of 10. Nor is more friction between layers: at 0.8 (0.5
//! now), of the 11 drops at 57 to 63 Hz the 8 mm strip crossed in 3 and kept moving in 6, the
//! oblong strip kept moving in 2.
//!
//! **Which pairs.** The balls sorted by cells as large as the reach r ([`crate::grid`]) give
//! every pair within r: each ball looks along x within r in its own row of cells and the four
//! rows after it of the eight around, which finds each pair of neighbouring rows once. They
//! were first found in a spatial hash that looked up 14 cells for each cell; sorted, the
//! humanoid figure's cape (266 balls, 2,239 pairs looked at a query) costs 0.92 times the
//! instructions a frame (callgrind), with the same pairs in the same order. Its pairs serve as
//! long as they can (Verlet's neighbour list; Müller's "Ten Minute Physics" 15: query once,
//! solve many): the query reaches r = τ (1 + [`SLACK`]), and is made again only when two nodes
//! may have closed by more than the slack s = [`SLACK`] τ since, measured on the nodes'
//! displacements d_i from where the query found them:
//!
//! ```text
//! query again when  2 max_i |d_i − c| > s,   c = the middle of the box around the d_i
//! ```
//!
//! Two nodes close by at most |d_i − d_j| ≤ |d_i − c| + |d_j − c|, so a pair not found (r
//! apart) is still τ apart; a ball on an edge moves as a mix of its nodes' moves, within the
//! same bound. A sheet carried along whole (a cape on a running figure) or a pile at rest keeps
//! its pairs across steps. The bound was first a forecast, the diagonal of the box around the
//! nodes' velocities at the step's start times the sub-steps the pairs were to serve (at most
//! τ/2 of closing), made again at every step; the Blender-made figure's cape on its walk and
//! run queried in 42 % of its sub-steps. Measured with s = τ/2 it queried in 28 %, yet its
//! frame was no faster (1.03 times the forecast's, the skirt's 1.12: every query reached
//! 1.5 τ, where the forecast's often reached less); at s = τ the cape took 603 µs against 679
//! but the strip pile, which rarely queries, 807 against 633. At s = τ/4, in turns with the
//! forecast (`tools/bench-compare.py`, `crates/convert/benches/frame.rs`, 3 rounds): the cape
//! 0.99 times, the skirt 0.97, the strip pile with self-collision 0.95 (without it, 0.97:
//! the sitting's noise). Taking out the rigid motion that best fits the displacements (a
//! turning figure) saved few queries (the cape's 28 % became 24 %) for the cost of the fit.
//! The pairs are solved one after another on one
//! thread, in the order of their balls (a counting sort on the first ball, each ball's few
//! pairs then sorted by the second), so the result depends neither on the threads nor on where
//! the cells fall. Solved in the order found, cell by cell, a pile at rest was not: the cells'
//! size follows the fastest node, so they moved from one step to the next, and with them the
//! order of a Gauss–Seidel pass whose pairs share nodes, and so where each node ended. Piles of
//! fine cells then never came to rest. Strips dropped as in the tests, their fastest node from
//! 4 to 10 s (sampled 30 times a second), in cell order and in ball order:
//!
//! | strip | cell order | ball order |
//! |---|---|---|
//! | 0.3 × 1.6 m, 8 mm cells (7,839 nodes) | 0.42 m/s, up to 239 nodes above 5 cm/s | 0.014 m/s, 0.000 from 8 s |
//! | 0.15 × 1.6 m, 6 mm | 0.28 m/s, up to 252 nodes | 0.005 m/s |
//! | 0.5 × 2 m, 1 cm | 0.37 m/s, up to 194 nodes | 0.16 m/s, one to four nodes |
//! | 0.3 × 1.6 m, 2.5 cm (the tests' strip) | 0.041 m/s throughout | 0.043 m/s, 0.000 from 9 s |
//! | 0.25 × 1 m, 1.25 cm | 0.005 m/s | 0.011 m/s, 0.001 from 8 s |
//!
//! What is left: the 1 cm strip's pile, whose nodes rest but for one to four at a time that
//! start at about 0.1 m/s every second or so. The counting sort is O(pairs + balls): 1.2 % of
//! the instructions of the 2.5 cm strip's 10 s of falling and lying, 1.8 % of the worn cape's
//! walk (`crates/convert/benches/frame.rs`, 3.3 queries a frame; callgrind).
//!
//! **A worn cloth: once more at the sub-step's end.** The body's limbs push a worn cloth's
//! nodes after this pass, and can press one layer into another (a running shin flicking a long
//! cape's hem up into the rows above). So a worn cloth's layers are pushed apart again, with
//! the pairs found at the sub-step's start and no friction, after the node collisions and
//! before its max distances and strain limit come last ([`crate::sim::constraints::strain`]).
//!
//! Bounds (a file with every node in one place must not stall a step): each node looks at
//! [`MAX_SCAN`] others at most and keeps its [`MAX_PAIRS`] nearest pairs, the ones that matter
//! when a pile is dense enough to have more.

use crate::NodeId;
use crate::grid::{Grid, counting_sort};
use glam::Vec3A;

/// The most two nodes may close on each other in one sub-step, in thicknesses (module doc).
pub(crate) const LAYER_TRAVEL: f32 = 0.25;

/// The most sub-steps self-collision asks for, in times the model's own: what a strip of 6 mm
/// cells falling onto itself at 5 m/s needs (module doc), and a bound on the cost of a file
/// whose nodes fly apart.
pub(crate) const MAX_LAYER_SUBSTEPS: u32 = 8;

/// Sub-steps a step of `dt` needs so that no two of the nodes moving at `velocities`, under
/// `gravity`, close by more than [`LAYER_TRAVEL`] `thickness` in one (module doc); at least 1
/// (the caller bounds it, and takes its own count when this is not finite).
pub(crate) fn substeps_for_layers(
    velocities: &[Vec3A],
    gravity: Vec3A,
    thickness: f32,
    dt: f32,
) -> f32 {
    let closing = (closing_speed(velocities.iter().copied()) + gravity.length() * dt) * dt;
    (closing / (LAYER_TRAVEL * thickness)).max(1.0)
}

/// The fastest two of the nodes moving at `velocities` can close: the diagonal of the box
/// around the velocities (m/s; 0 for none). Whatever two nodes' velocities in the box, their
/// difference is no longer: a sheet carried along whole closes nothing.
pub(crate) fn closing_speed(velocities: impl IntoIterator<Item = Vec3A>) -> f32 {
    let inf = Vec3A::splat(f32::INFINITY);
    let (lo, hi) = velocities.into_iter().fold((inf, -inf), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if lo.x > hi.x { 0.0 } else { (hi - lo).length() }
}

/// Most nodes one node looks at in a query: more than a sheet or a surface packs within its
/// reach when its nodes are a thickness apart.
pub(crate) const MAX_SCAN: usize = 1024;

/// Most pairs one node keeps from a query: its nearest.
pub(crate) const MAX_PAIRS: usize = 64;

/// Nodes closer than this many thicknesses at rest are neighbours, never pushed apart (module
/// doc).
const NEIGHBOURS_AT_REST: f32 = 1.1;

/// How much farther than the thickness a query reaches, in thicknesses: the pairs it finds
/// serve until two nodes may have closed by that much (module doc).
pub(crate) const SLACK: f32 = 0.25;

/// What [`SelfContacts::query`] reads: the nodes' positions now, their rest offsets
/// (shape matching's q, whose differences are the rest distances) and inverse masses.
pub(crate) struct Nodes<'a> {
    pub base: &'a [Vec3A],
    pub u: &'a [Vec3A],
    pub rest: &'a [Vec3A],
    pub inv_mass: &'a [f32],
    /// The model's triangles, whose long edges get balls between their nodes.
    pub faces: &'a [[NodeId; 3]],
}

/// The balls: every node, then points on the edges longer than [`LONG_EDGE`] thicknesses,
/// each between its edge's two nodes.
#[derive(Clone, Debug, Default)]
struct Balls {
    /// The two nodes of each ball (a node's: itself twice) and how far along it is from the
    /// first to the second.
    ends: Vec<[u32; 2]>,
    along: Vec<f32>,
    /// Its offset at rest.
    rest: Vec<Vec3A>,
    /// How many of the balls are nodes (the first).
    nodes: usize,
    /// The thickness and the counts of nodes and faces they were placed for.
    built: (u32, usize, usize),
}

/// Edges longer than this many thicknesses get balls between their nodes, at most this far
/// apart (module doc).
const LONG_EDGE: f32 = 1.4;

impl Balls {
    /// The balls of `nodes` at `thickness`, kept when already placed for them.
    fn place(&mut self, nodes: &Nodes, thickness: f32) {
        let n = nodes.rest.len();
        // A simulation's rest offsets and faces are fixed from its start (Compiled::new), and
        // its SelfContacts live with it: only the thickness (a game's to change) can differ.
        let key = (thickness.to_bits(), n, nodes.faces.len());
        if self.built == key && self.ends.len() >= n {
            return;
        }
        self.built = key;
        self.nodes = n;
        self.ends = (0..n as u32).map(|i| [i, i]).collect();
        self.along = vec![0.0; n];
        self.rest = nodes.rest[..n].to_vec();
        let mut seen = std::collections::HashSet::new();
        let longest = LONG_EDGE * thickness;
        for f in nodes.faces {
            let f = f.map(|v| v.0);
            for (a, b) in [(f[0], f[1]), (f[1], f[2]), (f[2], f[0])] {
                let (a, b) = (a.min(b), a.max(b));
                let (Some(&ra), Some(&rb)) =
                    (nodes.rest.get(a as usize), nodes.rest.get(b as usize))
                else {
                    continue;
                };
                let parts = (ra.distance(rb) / longest).ceil();
                // NaN parts (a rest offset not finite) place nothing.
                let long = parts >= 2.0;
                if !long || !seen.insert((a, b)) || self.ends.len() > MAX_BALLS {
                    continue;
                }
                let parts = parts.min(MAX_PARTS) as u32;
                for k in 1..parts {
                    let t = k as f32 / parts as f32;
                    self.ends.push([a, b]);
                    self.along.push(t);
                    self.rest.push(ra + (rb - ra) * t);
                }
            }
        }
    }

    /// Where ball `b` is, on nodes at `at`.
    #[inline]
    fn at(&self, b: usize, at: impl Fn(usize) -> Vec3A) -> Vec3A {
        if b < self.nodes {
            return at(b);
        }
        let ([i, j], t) = (self.ends[b], self.along[b]);
        let (xi, xj) = (at(i as usize), at(j as usize));
        xi + (xj - xi) * t
    }
}

/// Most balls on edges per model: bounds a file of a few vast triangles.
const MAX_BALLS: usize = 1 << 20;

/// Most balls on one edge.
const MAX_PARTS: f32 = 1024.0;

/// The pairs of nodes that may touch, and the hash that found them; kept between steps.
#[derive(Clone, Debug, Default)]
pub(crate) struct SelfContacts {
    /// Node pairs (i < j) within reach at the last query, in the order of their balls.
    pairs: Vec<[u32; 2]>,
    /// The nodes by cell at the last query.
    grid: Grid,
    /// The nodes' positions at the last query, and the thickness it was for: how far they
    /// have drifted since says when to query again.
    queried_at: Vec<Vec3A>,
    queried_for: f32,
    /// The balls the pairs are of.
    balls: Balls,
    /// Scratch of putting the pairs in ball order: where each ball's pairs begin, and the
    /// pairs so.
    first: Vec<u32>,
    sorted: Vec<[u32; 2]>,
    /// Scratch of a query: the balls near the one looking ([`Grid::near`]), and the pairs it
    /// keeps with their squared lengths.
    near: Vec<(u32, f32)>,
    kept: Vec<(f32, [u32; 2])>,
}

impl SelfContacts {
    /// Ready for a sub-step: queries again at the reach τ (1 + [`SLACK`]) when two nodes may
    /// have closed by more than the slack since the last query (module doc).
    pub fn ready(&mut self, nodes: &Nodes, thickness: f32) {
        let slack = SLACK * thickness;
        if self.drift(nodes, thickness) > slack {
            self.query(nodes, thickness, thickness + slack);
            self.queried_at.clear();
            self.queried_at.extend(nodes.base.iter().zip(nodes.u).map(|(&x0, &u)| x0 + u));
            self.queried_for = thickness;
        }
    }

    /// The most any two nodes have closed on each other since the last query: twice the
    /// farthest of their displacements d_i from the middle c of the box around them (module
    /// doc); infinite when nothing was queried for these nodes at this thickness.
    fn drift(&self, nodes: &Nodes, thickness: f32) -> f32 {
        let n = nodes.base.len().min(nodes.u.len());
        if self.queried_at.len() != n || n == 0 || self.queried_for != thickness {
            return f32::INFINITY;
        }
        let moved = || {
            let now = nodes.base.iter().zip(nodes.u).map(|(&x0, &u)| x0 + u);
            now.zip(&self.queried_at).map(|(x, &q)| x - q)
        };
        let inf = Vec3A::splat(f32::INFINITY);
        let (lo, hi) = moved().fold((inf, -inf), |(lo, hi), d| (lo.min(d), hi.max(d)));
        let middle = (lo + hi) * 0.5;
        let farthest = moved().map(|d| (d - middle).length_squared()).fold(0.0, f32::max);
        // NaN (a position not finite) queries again: the query bounds its own work.
        if farthest.is_nan() { f32::INFINITY } else { 2.0 * farthest.sqrt() }
    }

    /// Finds the pairs of balls within `reach` of each other that were at least `thickness`
    /// apart at rest, share no node and are not both anchored.
    fn query(&mut self, nodes: &Nodes, thickness: f32, reach: f32) {
        let n = nodes.base.len().min(nodes.u.len()).min(nodes.rest.len()).min(nodes.inv_mass.len());
        self.balls.place(nodes, thickness);
        let balls = &self.balls;
        let fits = |b: &[u32; 2]| (b[0] as usize) < n && (b[1] as usize) < n;
        let count = if balls.ends.iter().all(fits) { balls.ends.len() } else { 0 };
        let node = |i: usize| nodes.base[i] + nodes.u[i];
        let at = |b: usize| balls.at(b, node);
        self.grid.build(count, at, reach);
        self.pairs.clear();
        let neighbours = NEIGHBOURS_AT_REST * thickness;
        let (reach2, excluded2) = (reach * reach, neighbours * neighbours);
        let free = |b: usize| balls.ends[b].iter().any(|&k| nodes.inv_mass[k as usize] > 0.0);
        let (pairs, kept) = (&mut self.pairs, &mut self.kept);
        // Each ball looks at MAX_SCAN others at most and keeps its MAX_PAIRS nearest pairs.
        self.grid.near((reach2, MAX_SCAN), &mut self.near, |i, near| {
            kept.clear();
            for &(j, d2) in near {
                let j = j as usize;
                let ([i0, i1], [j0, j1]) = (balls.ends[i], balls.ends[j]);
                let shared = i0 == j0 || i0 == j1 || i1 == j0 || i1 == j1;
                let apart_at_rest = (balls.rest[i] - balls.rest[j]).length_squared() >= excluded2;
                if !shared && apart_at_rest && (free(i) || free(j)) {
                    kept.push((d2, [i.min(j) as u32, i.max(j) as u32]));
                }
            }
            if kept.len() > MAX_PAIRS {
                kept.select_nth_unstable_by(MAX_PAIRS - 1, |a, b| a.0.total_cmp(&b.0));
                kept.truncate(MAX_PAIRS);
            }
            pairs.extend(kept.iter().map(|&(_, pair)| pair));
        });
        self.in_ball_order(count);
    }

    /// Puts the pairs in the order of their first ball, then of their second, an order that
    /// does not depend on where the cells are (module doc): by a counting sort on the first
    /// ball, each ball's few pairs then sorted by the second.
    fn in_ball_order(&mut self, balls: usize) {
        let pairs = &self.pairs;
        let first = (|k: usize| pairs[k][0] as usize, balls);
        counting_sort(pairs.len(), first, |k| pairs[k], (&mut self.first, &mut self.sorted));
        for ball in self.first.windows(2) {
            self.sorted[ball[0] as usize..ball[1] as usize].sort_unstable_by_key(|p| p[1]);
        }
        std::mem::swap(&mut self.pairs, &mut self.sorted);
    }

    /// The pairs found at the last query.
    #[cfg(test)]
    pub fn pairs(&self) -> &[[u32; 2]] {
        &self.pairs
    }

    /// Pushes every pair of balls closer than `thickness` apart, with friction `friction`
    /// (module doc), on the displacements `u` from `base` (`u_prev`: those at the start of
    /// the sub-step).
    pub fn project(
        &self,
        (base, inv_mass): (&[Vec3A], &[f32]),
        (u_prev, u): (&[Vec3A], &mut [Vec3A]),
        thickness: f32,
        friction: f32,
    ) {
        let balls = &self.balls;
        let n = base.len().min(inv_mass.len()).min(u_prev.len()).min(u.len());
        let answer =
            |d: Vec3A, moved: Vec3A, light: f32| push(d, moved, light, thickness, friction);
        for &[a, b] in &self.pairs {
            let (a, b) = (a as usize, b as usize);
            if a < balls.nodes && b < balls.nodes && a < n && b < n {
                // Two nodes (most pairs): the same formula on two nodes instead of four.
                let (wa, wb) = (inv_mass[a], inv_mass[b]);
                let d = (base[a] - base[b]) + (u[a] - u[b]);
                let moved = (u[a] - u_prev[a]) - (u[b] - u_prev[b]);
                if let Some(change) = answer(d, moved, wa + wb) {
                    u[a] += change * wa;
                    u[b] -= change * wb;
                }
                continue;
            }
            let (Some(&[a0, a1]), Some(&[b0, b1])) = (balls.ends.get(a), balls.ends.get(b)) else {
                continue;
            };
            let ends = [a0 as usize, a1 as usize, b0 as usize, b1 as usize];
            if ends.iter().any(|&k| k >= n) {
                continue;
            }
            let (ta, tb) = (balls.along[a], balls.along[b]);
            // Each of the four nodes' weight in the pair: + for a's, − for b's.
            let w = [1.0 - ta, ta, tb - 1.0, -tb];
            let (mut d, mut moved, mut light) = (Vec3A::ZERO, Vec3A::ZERO, 0.0);
            for (&k, &wk) in ends.iter().zip(&w) {
                d += (base[k] + u[k]) * wk;
                moved += (u[k] - u_prev[k]) * wk;
                light += wk * wk * inv_mass[k];
            }
            if let Some(change) = answer(d, moved, light) {
                for (&k, &wk) in ends.iter().zip(&w) {
                    u[k] += change * (wk * inv_mass[k]);
                }
            }
        }
    }
}

/// The change of a pair of balls `d` apart (the first's place less the second's), moved
/// `moved` relative to each other in the sub-step, of lightness `light` (Σ w² m⁻¹ over their
/// nodes): pushed `thickness` apart with friction `friction` (module doc), each node moving
/// by it times its w m⁻¹; `None` when they are that far apart already (or on one point, or
/// anchored).
#[inline]
fn push(d: Vec3A, moved: Vec3A, light: f32, thickness: f32, friction: f32) -> Option<Vec3A> {
    let length2 = d.length_squared();
    // A pair whose place went non-finite within the step (which is then rejected) pushes
    // nothing: `clamp` below would panic on it.
    if length2 >= thickness * thickness || !length2.is_finite() || length2 == 0.0 || light == 0.0 {
        return None;
    }
    let length = length2.sqrt();
    let (n, push) = (d / length, thickness - length);
    let across = moved - n * moved.dot(n);
    let amount = across.length();
    // Friction only from the push that answers the sub-step's approach (module doc).
    let pressed = push - (thickness - (d - moved).length()).clamp(0.0, push);
    let held =
        if amount > 0.0 { across * (friction * pressed / amount).min(1.0) } else { Vec3A::ZERO };
    Some((n * push - held) / light)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_take_the_sub_steps_that_keep_their_nodes_closing_a_quarter_thickness_in_one() {
        // One node still, one falling at 5.8 m/s, one sliding at 0.3 m/s: the box of their
        // velocities has a diagonal of √(0.3² + 5.8²) = 5.8078 m/s; gravity adds 9.81 / 60 =
        // 0.1635 m/s over a 60 Hz frame, so they close by at most 5.9713 / 60 = 0.099522 m,
        // a quarter of τ = 1.07 cm (2.675 mm) 37.20 times.
        let v = [Vec3A::ZERO, Vec3A::new(0.0, -5.8, 0.0), Vec3A::new(0.3, 0.0, 0.0)];
        let g = Vec3A::new(0.0, -9.81, 0.0);
        let n = substeps_for_layers(&v, g, 0.0107, 1.0 / 60.0);
        assert!((n - 37.20).abs() < 0.01, "{n}");
        // At rest, gravity's 0.1635 / 60 = 2.725 mm in a frame: 1.02 quarters of 1.07 cm.
        let still = substeps_for_layers(&[Vec3A::ZERO; 3], g, 0.0107, 1.0 / 60.0);
        assert!((still - 1.0187).abs() < 1e-3, "{still}");
        // Never fewer than one.
        assert_eq!(substeps_for_layers(&[], Vec3A::ZERO, 0.0107, 1.0 / 60.0), 1.0);
    }

    /// Nodes on a line 1 m apart, unit masses, rest offsets as placed.
    fn row(x: &[f32]) -> (Vec<Vec3A>, Vec<f32>) {
        (x.iter().map(|&x| Vec3A::new(x, 0.0, 0.0)).collect(), vec![1.0; x.len()])
    }

    #[test]
    fn the_query_finds_every_pair_within_reach_not_close_at_rest() {
        // A 6 × 6 × 6 lattice of spacing 0.1 m, at rest 1 m apart (nothing excluded): the
        // pairs within 0.15 m are the 3 × 6 × 6 × 5 = 540 lattice neighbours and the
        // 3 × 6 × 2 × 5 × 5 = 900 diagonals of its squares (0.141 m), found by brute force
        // too.
        let at: Vec<Vec3A> = (0..216)
            .map(|k| Vec3A::new((k % 6) as f32, ((k / 6) % 6) as f32, (k / 36) as f32) * 0.1)
            .collect();
        let rest: Vec<Vec3A> = at.iter().map(|&p| p * 10.0).collect();
        let u = vec![Vec3A::ZERO; at.len()];
        let inv_mass = vec![1.0; at.len()];
        let nodes = Nodes { base: &at, u: &u, rest: &rest, inv_mass: &inv_mass, faces: &[] };
        let mut contacts = SelfContacts::default();
        contacts.query(&nodes, 0.5, 0.15);
        let mut truth = Vec::new();
        for i in 0..at.len() {
            for j in i + 1..at.len() {
                if at[i].distance(at[j]) < 0.15 {
                    truth.push([i as u32, j as u32]);
                }
            }
        }
        assert_eq!(truth.len(), 540 + 900);
        // In the order of their balls: the truth's.
        assert_eq!(contacts.pairs(), truth);
        // Wherever the cells fall (moved by a third of a cell, or twice as large), the same
        // order: a pile at rest solved in an order that changed with its cells did not rest.
        let moved: Vec<Vec3A> = at.iter().map(|&p| p + Vec3A::new(0.05, 0.04, 0.03)).collect();
        let nodes = Nodes { base: &moved, u: &u, rest: &rest, inv_mass: &inv_mass, faces: &[] };
        contacts.query(&nodes, 0.5, 0.15);
        assert_eq!(contacts.pairs(), truth);
        contacts.query(&nodes, 0.5, 0.3);
        let near = |&&[i, j]: &&[u32; 2]| moved[i as usize].distance(moved[j as usize]) < 0.15;
        assert_eq!(contacts.pairs().iter().filter(near).copied().collect::<Vec<_>>(), truth);
        // At rest 0.1 m apart and a thickness of 0.5 m, every neighbour is excluded (another
        // model: its own contacts).
        let mut contacts = SelfContacts::default();
        let nodes = Nodes { base: &at, u: &u, rest: &at, inv_mass: &inv_mass, faces: &[] };
        contacts.query(&nodes, 0.5, 0.15);
        assert!(contacts.pairs().is_empty());
    }

    #[test]
    fn the_pairs_serve_until_two_nodes_may_have_closed_by_the_slack() {
        // Three nodes on a line, 1 m apart, far apart at rest; τ = 0.4 m, so a query reaches
        // 0.5 m (a slack of 0.1) and finds no pair.
        let rest = vec![Vec3A::ZERO, Vec3A::X * 10.0, Vec3A::X * 20.0];
        let base = vec![Vec3A::ZERO, Vec3A::X, Vec3A::X * 2.0];
        let inv_mass = vec![1.0; 3];
        let mut contacts = SelfContacts::default();
        let ready = |contacts: &mut SelfContacts, u: &[Vec3A]| {
            let nodes = Nodes { base: &base, u, rest: &rest, inv_mass: &inv_mass, faces: &[] };
            contacts.ready(&nodes, 0.4);
            contacts.queried_at.clone()
        };
        assert_eq!(SLACK, 0.25);
        let first = ready(&mut contacts, &[Vec3A::ZERO; 3]);
        assert_eq!(first, base);
        assert!(contacts.pairs().is_empty());
        // Carried 5 m whole: nothing closed, no query (the positions queried at are kept).
        assert_eq!(ready(&mut contacts, &[Vec3A::Y * 5.0; 3]), first);
        // The middle node 0.09 m towards the first, the others still: the box of the moves
        // is 0.09 long, so no two closed by more than 0.09 ≤ the slack of 0.1.
        let u = [Vec3A::ZERO, Vec3A::X * -0.09, Vec3A::ZERO];
        assert_eq!(ready(&mut contacts, &u), first);
        // 0.55 m: they may have closed by more than the slack; the query finds the pair now
        // 0.45 m apart, within its reach.
        let u = [Vec3A::ZERO, Vec3A::X * -0.55, Vec3A::ZERO];
        let moved = ready(&mut contacts, &u);
        assert!(moved[1].distance(Vec3A::X * 0.45) < 1e-6);
        assert_eq!(contacts.pairs(), [[0, 1]]);
        // Another thickness: queried again, whatever the moves.
        let nodes = Nodes { base: &base, u: &u, rest: &rest, inv_mass: &inv_mass, faces: &[] };
        contacts.queried_at[1] = Vec3A::splat(9.0);
        contacts.ready(&nodes, 0.3);
        assert_eq!(contacts.queried_at[1], moved[1]);
    }

    #[test]
    fn a_file_with_every_node_in_one_place_is_bounded_by_the_limits() {
        // 3,000 nodes on one point, far apart at rest: every pair is within reach, but a node
        // scans at most MAX_SCAN others and keeps MAX_PAIRS.
        let n = 3000;
        let at = vec![Vec3A::ZERO; n];
        let rest: Vec<Vec3A> = (0..n).map(|i| Vec3A::X * i as f32).collect();
        let (u, inv_mass) = (vec![Vec3A::ZERO; n], vec![1.0; n]);
        let mut contacts = SelfContacts::default();
        contacts.query(
            &Nodes { base: &at, u: &u, rest: &rest, inv_mass: &inv_mass, faces: &[] },
            0.5,
            0.6,
        );
        assert!(contacts.pairs().len() <= n * MAX_PAIRS, "{}", contacts.pairs().len());
        assert!(contacts.pairs().len() >= MAX_PAIRS, "pairs are found");
        let mut u = u;
        contacts.project((&at, &inv_mass), (&vec![Vec3A::ZERO; n], &mut u), 0.5, 0.5);
        assert!(u.iter().all(|u| u.is_finite()), "nodes on one point have no direction: skipped");
    }

    #[test]
    fn a_pair_whose_place_went_non_finite_pushes_nothing() {
        let nan = Vec3A::splat(f32::NAN);
        assert_eq!(push(nan, Vec3A::ZERO, 1.0, 0.5, 0.5), None);
        assert_eq!(push(Vec3A::splat(f32::INFINITY), Vec3A::ZERO, 1.0, 0.5, 0.5), None);
    }

    #[test]
    fn a_pair_closer_than_the_thickness_ends_the_thickness_apart_and_keeps_its_centre() {
        let (base, inv_mass) = row(&[0.0, 0.3]);
        let rest = vec![Vec3A::ZERO, Vec3A::new(5.0, 0.0, 0.0)];
        let mut contacts = SelfContacts::default();
        let u = vec![Vec3A::ZERO; 2];
        contacts.query(
            &Nodes { base: &base, u: &u, rest: &rest, inv_mass: &inv_mass, faces: &[] },
            0.5,
            0.6,
        );
        assert_eq!(contacts.pairs(), &[[0, 1]]);
        let mut u = u;
        contacts.project((&base, &inv_mass), (&[Vec3A::ZERO; 2], &mut u), 0.5, 0.0);
        let (a, b) = (base[0] + u[0], base[1] + u[1]);
        assert!((b.x - a.x - 0.5).abs() < 1e-6, "{a} {b}");
        assert!((a.x + b.x - 0.3).abs() < 1e-6, "the centre stays: {a} {b}");
        // An anchor does not move: the other node goes the whole way.
        let mut u = vec![Vec3A::ZERO; 2];
        contacts.project((&base, &[0.0, 1.0]), (&[Vec3A::ZERO; 2], &mut u), 0.5, 0.0);
        assert_eq!(u[0], Vec3A::ZERO);
        assert!((u[1].x - 0.2).abs() < 1e-6, "{}", u[1]);
    }

    #[test]
    fn long_edges_get_balls_between_their_nodes_once_each() {
        // A 10 × 2.5 cm cell as two triangles, τ = 3.6 cm: edges over 1.4 τ = 5.04 cm get
        // ⌈L / 5.04 cm⌉ parts: the 10 cm sides two (one ball each), the 10.3 cm diagonal,
        // shared by both triangles, three (two balls); the 2.5 cm sides none.
        let rest = [(0.0, 0.0), (0.1, 0.0), (0.1, 0.025), (0.0, 0.025)]
            .map(|(x, y)| Vec3A::new(x, y, 0.0))
            .to_vec();
        let faces = [[0, 1, 2], [0, 2, 3]].map(|f| f.map(NodeId));
        let u = vec![Vec3A::ZERO; 4];
        let inv_mass = vec![1.0; 4];
        let nodes = Nodes { base: &rest, u: &u, rest: &rest, inv_mass: &inv_mass, faces: &faces };
        let mut balls = Balls::default();
        balls.place(&nodes, 0.036);
        assert_eq!(balls.ends.len(), 4 + 1 + 2 + 1);
        assert_eq!(&balls.ends[4..], &[[0, 1], [0, 2], [0, 2], [2, 3]]);
        let third = rest[2] / 3.0;
        assert!(balls.rest[5].distance(third) < 1e-7, "{}", balls.rest[5]);
        assert!(balls.rest[4].distance(Vec3A::new(0.05, 0.0, 0.0)) < 1e-7);
    }

    #[test]
    fn a_ball_on_an_edge_and_a_node_end_the_thickness_apart_and_keep_their_momentum() {
        // Edge 0–1 of 1 m (a ball at its middle, τ = 0.5 m) and node 3, 0.2 m above that
        // middle now and far from it at rest; node 2 closes the triangle far away. Unit
        // masses: S = 0.5² + 0.5² + 1 = 1.5, the change 0.3 / 1.5 = 0.2 m, so the edge's
        // nodes move 0.1 m down and node 3 0.2 m up.
        let base = [(0.0, 0.0), (1.0, 0.0), (0.5, 5.0), (0.5, 0.2)]
            .map(|(x, y)| Vec3A::new(x, y, 0.0))
            .to_vec();
        let mut rest = base.clone();
        rest[3] = Vec3A::new(0.5, 3.0, 0.0);
        let faces = [[NodeId(0), NodeId(1), NodeId(2)]];
        let (u, inv_mass) = (vec![Vec3A::ZERO; 4], vec![1.0; 4]);
        let mut contacts = SelfContacts::default();
        let nodes = Nodes { base: &base, u: &u, rest: &rest, inv_mass: &inv_mass, faces: &faces };
        contacts.query(&nodes, 0.5, 0.6);
        let mut u = u;
        contacts.project((&base, &inv_mass), (&[Vec3A::ZERO; 4], &mut u), 0.5, 0.5);
        assert!((u[0].y + 0.1).abs() < 1e-6 && (u[1].y + 0.1).abs() < 1e-6, "{u:?}");
        assert!((u[3].y - 0.2).abs() < 1e-6, "{u:?}");
        assert!(u.iter().copied().sum::<Vec3A>().length() < 1e-6, "momentum kept: {u:?}");
    }

    #[test]
    fn friction_stops_a_slide_up_to_mu_times_the_push() {
        // Node 1 came 0.25 m closer from 0.559 m away (outside τ = 0.5 m) and slid 0.1 m
        // across, ending 0.2 m in: μ = 0.25 holds 0.05 m of the slide (shared equally),
        // μ = 1 all of it. Had it started 0.316 m away, 0.184 m in already, only the
        // 0.2 − 0.184 = 0.0162 m of the push that answers its approach bounds the friction.
        let (base, inv_mass) = row(&[0.0, 0.3]);
        let rest = vec![Vec3A::ZERO, Vec3A::new(5.0, 0.0, 0.0)];
        let mut contacts = SelfContacts::default();
        let zero = vec![Vec3A::ZERO; 2];
        contacts.query(
            &Nodes { base: &base, u: &zero, rest: &rest, inv_mass: &inv_mass, faces: &[] },
            0.5,
            0.6,
        );
        let deep_before = 0.5 - 0.1f32.hypot(0.3);
        for (from, mu, held) in
            [(0.25, 0.25, 0.05), (0.25, 1.0, 0.1), (0.0, 1.0, 0.2 - deep_before)]
        {
            let before = [Vec3A::ZERO, Vec3A::new(from, -0.1, 0.0)];
            let mut u = vec![Vec3A::ZERO, Vec3A::ZERO];
            contacts.project((&base, &inv_mass), (&before, &mut u), 0.5, mu);
            let slid = (u[1] - before[1]).y - (u[0] - before[0]).y;
            assert!((slid - (0.1 - held)).abs() < 1e-6, "from {from}, μ {mu}: slid {slid}");
        }
    }
}
