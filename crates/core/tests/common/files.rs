//! A small `.spring` file using every part of the format, and tools to damage it.

use super::{GridSprings, grid_cloth};
use glam::Vec2;
use springmesh_core::SpringModel;
use springmesh_core::io::{self, FileFormat, binary::HEADER_LEN};
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
