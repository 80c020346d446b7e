//! Meshes generated in code: the closed shapes that the solid fill is tested and benchmarked on
//! (and that `assets/meshes/blob.obj` was written from), and that anyone can try `--solid` on.
//!
//! - [`sphere`]: a UV sphere, the plainest solid.
//! - [`torus`]: a ring, a solid with a hole through it.
//! - [`blob`]: a four-legged body on thin legs, cow-like: what a surface-only conversion turns
//!   into a puddle.
//! - [`stilts`]: a low-poly box body on four thin legs: it stands only if its legs hold.
//! - [`open_box`]: a box with a square hole cut in its top: not closed, still a solid.
//! - [`crate_box`]: a cube of eight vertices and twelve triangles, the lowest-poly prop.
//! - [`strip`]: a flat rectangle of square cells; [`dropped_strip`] one standing on its end,
//!   cloth that folds onto itself when it falls.
//!
//! Every face is counter-clockwise seen from outside, and vertices are shared (no seams).

use crate::RawMesh;
use glam::{IVec3, Vec3};
use std::collections::HashMap;

/// A UV sphere of `radius` (m) centred at `center`, with `rings` bands of latitude and
/// `segments` of longitude (at least 2 and 3).
pub fn sphere(center: Vec3, radius: f32, rings: usize, segments: usize) -> RawMesh {
    let (rings, segments) = (rings.max(2), segments.max(3));
    let mut mesh = RawMesh::default();
    mesh.positions.push(center + Vec3::Y * radius);
    for i in 1..rings {
        let theta = std::f32::consts::PI * i as f32 / rings as f32;
        for j in 0..segments {
            let phi = std::f32::consts::TAU * j as f32 / segments as f32;
            let d = Vec3::new(theta.sin() * phi.cos(), theta.cos(), -theta.sin() * phi.sin());
            mesh.positions.push(center + d * radius);
        }
    }
    mesh.positions.push(center - Vec3::Y * radius);
    let bottom = (mesh.positions.len() - 1) as u32;
    let at = |i: usize, j: usize| (1 + (i - 1) * segments + j % segments) as u32;
    for j in 0..segments {
        mesh.push_triangle([0, at(1, j), at(1, j + 1)], None);
        mesh.push_triangle([bottom, at(rings - 1, j + 1), at(rings - 1, j)], None);
    }
    for i in 1..rings - 1 {
        for j in 0..segments {
            let q = [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)];
            mesh.push_triangle([q[0], q[1], q[2]], None);
            mesh.push_triangle([q[0], q[2], q[3]], None);
        }
    }
    mesh
}

/// A torus around the y axis through `center`: ring radius `major`, tube radius `minor` (m),
/// `around` segments along the ring and `across` around the tube.
pub fn torus(center: Vec3, major: f32, minor: f32, around: usize, across: usize) -> RawMesh {
    let (around, across) = (around.max(3), across.max(3));
    let mut mesh = RawMesh::default();
    for i in 0..around {
        let phi = std::f32::consts::TAU * i as f32 / around as f32;
        let radial = Vec3::new(phi.cos(), 0.0, phi.sin());
        for j in 0..across {
            let theta = std::f32::consts::TAU * j as f32 / across as f32;
            let d = radial * (major + minor * theta.cos()) + Vec3::Y * minor * theta.sin();
            mesh.positions.push(center + d);
        }
    }
    let at = |i: usize, j: usize| ((i % around) * across + j % across) as u32;
    for i in 0..around {
        for j in 0..across {
            let q = [at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)];
            mesh.push_triangle([q[0], q[1], q[2]], None);
            mesh.push_triangle([q[0], q[2], q[3]], None);
        }
    }
    mesh
}

/// A cow-like blob, 1.2 m long: a body of about 1.2 × 0.5 × 0.5 m on four legs about 0.1 m
/// thick and 0.4 m long, made of 5 cm cubes and rounded by Taubin smoothing.
pub fn blob() -> RawMesh {
    let leg = |v: IVec3| {
        let x_in = (2..4).contains(&v.x) || (20..22).contains(&v.x);
        let z_in = (1..3).contains(&v.z) || (7..9).contains(&v.z);
        (0..8).contains(&v.y) && x_in && z_in
    };
    let body = |v: IVec3| (8..18).contains(&v.y);
    let solid = |v: IVec3| (0..24).contains(&v.x) && (0..10).contains(&v.z) && (body(v) || leg(v));
    let mut mesh =
        voxel_surface(solid, IVec3::new(0, 0, 0), IVec3::new(24, 18, 10), 0.05, |_, _| true);
    taubin(&mut mesh, 8);
    mesh
}

/// A box body 1.0 × 0.4 × 0.5 m, its bottom 0.5 m up, on four legs 8 cm square at its
/// corners: a low-poly creature whose thin legs carry it. Each box is closed on its own (the
/// legs' tops lie against the body's bottom; the fill joins them), each face of the body a
/// 6 × 6 grid, of a leg 3 × 3: 218 + 4 × 56 = 442 vertices, under the cage budget, so every
/// vertex is a node.
pub fn stilts() -> RawMesh {
    let mut mesh = RawMesh::default();
    grid_box(&mut mesh, Vec3::new(0.0, 0.5, 0.0), Vec3::new(1.0, 0.9, 0.5), 6);
    for (x, z) in [(0.05, 0.05), (0.87, 0.05), (0.05, 0.37), (0.87, 0.37)] {
        grid_box(&mut mesh, Vec3::new(x, 0.0, z), Vec3::new(x + 0.08, 0.5, z + 0.08), 3);
    }
    mesh
}

/// Adds the closed box `lo..hi` to `mesh`, each face an `n` × `n` grid of quads (two
/// triangles each), counter-clockwise from outside, its vertices shared within the box.
fn grid_box(mesh: &mut RawMesh, lo: Vec3, hi: Vec3, n: usize) {
    let mut index: HashMap<IVec3, u32> = HashMap::new();
    let axes = [IVec3::X, IVec3::Y, IVec3::Z];
    for a in 0..3 {
        let (u, w) = (axes[(a + 1) % 3], axes[(a + 2) % 3]);
        for side in [0, n as i32] {
            for i in 0..n as i32 {
                for j in 0..n as i32 {
                    let base = axes[a] * side + u * i + w * j;
                    let corners = if side > 0 {
                        [base, base + u, base + u + w, base + w]
                    } else {
                        [base, base + w, base + u + w, base + u]
                    };
                    let q = corners.map(|c| {
                        *index.entry(c).or_insert_with(|| {
                            mesh.positions.push(lo + (hi - lo) * c.as_vec3() / n as f32);
                            (mesh.positions.len() - 1) as u32
                        })
                    });
                    mesh.quads.push(q);
                    mesh.push_triangle([q[0], q[1], q[2]], None);
                    mesh.push_triangle([q[0], q[2], q[3]], None);
                }
            }
        }
    }
}

/// Smooths `mesh` with `iterations` of Taubin's λ|μ filter (Taubin 1995, "A signal processing
/// approach to fair surface design"): a Laplacian step of λ = 0.5 towards the neighbours'
/// mean, then one of μ = −0.53 away from it, which rounds corners without shrinking the whole.
fn taubin(mesh: &mut RawMesh, iterations: usize) {
    let mut neighbours = vec![Vec::new(); mesh.positions.len()];
    for t in &mesh.triangles {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            neighbours[a as usize].push(b);
            neighbours[b as usize].push(a);
        }
    }
    for n in &mut neighbours {
        n.sort_unstable();
        n.dedup();
    }
    for _ in 0..iterations {
        for factor in [0.5, -0.53] {
            let p = mesh.positions.clone();
            for (v, n) in mesh.positions.iter_mut().zip(&neighbours) {
                let mean = n.iter().map(|&i| p[i as usize]).sum::<Vec3>() / n.len().max(1) as f32;
                *v += factor * (mean - *v);
            }
        }
    }
}

/// A 0.6 m cube box with a 0.2 m square hole in the middle of its top, made of 5 cm cells.
pub fn open_box() -> RawMesh {
    let inside = |v: IVec3| v.cmpge(IVec3::ZERO).all() && v.cmplt(IVec3::splat(12)).all();
    let hole = |v: IVec3, normal: IVec3| {
        normal == IVec3::Y && (4..8).contains(&v.x) && (4..8).contains(&v.z)
    };
    voxel_surface(inside, IVec3::ZERO, IVec3::splat(12), 0.05, |v, n| !hole(v, n))
}

/// A cube of `side` (m) from the origin, of its eight corners alone (six quads, twelve
/// triangles): a crate as a modeler's default cube makes it.
pub fn crate_box(side: f32) -> RawMesh {
    voxel_surface(|v| v == IVec3::ZERO, IVec3::ZERO, IVec3::ONE, side, |_, _| true)
}

/// A `width` × `height` (m) rectangle in the x–y plane from the origin, facing +z, of square
/// cells of about `spacing` (m), each cut into two triangles.
pub fn strip(width: f32, height: f32, spacing: f32) -> RawMesh {
    let cells = |length: f32| ((length / spacing).round() as usize).max(1);
    let (across, up) = (cells(width), cells(height));
    let mut mesh = RawMesh::default();
    for j in 0..=up {
        for i in 0..=across {
            let at =
                Vec3::new(width * i as f32 / across as f32, height * j as f32 / up as f32, 0.0);
            mesh.positions.push(at);
        }
    }
    let at = |i: usize, j: usize| (j * (across + 1) + i) as u32;
    for j in 0..up {
        for i in 0..across {
            let q = [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)];
            mesh.quads.push(q);
            mesh.push_triangle([q[0], q[1], q[2]], None);
            mesh.push_triangle([q[0], q[2], q[3]], None);
        }
    }
    mesh
}

/// The 1.6 × 0.3 m [`strip`] of 2.5 cm cells (845 vertices) standing on its end 1 cm above
/// y = 0, leaning 2% out of its plane and waved 1 cm across it, so that it folds over when it
/// falls: the self-collision test's and benchmark's pile.
pub fn dropped_strip() -> RawMesh {
    dropped(strip(0.3, 1.6, 0.025))
}

/// A sheet in the x–y plane (a [`strip`]) stood on its end as [`dropped_strip`] stands its
/// own: 1 cm above y = 0, leaning 2% out of its plane and waved 1 cm across it.
pub fn dropped(mut mesh: RawMesh) -> RawMesh {
    for p in &mut mesh.positions {
        *p = Vec3::new(p.x, p.y + 0.01, 0.02 * p.y + 0.01 * (12.0 * p.y).sin());
    }
    mesh
}

/// The boundary of the cubes of size `size` (m) at the integer cells `lo..hi` for which `filled`
/// holds: one quad (two triangles) for each face between a filled and an empty cell for which
/// `keep(cell, outward normal)` holds.
fn voxel_surface(
    filled: impl Fn(IVec3) -> bool,
    lo: IVec3,
    hi: IVec3,
    size: f32,
    keep: impl Fn(IVec3, IVec3) -> bool,
) -> RawMesh {
    let mut mesh = RawMesh::default();
    let mut index: HashMap<IVec3, u32> = HashMap::new();
    let mut vertex = |mesh: &mut RawMesh, c: IVec3| {
        *index.entry(c).or_insert_with(|| {
            mesh.positions.push(c.as_vec3() * size);
            (mesh.positions.len() - 1) as u32
        })
    };
    let axes = [IVec3::X, IVec3::Y, IVec3::Z];
    for z in lo.z..hi.z {
        for y in lo.y..hi.y {
            for x in lo.x..hi.x {
                let v = IVec3::new(x, y, z);
                if !filled(v) {
                    continue;
                }
                for a in 0..3 {
                    let (u, w) = (axes[(a + 1) % 3], axes[(a + 2) % 3]);
                    for sign in [1, -1] {
                        let normal = axes[a] * sign;
                        if filled(v + normal) || !keep(v, normal) {
                            continue;
                        }
                        let base = if sign > 0 { v + axes[a] } else { v };
                        // (u, w) in cyclic order has normal +axis: counter-clockwise from +axis.
                        let corners = if sign > 0 {
                            [base, base + u, base + u + w, base + w]
                        } else {
                            [base, base + w, base + u + w, base + u]
                        };
                        let q = corners.map(|c| vertex(&mut mesh, c));
                        mesh.quads.push(q);
                        mesh.push_triangle([q[0], q[1], q[2]], None);
                        mesh.push_triangle([q[0], q[2], q[3]], None);
                    }
                }
            }
        }
    }
    mesh
}

/// The mesh as OBJ text (positions and triangles).
pub fn to_obj(mesh: &RawMesh) -> String {
    let mut out = String::new();
    for p in &mesh.positions {
        out.push_str(&format!("v {} {} {}\n", p.x, p.y, p.z));
    }
    for t in &mesh.triangles {
        out.push_str(&format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::masses::signed_volume;

    fn volume(m: &RawMesh) -> f64 {
        signed_volume(&m.positions, &m.triangles)
    }

    #[test]
    fn closed_shapes_face_outwards_and_enclose_their_volume() {
        // Volumes worked out by hand; the tessellated sphere and torus fall a little short.
        let s = sphere(Vec3::ZERO, 1.0, 24, 48);
        let exact = 4.0 / 3.0 * std::f64::consts::PI;
        assert!(volume(&s) > 0.98 * exact && volume(&s) < exact, "{}", volume(&s));
        let t = torus(Vec3::ZERO, 0.5, 0.2, 48, 24);
        let exact = 2.0 * std::f64::consts::PI.powi(2) * 0.5 * 0.04;
        assert!(volume(&t) > 0.98 * exact && volume(&t) < exact, "{}", volume(&t));
        // A 1.2 × 0.5 × 0.5 body and four 0.1 × 0.1 × 0.4 legs, rounded (Taubin's filter
        // keeps the volume within a few percent).
        let v = volume(&blob());
        assert!((v / (0.3 + 4.0 * 0.004) - 1.0).abs() < 0.03, "{v}");
        // Euler: a closed surface of genus 0 has V − E + F = 2, so 2V − 4 triangles.
        let b = blob();
        assert_eq!(b.triangles.len(), 2 * b.positions.len() - 4);
        // The open box lacks 4 × 4 of its 6 × 144 faces' quads.
        assert_eq!(open_box().quads.len(), 6 * 144 - 16);
    }

    #[test]
    fn the_blob_asset_is_what_the_generator_makes() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/meshes/blob.obj");
        let on_disk = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            on_disk == to_obj(&blob()),
            "regenerate assets/meshes/blob.obj with shapes::to_obj(&shapes::blob())"
        );
    }
}
