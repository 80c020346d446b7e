//! # The points a body touches others with
//!
//! A body of a world touches others with points of its drawn surface (the module doc of
//! [`super`]): its vertices, each on up to four nodes with weights w_k, and, where its
//! triangles are large, points that fill them. Two bodies' points are kept δ apart, where δ is
//! ¾ of the larger of the two bodies' spacings s; a point passing through a triangle of
//! longest edge L comes within L/√3 of a corner (the circumradius of the widest acute
//! triangle; an obtuse one's farthest point is nearer), so points spaced about s close each
//! other's triangles.
//!
//! **The spacing** s is the mean edge ē of the drawn surface, and at most D / [`ACROSS`], D the
//! diagonal of the box around it at rest. A low-poly prop (a crate of twelve triangles, its
//! mean edge 1.14 times its side) would otherwise keep others δ = 0.85 sides away: a ball
//! dropped on such a crate hung in the air above it, a crate on a crate was thrown off.
//!
//! **The fill.** A triangle whose longest edge L is more than [`FILL_BEYOND`] s (far above a
//! mesh's usual spread: the blob's longest edge is 1.5 ē, the scanned bunny's 2.7 ē in a
//! handful of triangles) is cut into the n² triangles of edge L / n, n = ⌈L / s⌉: each of its
//! edges gets the n − 1 points between its corners (once per edge, for the two triangles that
//! share it) and its inside the (n − 1)(n − 2) / 2 points of the grid, at barycentric
//! (i, j, k) / n. A fill point is on the corners' nodes with the corners' weights times its
//! barycentric ones when they are four nodes or fewer (a body without a skin: one node a
//! corner). A skin's corners ride on four nodes each, up to twelve in all, and a point keeps
//! four: those whose tetrahedron holds it most squarely, weighted to put it exactly where it
//! is. Such four exist: the point is in the convex hull of the twelve (its corners are), so
//! in the hull of four of them (Carathéodory). Keeping the four heaviest of the twelve
//! weights instead put the fill of the Utah teapot on a 283-node cage 1.6 cm off its
//! triangles on average, 5.6 cm at most; those weights are left for flat tetrahedra only.
//! Without the fill, the Utah teapot (1.2 m long, its triangles' edges up to 2.2 ē) let a
//! bunny's vertices through by 4 cm. At most [`MAX_FILL`] points are added: past that the
//! fill's spacing grows (a file of one vast triangle among tiny ones must not take all
//! memory).

use super::search::{Bounds, chunk_boxes, patch_order};
use super::{Drawn, Motion};
use crate::NodeId;
use crate::model::SKIN_WEIGHT_TOLERANCE;
use crate::sim::Simulation;
use glam::{Vec3, Vec3A};
use std::collections::HashSet;

/// A body's drawn surface is at least this many spacings across (module doc).
pub const ACROSS: f32 = 24.0;

/// Triangles whose longest edge is more than this many spacings are filled (module doc).
pub const FILL_BEYOND: f32 = 2.0;

/// Most points the fill adds to one body.
pub const MAX_FILL: usize = 8192;

/// The points of a body's drawn surface, each on up to four nodes: what it touches other
/// bodies with ([`Touching::of`]; kept with the body, it changes only with its model).
#[derive(Clone, Debug, Default)]
pub struct Touching {
    nodes: Vec<[u32; 4]>,
    weights: Vec<[f32; 4]>,
    /// The spacing of the points (m): the mean edge of the drawn surface, at most its box's
    /// diagonal over [`ACROSS`] (module doc).
    pub(super) edge: f32,
}

impl Touching {
    /// The drawn surface of `sim`: its skin's vertices, or the nodes its faces use (every
    /// node when it has no faces), and the points that fill its large triangles (module doc).
    pub fn of(sim: &Simulation) -> Touching {
        let faces = sim.surface_faces();
        // Each drawn vertex on its nodes: a skin's, or a node on itself.
        let vertices: Vec<([u32; 4], [f32; 4])> = match &sim.c.skin {
            Some(skin) => {
                let nodes = skin.nodes().iter().map(|n| n.map(|n| n.0));
                nodes.zip(skin.weights().iter().copied()).collect()
            }
            None => (0..sim.node_count() as u32).map(|i| ([i; 4], [1.0, 0.0, 0.0, 0.0])).collect(),
        };
        let mut at = Vec::new();
        sim.surface_positions(&mut at);
        let corners = |f: &[NodeId; 3]| -> Option<[usize; 3]> {
            let f = f.map(NodeId::index);
            f.iter().all(|&v| v < vertices.len() && v < at.len()).then_some(f)
        };
        let triangles: Vec<[usize; 3]> = faces.iter().filter_map(corners).collect();
        let mut used = vec![faces.is_empty() || sim.c.skin.is_some(); vertices.len()];
        for &v in triangles.iter().flatten() {
            used[v] = true;
        }
        let mut points: Vec<([u32; 4], [f32; 4])> =
            vertices.iter().zip(&used).filter(|&(_, &u)| u).map(|(v, _)| *v).collect();
        let edge = spacing(&at, &triangles);
        let x = sim.positions();
        let filled = fill(&at, &triangles, edge).into_iter();
        points.extend(filled.map(|share| on_nodes(&vertices, share, (x, &at))));
        // In patches of where they are, for the search (search.rs).
        let mut t = Touching { edge, ..Touching::default() };
        (t.nodes, t.weights) = points.into_iter().unzip();
        let start: Vec<Vec3A> = t.all_at(x).collect();
        let order = patch_order(&start);
        t.nodes = order.iter().map(|&p| t.nodes[p]).collect();
        t.weights = order.iter().map(|&p| t.weights[p]).collect();
        t
    }

    /// The drawn points of `sim` (whose surface these are) where they are now.
    pub fn drawn(&self, sim: &Simulation) -> Drawn {
        let mut drawn = Drawn::default();
        self.draw(sim, &mut drawn);
        drawn
    }

    /// [`Touching::drawn`] into `drawn`, whose buffers it reuses (a world step's points
    /// become the next one's buffers).
    pub fn draw(&self, sim: &Simulation, drawn: &mut Drawn) {
        let x = sim.positions();
        drawn.at.clear();
        drawn.at.extend(self.all_at(x));
        chunk_boxes(&drawn.at, &mut drawn.chunks);
        let first = drawn.chunks.first().copied().unwrap_or_default();
        drawn.bounds = drawn.chunks.iter().fold(first, |(lo, hi), b| (lo.min(b.0), hi.max(b.1)));
    }

    /// The box around the drawn points of `sim` and how fast they go, in one pass over the
    /// points (nothing kept: the plan of a frame needs only their box).
    pub(super) fn motion(&self, sim: &Simulation) -> Motion {
        let x = sim.positions();
        let empty = (Vec3A::splat(f32::INFINITY), Vec3A::splat(f32::NEG_INFINITY));
        let points = self.all_at(x);
        let bounds = points.fold(empty, |(lo, hi), p| (lo.min(p), hi.max(p)));
        self.motion_of(sim, bounds)
    }

    /// How fast the drawn points of `sim` go, their box `bounds` known. The points' velocities
    /// are bounded by their nodes': a point's is Σ w_k v_k with w_k ≥ 0 summing to
    /// s = 1 ± [`SKIN_WEIGHT_TOLERANCE`], so it is s times a velocity in the hull of its nodes',
    /// no faster than s max |v_k| and within s max |v_k − c| + |s − 1| |c| of any c. Every node
    /// is looked at (a superset of the points' nodes): a pass over the 491 nodes of the
    /// converted blob instead of its 1,418 skin vertices with four nodes each.
    pub(super) fn motion_of(&self, sim: &Simulation, bounds: Bounds) -> Motion {
        let v = sim.velocities();
        let (mut fastest, mut lo, mut hi) =
            (0.0f32, Vec3A::splat(f32::MAX), Vec3A::splat(f32::MIN));
        for &vk in v {
            fastest = fastest.max(vk.length_squared());
            (lo, hi) = (lo.min(vk), hi.max(vk));
        }
        let drift = if v.is_empty() { Vec3A::ZERO } else { 0.5 * (lo + hi) };
        let spread = v.iter().map(|vk| vk.distance_squared(drift)).fold(0.0, f32::max);
        let s = 1.0 + SKIN_WEIGHT_TOLERANCE;
        Motion {
            bounds,
            fastest: s * fastest.sqrt(),
            drift,
            spread: s * spread.sqrt() + SKIN_WEIGHT_TOLERANCE * drift.length(),
        }
    }

    /// Where each point is, in order, on nodes at `x` (walked beside its nodes and weights,
    /// not indexed: the blob's 1,418 points drawn in about a quarter less time).
    #[inline]
    fn all_at<'a>(&'a self, x: &'a [Vec3A]) -> impl Iterator<Item = Vec3A> + 'a {
        self.nodes.iter().zip(&self.weights).map(|(nodes, weights)| {
            let corners = nodes.iter().zip(weights);
            corners.map(|(&n, &w)| x.get(n as usize).map_or(Vec3A::ZERO, |&xn| xn * w)).sum()
        })
    }

    /// Where point `p` is and how fast it moves, on nodes at `x` moving at `v`.
    #[inline]
    pub(super) fn point(&self, p: usize, x: &[Vec3A], v: &[Vec3A]) -> (Vec3A, Vec3A) {
        let (mut at, mut speed) = (Vec3A::ZERO, Vec3A::ZERO);
        for (&n, &w) in self.nodes[p].iter().zip(&self.weights[p]) {
            if let (Some(&xn), Some(&vn)) = (x.get(n as usize), v.get(n as usize)) {
                at += xn * w;
                speed += vn * w;
            }
        }
        (at, speed)
    }

    /// Σ w² m⁻¹ of point `p`'s nodes.
    pub(super) fn lightness(&self, p: usize, inv_mass: &[f32]) -> f32 {
        let nodes = self.nodes[p].iter().zip(&self.weights[p]);
        nodes.map(|(&n, &w)| w * w * inv_mass.get(n as usize).copied().unwrap_or(0.0)).sum()
    }

    /// Moves point `p`'s nodes by `dx` and changes their velocities by `dv`, each in
    /// proportion w m⁻¹.
    pub(super) fn push(
        &self,
        p: usize,
        inv_mass: &[f32],
        (x, v): (&mut [Vec3A], &mut [Vec3A]),
        (dx, dv): (Vec3A, Vec3A),
    ) {
        for (&n, &w) in self.nodes[p].iter().zip(&self.weights[p]) {
            let n = n as usize;
            let share = w * inv_mass.get(n).copied().unwrap_or(0.0);
            if let (Some(xn), Some(vn)) = (x.get_mut(n), v.get_mut(n)) {
                *xn += dx * share;
                *vn += dv * share;
            }
        }
    }
}

/// The spacing s of a surface of `triangles` on `at` (module doc): the mean edge, at most the
/// diagonal of the box around the points over [`ACROSS`]; 0 with no triangles.
fn spacing(at: &[Vec3], triangles: &[[usize; 3]]) -> f32 {
    let edges = triangles.iter().flat_map(|&[a, b, c]| [(a, b), (b, c), (c, a)]);
    let (sum, count) =
        edges.fold((0.0f64, 0u64), |(s, n), (a, b)| (s + f64::from(at[a].distance(at[b])), n + 1));
    if count == 0 {
        return 0.0;
    }
    let used = triangles.iter().flatten().map(|&v| at[v]);
    let first = at[triangles[0][0]];
    let (lo, hi) = used.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p)));
    ((sum / count as f64) as f32).min(lo.distance(hi) / ACROSS)
}

/// A point on a triangle: its corners and their barycentric weights.
type Share = ([usize; 3], [f32; 3]);

/// The points that fill the large triangles of `triangles` on `at` at spacing `edge` (module
/// doc), at most [`MAX_FILL`]: the spacing grows until they fit.
fn fill(at: &[Vec3], triangles: &[[usize; 3]], edge: f32) -> Vec<Share> {
    let mut spacing = edge;
    for _ in 0..16 {
        if !(spacing.is_finite() && spacing > 0.0) {
            return Vec::new();
        }
        let count: f64 = triangles
            .iter()
            .map(|&t| cuts(at, t, spacing))
            .map(|n| {
                let n = n as f64;
                // Upper bound: all three edges' points (shared edges counted twice) and inside.
                3.0 * (n - 1.0).max(0.0) + (n - 1.0).max(0.0) * (n - 2.0).max(0.0) / 2.0
            })
            .sum();
        if count <= MAX_FILL as f64 {
            return fill_at(at, triangles, spacing);
        }
        spacing *= (count / MAX_FILL as f64).sqrt() as f32 * 1.05;
    }
    Vec::new()
}

/// How many parts n the triangle `t` on `at` is cut into along each edge at `spacing`: 1
/// (not cut) unless its longest edge is over [`FILL_BEYOND`] spacings.
fn cuts(at: &[Vec3], [a, b, c]: [usize; 3], spacing: f32) -> u32 {
    let longest = at[a].distance(at[b]).max(at[b].distance(at[c])).max(at[c].distance(at[a]));
    if longest > FILL_BEYOND * spacing {
        // Bounded by the caller: the count of points it makes fits MAX_FILL.
        (longest / spacing).ceil().min(u32::MAX as f32) as u32
    } else {
        1
    }
}

/// The fill of [`fill`] at a `spacing` known to fit.
fn fill_at(at: &[Vec3], triangles: &[[usize; 3]], spacing: f32) -> Vec<Share> {
    let mut out = Vec::new();
    let mut done: HashSet<(usize, usize)> = HashSet::new();
    for &t in triangles {
        let n = cuts(at, t, spacing);
        if n < 2 {
            continue;
        }
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            let (a, b) = (a.min(b), a.max(b));
            if !done.insert((a, b)) {
                continue;
            }
            let parts = (at[a].distance(at[b]) / spacing).ceil().max(1.0) as u32;
            for i in 1..parts {
                let u = i as f32 / parts as f32;
                out.push(([a, b, b], [1.0 - u, u, 0.0]));
            }
        }
        for i in 1..n {
            for j in 1..n - i {
                let (u, v) = (i as f32 / n as f32, j as f32 / n as f32);
                out.push((t, [1.0 - u - v, u, v]));
            }
        }
    }
    out
}

/// The nodes and weights of the point `share` of a triangle of `vertices` (module doc), the
/// nodes at `x` and the vertices at `at`: its corners' nodes with their weights times its
/// own when they are four or fewer; else the four of them whose tetrahedron holds it most
/// squarely (its least barycentric weight the largest), weighted to put it where it is; else
/// (all four-node tetrahedra flat, or none holding it) [`merged`].
fn on_nodes(
    vertices: &[([u32; 4], [f32; 4])],
    (corners, bary): Share,
    (x, at): (&[Vec3A], &[Vec3]),
) -> ([u32; 4], [f32; 4]) {
    let (exact, total) = merged(vertices, (corners, bary));
    let mut distinct: Vec<u32> = corners.iter().flat_map(|&c| vertices[c].0).collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() <= 4 {
        return exact;
    }
    let p = corners.iter().zip(&bary).map(|(&c, &b)| at[c] * b).sum::<Vec3>();
    let placed: Option<Vec<Vec3>> =
        distinct.iter().map(|&n| x.get(n as usize).copied().map(Vec3::from)).collect();
    let Some(placed) = placed else { return exact };
    let mut best: Option<(f32, [u32; 4], [f32; 4])> = None;
    let k = distinct.len();
    for i in 0..k {
        for j in i + 1..k {
            for l in j + 1..k {
                for m in l + 1..k {
                    let t = [placed[i], placed[j], placed[l], placed[m]];
                    let Some(w) = within(p, t) else { continue };
                    let least = w.iter().copied().fold(f32::INFINITY, f32::min);
                    if best.is_none_or(|b| least > b.0) {
                        best =
                            Some((least, [distinct[i], distinct[j], distinct[l], distinct[m]], w));
                    }
                }
            }
        }
    }
    match best {
        Some((least, nodes, w)) if least >= -ENCLOSED => {
            let clamped = w.map(|w| w.max(0.0));
            let sum: f32 = clamped.iter().sum();
            (nodes, clamped.map(|w| w * total / sum))
        }
        _ => exact,
    }
}

/// How far outside the tetrahedron of its nodes a fill point may be, in barycentric weight,
/// to be put on them (its negative weights then set to 0): rounding only.
const ENCLOSED: f32 = 1e-4;

/// The barycentric weights of `p` in the tetrahedron `t`; `None` when it is flat.
fn within(p: Vec3, t: [Vec3; 4]) -> Option<[f32; 4]> {
    let m = glam::Mat3::from_cols(t[1] - t[0], t[2] - t[0], t[3] - t[0]);
    let scale = (t[1] - t[0]).length().max((t[2] - t[0]).length()).max((t[3] - t[0]).length());
    let det = m.determinant();
    if det.is_nan() || det.abs() <= 1e-6 * scale.powi(3) {
        return None;
    }
    let l = m.inverse() * (p - t[0]);
    Some([1.0 - l.x - l.y - l.z, l.x, l.y, l.z])
}

/// The nodes and weights of the point `share` on the corners `vertices` (module doc): each
/// corner's nodes with its weights times the point's, the same node's summed, the four
/// heaviest kept and scaled to the sum of all; and that sum.
fn merged(
    vertices: &[([u32; 4], [f32; 4])],
    (corners, bary): Share,
) -> (([u32; 4], [f32; 4]), f32) {
    let mut all: Vec<(u32, f32)> = Vec::with_capacity(12);
    for (&c, &s) in corners.iter().zip(&bary) {
        let (nodes, weights) = vertices[c];
        for (&n, &w) in nodes.iter().zip(&weights) {
            match all.iter_mut().find(|(m, _)| *m == n) {
                Some(slot) => slot.1 += w * s,
                None => all.push((n, w * s)),
            }
        }
    }
    let total: f32 = all.iter().map(|&(_, w)| w).sum();
    all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    all.truncate(4);
    let kept: f32 = all.iter().map(|&(_, w)| w).sum();
    let scale = if kept > 0.0 { total / kept } else { 0.0 };
    let (mut nodes, mut weights) = ([all.first().map_or(0, |&(n, _)| n); 4], [0.0; 4]);
    for (k, &(n, w)) in all.iter().enumerate() {
        (nodes[k], weights[k]) = (n, w * scale);
    }
    ((nodes, weights), total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Face, Node, SpringModel, ValidModel};

    /// A 0.5 m cube of its eight corners and twelve triangles: a low-poly crate.
    fn crate_box() -> Simulation {
        let mut m = SpringModel::default();
        for k in 0..8 {
            let corner = Vec3::new((k & 1) as f32, (k >> 1 & 1) as f32, (k >> 2) as f32);
            m.nodes.push(Node { position: corner * 0.5, mass: 1.0 });
        }
        let quads =
            [[0, 1, 3, 2], [4, 5, 7, 6], [0, 1, 5, 4], [2, 3, 7, 6], [0, 2, 6, 4], [1, 3, 7, 5]];
        for [a, b, c, d] in quads {
            for nodes in [[a, b, c], [a, c, d]] {
                m.faces.push(Face { nodes: nodes.map(NodeId), uvs: None });
            }
        }
        Simulation::new(&ValidModel::new(m).expect("valid"))
    }

    #[test]
    fn a_crate_is_filled_with_points_on_its_faces_a_spacing_apart() {
        let sim = crate_box();
        let t = Touching::of(&sim);
        // The box's diagonal 0.866 m over 24: s = 0.03608 m (its mean edge is 0.569 m). Each
        // triangle's longest edge, a face's diagonal of 0.7071 m, is over 2 s: cut into
        // n = ⌈19.6⌉ = 20. The twelve sides of 0.5 m take ⌈13.9⌉ = 14 parts, 13 points each;
        // the six diagonals 19 each; each triangle's inside 19 · 18 / 2 = 171. With the eight
        // corners: 8 + 12 · 13 + 6 · 19 + 12 · 171 = 2,330.
        assert!((t.edge - 0.866_025 / 24.0).abs() < 1e-6, "{}", t.edge);
        assert_eq!(t.nodes.len(), 2330);
        let at: Vec<Vec3A> = t.all_at(sim.positions()).collect();
        for (p, w) in at.iter().zip(&t.weights) {
            let off = (*p - Vec3A::splat(0.25)).abs();
            assert!((off.max_element() - 0.25).abs() < 1e-6, "on a face: {p}");
            assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-6, "{w:?}");
        }
        // Each point once: none nearer another than a third of the spacing.
        for (i, p) in at.iter().enumerate() {
            let near = at[i + 1..].iter().filter(|q| q.distance(*p) < t.edge / 3.0).count();
            assert_eq!(near, 0, "{p}");
        }
    }

    #[test]
    fn the_fill_stays_within_its_bound_on_one_vast_triangle_among_tiny_ones() {
        // A 10 m triangle beside 1,000 of 1 mm: the mean edge, 1.25 cm, would cut the vast
        // one into ⌈14.14 / 0.0125⌉ = 1,131 parts a side, 640,000 points; the fill's spacing
        // grows until they fit.
        let mut at = vec![Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0), Vec3::new(0.0, 10.0, 0.0)];
        let mut triangles = vec![[0, 1, 2]];
        for k in 0..1000 {
            let corner = Vec3::new(k as f32 * 0.002, -1.0, 0.0);
            triangles.push([at.len(), at.len() + 1, at.len() + 2]);
            at.extend([corner, corner + Vec3::X * 0.001, corner + Vec3::Y * 0.001]);
        }
        let s = spacing(&at, &triangles);
        assert!((s - 0.0125).abs() < 1e-4, "{s}");
        let filled = fill(&at, &triangles, s);
        assert!(filled.len() <= MAX_FILL && filled.len() > MAX_FILL / 4, "{}", filled.len());
    }

    #[test]
    fn a_skin_fill_point_rides_on_four_nodes_that_put_it_exactly_on_its_triangle() {
        // Three corners, each in the middle of its own tetrahedron of four nodes (twelve).
        let x: Vec<Vec3A> = (0..12)
            .map(|k| {
                let (tet, corner) = ((k / 4) as f32, k % 4);
                let unit = [Vec3A::ZERO, Vec3A::X, Vec3A::Y, Vec3A::Z][corner];
                Vec3A::new(tet * 0.7, 0.1 * tet * tet, -0.3 * tet) + unit * 0.8
            })
            .collect();
        let weights = [0.25; 4];
        let vertices: Vec<([u32; 4], [f32; 4])> =
            (0..3u32).map(|c| ([4 * c, 4 * c + 1, 4 * c + 2, 4 * c + 3], weights)).collect();
        let at: Vec<Vec3> = vertices
            .iter()
            .map(|(n, w)| n.iter().zip(w).map(|(&n, &w)| Vec3::from(x[n as usize]) * w).sum())
            .collect();
        let share = ([0, 1, 2], [0.3, 0.3, 0.4]);
        let p = at[0] * 0.3 + at[1] * 0.3 + at[2] * 0.4;
        let place = |(nodes, w): ([u32; 4], [f32; 4])| -> Vec3 {
            nodes.iter().zip(&w).map(|(&n, &w)| Vec3::from(x[n as usize]) * w).sum()
        };
        let (nodes, w) = on_nodes(&vertices, share, (&x, &at));
        assert!(place((nodes, w)).distance(p) < 1e-5, "{nodes:?} {w:?}");
        assert!(w.iter().all(|&w| w >= 0.0) && (w.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        // The four heaviest weights alone would not.
        assert!(place(merged(&vertices, share).0).distance(p) > 0.05);
    }

    #[test]
    fn a_skin_points_fill_keeps_its_four_heaviest_nodes_and_their_sum() {
        // Corners on four nodes each (0–3, 4–7, 8–11, node 0 shared by the last), weights
        // 0.4, 0.3, 0.2, 0.1; the point at (0.5, 0.3, 0.2) of them.
        let weights = [0.4, 0.3, 0.2, 0.1];
        let vertices = [([0, 1, 2, 3], weights), ([4, 5, 6, 7], weights), ([8, 9, 10, 0], weights)];
        let ((nodes, w), total) = merged(&vertices, ([0, 1, 2], [0.5, 0.3, 0.2]));
        assert!((total - 1.0).abs() < 1e-6, "{total}");
        // Node 0: 0.2 + 0.02 = 0.22; node 1: 0.15; node 4: 0.12; node 2: 0.1. Kept 0.59 of 1.
        assert_eq!(nodes, [0, 1, 4, 2]);
        for (got, want) in w.iter().zip([0.22, 0.15, 0.12, 0.1]) {
            assert!((got - want / 0.59).abs() < 1e-6, "{w:?}");
        }
    }
}
