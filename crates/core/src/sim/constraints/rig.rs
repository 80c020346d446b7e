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
//! - **Max distance r_i > 0** (Jolt's `mMaxDistance`, NvCloth's goals constraints): after the
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
//!
//! ## Limbs first
//!
//! A limb and a max distance can disagree: a kicking thigh lifts a skirt's front rows further
//! from their skinned positions (on the hips) than their max distances allow. Pulled back
//! onto its sphere, such a node goes into the thigh, is pushed out again by the collisions at
//! the sub-step's end, and its edges, wrapped round the thigh between the two, tear (a
//! Blender-made dancer's skirt stretched 298% in a high kick, and stayed caught on the thigh
//! after it). So one order decides, as in NvCloth, which solves its collisions after its
//! motion constraints: **the limb, then the stretch, then the max distance.** A node that
//! touched one of the body's spheres or capsules as the sub-step began (within
//! [`LIMB_CONTACT`] of its surface, n its outward normal there) loses the part of its pull
//! that points into the limb,
//!
//! ```text
//! Δ = s_i(t) + d r_i/|d| − x_i,   Δ ← Δ − n min(Δ·n, 0)
//! ```
//!
//! and slides along the limb towards its sphere instead; the strain limit that follows
//! ([`crate::sim::constraints::strain`]) may draw its neighbours past their own max distances
//! too, by at most what keeps their edges within it. When the limb leaves, the node goes back
//! within its sphere. The dancer's high kick then stretched its skirt 42% at worst, for a few
//! frames, instead of 298% for the rest of the clip. At the sub-step's end the strain limit,
//! self-collision, these max distances and the limit again have the last word
//! ([`crate::sim::constraints::strain`]). With the skirt's hem painted 0.3 m, which the kick
//! lifts its front rows past by some 0.15 m, the limb and the stretch cannot both hold: the
//! springs stay within 8.4%, the rows within 3.1 cm past their max distances, and the stretch
//! wins, the rows going into the limb, up to 5 cm there, until the next sub-step's collisions.
//! Painted 0.5 m, as the figure now is, the rows the thigh holds go 1 cm past their max
//! distances, slide along it, and stay within 5 mm of the body's skin and 7.5% of their
//! springs (`crates/convert/tests/worn_figure.rs`).
//! Only the Xpbd solver orders it so; the explicit integrators project the max distances as
//! they are.

use crate::sim::contacts::round::{self, RoundAxis};
use crate::sim::data::{Goals, Posed};
use glam::Vec3A;

/// How near a limb's surface a node must have been as the sub-step began to be touching it
/// (m): a centimetre, about what a limb swinging at 10 m/s covers in a millisecond sub-step,
/// and well over the millimetres a resting node sits off it (module doc, "Limbs first").
pub const LIMB_CONTACT: f32 = 0.01;

/// Which side of a sphere a node must be on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    /// Within it: a max distance around the skinned position.
    Within,
    /// Outside it: a back-stop.
    Outside,
}

/// Where `x` must go to be on `side` of the sphere of centre `c` and radius `r`, with the unit
/// direction from `c` to there; `None` when it already is (the one projection of the module
/// doc, for both kinds of sphere).
fn onto_sphere(x: Vec3A, c: Vec3A, r: f32, side: Side) -> Option<(Vec3A, Vec3A)> {
    let d = x - c;
    let length = d.length();
    let wrong = match side {
        Side::Within => length > r,
        Side::Outside => length < r && length > 0.0,
    };
    wrong.then(|| {
        let n = d / length;
        (c + n * r, n)
    })
}

/// Every sphere of `posed` moving as `goals` says, at fraction `t` of the step: its node,
/// centre, radius and side; the max distances first, then the back-stops.
fn spheres<'a>(
    (posed, goals): (&'a Posed, &'a Goals),
    t: f32,
) -> impl Iterator<Item = (usize, Vec3A, f32, Side)> + 'a {
    let leashes = posed.leashed.iter().zip(&posed.reach).enumerate();
    let leashes = leashes.map(move |(k, (&i, &r))| {
        let c = goals.leashes.at(k, t);
        (i as usize, c, r, Side::Within)
    });
    let stops = posed.backed.iter().zip(&posed.backstop_radius).enumerate();
    let stops = stops.map(move |(k, (&i, &r))| {
        let c = goals.backstops.at(k, t);
        (i as usize, c, r, Side::Outside)
    });
    leashes.chain(stops)
}

/// Puts every node of `posed` back within its max distance of its skinned position and out
/// of its back-stop at fraction `t` of the step; the nodes are at `base + u` (the Xpbd
/// solver's displacements), and were at `base + u_prev` as the sub-step began. A node that
/// touched one of the body's `limbs` then is not pulled into it (module doc, "Limbs first").
pub(crate) fn project(
    held: (&Posed, &Goals),
    (base, u_prev, u): (&[Vec3A], &[Vec3A], &mut [Vec3A]),
    limbs: &[RoundAxis],
    t: f32,
) {
    for (i, c, r, side) in spheres(held, t) {
        let (Some(&x0), Some(ui)) = (base.get(i), u.get_mut(i)) else { continue };
        let Some((x, _)) = onto_sphere(x0 + *ui, c, r, side) else { continue };
        let mut d = x - (x0 + *ui);
        let from = u_prev.get(i).map(|&u| x0 + u);
        let limb = from
            .filter(|_| side == Side::Within)
            .and_then(|from| round::touching(limbs, from, LIMB_CONTACT));
        if let Some(n) = limb {
            d -= n * d.dot(n).min(0.0);
        }
        *ui += d;
    }
}

/// [`project`] for the explicit integrators, on positions `x`: a node put back also loses the
/// part of its velocity `v` that leads further to the wrong side.
pub(crate) fn project_state(held: (&Posed, &Goals), x: &mut [Vec3A], v: &mut [Vec3A], t: f32) {
    for (i, c, r, side) in spheres(held, t) {
        let (Some(xi), Some(vi)) = (x.get_mut(i), v.get_mut(i)) else { continue };
        if let Some((at, n)) = onto_sphere(*xi, c, r, side) {
            *xi = at;
            let vn = vi.dot(n);
            if (vn > 0.0) == (side == Side::Within) {
                *vi -= n * vn;
            }
        }
    }
}
