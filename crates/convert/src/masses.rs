//! # Node masses
//!
//! - Per node: every node weighs the same, set directly.
//! - Total, even: a total mass M shared equally, m_i = M / n.
//! - Total, by area: each triangle carries mass in proportion to its area A_t and gives a
//!   third to each corner, m_i = M · (Σ_{t ∋ i} A_t / 3) / Σ_t A_t: the lumped mass matrix of
//!   linear triangles, so a dense patch of small triangles is not heavier than a sparse one.
//!   A mesh of zero total area falls back to even shares.
//! - Density: a total of ρ · V, V the volume the surface encloses (divergence theorem, as
//!   [`crate::solid::signed_volume`]), shared by area like the above.

use crate::options::MassMode;
use glam::Vec3;

/// The mass of each of the nodes at `positions` (triangles `triangles`), and whether an
/// area share had to fall back to even shares.
pub fn node_masses(mode: MassMode, positions: &[Vec3], triangles: &[[u32; 3]]) -> (Vec<f32>, bool) {
    let n = positions.len();
    match mode {
        MassMode::PerNode { mass } => (vec![mass; n], false),
        MassMode::TotalEven { mass } => (vec![mass / n.max(1) as f32; n], false),
        MassMode::Density { density } => {
            let volume = crate::solid::signed_volume(positions, triangles).abs() as f32;
            node_masses(MassMode::TotalByArea { mass: density * volume }, positions, triangles)
        }
        MassMode::TotalByArea { mass } => {
            let mut share = vec![0.0f64; n];
            for t in triangles {
                let [a, b, c] = t.map(|i| positions[i as usize]);
                let third = f64::from(0.5 * (b - a).cross(c - a).length()) / 3.0;
                for &i in t {
                    share[i as usize] += third;
                }
            }
            let total: f64 = share.iter().sum();
            if total > 0.0 && share.iter().all(|&s| s > 0.0) {
                (share.iter().map(|s| (f64::from(mass) * s / total) as f32).collect(), false)
            } else {
                (vec![mass / n.max(1) as f32; n], true)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn area_shares_of_two_unequal_triangles() {
        // Triangle 0-1-2 has area 0.5, triangle 1-3-2 has area 1.5: total 2.
        let p = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(3.0, 1.0, 0.0)];
        let (m, fallback) =
            node_masses(MassMode::TotalByArea { mass: 6.0 }, &p, &[[0, 1, 2], [1, 3, 2]]);
        assert!(!fallback);
        // Node 0: 0.5/3; nodes 1, 2: 0.5/3 + 1.5/3; node 3: 1.5/3 — times 6/2.
        let expected = [0.5, 2.0, 2.0, 1.5];
        for (got, want) in m.iter().zip(expected) {
            assert!((got - want).abs() < 1e-5, "{m:?}");
        }
        let (even, _) = node_masses(MassMode::TotalEven { mass: 6.0 }, &p, &[]);
        assert_eq!(even, vec![1.5; 4]);
    }
}
