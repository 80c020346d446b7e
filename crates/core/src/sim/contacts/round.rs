//! Spheres and capsules as what they are to a point: an axis a–b (a sphere's centre twice)
//! and a radius R, the set of points within R of the segment. The edges
//! ([`crate::sim::contacts::edges`]) and the nodes' masks ([`crate::sim::contacts::near`]) test
//! them so, and a worn cloth's max distances ask which of them a node touches
//! ([`crate::sim::constraints::rig`]).

use crate::geometry::along_segment;
use glam::Vec3A;

/// A sphere or capsule in a sub-step, for the edges and the masks
/// ([`crate::sim::contacts::collision::Colliders::round_axes`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RoundAxis {
    /// Its axis's ends (a sphere's centre twice).
    pub a: Vec3A,
    pub b: Vec3A,
    /// Its radius plus the nodes' (m).
    pub radius: f32,
    /// How far its ends moved in the sub-step (m).
    pub moved: (Vec3A, Vec3A),
    /// Its surface's friction coefficient μ.
    pub friction: f32,
    /// The middle of its axis, and the radius of the ball round it there (m).
    pub centre: Vec3A,
    pub reach: f32,
    /// The index of the obstacle it is.
    pub obstacle: usize,
}

impl RoundAxis {
    /// The collider of axis `a`–`b` and radius (with the nodes') `radius`, whose ends moved
    /// by `moved` in the sub-step, of friction μ `friction`.
    pub fn new((a, b, radius): (Vec3A, Vec3A, f32), moved: (Vec3A, Vec3A), friction: f32) -> Self {
        let (centre, reach) = ((a + b) * 0.5, radius + 0.5 * a.distance(b));
        RoundAxis { a, b, radius, moved, friction, centre, reach, obstacle: 0 }
    }

    /// True when `x` is within `r` of its surface (within `radius` + `r` of its axis): first
    /// the ball round it, then the axis itself, which a long thin capsule's ball is far from.
    #[inline]
    pub fn within(&self, x: Vec3A, r: f32) -> bool {
        let reach = self.reach + r;
        if x.distance_squared(self.centre) >= reach * reach {
            return false;
        }
        within_segment(x, (self.a, self.b), self.radius + r)
    }
}

/// The outward unit normal of the first of `axes` whose surface `x` is within `margin` of
/// (inside it or touching it), taken from the nearest point of its axis; `None` when `x`
/// touches none, or lies on an axis, where no side is outward.
pub(crate) fn touching(axes: &[RoundAxis], x: Vec3A, margin: f32) -> Option<Vec3A> {
    let axis = axes.iter().find(|axis| axis.within(x, margin))?;
    let nearest = axis.a.lerp(axis.b, along_segment(axis.a, axis.b, x));
    (x - nearest).try_normalize()
}

/// True when `x` is within `within` of the segment `a`–`b`.
#[inline]
pub(crate) fn within_segment(x: Vec3A, (a, b): (Vec3A, Vec3A), within: f32) -> bool {
    let t = along_segment(a, b, x);
    x.distance_squared(a.lerp(b, t)) < within * within
}
