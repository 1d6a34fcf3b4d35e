//! Output files that respect what a path names: the one writer behind every
//! file the solver and the reasoner write for a person (`--solution`,
//! `--render`, `--best-out`, `-o`, the case base).
//!
//! What a path names decides how it is written ([`Dest`]):
//! - a regular file, or a name that does not exist yet, is replaced
//!   atomically: a temporary file beside it is written, flushed and renamed
//!   over it, so the file is the old one or the new one, never half of each.
//!   The old file's mode is kept; a new file gets `0666` less the umask.
//! - a symlink is followed, even to a target that does not exist yet, and
//!   its target is replaced: the symlink stays a symlink.
//! - a read-only file (no write bit) is refused, even for root: the owner
//!   said it is not to be changed.
//! - a character device or a FIFO (`/dev/null`, `/dev/tty`, a shell's
//!   `>(cmd)` or `/dev/fd/N`) is written in place, never created, truncated,
//!   or replaced by a file; a FIFO that nobody reads is an error, not a hang.
//! - `-`, `/dev/stdout` and `/proc/self/fd/1` are standard output;
//!   `/dev/stdin` and `/dev/fd/0` are refused (the command reads them).
//! - a folder, a block device or a socket is refused.
//!
//! [`check`] says before any work whether a path could be written (so that
//! a search of hours does not end in "cannot write"), and [`distinct`]
//! refuses two outputs, or an output and an input, that name one file.

mod atomic;
mod dest;
mod error;
mod in_place;

pub use atomic::replace_file;
pub use dest::{resolve, Dest};
pub use error::Error;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Resolves `path` ([`resolve`]) and checks that it could be written now
/// ([`Dest::check`]); returns where the bytes would go.
pub fn check(path: &Path) -> Result<Dest, Error> {
    let dest = resolve(path)?;
    dest.check()?;
    Ok(dest)
}

/// Writes `bytes` to what `path` names (see the crate's rules), standard
/// output included.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    resolve(path)?.write(bytes)
}

/// Refuses two outputs that name the same file (after symlinks): the second
/// would silently replace the first. `outputs` are (flag, path) pairs, as
/// the user wrote them; character devices (`/dev/null`) may be named twice,
/// as writing one replaces nothing.
pub fn distinct(outputs: &[(&str, &Path)]) -> Result<(), Error> {
    // A map, not a scan: a collection of 18,068 boards has as many outputs.
    let mut seen: HashMap<dest::Identity, (&str, &Path)> = HashMap::new();
    for &(flag, path) in outputs {
        let dest = resolve(path)?;
        let Some(id) = dest.identity() else { continue };
        if let Some((first, first_path)) = seen.get(&id) {
            return Err(Error::SameOutput {
                first: format!("{first} {}", first_path.display()),
                second: format!("{flag} {}", path.display()),
            });
        }
        seen.insert(id, (flag, path));
    }
    Ok(())
}

/// [`check`] of many outputs, each folder probed once: a collection writes
/// a numbered file per puzzle into one folder. Returns the first output
/// that cannot be written, with why.
pub fn check_each<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Result<(), (&'a Path, Error)> {
    let mut probed: HashSet<PathBuf> = HashSet::new();
    for path in paths {
        let dest = resolve(path).map_err(|e| (path, e))?;
        if let Dest::Replace { file, .. } = &dest {
            if !probed.insert(dest::folder(file)) {
                continue;
            }
        }
        dest.check().map_err(|e| (path, e))?;
    }
    Ok(())
}

/// Refuses an output that is one of the command's input files (`-`,
/// standard input, is none): writing it would replace the input, a puzzle
/// by its solution or picture. Returns the input it would replace.
pub fn not_an_input(output: &Path, inputs: &[&Path]) -> Result<(), Error> {
    let Some(out) = resolve(output)?.identity() else {
        return Ok(());
    };
    for input in inputs.iter().filter(|i| i.as_os_str() != "-") {
        if resolve(input).ok().and_then(|d| d.identity()) == Some(out.clone()) {
            return Err(Error::IsInput {
                output: output.to_path_buf(),
                input: input.to_path_buf(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
