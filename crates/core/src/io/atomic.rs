//! Atomic file replacement: write a temporary file beside the target, flush it to disk, then
//! rename it over the target. A reader sees the old file or the new one, never a mix, and a
//! failure at any point leaves the old file as it was.

use crate::CoreError;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Replaces `path` with `bytes` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), CoreError> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Replaces `path` with what `write` writes, atomically. If `write` (or flushing, or the
/// rename) fails, the temporary file is removed and `path` is untouched.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), CoreError> {
    let mut file = AtomicFile::create(path)?;
    write(&mut file).map_err(|cause| CoreError::Io { file: path.to_path_buf(), cause })?;
    file.commit()
}

/// A file being written to replace `path` atomically: writes go to a hidden temporary file
/// beside it; [`AtomicFile::commit`] flushes it to disk and renames it over `path`. Dropped
/// without a commit (an error, a panic, a cancelled run), it removes the temporary file and
/// `path` is untouched.
pub struct AtomicFile {
    target: PathBuf,
    tmp: PathBuf,
    writer: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Starts replacing `path`. An existing `path` that is not a regular file (a device, a
    /// FIFO, a folder) is refused: renaming over it would replace a device node with a file.
    pub fn create(path: &Path) -> Result<AtomicFile, CoreError> {
        let io_error = |cause| CoreError::Io { file: path.to_path_buf(), cause };
        if fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            let refused = io::Error::new(
                io::ErrorKind::InvalidInput,
                "exists and is not a regular file; refusing to replace it",
            );
            return Err(io_error(refused));
        }
        let tmp = temp_path(path).map_err(io_error)?;
        let file = File::create_new(&tmp).map_err(io_error)?;
        Ok(AtomicFile { target: path.to_path_buf(), tmp, writer: Some(BufWriter::new(file)) })
    }

    /// Flushes the new contents to disk and renames them over the target. On failure the
    /// temporary file is removed and the target is untouched.
    pub fn commit(mut self) -> Result<(), CoreError> {
        let result = (|| {
            let writer = self.writer.take().ok_or_else(|| io::Error::other("already committed"))?;
            let file = writer.into_inner().map_err(io::IntoInnerError::into_error)?;
            file.sync_all()?;
            drop(file);
            fs::rename(&self.tmp, &self.target)
        })();
        if let Err(cause) = result {
            // Best effort: the rename may have failed after the file was closed.
            let _ = fs::remove_file(&self.tmp);
            return Err(CoreError::Io { file: self.target.clone(), cause });
        }
        sync_parent(&self.target);
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.writer {
            Some(w) => w.write(buf),
            None => Err(io::Error::other("already committed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.writer {
            Some(w) => w.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.writer.take().is_some() {
            // Not committed: the temporary file goes; best effort, nothing else to do here.
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// A fresh hidden name in the target's directory: `.<name>.<pid>-<n>.tmp`.
fn temp_path(path: &Path) -> io::Result<PathBuf> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidInput, "the path does not name a file")
    })?;
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let tmp_name = format!(".{}.{}-{n}.tmp", name.to_string_lossy(), std::process::id());
    Ok(path.with_file_name(tmp_name))
}

/// Flushes the directory entry of the rename where the platform allows it (best effort: the
/// data itself is already on disk, and some file systems refuse to sync a directory).
fn sync_parent(path: &Path) {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `name` in a directory of its own, so that tests running at once do not see each
    /// other's temporary files.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir()
            .join(format!("springmesh-atomic-{}", std::process::id()))
            .join(name.replace('.', "-"));
        fs::create_dir_all(&dir).expect("temp dir");
        dir.join(name)
    }

    fn leftovers(path: &Path) -> Vec<String> {
        let dir = path.parent().expect("parent");
        fs::read_dir(dir)
            .expect("read dir")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn replaces_the_file() {
        let path = scratch("replace.bin");
        write_atomic(&path, b"old").expect("first write");
        write_atomic(&path, b"new contents").expect("second write");
        assert_eq!(fs::read(&path).expect("read"), b"new contents");
        assert!(leftovers(&path).is_empty());
    }

    #[test]
    fn failure_mid_write_leaves_the_old_file() {
        let path = scratch("mid-write.bin");
        write_atomic(&path, b"previous").expect("first write");
        let err = write_atomic_with(&path, |w| {
            w.write_all(&[7; 100_000])?;
            Err(io::Error::other("disk full"))
        })
        .expect_err("the writer failed");
        assert!(err.to_string().contains("disk full"), "{err}");
        assert!(err.to_string().contains("mid-write.bin"), "{err}");
        assert_eq!(fs::read(&path).expect("read"), b"previous");
        assert!(leftovers(&path).is_empty(), "{:?}", leftovers(&path));
    }

    #[test]
    fn a_dropped_file_leaves_nothing() {
        let path = scratch("dropped.bin");
        write_atomic(&path, b"kept").expect("first write");
        {
            let mut f = AtomicFile::create(&path).expect("create");
            f.write_all(b"never committed").expect("write");
        }
        assert_eq!(fs::read(&path).expect("read"), b"kept");
        assert!(leftovers(&path).is_empty());
        let mut f = AtomicFile::create(&path).expect("create");
        f.write_all(b"committed").expect("write");
        f.commit().expect("commit");
        assert_eq!(fs::read(&path).expect("read"), b"committed");
    }

    #[test]
    fn failed_rename_leaves_the_target_and_no_temporary() {
        let dir = scratch("a-directory");
        fs::create_dir_all(dir.join("inside")).expect("dir");
        let err = write_atomic(&dir, b"data").expect_err("cannot replace a non-empty directory");
        assert!(matches!(err, CoreError::Io { .. }));
        assert!(err.to_string().contains("is not a regular file"), "{err}");
        assert!(dir.join("inside").is_dir());
        assert!(leftovers(&dir).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_never_replaced() {
        let err = write_atomic(Path::new("/dev/null"), b"data").expect_err("a device");
        assert!(err.to_string().contains("/dev/null: exists and is not a regular file"), "{err}");
        assert!(fs::metadata("/dev/null").is_ok_and(|m| !m.is_file()), "still a device");
    }
}
