//! # Node masses
//!
//! - Per node: every node weighs the same, set directly.
//! - Total, even: a total mass M shared equally, m_i = M / n.
//! - Total, by area: each triangle carries mass in proportion to its area A_t and gives a
//!   third to each corner, m_i = M · (Σ_{t ∋ i} A_t / 3) / Σ_t A_t: the lumped mass matrix of
//!   linear triangles, so a dense patch of small triangles is not heavier than a sparse one.
//!   A mesh of zero total area falls back to even shares.
//! - Density: a total of ρ · V, V the volume the surface encloses (divergence theorem,
//!   [`signed_volume`]), shared by area like the above.
//!
//! A solid ([`crate::solid`]) shares the same way, by the volume each node stands for
//! instead of the area: [`MassMode::share`] says how, once, for both.

use crate::ConvertError;
use crate::painted::Painted;
use crate::report::ConvertReport;
use glam::Vec3;
use serde::Serialize;

/// How node masses are set.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum MassMode {
    /// Every node gets this mass (kg).
    PerNode {
        /// kg per node.
        mass: f32,
    },
    /// This total mass (kg) is shared evenly between the nodes.
    TotalEven {
        /// kg in all.
        mass: f32,
    },
    /// This total mass (kg) is shared by area: each triangle carries mass in proportion to
    /// its area and gives a third of it to each corner (a solid: by the volume each node
    /// stands for).
    TotalByArea {
        /// kg in all.
        mass: f32,
    },
    /// The volume the surface encloses times this density (kg/m³), shared like
    /// [`MassMode::TotalByArea`].
    Density {
        /// kg/m³.
        density: f32,
    },
}

impl MassMode {
    /// The number the mode carries (kg, or kg/m³ for a density).
    pub fn value(self) -> f32 {
        match self {
            MassMode::PerNode { mass }
            | MassMode::TotalEven { mass }
            | MassMode::TotalByArea { mass } => mass,
            MassMode::Density { density } => density,
        }
    }

    /// How this mode shares mass, `volume` giving the volume (m³) a density fills.
    pub fn share(self, volume: impl FnOnce() -> f32) -> Share {
        match self {
            MassMode::PerNode { mass } => Share::PerNode(mass),
            MassMode::TotalEven { mass } => Share::Even(mass),
            MassMode::TotalByArea { mass } => Share::Proportional(mass),
            MassMode::Density { density } => Share::Proportional(density * volume()),
        }
    }
}

/// How a [`MassMode`] shares mass between nodes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Share {
    /// Every node gets this mass (kg).
    PerNode(f32),
    /// This total (kg) is shared evenly.
    Even(f32),
    /// This total (kg) is shared in proportion to what each node stands for (area on a
    /// surface, volume in a solid).
    Proportional(f32),
}

/// The volume (m³) the triangles enclose, signed: positive when they face outwards
/// ([`springmesh_core::geometry::signed_volume`]).
pub fn signed_volume(positions: &[Vec3], triangles: &[[u32; 3]]) -> f64 {
    springmesh_core::geometry::signed_volume(
        positions,
        triangles.iter().map(|t| t.map(|i| i as usize)),
    )
}

/// The mass of each of the nodes at `positions` (triangles `triangles`), and whether an
/// area share had to fall back to even shares.
pub fn node_masses(mode: MassMode, positions: &[Vec3], triangles: &[[u32; 3]]) -> (Vec<f32>, bool) {
    let n = positions.len();
    let volume = || signed_volume(positions, triangles).abs() as f32;
    match mode.share(volume) {
        Share::PerNode(mass) => (vec![mass; n], false),
        Share::Even(mass) => (vec![mass / n.max(1) as f32; n], false),
        Share::Proportional(mass) => {
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

/// The masses stage of a conversion: the solid's masses (`solid`, surface then interior) or
/// the surface's by `mode`, times the painted factors; the report notes an area share that
/// fell back to even shares and the nodes whose mass was painted.
pub(crate) fn model_masses(
    mode: MassMode,
    solid: Option<&[f32]>,
    (positions, triangles): (&[Vec3], &[[u32; 3]]),
    painted: impl FnOnce() -> Result<Painted, ConvertError>,
    report: &mut ConvertReport,
) -> Result<(Vec<f32>, Painted), ConvertError> {
    let (masses, area_fallback) = match solid {
        Some(masses) => (masses.to_vec(), false),
        None => node_masses(mode, positions, triangles),
    };
    if masses.iter().any(|&m| !(m.is_finite() && m > 0.0)) {
        let reason = "a mass from a density needs a closed surface: this mesh encloses no volume";
        return Err(ConvertError::Options { reason: reason.into() });
    }
    report.warn(
        "area_masses",
        usize::from(area_fallback),
        Vec::new(),
        "some nodes touch only zero-area triangles: masses are shared evenly instead of by area"
            .into(),
    );
    let painted = painted()?;
    let masses = masses.iter().enumerate().map(|(n, &m)| m * painted.mass_factor(n)).collect();
    report.weighted_masses = painted.mass.iter().filter(|&&f| f != 1.0).count();
    Ok((masses, painted))
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
