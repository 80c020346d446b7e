//! The binary `.spring` container: a fixed 24-byte header, then the model.
//!
//! ```text
//! offset size field
//!      0    8 magic        89 53 50 52 0D 0A 1A 0A  ("\x89SPR\r\n\x1a\n")
//!      8    4 version      u32 little endian, 7 (1 to 6 are still read)
//!     12    4 crc32        u32 little endian, CRC-32 (IEEE) of the payload
//!     16    8 payload_len  u64 little endian, bytes after the header
//!     24    … payload      versions 3 to 7: flat arrays per field ([`super::flat`]; 4 adds
//!                          the skin), then the params and metadata (and from version 7 the
//!                          rig) as records ([`super::records`]); versions 1 and 2: the whole
//!                          model as one record
//! ```
//!
//! docs/file-format.md describes the payload byte by byte. The magic's first byte has its high
//! bit set and the CR LF / LF pair catches files mangled by text-mode transfers, as in PNG.

use super::flat;
use super::records;
use super::rig::RigFile;
use super::schema::{LegacyFile, SimParamsV1, SimParamsV4, SimParamsV5};
use crate::model::{Metadata, Rig, SimParams};
use crate::{CoreError, SpringModel, ValidModel};
use std::io::Read;
use std::path::Path;

/// The first eight bytes of every `.spring` file.
pub const MAGIC: [u8; 8] = *b"\x89SPR\r\n\x1a\n";

/// The format version this build writes, and the newest it reads. Version 7 adds the rig (a
/// skeleton the model is worn on); version 6 the parameters' `self_collision`; version 5 `shape_matching`; version 4 the skin (a surface
/// drawn over a cage); version 3 stores the nodes, springs and faces as flat arrays; version 2
/// added the parameters' `tethers`; versions 1 to 5 are read too.
pub const FORMAT_VERSION: u32 = 7;

/// Size of the fixed header in bytes.
pub const HEADER_LEN: usize = 24;

/// The header fields, read without interpretation.
struct Header {
    magic: [u8; 8],
    version: u32,
    crc32: u32,
    payload_len: u64,
}

impl Header {
    fn parse(h: &[u8; HEADER_LEN]) -> Header {
        let mut magic = [0; 8];
        magic.copy_from_slice(&h[0..8]);
        let mut len = [0; 8];
        len.copy_from_slice(&h[16..24]);
        Header {
            magic,
            version: u32::from_le_bytes([h[8], h[9], h[10], h[11]]),
            crc32: u32::from_le_bytes([h[12], h[13], h[14], h[15]]),
            payload_len: u64::from_le_bytes(len),
        }
    }
}

/// Encodes `model` as a complete `.spring` file. `file` only names the target in errors.
pub fn encode(model: &SpringModel, file: &Path) -> Result<Vec<u8>, CoreError> {
    let rig = model.rig.as_ref().map(RigFile::from);
    let tail = records::to_bytes(&(&model.params, &model.metadata, &rig))
        .map_err(|e| CoreError::Encode { file: file.to_path_buf(), reason: e.to_string() })?;
    let payload = flat::encode(model, &tail);
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&payload);
    Ok(out)
}

/// Decodes a complete `.spring` file: checks magic, version, length and checksum, decodes
/// and validates the model. `file` only names the source in errors.
pub fn decode(bytes: &[u8], file: &Path) -> Result<ValidModel, CoreError> {
    read(bytes, bytes.len() as u64, file)
}

/// Reads a `.spring` file of `len` bytes from `reader`, as [`decode`] does, without holding
/// the whole file in memory: version 3's arrays go straight into the model's columns. The
/// checksum is computed as the payload passes; a payload that does not match it is an error
/// (a [`CoreError::Checksum`], whatever else is wrong with it) and no model is returned.
pub fn read(mut reader: impl Read, len: u64, file: &Path) -> Result<ValidModel, CoreError> {
    let file_buf = || file.to_path_buf();
    if len < HEADER_LEN as u64 {
        let found = len as usize;
        return Err(CoreError::TooShort { file: file_buf(), expected: HEADER_LEN, found });
    }
    let mut header = [0; HEADER_LEN];
    reader.read_exact(&mut header).map_err(|cause| CoreError::Io { file: file_buf(), cause })?;
    let header = Header::parse(&header);
    if header.magic != MAGIC {
        return Err(CoreError::BadMagic { file: file_buf(), expected: MAGIC, found: header.magic });
    }
    if header.version == 0 {
        return Err(CoreError::ZeroVersion { file: file_buf() });
    }
    if header.version > FORMAT_VERSION {
        return Err(CoreError::NewerVersion {
            file: file_buf(),
            supported: FORMAT_VERSION,
            found: header.version,
        });
    }
    let found = len - HEADER_LEN as u64;
    if header.payload_len != found {
        return Err(CoreError::LengthMismatch {
            file: file_buf(),
            expected: header.payload_len,
            found,
        });
    }
    let mut source = flat::Source::new(reader, found, file);
    let model = match header.version {
        1 => source.rest().and_then(|payload| {
            let v1 = record::<LegacyFile<SimParamsV1>>(&payload, file)?;
            Ok(SpringModel::from(v1.upgraded()))
        }),
        2 => source.rest().and_then(|payload| {
            let v2 = record::<LegacyFile<SimParamsV4>>(&payload, file)?;
            Ok(SpringModel::from(v2.upgraded()))
        }),
        3 | 4 => flat::decode(&mut source, header.version == 4, |tail| {
            let (params, metadata) = record::<(SimParamsV4, Metadata)>(tail, file)?;
            Ok((params.into(), metadata, None))
        }),
        5 => flat::decode(&mut source, true, |tail| {
            let (params, metadata) = record::<(SimParamsV5, Metadata)>(tail, file)?;
            Ok((params.into(), metadata, None))
        }),
        6 => flat::decode(&mut source, true, |tail| {
            let (params, metadata) = record::<(SimParams, Metadata)>(tail, file)?;
            Ok((params, metadata, None))
        }),
        _ => flat::decode(&mut source, true, |tail| {
            let (params, metadata, rig) =
                record::<(SimParams, Metadata, Option<RigFile>)>(tail, file)?;
            Ok((params, metadata, rig.map(Rig::from)))
        }),
    };
    let actual = source.finish()?;
    if actual != header.crc32 {
        return Err(CoreError::Checksum {
            file: file_buf(),
            expected: header.crc32,
            found: actual,
        });
    }
    let model = model?;
    model.validate().map_err(|problems| CoreError::InvalidFile { file: file_buf(), problems })?;
    Ok(ValidModel::validated(model))
}

/// Decodes `bytes` as one `T` record ([`super::records`]), using every byte.
fn record<T: serde::de::DeserializeOwned>(bytes: &[u8], file: &Path) -> Result<T, CoreError> {
    records::from_bytes(bytes)
        .map_err(|e| CoreError::Decode { file: file.to_path_buf(), reason: e.to_string() })
}
