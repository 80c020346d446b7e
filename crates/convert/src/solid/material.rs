//! # Springs and masses of a solid from its material
//!
//! **Stiffness.** A spring network approximates an elastic solid of Young's modulus E when each
//! spring of rest length L gets k = E · V / L², V being the volume of the elements that share
//! it (van Gelder 1998, "Approximate simulation of elastic membranes by triangulated spring
//! meshes", J. Graphics Tools 3(2), whose 2-D rule k = E · Σ area / L² this is in 3-D;
//! Lloyd, Székely & Harders 2007 discuss its limits). In the BCC lattice
//! ([`super::lattice`]) every tetrahedron has volume h³/12; an axis edge (L = h) is shared by 4
//! of them and a diagonal (L = √3 h / 2) by 6, so
//!
//! ```text
//! k_axis = E h / 3,   k_diagonal = 2 E h / 3
//! ```
//!
//! Check: under a uniaxial strain ε the lattice stores ε² (E/3 + 2E/9) = (5/9) E ε² per unit
//! volume, a modulus C₁₁ = 10E/9; an isotropic solid with the Poisson ratio ¼ of any
//! central-force network has C₁₁ = 1.2 E. A binding spring ([`super::binding`]) stands for a
//! quarter of its surface node's share of the volume, taken as h³/2 like a lattice node's:
//! k = E (h³/8) / L², with L no shorter than h/4 (so a lattice node that happens to lie on the
//! surface does not make one spring a thousand times stiffer than the rest); a strut across a
//! thin part ([`super::struts`]) is given the same. The surface's own
//! springs are a shell of thickness t = h/2 in the 2-D rule: k = E t A / L², A the mean of
//! its two ends' area shares (a node's share is a third of its triangles' area, so on a regular
//! mesh A is the area of the two triangles at an edge); bend springs get a tenth of that, the
//! surface-only conversion's ratio.
//!
//! **Damping.** Each spring gets a fraction ζ of its critical damping 2√(k m), m the mean of
//! its ends' masses, so a wobble dies down in a few swings at every size and stiffness; ζ =
//! [`DAMPING_RATIO`].
//!
//! **The default modulus.** The body is taken as a column standing on its base, of the
//! cross-section A(y) that each height cuts out of it ([`super::slices`]). The layer at height y
//! carries the weight ρ g V(y) of the volume above it, so it is compressed by the strain
//! ρ g V(y) / (A(y) E), and the whole shortens by ∫ ρ g V(y) / (A(y) E) dy. The default E makes
//! that [`TARGET_SAG`] of the height H:
//!
//! ```text
//! E = ρ g ∫ V(y) / A(y) dy / (0.01 H)
//! ```
//!
//! For a prism (A constant) it is E = ρ g H / (2 · 0.01) = 50 ρ g H: a 1 m jelly of water's
//! density gets 0.49 MPa (soft rubber; it wobbles at a few Hz), a 1 cm one 4.9 kPa (gelatin), a
//! 100 m one 49 MPa, so every size keeps its shape as well, which a fixed material would not (a
//! 100 m body of gelatin would flow). A body on thin legs gets a stiffer material, as its legs
//! carry the weight on a small section: the cow-like blob of [`crate::shapes::blob`] gets 3.6
//! MPa, where the prism rule's 0.44 MPa lets its legs buckle. Give `--youngs-modulus` for a real
//! material: gelatin 1–10 kPa, silicone rubber 0.1–5 MPa, rubber 10–100 MPa.
//!
//! **Masses.** A lattice node stands for the h³/2 of space around it (a BCC lattice has two
//! nodes per cube), a surface node for a shell a quarter spacing thick over its area share (the
//! gap between the surface and the outermost lattice nodes is up to a spacing wide, half of it
//! theirs). The model's total mass is shared in proportion. The default density,
//! [`DEFAULT_DENSITY`], is water's: jelly, flesh, soft plastics and rubber are within about
//! 50% of it.

use glam::Vec3;

/// Default density of a solid (kg/m³): water's.
pub const DEFAULT_DENSITY: f32 = 1000.0;
/// The sag under its own weight, as a fraction of its height, that the default modulus gives.
pub const TARGET_SAG: f32 = 0.01;
/// Fraction of critical damping given to every spring of a solid.
pub const DAMPING_RATIO: f32 = 0.05;
/// Standard gravity (m/s²) for the default modulus.
const G: f32 = 9.81;

/// The Young's modulus (Pa) at which a body of mean density `density` (kg/m³) whose horizontal
/// cross-sections, `band` metres apart from the bottom up, have the areas `areas` (m²) sags
/// [`TARGET_SAG`] of its height under its own weight. Bands with no section (a gap between parts)
/// carry nothing.
pub fn default_modulus(density: f32, areas: &[f32], band: f32) -> f32 {
    let height = band * areas.len() as f32;
    let largest = areas.iter().copied().fold(0.0f32, f32::max);
    let mut above = 0.0f64;
    let mut integral = 0.0f64;
    for &a in areas.iter().rev() {
        let a = f64::from(a);
        let carried = above + 0.5 * a * f64::from(band);
        above += a * f64::from(band);
        if a > 1e-6 * f64::from(largest) {
            integral += carried / a * f64::from(band);
        }
    }
    (f64::from(density * G) * integral / f64::from(TARGET_SAG * height)) as f32
}

/// Stiffness (N/m) of a lattice edge of a lattice of spacing `h` in a material of modulus `e`.
pub fn lattice_stiffness(e: f32, h: f32, diagonal: bool) -> f32 {
    if diagonal { 2.0 * e * h / 3.0 } else { e * h / 3.0 }
}

/// Stiffness (N/m) of a spring of length `length` binding a surface node to the lattice.
pub fn binding_stiffness(e: f32, h: f32, length: f32) -> f32 {
    let l = length.max(0.25 * h);
    e * h * h * h / (8.0 * l * l)
}

/// Stiffness (N/m) of a surface spring of length `length` whose ends have the mean area share
/// `area` (m²); `bend` springs get a tenth.
pub fn surface_stiffness(e: f32, h: f32, area: f32, length: f32, bend: bool) -> f32 {
    let k = e * 0.5 * h * area / (length * length).max(f32::MIN_POSITIVE);
    if bend { 0.1 * k } else { k }
}

/// Damping (N·s/m) that is [`DAMPING_RATIO`] of critical for stiffness `k` between two masses
/// of mean `mass`.
pub fn damping(k: f32, mass: f32) -> f32 {
    2.0 * DAMPING_RATIO * (k * mass).max(0.0).sqrt()
}

/// Each surface node's area share: a third of the area of its triangles.
pub fn area_shares(positions: &[Vec3], triangles: &[[u32; 3]]) -> Vec<f32> {
    let mut share = vec![0.0f32; positions.len()];
    for t in triangles {
        let [a, b, c] = t.map(|i| positions[i as usize]);
        let third = 0.5 * (b - a).cross(c - a).length() / 3.0;
        for &i in t {
            share[i as usize] += third;
        }
    }
    share
}

/// The volume (m³) that each node stands for: a shell h/4 thick over each surface node's
/// area share, then h³/2 for each of `interior` lattice nodes.
pub fn volume_shares(area_shares: &[f32], interior: usize, h: f32) -> Vec<f32> {
    area_shares
        .iter()
        .map(|a| a * 0.25 * h)
        .chain(std::iter::repeat_n(0.5 * h * h * h, interior))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lattice_stiffness_gives_the_modulus_worked_out_in_the_docs() {
        // Uniaxial strain ε along x of one cube (volume h³): 2 axis springs along x stretch by
        // ε h; 8 diagonals by ε/3 of their length √3 h / 2.
        let (e, h, eps) = (1000.0f32, 0.1f32, 1e-3f32);
        let axis = 2.0 * 0.5 * lattice_stiffness(e, h, false) * (eps * h).powi(2);
        let diag =
            8.0 * 0.5 * lattice_stiffness(e, h, true) * (eps / 3.0 * 3f32.sqrt() / 2.0 * h).powi(2);
        let c11 = 2.0 * (axis + diag) / (h * h * h) / (eps * eps);
        assert!((c11 / e - 10.0 / 9.0).abs() < 1e-3, "C11 = {c11}");
    }

    #[test]
    fn the_default_modulus_sags_a_column_by_the_target() {
        // A column of springs in series, each carrying the weight above it: the sag over the
        // height is ρ g H / (2E) in the continuum limit.
        let (rho, height) = (1000.0f32, 2.0f32);
        let e = default_modulus(rho, &[0.3; 40], height / 40.0);
        assert!((e / (rho * G * height / (2.0 * TARGET_SAG)) - 1.0).abs() < 1e-5, "{e}");
        let n = 1000;
        let dz = height / n as f32;
        let sag: f32 = (0..n).map(|i| rho * G * (height - (i as f32 + 0.5) * dz) / e * dz).sum();
        assert!((sag / height - TARGET_SAG).abs() < 1e-5, "{}", sag / height);
        // A body on legs a tenth of its section, half its height: the legs carry all of it.
        let legs: Vec<f32> = (0..40).map(|k| if k < 20 { 0.03 } else { 0.3 }).collect();
        let body = default_modulus(rho, &legs, height / 40.0);
        // Over the legs (0 ≤ y ≤ 1) ∫ (0.3 + 0.03 (1 − y)) / 0.03 dy = 10.5 m, over the body
        // ∫ 0.3 (2 − y) / 0.3 dy = 0.5 m; E = ρ g · 11 m / (0.01 · 2 m).
        let expected = rho * G * 11.0 / (TARGET_SAG * height);
        assert!((body / expected - 1.0).abs() < 0.02, "{body} vs {expected}");
    }
}
