//! A `.spring` reader written from docs/file-format.md alone — its own CRC-32, its own cursor,
//! its own types — checked against the crate's encoder, including the worked example of the
//! document byte for byte.

use crate::common::files::{
    length_prefix_offsets, skinned_model, small_file, small_model, world_model,
};
use springmesh_core::io::{self, FileFormat};
use springmesh_core::model::Tethers;
use std::path::Path;

/// CRC-32 (IEEE), bit by bit: reflected polynomial 0xEDB88320, initial and final XOR all ones.
fn crc32(data: &[u8]) -> u32 {
    let mut c = !0u32;
    for &byte in data {
        c ^= u32::from(byte);
        for _ in 0..8 {
            c = if c & 1 != 0 { (c >> 1) ^ 0xEDB8_8320 } else { c >> 1 };
        }
    }
    !c
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("need {n} bytes at {}", self.at))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, String> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Result<u64, String> {
        let b = self.take(8)?;
        let mut a = [0; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    fn f32(&mut self) -> Result<f32, String> {
        Ok(f32::from_bits(self.u32()?))
    }
    fn vec3(&mut self) -> Result<[f32; 3], String> {
        Ok([self.f32()?, self.f32()?, self.f32()?])
    }
    /// A list count, checked against what remains (every element is at least one byte).
    fn count(&mut self) -> Result<usize, String> {
        let n = self.u64()?;
        let left = (self.bytes.len() - self.at) as u64;
        if n > left {
            return Err(format!("count {n} but only {left} bytes left"));
        }
        Ok(n as usize)
    }
    fn list<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        let n = self.count()?;
        (0..n).map(|_| item(self)).collect()
    }
    fn option<T>(
        &mut self,
        item: impl FnOnce(&mut Self) -> Result<T, String>,
    ) -> Result<Option<T>, String> {
        match self.u8()? {
            0 => Ok(None),
            1 => item(self).map(Some),
            t => Err(format!("option tag {t}")),
        }
    }
    fn string(&mut self) -> Result<String, String> {
        let n = self.count()?;
        String::from_utf8(self.take(n)?.to_vec()).map_err(|e| e.to_string())
    }
}

#[derive(Debug, PartialEq)]
struct Spring {
    a: u32,
    b: u32,
    rest: Option<f32>,
    stiffness: f32,
    damping: f32,
    kind: u32,
    break_min: Option<f32>,
    break_max: Option<f32>,
}

/// A collider: its shape's variant and fields (f32s in order), then friction and restitution.
type Obstacle = (u32, Vec<f32>, [f32; 2]);

/// Air: density, wind, drag, lift, gusts, gust period, then the seed.
type Air = ([f32; 8], u64);

type SkinVertex = ([f32; 3], [u32; 4], [f32; 4]);

/// A joint: name, parent, inverse bind matrix (column-major).
type Joint = (String, Option<u16>, [f32; 16]);
/// A node's binding: joints, weights, max distance, back-stop (distance, radius).
type Binding = ([u16; 4], [f32; 4], Option<f32>, Option<[f32; 2]>);
/// A rig: joints, bindings, colliders on joints.
type RigRecord = (Vec<Joint>, Vec<Binding>, Vec<(u16, Obstacle)>);
type Skin = (Vec<SkinVertex>, Vec<([u32; 3], Option<[u32; 3]>)>, Vec<[f32; 2]>);

#[derive(Debug, PartialEq)]
struct Model {
    nodes: Vec<([f32; 3], f32)>,
    springs: Vec<Spring>,
    anchors: Vec<u32>,
    faces: Vec<([u32; 3], Option<[u32; 3]>)>,
    uvs: Vec<[f32; 2]>,
    gravity: [f32; 3],
    damping: f32,
    integrator: u32,
    dt: f32,
    substeps: u32,
    node_radius: f32,
    air: Option<Air>,
    pressure: Option<(f32, Option<f32>)>,
    ground: Option<(f32, [f32; 2])>,
    colliders: Vec<Obstacle>,
    /// The tethers' slack (version 2; `None` in version 1 files).
    tethers: Option<f32>,
    /// Shape matching's frequency (version 5; `None` before).
    shape_matching: Option<f32>,
    /// Self-collision's thickness and friction (version 6; `None` before).
    self_collision: Option<(f32, f32)>,
    /// Version 4's skin: vertices (position, nodes, weights), faces, uvs.
    skin: Option<Skin>,
    name: String,
    source: Option<String>,
    conversion: Vec<(String, String)>,
    /// Version 7's rig: joints, then one binding per node.
    rig: Option<RigRecord>,
}

fn read(file: &[u8]) -> Result<Model, String> {
    if file.len() < 24 || file[..8] != *b"\x89SPR\r\n\x1a\n" {
        return Err("not a .spring file".into());
    }
    let mut header = Cursor { bytes: file, at: 8 };
    let (version, crc, len) = (header.u32()?, header.u32()?, header.u64()?);
    if !(1..=7).contains(&version) || len != file.len() as u64 - 24 || crc != crc32(&file[24..]) {
        return Err(format!("bad header: version {version}, length {len}, crc {crc:08x}"));
    }
    let mut c = Cursor { bytes: &file[24..], at: 0 };
    let triple =
        |c: &mut Cursor| -> Result<[u32; 3], String> { Ok([c.u32()?, c.u32()?, c.u32()?]) };
    let ((nodes, springs, anchors, faces, uvs), skin) = if version >= 3 {
        arrays(&mut c, version)?
    } else {
        let nodes = c.list(|c| Ok((c.vec3()?, c.f32()?)))?;
        let springs = c.list(|c| {
            Ok(Spring {
                a: c.u32()?,
                b: c.u32()?,
                rest: c.option(Cursor::f32)?,
                stiffness: c.f32()?,
                damping: c.f32()?,
                kind: c.u32()?,
                break_min: c.option(Cursor::f32)?,
                break_max: c.option(Cursor::f32)?,
            })
        })?;
        let anchors = c.list(Cursor::u32)?;
        let faces = c.list(|c| Ok((triple(c)?, c.option(triple)?)))?;
        let uvs = c.list(|c| Ok([c.f32()?, c.f32()?]))?;
        ((nodes, springs, anchors, faces, uvs), None)
    };
    let air = |c: &mut Cursor| -> Result<Air, String> {
        let f = floats(c, 8)?;
        let mut a = [0.0; 8];
        a.copy_from_slice(&f);
        Ok((a, c.u64()?))
    };

    let model = Model {
        nodes,
        springs,
        anchors,
        faces,
        uvs,
        gravity: c.vec3()?,
        damping: c.f32()?,
        integrator: c.u32()?,
        dt: c.f32()?,
        substeps: c.u32()?,
        node_radius: c.f32()?,
        air: c.option(air)?,
        pressure: c.option(|c| Ok((c.f32()?, c.option(Cursor::f32)?)))?,
        ground: c.option(|c| Ok((c.f32()?, surface(c)?)))?,
        colliders: c.list(obstacle)?,
        tethers: if version >= 2 { c.option(Cursor::f32)? } else { None },
        shape_matching: if version >= 5 { c.option(Cursor::f32)? } else { None },
        self_collision: if version >= 6 { c.option(|c| Ok((c.f32()?, c.f32()?)))? } else { None },
        name: c.string()?,
        source: c.option(Cursor::string)?,
        conversion: c.list(|c| Ok((c.string()?, c.string()?)))?,
        skin,
        rig: if version >= 7 { c.option(rig)? } else { None },
    };
    if c.at != c.bytes.len() {
        return Err(format!("{} bytes left over", c.bytes.len() - c.at));
    }
    Ok(model)
}

/// `n` floats.
fn floats(c: &mut Cursor, n: usize) -> Result<Vec<f32>, String> {
    (0..n).map(|_| c.f32()).collect()
}

/// A surface: friction and restitution.
fn surface(c: &mut Cursor) -> Result<[f32; 2], String> {
    Ok([c.f32()?, c.f32()?])
}

/// A collider: its shape's variant and fields, then its surface.
fn obstacle(c: &mut Cursor) -> Result<Obstacle, String> {
    let variant = c.u32()?;
    let fields = match variant {
        0 => 6,
        1 => 4,
        2 => 7,
        3 => 10,
        v => return Err(format!("shape {v}")),
    };
    Ok((variant, floats(c, fields)?, surface(c)?))
}

/// The rig record: a list of joints, a list of bindings, then a list of colliders on joints.
fn rig(c: &mut Cursor) -> Result<RigRecord, String> {
    let joint = |c: &mut Cursor| {
        let (name, parent) = (c.string()?, c.option(Cursor::u16)?);
        let mut matrix = [0.0; 16];
        for m in &mut matrix {
            *m = c.f32()?;
        }
        Ok((name, parent, matrix))
    };
    let binding = |c: &mut Cursor| {
        let joints = [c.u16()?, c.u16()?, c.u16()?, c.u16()?];
        let weights = [c.f32()?, c.f32()?, c.f32()?, c.f32()?];
        let max_distance = c.option(Cursor::f32)?;
        Ok((joints, weights, max_distance, c.option(|c| Ok([c.f32()?, c.f32()?]))?))
    };
    let collider = |c: &mut Cursor| Ok((c.u16()?, obstacle(c)?));
    Ok((c.list(joint)?, c.list(binding)?, c.list(collider)?))
}

type Arrays =
    (Vec<([f32; 3], f32)>, Vec<Spring>, Vec<u32>, Vec<([u32; 3], Option<[u32; 3]>)>, Vec<[f32; 2]>);

/// Versions 3 and 4: seven counts (eleven in version 4), then one array per field, each
/// followed by zeros up to a multiple of 8 bytes from the start of the payload; version 4's
/// skin arrays follow the uvs.
fn arrays(c: &mut Cursor, version: u32) -> Result<(Arrays, Option<Skin>), String> {
    let mut counts = [0usize; 11];
    for n in counts.iter_mut().take(if version >= 4 { 11 } else { 7 }) {
        *n = c.count()?;
    }
    let [nodes, springs, breakable, anchors, faces, face_uvs, uvs, skin_counts @ ..] = counts;
    fn array<'a, T>(
        c: &mut Cursor<'a>,
        n: usize,
        mut item: impl FnMut(&mut Cursor<'a>) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        let out = (0..n).map(|_| item(c)).collect::<Result<Vec<_>, _>>()?;
        while !c.at.is_multiple_of(8) {
            if c.u8()? != 0 {
                return Err(format!("padding at {} is not zero", c.at - 1));
            }
        }
        Ok(out)
    }
    let positions = array(c, nodes, Cursor::vec3)?;
    let masses = array(c, nodes, Cursor::f32)?;
    let a = array(c, springs, Cursor::u32)?;
    let b = array(c, springs, Cursor::u32)?;
    let rest = array(c, springs, Cursor::f32)?;
    let stiffness = array(c, springs, Cursor::f32)?;
    let damping = array(c, springs, Cursor::f32)?;
    let kind = array(c, springs, Cursor::u8)?;
    let which = array(c, breakable, Cursor::u32)?;
    let none_if_nan = |c: &mut Cursor| Ok(Some(c.f32()?).filter(|v| !v.is_nan()));
    let break_min = array(c, breakable, none_if_nan)?;
    let break_max = array(c, breakable, none_if_nan)?;
    let anchors = array(c, anchors, Cursor::u32)?;
    let corners = |c: &mut Cursor| Ok([c.u32()?, c.u32()?, c.u32()?]);
    let face_nodes = array(c, faces, corners)?;
    let face_uvs = array(c, face_uvs, corners)?;
    let uvs = array(c, uvs, |c| Ok([c.f32()?, c.f32()?]))?;
    let [skin_vertices, skin_faces, skin_face_uvs, skin_uvs] = skin_counts;
    let skin_positions = array(c, skin_vertices, Cursor::vec3)?;
    let skin_nodes = array(c, skin_vertices, |c| Ok([c.u32()?, c.u32()?, c.u32()?, c.u32()?]))?;
    let skin_weights = array(c, skin_vertices, |c| Ok([c.f32()?, c.f32()?, c.f32()?, c.f32()?]))?;
    let skin_face_nodes = array(c, skin_faces, corners)?;
    let skin_face_uvs = array(c, skin_face_uvs, corners)?;
    let skin_uvs = array(c, skin_uvs, |c| Ok([c.f32()?, c.f32()?]))?;
    let with_uvs = |nodes: Vec<[u32; 3]>, uvs: Vec<[u32; 3]>| -> Vec<_> {
        let uv = |i: usize| uvs.get(i).copied().filter(|uv| *uv != [u32::MAX; 3]);
        nodes.into_iter().enumerate().map(|(i, n)| (n, uv(i))).collect()
    };
    let skin = (skin_vertices > 0).then(|| {
        let vertices = skin_positions.into_iter().zip(skin_nodes).zip(skin_weights);
        let vertices = vertices.map(|((p, n), w)| (p, n, w)).collect();
        (vertices, with_uvs(skin_face_nodes, skin_face_uvs), skin_uvs)
    });

    let mut springs: Vec<Spring> = (0..springs)
        .map(|i| Spring {
            a: a[i],
            b: b[i],
            rest: Some(rest[i]),
            stiffness: stiffness[i],
            damping: damping[i],
            kind: u32::from(kind[i]),
            break_min: None,
            break_max: None,
        })
        .collect();
    for (k, &i) in which.iter().enumerate() {
        let s = springs.get_mut(i as usize).ok_or(format!("breakable spring {i}"))?;
        (s.break_min, s.break_max) = (break_min[k], break_max[k]);
    }
    let faces = with_uvs(face_nodes, face_uvs);
    Ok(((positions.into_iter().zip(masses).collect(), springs, anchors, faces, uvs), skin))
}

#[test]
fn crc_matches_the_reference_value() {
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926, "the standard check value of CRC-32");
}

#[test]
fn independent_reader_decodes_a_small_file() {
    let model = small_model();
    let read = read(&small_file()).expect("the document describes the file");
    assert_eq!(read.nodes.len(), model.nodes.len());
    for (r, n) in read.nodes.iter().zip(model.nodes.iter()) {
        assert_eq!(*r, (n.position.to_array(), n.mass));
    }
    assert_eq!(read.springs.len(), model.springs.len());
    for (r, s) in read.springs.iter().zip(model.springs.iter()) {
        let expected = Spring {
            a: s.a.0,
            b: s.b.0,
            rest: Some(s.rest_length),
            stiffness: s.stiffness,
            damping: s.damping,
            kind: s.kind as u32,
            break_min: s.break_min,
            break_max: s.break_max,
        };
        assert_eq!(*r, expected);
    }
    assert_eq!(read.anchors, model.anchors.iter().map(|a| a.0).collect::<Vec<_>>());
    let faces: Vec<_> = model.faces.iter().map(|f| (f.nodes.map(|n| n.0), f.uvs)).collect();
    assert_eq!(read.faces, faces);
    assert_eq!(read.uvs, model.uvs.iter().map(|u| u.to_array()).collect::<Vec<_>>());
    let p = &model.params;
    assert_eq!(read.gravity, p.gravity.to_array());
    assert_eq!(
        (read.damping, read.integrator, read.dt, read.substeps),
        (p.damping, 2, p.dt, p.substeps)
    );
    assert_eq!(
        (read.node_radius, read.air, read.pressure, read.ground, read.colliders.len()),
        (p.node_radius, None, None, None, 0)
    );
    assert_eq!(read.tethers, p.tethers.map(|t| t.slack));
    assert_eq!(read.shape_matching, None);
    assert_eq!(read.name, "small cloth");
    assert_eq!(read.source.as_deref(), Some("generated"));
    assert_eq!(read.conversion, vec![("bend".to_string(), "true".to_string())]);
}

#[test]
fn independent_reader_decodes_the_world_params() {
    let model = world_model();
    let file = io::encode(&model, FileFormat::Binary, Path::new("world.spring")).expect("encodes");
    let read = read(&file).expect("the document describes the file");
    let p = &model.params;
    let air = p.air.expect("air");
    let w = air.wind;
    assert_eq!(
        read.air,
        Some((
            [air.density, w.x, w.y, w.z, air.drag, air.lift, air.gusts, air.gust_period],
            air.seed
        ))
    );
    assert_eq!(read.pressure, Some((1500.0, Some(0.166))));
    assert_eq!(read.ground, Some((-0.5, [0.8, 0.25])));
    let shapes: Vec<(u32, Vec<f32>)> =
        read.colliders.iter().map(|(v, f, _)| (*v, f.clone())).collect();
    assert_eq!(
        shapes,
        vec![
            (0, vec![0.0, 1.0, 0.0, 0.0, 1.0, 1.0]),
            (1, vec![1.0, 2.0, 3.0, 0.5]),
            (2, vec![0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.25]),
            (3, vec![1.0, 0.0, 0.0, 0.5, 0.25, 2.0, 0.0, 0.0, 0.0, 1.0]),
        ]
    );
    assert_eq!(read.colliders[3].2, [0.5, 0.0]);
    assert_eq!(read.node_radius, 0.02);
    assert_eq!(read.shape_matching, Some(4.5));
    assert_eq!(read.self_collision, Some((0.03, 0.4)));
}

/// The hex dump of the worked example in docs/file-format.md, after the header.
fn documented_example() -> Vec<u8> {
    let doc = include_str!("../../../../docs/file-format.md");
    let start = doc.find("## Example").expect("example section");
    let block = &doc[start..];
    let block = &block[block.find("```text").expect("dump") + 7..];
    let block = &block[..block.find("```").expect("end of dump")];
    block
        .lines()
        .flat_map(|line| {
            line.split_whitespace()
                .take_while(|w| w.len() == 2 && w.chars().all(|c| c.is_ascii_hexdigit()))
                .map(|w| u8::from_str_radix(w, 16).expect("hex"))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_documented_example_is_what_the_encoder_writes() {
    let json = br#"{"nodes":[{"position":[0,0,0],"mass":1},{"position":[1,0,0],"mass":1}],
                    "springs":[{"a":0,"b":1,"stiffness":100}], "anchors":[0]}"#;
    let model = io::decode(json, Path::new("example.spring.json")).expect("valid");
    let file =
        io::encode(&model, FileFormat::Binary, Path::new("example.spring")).expect("encodes");
    assert_eq!(&file[24..], &documented_example()[..], "docs/file-format.md, Example");
    let doc = include_str!("../../../../docs/file-format.md");
    assert!(doc.contains(&format!("is {} bytes", file.len())), "the document states the size");
    assert!(read(&file).is_ok());
}

/// The small model as this project wrote it in format version 2 (before version 3's arrays):
/// generated from `small_model()` by the version 2 encoder and kept as it was.
const SMALL_V2: &[u8] = include_bytes!("../../../../assets/models/small-v2.spring");

#[test]
fn version_2_files_still_load() {
    assert_eq!(u32::from_le_bytes([SMALL_V2[8], SMALL_V2[9], SMALL_V2[10], SMALL_V2[11]]), 2);
    let loaded = io::decode(SMALL_V2, Path::new("small-v2.spring")).expect("version 2 loads");
    // Written when the default slack was 1%; the file keeps its own.
    let mut model = small_model();
    model.params.tethers = Some(Tethers { slack: 0.01 });
    assert_eq!(loaded, model);
    let now = io::encode(&model, FileFormat::Binary, Path::new("small.spring")).expect("encodes");
    let (v2, now) = (read(SMALL_V2).expect("version 2"), read(&now).expect("version 7"));
    assert_eq!(v2, now, "the document's layouts hold the same model");
}

/// `file` as version `version`, with its header's length and checksum made right.
fn relabelled(mut file: Vec<u8>, version: u32) -> Vec<u8> {
    file[8..12].copy_from_slice(&version.to_le_bytes());
    let len = (file.len() - 24) as u64;
    file[16..24].copy_from_slice(&len.to_le_bytes());
    let crc = crc32(&file[24..]);
    file[12..16].copy_from_slice(&crc.to_le_bytes());
    file
}

/// A file of the small model (no shape matching, no self-collision) less the params' last
/// field, the option tag just before the metadata's name, relabelled `version`: version 6
/// less its self-collision is version 5, version 5 less its shape matching version 4.
fn less_last_param(file: &[u8], version: u32) -> Vec<u8> {
    let tag = length_prefix_offsets(file)[1] - 1;
    assert_eq!(file[tag], 0, "the last parameter is absent");
    relabelled([&file[..tag], &file[tag + 1..]].concat(), version)
}

/// A version 4 file without a skin less its four skin counts: version 3.
fn as_version_3(v4: &[u8]) -> Vec<u8> {
    let counts_end = 24 + 7 * 8;
    assert!(v4[counts_end..counts_end + 32].iter().all(|&b| b == 0), "no skin");
    relabelled([&v4[..counts_end], &v4[counts_end + 32..]].concat(), 3)
}

/// A version 7 file without a rig less its rig's option tag, the last byte: version 6.
fn as_version_6(v7: &[u8]) -> Vec<u8> {
    assert_eq!(v7.last(), Some(&0), "no rig");
    relabelled(v7[..v7.len() - 1].to_vec(), 6)
}

#[test]
fn versions_3_to_6_files_still_load() {
    let model = small_model();
    let v6 = as_version_6(&small_file());
    let v5 = less_last_param(&v6, 5);
    let v4 = less_last_param(&v5, 4);
    let v3 = as_version_3(&v4);
    for (file, version) in [(&v6, 6), (&v5, 5), (&v4, 4), (&v3, 3)] {
        let loaded = io::decode(file, Path::new("older.spring")).expect("loads");
        assert_eq!(loaded, model, "version {version}");
        assert_eq!(read(file).expect("older"), read(&small_file()).expect("version 7"));
    }
}

#[test]
fn independent_reader_decodes_a_rig() {
    let mut model = small_model();
    let rest = glam::Mat4::from_translation(glam::Vec3::new(0.1, 0.2, 0.3));
    let joints = ["Root", "Shoulder"].map(|name| springmesh_core::model::Joint {
        name: name.into(),
        parent: (name == "Shoulder").then_some(0),
        inverse_bind: rest.inverse(),
    });
    let n = model.nodes.len();
    let rig = springmesh_core::model::Rig {
        joints: joints.to_vec(),
        node_joints: vec![[1, 0, 0, 0]; n],
        node_weights: (0..n)
            .map(|i| if i == 0 { [0.0; 4] } else { [0.25, 0.75, 0.0, 0.0] })
            .collect(),
        max_distance: (0..n).map(|i| (i > 1).then_some(0.01 * i as f32)).collect(),
        backstop: (0..n)
            .map(|i| {
                (i == 3).then_some(springmesh_core::model::Backstop { distance: 0.02, radius: 0.5 })
            })
            .collect(),
        colliders: vec![springmesh_core::model::JointCollider {
            joint: 1,
            collider: springmesh_core::model::Obstacle {
                shape: springmesh_core::model::Shape::Capsule {
                    a: glam::Vec3::ZERO,
                    b: glam::Vec3::Y,
                    radius: 0.1,
                },
                surface: springmesh_core::model::Surface::default(),
            },
        }],
    };
    model.rig = Some(rig.clone());
    let file = io::encode(&model, FileFormat::Binary, Path::new("rig.spring")).expect("encodes");
    assert_eq!(io::decode(&file, Path::new("rig.spring")).expect("loads"), model);
    let (joints, bindings, colliders) =
        read(&file).expect("the document describes it").rig.expect("rig");
    assert_eq!(colliders, vec![(1, (2, vec![0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.1], [0.5, 0.0]))]);
    let expected: Vec<Joint> = rig
        .joints
        .iter()
        .map(|j| (j.name.clone(), j.parent, j.inverse_bind.to_cols_array()))
        .collect();
    assert_eq!(joints, expected);
    let expected: Vec<Binding> = (0..n)
        .map(|i| {
            let backstop = rig.backstop[i].map(|b| [b.distance, b.radius]);
            (rig.node_joints[i], rig.node_weights[i], rig.max_distance[i], backstop)
        })
        .collect();
    assert_eq!(bindings, expected);
}

#[test]
fn independent_reader_decodes_a_skin() {
    let model = skinned_model();
    let file = io::encode(&model, FileFormat::Binary, Path::new("skin.spring")).expect("encodes");
    assert_eq!(io::decode(&file, Path::new("skin.spring")).expect("loads"), model);
    let (vertices, faces, uvs) =
        read(&file).expect("the document describes it").skin.expect("skin");
    let skin = model.skin.as_ref().expect("skin");
    let expected: Vec<SkinVertex> =
        skin.vertices().map(|v| (v.position.to_array(), v.nodes.map(|n| n.0), v.weights)).collect();
    assert_eq!(vertices, expected);
    let expected: Vec<_> = skin.faces.iter().map(|f| (f.nodes.map(|n| n.0), f.uvs)).collect();
    assert_eq!(faces, expected);
    assert_eq!(uvs, skin.uvs.iter().map(|u| u.to_array()).collect::<Vec<_>>());
    let json = io::encode(&model, FileFormat::Json, Path::new("skin.spring.json")).expect("json");
    assert_eq!(io::decode(&json, Path::new("skin.spring.json")).expect("loads"), model);
}

#[test]
fn version_1_files_load_without_tethers() {
    // A version 1 file is a version 2 file without the params' last field (5 bytes here: the
    // option tag and the slack), just before the metadata's name.
    let v2 = SMALL_V2.to_vec();
    let name_at = length_prefix_offsets(&v2)[1];
    assert_eq!(v2[name_at - 5..name_at], [1, 0x0a, 0xd7, 0x23, 0x3c], "tethers, slack 0.01");
    let v1 = relabelled([&v2[..name_at - 5], &v2[name_at..]].concat(), 1);
    assert_eq!(read(&v1).expect("the document describes version 1").tethers, None);
    let mut model = small_model();
    let loaded = io::decode(&v1, Path::new("old.spring")).expect("version 1 loads");
    assert_eq!(loaded.params.tethers, None, "off, the default");
    model.params.tethers = None;
    assert_eq!(loaded, model);
}
