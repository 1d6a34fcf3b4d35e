//! The spill folder of one run: a subdirectory of `--spill DIR` that only
//! this run writes (`solver-spill-PID-XXXX`), removed with everything in it
//! when the search ends or fails (on drop), so that a run leaves nothing
//! behind in DIR. Also keeps the account of the bytes held on disk.
//!
//! A run killed outright (SIGKILL, power loss) cannot clean up, so the next
//! run in the same DIR removes what such runs left, and only that: DIR may be
//! shared by runs this process cannot see (in a container, another PID
//! namespace, on another machine over NFS), so the process id in a folder's
//! name proves nothing. Each run holds an exclusive `flock` on the file
//! `lock` in its folder for its whole life (the kernel, or the NFS server,
//! drops it when the process dies), and a folder is removed only by a run
//! that takes that lock itself. A folder without a lock file (made by a
//! version before the locks, or caught between its creation and its lock)
//! is removed only when nothing in it has been created or deleted for
//! [`UNLOCKED_AGE`]: a live spilled search adds a file at every layer.
//! Where locks are not shared between machines (NFS mounted with `nolock`),
//! give each machine a spill folder of its own.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use tempfile::TempDir;

/// Prefix of every run folder, followed by the process id and a random tail.
const PREFIX: &str = "solver-spill-";

/// The file in a run folder that its run holds locked.
const LOCK: &str = "lock";

/// A run folder without a lock file is left alone until it has gone this
/// long unchanged: a week, far beyond the time any spilled layer takes.
const UNLOCKED_AGE: Duration = Duration::from_secs(7 * 24 * 3600);

/// The run folders of this process that live now (their names). The sweep
/// never opens their lock files: where `flock` is emulated by POSIX record
/// locks (NFS), a lock belongs to the process, so this process would take
/// its own live run's lock and remove the folder, and closing the file
/// would release that run's lock for every other machine.
static OWN: std::sync::Mutex<Vec<std::ffi::OsString>> = std::sync::Mutex::new(Vec::new());

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
    /// The folder's lock file, held locked while the run lives (closing it
    /// after the folder is removed releases the lock).
    _lock: File,
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
        let lock = hold_lock(dir.path()).map_err(|e| {
            format!("--spill {parent}: cannot lock a file in the folder ({e}); give --spill a folder on a file system with file locks")
        })?;
        if let Some(name) = dir.path().file_name() {
            own().push(name.to_os_string());
        }
        Ok(SpillDir {
            dir,
            _lock: lock,
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

/// Creates the lock file of the run folder `dir` and locks it. The lock
/// is taken on a file of another name, renamed to [`LOCK`] once held, so
/// that no other run can find the lock file free in between.
fn hold_lock(dir: &Path) -> std::io::Result<File> {
    let staged = dir.join(format!("{LOCK}.new"));
    let file = File::create(&staged)?;
    if !try_lock(&file)? {
        return Err(std::io::Error::other("the new lock file is locked"));
    }
    std::fs::rename(&staged, dir.join(LOCK))?;
    Ok(file)
}

/// Takes an exclusive `flock` on `file` without waiting: false when another
/// open file holds it (in this process or any other, on this machine or,
/// over NFS, another).
fn try_lock(file: &File) -> std::io::Result<bool> {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: flock on a descriptor `file` owns; no memory is involved.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok(true);
        }
        let err = std::io::Error::last_os_error();
        if err.kind() == std::io::ErrorKind::WouldBlock {
            return Ok(false);
        }
        Err(err)
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        Err(std::io::Error::other("no file locks on this system"))
    }
}

/// Removes the run folders in `parent` that no live run holds (see the
/// module's doc). Best effort: anything it cannot remove, or cannot tell
/// stale, stays.
fn remove_stale(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let is_run = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(PREFIX));
        if is_run && entry.file_type().is_ok_and(|t| t.is_dir()) {
            remove_if_stale(&entry.path());
        }
    }
}

/// [`OWN`], locked (a poisoned lock still holds the right names).
fn own() -> std::sync::MutexGuard<'static, Vec<std::ffi::OsString>> {
    OWN.lock().unwrap_or_else(|e| e.into_inner())
}

impl Drop for SpillDir {
    /// The folder is no longer this process's live run (its fields then
    /// remove it and release its lock).
    fn drop(&mut self) {
        let name = self.dir.path().file_name().map(|n| n.to_os_string());
        own().retain(|o| Some(o) != name.as_ref());
    }
}

/// Removes the run folder `folder` when its lock can be taken (its run is
/// gone), or when it has no lock file and has not changed for
/// [`UNLOCKED_AGE`].
fn remove_if_stale(folder: &Path) {
    if folder
        .file_name()
        .is_some_and(|n| own().iter().any(|o| o == n))
    {
        return;
    }
    match File::open(folder.join(LOCK)) {
        // Held while the folder is removed, so that no other run removes
        // it at the same time.
        Ok(lock) => {
            if try_lock(&lock).unwrap_or(false) {
                let _ = std::fs::remove_dir_all(folder);
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let unchanged = std::fs::metadata(folder)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| SystemTime::now().duration_since(t).ok());
            if unchanged.is_some_and(|age| age > UNLOCKED_AGE) {
                let _ = std::fs::remove_dir_all(folder);
            }
        }
        Err(_) => {}
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

    /// A run folder named `name` in `parent` with a file in it and, when
    /// `locked` is given, a lock file (held by `locked`'s open file if true).
    fn run_folder(parent: &Path, name: &str, lock: Option<bool>) -> (PathBuf, Option<File>) {
        let folder = parent.join(name);
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("layer-1.keys"), b"x").unwrap();
        let held = lock.map(|held| {
            let file = File::create(folder.join(LOCK)).unwrap();
            if held {
                assert!(try_lock(&file).unwrap());
            }
            file
        });
        (folder, held)
    }

    #[test]
    fn the_run_folder_goes_and_only_folders_no_run_holds_are_swept() {
        let parent = tempfile::tempdir().unwrap();
        // The process ids are ones no process has here (as for a run in
        // another PID namespace): only the locks tell the live from the dead.
        let (live, _held) = run_folder(
            parent.path(),
            &format!("{PREFIX}4294967295-live"),
            Some(true),
        );
        let (dead, _) = run_folder(
            parent.path(),
            &format!("{PREFIX}4294967295-dead"),
            Some(false),
        );
        let (young, _) = run_folder(parent.path(), &format!("{PREFIX}4294967295-young"), None);
        let (old, _) = run_folder(parent.path(), &format!("{PREFIX}4294967295-old"), None);
        let week_ago = SystemTime::now() - UNLOCKED_AGE - Duration::from_secs(3600);
        File::open(&old).unwrap().set_modified(week_ago).unwrap();
        let keep = parent.path().join("unrelated");
        std::fs::create_dir(&keep).unwrap();
        let mut dir = SpillDir::create(parent.path().to_str().unwrap()).unwrap();
        assert!(
            live.join("layer-1.keys").exists(),
            "a folder whose lock is held stays"
        );
        assert!(
            !dead.exists(),
            "a folder whose lock no one holds is removed"
        );
        assert!(
            young.join("layer-1.keys").exists(),
            "a recent folder without a lock stays"
        );
        assert!(
            !old.exists(),
            "a folder without a lock unchanged for a week is removed"
        );
        assert!(keep.exists(), "other folders are left alone");
        assert!(
            dir.dir.path().join(LOCK).exists(),
            "the run's own folder has its lock"
        );
        let f = dir.file("run");
        std::fs::write(&f, [0u8; 10]).unwrap();
        dir.grew(10);
        dir.remove(&f, 10);
        assert_eq!(dir.peak_bytes(), 10);
        drop(dir);
        let mut left: Vec<_> = std::fs::read_dir(parent.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        left.sort();
        assert_eq!(left, [live, young, keep], "the run's own folder went");
    }

    #[test]
    fn a_live_runs_lock_is_held_against_any_other_opener() {
        let parent = tempfile::tempdir().unwrap();
        let dir = SpillDir::create(parent.path().to_str().unwrap()).unwrap();
        let lock = File::open(dir.dir.path().join(LOCK)).unwrap();
        assert!(!try_lock(&lock).unwrap(), "held by the run");
        // Another run's sweep leaves it.
        let other = SpillDir::create(parent.path().to_str().unwrap()).unwrap();
        assert!(dir.dir.path().exists());
        drop((dir, other));
        assert!(try_lock(&lock).unwrap(), "released with the run");
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

    /// A sweep in this process never opens its own live runs' locks (on NFS
    /// a POSIX lock is the process's: it would take it and remove the
    /// folder); a dropped run leaves the list.
    #[test]
    fn a_sweep_skips_this_processs_live_runs() {
        let parent = tempfile::tempdir().unwrap();
        let p = parent.path().to_str().unwrap();
        let live = SpillDir::create(p).unwrap();
        let name = live.dir.path().file_name().unwrap().to_os_string();
        assert!(own().contains(&name));
        let second = SpillDir::create(p).unwrap();
        remove_stale(parent.path());
        assert!(live.dir.path().is_dir() && second.dir.path().is_dir());
        drop(live);
        assert!(!own().contains(&name));
    }
}
