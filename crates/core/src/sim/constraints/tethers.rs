//! # Tethers: long-range attachments to the anchors
//!
//! A cloth hanging from its anchors is held by chains of springs, and a spring pass with few
//! sub-steps lets the chain as a whole stretch: each spring moves its ends only part of the way
//! back each sub-step, and the error piles up along the chain (the 128 × 128 stiff benchmark
//! cloth at five 60 Hz sub-steps stretched 364%). Kim, Chentanez & Müller ("Long Range
//! Attachments — A Method to Simulate Inextensible Clothing in Computer Games", SCA 2012)
//! observed that a node can never be farther from an anchor than the rest length of the
//! shortest spring path between them, and enforce just that, in one pass over the nodes:
//!
//! ```text
//! L_i = min over anchors a of  g(i, a)           (rest geodesic distance over the model)
//! C_i(x) = |x_i − x_a(i)| − (1 + s) L_i ≤ 0      (a unilateral constraint per free node)
//! ```
//!
//! - `x_i`: the node's position; `x_a(i)`: its anchor's position *now* (an anchor a game moves
//!   carries its tethers along);
//! - `g(i, a)`: the length of the shortest way from `a` to `i` at rest, along springs (each
//!   weighted by its rest length) and straight across triangles whose three edges are
//!   springs: Dijkstra from all anchors at once, where settling a node also offers its
//!   neighbours across each triangle it shares with a settled node the distance that fast
//!   marching on triangle meshes gives (Kimmel & Sethian, "Computing geodesic paths on
//!   manifolds", PNAS 1998: the triangle laid flat beside the source's unfolded position).
//!   O(S log N) for S springs and N nodes, when a step first needs them (at compile time when
//!   the parameters have them on; a model with tethers off pays nothing) and again after
//!   springs break (a piece torn off has no way left to any anchor and falls free);
//! - `s`: [`crate::model::Tethers::slack`] (default 0.1%).
//!
//! Why across triangles: along springs alone, the distance on a grid is the octile one
//! (straight runs and diagonals), up to 8% longer than the true distance and 29% of a spacing
//! too long beside the diagonals from an anchor; those nodes were free to stretch their springs
//! that much (the 128 × 128 stiff benchmark cloth at five sub-steps: 29%, against 3.8% with
//! distances across the triangles). A model without faces (the seed article's springs-only
//! cloth: structural, shear and skip-one bend springs) is measured across the triangles that
//! three of its springs close, which on a flat grid are the faces' triangles and more, so it
//! gets the same lengths as the same cloth with faces (the springs-only 128 × 128 cloth at
//! five sub-steps stretched 26.6% with lengths along springs). A rope closes no triangle and
//! keeps the springs' distances, which are exact along it.
//!
//! A violated constraint is projected with zero compliance (anchors have infinite mass, so the
//! node alone moves onto the sphere of radius (1 + s) L_i around its anchor), by the small
//! excess only, so that the displacements keep their precision (see
//! [`crate::sim::integrators::xpbd`]). The projection is answered as a contact with the
//! sphere, inelastic, in the frame of the anchor (a rope's end that the game may be moving at
//! V_a): the node's velocity relative to the anchor loses its outward radial part (the
//! tangential part and any inward goals are kept), and the move onto the sphere itself
//! becomes no velocity:
//!
//! ```text
//! n = (x_i − x_a) / |x_i − x_a|,   e = |x_i − x_a| − (1 + s) L_i  (> 0: violated)
//! x_i ← x_i − e n,                  v_i ← v_i − max(0, (v_i − V_a)·n) n
//! ```
//!
//! So a node at rest on its sphere stays at rest, a node whose anchor moves away is carried
//! at the anchor's speed along n (a yanked rope's end: never faster than the anchor; a weight
//! lifted on its tether rises with the velocity of the lift, test), and a node that starts far
//! beyond its reach (a model loaded stretched) is brought onto the sphere without being
//! flung. The explicit integrators do just that after integration. Xpbd derives velocities
//! from positions, v = (x − x_prev)/h, so the pull moves the previous position too, by all of
//! the pull but the node's outward goals relative to the anchor this sub-step,
//! x_prev ← x_prev − (e − max(0, (Δx_i − Δx_a)·n)) n: the velocity it then derives is the one
//! above. A pull of at most [`HELD`] of the reach (a resting node that gravity takes a little
//! out each sub-step) becomes velocity as any Xpbd constraint's, so that a hanging cloth comes
//! to rest. (Turning every pull into velocity flung a node 0.1 m beyond its reach at 0.1 m per
//! 1/960 s sub-step, 94 m/s; turning none of the anchor's goals into velocity left a weight
//! lifted on its tether "falling" ever faster while it rose.)
//!
//! **Anchors a game moves apart.** A tether says the model cannot stretch; a game that moves
//! one anchor away from the others stretches it anyway, and projecting the nodes onto their
//! tethers at once pulls the whole model taut within one frame (a 32 × 32 cloth whose corner
//! is teleported 0.5 m from the other: nodes at 42–90 m/s, against the corner's own 30 m/s and
//! the springs' 25 m/s without tethers). Two rules leave that to the springs:
//!
//! - **Slack from the anchor's own goals.** Before each step, each anchor's tethers get as
//!   slack ([`Goals::loosen`]) how far it moves apart from the best rigid goals of all the
//!   anchors ([`crate::align`]), doubled and at most its travel (one of two anchors dragged
//!   away gets its whole travel, the other none; anchors a game carries as one, a character's
//!   shoulders or a flag's pole, none), and the slack is taken back at [`TIGHTEN_SPEED`]. A
//!   node is then pulled after a jump at that speed, not the jump's; an anchor dragged slower
//!   than that keeps its tethers within one step's travel of their length.
//! - **Lengths that meet.** A node tied to two anchors further apart than its tethers reach
//!   together (L_a + L_b, with their slack) has no place within both, and projecting onto one
//!   sphere after the other threw it back and forth every sub-step. Each step, its tethers are
//!   all lengthened by the factor |x_a − x_b| / (L_a + L_b) (the largest over its pairs of
//!   anchors, at their positions at the step's end), so that they meet again with the slack
//!   s on top; the springs stretch as far as the game pulls.
//!
//! Each node is tied to its [`PER_NODE`](crate::sim::data::tethers::PER_NODE) nearest anchors (Dijkstra settling up to that many
//! distinct sources per node, O(k S log(kN))), and the constraints are projected one after the
//! other.

use crate::sim::columns::{ColumnLoop, Columns, Isa, run};
use crate::sim::data::tethers::PER_NODE;
use crate::sim::data::{Goals, Tethers};
use glam::Vec3A;

/// Under Xpbd a tether's pull of at most this fraction of its reach becomes velocity, as a
/// constraint holding a resting node does (and so a hanging cloth comes to rest); a larger
/// one is answered as a contact in the anchor's frame (module docs). A thousandth: the default
/// slack, above what a sub-step's goals leaves on a resting cloth.
const HELD: f32 = 1e-3;

/// How near its reach, as a fraction of it, a tether is taut ([`Tethers::taut`]): the pull
/// leaves it at its reach to rounding.
pub(crate) const TAUT: f32 = 1e-4;

/// How fast (m/s) the slack an anchor's own goals gave its tethers is taken back
/// ([`Goals::loosen`], module docs): 1 m/s, about a walking hand's speed, so a cloth a game
/// drags by a corner stays within a step's travel of its tethers, and a node pulled back after
/// a teleport moves no faster than a hand would drag it.
pub(crate) const TIGHTEN_SPEED: f32 = 1.0;

impl Tethers {
    /// How far each tether lets its node go from its anchor during a step that ends with the
    /// anchors at `goals.anchors.target`: (1 + slack) L plus its anchor's slack for now
    /// ([`Goals::loosen`]), and for a node tied to several anchors that a game has moved
    /// further apart than the node's tethers reach together (a corner of a held cloth dragged
    /// away from the other), every tether of that node longer by the same factor, enough that
    /// their lengths meet and the slack stays (module docs). Written to `out`, in the
    /// tethers' order.
    pub fn reach(&self, slack: f32, goals: &Goals, out: &mut Vec<f32>) {
        let slot = |t: usize| self.slot.get(t).copied().unwrap_or(u32::MAX) as usize;
        out.clear();
        out.extend(
            self.length
                .iter()
                .enumerate()
                .map(|(t, l)| l + goals.slack.get(slot(t)).copied().unwrap_or(0.0)),
        );
        let at = |t: u32| goals.anchors.target.get(slot(t as usize)).copied();
        for group in &self.groups {
            // The group's tethers up to its first pad: their anchors' places and reaches, and
            // whether each is there to be paired (every pair of a group's four in one loop of
            // fixed bounds: groups of one to four in no order cost a mispredicted branch each
            // in loops of their own length).
            let (mut ends, mut ties) = ([(Vec3A::ZERO, 0.0f32, false); PER_NODE], PER_NODE);
            for (k, (end, &t)) in ends.iter_mut().zip(group).enumerate() {
                if t == u32::MAX {
                    ties = ties.min(k);
                } else if let Some(a) = at(t).filter(|_| k < ties) {
                    *end = (a, out[t as usize], true);
                }
            }
            let mut stretch = 1.0f32;
            for n in 0..PER_NODE {
                for m in n + 1..PER_NODE {
                    let ((a, reach_a, paired_a), (b, reach_b, paired_b)) = (ends[n], ends[m]);
                    let together = reach_a + reach_b;
                    if paired_a && paired_b && together > 0.0 {
                        stretch = stretch.max(a.distance(b) / together);
                    }
                }
            }
            if stretch > 1.0 {
                for &t in &group[..ties] {
                    out[t as usize] *= stretch;
                }
            }
        }
        for reach in out.iter_mut() {
            *reach *= 1.0 + slack;
        }
    }

    /// For each node at the end of a tether (within [`TAUT`] of its `reach`, its place given
    /// by `at`), the unit way out along it, from its anchor to the node: written to `out` (by
    /// node), which keeps zero for the others.
    pub fn taut(&self, reach: &[f32], at: impl Fn(usize) -> Option<Vec3A>, out: &mut [Vec3A]) {
        let ends = self.node.iter().zip(&self.anchor).zip(reach);
        for ((&node, &anchor), &reach) in ends {
            let (Some(x), Some(a)) = (at(node as usize), at(anchor as usize)) else { continue };
            let out_along = x - a;
            if out_along.length() >= reach * (1.0 - TAUT)
                && let Some(slot) = out.get_mut(node as usize)
            {
                *slot = out_along.normalize_or_zero();
            }
        }
    }

    /// Moves every tethered node at `base + u` (Xpbd's displacements; x, y, z columns, see
    /// [`crate::sim::columns`]) beyond its `reach` (in the tethers' order) from its anchor back
    /// onto that sphere, moving u by the excess only. Its displacement a sub-step ago,
    /// `u_prev`, moves too, less the outward part of u − u_prev: the velocity Xpbd then derives
    /// from u − u_prev is the node's goals before the pull without its outward part, as at a
    /// contact with the sphere, and the pull itself becomes no velocity (module docs). Runs one
    /// after the other, eight nodes of a run at a time where the CPU has AVX, four otherwise,
    /// with no branch per node (most nodes of a hanging cloth are pulled every sub-step).
    /// Nothing when the columns do not cover the nodes.
    pub fn pull_columns(
        &self,
        reach: &[f32],
        base: &Columns,
        u: &mut Columns,
        u_prev: &mut Columns,
    ) {
        self.pull_on::<true>(Isa::detect(), reach, base, u, u_prev);
    }

    /// [`Tethers::pull_columns`] of nodes at `x` (no base) moving at `v`: a node pulled back
    /// also loses the outward part of its velocity, as at a contact with the sphere (the
    /// explicit integrators).
    pub fn pull_stopping(&self, reach: &[f32], x: &mut Columns, v: &mut Columns) {
        self.pull_on::<false>(Isa::detect(), reach, &Columns::default(), x, v);
    }

    /// The pulls with the loop built for `isa`: of nodes at `base + u` whose displacements a
    /// sub-step ago are `v` (`BASE`), or of nodes at `u` moving at `v`.
    fn pull_on<const BASE: bool>(
        &self,
        isa: Isa,
        reach: &[f32],
        base: &Columns,
        u: &mut Columns,
        v: &mut Columns,
    ) {
        let n = u[0].len();
        let covered = |c: &Columns| c.iter().all(|c| c.len() == n);
        if !covered(u) || (BASE && !covered(base)) || !covered(v) || reach.len() != self.len() {
            return;
        }
        run(isa, PullColumns::<BASE> { tethers: self, reach, base, u, v });
    }
}

/// [`Tethers::pull_on`]'s loop, as a [`ColumnLoop`].
struct PullColumns<'a, const BASE: bool> {
    tethers: &'a Tethers,
    /// How far each tether lets its node go ([`Tethers::reach`]).
    reach: &'a [f32],
    /// Read when `BASE`.
    base: &'a Columns,
    u: &'a mut Columns,
    /// The displacements a sub-step ago when `BASE`, else the velocities.
    v: &'a mut Columns,
}

/// How many tethers of a run [`PullColumns`] gathers the anchors of at once, on the stack (the
/// layout in sweeps, [`Tethers`]): a multiple of any vector's lanes, and few enough kilobytes
/// to stay in the first cache.
const CHUNK: usize = 64;

/// An anchor as [`pull_run`] reads it: its base position (with a base), its displacement or
/// position, and its goals this sub-step or velocity.
type Anchor = ([f32; 3], [f32; 3], [f32; 3]);

/// The anchor of each lane of a run.
trait Lanes {
    /// How many lanes it has anchors for.
    const LANES: usize;
    fn at(&self, lane: usize) -> Anchor;
}

/// One anchor for every lane (a run of the layout by anchor).
struct One(Anchor);

impl Lanes for One {
    const LANES: usize = usize::MAX;
    #[inline(always)]
    fn at(&self, _: usize) -> Anchor {
        self.0
    }
}

/// Each lane's anchor, x, y, z columns each (a run of the layout in sweeps).
struct Gathered {
    base: [[f32; CHUNK]; 3],
    now: [[f32; CHUNK]; 3],
    moving: [[f32; CHUNK]; 3],
}

impl Lanes for Gathered {
    const LANES: usize = CHUNK;
    #[inline(always)]
    fn at(&self, lane: usize) -> Anchor {
        let column = |c: &[[f32; CHUNK]; 3]| [c[0][lane], c[1][lane], c[2][lane]];
        (column(&self.base), column(&self.now), column(&self.moving))
    }
}

impl<const BASE: bool> ColumnLoop for PullColumns<'_, BASE> {
    #[inline(always)]
    fn run(self) {
        let PullColumns { tethers, reach, base: [bx, by, bz], u: [ux, uy, uz], v: [vx, vy, vz] } =
            self;
        let n = ux.len();
        let (ux, uy, uz) = (&mut ux[..n], &mut uy[..n], &mut uz[..n]);
        let (vx, vy, vz) = (&mut vx[..n], &mut vy[..n], &mut vz[..n]);
        let bases = if BASE { Some((&bx[..n], &by[..n], &bz[..n])) } else { None };
        let mut gathered =
            Gathered { base: [[0.0; CHUNK]; 3], now: [[0.0; CHUNK]; 3], moving: [[0.0; CHUNK]; 3] };
        for run in &tethers.runs {
            let Some(&first) = tethers.node.get(run.start) else { continue };
            let chunk = if tethers.by_anchor { run.len().max(1) } else { CHUNK };
            for start in run.clone().step_by(chunk) {
                let end = run.end.min(start + chunk);
                let at = first as usize + (start - run.start);
                let (r, Some(reach), Some(ids)) =
                    (at..at + (end - start), reach.get(start..end), tethers.anchor.get(start..end))
                else {
                    continue;
                };
                if r.end > n || ids.iter().any(|&a| a as usize >= n) {
                    continue;
                }
                let run_bases: [&[f32]; 3] = match bases {
                    Some((bx, by, bz)) => [&bx[r.clone()], &by[r.clone()], &bz[r.clone()]],
                    None => [&[]; 3],
                };
                // The anchors are tied to nothing: read before the run's nodes move, they stay
                // as they are.
                let (us, vs) = ((&*ux, &*uy, &*uz), (&*vx, &*vy, &*vz));
                let one = match ids.first() {
                    Some(&a) if tethers.by_anchor => Some(One(anchor::<BASE>(a, us, vs, bases))),
                    _ => None,
                };
                if one.is_none() {
                    for (lane, &a) in ids.iter().enumerate().take(CHUNK) {
                        let (base, now, moving) = anchor::<BASE>(a, us, vs, bases);
                        for k in 0..3 {
                            gathered.base[k][lane] = base[k];
                            gathered.now[k][lane] = now[k];
                            gathered.moving[k][lane] = moving[k];
                        }
                    }
                }
                let u = [&mut ux[r.clone()], &mut uy[r.clone()], &mut uz[r.clone()]];
                let v = [&mut vx[r.clone()], &mut vy[r.clone()], &mut vz[r]];
                match &one {
                    Some(one) => pull_run::<BASE, _>(one, reach, run_bases, u, v),
                    None => pull_run::<BASE, _>(&gathered, reach, run_bases, u, v),
                }
            }
        }
    }
}

/// Node `a` as an anchor ([`Anchor`]), of displacements or positions `u` and of
/// displacements a sub-step ago or velocities `v` (all of one length, which `a` is under),
/// and of positions `bases` at the step's start when `BASE`.
#[inline(always)]
fn anchor<const BASE: bool>(
    a: u32,
    (ux, uy, uz): (&[f32], &[f32], &[f32]),
    (vx, vy, vz): (&[f32], &[f32], &[f32]),
    bases: Option<(&[f32], &[f32], &[f32])>,
) -> Anchor {
    let a = a as usize;
    let now = [ux[a], uy[a], uz[a]];
    let was = [vx[a], vy[a], vz[a]];
    let base = bases.map_or([0.0; 3], |(bx, by, bz)| [bx[a], by[a], bz[a]]);
    // Its goals this sub-step (with a base) or its velocity.
    let moving = if BASE { std::array::from_fn(|k| now[k] - was[k]) } else { was };
    (base, now, moving)
}

/// Pulls the nodes of one run (positions `bases` at the step's start plus displacements `u`
/// when `BASE`, else positions `u`; how far they may go, `reach`) towards their anchors
/// (`anchors`, lane by lane). Without a base `v` holds velocities, which lose their outward
/// part relative to the anchor's; with one it holds the displacements a sub-step ago, which
/// follow the pull less the outward part of u − u_prev relative to the anchor's
/// ([`Tethers::pull_columns`]). With a base, the offset from the anchor is the bases' offset
/// (fixed for the step) plus the displacements', so a pull moves u by the small excess only
/// and keeps its precision. Every column is a slice of its own, so that the compiler knows
/// they do not overlap and vectorizes the loop ([`crate::sim::forces::bands`]).
#[inline(always)]
fn pull_run<const BASE: bool, A: Lanes>(
    anchors: &A,
    reach: &[f32],
    [ox, oy, oz]: [&[f32]; 3],
    [ux, uy, uz]: [&mut [f32]; 3],
    [vx, vy, vz]: [&mut [f32]; 3],
) {
    let n = reach.len().min(A::LANES);
    let (ux, uy, uz) = (&mut ux[..n], &mut uy[..n], &mut uz[..n]);
    let (vx, vy, vz) = (&mut vx[..n], &mut vy[..n], &mut vz[..n]);
    let bases = if BASE { Some((&ox[..n], &oy[..n], &oz[..n])) } else { None };
    for j in 0..n {
        let ([abx, aby, abz], [aux, auy, auz], [amx, amy, amz]) = anchors.at(j);
        let (mut dx, mut dy, mut dz) = (ux[j] - aux, uy[j] - auy, uz[j] - auz);
        if let Some((ox, oy, oz)) = bases {
            (dx, dy, dz) = ((ox[j] - abx) + dx, (oy[j] - aby) + dy, (oz[j] - abz) + dz);
        }
        let squared = dx * dx + dy * dy + dz * dz;
        let max = reach[j];
        let distance = squared.sqrt();
        let excess = (distance - max).max(0.0);
        let inward = if excess > 0.0 { 1.0 / distance } else { 0.0 };
        // n is the outward unit direction, zero for a node within.
        let (nx, ny, nz) = (dx * inward, dy * inward, dz * inward);
        // The goals this sub-step (with a base) or the velocity, relative to the anchor's, and
        // its outward part.
        let (mx, my, mz) = if BASE {
            (ux[j] - vx[j] - amx, uy[j] - vy[j] - amy, uz[j] - vz[j] - amz)
        } else {
            (vx[j] - amx, vy[j] - amy, vz[j] - amz)
        };
        let outward = (mx * nx + my * ny + mz * nz).max(0.0);
        // Without a base the velocity loses its outward part; with one, u_prev follows the
        // pull but for that outward goals, so that the derived velocity loses it (module docs).
        let held = excess <= HELD * max;
        let shift = if !BASE {
            outward
        } else if held {
            0.0
        } else {
            excess - outward
        };
        (vx[j], vy[j], vz[j]) = (vx[j] - nx * shift, vy[j] - ny * shift, vz[j] - nz * shift);
        (ux[j], uy[j], uz[j]) = (ux[j] - nx * excess, uy[j] - ny * excess, uz[j] - nz * excess);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::columns::{gather, split};
    use crate::sim::data::Compiled;
    use crate::{Face, Node, NodeId, Spring, SpringKind, SpringModel};
    use glam::{Vec3, Vec3A};

    /// A chain 0-1-2-3 of 1 m springs with a 2.5 m shortcut 0-3, anchored at 0, and a node 4
    /// joined to nothing.
    fn chain() -> Compiled {
        let mut m = SpringModel::default();
        for x in 0..5 {
            m.nodes.push(Node { position: Vec3::new(x as f32, 0.0, 0.0), mass: 1.0 });
        }
        for (a, b, rest) in [(0, 1, 1.0), (1, 2, 1.0), (2, 3, 1.0), (0, 3, 2.5)] {
            m.springs.push(Spring::new(NodeId(a), NodeId(b), rest, 10.0, SpringKind::Stretch));
        }
        m.anchors = vec![NodeId(0)];
        Compiled::new(&m)
    }

    #[test]
    fn lengths_are_shortest_rest_paths_to_the_nearest_anchors() {
        let c = chain();
        let t =
            Tethers::new(5, (c.springs.a(), c.springs.b(), &c.springs.rest), &c.anchors, &c.faces);
        let mut found: Vec<(u32, u32, f32)> =
            (0..t.len()).map(|k| (t.node[k], t.anchor[k], t.length[k])).collect();
        found.sort_by_key(|e| e.0);
        // Node 3 through the shortcut (2.5 m), not the chain (3 m); node 4 has no path.
        assert_eq!(found, vec![(1, 0, 1.0), (2, 0, 2.0), (3, 0, 2.5)]);
        // With node 3 anchored too, nodes 1 and 2 are tied to both anchors.
        let mut c = chain();
        c.anchors.push(3);
        let t =
            Tethers::new(5, (c.springs.a(), c.springs.b(), &c.springs.rest), &c.anchors, &c.faces);
        let mut found: Vec<(u32, u32, f32)> =
            (0..t.len()).map(|k| (t.node[k], t.anchor[k], t.length[k])).collect();
        found.sort_by_key(|e| (e.0, e.1));
        let expected = vec![(1, 0, 1.0), (1, 3, 2.0), (2, 0, 2.0), (2, 3, 1.0)];
        assert_eq!(found, expected, "anchors themselves are tied to nothing");
    }

    #[test]
    fn displacements_from_a_base_are_pulled_the_same() {
        let c = chain();
        let t =
            Tethers::new(5, (c.springs.a(), c.springs.b(), &c.springs.rest), &c.anchors, &c.faces);
        let base = vec![Vec3A::X; 5];
        let u = vec![Vec3A::ZERO, Vec3A::ZERO, Vec3A::new(0.0, 3.0, 0.0), Vec3A::ZERO, Vec3A::ZERO];
        let (mut base_columns, mut u_columns) = (Columns::default(), Columns::default());
        split(&base, &mut base_columns);
        // Node 2 moved out 3 m this sub-step (from its base): all of that goals is outward,
        // so after the pull it has none left: u − u_prev = 0, no velocity.
        let mut prev_columns = Columns::default();
        for isa in Isa::available() {
            split(&u, &mut u_columns);
            split(&[Vec3A::ZERO; 5], &mut prev_columns);
            t.pull_on::<true>(
                isa,
                &within(&t, 0.0),
                &base_columns,
                &mut u_columns,
                &mut prev_columns,
            );
            let (mut pulled, mut prev) = (u.clone(), u.clone());
            gather::<false>(&u_columns, &mut pulled);
            gather::<false>(&prev_columns, &mut prev);
            assert!((base[2] + pulled[2] - Vec3A::new(1.0, 2.0, 0.0)).length() < 1e-6, "{isa:?}");
            assert!((pulled[2] - prev[2]).length() < 1e-6, "{isa:?}: {}", pulled[2] - prev[2]);
            assert_eq!(&pulled[..2], &u[..2], "{isa:?}: within, untouched");
            assert_eq!(&prev[..2], &[Vec3A::ZERO; 2], "{isa:?}: within, untouched");
        }
    }

    #[test]
    fn every_tethered_node_ends_within_reach_the_same_on_every_instruction_set() {
        // A 30 × 30 grid held at three nodes, its nodes displaced every which way.
        let n = 30u32;
        let mut m = SpringModel::default();
        for k in 0..n * n {
            let position = Vec3::new((k % n) as f32 * 0.05, 0.0, (k / n) as f32 * 0.05);
            m.nodes.push(Node { position, mass: 1.0 });
        }
        for k in 0..n * n {
            let right = (k % n + 1 < n).then_some(k + 1);
            for next in [right, (k / n + 1 < n).then_some(k + n)].into_iter().flatten() {
                let spring = Spring::new(NodeId(k), NodeId(next), 0.05, 10.0, SpringKind::Stretch);
                m.springs.push(spring);
            }
        }
        m.anchors = vec![NodeId(0), NodeId(n - 1), NodeId(n * n / 2 + 7)];
        let c = Compiled::new(&m);
        let t = Tethers::new(
            (n * n) as usize,
            (c.springs.a(), c.springs.b(), &c.springs.rest),
            &c.anchors,
            &c.faces,
        );
        let base: Vec<Vec3A> = m.nodes.positions().iter().map(|&p| p.into()).collect();
        let u: Vec<Vec3A> = (0..n * n)
            .map(|k| {
                Vec3A::new(((k * 37) % 11) as f32 * 0.01, -(((k * 13) % 7) as f32) * 0.3, 0.02)
            })
            .collect();
        let slack = 0.001;
        let (mut base_columns, mut u_columns) = (Columns::default(), Columns::default());
        split(&base, &mut base_columns);
        let pulled: Vec<Vec<[f32; 3]>> = Isa::available()
            .into_iter()
            .map(|isa| {
                split(&u, &mut u_columns);
                let mut prev_columns = Columns::default();
                split(&u, &mut prev_columns);
                t.pull_on::<true>(
                    isa,
                    &within(&t, slack),
                    &base_columns,
                    &mut u_columns,
                    &mut prev_columns,
                );
                let mut pulled = u.clone();
                gather::<false>(&u_columns, &mut pulled);
                pulled.iter().map(|p| p.to_array()).collect()
            })
            .collect();
        assert!(pulled.windows(2).all(|w| w[0] == w[1]), "the same bits");
        let at = |i: usize| base[i] + Vec3A::from_array(pulled[0][i]);
        let moved = (0..u.len()).filter(|&i| pulled[0][i] != u[i].to_array()).count();
        assert!(moved > 300, "most nodes were beyond reach: {moved}");
        for k in 0..t.len() {
            let (i, a, length) = (t.node[k] as usize, t.anchor[k] as usize, t.length[k]);
            let reach = (1.0 + slack) * length;
            // The tethers of one node are pulled one after another: only its last one's holds
            // exactly; the earlier ones' hold unless the later pull moved it away again.
            let last = (k + 1..t.len()).all(|l| t.node[l] as usize != i);
            if last {
                assert!(at(i).distance(at(a)) <= reach + 1e-5, "node {i} from anchor {a}");
            }
        }
    }

    /// Each tether's reach, (1 + `slack`) L, while the anchors keep their rest places.
    fn within(t: &Tethers, slack: f32) -> Vec<f32> {
        t.length.iter().map(|l| l * (1.0 + slack)).collect()
    }

    #[test]
    fn tethers_that_anchors_moved_apart_lengthen_just_enough_to_meet() {
        // A rope of 5 nodes 1 m apart held at both ends: the middle node's tethers are 2 m to
        // each end. Ends dragged 6 m apart: each of its tethers lets it go 3 m; the nodes beside
        // it (1 and 3 m from the ends) get 1.5 and 4.5; the slack is on top. Ends 3 m apart:
        // nothing changes.
        let mut m = SpringModel::default();
        for i in 0..5 {
            m.nodes.push(Node { position: Vec3::X * i as f32, mass: 1.0 });
        }
        for i in 0..4 {
            m.springs.push(Spring::new(NodeId(i), NodeId(i + 1), 1.0, 10.0, SpringKind::Stretch));
        }
        m.anchors = vec![NodeId(0), NodeId(4)];
        let c = Compiled::new(&m);
        let t =
            Tethers::new(5, (c.springs.a(), c.springs.b(), &c.springs.rest), &c.anchors, &c.faces);
        let mut reach = Vec::new();
        let of = |reach: &[f32], node: u32, anchor: u32| {
            let k = (0..t.len()).find(|&k| t.node[k] == node && t.anchor[k] == anchor);
            k.map(|k| reach[k])
        };
        let mut goals = Goals::resting(vec![Vec3A::ZERO, Vec3A::X * 4.0], None);
        goals.anchors.target[1] = Vec3A::X * 3.0;
        t.reach(0.5, &goals, &mut reach);
        assert_eq!(reach, within(&t, 0.5), "closer together: the rest lengths");
        goals.anchors.target[1] = Vec3A::X * 6.0;
        t.reach(0.5, &goals, &mut reach);
        assert_eq!(of(&reach, 2, 0), Some(3.0 * 1.5));
        assert_eq!(of(&reach, 2, 4), Some(3.0 * 1.5));
        assert_eq!(of(&reach, 1, 0), Some(1.5 * 1.5));
        assert_eq!(of(&reach, 1, 4), Some(4.5 * 1.5));
    }

    /// [`Tethers::pull_stopping`] on vectors, with the loop built for `isa`.
    fn stopping(t: &Tethers, isa: Isa, slack: f32, x: &mut [Vec3A], v: &mut [Vec3A]) {
        let (mut xc, mut vc) = (Columns::default(), Columns::default());
        split(x, &mut xc);
        split(v, &mut vc);
        t.pull_on::<false>(isa, &within(t, slack), &Columns::default(), &mut xc, &mut vc);
        gather::<false>(&xc, x);
        gather::<false>(&vc, v);
    }

    #[test]
    fn a_node_too_far_is_pulled_onto_its_sphere_and_others_stay() {
        let c = chain();
        let t =
            Tethers::new(5, (c.springs.a(), c.springs.b(), &c.springs.rest), &c.anchors, &c.faces);
        let start = vec![
            Vec3A::ZERO,
            Vec3A::new(0.0, 1.005, 0.0),
            Vec3A::new(0.0, 3.0, 0.0),
            Vec3A::new(0.0, 0.0, 1.0),
            Vec3A::splat(100.0),
        ];
        for isa in Isa::available() {
            // Every node moving away from the anchor (at the origin) and sideways at once.
            let mut x = start.clone();
            let mut v: Vec<Vec3A> = x.iter().map(|&x| x + Vec3A::new(0.5, 0.0, 0.0)).collect();
            stopping(&t, isa, 0.01, &mut x, &mut v);
            // Node 1 is within its 1% slack, node 2 is pulled back to 2.02 m and stops moving
            // outwards (along y) but keeps its sideways speed, node 3 is near.
            assert!((x[2] - Vec3A::new(0.0, 2.02, 0.0)).length() < 1e-6, "{isa:?}");
            assert_eq!(v[2], Vec3A::new(0.5, 0.0, 0.0), "{isa:?}");
            for i in [1, 3] {
                let moving = start[i] + Vec3A::new(0.5, 0.0, 0.0);
                assert_eq!((x[i], v[i]), (start[i], moving), "{isa:?}: node {i}");
            }
            assert_eq!(x[4], Vec3A::splat(100.0), "{isa:?}: an untethered node is free");
        }
    }

    #[test]
    fn a_node_tied_to_two_anchors_is_in_two_sweeps_of_one_run_each() {
        // The chain held at both ends of 1–2: each of nodes 1 and 2 is tied to anchor 0 in
        // the first sweep and to anchor 3 in the second, so both sweeps are one run of two.
        let mut c = chain();
        c.anchors.push(3);
        let t =
            Tethers::new(5, (c.springs.a(), c.springs.b(), &c.springs.rest), &c.anchors, &c.faces);
        assert_eq!(t.runs, vec![0..2, 2..4]);
        assert_eq!((t.node, t.anchor), (vec![1, 2, 1, 2], vec![0, 0, 3, 3]));
    }

    #[test]
    fn a_run_breaks_at_the_anchor_and_both_sides_are_pulled() {
        // The chain held at node 1: node 0 on one side, nodes 2 and 3 on the other (node 3
        // through the chain, 2 m, its shortcut being to node 0), node 4 on none.
        let mut c = chain();
        c.anchors = vec![1];
        let t =
            Tethers::new(5, (c.springs.a(), c.springs.b(), &c.springs.rest), &c.anchors, &c.faces);
        assert_eq!(t.runs, vec![0..1, 1..3], "nodes 0 and 2–3 are two runs");
        let mut x = [
            Vec3A::new(-3.0, 0.0, 0.0),
            Vec3A::X,
            Vec3A::new(1.0, 2.0, 0.0),
            Vec3A::new(1.0, 0.0, 5.0),
            Vec3A::splat(100.0),
        ];
        stopping(&t, Isa::detect(), 0.0, &mut x, &mut [Vec3A::ZERO; 5]);
        let from_anchor = x.map(|p| p.distance(Vec3A::X));
        assert!((from_anchor[0] - 1.0).abs() < 1e-6, "{from_anchor:?}");
        assert!((from_anchor[2] - 1.0).abs() < 1e-6, "{from_anchor:?}");
        assert!((from_anchor[3] - 2.0).abs() < 1e-6, "{from_anchor:?}");
    }

    #[test]
    fn on_a_flat_grid_tethers_are_straight_line_distances() {
        // A 30 × 30 grid of 0.1 m with diagonals (two triangles per square), anchored at a
        // corner: the graph distance to (29, 12) is the octile 3.397 m; straight it is 3.139 m.
        let n = 30u32;
        let mut m = SpringModel::default();
        for j in 0..n {
            for i in 0..n {
                let p = Vec3::new(i as f32 * 0.1, 0.0, j as f32 * 0.1);
                m.nodes.push(Node { position: p, mass: 1.0 });
            }
        }
        let id = |i: u32, j: u32| NodeId(j * n + i);
        for (i, j) in (0..n - 1).flat_map(|j| (0..n - 1).map(move |i| (i, j))) {
            m.faces.push(Face { nodes: [id(i, j), id(i + 1, j + 1), id(i + 1, j)], uvs: None });
            m.faces.push(Face { nodes: [id(i, j), id(i, j + 1), id(i + 1, j + 1)], uvs: None });
        }
        // A stretch spring along every triangle edge, as a conversion makes them.
        let edges: std::collections::BTreeSet<(NodeId, NodeId)> = m
            .faces
            .iter()
            .flat_map(|f| {
                [(f.nodes[0], f.nodes[1]), (f.nodes[1], f.nodes[2]), (f.nodes[2], f.nodes[0])]
            })
            .map(|(a, b)| (a.min(b), a.max(b)))
            .collect();
        for (a, b) in edges {
            let rest = m.distance(a, b).expect("nodes");
            m.springs.push(Spring::new(a, b, rest, 10.0, SpringKind::Stretch));
        }
        m.anchors = vec![id(0, 0)];
        m.params.tethers = Some(crate::model::Tethers::default());
        let c = Compiled::new(&m);
        let t = c.tethers.expect("on");
        // The same grid without its faces: the triangles its springs close are the faces'.
        let mut springs_only = m.clone();
        springs_only.faces = Default::default();
        let alone = Compiled::new(&springs_only).tethers.expect("on");
        assert_eq!((&alone.node, &alone.anchor), (&t.node, &t.anchor));
        assert_eq!(alone.length, t.length, "the same lengths, springs only");
        let worst = (0..t.len())
            .map(|k| {
                let (i, length) = (t.node[k] as usize, t.length[k]);
                let straight = m.nodes.positions()[i].length();
                assert!(length >= straight * (1.0 - 1e-5), "node {i}: {length} < {straight}");
                length / straight - 1.0
            })
            .fold(0.0f32, f32::max);
        assert!(worst < 1e-4, "at most {:.5}% longer than straight", worst * 100.0);
        let far = (0..t.len()).find(|&k| t.node[k] == id(29, 12).0);
        let length = t.length[far.expect("tethered")];
        assert!((length - (2.9f32.hypot(1.2))).abs() < 1e-4, "{length}");
    }
}
