//! The environment around a model, stored with its parameters: the air it moves through, the gas
//! inside it, the ground and the obstacles it meets. The physics of each is documented where
//! it is applied: [`crate::sim::forces::air`], [`crate::sim::forces::pressure`], [`crate::sim::contacts::collision`].

use glam::{Mat4, Quat, Vec3};
use serde::{Deserialize, Serialize};

/// Density of air at sea level and 15 °C (kg/m³; International Standard Atmosphere).
pub const AIR_DENSITY: f32 = 1.225;

/// Air around the model: drag and lift on its faces from their motion relative to the wind.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Air {
    /// Air density ρ (kg/m³). Default: [`AIR_DENSITY`].
    pub density: f32,
    /// Wind velocity (m/s).
    pub wind: Vec3,
    /// Drag coefficient C_D of a face broadside to the flow. Default 1: a rigid flat plate has
    /// 1.17 (Hoerner, "Fluid-Dynamic Drag", 1965, ch. 3); cloth is porous and gives way.
    pub drag: f32,
    /// Lift coefficient C_L. Default 0.5: enough for a flag to lift and flutter; a rigid plate
    /// at a small angle of attack α has C_L ≈ 2πα, which this model's sin θ cos θ law meets
    /// only near broadside, so larger values overstate lift at grazing angles.
    pub lift: f32,
    /// Gust strength: the wind varies by up to this fraction of its speed in each direction.
    /// Default 0 (steady wind).
    pub gusts: f32,
    /// Time (s) over which a gust rises and falls. Default 1.5 s.
    pub gust_period: f32,
    /// Seed of the gust noise: the same seed gives the same gusts.
    pub seed: u64,
}

impl Default for Air {
    fn default() -> Self {
        Self {
            density: AIR_DENSITY,
            wind: Vec3::ZERO,
            drag: 1.0,
            lift: 0.5,
            gusts: 0.0,
            gust_period: 1.5,
            seed: 0,
        }
    }
}

/// Gas inside a closed model: it pushes every face outwards and keeps p·V constant.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Pressure {
    /// Gauge pressure p₀ (Pa) of the gas when the surface encloses its rest volume V₀. A toy
    /// balloon holds about 1–3 kPa. Default 1000 Pa.
    pub pressure: f32,
    /// Density of the gas (kg/m³) for buoyancy: the model is lifted by (ρ_air − ρ_gas) V g,
    /// with ρ_air from [`Air::density`] (or [`AIR_DENSITY`] without air). Helium: 0.166.
    /// `None`: no buoyancy.
    pub gas_density: Option<f32>,
}

impl Default for Pressure {
    fn default() -> Self {
        Self { pressure: 1000.0, gas_density: None }
    }
}

/// How a collider's surface answers contact.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Surface {
    /// Coulomb friction coefficient μ (≥ 0): a node at rest on a slope of angle θ stays when
    /// tan θ ≤ μ. Default 0.5 (wood on wood, cloth on most things).
    pub friction: f32,
    /// Restitution e ∈ [0, 1]: the share of the speed towards the surface that a node leaves
    /// with. Default 0 (no bounce).
    pub restitution: f32,
}

impl Default for Surface {
    fn default() -> Self {
        Self { friction: 0.5, restitution: 0.0 }
    }
}

/// The ground: the half-space below the plane y = `height`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Ground {
    /// Height of the ground plane (m).
    pub height: f32,
    /// Its friction and restitution.
    pub surface: Surface,
}

/// A static solid.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// The half-space behind a plane.
    Plane {
        /// A point of the plane (m).
        point: Vec3,
        /// The plane's normal, pointing out of the solid (need not be unit length).
        normal: Vec3,
    },
    /// A ball.
    Sphere {
        /// Centre (m).
        center: Vec3,
        /// Radius (m).
        radius: f32,
    },
    /// The points within `radius` of the segment a–b.
    Capsule {
        /// One end of the axis (m).
        a: Vec3,
        /// The other end (m).
        b: Vec3,
        /// Radius (m).
        radius: f32,
    },
    /// A box, rotated about its centre.
    Box {
        /// Centre (m).
        center: Vec3,
        /// Half its size along its own axes (m).
        half_extents: Vec3,
        /// Its orientation (need not be normalised).
        rotation: Quat,
    },
    /// A triangle, thin and two-sided: the points within a node's radius of it. A face of a
    /// rigid body's triangle mesh or convex hull ([`crate::RigidBody`]), met on the side each
    /// node came from.
    Triangle {
        /// Its corners (m).
        a: Vec3,
        /// The second corner (m).
        b: Vec3,
        /// The third corner (m).
        c: Vec3,
    },
}

/// A static collider of the model's environment.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Obstacle {
    /// Its solid.
    pub shape: Shape,
    /// Its friction and restitution.
    #[serde(default)]
    pub surface: Surface,
}

/// A parameter check: the parameter's name as in the file, whether it holds, what it must be.
pub(crate) type Check = (String, bool, &'static str);

pub(crate) const NON_NEGATIVE: &str = "a finite number ≥ 0";
pub(crate) const POSITIVE: &str = "a finite number > 0";
pub(crate) const FINITE: &str = "finite";

pub(crate) fn non_negative(x: f32) -> bool {
    x.is_finite() && x >= 0.0
}

pub(crate) fn positive(x: f32) -> bool {
    x.is_finite() && x > 0.0
}

impl Surface {
    pub(crate) fn checks(&self, at: &str, out: &mut Vec<Check>) {
        out.push((format!("{at}.friction"), non_negative(self.friction), NON_NEGATIVE));
        let e = self.restitution;
        out.push((format!("{at}.restitution"), (0.0..=1.0).contains(&e), "between 0 and 1"));
    }
}

impl Shape {
    /// The shape turned by the unit quaternion `turn` about its centre (a sphere's or box's
    /// centre, a capsule's midpoint, a plane's point) and moved so that centre is at `at`.
    pub fn posed(&self, at: Vec3, turn: Quat) -> Shape {
        match *self {
            Shape::Plane { normal, .. } => Shape::Plane { point: at, normal: turn * normal },
            Shape::Sphere { radius, .. } => Shape::Sphere { center: at, radius },
            Shape::Capsule { a, b, radius } => {
                let half = turn * ((b - a) * 0.5);
                Shape::Capsule { a: at - half, b: at + half, radius }
            }
            Shape::Box { half_extents, rotation, .. } => {
                Shape::Box { center: at, half_extents, rotation: turn * rotation }
            }
            Shape::Triangle { a, b, c } => {
                let centre = (a + b + c) / 3.0;
                let corner = |p: Vec3| at + turn * (p - centre);
                Shape::Triangle { a: corner(a), b: corner(b), c: corner(c) }
            }
        }
    }

    /// The shape moved by the rigid transform `m` (its scale, if any, is not applied to radii
    /// and sizes): how a collider riding on a joint follows the joint.
    pub fn transformed(&self, m: Mat4) -> Shape {
        let (_, turn, _) = m.to_scale_rotation_translation();
        let at = |p: Vec3| m.transform_point3(p);
        match *self {
            Shape::Plane { point, normal } => {
                Shape::Plane { point: at(point), normal: turn * normal }
            }
            Shape::Sphere { center, radius } => Shape::Sphere { center: at(center), radius },
            Shape::Capsule { a, b, radius } => Shape::Capsule { a: at(a), b: at(b), radius },
            Shape::Box { center, half_extents, rotation } => {
                Shape::Box { center: at(center), half_extents, rotation: turn * rotation }
            }
            Shape::Triangle { a, b, c } => Shape::Triangle { a: at(a), b: at(b), c: at(c) },
        }
    }

    /// What the shape is called: "plane", "sphere", "capsule", "box" or "triangle".
    pub fn kind(&self) -> &'static str {
        match self {
            Shape::Plane { .. } => "plane",
            Shape::Sphere { .. } => "sphere",
            Shape::Capsule { .. } => "capsule",
            Shape::Box { .. } => "box",
            Shape::Triangle { .. } => "triangle",
        }
    }

    /// The first thing wrong with the shape, its fields named from `at`; `None` if it is valid.
    pub(crate) fn problem(&self, at: &str) -> Option<String> {
        let mut checks = Vec::new();
        self.checks(at, &mut checks);
        let (field, _, must) = checks.into_iter().find(|(_, ok, _)| !ok)?;
        Some(format!("{field} must be {must}"))
    }

    fn checks(&self, at: &str, out: &mut Vec<Check>) {
        match *self {
            Shape::Plane { point, normal } => {
                out.push((format!("{at}.point"), point.is_finite(), FINITE));
                let ok = normal.is_finite() && normal != Vec3::ZERO;
                out.push((format!("{at}.normal"), ok, "finite and not zero"));
            }
            Shape::Sphere { center, radius } => {
                out.push((format!("{at}.center"), center.is_finite(), FINITE));
                out.push((format!("{at}.radius"), positive(radius), POSITIVE));
            }
            Shape::Capsule { a, b, radius } => {
                out.push((format!("{at}.a"), a.is_finite(), FINITE));
                out.push((format!("{at}.b"), b.is_finite(), FINITE));
                out.push((format!("{at}.radius"), positive(radius), POSITIVE));
            }
            Shape::Box { center, half_extents, rotation } => {
                out.push((format!("{at}.center"), center.is_finite(), FINITE));
                let ok = half_extents.is_finite() && half_extents.min_element() > 0.0;
                out.push((format!("{at}.half_extents"), ok, "finite and > 0"));
                let ok = rotation.is_finite() && glam::Vec4::from(rotation) != glam::Vec4::ZERO;
                out.push((format!("{at}.rotation"), ok, "finite and not zero"));
            }
            Shape::Triangle { a, b, c } => {
                for (name, p) in [("a", a), ("b", b), ("c", c)] {
                    out.push((format!("{at}.{name}"), p.is_finite(), FINITE));
                }
                let ok = (b - a).cross(c - a).length_squared() > 0.0;
                out.push((format!("{at}.c"), ok, "off the line through a and b"));
            }
        }
    }
}

/// The checks of collider `i`.
pub(crate) fn obstacle_checks(c: &Obstacle, i: usize, out: &mut Vec<Check>) {
    c.shape.checks(&format!("colliders[{i}]"), out);
    c.surface.checks(&format!("colliders[{i}].surface"), out);
}

impl std::fmt::Display for Air {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let w = self.wind;
        write!(f, "wind ({}, {}, {}) m/s", w.x, w.y, w.z)?;
        if self.gusts > 0.0 {
            write!(
                f,
                " gusting {}% over {} s (seed {})",
                self.gusts * 100.0,
                self.gust_period,
                self.seed
            )?;
        }
        write!(f, ", density {} kg/m³, drag {}, lift {}", self.density, self.drag, self.lift)
    }
}

impl std::fmt::Display for Pressure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} Pa over the outside air", self.pressure)?;
        match self.gas_density {
            Some(rho) => write!(f, ", gas {rho} kg/m³ (buoyant)"),
            None => Ok(()),
        }
    }
}

impl std::fmt::Display for Surface {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "friction {}, restitution {}", self.friction, self.restitution)
    }
}

impl std::fmt::Display for Ground {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "y = {} m, {}", self.height, self.surface)
    }
}

impl std::fmt::Display for Obstacle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = |v: Vec3| format!("({}, {}, {})", v.x, v.y, v.z);
        match self.shape {
            Shape::Plane { point, normal } => {
                write!(f, "plane through {} facing {}", v(point), v(normal))
            }
            Shape::Sphere { center, radius } => {
                write!(f, "sphere at {} of radius {radius} m", v(center))
            }
            Shape::Capsule { a, b, radius } => {
                write!(f, "capsule from {} to {} of radius {radius} m", v(a), v(b))
            }
            Shape::Box { center, half_extents, .. } => {
                write!(f, "box at {} of half size {}", v(center), v(half_extents))
            }
            Shape::Triangle { a, b, c } => write!(f, "triangle {}, {}, {}", v(a), v(b), v(c)),
        }?;
        write!(f, ", {}", self.surface)
    }
}
