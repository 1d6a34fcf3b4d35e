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

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use sbp_outfile::Dest;

use crate::error::Error;

/// The file `path` stands for: symlinks followed, even to a target that does
/// not exist yet. A read-only file is its own target ([`check_writable`]
/// refuses it for writing); a FIFO, a device, a folder is no case base.
pub fn target(path: &Path) -> Result<PathBuf, Error> {
    match sbp_outfile::resolve(path) {
        Ok(Dest::Replace { file, .. }) => Ok(file),
        Ok(_) => Err(not_regular(path)),
        Err(sbp_outfile::Error::ReadOnly { path, .. }) => Ok(path),
        Err(e) => Err(refused(path, e)),
    }
}

/// The permission bits the saved file gets: the old file's, or `None` for
/// a new file (read and write for all less the umask, as any new file).
pub fn permissions_for(target: &Path) -> Option<u32> {
    std::fs::metadata(target)
        .ok()
        .map(|m| m.permissions().mode() & 0o7777)
}

/// Fails with a message saying what to do unless the case base at `path`
/// can be replaced, by the rules every output follows (`solver/outfile`):
/// a regular file or a new name (not a FIFO, a device or a folder), not
/// read-only, in a folder that takes a new file.
pub fn check_writable(path: &Path) -> Result<(), Error> {
    match sbp_outfile::check(path) {
        Ok(Dest::Replace { .. }) => Ok(()),
        Ok(_) => Err(not_regular(path)),
        Err(e) => Err(refused(path, e)),
    }
}

/// Refuses a case-base file (`path`, symlinks followed) that is not a
/// regular file: a FIFO would block the reasoner until something writes
/// into it, a device may never end, a folder is no case base. A missing
/// file passes (`--retain`, `add` and `import` create it; a read reports it).
/// The commands call it before anything else, so that such a file is
/// refused at once, before a solver runs or a lock file is made.
pub fn regular_or_missing(path: &Path) -> Result<(), Error> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => Err(not_regular(path)),
        _ => Ok(()),
    }
}

/// The error for a case base that is not a regular file (standard output
/// when nothing of its name exists: `-`).
fn not_regular(path: &Path) -> Error {
    let what = std::fs::metadata(path)
        .ok()
        .and_then(|m| sbp_outfile::kind_name(&m.file_type()))
        .unwrap_or("standard output");
    Error::CaseBase {
        path: path.to_path_buf(),
        message: format!(
            "is {what}, not a regular file; a case base is a TOML file \
             (casebase/README.md): name one, or a new file to create"
        ),
    }
}

/// The writer's reason as a case-base error.
fn refused(path: &Path, e: sbp_outfile::Error) -> Error {
    Error::CaseBase {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::Permissions;

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
        assert!(err.contains("cannot create a file in the folder"), "{err}");
        // A folder and a FIFO are named for what they are; nothing blames a flag.
        let err = check_writable(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("names a folder") && !err.contains("--retain"),
            "{err}"
        );
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let err = check_writable(&fifo).unwrap_err().to_string();
        assert!(err.contains("not a regular file"), "{err}");
        assert!(target(&fifo).is_err());
    }
}
