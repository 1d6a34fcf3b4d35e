//! The advisory lock that serializes writers of one case base.
//!
//! Every change of a case base (retain, add, remove, import) re-reads the
//! file, changes it and renames a new file over it while holding an exclusive
//! `flock` on `<case base>.lock` beside the (symlink-resolved) file. Two
//! reasoners retaining at once therefore take turns, and the second one
//! merges its case into what the first one wrote: no case is lost. Readers
//! take no lock: the rename is atomic, so they see the old or the new file.
//! The lock file is left in place (removing it would race with a waiting
//! writer); the kernel releases the lock when its holder exits or is killed.

use std::fs::{File, OpenOptions};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use crate::error::Error;

/// An exclusive lock on a case base, released when dropped.
#[derive(Debug)]
pub struct Lock {
    // Closing the file releases the lock.
    _file: File,
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
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        // Someone else's lock file that this user may only read still locks.
        .or_else(|_| File::open(&path))
        .map_err(|e| Error::io(&path, e))?;
    loop {
        // SAFETY: flock on a descriptor this function owns; no memory involved.
        let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) };
        if rc == 0 {
            return Ok(Lock { _file: file });
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(Error::io(&path, e));
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
