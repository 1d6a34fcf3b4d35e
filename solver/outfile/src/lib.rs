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
pub use dest::{kind_name, resolve, Dest};
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

/// Checks, before any work, every output a command will write, each path
/// resolved once: each could be written now ([`Dest::check`], a folder
/// probed once however many of its files are named: a collection writes a
/// numbered file per puzzle), none is one of the `inputs` (writing it would
/// replace a puzzle by its solution or picture; `-`, standard input, is
/// none), and no two name the same file after symlinks (the second would
/// silently replace the first; character devices such as `/dev/null` may be
/// named twice, as writing one replaces nothing). `outputs` are (flag,
/// path) pairs as the user wrote them. On failure, the index of the output
/// at fault and why.
pub fn check_outputs(outputs: &[(&str, &Path)], inputs: &[&Path]) -> Result<(), (usize, Error)> {
    let inputs: Vec<(&Path, dest::Identity)> = inputs
        .iter()
        .filter(|i| i.as_os_str() != "-")
        .filter_map(|i| Some((*i, resolve(i).ok()?.identity()?)))
        .collect();
    let mut probed: HashSet<PathBuf> = HashSet::new();
    // A map, not a scan: a collection of 18,068 boards has as many outputs.
    let mut seen: HashMap<dest::Identity, usize> = HashMap::new();
    for (k, &(flag, path)) in outputs.iter().enumerate() {
        let dest = resolve(path).map_err(|e| (k, e))?;
        let probe = match &dest {
            Dest::Replace { file, .. } => probed.insert(dest::folder(file)),
            Dest::Stdout | Dest::InPlace(_) => true,
        };
        if probe {
            dest.check().map_err(|e| (k, e))?;
        }
        let Some(id) = dest.identity() else { continue };
        if let Some((input, _)) = inputs.iter().find(|(_, i)| *i == id) {
            let output = path.to_path_buf();
            let input = input.to_path_buf();
            return Err((k, Error::IsInput { output, input }));
        }
        if let Some(&first) = seen.get(&id) {
            let (first_flag, first_path) = outputs[first];
            return Err((
                k,
                Error::SameOutput {
                    first: format!("{first_flag} {}", first_path.display()),
                    second: format!("{flag} {}", path.display()),
                },
            ));
        }
        seen.insert(id, k);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
