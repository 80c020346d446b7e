//! # Following a skeleton: kinematic nodes and max distances
//!
//! A game sets the pose of the skeleton a model is worn on once a frame
//! ([`crate::Simulation::set_pose`]): the joints' world matrices J_k. Every skinned node then
//! has a skinned position s_i = Σ_k w_ik J_k B_k x_i ([`crate::model::Rig`]), which moves in a
//! straight line from the last pose's to this one's over the step's sub-steps:
//!
//! ```text
//! s_i(t) = (1 − t) s_i⁰ + t s_i¹,     t = the fraction of the step done
//! ```
//!
//! - **Kinematic nodes** (max distance 0, anchored): the anchors' own interpolation places them
//!   at s_i(t) before each sub-step's springs, with the velocity (s_i¹ − s_i⁰)/Δt: no lag
//!   behind the character, and no velocity spike in the first sub-step (Jolt moved its
//!   kinematic vertices at once and fixed the spike by the same spreading).
//! - **Max distance r_i > 0** (Jolt's `mMaxDistance`, NvCloth's motion constraints): after the
//!   sub-step's springs, a node further than r_i from s_i(t) is put back on that sphere,
//!
//!   ```text
//!   d = x_i − s_i(t),   |d| > r_i:   x_i ← s_i(t) + d r_i / |d|
//!   ```
//!
//!   as a position projection (PBD: Müller et al., "Position Based Dynamics", 2007), so the
//!   velocity (x − x_prev)/h loses what went outwards and gains nothing.
//!
//! - **Back-stops** (Jolt's `mBackStopDistance`, `mBackStopRadius`): a sphere of radius R
//!   centred (d + R) behind the skinned position along the skinned normal n_i (the rest normal
//!   turned by the blended skinning matrices), moving as s_i does across the sub-steps; after
//!   the max distances, a node inside it goes to its surface,
//!
//!   ```text
//!   c = s_i(t) − (d + R) n_i(t),   e = x_i − c,   |e| < R:   x_i ← c + e R / |e|
//!   ```
//!
//!   a position projection again: a node resting on its back-stop while the character moves
//!   gets the back-stop's velocity, never more (Jolt's fix of a velocity that grew there).
//!
//! - x_i: node i's position (m); Δt: the step (s); w, J, B: the rig's weights, the joints'
//!   world matrices and their inverse bind matrices; d, R: the back-stop's distance and radius.

use crate::sim::data::Posed;
use glam::Vec3A;

/// Puts every leashed node of `posed` back within its max distance of its skinned position at
/// fraction `t` of the step; the nodes are at `base + u` (the Xpbd solver's displacements).
pub(crate) fn leash(posed: &Posed, base: &[Vec3A], u: &mut [Vec3A], t: f32) {
    for (k, (&i, &r)) in posed.leashed.iter().zip(&posed.reach).enumerate() {
        let i = i as usize;
        let (Some(&x0), Some(ui)) = (base.get(i), u.get_mut(i)) else { continue };
        let s = posed.at(k, t);
        let d = x0 + *ui - s;
        let length = d.length();
        if length > r {
            *ui = s + d * (r / length) - x0;
        }
    }
}

/// Puts every back-stopped node of `posed` back out of its back-stop sphere at fraction `t` of
/// the step (module doc); the nodes are at `base + u`.
pub(crate) fn back_stop(posed: &Posed, base: &[Vec3A], u: &mut [Vec3A], t: f32) {
    for (k, (&i, &r)) in posed.backed.iter().zip(&posed.backstop_radius).enumerate() {
        let i = i as usize;
        let (Some(&x0), Some(ui)) = (base.get(i), u.get_mut(i)) else { continue };
        let c = posed.backstop_start[k].lerp(posed.backstop_target[k], t);
        let d = x0 + *ui - c;
        let length = d.length();
        if length < r && length > 0.0 {
            *ui = c + d * (r / length) - x0;
        }
    }
}

/// [`back_stop`] for the explicit integrators, on positions `x`: a node put back also loses
/// the part of its velocity `v` that leads further in.
pub(crate) fn back_stop_state(posed: &Posed, x: &mut [Vec3A], v: &mut [Vec3A], t: f32) {
    for (k, (&i, &r)) in posed.backed.iter().zip(&posed.backstop_radius).enumerate() {
        let i = i as usize;
        let (Some(xi), Some(vi)) = (x.get_mut(i), v.get_mut(i)) else { continue };
        let c = posed.backstop_start[k].lerp(posed.backstop_target[k], t);
        let e = *xi - c;
        let length = e.length();
        if length < r && length > 0.0 {
            let n = e / length;
            *xi = c + n * r;
            *vi -= n * vi.dot(n).min(0.0);
        }
    }
}

/// [`leash`] for the explicit integrators, on positions `x`: a node put back also loses the
/// part of its velocity `v` that leads further out.
pub(crate) fn leash_state(posed: &Posed, x: &mut [Vec3A], v: &mut [Vec3A], t: f32) {
    for (k, (&i, &r)) in posed.leashed.iter().zip(&posed.reach).enumerate() {
        let i = i as usize;
        let (Some(xi), Some(vi)) = (x.get_mut(i), v.get_mut(i)) else { continue };
        let s = posed.at(k, t);
        let d = *xi - s;
        let length = d.length();
        if length > r {
            let n = d / length;
            *xi = s + n * r;
            *vi -= n * vi.dot(n).max(0.0);
        }
    }
}
