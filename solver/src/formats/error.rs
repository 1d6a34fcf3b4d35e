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

impl ParseError {
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
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ParseError {}
