//! Mutation fuzzing of file formats, for the hostile-file harnesses (issue 16, acceptance 2):
//! a valid seed file is changed by a few random edits — bit flips, byte writes, insertions,
//! deletions, duplicated runs, and numbers in text replaced by extreme ones — and the library
//! must answer every result with a value or an error, never a panic, an abort or a hang.
//!
//! Shared by core's and convert's tests (`#[path]`); the cases come from proptest, so a failure
//! shrinks to a small list of edits. `SPRINGMESH_FUZZ_CASES=N` (default: the caller's bounded
//! count for CI) and `SPRINGMESH_FUZZ_SEED=S` (default 1) run longer or other cases.

use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// Numbers that break careless readers: zero, negative, huge, tiny, not numbers, integer edges.
const EXTREMES: [&str; 14] = [
    "0",
    "-1",
    "1e38",
    "-1e39",
    "nan",
    "inf",
    "4294967295",
    "4294967296",
    "-2147483649",
    "1e-45",
    "99999999999999999999",
    "0.5",
    "134217728",
    "",
];

/// One edit of a file.
#[derive(Clone, Debug)]
pub enum Edit {
    /// Flip bit `bit` of the byte at `at`.
    Flip { at: u64, bit: u8 },
    /// Write `byte` at `at`.
    Set { at: u64, byte: u8 },
    /// Insert `bytes` before `at`.
    Insert { at: u64, bytes: Vec<u8> },
    /// Delete up to `len` bytes from `at`.
    Delete { at: u64, len: usize },
    /// Copy up to `len` bytes from `from` to before `to`, `times` times.
    Repeat { from: u64, len: usize, to: u64, times: usize },
    /// Replace the number at or after `at` (a run of digits, signs, dots and exponents) by one of
    /// [`EXTREMES`].
    Number { at: u64, extreme: u64 },
}

/// A few edits.
pub fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        1 => (any::<u64>(), 0u8..8).prop_map(|(at, bit)| Edit::Flip { at, bit }),
        1 => (any::<u64>(), any::<u8>()).prop_map(|(at, byte)| Edit::Set { at, byte }),
        1 => (any::<u64>(), prop::collection::vec(any::<u8>(), 1..16))
            .prop_map(|(at, bytes)| Edit::Insert { at, bytes }),
        1 => (any::<u64>(), 1usize..64).prop_map(|(at, len)| Edit::Delete { at, len }),
        1 => (any::<u64>(), 1usize..256, any::<u64>(), 1usize..64)
            .prop_map(|(from, len, to, times)| Edit::Repeat { from, len, to, times }),
        3 => (any::<u64>(), any::<u64>()).prop_map(|(at, extreme)| Edit::Number { at, extreme }),
    ];
    prop::collection::vec(edit, 1..6)
}

/// A position among `size` (> 0) picked by `x`: `x` is a fraction of the range in 64-bit
/// fixed point, so the same edit lands at the same relative place in a longer file.
fn pick(x: u64, size: usize) -> usize {
    ((size as u128 * u128::from(x)) >> 64) as usize
}

/// `seed` with `edits` applied in order.
pub fn apply(seed: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut b = seed.to_vec();
    for edit in edits {
        // Positions index the file as it is at that edit (one past the end for insertions).
        let at = |i: &u64, len: usize| pick(*i, len + 1);
        match edit {
            Edit::Flip { at: i, bit } if !b.is_empty() => {
                let k = pick(*i, b.len());
                b[k] ^= 1 << bit;
            }
            Edit::Set { at: i, byte } if !b.is_empty() => {
                let k = pick(*i, b.len());
                b[k] = *byte;
            }
            Edit::Insert { at: i, bytes } => {
                let k = at(i, b.len());
                b.splice(k..k, bytes.iter().copied());
            }
            Edit::Delete { at: i, len } => {
                let k = at(i, b.len());
                b.drain(k..(k + len).min(b.len()));
            }
            Edit::Repeat { from, len, to, times } if !b.is_empty() => {
                let k = pick(*from, b.len());
                let run: Vec<u8> = b[k..(k + len).min(b.len())].to_vec();
                let t = at(to, b.len());
                b.splice(t..t, run.iter().copied().cycle().take(run.len() * times));
            }
            Edit::Number { at: i, extreme } => {
                let is_number = |c: u8| c.is_ascii_digit() || b"+-.eE".contains(&c);
                let k = pick(*i, b.len() + 1).min(b.len());
                let Some(start) = (k..b.len()).find(|&j| b[j].is_ascii_digit()) else {
                    continue;
                };
                let start =
                    (0..start).rev().take_while(|&j| is_number(b[j])).last().unwrap_or(start);
                let end = (start..b.len()).find(|&j| !is_number(b[j])).unwrap_or(b.len());
                let with = EXTREMES[pick(*extreme, EXTREMES.len())].as_bytes();
                b.splice(start..end, with.iter().copied());
            }
            _ => {}
        }
    }
    b
}

/// Proptest's settings for a harness: `SPRINGMESH_FUZZ_CASES` cases (`default_cases` if unset)
/// from `SPRINGMESH_FUZZ_SEED` (1 if unset).
pub fn config(default_cases: u32) -> ProptestConfig {
    let var = |name: &str| std::env::var(name).ok().and_then(|n| n.parse::<u64>().ok());
    ProptestConfig {
        cases: var("SPRINGMESH_FUZZ_CASES").map_or(default_cases, |n| n as u32),
        rng_seed: RngSeed::Fixed(var("SPRINGMESH_FUZZ_SEED").unwrap_or(1)),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_do_what_they_say() {
        let seed = b"v 1.5 2 3\n";
        // Fractions of the range: 1 << 62 is a quarter, 1 << 63 a half.
        let number = |extreme| Edit::Number { at: 0, extreme };
        assert_eq!(apply(seed, &[number(1 << 62)]), b"v -1e39 2 3\n".to_vec());
        let half = Edit::Number { at: 1 << 63, extreme: 0 };
        assert_eq!(apply(seed, &[half]), b"v 1.5 0 3\n".to_vec());
        assert_eq!(apply(seed, &[Edit::Delete { at: 0, len: 2 }]), b"1.5 2 3\n".to_vec());
        assert_eq!(apply(seed, &[Edit::Flip { at: 0, bit: 5 }]), b"V 1.5 2 3\n".to_vec());
        let repeat = Edit::Repeat { from: 0, len: 2, to: 0, times: 2 };
        assert_eq!(apply(b"ab", &[repeat]), b"ababab".to_vec());
        assert_eq!(apply(b"", &[Edit::Insert { at: 0, bytes: vec![1] }]), vec![1]);
    }
}
