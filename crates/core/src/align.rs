//! # Best rigid alignment (Horn's quaternion method)
//!
//! Given points p_i and their targets q_i, the rotation R and translation t minimising
//! Σ |R p_i + t − q_i|² are found in closed form (Horn, "Closed-form solution of absolute
//! orientation using unit quaternions", JOSA A 4(4), 1987): with both sets centred on their
//! centroids, form the 3 × 3 correlation M = Σ p_i q_iᵀ and from it the symmetric 4 × 4 matrix
//!
//! ```text
//! N = | Sxx+Syy+Szz   Syz−Szy       Szx−Sxz       Sxy−Syx      |
//!     | Syz−Szy       Sxx−Syy−Szz   Sxy+Syx       Szx+Sxz      |
//!     | Szx−Sxz       Sxy+Syx      −Sxx+Syy−Szz   Syz+Szy      |
//!     | Sxy−Syx       Szx+Sxz       Syz+Szy      −Sxx−Syy+Szz  |
//! ```
//!
//! whose eigenvector of largest eigenvalue is the unit quaternion of R; t = q̄ − R p̄. The
//! eigenvector comes from cyclic Jacobi rotations, which converge for any symmetric matrix. Sums
//! are in f64.

use glam::{DMat4, DQuat, DVec3, DVec4, Quat, Vec3, Vec3A};

/// The rigid transform (rotation, translation) taking `from` closest to `to`.
pub fn best_rigid<P, Q>(from: &[P], to: &[Q]) -> (Quat, Vec3)
where
    P: Copy + Into<Vec3A>,
    Q: Copy + Into<Vec3A>,
{
    let n = from.len().min(to.len()).max(1) as f64;
    let wide = |p: Vec3A| p.as_dvec3();
    let pc = from.iter().map(|&p| wide(p.into())).sum::<DVec3>() / n;
    let qc = to.iter().map(|&q| wide(q.into())).sum::<DVec3>() / n;
    let mut s = [[0.0f64; 3]; 3];
    for (&p, &q) in from.iter().zip(to) {
        let (p, q) = (wide(p.into()) - pc, wide(q.into()) - qc);
        let (p, q) = (p.to_array(), q.to_array());
        for (i, row) in s.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v += p[i] * q[j];
            }
        }
    }
    let [[sxx, sxy, sxz], [syx, syy, syz], [szx, szy, szz]] = s;
    let n = [
        [sxx + syy + szz, syz - szy, szx - sxz, sxy - syx],
        [syz - szy, sxx - syy - szz, sxy + syx, szx + sxz],
        [szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy],
        [sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz],
    ];
    let v = largest_eigenvector(n);
    // Horn's quaternion is (w, x, y, z).
    let r = DQuat::from_xyzw(v.y, v.z, v.w, v.x).normalize();
    let t = qc - r * pc;
    (r.as_quat(), t.as_vec3())
}

/// The eigenvector of the largest eigenvalue of a symmetric 4 × 4 matrix.
fn largest_eigenvector(mut a: [[f64; 4]; 4]) -> DVec4 {
    let mut v = DMat4::IDENTITY.to_cols_array_2d();
    for _sweep in 0..50 {
        let off: f64 = (0..4)
            .flat_map(|i| (0..4).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i][j] * a[i][j])
            .sum();
        if off < 1e-24 {
            break;
        }
        for p in 0..3 {
            for q in p + 1..4 {
                if a[p][q].abs() < 1e-300 {
                    continue;
                }
                // Rotate rows/columns p, q to zero a[p][q].
                let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for row in &mut a {
                    let (akp, akq) = (row[p], row[q]);
                    row[p] = c * akp - s * akq;
                    row[q] = s * akp + c * akq;
                }
                let (row_p, row_q) = (a[p], a[q]);
                for k in 0..4 {
                    a[p][k] = c * row_p[k] - s * row_q[k];
                    a[q][k] = s * row_p[k] + c * row_q[k];
                }
                for row in &mut v {
                    let (vp, vq) = (row[p], row[q]);
                    row[p] = c * vp - s * vq;
                    row[q] = s * vp + c * vq;
                }
            }
        }
    }
    let best = (0..4).max_by(|&i, &j| a[i][i].total_cmp(&a[j][j])).unwrap_or(0);
    DVec4::new(v[0][best], v[1][best], v[2][best], v[3][best])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_a_known_rotation_and_translation() {
        let points: Vec<Vec3> =
            [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 2.0, 0.0), (0.0, 0.0, 3.0), (1.0, 1.0, 1.0)]
                .map(|(x, y, z)| Vec3::new(x, y, z))
                .to_vec();
        let r = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 2.0);
        let t = Vec3::new(0.5, -4.0, 2.0);
        let moved: Vec<Vec3A> = points.iter().map(|&p| (r * p + t).into()).collect();
        // Align the moved points back onto the originals: the inverse transform.
        let (r2, t2) = best_rigid(&moved, &points);
        for (m, p) in moved.iter().zip(&points) {
            let back = r2 * Vec3::from(*m) + t2;
            assert!((back - *p).length() < 1e-5, "{back} vs {p}");
        }
    }

    #[test]
    fn identical_sets_give_the_identity() {
        let p = [Vec3::X, Vec3::Y, Vec3::Z, Vec3::ONE];
        let from: Vec<Vec3A> = p.iter().map(|&v| v.into()).collect();
        let (r, t) = best_rigid(&from, &p);
        assert!(r.angle_between(Quat::IDENTITY) < 1e-5 && t.length() < 1e-6);
    }
}
