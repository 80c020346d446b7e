//! Files a mesh refers to (glTF buffers and images, an OBJ's material library and texture),
//! read only where a downloaded mesh may point.
//!
//! A reference is a path relative to the mesh's folder. It is refused when it is absolute, has
//! a scheme (`file:`, `http:`, ...), or leads (after `..`, and after following symbolic links:
//! the comparison is between canonical paths) outside the folder; or when what it names is not
//! a regular file (a device such as `/dev/zero` would never end, a FIFO never answer). Reads are
//! bounded: a glTF buffer by the `byteLength` the document declares, anything else by a
//! caller's cap. A refused reference is an error naming it; its bytes are never quoted.
//!
//! For trusted files, [`super::ImportLimits::outside_references`] lifts the folder rule (an
//! absolute path or one through `..` is then read), never the regular-file rule.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// Why a reference was refused, as a phrase after the reference.
pub(crate) type Refusal = String;

/// The file that `reference` names, relative to `dir`, if a mesh in `dir` may read it
/// (anywhere, if `anywhere`).
pub(crate) fn resolve(dir: &Path, reference: &str, anywhere: bool) -> Result<PathBuf, Refusal> {
    let relative = Path::new(reference);
    let has_scheme = reference.split_once(':').is_some_and(|(scheme, _)| {
        scheme.len() > 1 && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    let rooted =
        relative.components().any(|c| matches!(c, Component::RootDir | Component::Prefix(_)))
            || reference.starts_with(['/', '\\']);
    if reference.is_empty() || has_scheme || (rooted && !anywhere) {
        return Err("is not a path relative to the mesh's folder".into());
    }
    let folder =
        std::fs::canonicalize(if dir.as_os_str().is_empty() { Path::new(".") } else { dir })
            .map_err(|e| format!("cannot be looked up ({e})"))?;
    let target = std::fs::canonicalize(folder.join(relative))
        .map_err(|e| format!("cannot be opened ({})", e.kind()))?;
    if !anywhere && !target.starts_with(&folder) {
        return Err("leads outside the mesh's folder".into());
    }
    if !std::fs::metadata(&target).map(|m| m.is_file()).unwrap_or(false) {
        return Err("is not a regular file".into());
    }
    Ok(target)
}

/// At most `limit` bytes of the file `path` (resolved by [`resolve`]); `exact` asks for at
/// least `limit` bytes too.
pub(crate) fn read_bounded(path: &Path, limit: u64, exact: bool) -> Result<Vec<u8>, Refusal> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot be opened ({})", e.kind()))?;
    let mut bytes = Vec::new();
    file.take(limit)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot be read ({})", e.kind()))?;
    if exact && (bytes.len() as u64) < limit {
        return Err(format!("holds {} bytes, fewer than the {limit} declared", bytes.len()));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir()
            .join(format!("springmesh-reference-{}", std::process::id()))
            .join(name);
        std::fs::create_dir_all(dir.join("sub")).expect("a scratch folder");
        std::fs::write(dir.join("mesh.bin"), [1u8, 2, 3, 4]).expect("writes");
        std::fs::write(dir.join("sub/deeper.bin"), [5u8]).expect("writes");
        dir
    }

    #[test]
    fn only_regular_files_inside_the_folder_resolve() {
        let dir = folder("resolve");
        let resolve = |dir: &Path, reference: &str| resolve(dir, reference, false);
        assert!(resolve(&dir, "mesh.bin").is_ok());
        assert!(resolve(&dir, "sub/deeper.bin").is_ok());
        assert!(resolve(&dir, "sub/../mesh.bin").is_ok());
        for outside in
            ["/etc/passwd", "../../../../etc/passwd", "file:///etc/passwd", "C:/x.bin", ""]
        {
            assert!(resolve(&dir, outside).is_err(), "{outside}");
        }
        assert_eq!(resolve(&dir, "sub").expect_err("a folder"), "is not a regular file");
        assert!(resolve(&dir, "missing.bin").is_err());
        #[cfg(unix)]
        {
            let link = dir.join("escape.bin");
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink("/etc/hostname", &link).expect("a link");
            assert_eq!(
                resolve(&dir, "escape.bin").expect_err("a link out"),
                "leads outside the mesh's folder"
            );
            let device = dir.join("zero");
            let _ = std::fs::remove_file(&device);
            std::os::unix::fs::symlink("/dev/zero", &device).expect("a link");
            assert!(resolve(&dir, "zero").is_err(), "a device, through a link");
        }
    }

    #[test]
    fn trusted_files_may_reach_outside_but_only_regular_files() {
        let dir = folder("anywhere");
        let outside = dir.parent().expect("a parent").join("outside.bin");
        std::fs::write(&outside, [9u8]).expect("writes");
        assert!(resolve(&dir, "../outside.bin", false).is_err());
        assert_eq!(
            resolve(&dir, "../outside.bin", true),
            std::fs::canonicalize(&outside).map_err(|e| e.to_string())
        );
        let absolute = outside.to_string_lossy().to_string();
        assert!(resolve(&dir, &absolute, true).is_ok());
        assert!(resolve(&dir, "/dev/zero", true).is_err(), "a device is never read");
        assert!(resolve(&dir, "file:///etc/hostname", true).is_err(), "nor a URL");
    }

    #[test]
    fn reads_stop_at_the_declared_length() {
        let dir = folder("read");
        let path = resolve(&dir, "mesh.bin", false).expect("inside");
        assert_eq!(read_bounded(&path, 2, true).expect("long enough"), vec![1, 2]);
        assert!(read_bounded(&path, 9, true).is_err(), "shorter than declared");
        assert_eq!(read_bounded(&path, 9, false).expect("a cap"), vec![1, 2, 3, 4]);
    }
}
