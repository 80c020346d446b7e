//! # Pressure: gas inside a closed surface
//!
//! A closed, consistently wound surface (see [`crate::SpringModel::is_closed`]) encloses the
//! volume given by the divergence theorem,
//!
//! ```text
//! V = (1/6) Σ_f x_a · (x_b × x_c)            over the triangles f = (a, b, c)
//! ∂V/∂x_i = (1/3) Σ_{f ∋ i} N_f,   N_f = ½ (x_b − x_a) × (x_c − x_a)
//! ```
//!
//! (positive when the triangles are wound outwards; the gradient is exact because the extra
//! terms of each triangle cancel around every closed fan of triangles). N_f is the face's area
//! A_f times its unit normal n_f.
//!
//! V is homogeneous of degree 3 in the positions, so Euler's theorem gives it back from the
//! gradient, V = (1/3) Σ_i x_i · ∂V/∂x_i: the solvers compute the gradient in one pass over the
//! faces (one cross product and three additions each) and the volume in the pass over the
//! nodes that they need anyway.
//!
//! The gas is ideal and isothermal (Boyle): p V stays constant. With the pressure p₀ of
//! [`crate::model::Pressure`] given at the rest volume V₀ — the pressure by which the inside
//! exceeds the outside, which is what pushes the skin out — the pressure at volume V and the
//! force on node i are
//!
//! ```text
//! p(V) = K / V,   K = p₀ V₀
//! F_i  = p(V) ∂V/∂x_i = p(V) (1/3) Σ_{f ∋ i} A_f n_f
//! ```
//!
//! i.e. each face is pushed along its normal by pressure times its area, shared by its three
//! corners. This is the model of Matyka & Ollila ("Pressure Model of Soft Body Simulation",
//! SIGRAD 2003, p = nRT/V with nRT = p₀V₀). The gas stores the energy U(V) = −K ln(V/V₀) (its
//! derivative is −p), which [`crate::sim::readout::energy`] reports. Squeezing the gas by 1% raises its
//! pressure by 1%: enough to hold a balloon's shape against its own weight on the ground.
//!
//! - x_i: node positions (m); p₀ (Pa); V (m³).
//!
//! Why not the absolute pressure, p_abs V = const with the 101 kPa of the air outside behind
//! it? That gas is fifty times stiffer than a 2 kPa balloon's, so a balloon barely expands past
//! V₀ and its skin ends up nearly slack under a few hundred pascals — and Xpbd's near-rigid
//! springs jitter on a slack skin wherever the mesh has a flat vertex of many triangles (a UV
//! sphere's poles: measured at 32 sub-steps for a 0.3 m, 20 g balloon, stable from 128). With
//! p V = p₀ V₀ the skin stays as taut as the pressure the artist set.
//!
//! ## In the integrators
//!
//! The explicit integrators add F_i in every force pass. Xpbd adds the gas to each sub-step's prediction as a
//! velocity change, with the pressure taken at the end of the sub-step — linearised, which is
//! backward Euler along the gas's one stiff direction, ∂V/∂x:
//!
//! ```text
//! s      = Σ_i w_i |∂V/∂x_i|²,    V̇ = Σ_i ∂V/∂x_i · v_i,    k = K / V²  (= −dp/dV)
//! p_end  = (p(V) − k h V̇) / (1 + k h² s)
//! v_i   ← v_i + h w_i p_end ∂V/∂x_i                          (then x ← x + h v, springs, ...)
//! ```
//!
//! This stays stable however stiff the gas, and leaves the springs, projected afterwards, the
//! last word in each sub-step.
//!
//! ## Buoyancy
//!
//! With a gas density set, the surrounding air lifts the model by (ρ_air − ρ_gas) V (−g),
//! shared among the nodes by the area around each (a third of each adjacent triangle's rest
//! area). It is evaluated once per step with the other external forces ([`crate::sim::forces::external`]).

use crate::NodeId;
use crate::model::Pressure;
use crate::sim::data::Compiled;
use glam::{Vec3, Vec3A};

impl Compiled {
    /// The gas inside, when the parameters have pressure and the surface is closed (pressure
    /// set on an open surface through `Simulation::params_mut` does nothing).
    pub fn gas(&self) -> Option<Gas> {
        let pressure = self.params.pressure.as_ref()?;
        if !self.surface.closed {
            return None;
        }
        Gas::new(pressure, self.surface.rest_signed_volume)
    }
}

/// The signed volume (m³) the triangles `faces` enclose at `x`
/// ([`crate::geometry::signed_volume`]).
pub fn signed_volume<P: Copy + Into<Vec3>>(x: &[P], faces: &[[NodeId; 3]]) -> f32 {
    crate::geometry::signed_volume(x, faces.iter().map(|f| f.map(NodeId::index))) as f32
}

/// Writes the volume gradient ∂V/∂x_i at positions `x` to `grad` (one per node, resized to
/// `x.len()`), in the (1/3) Σ N_f form of the module doc: one cross product per face.
pub(crate) fn volume_gradient(x: &[Vec3A], faces: &[[NodeId; 3]], grad: &mut Vec<Vec3A>) {
    grad.clear();
    grad.resize(x.len(), Vec3A::ZERO);
    for &[a, b, c] in faces {
        let (a, b, c) = (a.index(), b.index(), c.index());
        let xa = x[a];
        let third_n = (x[b] - xa).cross(x[c] - xa) * (1.0 / 6.0);
        grad[a] += third_n;
        grad[b] += third_n;
        grad[c] += third_n;
    }
}

/// Nodes summed in f32 before their sum joins the f64 total in [`gradient_sums`]: long
/// enough for the loop to run at full speed, short enough that rounding stays at f32's
/// precision of a 64-term sum.
const CHUNK: usize = 64;

/// The sums over the nodes that the gas needs, from the gradient `grad` at positions `x`,
/// velocities `v` and inverse masses `w`:
///
/// - the signed volume V = (1/3) Σ_i x_i · ∂V/∂x_i (Euler's theorem: V is homogeneous of
///   degree 3 in the positions), with the positions taken relative to the first node's,
///   which changes nothing (Σ_i ∂V/∂x_i = 0 on a closed surface) but avoids the cancellation
///   of large coordinates;
/// - s = Σ_i w_i |∂V/∂x_i|² and V̇ = Σ_i ∂V/∂x_i · v_i.
///
/// Each sum is accumulated per component, so no node needs a horizontal addition.
fn gradient_sums(x: &[Vec3A], grad: &[Vec3A], v: &[Vec3A], w: &[f32]) -> (f32, f64, f64) {
    let origin = x.first().copied().unwrap_or(Vec3A::ZERO);
    let (mut three_v, mut s, mut rate) = (0.0f64, 0.0f64, 0.0f64);
    let chunks = x.chunks(CHUNK).zip(grad.chunks(CHUNK)).zip(v.chunks(CHUNK).zip(w.chunks(CHUNK)));
    for ((x, grad), (v, w)) in chunks {
        let (mut xg, mut wgg, mut gv) = (Vec3A::ZERO, Vec3A::ZERO, Vec3A::ZERO);
        for (((&x, &g), &v), &w) in x.iter().zip(grad).zip(v).zip(w) {
            xg += (x - origin) * g;
            wgg += g * g * w;
            gv += g * v;
        }
        three_v += f64::from(xg.element_sum());
        s += f64::from(wgg.element_sum());
        rate += f64::from(gv.element_sum());
    }
    ((three_v / 3.0) as f32, s, rate)
}

/// The gas of a closed model: Boyle's constant and the orientation of its surface.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Gas {
    /// K = p₀ V₀ (J).
    k: f64,
    /// V₀ (m³), positive.
    rest_volume: f64,
    /// +1 when the triangles are wound outwards, −1 when inwards: multiplies signed volumes
    /// and their gradients.
    pub sign: f32,
}

impl Gas {
    /// The gas of `pressure` in a surface whose signed rest volume is `signed_rest_volume`;
    /// `None` for a surface enclosing nothing.
    pub fn new(pressure: &Pressure, signed_rest_volume: f32) -> Option<Gas> {
        let v0 = f64::from(signed_rest_volume.abs());
        (v0 > 0.0 && v0.is_finite()).then(|| Gas {
            k: f64::from(pressure.pressure) * v0,
            rest_volume: v0,
            sign: signed_rest_volume.signum(),
        })
    }

    /// Pressure p(V) (Pa) at volume `v` (> 0).
    pub fn pressure(&self, v: f32) -> f32 {
        (self.k / f64::from(v)) as f32
    }

    /// Energy stored in the gas at volume `v`, relative to its rest volume (J).
    pub fn energy(&self, v: f32) -> f64 {
        let (v, v0) = (f64::from(v), self.rest_volume);
        if v <= 0.0 {
            return f64::INFINITY;
        }
        -self.k * (v / v0).ln()
    }

    /// Adds the pressure forces at positions `x` to `forces`; `grad` is scratch, and `v`, `w`
    /// (velocities, inverse masses) feed the sums it shares with [`Gas::kick`]. Nothing
    /// happens if the surface has turned inside out (V ≤ 0).
    pub fn add_forces(
        &self,
        (x, v, w): (&[Vec3A], &[Vec3A], &[f32]),
        faces: &[[NodeId; 3]],
        grad: &mut Vec<Vec3A>,
        forces: &mut [Vec3A],
    ) {
        volume_gradient(x, faces, grad);
        let volume = self.sign * gradient_sums(x, grad, v, w).0;
        if volume <= 0.0 {
            return;
        }
        let p = self.pressure(volume) * self.sign;
        for (f, g) in forces.iter_mut().zip(grad.iter()) {
            *f += *g * p;
        }
    }

    /// Xpbd's gas over a sub-step `h` from positions `x` and velocities `v` (see the module
    /// doc): leaves ∂V/∂x in `grad` and returns the factor c such that node i's velocity
    /// changes by c w_i ∂V/∂x_i; `None` if the surface has turned inside out (V ≤ 0).
    pub fn kick(
        &self,
        x: &[Vec3A],
        v: &[Vec3A],
        inv_mass: &[f32],
        faces: &[[NodeId; 3]],
        grad: &mut Vec<Vec3A>,
        h: f32,
    ) -> Option<f32> {
        volume_gradient(x, faces, grad);
        let (volume, s, rate) = gradient_sums(x, grad, v, inv_mass);
        let volume = self.sign * volume;
        if volume <= 0.0 {
            return None;
        }
        let (h, k) = (f64::from(h), self.k / (f64::from(volume) * f64::from(volume)));
        let rate = rate * f64::from(self.sign);
        let p_end = (f64::from(self.pressure(volume)) - k * h * rate) / (1.0 + k * h * h * s);
        Some((h * p_end) as f32 * self.sign)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The corner of the unit cube cut off by x + y + z = 1: four outward triangles, volume 1/6.
    fn tetrahedron() -> (Vec<Vec3>, Vec<[NodeId; 3]>) {
        let p = vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        let t = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
        (p, t.iter().map(|f| f.map(NodeId)).collect())
    }

    #[test]
    fn the_tetrahedron_has_volume_one_sixth_and_its_gradient_is_a_finite_difference() {
        let (p, f) = tetrahedron();
        let sixth = 1.0 / 6.0;
        assert!((signed_volume(&p, &f) - sixth).abs() < 1e-6);
        let x: Vec<Vec3A> = p.iter().map(|&v| v.into()).collect();
        let mut grad = Vec::new();
        volume_gradient(&x, &f, &mut grad);
        // ∂V/∂x is −(1/6)(1, 1, 1) at the origin and (1/6) times the axis at each other
        // corner: s = Σ |∂V/∂x_i|² = 3/36 + 3/36, and with v = x, V̇ = Σ ∂V/∂x_i · x_i = 3V.
        let (v, s, rate) = gradient_sums(&x, &grad, &x, &[1.0; 4]);
        assert!((v - sixth).abs() < 1e-6);
        assert!((s - 1.0 / 6.0).abs() < 1e-6, "{s}");
        assert!((rate - 0.5).abs() < 1e-6, "{rate}");
        // Moving a corner along an axis by ε grows the volume by the gradient times ε: check
        // against a finite difference.
        for (i, g) in grad.iter().enumerate() {
            for axis in 0..3 {
                let mut moved = x.clone();
                moved[i][axis] += 1e-3;
                let dv = (signed_volume(&moved, &f) - sixth) / 1e-3;
                assert!((dv - g[axis]).abs() < 2e-3, "node {i} axis {axis}: {dv} vs {}", g[axis]);
            }
        }
    }

    #[test]
    fn boyle_law_and_energy() {
        let gas = Gas::new(&Pressure { pressure: 2000.0, gas_density: None }, -2.0).expect("gas");
        assert_eq!(gas.sign, -1.0);
        assert!((gas.pressure(2.0) - 2000.0).abs() < 1e-3, "p₀ at V₀");
        assert!((gas.pressure(1.0) - 4000.0).abs() < 1e-3, "half the volume, twice the pressure");
        assert_eq!(gas.energy(2.0), 0.0);
        // dU/dV = −p, checked by a central difference (dv exact in f32; the error is about
        // U‴ dv² / 6 ≈ 0.02 Pa next to p ≈ 2.7 kPa).
        let dv = 1.0 / 128.0;
        let du = (gas.energy(1.5 + dv) - gas.energy(1.5 - dv)) / (2.0 * f64::from(dv));
        assert!((du + f64::from(gas.pressure(1.5))).abs() < 0.1, "{du}");
        assert!(Gas::new(&Pressure::default(), 0.0).is_none());
    }
}
