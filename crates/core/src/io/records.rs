//! The records of a `.spring` payload (docs/file-format.md, "Records"), written and read by
//! our own code: the parameters and metadata of every version, and the whole model of
//! versions 1 and 2.
//!
//! The encoding is serde's data model laid out byte after byte, little endian, with no names,
//! padding or alignment: integers and floats at their width (`bool` one byte, 0 or 1); a
//! string or byte string as a `u64` length and its bytes; `Option` as a `u8` tag, `0` absent
//! or `1` followed by the value; a sequence or map as a `u64` count and its elements (a map's
//! as key, value pairs); tuples, arrays and structs as their fields in order, with no count;
//! an enum as its variant's index (`u32`) followed by the variant's fields. It is the layout
//! version 1 of the format was first written in (by bincode 2's fixed-width little-endian
//! configuration, which this module replaces: bincode is no longer maintained), so every
//! version reads the same way and the bytes written are unchanged.
//!
//! Reading never trusts a count to size an allocation: a list or string longer than the bytes
//! left is an error before anything is allocated, and sequences grow as their elements decode
//! ([`crate::bounded`]).

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};
use std::fmt;

/// What went wrong writing or reading a record, in words.
#[derive(Debug)]
pub(crate) struct RecordError(pub String);

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RecordError {}

impl ser::Error for RecordError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        RecordError(msg.to_string())
    }
}

impl de::Error for RecordError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        RecordError(msg.to_string())
    }
}

type Result<T> = std::result::Result<T, RecordError>;

/// `value` encoded as a record.
pub(crate) fn to_bytes<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    let mut writer = Writer(Vec::new());
    value.serialize(&mut writer)?;
    Ok(writer.0)
}

/// The record `bytes` decoded as one `T`, using every byte.
pub(crate) fn from_bytes<'de, T: de::Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    let mut reader = Reader { bytes };
    let value = T::deserialize(&mut reader)?;
    if !reader.bytes.is_empty() {
        let left = reader.bytes.len();
        return Err(RecordError(format!("{left} unexpected bytes after the end of the model")));
    }
    Ok(value)
}

/// Writes records into a byte vector.
struct Writer(Vec<u8>);

impl Writer {
    fn len(&mut self, n: usize) {
        self.0.extend_from_slice(&(n as u64).to_le_bytes());
    }
}

/// A sequence or map written with its count up front.
fn counted(len: Option<usize>) -> Result<usize> {
    len.ok_or_else(|| RecordError("a list of unknown length cannot be written".into()))
}

/// Writes a fixed-width number little endian.
macro_rules! write_le {
    ($($method:ident $t:ty),*) => {$(
        fn $method(self, v: $t) -> Result<()> {
            self.0.extend_from_slice(&v.to_le_bytes());
            Ok(())
        }
    )*};
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = RecordError;
    type SerializeSeq = &'a mut Writer;
    type SerializeTuple = &'a mut Writer;
    type SerializeTupleStruct = &'a mut Writer;
    type SerializeTupleVariant = &'a mut Writer;
    type SerializeMap = &'a mut Writer;
    type SerializeStruct = &'a mut Writer;
    type SerializeStructVariant = &'a mut Writer;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.0.push(u8::from(v));
        Ok(())
    }
    write_le!(
        serialize_i8 i8, serialize_i16 i16, serialize_i32 i32, serialize_i64 i64,
        serialize_u16 u16, serialize_u32 u32, serialize_u64 u64, serialize_f32 f32, serialize_f64 f64
    );
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.0.push(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.serialize_bytes(v.as_bytes())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.len(v.len());
        self.0.extend_from_slice(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<()> {
        self.0.push(0);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        self.0.push(1);
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<()> {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, index: u32, _: &'static str) -> Result<()> {
        self.serialize_u32(index)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<()> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        value: &T,
    ) -> Result<()> {
        self.serialize_u32(index)?;
        value.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self> {
        self.len(counted(len)?);
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self> {
        self.serialize_u32(index)?;
        Ok(self)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self> {
        self.len(counted(len)?);
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self> {
        self.serialize_tuple_variant(name, index, variant, len)
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The compound records: their elements one after the other.
macro_rules! elements {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for &mut Writer {
            type Ok = ();
            type Error = RecordError;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                value.serialize(&mut **self)
            }
            fn end(self) -> Result<()> {
                Ok(())
            }
        }
    )*};
}
elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for &mut Writer {
    type Ok = ();
    type Error = RecordError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        key.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}

/// The structs: their fields in order, without names.
macro_rules! fields {
    ($($trait:ident),*) => {$(
        impl ser::$trait for &mut Writer {
            type Ok = ();
            type Error = RecordError;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                _: &'static str,
                value: &T,
            ) -> Result<()> {
                value.serialize(&mut **self)
            }
            fn end(self) -> Result<()> {
                Ok(())
            }
        }
    )*};
}
fields!(SerializeStruct, SerializeStructVariant);

/// Reads records from the bytes not read yet.
struct Reader<'de> {
    bytes: &'de [u8],
}

impl<'de> Reader<'de> {
    fn take(&mut self, n: usize) -> Result<&'de [u8]> {
        if n > self.bytes.len() {
            let additional = n - self.bytes.len();
            return Err(RecordError(format!(
                "the payload ends {additional} bytes before the model does"
            )));
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    /// A count of elements each at least one byte long: no more than the bytes left.
    fn count(&mut self) -> Result<usize> {
        let n = u64::from_le_bytes(self.array()?);
        if n > self.bytes.len() as u64 {
            return Err(RecordError("a list is longer than the file could hold".into()));
        }
        Ok(n as usize)
    }

    fn tag(&mut self) -> Result<bool> {
        match self.take(1)?[0] {
            0 => Ok(false),
            1 => Ok(true),
            found => Err(RecordError(format!(
                "an optional field's tag is {found}, not 0 (absent) or 1 (present)"
            ))),
        }
    }
}

/// Reads a fixed-width little-endian number and hands it to the visitor.
macro_rules! number {
    ($($method:ident $visit:ident $t:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            visitor.$visit(<$t>::from_le_bytes(self.array()?))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = RecordError;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(RecordError(
            "the payload does not follow the .spring layout (docs/file-format.md)".into(),
        ))
    }
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.take(1)?[0] {
            0 => visitor.visit_bool(false),
            1 => visitor.visit_bool(true),
            b => Err(RecordError(format!("{b} is not a boolean (0 or 1)"))),
        }
    }
    number!(
        deserialize_i8 visit_i8 i8, deserialize_i16 visit_i16 i16, deserialize_i32 visit_i32 i32,
        deserialize_i64 visit_i64 i64, deserialize_u8 visit_u8 u8, deserialize_u16 visit_u16 u16,
        deserialize_u32 visit_u32 u32, deserialize_u64 visit_u64 u64,
        deserialize_f32 visit_f32 f32, deserialize_f64 visit_f64 f64
    );
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let n = self.count()?;
        let bytes = self.take(n)?;
        let text = std::str::from_utf8(bytes)
            .map_err(|_| RecordError("a text field is not valid UTF-8".into()))?;
        visitor.visit_borrowed_str(text)
    }
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let n = self.count()?;
        visitor.visit_borrowed_bytes(self.take(n)?)
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.tag()? { visitor.visit_some(self) } else { visitor.visit_none() }
    }
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &str, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &str, v: V) -> Result<V::Value> {
        v.visit_newtype_struct(self)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let left = self.count()?;
        visitor.visit_seq(Elements { reader: self, left })
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(Elements { reader: self, left: len })
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_tuple(len, visitor)
    }
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let left = self.count()?;
        visitor.visit_map(Elements { reader: self, left })
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_tuple(fields.len(), visitor)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(Variant { reader: self, name })
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_u32(visitor)
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The elements of a sequence, tuple, struct or map: `left` more to read.
struct Elements<'a, 'de> {
    reader: &'a mut Reader<'de>,
    left: usize,
}

impl<'de> Elements<'_, 'de> {
    /// The next element (or a map's next key), `None` after the last.
    fn next<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.reader).map(Some)
    }
}

impl<'de> de::SeqAccess<'de> for Elements<'_, 'de> {
    type Error = RecordError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        self.next(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left.min(self.reader.bytes.len()))
    }
}

impl<'de> de::MapAccess<'de> for Elements<'_, 'de> {
    type Error = RecordError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        self.next(seed)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.reader)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left.min(self.reader.bytes.len()))
    }
}

/// An enum: its variant's index, then the variant's fields.
struct Variant<'a, 'de> {
    reader: &'a mut Reader<'de>,
    name: &'static str,
}

impl<'a, 'de> de::EnumAccess<'de> for Variant<'a, 'de> {
    type Error = RecordError;
    type Variant = &'a mut Reader<'de>;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self::Variant)> {
        let index = u32::from_le_bytes(self.reader.array()?);
        let name = self.name;
        let value = seed.deserialize(index.into_deserializer()).map_err(|_: RecordError| {
            RecordError(format!("{index} is not a known value of {name}"))
        })?;
        Ok((value, self.reader))
    }
}

impl<'de> de::VariantAccess<'de> for &mut Reader<'de> {
    type Error = RecordError;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_tuple(self, len, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_tuple(self, fields.len(), visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    enum Kind {
        A,
        B { x: f32 },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Record {
        v: [f32; 3],
        n: u32,
        o: Option<u64>,
        s: String,
        l: Vec<u8>,
        m: BTreeMap<String, String>,
        k: Kind,
        b: bool,
    }

    #[test]
    fn every_byte_is_the_documented_one_and_reads_back() {
        let record = Record {
            v: [1.0, 0.0, -2.0],
            n: 7,
            o: Some(9),
            s: "ab".into(),
            l: vec![5, 6],
            m: BTreeMap::from([("k".to_string(), "v".to_string())]),
            k: Kind::B { x: 0.5 },
            b: true,
        };
        let bytes = to_bytes(&record).expect("writes");
        let mut want = Vec::new();
        for f in [1.0f32, 0.0, -2.0] {
            want.extend_from_slice(&f.to_le_bytes()); // [f32; 3]: no count
        }
        want.extend_from_slice(&7u32.to_le_bytes());
        want.push(1); // Some
        want.extend_from_slice(&9u64.to_le_bytes());
        want.extend_from_slice(&2u64.to_le_bytes()); // "ab"
        want.extend_from_slice(b"ab");
        want.extend_from_slice(&2u64.to_le_bytes()); // [5, 6]
        want.extend_from_slice(&[5, 6]);
        want.extend_from_slice(&1u64.to_le_bytes()); // one pair
        want.extend_from_slice(&1u64.to_le_bytes());
        want.extend_from_slice(b"k");
        want.extend_from_slice(&1u64.to_le_bytes());
        want.extend_from_slice(b"v");
        want.extend_from_slice(&1u32.to_le_bytes()); // Kind::B
        want.extend_from_slice(&0.5f32.to_le_bytes());
        want.push(1); // true
        assert_eq!(bytes, want);
        assert_eq!(from_bytes::<Record>(&bytes).expect("reads"), record);
    }

    #[test]
    fn damaged_records_are_errors_in_words() {
        let bytes = to_bytes(&Record {
            v: [0.0; 3],
            n: 0,
            o: None,
            s: String::new(),
            l: Vec::new(),
            m: BTreeMap::new(),
            k: Kind::A,
            b: false,
        })
        .expect("writes");
        let error = |b: &[u8]| from_bytes::<Record>(b).expect_err("damaged").to_string();
        assert_eq!(error(&bytes[..10]), "the payload ends 2 bytes before the model does");
        let mut tag = bytes.clone();
        tag[16] = 7;
        assert!(error(&tag).starts_with("an optional field's tag is 7"), "{}", error(&tag));
        let mut count = bytes.clone();
        count[17..25].copy_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(error(&count), "a list is longer than the file could hold");
        let mut variant = bytes.clone();
        let at = variant.len() - 5;
        variant[at] = 9;
        assert_eq!(error(&variant), "9 is not a known value of Kind");
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(error(&longer), "1 unexpected bytes after the end of the model");
    }
}
