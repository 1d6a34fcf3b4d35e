//! What a path names, and so how it is written: [`resolve`].

use std::fs::Metadata;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::{atomic, in_place};

/// Symlinks followed before giving up (the kernel's own limit).
const MAX_LINKS: usize = 40;

/// Where an output's bytes go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dest {
    /// Standard output: `-`, `/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`.
    /// (Standard input, `/dev/stdin` or `/dev/fd/0`, is refused: it is what
    /// the command reads.)
    Stdout,
    /// A character device, a FIFO, or an open file descriptor's path
    /// (`/dev/fd/N`): opened for writing and appended to, never created,
    /// truncated or replaced.
    InPlace(PathBuf),
    /// A regular file, or a name not taken yet: replaced atomically. `file`
    /// is the file itself (symlinks followed); `mode` is the existing
    /// file's permission bits, kept by the replacement.
    Replace { file: PathBuf, mode: Option<u32> },
}

/// What makes two outputs the same file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Identity {
    Stdout,
    /// An existing file: device and inode (hard links and symlinks alike).
    Inode(u64, u64),
    /// A file not there yet: its folder (canonical) and name.
    Name(PathBuf),
}

/// Says what `path` names, following symlinks (even to a target that does
/// not exist yet). Refuses what cannot be an output: a folder, a block
/// device, a socket, a read-only file, a loop of symlinks.
pub fn resolve(path: &Path) -> Result<Dest, Error> {
    if path.as_os_str().is_empty() {
        return Err(Error::Folder(path.to_path_buf()));
    }
    if path.as_os_str() == "-" {
        return Ok(Dest::Stdout);
    }
    if let Some(dest) = descriptor(path)? {
        return Ok(dest);
    }
    match std::fs::metadata(path) {
        Ok(m) => existing(path, &m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let file = dangling_target(path)?;
            if file.as_os_str().to_string_lossy().ends_with('/') {
                return Err(Error::Folder(path.to_path_buf()));
            }
            Ok(Dest::Replace { file, mode: None })
        }
        Err(e) => Err(Error::Io {
            path: path.to_path_buf(),
            action: "cannot look at",
            source: e,
        }),
    }
}

/// What a file that is not a regular file is, for messages ("a FIFO (named
/// pipe)", "a block device", ...); `None` for a regular file.
pub fn kind_name(kind: &std::fs::FileType) -> Option<&'static str> {
    Some(if kind.is_file() {
        return None;
    } else if kind.is_dir() {
        "a folder"
    } else if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    })
}

/// An existing file at `path` (symlinks followed), by its kind.
fn existing(path: &Path, m: &Metadata) -> Result<Dest, Error> {
    let kind = m.file_type();
    if kind.is_dir() {
        return Err(Error::Folder(path.to_path_buf()));
    }
    if kind.is_char_device() || kind.is_fifo() {
        return Ok(Dest::InPlace(path.to_path_buf()));
    }
    if let Some(what) = kind_name(&kind) {
        return Err(Error::NotAFile {
            path: path.to_path_buf(),
            what,
        });
    }
    let mode = m.permissions().mode() & 0o7777;
    let file = std::fs::canonicalize(path).map_err(|e| Error::Io {
        path: path.to_path_buf(),
        action: "cannot resolve",
        source: e,
    })?;
    if mode & 0o222 == 0 || !writable(&file) {
        return Err(Error::ReadOnly { path: file, mode });
    }
    Ok(Dest::Replace {
        file,
        mode: Some(mode),
    })
}

/// Whether this process may write `file` (its owner, group and mode; root
/// may write any): a file another user keeps to themselves is not replaced
/// just because its folder would allow the rename.
fn writable(file: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(file.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a valid NUL-terminated path; access only reads.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
}

/// The paths that stand for an open file descriptor (`/dev/stdout`,
/// `/dev/fd/N`, `/proc/self/fd/N`, and symlinks to them): standard output
/// for descriptor 1, else written in place. Replacing what such a path
/// resolves to would unlink the file the descriptor writes, losing what is
/// written after.
fn descriptor(path: &Path) -> Result<Option<Dest>, Error> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        if let Some(fd) = fd_number(&p) {
            return match fd {
                // Standard input is what the command reads, the puzzle perhaps.
                0 => Err(Error::NotAFile {
                    path: path.to_path_buf(),
                    what: "standard input",
                }),
                1 => Ok(Some(Dest::Stdout)),
                _ => Ok(Some(Dest::InPlace(path.to_path_buf()))),
            };
        }
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => p = link_target(&p)?,
            _ => return Ok(None),
        }
    }
    Err(Error::TooManyLinks(path.to_path_buf()))
}

/// `N` of `/dev/fd/N` or `/proc/self/fd/N` (or `/proc/PID/fd/N` for this
/// process), and 0, 1, 2 for `/dev/stdin`, `/dev/stdout`, `/dev/stderr`.
fn fd_number(p: &Path) -> Option<u32> {
    let s = p.to_str()?;
    match s {
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        "/dev/stdin" => return Some(0),
        _ => {}
    }
    let own = format!("/proc/{}/fd/", std::process::id());
    let rest = ["/dev/fd/", "/proc/self/fd/", own.as_str()]
        .iter()
        .find_map(|prefix| s.strip_prefix(prefix))?;
    rest.parse().ok()
}

/// Where the symlink `p` points, relative to its folder.
fn link_target(p: &Path) -> Result<PathBuf, Error> {
    let to = std::fs::read_link(p).map_err(|e| Error::Io {
        path: p.to_path_buf(),
        action: "cannot read the symlink",
        source: e,
    })?;
    Ok(match p.parent() {
        Some(dir) if to.is_relative() => dir.join(to),
        _ => to,
    })
}

/// The file a path that does not exist stands for: symlinks followed to
/// their (missing) target, so that writing creates the target and keeps
/// the symlink.
fn dangling_target(path: &Path) -> Result<PathBuf, Error> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => p = link_target(&p)?,
            _ => return Ok(p),
        }
    }
    Err(Error::TooManyLinks(path.to_path_buf()))
}

/// The folder a file is in (`.` for a bare file name).
pub(crate) fn folder(file: &Path) -> PathBuf {
    match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

impl Dest {
    /// Checks, before any work, that this output could be written: a file's
    /// folder takes a new file (one is created and removed). A FIFO is not
    /// opened (that would hand its reader an end of file).
    pub fn check(&self) -> Result<(), Error> {
        match self {
            Dest::Replace { file, .. } => atomic::probe(file),
            Dest::Stdout | Dest::InPlace(_) => Ok(()),
        }
    }

    /// Writes `bytes` here, by the crate's rules.
    pub fn write(&self, bytes: &[u8]) -> Result<(), Error> {
        match self {
            Dest::Stdout => in_place::stdout(bytes),
            Dest::InPlace(path) => in_place::write(path, bytes),
            Dest::Replace { file, mode } => atomic::replace_file(file, *mode, bytes, || ()),
        }
    }

    /// What makes it the same output as another; `None` for a character
    /// device, which may take several outputs.
    pub(crate) fn identity(&self) -> Option<Identity> {
        let inode = |p: &Path| std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino(), m));
        match self {
            Dest::Stdout => Some(Identity::Stdout),
            Dest::InPlace(p) => match inode(p) {
                Some((_, _, m)) if m.file_type().is_char_device() => None,
                Some((dev, ino, _)) => Some(Identity::Inode(dev, ino)),
                None => Some(Identity::Name(p.clone())),
            },
            Dest::Replace { file, .. } => match inode(file) {
                Some((dev, ino, _)) => Some(Identity::Inode(dev, ino)),
                None => {
                    let dir = folder(file);
                    let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
                    Some(Identity::Name(
                        dir.join(file.file_name().unwrap_or_default()),
                    ))
                }
            },
        }
    }
}
