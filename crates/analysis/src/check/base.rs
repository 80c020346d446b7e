//! Where a rigid copy of a body comes to rest on the ground, and whether it rests there
//! stably: the face of the convex hull of its drawn surface (of a cage, its skin: the skin is
//! what touches) on which it stands with its centre of mass over it, and how far tipping it
//! over that face's nearest edge would raise its centre of mass.
//!
//! **The rest face.** A rigid body set down in its rest pose touches the ground with its
//! lowest points. Those within [`BASE_BAND`] of the lowest (the flat feet of a standing body:
//! hooves, a table's legs, a smoothed blob's paws) are its contact; when their convex hull
//! holds the foot of the perpendicular from its centre of mass, it rests there. Otherwise it
//! tips: about the point of the contact nearest that foot, towards it, until the plane turned
//! about that axis meets another point (a step of gift wrapping: the smallest angle
//! atan2(−y, x) over the points at x > 0 beyond the axis and y below the plane). That is a
//! supporting plane again, with a new contact; the walk repeats until the contact holds the
//! foot, which is the face of the hull under the centre of mass, as a quasi-static tipping
//! finds it. A posed figure whose feet are not level (a real cow's hooves differ by
//! millimetres) rests on the face its lowest feet make, tilted by a fraction of a degree, and
//! is judged from there; a body balanced on a corner rests on the face it tips onto.
//!
//! **The rise.** A rigid body tips about the edge of its base nearest its centre of mass: with
//! d the distance within the base's plane from the foot of the perpendicular to that edge and
//! h the centre's height above the plane, the centre rises
//!
//! ```text
//! Δh = √(d² + h²) − h
//! ```
//!
//! before it passes over the edge and the body falls (the tipping angle is atan(d / h)). A
//! ball has no such edge: its base is the cap of faces round its lowest vertex, and rolling
//! over the cap's rim raises its centre by R(1 − cos α) for rings α apart — 0.09% of the
//! diagonal for a UV sphere of 40 rings (α = 4.5°), and the next ring is on the ground: it
//! rolls (neutral, not failing), and any centre of mass a little off its middle makes it
//! roll further. A base whose rise is below [`MIN_RISE`] is held to be such a cap. A column of
//! height ten times its width rises 0.25% and counts.

use glam::{Vec2, Vec3};
use springmesh_core::SpringModel;

/// How far from the supporting plane (fraction of the bounding-box diagonal) a point still
/// counts as part of the contact.
pub(crate) const BASE_BAND: f32 = 0.002;

/// The least rise of the centre of mass (fraction of the diagonal) over the base's nearest
/// edge for the base to count as stable: the band's own height, so that a ball's cap (a rise
/// of 0.09% on a UV sphere of 40 rings, less on finer ones) does not count (module docs).
pub(crate) const MIN_RISE: f32 = 0.002;

/// The most tips the walk to the rest face takes (each is one pass over the surface): a
/// body balanced on a corner of a box reaches a face in two.
const MAX_TIPS: usize = 64;

/// Where a rigid copy of a body rests (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rest {
    /// The rest face's outward normal in the body's rest frame: the direction that points
    /// down, into the ground, when the body rests on it.
    pub down: Vec3,
    /// How far (fraction of the diagonal) its centre of mass rises when tipped over the
    /// face's nearest edge: 0 when the face only just holds it.
    pub rise: f32,
}

/// Where a rigid copy of `model` set down on a ground whose normal is `up` comes to rest
/// (module docs); `None` for a body with no surface or mass, or when the walk does not end.
pub(crate) fn rest(model: &SpringModel, up: Vec3, diagonal: f32) -> Option<Rest> {
    let surface = model.surface_positions();
    let masses = model.nodes.masses();
    let total: f32 = masses.iter().sum();
    if surface.is_empty() || total.is_nan() || total <= 0.0 {
        return None;
    }
    let weighted: Vec3 = model.nodes.positions().iter().zip(masses).map(|(&x, &m)| x * m).sum();
    let centre = weighted / total;
    let band = BASE_BAND * diagonal;
    let mut down = -up;
    for _ in 0..MAX_TIPS {
        let reach = surface.iter().map(|p| p.dot(down)).fold(f32::NEG_INFINITY, f32::max);
        let across = down.any_orthonormal_vector();
        let along = down.cross(across);
        let flat = |x: Vec3| Vec2::new(x.dot(across), x.dot(along));
        let contact: Vec<Vec2> =
            surface.iter().filter(|p| p.dot(down) >= reach - band).map(|&p| flat(p)).collect();
        let hull = convex_hull(contact);
        let foot = flat(centre);
        let h = (reach - centre.dot(down)).max(0.0);
        match margin(&hull, foot) {
            Ok(d) => {
                let rise = ((d * d + h * h).sqrt() - h) / diagonal.max(f32::MIN_POSITIVE);
                return Some(Rest { down, rise });
            }
            Err(nearest) => {
                let w2 = (foot - nearest).normalize_or_zero();
                let w = across * w2.x + along * w2.y;
                let pivot = across * nearest.x + along * nearest.y + down * reach;
                down = tipped(surface, pivot, down, w)?;
            }
        }
    }
    None
}

/// The outward normal of the supporting plane turned from `down` about the axis through
/// `pivot` perpendicular to `down` and `w`, towards `w`, until it meets the first point of
/// `points` beyond the axis (module docs); `None` when no point lies beyond it.
fn tipped(points: &[Vec3], pivot: Vec3, down: Vec3, w: Vec3) -> Option<Vec3> {
    let angle = points
        .iter()
        .filter_map(|&p| {
            let r = p - pivot;
            let (x, y) = (r.dot(w), r.dot(down));
            (x > 1e-6 * r.length()).then(|| (-y).max(0.0).atan2(x))
        })
        .fold(f32::INFINITY, f32::min);
    (angle.is_finite() && angle > 0.0).then(|| (down * angle.cos() + w * angle.sin()).normalize())
}

/// Where `model` rests, when it rests on a stable base against `up`: its rest face exists and tipping it
/// over that face's edge raises its centre of mass by at least [`MIN_RISE`] (module docs).
pub(crate) fn stable_rest(model: &SpringModel, up: Vec3, diagonal: f32) -> Option<Rest> {
    rest(model, up, diagonal).filter(|r| r.rise >= MIN_RISE)
}

/// How far (fraction of the diagonal) the centre of mass of `model` at rest must rise to tip
/// it over the nearest edge of its rest face against `up` (module docs); 0 without one.
#[cfg(test)]
pub(crate) fn tipping_rise(model: &SpringModel, up: Vec3, diagonal: f32) -> f32 {
    rest(model, up, diagonal).map_or(0.0, |r| r.rise)
}

/// Whether `model` at rest stands on a stable base against `up` (module docs).
#[cfg(test)]
pub(crate) fn stable_base(model: &SpringModel, up: Vec3, diagonal: f32) -> bool {
    stable_rest(model, up, diagonal).is_some()
}

/// The convex hull of `points`, counter-clockwise (Andrew's monotone chain), without repeated
/// or collinear points: one point, two, or a polygon.
fn convex_hull(mut points: Vec<Vec2>) -> Vec<Vec2> {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let turn = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut hull: Vec<Vec2> = Vec::with_capacity(2 * points.len());
    for pass in [&points[..], &points.iter().rev().copied().collect::<Vec<_>>()[..]] {
        let start = hull.len();
        for &p in pass {
            while hull.len() >= start + 2
                && turn(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// The distance from `q` to the nearest edge of the convex polygon `hull` when it holds `q`
/// (0 on an edge); otherwise the point of `hull` (a polygon, a segment or a point) nearest
/// `q`.
fn margin(hull: &[Vec2], q: Vec2) -> Result<f32, Vec2> {
    let nearest = |a: Vec2, b: Vec2| {
        let ab = b - a;
        let t = if ab.length_squared() > 0.0 {
            ((q - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        a + ab * t
    };
    let Some(&first) = hull.first() else { return Err(q) };
    let edges = (0..hull.len()).map(|i| (hull[i], hull[(i + 1) % hull.len()]));
    if hull.len() >= 3 {
        // Distance to each edge's line, positive inside (the hull runs counter-clockwise).
        let inside = edges
            .clone()
            .map(|(a, b)| (a - q).perp_dot(b - q) / a.distance(b).max(f32::MIN_POSITIVE))
            .fold(f32::INFINITY, f32::min);
        if inside >= 0.0 {
            return Ok(inside);
        }
    }
    let closest = edges.map(|(a, b)| nearest(a, b)).fold(first, |best, p| {
        if p.distance_squared(q) < best.distance_squared(q) { p } else { best }
    });
    if closest.distance(q) <= 1e-6 * (1.0 + q.length()) {
        return Ok(0.0);
    }
    Err(closest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_holds_its_centre_at_its_distance_and_not_a_point_outside_or_on_its_edge() {
        let square = convex_hull(vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y, Vec2::splat(0.5)]);
        let m = margin(&square, Vec2::new(0.3, 0.6)).expect("inside");
        assert!((m - 0.3).abs() < 1e-6, "0.3 from the left edge: {m}");
        assert_eq!(margin(&square, Vec2::new(1.2, 0.5)), Err(Vec2::new(1.0, 0.5)));
        assert_eq!(margin(&square, Vec2::new(1.0, 0.5)), Ok(0.0), "on the edge holds it, barely");
        let line = convex_hull(vec![Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)]);
        assert_eq!(line.len(), 2, "a line is a segment");
        assert_eq!(
            margin(&line, Vec2::new(1.0, 0.0)),
            Ok(0.0),
            "a line holds what is on it, barely"
        );
        assert_eq!(margin(&line, Vec2::new(1.0, 1.0)), Err(Vec2::new(1.0, 0.0)));
    }

    /// Nodes at `points` (1 kg each), no springs.
    fn nodes(points: &[Vec3]) -> SpringModel {
        let mut m = SpringModel::default();
        for &position in points {
            m.nodes.push(springmesh_core::Node { position, mass: 1.0 });
        }
        m
    }

    #[test]
    fn four_feet_make_a_base_and_one_tip_does_not() {
        // A box standing on its four bottom corners: its centre is over them.
        let corners: Vec<Vec3> = (0..8)
            .map(|c| Vec3::new((c & 1) as f32, ((c >> 1) & 1) as f32, (c >> 2) as f32))
            .collect();
        assert!(stable_base(&nodes(&corners), Vec3::Y, 1.7));
        // Over an edge 0.5 from the centre, 0.5 up: it rises √0.5 − 0.5.
        let rise = tipping_rise(&nodes(&corners), Vec3::Y, 1.0);
        assert!((rise - (0.5f32.sqrt() - 0.5)).abs() < 1e-6, "{rise}");
        // The same box standing on one corner (turned so that one corner is lowest): its
        // centre of mass is right over that corner, balanced, and the least tip drops it.
        let turn = glam::Quat::from_rotation_arc(Vec3::ONE.normalize(), Vec3::Y);
        let on_tip: Vec<Vec3> = corners.iter().map(|&p| turn * p).collect();
        assert!(!stable_base(&nodes(&on_tip), Vec3::Y, 1.7));
        // Four feet with the weight hanging out beyond them: it tips onto its heavy side, the
        // face from the foot edge at x = 1 to the weight at x = 8 (a fall, from its pose).
        let mut heavy_side = corners.clone();
        heavy_side.push(Vec3::new(8.0, 1.0, 0.5));
        let mut m = nodes(&heavy_side);
        m.nodes.masses_mut()[8] = 50.0;
        let rest = rest(&m, Vec3::Y, 8.0).expect("it comes to rest");
        let expected = Vec3::new(1.0, -7.0, 0.0).normalize();
        assert!(rest.down.distance(expected) < 1e-4, "{rest:?}");
    }

    #[test]
    fn feet_a_few_millimetres_apart_in_height_make_a_base() {
        // A 1 m box on four 5 cm feet whose heights differ by up to 6 mm (more than the band
        // of 0.2% of its 1.5 m diagonal, 3 mm: the lowest two are a line, no base as the
        // lowest nodes): a rigid copy rests on the face its lowest feet make, tilted a few
        // tenths of a degree, and stands.
        let mut points: Vec<Vec3> = (0..8)
            .map(|c| Vec3::new((c & 1) as f32, 0.05 + ((c >> 1) & 1) as f32 * 0.5, (c >> 2) as f32))
            .collect();
        let lift = [0.0, 0.006, 0.002, 0.005];
        for (k, (x, z)) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].into_iter().enumerate()
        {
            points.push(Vec3::new(x, lift[k], z));
        }
        let m = nodes(&points);
        let diagonal = m.bounding_box().expect("nodes").diagonal();
        let rest = rest(&m, Vec3::Y, diagonal).expect("it comes to rest");
        let tilt = rest.down.angle_between(Vec3::NEG_Y).to_degrees();
        assert!(tilt > 0.05 && tilt < 0.5, "tilted by the feet: {tilt}°");
        assert!(rest.rise >= MIN_RISE, "and stands: {rest:?}");
        assert!(stable_base(&m, Vec3::Y, diagonal));
    }

    /// The vertices of a UV sphere of radius 1 with `rings` bands and `segments` meridians.
    fn ball(rings: usize, segments: usize) -> Vec<Vec3> {
        let mut points = vec![Vec3::NEG_Y, Vec3::Y];
        for r in 1..rings {
            let polar = std::f32::consts::PI * r as f32 / rings as f32;
            for s in 0..segments {
                let azimuth = std::f32::consts::TAU * s as f32 / segments as f32;
                let (y, across) = (-polar.cos(), polar.sin());
                points.push(Vec3::new(across * azimuth.cos(), y, across * azimuth.sin()));
            }
        }
        points
    }

    #[test]
    fn a_ball_has_no_base_and_a_column_ten_times_as_tall_as_wide_has() {
        // 40 rings: the pole and its first ring (4.5° up, 0.09% of the diagonal 2√3) lie in
        // the band; rolling over that ring raises the centre by 1 − cos 4.5° = 0.0031.
        let sphere = nodes(&ball(40, 75));
        let rise = tipping_rise(&sphere, Vec3::Y, 2.0 * 3f32.sqrt());
        let over_the_ring = (1.0 - 4.5f32.to_radians().cos()) / (2.0 * 3f32.sqrt());
        assert!((rise - over_the_ring).abs() < 0.05 * over_the_ring, "{rise} {over_the_ring}");
        assert!(!stable_base(&sphere, Vec3::Y, 2.0 * 3f32.sqrt()));
        // A 0.1 × 1 × 0.1 column on its square foot: d = 0.05, h = 0.5.
        let column: Vec<Vec3> = (0..8)
            .map(|c| Vec3::new((c & 1) as f32 * 0.1, ((c >> 1) & 1) as f32, (c >> 2) as f32 * 0.1))
            .collect();
        let diagonal = 1.02f32.sqrt();
        let rise = tipping_rise(&nodes(&column), Vec3::Y, diagonal);
        let expected = ((0.05f32 * 0.05 + 0.25).sqrt() - 0.5) / diagonal;
        assert!((rise - expected).abs() < 1e-5 && rise > MIN_RISE, "{rise} {expected}");
    }
}
