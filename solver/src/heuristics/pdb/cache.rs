//! The disk cache of pattern databases. A table's key is the full text of
//! what determines it (board with walls and doors, the abstract block types
//! and counts, the abstract goal, which blocks count, the metric, the index
//! layout, the file format's version); the file name is its SHA-256 and the
//! file repeats the key, so a table is used only for exactly the abstraction
//! it was built for and a changed puzzle rebuilds it. Files are written to a temporary name
//! and renamed, so a crash never leaves a half-written table under a real name.
//! A checksum of the table follows it, and nothing may follow the checksum:
//! a table damaged on disk is rebuilt, never used, since a wrong entry
//! would make the heuristic inadmissible and an "optimal" answer too long.
//! A cache name that is not a regular file (a FIFO, a device, a folder) is
//! opened without blocking and not read: the table is rebuilt (a FIFO there
//! hung `--heuristic pdb` on its open).

use std::io::Read;
#[cfg(not(target_arch = "wasm32"))]
use std::io::Write;
#[cfg(not(target_arch = "wasm32"))]
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::abstraction::Abstraction;
use crate::params::Metric;

/// First bytes of every table file (bump the digit when the layout changes;
/// 2: the checksum after the table).
const MAGIC: &[u8; 8] = b"SBPPDB2\n";

/// A 64-bit checksum of `data`, against damage on disk (not tampering):
/// fast enough (several GB/s) that checking a 260 MB table adds a small
/// fraction to reading it.
fn checksum(data: &[u8]) -> u64 {
    let mut h = 0x9E37_79B9_7F4A_7C15u64 ^ data.len() as u64;
    for chunk in data.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(word))
            .wrapping_mul(0x0000_0100_0000_01B3)
            .rotate_left(31);
    }
    h ^ (h >> 29)
}

/// The text that determines `abs`'s table under `metric`.
pub fn key(abs: &Abstraction, metric: Metric) -> String {
    let p = &abs.puzzle;
    format!(
        "board {}x{} {:?}\ntypes {:?}\ncounts {:?}\ngoal {:?}\ncounted {:?}\nmetric {:?}\nindex {}\n",
        p.board.width(),
        p.board.height(),
        p.board.cells(),
        p.types,
        p.counts,
        p.goals,
        abs.counted,
        metric,
        abs.index.layout()
    )
}

/// The default cache directory: `$XDG_CACHE_HOME/sbp-solver/pdb`, else
/// `$HOME/.cache/sbp-solver/pdb`; `None` when neither variable is set.
pub fn default_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("sbp-solver").join("pdb"))
}

/// Where the table with `key` lives in `dir`.
pub fn path(dir: &Path, key: &str) -> PathBuf {
    let digest = Sha256::digest(key.as_bytes());
    let name: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    dir.join(format!("{name}.pdb"))
}

/// The cached table for `key` with `size` entries, if a valid one exists.
pub fn load(dir: &Path, key: &str, size: u64) -> Option<Vec<u8>> {
    let table = read(dir, key, size)?;
    (table.len() as u64 == size).then_some(table)
}

/// The body stored for `key`, whatever its length (its reader checks it).
pub fn load_body(dir: &Path, key: &str) -> Option<Vec<u8>> {
    read(dir, key, u64::from(u32::MAX) << 4)
}

/// The file for `key` in `dir`, opened without blocking, if it is a
/// regular file; a name held by anything else is reported on stderr.
fn open_regular(dir: &Path, key: &str) -> Option<std::fs::File> {
    let path = path(dir, key);
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(not(target_arch = "wasm32"))]
    options.custom_flags(libc::O_NONBLOCK);
    let file = options.open(&path).ok()?;
    if !file.metadata().ok()?.is_file() {
        eprintln!(
            "warning: {} is not a regular file: the pattern database is built instead \
             of read (remove it, and the next build stores the table there)",
            path.display()
        );
        return None;
    }
    Some(file)
}

/// The file for `key`, past its head and key when they match, and its length.
fn open_matching(dir: &Path, key: &str) -> Option<(std::fs::File, u64)> {
    let mut file = open_regular(dir, key)?;
    let len = file.metadata().ok()?.len();
    let mut head = [0u8; 8];
    file.read_exact(&mut head).ok()?;
    if &head != MAGIC {
        return None;
    }
    let stored_key = read_block(&mut file, 1 << 20)?;
    (stored_key == key.as_bytes()).then_some((file, len))
}

/// Whether the file for `key` holds a table of `body` bytes (its head, key
/// and length right, the body not read): what `solver pdb build` checks
/// after storing.
pub fn holds(dir: &Path, key: &str, body: u64) -> bool {
    let Some((mut file, len)) = open_matching(dir, key) else {
        return false;
    };
    let mut stored = [0u8; 8];
    let header = 8 + 8 + key.len() as u64 + 8;
    file.read_exact(&mut stored).is_ok()
        && u64::from_le_bytes(stored) == body
        && len == header + body + 8
}

/// The body of the file for `key` when its head and key match, at most `max` bytes.
fn read(dir: &Path, key: &str, max: u64) -> Option<Vec<u8>> {
    let (mut file, len) = open_matching(dir, key)?;
    let body = read_block(&mut file, max.min(len))?;
    let mut sum = [0u8; 8];
    file.read_exact(&mut sum).ok()?;
    let at_end = file.read(&mut [0u8; 1]).ok()? == 0;
    (at_end && u64::from_le_bytes(sum) == checksum(&body)).then_some(body)
}

/// Reads a length-prefixed block of at most `max` bytes.
fn read_block(file: &mut std::fs::File, max: u64) -> Option<Vec<u8>> {
    let mut len = [0u8; 8];
    file.read_exact(&mut len).ok()?;
    let len = u64::from_le_bytes(len);
    if len > max {
        return None;
    }
    let mut data = vec![0u8; len as usize];
    file.read_exact(&mut data).ok()?;
    Some(data)
}

/// Stores `table` under `key` in `dir` (created if missing), atomically.
/// The browser build has no files: it refuses.
#[cfg(target_arch = "wasm32")]
pub fn store(_dir: &Path, _key: &str, _table: &[u8]) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

/// Stores `table` under `key` in `dir` (created if missing), atomically.
#[cfg(not(target_arch = "wasm32"))]
pub fn store(dir: &Path, key: &str, table: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    {
        let out = tmp.as_file_mut();
        let mut w = std::io::BufWriter::new(out);
        w.write_all(MAGIC)?;
        w.write_all(&(key.len() as u64).to_le_bytes())?;
        w.write_all(key.as_bytes())?;
        w.write_all(&(table.len() as u64).to_le_bytes())?;
        w.write_all(table)?;
        w.write_all(&checksum(table).to_le_bytes())?;
        w.flush()?;
    }
    tmp.persist(path(dir, key)).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored table reads back; one byte changed anywhere in it, or bytes
    /// added after it, and it is not used (the caller rebuilds it).
    #[test]
    fn a_damaged_table_is_not_used() {
        let dir = tempfile::tempdir().unwrap();
        let table: Vec<u8> = (0..10_000u32).map(|i| (i * 7 % 23) as u8).collect();
        store(dir.path(), "key", &table).unwrap();
        assert_eq!(
            load(dir.path(), "key", table.len() as u64),
            Some(table.clone())
        );
        let file = path(dir.path(), "key");
        let good = std::fs::read(&file).unwrap();
        let body_start = good.len() - 8 - table.len();
        for at in [
            body_start,
            body_start + 4321,
            good.len() - 9,
            good.len() - 1,
        ] {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            std::fs::write(&file, &bad).unwrap();
            assert_eq!(
                load(dir.path(), "key", table.len() as u64),
                None,
                "byte {at}"
            );
        }
        let mut longer = good.clone();
        longer.extend_from_slice(b"junk");
        std::fs::write(&file, &longer).unwrap();
        assert_eq!(load_body(dir.path(), "key"), None);
        std::fs::write(&file, &good).unwrap();
        assert!(holds(dir.path(), "key", table.len() as u64));
        assert!(!holds(dir.path(), "key", table.len() as u64 + 1));
        assert!(!holds(dir.path(), "other key", table.len() as u64));
        assert_eq!(load_body(dir.path(), "key"), Some(table));
    }

    /// A FIFO (or a folder) at a table's name is not opened for reading
    /// (which blocked until a writer came): no table, at once; storing then
    /// puts a regular file in its place.
    #[test]
    fn a_fifo_at_a_tables_name_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = path(dir.path(), "key");
        let name = std::ffi::CString::new(file.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates a node.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
        let (tx, rx) = std::sync::mpsc::channel();
        let d = dir.path().to_path_buf();
        std::thread::spawn(move || tx.send(load(&d, "key", 4)).unwrap());
        let got = rx.recv_timeout(std::time::Duration::from_secs(10));
        assert_eq!(got, Ok(None), "a FIFO must not be waited on");
        assert!(!holds(dir.path(), "key", 4));
        store(dir.path(), "key", &[1, 2, 3, 4]).unwrap();
        assert_eq!(load(dir.path(), "key", 4), Some(vec![1, 2, 3, 4]));
        let other = path(dir.path(), "folder");
        std::fs::create_dir(&other).unwrap();
        assert_eq!(load(dir.path(), "folder", 4), None);
    }
}
