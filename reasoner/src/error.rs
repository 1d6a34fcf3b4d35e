//! The reasoner's errors: each says what went wrong and where, and maps to an
//! exit code (2: bad input or setup; the cycle's own outcomes are reports, not
//! errors).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A case-base file that does not parse or holds invalid values.
    #[error("{}:{line}:{column}: {message}", path.display())]
    CaseBaseSyntax {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// A case base that parses but cannot be used as asked.
    #[error("{}: {message}", path.display())]
    CaseBase { path: PathBuf, message: String },
    /// Reading or writing a file.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// `solver features` failed or answered something unusable.
    #[error("feature extraction failed: {0}")]
    Features(String),
    /// A puzzle no attempt could solve whatever its parameters (no goal).
    #[error("{0}")]
    Puzzle(String),
    /// The solver cannot be started at all.
    #[error("{0}")]
    Solver(String),
    /// A bad command-line value.
    #[error("{0}")]
    Usage(String),
}

impl Error {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// Process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        2
    }
}
