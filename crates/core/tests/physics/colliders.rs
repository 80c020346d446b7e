//! Core II acceptance 4: a cloth draped over a sphere, a capsule or a box keeps every node
//! outside it, at every step.

use crate::common::{GridSprings, grid_cloth};
use glam::{Quat, Vec3};
use springmesh_core::model::{Obstacle, Shape, Surface};
use springmesh_core::{Integrator, Simulation};

/// Signed distance from `p` to `shape` (negative inside), written out here independently of
/// the solver's own.
pub(crate) fn distance(shape: &Shape, p: Vec3) -> f32 {
    match *shape {
        Shape::Sphere { center, radius } => p.distance(center) - radius,
        Shape::Capsule { a, b, radius } => {
            let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
            p.distance(a + (b - a) * t) - radius
        }
        Shape::Box { center, half_extents, rotation } => {
            let local = rotation.normalize().inverse() * (p - center);
            let q = local.abs() - half_extents;
            q.max(Vec3::ZERO).length() + q.max_element().min(0.0)
        }
        Shape::Plane { point, normal } => (p - point).dot(normal.normalize()),
        Shape::Triangle { a, b, c } => {
            // Thin: the distance to the face where p is over it, else to the nearest edge.
            let n = (b - a).cross(c - a).normalize();
            let over =
                [(a, b), (b, c), (c, a)].iter().all(|&(u, v)| (v - u).cross(p - u).dot(n) >= 0.0);
            let edge = |u: Vec3, v: Vec3| {
                let t = ((p - u).dot(v - u) / (v - u).length_squared()).clamp(0.0, 1.0);
                p.distance(u + (v - u) * t)
            };
            if over { (p - a).dot(n).abs() } else { edge(a, b).min(edge(b, c)).min(edge(c, a)) }
        }
    }
}

#[test]
fn a_draped_cloth_stays_outside_spheres_capsules_and_boxes() {
    let shapes = [
        Shape::Sphere { center: Vec3::new(0.5, -0.3, 0.5), radius: 0.25 },
        Shape::Capsule {
            a: Vec3::new(-0.2, -0.3, 0.5),
            b: Vec3::new(1.2, -0.3, 0.5),
            radius: 0.15,
        },
        Shape::Box {
            center: Vec3::new(0.5, -0.4, 0.5),
            half_extents: Vec3::new(0.2, 0.2, 0.3),
            rotation: Quat::from_rotation_y(0.6) * Quat::from_rotation_x(0.3),
        },
    ];
    let radius = 0.01;
    for integrator in [Integrator::Xpbd, Integrator::Explicit] {
        for shape in shapes {
            let mut model =
                grid_cloth(21, 0.05, 0.002, GridSprings { stiffness: 800.0, damping: 0.02 });
            model.anchors.clear();
            model.params.node_radius = radius;
            model.params.integrator = integrator;
            // Explicit is stable for these springs only below h ≈ 1/900 s.
            model.params.substeps = 32;
            model.params.colliders = vec![Obstacle { shape, surface: Surface::default() }];
            let mut sim =
                Simulation::new(&springmesh_core::ValidModel::new(model.clone()).expect("valid"));
            let mut lowest_top = f32::INFINITY;
            for step in 0..120 {
                sim.step(1.0 / 60.0).expect("finite");
                let closest = sim
                    .positions()
                    .iter()
                    .map(|&p| distance(&shape, p.into()))
                    .fold(f32::INFINITY, f32::min);
                assert!(
                    closest >= radius - 1e-4,
                    "{integrator:?} {shape:?} step {step}: a node {closest} m from it"
                );
                lowest_top = closest;
            }
            let draped = sim.positions().iter().filter(|p| p.y < -0.4).count();
            println!("{integrator:?} {shape:?}: closest node {lowest_top:.4} m, {draped} low");
            assert!(
                draped > 20,
                "{integrator:?} {shape:?}: the cloth hangs over it ({draped} nodes low, {lowest_top})"
            );
        }
    }
}
