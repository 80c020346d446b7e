//! Acceptance 10: corrupt and hostile `.spring` files give a clear error, never a panic.

use crate::common::files::{
    fix_checksum, length_prefix_offsets, skinned_model, small_file, small_model,
};
use springmesh_core::io::{self, FileFormat, binary::HEADER_LEN};
use springmesh_core::{CoreError, Simulation, SpringModel};
use std::path::Path;

const FILE: &str = "small.spring";

fn decode(bytes: &[u8]) -> Result<SpringModel, CoreError> {
    io::binary::decode(bytes, Path::new(FILE)).map(springmesh_core::ValidModel::into_inner)
}

/// A deterministic byte stream (xorshift64).
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn the_small_file_loads() {
    assert_eq!(decode(&small_file()).expect("valid"), small_model());
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = small_file();
    for len in 0..bytes.len() {
        let err = decode(&bytes[..len]).expect_err("truncated");
        let expected = if len < HEADER_LEN {
            matches!(err, CoreError::TooShort { .. })
        } else {
            matches!(err, CoreError::LengthMismatch { .. })
        };
        assert!(expected, "length {len}: {err:?}");
        assert!(err.to_string().starts_with("small.spring: "), "{err}");
    }
}

#[test]
fn byte_flips_are_errors() {
    let original = small_file();
    let mut noise = Noise(0x9e37_79b9_7f4a_7c15);
    for _ in 0..2000 {
        let mut bytes = original.clone();
        let at = (noise.next() % bytes.len() as u64) as usize;
        bytes[at] ^= 1 + (noise.next() % 255) as u8;
        assert!(decode(&bytes).is_err(), "flip at {at} went unnoticed");
    }
}

#[test]
fn flips_behind_a_valid_checksum_never_panic() {
    flips_never_panic(&small_file(), FILE);
    // A skin's arrays: counts, node indices and weights that point anywhere. An accepted
    // model also steps and draws its surface.
    let skinned = skinned_model();
    let file = io::encode(&skinned, FileFormat::Binary, Path::new("skin.spring")).expect("encodes");
    flips_never_panic(&file, "skin.spring");
}

/// Random bytes of `original`'s payload rewritten, with a checksum that matches: an error in
/// words naming `name`, or a valid model that steps and draws.
fn flips_never_panic(original: &[u8], name: &str) {
    let mut noise = Noise(0x2545_f491_4f6c_dd1d);
    let (mut refused, mut accepted) = (0, 0);
    for _ in 0..5000 {
        let mut bytes = original.to_vec();
        for _ in 0..1 + noise.next() % 4 {
            let at = HEADER_LEN + (noise.next() % (bytes.len() - HEADER_LEN) as u64) as usize;
            bytes[at] = noise.next() as u8;
        }
        fix_checksum(&mut bytes);
        match io::binary::decode(&bytes, Path::new(name)) {
            Ok(model) => {
                assert_eq!(model.validate(), Ok(()), "accepted models are valid");
                let mut sim = Simulation::new(&model);
                let _ = sim.step(model.params.dt);
                let (mut positions, mut normals) = (Vec::new(), Vec::new());
                sim.surface(&mut positions, &mut normals);
                assert_eq!(positions.len(), model.surface_vertex_count());
                accepted += 1;
            }
            Err(e) => {
                let text = e.to_string();
                assert!(text.starts_with(&format!("{name}: ")), "{text}");
                // Issue 16: words, not the decoder's Debug text.
                assert!(!text.contains(" { ") && !text.contains("type_name"), "{text}");
                refused += 1;
            }
        }
    }
    println!(
        "{name}: checksum-valid corruptions: {refused} refused, {accepted} still valid models"
    );
    assert!(refused > 0);
}

#[test]
fn wrong_magic_and_future_version() {
    let mut bytes = small_file();
    bytes[0] = b'X';
    let err = decode(&bytes).expect_err("magic");
    assert!(matches!(err, CoreError::BadMagic { .. }), "{err:?}");
    assert!(err.to_string().contains("not a .spring file"), "{err}");

    let mut bytes = small_file();
    bytes[8..12].copy_from_slice(&8u32.to_le_bytes());
    let err = decode(&bytes).expect_err("version");
    assert_eq!(
        err.to_string(),
        "small.spring: file format version 8 is newer than this build supports (version 7)"
    );
    let text = io::decode(b"garbage that is no model", Path::new("g.spring")).expect_err("x");
    assert!(text.to_string().starts_with("g.spring: not a .spring file"), "{text}");
}

#[test]
fn huge_length_prefixes_are_errors() {
    for at in length_prefix_offsets(&small_file()) {
        for claim in [1u64 << 60, u64::MAX, 1 << 32] {
            let mut bytes = small_file();
            bytes[at..at + 8].copy_from_slice(&claim.to_le_bytes());
            fix_checksum(&mut bytes);
            let err = decode(&bytes).expect_err("cannot hold that many");
            assert!(matches!(err, CoreError::Decode { .. }), "{err:?}");
        }
    }
}
