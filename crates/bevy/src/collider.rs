//! The game's colliders: [`SoftCollider`] on any entity (a child of a joint entity rides on
//! the bone).
//!
//! Every body gets each collider after the model's own, as the core's [`Obstacle`] at its
//! entity's `GlobalTransform`; within a frame the collider moves across the body's steps from
//! where it was at the end of the last frame to where it is now, at constant velocity
//! ([`springmesh_core::Simulation::move_collider`]), so it pushes and drags the cloth at its
//! own speed. The nodes are pushed out of it (with its friction and restitution) exactly as
//! out of a collider saved in the model, by the core's one contact routine
//! ([`springmesh_core::sim::contacts`]).

use crate::convert::{quat_to_core, to_core};
use bevy::ecs::component::Component;
use bevy::math::Vec3;
use bevy::transform::components::GlobalTransform;
use springmesh_core::model::{Obstacle, Shape, Surface};

/// A shape in its entity's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SoftColliderShape {
    /// A ball of this radius (m) around the entity's origin.
    Sphere {
        /// Radius (m).
        radius: f32,
    },
    /// A segment of half length `half_length` (m) along the entity's y axis, through its
    /// origin, grown by `radius` (m): a limb, a pole (Bevy's `Capsule3d` convention).
    Capsule {
        /// Radius (m).
        radius: f32,
        /// Half the length of the segment between the caps' centres (m).
        half_length: f32,
    },
    /// A box of these half extents (m), centred on the entity and turned with it.
    Cuboid {
        /// Half its size along the entity's axes (m).
        half_extents: Vec3,
    },
    /// The half-space behind the plane through the entity's origin with this normal (in the
    /// entity's frame, pointing out of the solid): a floor, a wall.
    Plane {
        /// The outward normal.
        normal: Vec3,
    },
}

/// A solid every soft body collides with, wherever its entity is this frame.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct SoftCollider {
    /// Its shape.
    pub shape: SoftColliderShape,
    /// Coulomb friction μ (≥ 0). Default 0.5.
    pub friction: f32,
    /// Restitution in [0, 1]. Default 0.
    pub restitution: f32,
}

impl SoftCollider {
    /// A ball of `radius` (m).
    pub fn sphere(radius: f32) -> SoftCollider {
        SoftCollider::from_shape(SoftColliderShape::Sphere { radius })
    }

    /// A capsule of `radius` (m) around a segment of `2 × half_length` (m) along the entity's
    /// y axis: put it on a child of a joint entity and it rides on the bone.
    pub fn capsule(radius: f32, half_length: f32) -> SoftCollider {
        SoftCollider::from_shape(SoftColliderShape::Capsule { radius, half_length })
    }

    /// A box of `half_extents` (m).
    pub fn cuboid(half_extents: Vec3) -> SoftCollider {
        SoftCollider::from_shape(SoftColliderShape::Cuboid { half_extents })
    }

    /// The half-space behind the plane through the origin with outward `normal`.
    pub fn plane(normal: Vec3) -> SoftCollider {
        SoftCollider::from_shape(SoftColliderShape::Plane { normal })
    }

    /// A collider of `shape` with the default surface.
    pub fn from_shape(shape: SoftColliderShape) -> SoftCollider {
        let surface = Surface::default();
        SoftCollider { shape, friction: surface.friction, restitution: surface.restitution }
    }

    /// With friction μ.
    pub fn with_friction(mut self, friction: f32) -> SoftCollider {
        self.friction = friction;
        self
    }

    /// With restitution e.
    pub fn with_restitution(mut self, restitution: f32) -> SoftCollider {
        self.restitution = restitution;
        self
    }

    /// The collider in world space at `at`. Scale stretches a box along its axes, a ball by
    /// its largest factor, a capsule's segment by y and its radius by the larger of x and z.
    pub(crate) fn obstacle(&self, at: &GlobalTransform) -> Obstacle {
        let (scale, rotation, center) = at.to_scale_rotation_translation();
        let shape = match self.shape {
            SoftColliderShape::Sphere { radius } => Shape::Sphere {
                center: to_core(center),
                radius: radius * scale.abs().max_element(),
            },
            SoftColliderShape::Capsule { radius, half_length } => {
                let half = rotation * Vec3::Y * (half_length * scale.y.abs());
                Shape::Capsule {
                    a: to_core(center - half),
                    b: to_core(center + half),
                    radius: radius * scale.x.abs().max(scale.z.abs()),
                }
            }
            SoftColliderShape::Cuboid { half_extents } => Shape::Box {
                center: to_core(center),
                half_extents: to_core(half_extents * scale.abs()),
                rotation: quat_to_core(rotation),
            },
            SoftColliderShape::Plane { normal } => {
                Shape::Plane { point: to_core(center), normal: to_core(rotation * normal) }
            }
        };
        let surface = Surface { friction: self.friction, restitution: self.restitution };
        Obstacle { shape, surface }
    }
}
