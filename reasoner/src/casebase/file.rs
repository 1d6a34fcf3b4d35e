//! Where a case base is really written and whether it may be: the file a
//! symlinked case base points to, the refusal of a read-only case base, and
//! the mode a new file gets.
//!
//! Saving replaces the file by renaming a new one over it (see
//! [`super::save`]), which would turn a symlink into a regular file and give
//! the file the temporary's mode; so saving writes beside the symlink's
//! target and copies the old file's mode. These checks also run before a
//! search (`reasoner solve --retain`), so that a case base that cannot be
//! written is reported before hours of search, not after.

use std::fs::Permissions;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::error::Error;

/// Symlinks followed before giving up (as the kernel's own limit).
const MAX_LINKS: usize = 40;

/// The file `path` stands for: symlinks followed, even to a target that does
/// not exist yet.
pub fn target(path: &Path) -> Result<PathBuf, Error> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p).map_err(|e| Error::io(&p, e))?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(Error::CaseBase {
        path: path.to_path_buf(),
        message: format!("more than {MAX_LINKS} symlinks in a row; point it at a real file"),
    })
}

/// The folder a file is in (`.` for a bare file name).
pub fn folder(file: &Path) -> PathBuf {
    match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The permissions the saved file gets: the old file's, or for a new file
/// read and write for all less the umask (as any new file).
pub fn permissions_for(target: &Path) -> Permissions {
    match std::fs::metadata(target) {
        Ok(m) => m.permissions(),
        Err(_) => Permissions::from_mode(0o666),
    }
}

/// Fails with a message saying what to do unless the case base at `path`
/// can be replaced: an existing file must have a write permission bit and be
/// writable by this process, and its folder must take a new file.
pub fn check_writable(path: &Path) -> Result<(), Error> {
    let target = target(path)?;
    if let Ok(m) = std::fs::metadata(&target) {
        let mode = m.permissions().mode() & 0o7777;
        let open = std::fs::OpenOptions::new().append(true).open(&target);
        if m.permissions().readonly() || open.is_err() {
            return Err(Error::CaseBase {
                path: target,
                message: format!(
                    "the case base is read-only (mode {mode:04o}); make it writable \
                     (chmod u+w) or run without --retain"
                ),
            });
        }
    }
    let dir = folder(&target);
    tempfile::Builder::new()
        .prefix(".reasoner-write-test.")
        .tempfile_in(&dir)
        .map(drop)
        .map_err(|e| Error::CaseBase {
            path: dir,
            message: format!(
                "cannot create a file in this folder ({e}); the case base is saved by \
                 writing a new file beside it, so the folder must be writable"
            ),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symlinks_are_followed_to_a_target_that_may_not_exist() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link.toml");
        std::os::unix::fs::symlink("real/cb.toml", &link).unwrap();
        assert_eq!(target(&link).unwrap(), dir.path().join("real/cb.toml"));
        let plain = dir.path().join("plain.toml");
        assert_eq!(target(&plain).unwrap(), plain);
        let looped = dir.path().join("loop");
        std::os::unix::fs::symlink("loop", &looped).unwrap();
        assert!(target(&looped)
            .unwrap_err()
            .to_string()
            .contains("symlinks"));
    }

    #[test]
    fn a_read_only_case_base_is_refused_and_a_missing_folder_too() {
        let dir = tempfile::tempdir().unwrap();
        let cb = dir.path().join("cb.toml");
        check_writable(&cb).unwrap();
        std::fs::write(&cb, "version = 1\n").unwrap();
        check_writable(&cb).unwrap();
        std::fs::set_permissions(&cb, Permissions::from_mode(0o444)).unwrap();
        let err = check_writable(&cb).unwrap_err().to_string();
        assert!(err.contains("read-only (mode 0444)"), "{err}");
        let err = check_writable(&dir.path().join("no/such/cb.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("cannot create a file in this folder"), "{err}");
    }
}
