//! # Air: drag and lift on faces, wind and gusts
//!
//! Each triangle is a small flat plate moving through the air. With its area vector
//! N = ½ (x_b − x_a) × (x_c − x_a) = A n, the air flows past it at v, the mean over its three
//! corners of their velocity relative to the wind there, v_i − w(x_i). With θ the angle between
//! n and v, so that A cos θ = N·v̂ is the area the flow sees:
//!
//! ```text
//! F_D = −½ ρ C_D A |cos θ| |v| v        = −½ ρ C_D |N·v| v
//! F_L =  ½ ρ C_L A cos θ |v|² (cos θ v̂ − n) = ½ ρ C_L (N·v) / (A |v|) ((N·v) v − |v|² N)
//! ```
//!
//! Drag opposes the motion through the air and grows with the area facing the flow; lift is
//! perpendicular to the flow, in the plane of n and v, pushing the plate away from the side
//! the air hits, with magnitude ½ ρ C_L A |v|² |sin θ cos θ| — zero broadside and edge-on, like
//! a flat plate's. The face's force is shared equally by its three corners. (After Keckeisen,
//! Kimmerle, Thomaszewski & Wacker, "Modelling Effects of Wind Fields in Cloth Animations",
//! WSCG 2004, with the thin-plate lift law sin θ cos θ instead of their normalised direction,
//! which jumps when the flow meets the plate head-on.)
//!
//! - ρ air density (kg/m³), C_D, C_L drag and lift coefficients, v (m/s), A (m²).
//!
//! A sheet is touched by the air on both sides, so both count (double-sided: the formulas
//! depend on the side only through N·v, whose sign flips both forces correctly). A closed
//! surface only has air outside: a face feels the air only while its outside faces the flow
//! (N_out·v > 0); the faces in its wake do not, so a ball's drag is that of its front.
//!
//! ## Gusts
//!
//! With gust strength s, the wind at a point x is w + s |w| g(φ), where each component of g is
//! a smooth value noise in [−1, 1] (a seeded random value at each integer φ, interpolated with
//! smoothstep) of the phase φ = (t − x·ŵ/|w|) / T: gusts of period T that travel with the wind.
//!
//! ## Per step, and bounded
//!
//! Air forces are evaluated once per step, from the state at its start, and held over its
//! sub-steps like gravity ([`crate::sim::forces::external`]): they change on the scale of a frame, and one
//! pass over the faces per frame keeps their cost small next to the springs'. So that a very
//! light node in a strong wind cannot be thrown past the air's speed by a force held for a
//! whole step, each node's air force is capped at m |v_node − w| / Δt: it can at most bring the
//! node to the wind's velocity within the step, never overshoot it.

use crate::NodeId;
use crate::model::Air;
use crate::sim::columns::components;
use glam::{Mat4, Vec3A, Vec4};

/// The wind and its gusts for one step: the noise values at the integer phases the step's
/// nodes span, computed once so each node only interpolates.
pub(crate) struct Wind {
    base: Vec3A,
    /// |w| · strength.
    amplitude: f32,
    /// ŵ / (|w| T), so that φ = t/T − x·this.
    phase_per_metre: Vec3A,
    /// φ − first at x = 0, where `first` is the first integer phase tabulated: a node's
    /// phase counted from the start of the table is this − x·`phase_per_metre`.
    offset: f32,
    /// The largest phase counted from the start of the table that it covers.
    end: f32,
    /// Noise values at integer phases `first`, `first + 1`, ...; empty when the nodes span
    /// more than [`MAX_GUST_TABLE`] phases, and then each node hashes its own two.
    table: Vec<Vec3A>,
    /// t/T, for the nodes that hash their own noise (in f64: far from the origin an f32 phase
    /// would lose the gusts).
    phase_now: f64,
    /// The gusts' seed, for the nodes that hash their own noise.
    seed: u64,
    /// True when there are gusts at all.
    gusty: bool,
}

/// Most integer phases tabulated per step (16 bytes each): a model spans this many gust
/// lengths only when its gusts are far shorter than it is (or it has flown apart); its nodes
/// then hash their noise one by one, which costs more per node but nothing per phase, so
/// neither memory nor time depends on how far apart the nodes are.
pub(crate) const MAX_GUST_TABLE: usize = 4096;

/// The gust noise at integer phase `i`, each component in [−1, 1].
fn noise(seed: u64, i: i64) -> Vec3A {
    Vec3A::new(lattice(seed, 0, i), lattice(seed, 1, i), lattice(seed, 2, i))
}

/// A uniform random number in [−1, 1] from the integers `seed`, `channel`, `i` (SplitMix64).
fn lattice(seed: u64, channel: u64, i: i64) -> f32 {
    let mut z = seed
        ^ channel.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (i as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 40) as f32 / (1u64 << 23) as f32 - 1.0
}

impl Wind {
    /// The wind of `air` at time `time` (s) over positions `x`.
    pub fn new(air: &Air, time: f64, x: &[Vec3A]) -> Wind {
        let base = Vec3A::from(air.wind);
        let speed = base.length();
        let amplitude = air.gusts * speed;
        let period = air.gust_period;
        let phase_per_metre =
            if speed > 0.0 { base / (speed * speed * period) } else { Vec3A::ZERO };
        let phase_now = time / f64::from(period);
        let mut wind = Wind {
            base,
            amplitude,
            phase_per_metre,
            offset: 0.0,
            end: 0.0,
            table: Vec::new(),
            phase_now,
            seed: air.seed,
            gusty: false,
        };
        let Some(&first_x) = x.first() else { return wind };
        if !(amplitude.is_finite() && amplitude > 0.0 && phase_now.is_finite()) {
            return wind;
        }
        // The phases over the nodes' bounding box: a little wider than over the nodes
        // themselves, but the box is a componentwise min and max, much cheaper than a dot
        // product per node.
        let (lo, hi) = x.iter().fold((first_x, first_x), |(lo, hi), &p| (lo.min(p), hi.max(p)));
        let (centre, half) = ((lo + hi) * 0.5, (hi - lo) * 0.5);
        let along = f64::from(centre.dot(phase_per_metre));
        let spread = f64::from(half.dot(phase_per_metre.abs()));
        let first = (phase_now - along - spread).floor();
        let last = (phase_now - along + spread).floor() + 1.0;
        if !(first.is_finite() && last.is_finite()) {
            return wind;
        }
        wind.gusty = true;
        wind.offset = (phase_now - first) as f32;
        wind.end = (last - first) as f32;
        if last - first < MAX_GUST_TABLE as f64 {
            wind.table = (first as i64..=last as i64).map(|i| noise(air.seed, i)).collect();
        }
        if wind.table.len() < 2 {
            // Phases beyond 2^53 (a far node, a long run) lose their fraction in f64: no table
            // of two knots or more can be built, and `at` hashes each node's phase instead.
            wind.table.clear();
        }
        wind
    }

    /// The wind velocity at `x` (m/s).
    pub fn at(&self, x: Vec3A) -> Vec3A {
        if !self.gusty {
            return self.base;
        }
        if self.table.is_empty() {
            let phase = self.phase_now - x.as_dvec3().dot(self.phase_per_metre.as_dvec3());
            let k = phase.floor();
            let f = (phase - k) as f32;
            let (a, b) =
                (noise(self.seed, k as i64), noise(self.seed, (k as i64).saturating_add(1)));
            return self.base + a.lerp(b, f * f * (3.0 - 2.0 * f)) * self.amplitude;
        }
        let phase = (self.offset - x.dot(self.phase_per_metre)).clamp(0.0, self.end);
        // Truncation is ⌊phase⌋ here (phase ≥ 0), without a call to libm's floorf: SSE2 has
        // no rounding instruction.
        let k = (phase as usize).min(self.table.len() - 2);
        let f = phase - k as f32;
        let s = f * f * (3.0 - 2.0 * f);
        self.base + self.table[k].lerp(self.table[k + 1], s) * self.amplitude
    }
}

/// Writes every node's velocity relative to the wind at its position, v_i − w(x_i), to `rel`.
pub(crate) fn relative_velocities(wind: &Wind, x: &[Vec3A], v: &[Vec3A], rel: &mut Vec<Vec3A>) {
    rel.clear();
    rel.extend(x.iter().zip(v).map(|(&x, &v)| v - wind.at(x)));
}

/// Adds the drag and lift of `air` on every face to `forces`, from the nodes' positions `x`
/// and velocities relative to the wind `rel`. `sign` is +1 or −1 to turn the triangles'
/// winding into outward normals for a closed surface (`double_sided` false), and is ignored
/// for an open one.
///
/// Faces go four at a time, their vectors transposed into components ([`components`]), so
/// that the three dot products, the square root and the division of each face share one
/// vector instruction with three other faces'. In the sums the loop works with,
/// m = (x_b − x_a) × (x_c − x_a) = 2N (before `sign`) and r = 3v, each corner's third of the
/// face's force is
///
/// ```text
/// F/3 = r A − m B,   A = (q (m·r) − C_D' |m·r|) / 54,   B = q |r|² / 54,
/// q = C_L' (m·r) / √(|m|² |r|²)                      (C' = ½ ρ C)
/// ```
///
/// which is the module doc's F_D + F_L with N = ±m/2 and v = r/3 substituted.
pub(crate) fn add_forces(
    air: &Air,
    faces: &[[NodeId; 3]],
    (double_sided, sign): (bool, f32),
    x: &[Vec3A],
    rel: &[Vec3A],
    forces: &mut [Vec3A],
) {
    let half_rho = 0.5 * air.density;
    let coefficients = Coefficients {
        drag: Vec4::splat(half_rho * air.drag),
        lift: Vec4::splat(half_rho * air.lift),
        one_sided: (!double_sided).then_some(Vec4::splat(sign)),
    };
    let (groups, tail) = faces.as_chunks::<4>();
    for group in groups {
        add_group_forces(&coefficients, group, Vec4::ONE, x, rel, forces);
    }
    if let Some(&last) = tail.last() {
        // The missing faces repeat the last one with no force: adding zero changes nothing.
        let mut group = [last; 4];
        group[..tail.len()].copy_from_slice(tail);
        let live = Vec4::from_array([0, 1, 2, 3].map(|j| f32::from(u8::from(j < tail.len()))));
        add_group_forces(&coefficients, &group, live, x, rel, forces);
    }
}

/// The air's coefficients for [`add_group_forces`], one per lane.
struct Coefficients {
    /// ½ ρ C_D and ½ ρ C_L.
    drag: Vec4,
    lift: Vec4,
    /// For a closed surface, the sign that turns the winding outwards.
    one_sided: Option<Vec4>,
}

/// The air's force on four faces, added to their corners; `live` is 1 for the faces that
/// count and 0 for padding.
#[inline(always)]
fn add_group_forces(
    k: &Coefficients,
    group: &[[NodeId; 3]; 4],
    live: Vec4,
    x: &[Vec3A],
    rel: &[Vec3A],
    forces: &mut [Vec3A],
) {
    let mut ends = [[0usize; 3]; 4];
    let (mut e1, mut e2, mut r) = ([Vec3A::ZERO; 4], [Vec3A::ZERO; 4], [Vec3A::ZERO; 4]);
    for (j, &[a, b, c]) in group.iter().enumerate() {
        let (a, b, c) = (a.index(), b.index(), c.index());
        ends[j] = [a, b, c];
        let xa = x[a];
        e1[j] = x[b] - xa;
        e2[j] = x[c] - xa;
        r[j] = rel[a] + rel[b] + rel[c];
    }
    let (e1, e2, r) = (components(&e1), components(&e2), components(&r));
    let (rx, ry, rz) = (r.x_axis, r.y_axis, r.z_axis);
    let mx = e1.y_axis * e2.z_axis - e1.z_axis * e2.y_axis;
    let my = e1.z_axis * e2.x_axis - e1.x_axis * e2.z_axis;
    let mz = e1.x_axis * e2.y_axis - e1.y_axis * e2.x_axis;
    let mr = mx * rx + my * ry + mz * rz;
    let rr = rx * rx + ry * ry + rz * rz;
    let mm = mx * mx + my * my + mz * mz;
    let weight = match k.one_sided {
        Some(sign) => Vec4::select((mr * sign).cmpgt(Vec4::ZERO), live, Vec4::ZERO),
        None => live,
    } * (1.0 / 54.0);
    let denominator = (mm * rr).sqrt();
    let q = Vec4::select(denominator.cmpgt(Vec4::ZERO), k.lift * mr / denominator, Vec4::ZERO);
    let a = (q * mr - k.drag * mr.abs()) * weight;
    let b = q * rr * weight;
    let f =
        Mat4::from_cols(rx * a - mx * b, ry * a - my * b, rz * a - mz * b, Vec4::ZERO).transpose();
    for (&[a, b, c], share) in ends.iter().zip([f.x_axis, f.y_axis, f.z_axis, f.w_axis]) {
        let share = Vec3A::from_vec4(share);
        forces[a] += share;
        forces[b] += share;
        forces[c] += share;
    }
}

/// Caps each node's air force so that over `dt` it can at most bring the node to the wind's
/// velocity (see the module doc); `rel` are the nodes' velocities relative to the wind.
pub(crate) fn cap(forces: &mut [Vec3A], mass: &[f32], rel: &[Vec3A], dt: f32) {
    for ((f, &m), &rel) in forces.iter_mut().zip(mass).zip(rel) {
        let limit_squared = (m / dt) * (m / dt) * rel.length_squared();
        let size_squared = f.length_squared();
        if size_squared > limit_squared {
            *f *= (limit_squared / size_squared).sqrt();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn plate(normal_along_y: bool) -> (Vec<Vec3A>, Vec<[NodeId; 3]>) {
        // A right triangle of area 0.5 in the xz plane (normal +y when wound 0, 2, 1).
        let x = vec![Vec3A::ZERO, Vec3A::X, Vec3A::Z];
        let f = if normal_along_y { [0, 2, 1] } else { [0, 1, 2] };
        (x, vec![f.map(NodeId)])
    }

    #[test]
    fn drag_of_a_plate_broadside_and_edge_on() {
        let air = Air { density: 1.0, drag: 2.0, lift: 0.0, ..Air::default() };
        let (x, f) = plate(true);
        let down = vec![Vec3A::new(0.0, -3.0, 0.0); 3];
        let mut forces = vec![Vec3A::ZERO; 3];
        add_forces(&air, &f, (true, 1.0), &x, &down, &mut forces);
        // ½ ρ C_D A v² = ½ · 1 · 2 · 0.5 · 9 = 4.5 N upwards, a third per corner.
        let total: Vec3A = forces.iter().sum();
        assert!((total - Vec3A::new(0.0, 4.5, 0.0)).length() < 1e-5, "{total}");
        let sideways = vec![Vec3A::new(3.0, 0.0, 0.0); 3];
        let mut forces = vec![Vec3A::ZERO; 3];
        add_forces(&air, &f, (true, 1.0), &x, &sideways, &mut forces);
        assert!(forces.iter().all(|f| f.length() < 1e-6), "edge-on: no drag");
        // Flipping the winding changes nothing for a double-sided sheet.
        let (x2, f2) = plate(false);
        let mut flipped = vec![Vec3A::ZERO; 3];
        add_forces(&air, &f2, (true, 1.0), &x2, &down, &mut flipped);
        assert!((flipped.iter().sum::<Vec3A>() - total).length() < 1e-5);
        // One-sided: the outside (+y) moving down is in the wake.
        let mut wake = vec![Vec3A::ZERO; 3];
        add_forces(&air, &f, (false, 1.0), &x, &down, &mut wake);
        assert!(wake.iter().all(|f| *f == Vec3A::ZERO));
    }

    #[test]
    fn lift_is_perpendicular_to_the_flow_and_peaks_at_45_degrees() {
        let air = Air { density: 1.0, drag: 0.0, lift: 1.0, ..Air::default() };
        let (x, f) = plate(true);
        let lift_at = |degrees: f32| {
            let (s, c) = degrees.to_radians().sin_cos();
            let v = vec![Vec3A::new(c, -s, 0.0); 3];
            let mut forces = vec![Vec3A::ZERO; 3];
            add_forces(&air, &f, (true, 1.0), &x, &v, &mut forces);
            (forces.iter().sum::<Vec3A>(), v[0])
        };
        for degrees in [10.0, 30.0, 45.0, 60.0, 80.0] {
            let (force, v) = lift_at(degrees);
            assert!(force.dot(v).abs() < 1e-6, "perpendicular at {degrees}°");
            let expected = 0.5 * 0.5 * (2.0 * degrees.to_radians()).sin() / 2.0;
            assert!((force.length() - expected).abs() < 1e-5, "{degrees}°: {}", force.length());
            assert!(force.y > 0.0, "moving down through the air lifts the plate");
        }
    }

    #[test]
    fn gusts_are_seeded_smooth_and_bounded() {
        let air = Air {
            wind: Vec3::new(10.0, 0.0, 0.0),
            gusts: 0.5,
            gust_period: 1.0,
            seed: 7,
            ..Air::default()
        };
        let x = vec![Vec3A::ZERO, Vec3A::new(4.0, 0.0, 0.0)];
        let mut previous: Option<Vec3A> = None;
        for step in 0..200 {
            let t = f64::from(step) * 0.01;
            let w = Wind::new(&air, t, &x);
            let again = Wind::new(&air, t, &x);
            let at = w.at(Vec3A::new(2.0, 0.0, 0.0));
            assert_eq!(at, again.at(Vec3A::new(2.0, 0.0, 0.0)), "same seed, same wind");
            assert!((at - Vec3A::new(10.0, 0.0, 0.0)).abs().max_element() <= 5.0 + 1e-4);
            if let Some(p) = previous {
                assert!((at - p).length() < 0.5, "smooth: {at} after {p}");
            }
            previous = Some(at);
        }
        let other = Air { seed: 8, ..air };
        let differs = (0..20).any(|s| {
            let t = f64::from(s) * 0.1;
            Wind::new(&air, t, &x).at(Vec3A::ZERO) != Wind::new(&other, t, &x).at(Vec3A::ZERO)
        });
        assert!(differs, "another seed, other gusts");
    }

    #[test]
    fn nodes_far_apart_hash_their_gusts_instead_of_tabulating_them() {
        // Gusts a metre long over nodes two thousand kilometres apart: two million phases.
        let air = Air {
            wind: Vec3::new(1.0, 0.0, 0.0),
            gusts: 0.5,
            gust_period: 1.0,
            seed: 3,
            ..Air::default()
        };
        let far = vec![Vec3A::new(-1e6, 0.0, 0.0), Vec3A::new(1e6, 0.0, 0.0)];
        let near = vec![Vec3A::new(2.0, 0.0, 0.0), Vec3A::new(3.0, 0.0, 0.0)];
        for t in [0.0, 0.37, 5.2] {
            let (hashed, tabled) = (Wind::new(&air, t, &far), Wind::new(&air, t, &near));
            assert!(hashed.table.is_empty() && tabled.table.len() <= MAX_GUST_TABLE);
            for x in [2.0f32, 2.25, 2.5, 3.0] {
                let p = Vec3A::new(x, 0.0, 0.0);
                assert!((hashed.at(p) - tabled.at(p)).length() < 1e-3, "the same gusts at {x}");
            }
            assert!(hashed.at(far[1]).is_finite());
        }
    }

    #[test]
    fn phases_beyond_f64_precision_do_not_build_a_short_table() {
        // Found by the mutation harness (tests/files/mutation.rs): a gust period of 1e-6 s
        // after 1e11 s of simulated time is a phase of 1e17, where ⌊φ⌋ + 1 rounds back to
        // ⌊φ⌋: a table of one knot, indexed at its second.
        let air = Air { wind: Vec3::X, gusts: 0.5, gust_period: 1e-6, ..Air::default() };
        let x = vec![Vec3A::ZERO, Vec3A::X * 1e-9];
        let wind = Wind::new(&air, 1e11, &x);
        assert!(wind.table.is_empty());
        assert!(wind.at(Vec3A::ZERO).is_finite());
    }
}
