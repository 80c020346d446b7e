//! Integration tests of the `springmesh` command: every command and flag family, exact JSON
//! on small authored meshes, bad input, and the exit codes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code.

#[path = "../../../core/tests/common/mod.rs"]
mod common;

mod bad_input;
mod check;
mod clips;
mod convert;
mod info;
mod sample;
mod settle;
mod simulate;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What a run printed and returned.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The stdout as the one JSON object it must be.
    pub fn json(&self) -> Value {
        let lines: Vec<&str> = self.stdout.lines().collect();
        assert_eq!(lines.len(), 1, "one JSON object on one line: {}", self.stdout);
        serde_json::from_str(lines[0]).unwrap_or_else(|e| panic!("{e}: {}", self.stdout))
    }

    /// Asserts a successful run and returns it.
    pub fn ok(self) -> Run {
        assert_eq!(self.code, 0, "stderr: {}\nstdout: {}", self.stderr, self.stdout);
        self
    }
}

/// Runs `springmesh args...`.
pub fn springmesh(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_springmesh")).args(args).output().expect("runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A fresh directory for one test.
pub fn scratch(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("springmesh-cli-{}", std::process::id())).join(test);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` to `dir/name`; the path as a string.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.display().to_string()
}

/// `dir/name` as a string.
pub fn at(dir: &Path, name: &str) -> String {
    dir.join(name).display().to_string()
}

/// Two triangles sharing an edge (4 nodes, 5 stretch, 1 bend), as an OBJ.
pub const TWO_TRIANGLES: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 3 2 4\n";

/// A closed unit cube of 12 triangles (8 nodes, 18 stretch, 7 bend; see the convert tests).
pub const CUBE: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 0 0 1\nv 1 0 1\nv 0 1 1\nv 1 1 1\n\
f 1 4 2\nf 1 3 4\nf 1 2 6\nf 1 6 5\nf 1 5 7\nf 1 7 3\nf 2 4 8\nf 2 8 6\nf 3 8 4\nf 3 7 8\nf 5 6 8\nf 5 8 7\n";

/// PC2, read as its layout says (little endian): frames of (x, y, z) per point.
pub fn read_pc2(bytes: &[u8]) -> Vec<Vec<[f32; 3]>> {
    assert_eq!(&bytes[..12], b"POINTCACHE2\0");
    let int = |at: usize| i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let float = |at: usize| f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(int(12), 1, "version");
    let (points, samples) = (int(16) as usize, int(28) as usize);
    assert_eq!((float(20), float(24)), (0.0, 1.0), "start frame 0, one sample per frame");
    assert_eq!(bytes.len(), 32 + samples * points * 12);
    (0..samples)
        .map(|f| {
            (0..points)
                .map(|p| std::array::from_fn(|k| float(32 + ((f * points + p) * 3 + k) * 4)))
                .collect()
        })
        .collect()
}
