//! Input formats. Each format turns text into [`Puzzle`]s or a [`ParseError`]
//! naming file, line and column. Adding a format means one new file here and
//! one line in [`Format`] and [`parse_text`].

mod error;
mod grid;
pub mod native;

pub use error::ParseError;

use crate::model::Puzzle;

/// The formats `--from` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The thesis's new format, extended (see docs/format.md).
    Native,
}

/// Options of the importers that need more than the text.
#[derive(Clone, Debug, Default)]
pub struct ImportOptions {
    /// Board width for `tiles` when the tile count is not a square.
    pub width: Option<usize>,
    /// `tiles`: the goal has the blank last instead of first.
    pub blank_last: bool,
}

/// Parses text in the given format (or detects native/legacy when `None`).
/// Collections (Rush Hour and tiles files) give one puzzle per line.
pub fn parse_text(
    text: &str,
    file: &str,
    format: Option<Format>,
    _options: &ImportOptions,
) -> Result<Vec<Puzzle>, ParseError> {
    match format {
        Some(Format::Native) | None => native::parse(text, file).map(|p| vec![p]),
    }
}

/// Reads a file (`-` for standard input) and parses it.
pub fn load(
    path: &str,
    format: Option<Format>,
    options: &ImportOptions,
) -> Result<Vec<Puzzle>, ParseError> {
    let text = if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| ParseError::new(path, 0, 0, format!("cannot read standard input: {e}")))?;
        s
    } else {
        let bytes = std::fs::read(path)
            .map_err(|e| ParseError::new(path, 0, 0, format!("cannot read file: {e}")))?;
        String::from_utf8(bytes)
            .map_err(|e| ParseError::new(path, 0, 0, format!("not UTF-8 text: {e}")))?
    };
    if text.trim().is_empty() {
        return Err(ParseError::new(path, 0, 0, "empty file: no puzzle in it"));
    }
    parse_text(&text, path, format, options)
}
