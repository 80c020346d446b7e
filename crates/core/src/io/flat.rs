//! The version 3 and 4 payloads of a `.spring` file: one flat little-endian array per field.
//!
//! ```text
//! counts     7 × u64 (version 3) or 11 × u64 (versions 4, 5): nodes, springs, breakable,
//!            anchors, faces, face_uvs (0 or faces), uvs; version 4 adds skin_vertices,
//!            skin_faces, skin_face_uvs (0 or skin_faces), skin_uvs
//! positions  nodes × [f32; 3]        masses     nodes × f32
//! spring_a   springs × u32           spring_b   springs × u32
//! rest       springs × f32           stiffness  springs × f32    damping springs × f32
//! kind       springs × u8
//! breakable  breakable × u32 (spring indices, increasing)
//! break_min  breakable × f32 (NaN: none)   break_max breakable × f32 (NaN: none)
//! anchors    anchors × u32
//! face_nodes faces × [u32; 3]        face_uvs   face_uvs × [u32; 3]
//! uvs        uvs × [f32; 2]
//! versions 4 and 5 only (all empty when skin_vertices is 0: the model has no skin):
//! skin_positions  skin_vertices × [f32; 3]
//! skin_nodes      skin_vertices × [u32; 4]    skin_weights skin_vertices × [f32; 4]
//! skin_face_nodes skin_faces × [u32; 3]       skin_face_uvs skin_face_uvs × [u32; 3]
//! skin_uvs        skin_uvs × [f32; 2]
//! tail       params and metadata, encoded as in version 2 (version 5 adds the params' last
//!            field, shape_matching), to the end of the payload
//! ```
//!
//! Every array starts at a multiple of 8 bytes from the start of the payload (which is itself
//! at byte 24 of the file), with zero bytes between one array and the next: a reader may map
//! the file and use the arrays in place. Reading is a bounds check and a copy per array;
//! version 2's one-record-at-a-time decoding cost a second per 2.6 million springs.
//! docs/file-format.md describes the layout for readers in other languages.

use crate::model::{
    Faces, Metadata, Nodes, Rig, SKIN_WEIGHTS, SimParams, Skin, SpringColumns, SpringKind, Springs,
};
use crate::{CoreError, NodeId, SpringModel};
use glam::{Vec2, Vec3};
use std::io::Read;
use std::path::Path;

/// Arrays start at multiples of this many bytes from the start of the payload.
const ALIGN: usize = 8;

/// The number of `u64` counts that open a version 3 payload; version 4 has
/// [`SKIN_COUNTS`] more.
const COUNTS: usize = 7;
/// The counts version 4 adds for the skin.
const SKIN_COUNTS: usize = 4;

/// The face_uvs column of `faces`: one entry per face when any face has texture coordinates
/// (three u32::MAX, never a valid index, mark a face without them), else none.
fn face_uvs(faces: &Faces) -> Vec<[u32; 3]> {
    if faces.uvs().iter().any(Option::is_some) {
        faces.uvs().iter().map(|uv| uv.unwrap_or([u32::MAX; 3])).collect()
    } else {
        Vec::new()
    }
}

/// Encodes `model` as a version 5 payload; `tail` is its params and metadata, already encoded.
pub(crate) fn encode(model: &SpringModel, tail: &[u8]) -> Vec<u8> {
    let (nodes, springs, faces) = (&model.nodes, &model.springs, &model.faces);
    let breakable: Vec<usize> = (0..springs.len())
        .filter(|&i| springs.break_mins()[i].is_some() || springs.break_maxs()[i].is_some())
        .collect();
    let face_uvs_column = face_uvs(faces);
    let empty = Skin::default();
    let skin = model.skin.as_ref().unwrap_or(&empty);
    let skin_face_uvs = face_uvs(&skin.faces);
    let counts = [
        nodes.len(),
        springs.len(),
        breakable.len(),
        model.anchors.len(),
        faces.len(),
        face_uvs_column.len(),
        model.uvs.len(),
        skin.len(),
        skin.faces.len(),
        skin_face_uvs.len(),
        skin.uvs.len(),
    ];
    let size = 8 * counts.len() + 40 * nodes.len() + 48 * springs.len() + 40 * faces.len();
    let mut out = Writer(Vec::with_capacity(size + 48 * skin.len() + tail.len()));
    for n in counts {
        out.0.extend_from_slice(&(n as u64).to_le_bytes());
    }
    out.floats(nodes.positions().iter().flat_map(|p| p.to_array()));
    out.floats(nodes.masses().iter().copied());
    out.words(springs.a().iter().map(|n| n.0));
    out.words(springs.b().iter().map(|n| n.0));
    out.floats(springs.rest_lengths().iter().copied());
    out.floats(springs.stiffnesses().iter().copied());
    out.floats(springs.dampings().iter().copied());
    out.0.extend(springs.kinds().iter().map(|&k| k as u8));
    out.pad();
    out.words(breakable.iter().map(|&i| i as u32));
    let none = f32::NAN;
    out.floats(breakable.iter().map(|&i| springs.break_mins()[i].unwrap_or(none)));
    out.floats(breakable.iter().map(|&i| springs.break_maxs()[i].unwrap_or(none)));
    out.words(model.anchors.iter().map(|n| n.0));
    out.words(faces.nodes().iter().flat_map(|f| f.map(|n| n.0)));
    out.words(face_uvs_column.iter().flatten().copied());
    out.floats(model.uvs.iter().flat_map(|uv| uv.to_array()));
    out.floats(skin.positions().iter().flat_map(|p| p.to_array()));
    out.words(skin.nodes().iter().flat_map(|n| n.map(|n| n.0)));
    out.floats(skin.weights().iter().flatten().copied());
    out.words(skin.faces.nodes().iter().flat_map(|f| f.map(|n| n.0)));
    out.words(skin_face_uvs.iter().flatten().copied());
    out.floats(skin.uvs.iter().flat_map(|uv| uv.to_array()));
    out.0.extend_from_slice(tail);
    out.0
}

/// The payload being written.
struct Writer(Vec<u8>);

impl Writer {
    fn words(&mut self, values: impl Iterator<Item = u32>) {
        for v in values {
            self.0.extend_from_slice(&v.to_le_bytes());
        }
        self.pad();
    }

    fn floats(&mut self, values: impl Iterator<Item = f32>) {
        self.words(values.map(f32::to_bits));
    }

    fn pad(&mut self) {
        let padded = self.0.len().next_multiple_of(ALIGN);
        self.0.resize(padded, 0);
    }
}

/// Decodes a version 3 to 5 payload (`skin`: versions 4 and 5) from `source` into a model (not yet
/// validated); `tail` decodes the params and metadata at its end, which must use all of their
/// bytes.
pub(crate) fn decode<R: Read>(
    source: &mut Source<R>,
    skin: bool,
    tail: impl FnOnce(&[u8]) -> Result<Tail, CoreError>,
) -> Result<SpringModel, CoreError> {
    let n = COUNTS + if skin { SKIN_COUNTS } else { 0 };
    let mut counts = source.column::<8, u64>("counts", n as u64, u64::from_le_bytes)?;
    counts.resize(COUNTS + SKIN_COUNTS, 0);
    let (head, skin_counts) = counts.split_at(COUNTS);
    let &[nodes, springs, breakable, anchors, faces, face_uvs, uvs] = head else {
        return Err(source.error("the counts are missing".into()));
    };
    let positions = source.column("positions", nodes, |b: [u8; 12]| Vec3::from_array(floats(b)))?;
    let masses = source.column("masses", nodes, f32::from_le_bytes)?;

    let a = source.column("spring_a", springs, node_id)?;
    let b = source.column("spring_b", springs, node_id)?;
    let rest_length = source.column("rest", springs, f32::from_le_bytes)?;
    let stiffness = source.column("stiffness", springs, f32::from_le_bytes)?;
    let damping = source.column("damping", springs, f32::from_le_bytes)?;
    let kind = source.column("kind", springs, |[k]| k)?;
    let kind = kind
        .iter()
        .enumerate()
        .map(|(i, &k)| {
            SpringKind::ALL.get(usize::from(k)).copied().ok_or_else(|| {
                source.error(format!("spring {i}: {k} is not a known value of SpringKind"))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let breakable = source.column("breakable", breakable, u32::from_le_bytes)?;
    let break_min = source.column("break_min", breakable.len() as u64, limit)?;
    let break_max = source.column("break_max", breakable.len() as u64, limit)?;
    let mut limits = (vec![None; kind.len()], vec![None; kind.len()]);
    let mut next = 0;
    for ((&i, min), max) in breakable.iter().zip(break_min).zip(break_max) {
        let i = i as usize;
        if i < next || i >= kind.len() {
            return Err(source.error(format!(
                "breakable spring {i} is past the last spring or not after the one before"
            )));
        }
        next = i + 1;
        (limits.0[i], limits.1[i]) = (min, max);
    }

    let anchors = source.column("anchors", anchors, node_id)?;
    let (faces, uvs) = source.faces("", [faces, face_uvs, uvs])?;
    let skin = read_skin(source, skin_counts)?;
    let (params, metadata, rig) = tail(&source.rest()?)?;

    let broken = |what| source.error(format!("the {what} columns differ in length"));
    let columns = SpringColumns {
        a,
        b,
        rest_length,
        stiffness,
        damping,
        kind,
        break_min: limits.0,
        break_max: limits.1,
    };
    Ok(SpringModel {
        nodes: Nodes::from_columns(positions, masses).ok_or_else(|| broken("node"))?,
        springs: Springs::from_columns(columns).ok_or_else(|| broken("spring"))?,
        anchors,
        faces,
        uvs,
        params,
        metadata,
        skin,
        rig,
    })
}

/// What follows the arrays: the params, the metadata and (version 7) the rig.
pub(crate) type Tail = (SimParams, Metadata, Option<Rig>);

/// The skin of a version 4 payload (`None` when it has no vertices), its `counts` being
/// skin_vertices, skin_faces, skin_face_uvs and skin_uvs.
fn read_skin<R: Read>(source: &mut Source<R>, counts: &[u64]) -> Result<Option<Skin>, CoreError> {
    let &[vertices, faces, face_uvs, uvs] = counts else {
        return Err(source.error("the skin counts are missing".into()));
    };
    let positions =
        source.column("skin_positions", vertices, |b: [u8; 12]| Vec3::from_array(floats(b)))?;
    let nodes = source
        .column("skin_nodes", vertices, |b: [u8; 16]| words::<16, SKIN_WEIGHTS>(b).map(NodeId))?;
    let weights = source.column("skin_weights", vertices, floats::<16, SKIN_WEIGHTS>)?;
    let drawn = source.faces("skin_", [faces, face_uvs, uvs])?;
    if positions.is_empty() {
        return Ok(None);
    }
    let skin = Skin::from_columns(positions, nodes, weights, drawn);
    skin.map(Some).ok_or_else(|| source.error("the skin columns differ in length".into()))
}

/// Bytes read and checksummed per call to the reader: large enough that a read costs little,
/// small enough to stay in the cache while it is converted.
const CHUNK: usize = 1 << 16;

/// A payload being read: from a file, without holding all of it, or from memory. It knows how
/// many bytes remain, so that no count can make it allocate more than the payload holds, and
/// it computes the payload's CRC-32 as the bytes pass.
pub(crate) struct Source<'a, R> {
    reader: R,
    /// Payload bytes not read yet.
    left: u64,
    /// Payload bytes read so far.
    at: u64,
    crc: crc32fast::Hasher,
    chunk: Vec<u8>,
    file: &'a Path,
}

impl<'a, R: Read> Source<'a, R> {
    /// A source of the `len` payload bytes that `reader` yields.
    pub(crate) fn new(reader: R, len: u64, file: &'a Path) -> Self {
        Source { reader, left: len, at: 0, crc: crc32fast::Hasher::new(), chunk: Vec::new(), file }
    }

    pub(crate) fn error(&self, reason: String) -> CoreError {
        CoreError::Decode { file: self.file.to_path_buf(), reason }
    }

    /// Reads the next `n` bytes (`n` ≤ what is left) into the chunk buffer.
    fn fill(&mut self, n: usize) -> Result<&[u8], CoreError> {
        self.chunk.resize(n, 0);
        self.reader
            .read_exact(&mut self.chunk)
            .map_err(|cause| CoreError::Io { file: self.file.to_path_buf(), cause })?;
        self.crc.update(&self.chunk);
        self.left -= n as u64;
        self.at += n as u64;
        Ok(&self.chunk)
    }

    /// The next `count` elements of `N` bytes, each converted by `convert`, then the zero
    /// padding up to a multiple of [`ALIGN`]. The count is checked against the bytes that
    /// remain before anything is allocated from it.
    pub(crate) fn column<const N: usize, T>(
        &mut self,
        what: &str,
        count: u64,
        convert: impl Fn([u8; N]) -> T,
    ) -> Result<Vec<T>, CoreError> {
        if count.checked_mul(N as u64).is_none_or(|len| len > self.left) {
            return Err(self.error(format!(
                "{what} needs {count} × {N} bytes but only {} bytes are left",
                self.left
            )));
        }
        let mut out = Vec::with_capacity(count as usize);
        let per_chunk = (CHUNK / N).max(1);
        while out.len() < count as usize {
            let n = per_chunk.min(count as usize - out.len());
            out.extend(self.fill(n * N)?.as_chunks::<N>().0.iter().map(|c| convert(*c)));
        }
        let padding = self.at.next_multiple_of(ALIGN as u64) - self.at;
        if padding > self.left || self.fill(padding as usize)?.iter().any(|&b| b != 0) {
            return Err(self.error(format!("{what} is not followed by its zero padding")));
        }
        Ok(out)
    }

    /// The face_nodes, face_uvs and uvs columns (their names after `prefix`) of `counts`
    /// faces, face uvs (0 or the faces) and uvs.
    fn faces(&mut self, prefix: &str, counts: [u64; 3]) -> Result<(Faces, Vec<Vec2>), CoreError> {
        let [faces, face_uvs, uvs] = counts;
        if face_uvs != 0 && face_uvs != faces {
            return Err(self.error(format!(
                "{prefix}face_uvs counts {face_uvs} faces, not 0 or the {faces} faces there are"
            )));
        }
        let name = |column: &str| format!("{prefix}{column}");
        let nodes = self.column(&name("face_nodes"), faces, |b: [u8; 12]| words(b).map(NodeId))?;
        let corner_uvs = self.column(&name("face_uvs"), face_uvs, |b: [u8; 12]| {
            Some(words(b)).filter(|w: &[u32; 3]| *w != [u32::MAX; 3])
        })?;
        let corner_uvs = if corner_uvs.is_empty() { vec![None; nodes.len()] } else { corner_uvs };
        let uvs = self.column(&name("uvs"), uvs, |b: [u8; 8]| Vec2::from_array(floats(b)))?;
        let faces = Faces::from_columns(nodes, corner_uvs)
            .ok_or_else(|| self.error(format!("the {prefix}face columns differ in length")))?;
        Ok((faces, uvs))
    }

    /// Everything that is left.
    pub(crate) fn rest(&mut self) -> Result<Vec<u8>, CoreError> {
        let n = usize::try_from(self.left).map_err(|_| self.error("is too long".into()))?;
        Ok(self.fill(n)?.to_vec())
    }

    /// Reads what is left (bounded by the payload length) and returns the CRC-32 of the whole
    /// payload.
    pub(crate) fn finish(mut self) -> Result<u32, CoreError> {
        while self.left > 0 {
            let n = (self.left as usize).min(CHUNK);
            self.fill(n)?;
        }
        Ok(self.crc.finalize())
    }
}

fn words<const N: usize, const W: usize>(b: [u8; N]) -> [u32; W] {
    std::array::from_fn(|i| {
        u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
    })
}

fn floats<const N: usize, const W: usize>(b: [u8; N]) -> [f32; W] {
    words::<N, W>(b).map(f32::from_bits)
}

fn node_id(b: [u8; 4]) -> NodeId {
    NodeId(u32::from_le_bytes(b))
}

/// A break limit: NaN is none.
fn limit(b: [u8; 4]) -> Option<f32> {
    Some(f32::from_le_bytes(b)).filter(|v| !v.is_nan())
}

#[cfg(test)]
mod tests {
    use crate::ValidModel;
    use crate::io::binary::{self, HEADER_LEN};
    use crate::{CoreError, Face, Node, NodeId, Spring, SpringKind, SpringModel};
    use glam::{Vec2, Vec3};
    use std::path::Path;

    /// Three nodes, two springs (the second with an upper break limit only), two faces of
    /// which only the first has texture coordinates.
    fn model() -> SpringModel {
        let mut m = SpringModel::default();
        for p in [Vec3::ZERO, Vec3::X, Vec3::Y] {
            m.nodes.push(Node { position: p, mass: 0.5 });
        }
        m.springs.push(Spring::new(NodeId(0), NodeId(1), 1.0, 10.0, SpringKind::Stretch));
        let mut limited = Spring::new(NodeId(1), NodeId(2), 1.5, 20.0, SpringKind::Bend);
        limited.break_max = Some(2.0);
        m.springs.push(limited);
        m.faces.push(Face { nodes: [0, 1, 2].map(NodeId), uvs: Some([0, 1, 0]) });
        m.faces.push(Face { nodes: [0, 2, 1].map(NodeId), uvs: None });
        m.uvs = vec![Vec2::ZERO, Vec2::ONE];
        m
    }

    fn encode(m: &SpringModel) -> Vec<u8> {
        binary::encode(m, Path::new("t.spring")).expect("encodes")
    }

    fn decode(bytes: &[u8]) -> Result<SpringModel, CoreError> {
        binary::decode(bytes, Path::new("t.spring")).map(ValidModel::into_inner)
    }

    /// Rewrites the checksum after an edit of the payload.
    fn reseal(bytes: &mut [u8]) {
        let crc = crc32fast::hash(&bytes[HEADER_LEN..]);
        bytes[12..16].copy_from_slice(&crc.to_le_bytes());
    }

    /// The offset in the file of the array that starts `payload_offset` into the payload.
    fn at(payload_offset: usize) -> usize {
        HEADER_LEN + payload_offset
    }

    #[test]
    fn mixed_texture_coordinates_and_sparse_break_limits_round_trip() {
        let m = model();
        let bytes = encode(&m);
        assert_eq!(decode(&bytes).expect("valid"), m);
        // Counts: 3 nodes, 2 springs, 1 breakable, 0 anchors, 2 faces, 2 face_uvs, 2 uvs, and
        // no skin.
        let counts: Vec<u64> = bytes[at(0)..at(88)]
            .chunks(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        assert_eq!(counts, [3, 2, 1, 0, 2, 2, 2, 0, 0, 0, 0]);
    }

    #[test]
    fn every_array_starts_at_a_multiple_of_eight() {
        // Then breakable, break_min, break_max 4 → 8 each, face_nodes 24, face_uvs 24, uvs 16.
        let arrays = BREAKABLE + 3 * 8 + 24 + 24 + 16;
        let bytes = encode(&model());
        // The breakable array holds spring 1, at its place after the kinds.
        let breakable = BREAKABLE;
        assert_eq!(bytes[at(breakable)..at(breakable + 8)], [1, 0, 0, 0, 0, 0, 0, 0]);
        // Its break_min is NaN (none), its break_max 2.0.
        let min =
            f32::from_le_bytes(bytes[at(breakable + 8)..at(breakable + 12)].try_into().expect("4"));
        assert!(min.is_nan());
        assert_eq!(bytes[at(breakable + 16)..at(breakable + 20)], 2.0f32.to_le_bytes());
        // The params start right after the uvs (the skin's arrays are empty): gravity's x,
        // then -9.81.
        assert_eq!(bytes[at(arrays + 4)..at(arrays + 8)], (-9.81f32).to_le_bytes());
    }

    /// Where the breakable springs' array starts in the model's payload: after the 11 counts,
    /// positions (36 bytes, padded to 40), masses (12, to 16), five spring columns of 8 and
    /// the kinds (2, to 8).
    const BREAKABLE: usize = 88 + 40 + 16 + 5 * 8 + 8;

    /// The error, in words, of the model's file after `edit` and a new checksum.
    fn error_after(edit: impl FnOnce(&mut [u8])) -> String {
        let mut bytes = encode(&model());
        edit(&mut bytes);
        reseal(&mut bytes);
        decode(&bytes).expect_err("refused").to_string()
    }

    #[test]
    fn padding_that_is_not_zero_is_refused() {
        let err = error_after(|b| b[at(88 + 36)] = 1); // the padding after the positions
        assert!(err.contains("positions is not followed by its zero padding"), "{err}");
    }

    #[test]
    fn breakable_springs_out_of_range_are_refused() {
        let err = error_after(|b| b[at(BREAKABLE)] = 2); // there are two springs: 0 and 1
        assert!(err.contains("breakable spring 2"), "{err}");
    }

    #[test]
    fn a_bad_checksum_is_reported_whatever_else_is_wrong() {
        let mut bytes = encode(&model());
        bytes[at(8)..at(16)].copy_from_slice(&u64::MAX.to_le_bytes()); // the spring count
        let err = decode(&bytes).expect_err("corrupt");
        assert!(matches!(err, CoreError::Checksum { .. }), "{err:?}");
        reseal(&mut bytes);
        let err = decode(&bytes).expect_err("corrupt");
        assert!(err.to_string().contains("spring_a needs"), "{err}");
    }
}
