//! Parse errors that name the file, line and column of the problem.

use std::fmt;

/// A malformed input: where it is and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// File name as given by the user (`-` for standard input).
    pub file: String,
    /// 1-based line; 0 when the problem is the file as a whole.
    pub line: usize,
    /// 1-based column; 0 when the problem is a whole line.
    pub column: usize,
    pub message: String,
}

/// A place in a file: 1-based line and column (0 for a whole line or file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loc {
    pub line: usize,
    pub column: usize,
}

impl Loc {
    /// The place at `line`, `column`.
    pub fn new(line: usize, column: usize) -> Loc {
        Loc { line, column }
    }
}

impl ParseError {
    /// The error `message` at `at` in `file`.
    pub fn at(file: &str, at: Loc, message: impl Into<String>) -> ParseError {
        ParseError::new(file, at.line, at.column, message)
    }

    /// The error `message` at `line`, `column` in `file`.
    pub fn new(file: &str, line: usize, column: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            file: file.to_string(),
            line,
            column,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As compilers do: no place for what concerns the whole file, no
        // column for a whole line.
        match (self.line, self.column) {
            (0, _) => write!(f, "{}: {}", self.file, self.message),
            (line, 0) => write!(f, "{}:{line}: {}", self.file, self.message),
            (line, column) => write!(f, "{}:{line}:{column}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for ParseError {}
