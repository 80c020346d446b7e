//! A small `.spring` file using every part of the format, and tools to damage it.

use super::{GridSprings, grid_cloth};
use glam::{Quat, Vec2, Vec3};
use springmesh_core::io::{self, FileFormat, binary::HEADER_LEN};
use springmesh_core::model::{
    Air, Faces, Ground, Obstacle, Pressure, SelfCollision, Shape, ShapeMatching, Skin, SkinVertex,
    Surface,
};
use springmesh_core::{Face, Node, NodeId, Spring, SpringKind, SpringModel};
use std::path::Path;

/// A small model using every part of the format: a 4 × 4 cloth with uvs and metadata.
pub fn small_model() -> SpringModel {
    let mut m = grid_cloth(4, 0.1, 0.05, GridSprings { stiffness: 200.0, damping: 0.5 });
    m.uvs = vec![Vec2::ZERO, Vec2::X, Vec2::Y];
    let mut faces = m.faces.clone();
    faces = faces
        .iter()
        .map(|mut f| {
            f.uvs = Some([0, 1, 2]);
            f
        })
        .collect();
    m.faces = faces;
    m.springs = m
        .springs
        .iter()
        .map(|mut s| {
            s.break_max = Some(1.0);
            s
        })
        .collect();
    m.metadata.name = "small cloth".into();
    m.metadata.source = Some("generated".into());
    m.metadata.conversion.insert("bend".into(), "true".into());
    m
}

/// A tetrahedron of four nodes (the cage) with a skin of three vertices inside it forming one
/// textured triangle, and one vertex on a corner.
pub fn skinned_model() -> SpringModel {
    let corners = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    let mut m = SpringModel::default();
    for p in corners {
        m.nodes.push(Node { position: p, mass: 0.25 });
    }
    for (a, b) in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)] {
        let rest = corners[a].distance(corners[b]);
        m.springs.push(Spring::new(
            NodeId(a as u32),
            NodeId(b as u32),
            rest,
            100.0,
            SpringKind::Interior,
        ));
    }
    let weights = [[0.5, 0.25, 0.25, 0.0], [0.25, 0.25, 0.25, 0.25], [0.0, 0.0, 1.0, 0.0]];
    let vertices = weights.map(|w| SkinVertex {
        position: corners.iter().zip(w).map(|(&p, w)| w * p).sum(),
        nodes: [0, 1, 2, 3].map(NodeId),
        weights: w,
    });
    let mut faces = Faces::default();
    faces.push(Face { nodes: [0, 1, 2].map(NodeId), uvs: Some([0, 1, 0]) });
    m.skin = Some(Skin::new(vertices, faces, vec![Vec2::ZERO, Vec2::ONE]));
    m
}

/// A closed tetrahedron with every world parameter set: air with gusts, pressure with
/// buoyancy, the ground, and one collider of each shape.
pub fn world_model() -> SpringModel {
    let mut m = SpringModel::default();
    for p in [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z] {
        m.nodes.push(Node { position: p, mass: 0.01 });
    }
    for f in [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]] {
        m.faces.push(Face { nodes: f.map(NodeId), uvs: None });
    }
    for (a, b) in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)] {
        let rest = m.distance(NodeId(a), NodeId(b)).expect("nodes exist");
        m.springs.push(Spring::new(NodeId(a), NodeId(b), rest, 500.0, SpringKind::Stretch));
    }
    let p = &mut m.params;
    p.node_radius = 0.02;
    p.shape_matching = Some(ShapeMatching { frequency: 4.5 });
    p.self_collision = Some(SelfCollision { thickness: 0.03, friction: 0.4 });
    p.air = Some(Air { wind: Vec3::new(3.0, 0.0, 1.0), gusts: 0.3, seed: 42, ..Air::default() });
    p.pressure = Some(Pressure { pressure: 1500.0, gas_density: Some(0.166) });
    p.ground = Some(Ground { height: -0.5, surface: Surface { friction: 0.8, restitution: 0.25 } });
    let surface = Surface::default();
    p.colliders = vec![
        Obstacle {
            shape: Shape::Plane { point: Vec3::Y, normal: Vec3::new(0.0, 1.0, 1.0) },
            surface,
        },
        Obstacle {
            shape: Shape::Sphere { center: Vec3::new(1.0, 2.0, 3.0), radius: 0.5 },
            surface,
        },
        Obstacle {
            shape: Shape::Capsule { a: Vec3::ZERO, b: Vec3::Y * 2.0, radius: 0.25 },
            surface,
        },
        Obstacle {
            shape: Shape::Box {
                center: Vec3::X,
                half_extents: Vec3::new(0.5, 0.25, 2.0),
                rotation: Quat::IDENTITY,
            },
            surface: Surface { friction: 0.5, restitution: 0.0 },
        },
    ];
    m
}

pub fn small_file() -> Vec<u8> {
    io::encode(&small_model(), FileFormat::Binary, Path::new("small.spring")).expect("encodes")
}

/// Rewrites the header checksum so that a changed payload reaches the decoder.
pub fn fix_checksum(bytes: &mut [u8]) {
    let crc = crc32fast::hash(&bytes[HEADER_LEN..]);
    bytes[12..16].copy_from_slice(&crc.to_le_bytes());
}

/// Offsets of length prefixes in the small file's payload: the node count (first field) and
/// the metadata name's length (found by its contents).
pub fn length_prefix_offsets(bytes: &[u8]) -> Vec<usize> {
    let name = b"small cloth";
    let name_at =
        bytes.windows(name.len()).position(|w| w == name).expect("the name is in the file");
    vec![HEADER_LEN, name_at - 8]
}
