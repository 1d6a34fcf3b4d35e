//! The spill folder of one run: a subdirectory of `--spill DIR` that only
//! this run writes (`solver-spill-PID-XXXX`), removed with everything in it
//! when the search ends or fails (on drop), so that a run leaves nothing
//! behind in DIR. A run killed outright (SIGKILL, power loss) cannot clean up;
//! the next run in the same DIR removes the folders of processes that no
//! longer exist. Also keeps the account of the bytes held on disk.

use std::path::{Path, PathBuf};

use tempfile::TempDir;

/// Prefix of every run folder, followed by the process id and a random tail.
const PREFIX: &str = "solver-spill-";

/// Bytes free for this user on the disk that holds `dir` (or, while `dir`
/// does not exist yet, its nearest existing parent); `None` where that
/// cannot be read. `--encoding auto` weighs it when a search may spill.
pub fn free_bytes(dir: &str) -> Option<u64> {
    let mut path = Path::new(dir);
    while !path.exists() {
        // The working folder stands in for a relative path's empty parent
        // (unless it cannot be read itself: no loop).
        path = match path.parent()? {
            p if p.as_os_str().is_empty() && path != Path::new(".") => Path::new("."),
            p if p.as_os_str().is_empty() => return None,
            p => p,
        };
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
        let mut st = std::mem::MaybeUninit::<libc::statvfs>::uninit();
        // SAFETY: `c` is a NUL-terminated path and `st` a buffer statvfs
        // fills; it is read only when the call succeeds.
        let st = unsafe {
            if libc::statvfs(c.as_ptr(), st.as_mut_ptr()) != 0 {
                return None;
            }
            st.assume_init()
        };
        Some((st.f_bavail as u64).saturating_mul(st.f_frsize as u64))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// One run's folder inside DIR, and the bytes its files hold.
pub struct SpillDir {
    dir: TempDir,
    files: u64,
    bytes: u64,
    peak: u64,
}

impl SpillDir {
    /// Creates DIR when missing, clears stale run folders from it, and makes
    /// this run's folder. The error says what failed and what to do.
    pub fn create(parent: &str) -> Result<SpillDir, String> {
        let cannot = |what: &str, e: std::io::Error| {
            format!("--spill {parent}: cannot {what} ({e}); give --spill a folder this user can write, on a disk with room")
        };
        std::fs::create_dir_all(parent).map_err(|e| cannot("create the folder", e))?;
        remove_stale(Path::new(parent));
        let dir = tempfile::Builder::new()
            .prefix(&format!("{PREFIX}{}-", std::process::id()))
            .tempdir_in(parent)
            .map_err(|e| cannot("write in the folder", e))?;
        Ok(SpillDir {
            dir,
            files: 0,
            bytes: 0,
            peak: 0,
        })
    }

    /// A fresh file name in the run folder, `kind` saying what it holds.
    pub fn file(&mut self, kind: &str) -> PathBuf {
        self.files += 1;
        self.dir.path().join(format!("{kind}-{}.keys", self.files))
    }

    /// Counts `bytes` more on disk.
    pub fn grew(&mut self, bytes: u64) {
        self.bytes += bytes;
        self.peak = self.peak.max(self.bytes);
    }

    /// Deletes a file of `bytes` bytes written earlier.
    pub fn remove(&mut self, path: &Path, bytes: u64) {
        // A file that cannot be deleted goes with the folder at the end.
        let _ = std::fs::remove_file(path);
        self.bytes = self.bytes.saturating_sub(bytes);
    }

    /// Bytes held on disk now.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The most bytes held on disk at once.
    pub fn peak_bytes(&self) -> u64 {
        self.peak
    }
}

/// Removes run folders in `parent` whose process is gone (Linux: no
/// `/proc/PID`). Best effort: anything it cannot remove stays.
fn remove_stale(parent: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(PREFIX))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder not made yet is measured on its nearest existing parent,
    /// a relative one from the working folder.
    #[test]
    fn free_bytes_are_read_on_the_nearest_existing_folder() {
        let parent = tempfile::tempdir().unwrap();
        let here = free_bytes(parent.path().to_str().unwrap()).expect("statvfs");
        assert!(here > 0);
        let deeper = parent.path().join("not/made/yet");
        let there = free_bytes(deeper.to_str().unwrap()).expect("statvfs");
        // The same disk: within what other processes write meanwhile.
        assert!(here.abs_diff(there) < 1 << 30, "{here} against {there}");
        assert!(free_bytes("not-made-yet-relative").is_some_and(|b| b > 0));
        assert!(!deeper.exists(), "nothing is created");
    }

    #[test]
    fn the_run_folder_goes_and_dead_runs_are_swept() {
        let parent = tempfile::tempdir().unwrap();
        let stale = parent.path().join(format!("{PREFIX}4294967295-abc"));
        std::fs::create_dir(&stale).unwrap();
        std::fs::write(stale.join("layer-1.keys"), b"x").unwrap();
        let keep = parent.path().join("unrelated");
        std::fs::create_dir(&keep).unwrap();
        let mut dir = SpillDir::create(parent.path().to_str().unwrap()).unwrap();
        assert!(!stale.exists(), "a dead process's folder is removed");
        assert!(keep.exists(), "other folders are left alone");
        let f = dir.file("run");
        std::fs::write(&f, [0u8; 10]).unwrap();
        dir.grew(10);
        dir.remove(&f, 10);
        assert_eq!(dir.peak_bytes(), 10);
        drop(dir);
        let left: Vec<_> = std::fs::read_dir(parent.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "only the unrelated folder is left");
    }

    #[test]
    fn an_unwritable_folder_is_refused_with_what_to_do() {
        let err = SpillDir::create("/proc/no-such-folder/spill")
            .err()
            .expect("refused");
        assert!(err.contains("--spill /proc/no-such-folder/spill"), "{err}");
        assert!(
            err.contains("writable") || err.contains("can write"),
            "{err}"
        );
    }
}
