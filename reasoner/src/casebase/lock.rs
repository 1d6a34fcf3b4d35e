//! The advisory lock that serializes writers of one case base.
//!
//! Every change of a case base (retain, add, remove, import) re-reads the
//! file, changes it and renames a new file over it while holding an exclusive
//! `flock` on `<case base>.lock` beside the (symlink-resolved) file. Two
//! reasoners retaining at once therefore take turns, and the second one
//! merges its case into what the first one wrote: no case is lost. Readers
//! take no lock: the rename is atomic, so they see the old or the new file.
//!
//! The holder deletes the lock file before releasing it, so no `.lock` file
//! is left beside a case base. A waiter that then gets the lock of the
//! deleted file sees that the path no longer names it and starts over. The
//! kernel releases the lock when its holder exits or is killed (a killed
//! holder leaves the empty file behind, which is harmless).

use std::fs::{File, OpenOptions};
use std::os::unix::fs::MetadataExt;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use crate::error::Error;

/// An exclusive lock on a case base, released when dropped.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
    // Closing the file releases the lock.
    _file: File,
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Deleted while still held: see the module's documentation.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The lock file of the case-base file `target` (symlinks already resolved).
pub fn lock_path(target: &Path) -> PathBuf {
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    target.with_file_name(name)
}

/// Takes the exclusive lock of the case-base file `target`, waiting for
/// another holder to release it.
pub fn acquire(target: &Path) -> Result<Lock, Error> {
    let path = lock_path(target);
    loop {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        flock(&file).map_err(|e| Error::io(&path, e))?;
        // The lock counts only if the path still names the locked file: the
        // last holder may have deleted it while this process waited.
        let held = file.metadata().map_err(|e| Error::io(&path, e))?;
        if let Ok(now) = std::fs::metadata(&path) {
            if (now.dev(), now.ino()) == (held.dev(), held.ino()) {
                return Ok(Lock { path, _file: file });
            }
        }
    }
}

/// Waits for an exclusive `flock` on `file`.
fn flock(file: &File) -> std::io::Result<()> {
    loop {
        // SAFETY: flock on a descriptor the caller owns; no memory involved.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_is_exclusive_and_released_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let cb = dir.path().join("cb.toml");
        assert_eq!(lock_path(&cb), dir.path().join("cb.toml.lock"));
        let held = acquire(&cb).unwrap();
        let other = File::open(lock_path(&cb)).unwrap();
        let try_lock =
            |f: &File| unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        assert_eq!(try_lock(&other), -1, "a second holder must wait");
        drop(held);
        assert_eq!(try_lock(&other), 0, "free once the first lock is dropped");
    }
}
