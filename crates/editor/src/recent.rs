//! The recently opened files, kept between runs in eframe's storage.

use std::path::{Path, PathBuf};

/// How many files the Recent menu lists.
const KEPT: usize = 10;

/// The storage key.
pub const KEY: &str = "springmesh.recent_files";

/// Recently opened files, most recent first.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RecentFiles(pub Vec<PathBuf>);

impl RecentFiles {
    /// Puts `path` first, dropping an older mention and the oldest beyond the limit.
    pub fn add(&mut self, path: &Path) {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        self.0.retain(|p| *p != path);
        self.0.insert(0, path);
        self.0.truncate(KEPT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn most_recent_first_without_repeats() {
        let mut r = RecentFiles::default();
        for name in ["/a", "/b", "/a", "/c"] {
            r.add(Path::new(name));
        }
        assert_eq!(r.0, vec![PathBuf::from("/c"), PathBuf::from("/a"), PathBuf::from("/b")]);
        for i in 0..20 {
            r.add(Path::new(&format!("/f{i}")));
        }
        assert_eq!(r.0.len(), KEPT);
    }
}
