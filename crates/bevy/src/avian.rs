//! # Avian's rigid bodies, met by the soft bodies (the `avian` feature)
//!
//! With avian 0.7's `PhysicsPlugins` beside [`SpringmeshPlugin`](crate::SpringmeshPlugin), and
//! nothing else, the soft bodies and avian's bodies push each other:
//!
//! - **One clock.** The soft bodies step in avian's [`PhysicsSchedule`], at the start of each
//!   physics step (in [`SpringmeshSystems`], after [`PhysicsStepSystems::First`] and before
//!   the broad phase), by avian's time: a physics step of Δt is
//!   taken whole, as ⌈Δt / dt⌉ equal steps of each model (dt its own). Their messages and
//!   meshes stay in `PostUpdate`, for all the physics steps of the frame (none, one or more).
//! - **Every collider is met.** Before the soft bodies step, every avian [`Collider`] that is
//!   not a [`Sensor`] nor disabled becomes a core [`RigidBody`] for each soft body whose
//!   [`CollisionLayers`] interact with its own (a soft body without the component is on
//!   avian's default layers, as a collider is): the shape where the collider is, and the
//!   velocity, mass, inertia and centre of mass of the rigid body it is attached to; a static
//!   body, a kinematic one and a collider on no body have infinite mass (nothing pushes
//!   them; a kinematic one still pushes and drags at its velocity). Friction and restitution
//!   are avian's: the collider's [`Friction`] and [`Restitution`], else its body's, else
//!   avian's defaults.
//! - **Both ways.** The soft bodies step, meeting the bodies with the effective mass at each
//!   contact (the core's `sim::contacts::rigid_bodies` module gives the equations and the
//!   source), and each dynamic body then gets the impulses it took, through avian's own
//!   [`Forces`], and is moved (its [`Position`] and [`Rotation`]) by how far the contacts moved
//!   it beyond where avian will ([`RigidImpulse::pushed`]), before avian's solver moves it,
//!   adds gravity and meets the other rigid bodies.
//!   A soft body and a rigid body thus share each step: the soft side moves a dynamic body on
//!   over the step as avian's solver then does, gaining its gravity ([`Gravity`] times its
//!   [`GravityScale`]) sub-step by sub-step, and the move by `pushed` puts it where the
//!   contacts left it: a 1 kg box resting on a jelly then moves at most 0.013 m/s (with the
//!   impulses alone, all coming at the step's start, it shook at 0.125 m/s). Other forces the
//!   game applies are not foreseen.
//!
//! Shapes: a ball, a capsule, a cuboid, a half-space (for a static or kinematic body) and
//! compounds of them are met as they are; a triangle mesh, a height field and a convex hull
//! as their triangles (thin and two-sided, met on the side each node came from: a level's
//! floors and ramps, a prop's hull), up to [`MAX_COLLIDER_TRIANGLES`] a collider; a rounded
//! cuboid as its grown box; any other convex shape (a cylinder, a cone) as its box in its own
//! frame, and a polyline not at all, each with a warning once per collider. The shapes of one
//! dynamic body (a compound's, a hull's faces, every collider on it) are given to the core as
//! the parts of one body ([`RigidBody::part_of`]), which move as one: two faces under a box
//! hold its weight once. Each soft body is given only
//! the triangles that may reach it within the step: those whose box comes within what its
//! fastest node and the triangle's body can travel in the step (at their speeds, the body's
//! turn included), plus 0.1 m, of the box around its nodes; a level of many triangles then
//! costs each soft body only those near it.
//!
//! Each soft body meets the bodies as they were when the physics step began: two soft bodies
//! under one box each push it as if the other were not there, and their impulses add up (the
//! sum is right when they touch it in turn; at once, the box may be stopped up to twice as
//! hard). A soft body whose model does not use the Xpbd integrator meets no rigid body, with
//! a warning.

use crate::SoftBodyState;
use crate::SpringmeshSystems;
use crate::convert::{quat_to_core, to_bevy, to_core};
use crate::world::{Clock, SoftWorld, begin_frame, step_bodies};
use avian3d::parry::shape::{SharedShape, TypedShape};
use avian3d::prelude::{
    AngularVelocity, Collider, ColliderDisabled, ColliderOf, CollisionLayers,
    ComputedAngularInertia, ComputedCenterOfMass, ComputedMass, DefaultFriction,
    DefaultRestitution, Forces, Friction, Gravity, GravityScale, LinearVelocity, Physics,
    PhysicsSchedule, PhysicsStepSystems, Position, Restitution, RigidBody as AvianBody,
    RigidBodyDisabled, Rotation, Sensor, WriteRigidBodyForces,
};
use bevy::app::{App, First};
use bevy::ecs::entity::Entity;
use bevy::ecs::query::{Has, Without};
use bevy::ecs::resource::Resource;
use bevy::ecs::schedule::IntoScheduleConfigs;
use bevy::ecs::system::{ParamSet, Query, Res, ResMut};
use bevy::log::warn;
use bevy::math::{Mat3, Quat, Vec3};
use bevy::platform::collections::{HashMap, HashSet};
use bevy::time::Time;
use springmesh_core::model::{Shape, Surface};
use springmesh_core::{RigidBody, RigidImpulse, glam};

/// Steps the soft bodies in avian's schedule when avian's plugins are in the app (called when
/// the app's plugins are all built); otherwise the bodies keep stepping by the frame.
pub(crate) fn join(app: &mut App) {
    if !app.world().contains_resource::<Time<Physics>>() {
        return;
    }
    app.world_mut().resource_mut::<SoftWorld>().clock = Clock::Physics;
    app.init_resource::<Met>()
        .configure_sets(
            PhysicsSchedule,
            SpringmeshSystems
                .after(PhysicsStepSystems::First)
                .before(PhysicsStepSystems::BroadPhase),
        )
        .add_systems(PhysicsSchedule, (meet, step_bodies, push).chain().in_set(SpringmeshSystems))
        .add_systems(First, begin_frame);
}

/// This physics step's rigid bodies as the soft bodies meet them: per collider, the core's
/// body, the avian body it belongs to (to push) and its layers.
#[derive(Resource, Default)]
struct Met {
    bodies: Vec<RigidBody>,
    owners: Vec<Option<Entity>>,
    layers: Vec<CollisionLayers>,
    /// Per collider shape, the first shape of the same dynamic body, if another: they move
    /// as one ([`RigidBody::part_of`]).
    part_of: Vec<Option<usize>>,
    /// What each dynamic body took, summed over the soft bodies.
    sums: HashMap<Entity, RigidImpulse>,
    /// Colliders and soft bodies already warned about.
    warned: HashSet<Entity>,
}

/// A collider as [`meet`] reads it.
type ColliderItem<'a> = (
    Entity,
    &'a Collider,
    &'a Position,
    &'a Rotation,
    Option<&'a ColliderOf>,
    Option<&'a CollisionLayers>,
    (Option<&'a Friction>, Option<&'a Restitution>),
);

/// A rigid body's motion and mass as [`meet`] reads them.
type BodyItem<'a> = (
    &'a AvianBody,
    (&'a Position, &'a Rotation, &'a LinearVelocity, &'a AngularVelocity),
    (&'a ComputedMass, &'a ComputedAngularInertia, &'a ComputedCenterOfMass),
    (Option<&'a Friction>, Option<&'a Restitution>),
    (Has<RigidBodyDisabled>, Option<&'a GravityScale>),
);

/// The physics step's bodies, given to every soft body that meets them.
#[allow(clippy::type_complexity)] // A system: each argument is a query or resource it reads.
fn meet(
    mut met: ResMut<Met>,
    colliders: Query<ColliderItem, (Without<Sensor>, Without<ColliderDisabled>)>,
    bodies: Query<BodyItem>,
    mut soft: Query<(Entity, &mut SoftBodyState, Option<&CollisionLayers>)>,
    defaults: (Option<Res<DefaultFriction>>, Option<Res<DefaultRestitution>>),
    (gravity, time): (Option<Res<Gravity>>, Res<Time>),
) {
    let met = &mut *met;
    met.bodies.clear();
    met.owners.clear();
    met.layers.clear();
    met.part_of.clear();
    let mut first_of: HashMap<Entity, usize> = HashMap::default();
    let friction = defaults.0.map_or(Friction::default(), |d| d.0);
    let restitution = defaults.1.map_or(Restitution::default(), |d| d.0);
    let gravity = gravity.map_or(Vec3::ZERO, |g| g.0);
    for (entity, collider, position, rotation, of, layers, (f, e)) in &colliders {
        let body = of.and_then(|of| Some((of.body, bodies.get(of.body).ok()?)));
        if body.is_some_and(|(_, b)| b.4.0) {
            continue;
        }
        let owner = body.filter(|(_, b)| *b.0 == AvianBody::Dynamic).map(|(e, _)| e);
        let f = f.or(body.and_then(|(_, b)| b.3.0)).copied().unwrap_or(friction);
        let e = e.or(body.and_then(|(_, b)| b.3.1)).copied().unwrap_or(restitution);
        let surface = Surface {
            friction: f.dynamic_coefficient.max(0.0),
            restitution: e.coefficient.clamp(0.0, 1.0),
        };
        let motion = body.map_or(Motion::fixed(position.0), |(_, b)| {
            let scale = b.4.1.map_or(1.0, |s| s.0);
            Motion::of(b.0, b.1, b.2, gravity * scale)
        });
        let mut shapes = Vec::new();
        let pose = (position.0, rotation.0);
        if !shapes_of(collider.shape_scaled(), pose, &mut shapes) && met.warned.insert(entity) {
            warn!(
                "collider {entity}: soft bodies meet a polyline not at all, a triangle mesh or \
                 height field of more than {MAX_COLLIDER_TRIANGLES} triangles not at all, and a \
                 cylinder or a cone as its box"
            );
        }
        for shape in shapes {
            if matches!(shape, Shape::Plane { .. }) && motion.inverse_mass > 0.0 {
                continue;
            }
            let index = met.bodies.len();
            let part_of = owner.map(|o| *first_of.entry(o).or_insert(index));
            met.part_of.push(part_of.filter(|&first| first != index));
            met.bodies.push(motion.body(shape, surface));
            met.owners.push(owner);
            met.layers.push(layers.copied().unwrap_or_default());
        }
    }
    let dt = time.delta_secs();
    for (entity, mut state, layers) in &mut soft {
        let layers = layers.copied().unwrap_or_default();
        let state = &mut *state;
        state.rigid.of.clear();
        let bounds = node_bounds(&state.sim, dt);
        let meets = |&i: &usize| {
            layers.interacts_with(met.layers[i]) && may_reach(&met.bodies[i], bounds, dt)
        };
        state.rigid.of.extend((0..met.bodies.len()).filter(meets));
        // A part's first part may not be given to this soft body: its first part given is.
        let mut given_first: HashMap<usize, usize> = HashMap::default();
        let given: Vec<RigidBody> = (state.rigid.of.iter().enumerate())
            .map(|(k, &i)| {
                let first = met.part_of[i].unwrap_or(i);
                let local = *given_first.entry(first).or_insert(k);
                RigidBody { part_of: (local != k).then_some(local), ..met.bodies[i] }
            })
            .collect();
        if let Err(e) = state.sim.set_rigid_bodies(&given) {
            if met.warned.insert(entity) {
                warn!("soft body {entity} meets no rigid body: {e}");
            }
            state.rigid.of.clear();
        }
        state.rigid.taken.clear();
        state.rigid.taken.resize(state.rigid.of.len(), RigidImpulse::default());
    }
}

/// Where a body is, and its centre of mass in its frame.
type Pose<'a> = (&'a mut Position, &'a mut Rotation, &'a ComputedCenterOfMass);

/// Each dynamic body gets the impulses the soft bodies gave it this physics step, and is
/// moved and turned (about its centre of mass) to where their contacts left it.
fn push(
    mut met: ResMut<Met>,
    soft: Query<&SoftBodyState>,
    mut bodies: ParamSet<(Query<Forces>, Query<Pose>)>,
) {
    let met = &mut *met;
    met.sums.clear();
    for state in &soft {
        for (&i, taken) in state.rigid.of.iter().zip(&state.rigid.taken) {
            let Some(owner) = met.owners[i] else { continue };
            *met.sums.entry(owner).or_default() += *taken;
        }
    }
    for (&owner, sum) in &met.sums {
        if let Ok(mut body) = bodies.p0().get_mut(owner) {
            body.apply_linear_impulse(to_bevy(sum.linear));
            body.apply_angular_impulse(to_bevy(sum.angular));
        }
        if let Ok((mut position, mut rotation, com)) = bodies.p1().get_mut(owner) {
            let centre = position.0 + rotation.0 * com.0;
            let turn = Quat::from_scaled_axis(to_bevy(sum.turned));
            rotation.0 = (turn * rotation.0).normalize();
            position.0 = centre + to_bevy(sum.pushed) - rotation.0 * com.0;
        }
    }
}

/// How a collider's body moves and what it weighs, in world space.
#[derive(Clone, Copy, Debug)]
struct Motion {
    center: Vec3,
    velocity: Vec3,
    spin: Vec3,
    acceleration: Vec3,
    inverse_mass: f32,
    inverse_inertia: Mat3,
}

impl Motion {
    /// A body that does not move (a collider on none).
    fn fixed(center: Vec3) -> Motion {
        let (velocity, spin, acceleration) = (Vec3::ZERO, Vec3::ZERO, Vec3::ZERO);
        let (inverse_mass, inverse_inertia) = (0.0, Mat3::ZERO);
        Motion { center, velocity, spin, acceleration, inverse_mass, inverse_inertia }
    }

    fn of(
        kind: &AvianBody,
        (p, r, v, w): (&Position, &Rotation, &LinearVelocity, &AngularVelocity),
        (mass, inertia, com): (&ComputedMass, &ComputedAngularInertia, &ComputedCenterOfMass),
        acceleration: Vec3,
    ) -> Motion {
        let center = p.0 + r.0 * com.0;
        match kind {
            AvianBody::Static => Motion::fixed(center),
            AvianBody::Kinematic => Motion { velocity: v.0, spin: w.0, ..Motion::fixed(center) },
            AvianBody::Dynamic => {
                let turn = Mat3::from_quat(r.0);
                let inverse_inertia = turn * inertia.inverse() * turn.transpose();
                let (velocity, spin, inverse_mass) = (v.0, w.0, mass.inverse());
                Motion { center, velocity, spin, acceleration, inverse_mass, inverse_inertia }
            }
        }
    }

    fn body(&self, shape: Shape, surface: Surface) -> RigidBody {
        let [x, y, z] = [0, 1, 2].map(|c| to_core(self.inverse_inertia.col(c)));
        RigidBody {
            shape,
            center_of_mass: to_core(self.center),
            linear_velocity: to_core(self.velocity),
            angular_velocity: to_core(self.spin),
            acceleration: to_core(self.acceleration),
            inverse_mass: self.inverse_mass,
            inverse_inertia: glam::Mat3::from_cols(x, y, z),
            surface,
            part_of: None,
        }
    }
}

/// Appends the core shapes of `shape` at `pose` (its position and rotation in the world);
/// false when a part is met only as its box or not at all.
fn shapes_of(shape: &SharedShape, (at, turn): (Vec3, Quat), out: &mut Vec<Shape>) -> bool {
    let point = |p: Vec3| to_core(at + turn * p);
    let cuboid = |half: Vec3, center: Vec3| Shape::Box {
        center: point(center),
        half_extents: to_core(half),
        rotation: quat_to_core(turn),
    };
    match shape.as_typed_shape() {
        TypedShape::Ball(ball) => {
            out.push(Shape::Sphere { center: point(Vec3::ZERO), radius: ball.radius });
        }
        TypedShape::Capsule(c) => {
            let (a, b, radius) = (point(c.segment.a), point(c.segment.b), c.radius);
            out.push(Shape::Capsule { a, b, radius });
        }
        TypedShape::Cuboid(c) => out.push(cuboid(c.half_extents, Vec3::ZERO)),
        TypedShape::RoundCuboid(c) => {
            let half = c.inner_shape.half_extents + Vec3::splat(c.border_radius);
            out.push(cuboid(half, Vec3::ZERO));
        }
        TypedShape::HalfSpace(h) => {
            out.push(Shape::Plane { point: point(Vec3::ZERO), normal: to_core(turn * h.normal) });
        }
        TypedShape::Compound(c) => {
            let mut whole = true;
            for (part, sub) in c.shapes() {
                let pose = (at + turn * part.translation, turn * part.rotation);
                whole &= shapes_of(sub, pose, out);
            }
            return whole;
        }
        TypedShape::TriMesh(mesh) => {
            return faces(mesh.triangles().map(|t| [t.a, t.b, t.c]), point, out);
        }
        TypedShape::HeightField(field) => {
            return faces(field.triangles().map(|t| [t.a, t.b, t.c]), point, out);
        }
        TypedShape::ConvexPolyhedron(hull) => {
            let (corners, triangles) = hull.to_trimesh();
            let at = |i: u32| corners.get(i as usize).copied().unwrap_or_default();
            return faces(triangles.iter().map(|t| t.map(at)), point, out);
        }
        TypedShape::Polyline(_) => return false,
        _ => {
            let aabb = shape.compute_local_aabb();
            out.push(cuboid(aabb.half_extents(), aabb.center()));
            return false;
        }
    }
    true
}

/// Most triangles of one collider met (a triangle mesh, a height field, a convex hull's
/// faces): each is a core body the soft bodies near it look at every sub-step (module doc).
pub const MAX_COLLIDER_TRIANGLES: usize = 65_536;

/// Appends the triangles of a mesh (in its collider's frame, placed by `point`) as core
/// triangles, those of no area left out; false (and nothing appended) for a mesh of more than
/// [`MAX_COLLIDER_TRIANGLES`].
fn faces(
    triangles: impl Iterator<Item = [Vec3; 3]>,
    point: impl Fn(Vec3) -> glam::Vec3,
    out: &mut Vec<Shape>,
) -> bool {
    let from = out.len();
    for [a, b, c] in triangles {
        if out.len() - from >= MAX_COLLIDER_TRIANGLES {
            out.truncate(from);
            return false;
        }
        let (a, b, c) = (point(a), point(b), point(c));
        if (b - a).cross(c - a).length_squared() > 0.0 {
            out.push(Shape::Triangle { a, b, c });
        }
    }
    true
}

/// Whether `body` may reach a soft body whose nodes are within `bounds` (their box, and how
/// far the fastest of them can go in the physics step) in a step of `dt`: a triangle must come
/// within that reach, moving at its body's speed; the other shapes are always given (they are
/// few).
fn may_reach(body: &RigidBody, bounds: Option<(glam::Vec3, glam::Vec3, f32)>, dt: f32) -> bool {
    let (Shape::Triangle { a, b, c }, Some((lo, hi, travel))) = (body.shape, bounds) else {
        return true;
    };
    let far = [a, b, c].map(|p| p.distance(body.center_of_mass)).into_iter().fold(0.0, f32::max);
    let moves = (body.linear_velocity.length() + body.angular_velocity.length() * far) * dt;
    let grow = glam::Vec3::splat(travel + moves + NEAR_TRIANGLE);
    let (min, max) = (a.min(b).min(c), a.max(b).max(c));
    min.cmplt(hi + grow).all() && max.cmpgt(lo - grow).all()
}

/// How much farther than what the nodes and a body can travel in a step a triangle is still
/// given to a soft body (m): the nodes' radius and room for what the contacts add.
const NEAR_TRIANGLE: f32 = 0.1;

/// The box around the soft body's nodes and how far the fastest of them goes in `dt`; `None`
/// for a body of no nodes or one not finite (every body is given then).
fn node_bounds(
    sim: &springmesh_core::Simulation,
    dt: f32,
) -> Option<(glam::Vec3, glam::Vec3, f32)> {
    let first = glam::Vec3::from(*sim.positions().first()?);
    let (lo, hi) = sim
        .positions()
        .iter()
        .fold((first, first), |(lo, hi), &p| (lo.min(p.into()), hi.max(p.into())));
    let fastest = sim.velocities().iter().map(|v| v.length()).fold(0.0, f32::max);
    let travel = fastest * dt;
    (lo.is_finite() && hi.is_finite() && travel.is_finite()).then_some((lo, hi, travel))
}

#[cfg(test)]
mod tests {
    use super::*;
    use avian3d::parry::math::Pose;

    /// A pose a quarter turn about z at (1, 2, 3).
    fn pose() -> (Vec3, Quat) {
        (Vec3::new(1.0, 2.0, 3.0), Quat::from_rotation_z(std::f32::consts::FRAC_PI_2))
    }

    fn close(a: glam::Vec3, b: [f32; 3]) -> bool {
        a.distance(glam::Vec3::from_array(b)) < 1e-5
    }

    #[test]
    fn a_compound_of_balls_is_its_balls_where_the_pose_puts_them() {
        let parts = vec![
            (Pose::from_translation(Vec3::X), SharedShape::ball(0.1)),
            (Pose::from_translation(Vec3::ZERO), SharedShape::capsule_y(0.5, 0.2)),
        ];
        let mut out = Vec::new();
        assert!(shapes_of(&SharedShape::compound(parts), pose(), &mut out));
        // x turns to y: the ball's centre at (1, 3, 3); the capsule along y turns to −x.
        let [Shape::Sphere { center, radius }, Shape::Capsule { a, b, .. }] = out[..] else {
            panic!("{out:?}");
        };
        assert!(close(center, [1.0, 3.0, 3.0]) && radius == 0.1, "{center} {radius}");
        assert!(close(a, [1.5, 2.0, 3.0]) && close(b, [0.5, 2.0, 3.0]), "{a} {b}");
    }

    #[test]
    fn other_convex_shapes_are_their_box_and_a_polyline_is_not_met() {
        let mut out = Vec::new();
        assert!(!shapes_of(&SharedShape::cylinder(0.5, 0.2), pose(), &mut out));
        let [Shape::Box { center, half_extents, .. }] = out[..] else { panic!("{out:?}") };
        assert!(close(center, [1.0, 2.0, 3.0]) && close(half_extents, [0.2, 0.5, 0.2]));
        out.clear();
        let line = SharedShape::polyline(vec![Vec3::ZERO, Vec3::X], None);
        assert!(!shapes_of(&line, pose(), &mut out) && out.is_empty());
        assert!(shapes_of(&SharedShape::halfspace(Vec3::Y), pose(), &mut out));
        let [Shape::Plane { normal, .. }] = out[..] else { panic!("{out:?}") };
        assert!(close(normal, [-1.0, 0.0, 0.0]), "{normal}");
    }

    #[test]
    fn a_mesh_and_a_hull_are_their_triangles_where_the_pose_puts_them() {
        let mut out = Vec::new();
        let triangle = SharedShape::trimesh(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![[0, 1, 2]]);
        assert!(shapes_of(&triangle.expect("a mesh"), pose(), &mut out));
        // x turns to y, y to −x: the corners at (1, 2, 3), (1, 3, 3), (0, 2, 3).
        let [Shape::Triangle { a, b, c }] = out[..] else { panic!("{out:?}") };
        assert!(close(a, [1.0, 2.0, 3.0]) && close(b, [1.0, 3.0, 3.0]), "{a} {b}");
        assert!(close(c, [0.0, 2.0, 3.0]), "{c}");
        out.clear();
        // A cube's hull: 6 faces of 2 triangles, every corner 0.5 from the centre on each axis.
        let corners: Vec<Vec3> = (0..8)
            .map(|k| Vec3::new((k & 1) as f32, ((k >> 1) & 1) as f32, (k >> 2) as f32) - 0.5)
            .collect();
        let hull = SharedShape::convex_hull(&corners).expect("a hull");
        assert!(shapes_of(&hull, (Vec3::ZERO, Quat::IDENTITY), &mut out));
        assert_eq!(out.len(), 12, "{out:?}");
        for shape in &out {
            let Shape::Triangle { a, b, c } = *shape else { panic!("{shape:?}") };
            let on_a_face =
                (0..3).any(|i| [a, b, c].iter().all(|p| (p[i].abs() - 0.5).abs() < 1e-5));
            assert!(on_a_face, "{a} {b} {c}");
        }
    }

    #[test]
    fn a_soft_body_is_given_the_triangles_near_it_and_every_other_shape() {
        let body = |shape| Motion::fixed(Vec3::ZERO).body(shape, Surface::default());
        let triangle = |x: f32| {
            let a = glam::Vec3::new(x, 0.0, 0.0);
            body(Shape::Triangle { a, b: a + glam::Vec3::X, c: a + glam::Vec3::Z })
        };
        // Nodes in the box from (0, 0.5, 0) to (1, 1, 1), the fastest at 6 m/s: 0.1 m in a
        // 60 Hz step, 0.2 with the room.
        let bounds = Some((glam::Vec3::new(0.0, 0.5, 0.0), glam::Vec3::ONE, 0.1));
        let dt = 1.0 / 60.0;
        assert!(!may_reach(&triangle(0.0), bounds, dt), "0.5 m under the nodes");
        let lifted = |y: f32| {
            let (a, b, c) = (
                glam::Vec3::new(0.0, y, 0.0),
                glam::Vec3::new(1.0, y, 0.0),
                glam::Vec3::new(0.0, y, 1.0),
            );
            body(Shape::Triangle { a, b, c })
        };
        assert!(may_reach(&lifted(0.31), bounds, dt), "0.19 m under them");
        assert!(!may_reach(&lifted(0.29), bounds, dt), "0.21 m under them");
        assert!(!may_reach(&triangle(3.0), bounds, dt), "beside them");
        let far_ball = body(Shape::Sphere { center: glam::Vec3::splat(9.0), radius: 0.1 });
        assert!(may_reach(&far_ball, bounds, dt), "a ball is always given");
        assert!(may_reach(&triangle(0.0), None, dt), "every triangle without bounds");
    }
}
