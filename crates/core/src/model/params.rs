//! Simulation parameters stored with a model: what the editor's test run and a game start from.

use super::environment::{
    Air, Check, FINITE, Ground, NON_NEGATIVE, Obstacle, POSITIVE, Pressure, non_negative,
    obstacle_checks, positive,
};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Which time integrator steps the model. See the modules of [`crate::sim`] for the mathematics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Integrator {
    /// Semi-implicit (symplectic) Euler on forces: the reference, unstable for stiff springs.
    Explicit,
    /// Semi-implicit Euler with energy-checked sub-steps that halve while energy grows.
    Adaptive,
    /// Extended position-based dynamics with many small sub-steps: stable for stiff springs.
    #[default]
    Xpbd,
}

impl Integrator {
    /// Every integrator, in tag order.
    pub const ALL: [Integrator; 3] = [Integrator::Explicit, Integrator::Adaptive, Integrator::Xpbd];

    /// The lowercase name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Integrator::Explicit => "explicit",
            Integrator::Adaptive => "adaptive",
            Integrator::Xpbd => "xpbd",
        }
    }
}

/// Standard gravity, m/s², pointing down the y axis (the up axis of glTF and of Blender's and
/// Maya's exporters).
pub const STANDARD_GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);

/// Default global damping rate (1/s): velocities lose 1 − e^(−0.5·1 s) ≈ 39% per second to it.
/// Enough for a sample to come to rest within about ten seconds, small enough that a swing of
/// a second or two still looks free. See [`crate::sim::forces::damping`].
pub const DEFAULT_DAMPING: f32 = 0.5;

/// Default frame step (s): a game's 60 Hz frame.
pub const DEFAULT_DT: f32 = 1.0 / 60.0;

/// Default number of sub-steps per frame step.
///
/// Xpbd with one constraint iteration per sub-step converges as the sub-step shrinks (Macklin et
/// al. 2019), with the remaining stretch falling about as h². The hardest common case is a
/// cloth hanging from two corners: at 60 Hz, a 64 × 64 cloth of 1 g nodes and 1e5 N/m springs
/// ends (after 10 s) with its worst structural spring stretched, without tethers, 20% at 12
/// sub-steps, 12% at 16, 5.8% at 24 and 3.3% at 32 (the physical stretch is about 0.1%). The
/// tethers ([`Tethers`], which the converter turns on for sheets) hold what the spring pass
/// lets a chain of springs gain along it: with them 2.0% at 5 sub-steps, 1.2% at 8, 0.7% at
/// 16 (the 128 × 128 cloth: 3.8% at 5). Cloth alone would take 5; the default stays at 16 for
/// what tethers do not hold: a model without anchors or tethers has none, and the explicit integrators need the short
/// sub-step to stay stable on stiff springs (a 1 g plate of 1000 N/m springs diverges under
/// Explicit at 12). A game's cloth can lower it to 5 ([`SimParams::substeps`]).
pub const DEFAULT_SUBSTEPS: u32 = 16;

/// Upper bound on [`SimParams::substeps`], so that a corrupt value cannot stall a step.
pub const MAX_SUBSTEPS: u32 = 10_000;

/// Default collision radius of a node (m): 5 mm keeps a cloth of a few centimetres between
/// nodes visibly off a surface it lies on without lifting it noticeably.
pub const DEFAULT_NODE_RADIUS: f32 = 0.005;

/// Default tether slack: none. A tether lets its node go this fraction past its rest geodesic
/// distance from the anchor before it pulls. The fraction is of the whole distance, so any
/// slack is many springs' worth far from an anchor: at 1% a node 6 m from its anchor may drift
/// 6 cm, more than a spacing of the 128 × 128 benchmark cloth, whose springs then stretched
/// 7.5% at five sub-steps (3.1% without slack). Kim et al. (2012) use none either; the springs
/// still stretch, only never past the rest geodesic distance.
pub const DEFAULT_TETHER_SLACK: f32 = 0.001;

/// Long-range attachments ("tethers", Kim, Chentanez & Müller 2012): each free node joined to
/// an anchor through springs may be at most its rest geodesic distance from its nearest
/// anchors, times `1 + slack` (the module `sim::constraints::tethers` derives it). They make
/// an anchored model inextensible beyond the slack.
///
/// **Off by default** ([`SimParams::tethers`] is `None`): a tether is a limit the springs do
/// not have, so with them on a soft model no longer moves as its springs say. A rope of ten
/// 0.1 kg nodes on 200 N/m springs 0.1 m long hangs 1.1207 m under its anchor by its springs'
/// own static solution; with tethers at 0.1% slack it hung at 0.90 m, inextensible, and a
/// mass released 0.1 m out on a spring did not swing at all. Tethers are for what must not
/// stretch and whose springs cannot hold it at a game's few sub-steps: stiff sheets. The
/// converter turns them on for every sheet it makes (a surface that is not filled as a solid;
/// a converted cloth's stretch springs are meant to be all but inextensible), and the cloth
/// and flag samples have them; everything else (ropes, solids, balloons, hand-made models)
/// stretches as its springs say unless the model turns them on.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Tethers {
    /// How far past the rest geodesic distance a node may go, as a fraction of it.
    pub slack: f32,
}

impl Default for Tethers {
    fn default() -> Self {
        Self { slack: DEFAULT_TETHER_SLACK }
    }
}

/// Shape matching (Müller, Heidelberger, Teschner & Gross, "Meshless Deformations Based on
/// Shape Matching", SIGGRAPH 2005): every free node is pulled towards where the best rigid
/// motion of the rest shape puts it, by a spring of stiffness m ω² to that place (m the node's
/// mass, ω = 2π `frequency`). The pull reaches every node at once, so it holds a stiff body's
/// shape in one pass where springs need many iterations to carry a load across it, and at
/// any scale (see the module `sim::forces::shape`). Off by default; the converter turns it on
/// for solids.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShapeMatching {
    /// f (Hz): how fast a node swings back to its place on the pull alone. A node pressed by
    /// a force F sits F / (m ω²) off its goal; a body held up by the pull alone on a ground
    /// that carries it through a fraction φ of its mass sinks onto it by about g / (φ ω²).
    pub frequency: f32,
}

/// Default friction between layers of a model that collides with itself: cloth on cloth
/// (cotton on cotton's static coefficient is about 0.5 to 0.6; a folded pile that slid apart
/// at 0.2 looked like silk).
pub const DEFAULT_SELF_FRICTION: f32 = 0.5;

/// Self-collision: every node is kept `thickness` from every other node it was not already
/// that close to at rest, so that layers of a folded sheet or of a solid's surface cannot pass
/// through each other (the module `sim::contacts::self_collision` derives it). Off by
/// default; `springmesh convert --self-collision` turns it on with a thickness from the mesh's
/// edges. Solved by the Xpbd integrator (the default); the explicit integrators do not solve
/// it yet.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelfCollision {
    /// How far apart two nodes of different layers stay (m): more than the body's largest
    /// extent is refused.
    pub thickness: f32,
    /// Coulomb friction μ between layers (≥ 0).
    #[serde(default = "default_self_friction")]
    pub friction: f32,
}

fn default_self_friction() -> f32 {
    DEFAULT_SELF_FRICTION
}

/// Simulation parameters of a model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SimParams {
    /// Gravity acceleration (m/s²).
    pub gravity: Vec3,
    /// Global velocity damping rate c (1/s): v ← v·e^(−c·h) every sub-step h, so its effect
    /// does not depend on the step size.
    pub damping: f32,
    /// Integrator used by [`crate::Simulation::step`].
    pub integrator: Integrator,
    /// Frame step (s) that a game or the editor advances per frame.
    pub dt: f32,
    /// Sub-steps per `dt`: the solvers cut any step into sub-steps no longer than
    /// `dt / substeps` (Adaptive starts there and halves further when energy grows), so a
    /// caller stepping at another rate gets the same physics.
    pub substeps: u32,
    /// Collision radius of every node (m): a node's centre stays this far outside the ground
    /// and the colliders.
    pub node_radius: f32,
    /// Air around the model (drag, lift, wind); `None`: a vacuum.
    pub air: Option<Air>,
    /// Gas inside the model's closed surface; `None`: no pressure.
    pub pressure: Option<Pressure>,
    /// The ground plane; `None`: no ground.
    pub ground: Option<Ground>,
    /// Static colliders.
    #[serde(deserialize_with = "crate::bounded::vec")]
    pub colliders: Vec<Obstacle>,
    /// Tethers from the anchors; `None`: off, the default (format version 2; a version 1
    /// file loads with them off).
    pub tethers: Option<Tethers>,
    /// Shape matching; `None`: off (format version 5; older files load without it).
    pub shape_matching: Option<ShapeMatching>,
    /// Self-collision; `None`: off (format version 6; older files load without it).
    pub self_collision: Option<SelfCollision>,
}

impl Default for SimParams {
    fn default() -> Self {
        Self {
            gravity: STANDARD_GRAVITY,
            damping: DEFAULT_DAMPING,
            integrator: Integrator::default(),
            dt: DEFAULT_DT,
            substeps: DEFAULT_SUBSTEPS,
            node_radius: DEFAULT_NODE_RADIUS,
            air: None,
            pressure: None,
            ground: None,
            colliders: Vec::new(),
            tethers: None,
            shape_matching: None,
            self_collision: None,
        }
    }
}

/// The checks of the environment's parameters: node radius, air, pressure, ground, colliders,
/// tethers, shape matching, self-collision.
pub(crate) fn environment_checks(p: &SimParams, out: &mut Vec<Check>) {
    out.push(("node_radius".into(), non_negative(p.node_radius), NON_NEGATIVE));
    if let Some(a) = &p.air {
        out.push(("air.density".into(), non_negative(a.density), NON_NEGATIVE));
        out.push(("air.wind".into(), a.wind.is_finite(), FINITE));
        out.push(("air.drag".into(), non_negative(a.drag), NON_NEGATIVE));
        out.push(("air.lift".into(), non_negative(a.lift), NON_NEGATIVE));
        out.push(("air.gusts".into(), non_negative(a.gusts), NON_NEGATIVE));
        let period = positive(a.gust_period) && a.gust_period >= p.dt;
        out.push(("air.gust_period".into(), period, "a number ≥ the frame step dt (s)"));
    }
    if let Some(gas) = &p.pressure {
        out.push(("pressure.pressure".into(), non_negative(gas.pressure), NON_NEGATIVE));
        let ok = gas.gas_density.is_none_or(non_negative);
        out.push(("pressure.gas_density".into(), ok, NON_NEGATIVE));
    }
    if let Some(g) = &p.ground {
        out.push(("ground.height".into(), g.height.is_finite(), FINITE));
        g.surface.checks("ground.surface", out);
    }
    for (i, c) in p.colliders.iter().enumerate() {
        obstacle_checks(c, i, out);
    }
    if let Some(t) = &p.tethers {
        let ok = non_negative(t.slack) && t.slack <= 1.0;
        out.push(("tethers.slack".into(), ok, "between 0 and 1"));
    }
    if let Some(shape) = &p.shape_matching {
        out.push(("shape_matching.frequency".into(), positive(shape.frequency), POSITIVE));
    }
    if let Some(layers) = &p.self_collision {
        out.push(("self_collision.thickness".into(), positive(layers.thickness), POSITIVE));
        out.push(("self_collision.friction".into(), non_negative(layers.friction), NON_NEGATIVE));
    }
}
