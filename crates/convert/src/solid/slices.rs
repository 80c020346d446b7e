//! # Horizontal cross-sections of a closed mesh
//!
//! The area A(y) that the plane at height y cuts out of the solid, for the default material
//! ([`super::material::default_modulus`]). Each triangle that the plane crosses contributes
//! the segment where it meets it; oriented along ŷ × n (n the triangle's outward normal) the
//! segments run clockwise around the section seen from above, and the shoelace sum over them,
//! Σ ½ (x_q z_p − x_p z_q) for a segment from p to q, is the enclosed area (Green's theorem).
//! Its absolute value is taken, so an inside-out mesh gives the same areas; a mesh with holes
//! gives nearly right ones.

use glam::Vec3;

/// The cross-section areas (m²) at `levels` heights evenly spread over `lo..hi` (the middle of
/// each of `levels` equal bands).
pub fn cross_sections(
    positions: &[Vec3],
    triangles: &[[u32; 3]],
    lo: f32,
    hi: f32,
    levels: usize,
) -> Vec<f32> {
    let band = (hi - lo) / levels.max(1) as f32;
    let mut sums = vec![0.0f64; levels];
    for t in triangles {
        let [a, b, c] = t.map(|i| positions[i as usize]);
        let normal = (b - a).cross(c - a);
        let (bottom, top) = (a.y.min(b.y).min(c.y), a.y.max(b.y).max(c.y));
        if !(band.is_finite() && band > 0.0) || top <= bottom {
            continue;
        }
        let first = (((bottom - lo) / band - 0.5).ceil().max(0.0)) as usize;
        let last = (((top - lo) / band - 0.5).floor().max(-1.0) + 1.0) as usize;
        for (k, sum) in sums.iter_mut().enumerate().take(last.min(levels)).skip(first) {
            let y = lo + (k as f32 + 0.5) * band;
            let crossing: Vec<Vec3> = [(a, b), (b, c), (c, a)]
                .into_iter()
                .filter(|(p, q)| (p.y < y) != (q.y < y))
                .map(|(p, q)| p + (q - p) * ((y - p.y) / (q.y - p.y)))
                .collect();
            let [p, q] = match crossing[..] {
                [p, q] => [p, q],
                _ => continue,
            };
            let along = Vec3::Y.cross(normal);
            let (p, q) = if (q - p).dot(along) >= 0.0 { (p, q) } else { (q, p) };
            *sum += 0.5 * f64::from(q.x * p.z - p.x * q.z);
        }
    }
    sums.into_iter().map(|s| s.abs() as f32).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes;

    #[test]
    fn the_sections_of_a_box_and_a_sphere_are_their_areas() {
        // The open box is 0.6 m square: every section 0.36 m² (the hole in its top is above
        // the highest level).
        let b = shapes::open_box();
        for a in cross_sections(&b.positions, &b.triangles, 0.0, 0.6, 12) {
            assert!((a - 0.36).abs() < 1e-4, "{a}");
        }
        // A sphere of radius 1: π (1 − y²), less the tessellation's shortfall.
        let s = shapes::sphere(Vec3::ZERO, 1.0, 48, 96);
        let areas = cross_sections(&s.positions, &s.triangles, -1.0, 1.0, 10);
        for (k, a) in areas.iter().enumerate() {
            let y = -1.0 + (k as f32 + 0.5) * 0.2;
            let exact = std::f32::consts::PI * (1.0 - y * y);
            assert!(*a < exact && *a > 0.98 * exact, "y {y}: {a} vs {exact}");
        }
    }
}
