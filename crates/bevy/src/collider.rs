//! The game's colliders: [`SoftCollider`] on any entity.
//!
//! Every frame, before the bodies step, each collider is turned into the core's
//! [`Obstacle`] at its entity's current `GlobalTransform` and handed to every body after
//! the model's own colliders: the nodes are pushed out of it (with its friction and
//! restitution) exactly as out of a collider saved in the model, by the core's one contact
//! routine ([`springmesh_core::sim::contacts`]).

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

    /// The collider in world space at `at`. Scale stretches a box along its axes and a ball
    /// by its largest factor.
    pub(crate) fn obstacle(&self, at: &GlobalTransform) -> Obstacle {
        let (scale, rotation, center) = at.to_scale_rotation_translation();
        let shape = match self.shape {
            SoftColliderShape::Sphere { radius } => Shape::Sphere {
                center: to_core(center),
                radius: radius * scale.abs().max_element(),
            },
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
