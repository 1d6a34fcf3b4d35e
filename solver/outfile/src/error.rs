//! Why an output cannot be written, each cause with what to do about it.

use std::path::PathBuf;

/// Why an output cannot be written. Each message says what to do; it names
/// the file where that is not the path given (a symlink's target, a
/// folder), so a caller prefixes the path it was given (and its flag).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    #[error("this names a folder, not a file; give a file name")]
    Folder(PathBuf),
    #[error(
        "the file {} is read-only (mode {mode:04o}); make it writable (chmod u+w) or choose another file",
        path.display()
    )]
    ReadOnly { path: PathBuf, mode: u32 },
    #[error("this is {what}, not a file; choose a regular file")]
    NotAFile { path: PathBuf, what: &'static str },
    #[error("no process reads this FIFO; start its reader first (for example `cat FIFO &`)")]
    NoReader(PathBuf),
    #[error("more than 40 symlinks in a row; point it at a real file")]
    TooManyLinks(PathBuf),
    #[error(
        "cannot create a file in the folder {} ({source}); an output is written as a new \
         file beside its name and renamed over it, so the folder must exist and be writable",
        dir.display()
    )]
    FolderNotWritable {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("{action} {}: {source}", path.display())]
    Io {
        path: PathBuf,
        action: &'static str,
        source: std::io::Error,
    },
    #[error("{second} names the same file as {first}: it would replace it; give each output its own file")]
    SameOutput { first: String, second: String },
    #[error(
        "this is the input file {}; writing there would replace it: choose another file",
        input.display()
    )]
    IsInput { output: PathBuf, input: PathBuf },
}

impl Error {
    /// The underlying I/O error, where there is one (a closed pipe on
    /// standard output is told apart by its kind).
    pub fn io_kind(&self) -> Option<std::io::ErrorKind> {
        match self {
            Error::Io { source, .. } | Error::FolderNotWritable { source, .. } => {
                Some(source.kind())
            }
            _ => None,
        }
    }
}
