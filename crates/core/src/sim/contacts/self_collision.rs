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
//! Δx_⊥ = [(x_i − x̄_i) − (x_j − x̄_j)]_⊥,   s = min(1, μ C / |Δx_⊥|)
//! x_i ← x_i − w_i/(w_i + w_j) s Δx_⊥,      x_j ← x_j + w_j/(w_i + w_j) s Δx_⊥
//! ```
//!
//! Velocities come from positions in Xpbd, so the push stops the nodes' approach and adds no
//! speed beyond it: a pile at rest stays at rest. Anchors (w = 0) do not move.
//!
//! - x, x̄: a node's position now and at the start of the sub-step (m); w: its inverse mass
//!   (1/kg); τ: [`crate::model::SelfCollision::thickness`] (m); μ: its friction.
//!
//! **Why nodes, and how thick.** Two layers whose nodes are all τ apart cannot cross where
//! the balls of each layer close its triangles: a node passing through a triangle of edge L
//! comes within L/√3 of its corners (the middle of a square of the grid, L/√2). The
//! converter's default τ is ¾ of the mean edge, which closes both; a thinner τ lets
//! layers slip through the middle of large triangles. Point–triangle tests would hold any τ
//! but cost a triangle query per node; the nodes' balls hold the strip pile of
//! `crates/convert/tests/self_collision.rs` (no two triangles cross at any sample) at 1.4
//! times the frame without self-collision.
//!
//! **Neighbours.** Nodes closer than 1.5 τ at rest ([`NEIGHBOURS_AT_REST`]) are never pushed
//! apart: the springs hold them, and with τ at ¾ of the edge this leaves the mesh's edges
//! (at 1.33 τ) to the springs. Taking only the pairs closer than τ at rest kept every edge as
//! a candidate, checked every sub-step and never touching: the strip pile's frame cost 2.2
//! times the plain one against 2.0 (measured before the hash's lookups were halved, which
//! brought it to 1.4).
//!
//! **Which pairs.** A spatial hash ([`super::grid`]) of cells as large as the reach r finds
//! every pair within r: each node looks in its own cell and the 13 of the 26 around it that come
//! after it, which finds each pair of neighbouring cells once. It is built once for as
//! many sub-steps as the fastest node takes to cover τ/2 (Müller's "Ten Minute Physics" 15:
//! query once, solve many), with r = τ + 2 v_max t over those k sub-steps of t = k h: a pair
//! not found cannot close the gap in time. Pairs are kept in the order found and solved in
//! that order, on one thread, so the result does not depend on the threads. Bounds (a file
//! with every node in one place must not stall a step): each node looks at
//! [`MAX_SCAN`] others at most and keeps [`MAX_PAIRS`] pairs; r is at most 3τ, so a node
//! faster than τ per sub-step may pass through a layer.

use crate::sim::contacts::grid::{FORWARD, Grid, offset};
use glam::Vec3A;

/// Most nodes one node looks at in a query: more than a sheet or a surface packs within its
/// reach when its nodes are a thickness apart.
pub(crate) const MAX_SCAN: usize = 1024;

/// Most pairs one node keeps from a query.
pub(crate) const MAX_PAIRS: usize = 64;

/// Nodes closer than this many thicknesses at rest are neighbours, never pushed apart.
const NEIGHBOURS_AT_REST: f32 = 1.5;

/// Largest reach of a query, in thicknesses.
const MAX_REACH: f32 = 3.0;

/// What [`SelfContacts::query`] reads: the nodes' positions now, their rest offsets
/// (shape matching's q, whose differences are the rest distances) and inverse masses.
pub(crate) struct Nodes<'a> {
    pub base: &'a [Vec3A],
    pub u: &'a [Vec3A],
    pub rest: &'a [Vec3A],
    pub inv_mass: &'a [f32],
}

/// The pairs of nodes that may touch, and the hash that found them; kept between steps.
#[derive(Clone, Debug, Default)]
pub(crate) struct SelfContacts {
    /// Node pairs (i < j) within reach at the last query, in the order found.
    pairs: Vec<[u32; 2]>,
    /// The nodes by cell at the last query.
    grid: Grid,
    /// Sub-steps the pairs still cover.
    left: u32,
}

impl SelfContacts {
    /// Forgets the pairs: the next sub-step queries again.
    pub fn expire(&mut self) {
        self.left = 0;
    }

    /// Ready for a sub-step of `h` s, with the fastest node at `v_max` m/s and `substeps`
    /// sub-steps left in the step: queries again when the pairs have expired.
    pub fn ready(&mut self, nodes: &Nodes, thickness: f32, (v_max, h, substeps): (f32, f32, u32)) {
        if self.left == 0 {
            let per_substep = v_max * h;
            let k =
                if per_substep > 0.0 { (0.5 * thickness / per_substep) as u32 } else { substeps };
            let k = k.clamp(1, substeps.max(1));
            let reach = (thickness + 2.0 * per_substep * k as f32).min(MAX_REACH * thickness);
            self.query(nodes, thickness, reach);
            self.left = k;
        }
        self.left -= 1;
    }

    /// Finds the pairs of nodes within `reach` of each other that were at least `thickness`
    /// apart at rest and are not both anchored.
    fn query(&mut self, nodes: &Nodes, thickness: f32, reach: f32) {
        let n = nodes.base.len().min(nodes.u.len()).min(nodes.rest.len()).min(nodes.inv_mass.len());
        let at = |i: usize| nodes.base[i] + nodes.u[i];
        self.grid.build(n, at, reach);
        self.pairs.clear();
        let neighbours = NEIGHBOURS_AT_REST * thickness;
        let (reach2, excluded2) = (reach * reach, neighbours * neighbours);
        for i in 0..n {
            let (x, c) = (at(i), self.grid.cell(i));
            let (mut scanned, mut kept) = (0, 0);
            // Its own cell's later nodes, and every node of the 13 cells after it: each pair
            // of neighbouring cells is looked at from one side only.
            'cells: for (k, &d) in FORWARD.iter().enumerate() {
                for j in self.grid.points_in(offset(c, d)) {
                    if k == 0 && j <= i {
                        continue;
                    }
                    scanned += 1;
                    if scanned > MAX_SCAN || kept >= MAX_PAIRS {
                        break 'cells;
                    }
                    let movable = nodes.inv_mass[i] + nodes.inv_mass[j] > 0.0;
                    let apart_at_rest =
                        (nodes.rest[i] - nodes.rest[j]).length_squared() >= excluded2;
                    if movable && apart_at_rest && (at(j) - x).length_squared() < reach2 {
                        self.pairs.push([i.min(j) as u32, i.max(j) as u32]);
                        kept += 1;
                    }
                }
            }
        }
    }

    /// The pairs found at the last query.
    #[cfg(test)]
    pub fn pairs(&self) -> &[[u32; 2]] {
        &self.pairs
    }

    /// Pushes every pair closer than `thickness` apart, with friction `friction` (module
    /// doc), on the displacements `u` from `base` (`u_prev`: those at the start of the
    /// sub-step).
    pub fn project(
        &self,
        (base, inv_mass): (&[Vec3A], &[f32]),
        (u_prev, u): (&[Vec3A], &mut [Vec3A]),
        thickness: f32,
        friction: f32,
    ) {
        for &[i, j] in &self.pairs {
            let (i, j) = (i as usize, j as usize);
            let (Some(&xi), Some(&xj), Some(&wi), Some(&wj)) =
                (base.get(i), base.get(j), inv_mass.get(i), inv_mass.get(j))
            else {
                continue;
            };
            let (Some(&pi), Some(&pj)) = (u_prev.get(i), u_prev.get(j)) else { continue };
            let d = (xi - xj) + (u[i] - u[j]);
            let length2 = d.length_squared();
            let w = wi + wj;
            if length2 >= thickness * thickness || length2 == 0.0 || w == 0.0 {
                continue;
            }
            let length = length2.sqrt();
            let (n, push) = (d / length, thickness - length);
            let (ai, aj) = (wi / w, wj / w);
            u[i] += n * (ai * push);
            u[j] -= n * (aj * push);
            let slid = (u[i] - pi) - (u[j] - pj);
            let across = slid - n * slid.dot(n);
            let amount = across.length();
            if amount > 0.0 {
                let held = across * (friction * push / amount).min(1.0);
                u[i] -= held * ai;
                u[j] += held * aj;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let nodes = Nodes { base: &at, u: &u, rest: &rest, inv_mass: &inv_mass };
        let mut contacts = SelfContacts::default();
        contacts.query(&nodes, 0.5, 0.15);
        let mut found = contacts.pairs().to_vec();
        found.sort_unstable();
        let mut truth = Vec::new();
        for i in 0..at.len() {
            for j in i + 1..at.len() {
                if at[i].distance(at[j]) < 0.15 {
                    truth.push([i as u32, j as u32]);
                }
            }
        }
        assert_eq!(truth.len(), 540 + 900);
        assert_eq!(found, truth);
        // At rest 0.1 m apart and a thickness of 0.5 m, every neighbour is excluded.
        let nodes = Nodes { base: &at, u: &u, rest: &at, inv_mass: &inv_mass };
        contacts.query(&nodes, 0.5, 0.15);
        assert!(contacts.pairs().is_empty());
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
        contacts.query(&Nodes { base: &at, u: &u, rest: &rest, inv_mass: &inv_mass }, 0.5, 0.6);
        assert!(contacts.pairs().len() <= n * MAX_PAIRS, "{}", contacts.pairs().len());
        assert!(contacts.pairs().len() >= MAX_PAIRS, "pairs are found");
        let mut u = u;
        contacts.project((&at, &inv_mass), (&vec![Vec3A::ZERO; n], &mut u), 0.5, 0.5);
        assert!(u.iter().all(|u| u.is_finite()), "nodes on one point have no direction: skipped");
    }

    #[test]
    fn a_pair_closer_than_the_thickness_ends_the_thickness_apart_and_keeps_its_centre() {
        let (base, inv_mass) = row(&[0.0, 0.3]);
        let rest = vec![Vec3A::ZERO, Vec3A::new(5.0, 0.0, 0.0)];
        let mut contacts = SelfContacts::default();
        let u = vec![Vec3A::ZERO; 2];
        contacts.query(&Nodes { base: &base, u: &u, rest: &rest, inv_mass: &inv_mass }, 0.5, 0.6);
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
    fn friction_stops_a_slide_up_to_mu_times_the_push() {
        // Node 1 slid 0.1 m across while being pushed 0.2 m in: μ = 0.25 holds 0.05 m of it
        // (shared equally), μ = 1 all of it.
        let (base, inv_mass) = row(&[0.0, 0.3]);
        let rest = vec![Vec3A::ZERO, Vec3A::new(5.0, 0.0, 0.0)];
        let mut contacts = SelfContacts::default();
        let zero = vec![Vec3A::ZERO; 2];
        contacts.query(
            &Nodes { base: &base, u: &zero, rest: &rest, inv_mass: &inv_mass },
            0.5,
            0.6,
        );
        for (mu, held) in [(0.25, 0.05), (1.0, 0.1)] {
            let before = [Vec3A::ZERO, Vec3A::new(0.0, -0.1, 0.0)];
            let mut u = vec![Vec3A::ZERO, Vec3A::ZERO];
            contacts.project((&base, &inv_mass), (&before, &mut u), 0.5, mu);
            let slid = (u[1] - before[1]).y - (u[0] - before[0]).y;
            assert!((slid - (0.1 - held)).abs() < 1e-6, "μ {mu}: slid {slid}");
        }
    }
}
