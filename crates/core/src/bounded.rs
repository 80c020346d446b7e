//! Deserializers that never trust a length prefix to size an allocation.
//!
//! A `.spring` payload announces the length of every sequence and string before its contents.
//! serde's own `Vec` preallocates up to 1 MiB from that announcement, and a `String` read as
//! owned could be allocated whole, so a 100-byte hostile file could claim a string of 2⁶⁰
//! bytes. The helpers here grow sequences only as elements actually decode, and read strings
//! through `deserialize_str`, which the record reader ([`crate::io`]) answers by borrowing
//! from the input slice (failing if the bytes are not there) before anything is copied. Every allocation made while decoding is
//! thereby bounded by what the file really contains.
//!
//! On the wire nothing changes: these are the standard encodings of `Vec<T>`, `String`,
//! `Option<String>` and maps.

use serde::de::{Deserialize, Deserializer, Error, MapAccess, SeqAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

/// A `Vec<T>` grown element by element, with no preallocation from the length prefix.
pub(crate) fn vec<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct SeqVisitor<T>(PhantomData<T>);

    impl<'de, T: Deserialize<'de>> Visitor<'de> for SeqVisitor<T> {
        type Value = Vec<T>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a sequence")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut out = Vec::new();
            while let Some(item) = seq.next_element()? {
                out.push(item);
            }
            Ok(out)
        }
    }

    d.deserialize_seq(SeqVisitor(PhantomData))
}

/// A string read through `deserialize_str`, so a binary decoder checks that its bytes exist
/// before anything is allocated.
struct Text(String);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct StrVisitor;

        impl Visitor<'_> for StrVisitor {
            type Value = Text;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }

            fn visit_str<E: Error>(self, v: &str) -> Result<Text, E> {
                Ok(Text(v.to_owned()))
            }

            fn visit_string<E: Error>(self, v: String) -> Result<Text, E> {
                Ok(Text(v))
            }
        }

        d.deserialize_str(StrVisitor)
    }
}

/// A `String`, bounded as [`Text`] is.
pub(crate) fn string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Text::deserialize(d).map(|t| t.0)
}

/// An `Option<String>`, bounded as [`Text`] is.
pub(crate) fn option_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Option::<Text>::deserialize(d).map(|o| o.map(|t| t.0))
}

/// A `BTreeMap<String, String>`, bounded as [`Text`] is; a map has no preallocation.
pub(crate) fn string_map<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<String, String>, D::Error> {
    struct MapVisitor;

    impl<'de> Visitor<'de> for MapVisitor {
        type Value = BTreeMap<String, String>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a map of strings to strings")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some((k, v)) = map.next_entry::<Text, Text>()? {
                out.insert(k.0, v.0);
            }
            Ok(out)
        }
    }

    d.deserialize_map(MapVisitor)
}
