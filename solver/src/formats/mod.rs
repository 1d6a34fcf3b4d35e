//! Input formats. Each format reads its own syntax and hands the cells,
//! blocks, goals and doors to the one [`builder`], which validates them and
//! makes the [`Puzzle`]; any problem is a [`ParseError`] naming file, line and
//! column. Adding a format means one new file here and one line in
//! [`Format`] and [`parse_text`]. See docs/format.md.

pub mod builder;
mod error;
mod grid;
pub mod ids;
pub mod klotski;
pub mod legacy;
pub mod native;
pub mod rush;
pub mod tiles;

pub use error::{Loc, ParseError};

use crate::model::Puzzle;

/// The formats `--from` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The thesis's new format, extended (see docs/format.md); several
    /// puzzles may follow one another, separated by lines `%%`.
    Native,
    /// The thesis's old format: grids only, connected equal characters form a block.
    Legacy,
    /// Rush Hour boards, one per line (`MOVES BOARD CLUSTER`, Fogleman's database).
    Rush,
    /// (n*m-1)-puzzles, one per line: tile numbers row-major, 0 the blank.
    Tiles,
    /// A GNOME Klotski level grid (`*` master, `.` targets, `-` doors).
    Klotski,
}

/// Options of the importers that need more than the text.
#[derive(Clone, Debug, Default)]
pub struct ImportOptions {
    /// Board width for `tiles` when the tile count is not a square.
    pub width: Option<usize>,
    /// `tiles`: the goal has the blank last instead of first.
    pub blank_last: bool,
    /// A puzzle without a goal section is an error (at the place where its
    /// goal grid would go): set by the commands that search for the goal.
    pub need_goal: bool,
}

/// Parses text in the given format; when `None`, native if
/// [`native::detect`] says so, else the old format. Collections (native files
/// with `%%` separators, Rush Hour and tiles files) give several puzzles.
pub fn parse_text(
    text: &str,
    file: &str,
    format: Option<Format>,
    options: &ImportOptions,
) -> Result<Vec<Puzzle>, ParseError> {
    let format = format.unwrap_or(if native::detect(text) {
        Format::Native
    } else {
        Format::Legacy
    });
    match format {
        Format::Native => native::parse_collection(text, file, options),
        Format::Legacy => legacy::parse(text, file, options).map(|p| vec![p]),
        Format::Rush => rush::parse(text, file),
        Format::Tiles => tiles::parse(text, file, options),
        Format::Klotski => klotski::parse(text, file).map(|p| vec![p]),
    }
}

/// A puzzle of the collection under `puzzles/`, by its path there (for
/// unit tests).
#[cfg(test)]
pub fn bundled(file: &str) -> Puzzle {
    let path = format!("{}/../puzzles/{file}", env!("CARGO_MANIFEST_DIR"));
    load(&path, None, &ImportOptions::default())
        .unwrap()
        .remove(0)
}

/// Reads a file (`-` for standard input) and parses it.
pub fn load(
    path: &str,
    format: Option<Format>,
    options: &ImportOptions,
) -> Result<Vec<Puzzle>, ParseError> {
    let bytes = read_bytes(path)?;
    let text = decode(path, &bytes)?;
    if text.trim().is_empty() {
        return Err(ParseError::new(path, 0, 0, "empty file: no puzzle in it"));
    }
    parse_text(text, path, format, options)
}

/// Most bytes an input file (puzzle or solution) may hold: above any real
/// one (a collection of all 2.5 million boards of Fogleman's Rush Hour
/// database is about 120 MB), so that an endless input (`/dev/zero`, a pipe
/// that never ends) ends in an error after 256 MiB instead of filling memory.
pub const MAX_INPUT_BYTES: u64 = 1 << 28;

/// The bytes of file `path`, or of standard input for `-`, at most
/// [`MAX_INPUT_BYTES`].
pub fn read_bytes(path: &str) -> Result<Vec<u8>, ParseError> {
    use std::io::Read;
    let what = if path == "-" {
        "standard input"
    } else {
        "file"
    };
    let source: Box<dyn Read> = if path == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| {
            let hint = match e.kind() {
                std::io::ErrorKind::NotFound => did_you_mean(path)
                    .map(|n| format!("; did you mean {n}?"))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            ParseError::new(path, 0, 0, format!("cannot read file: {e}{hint}"))
        })?)
    };
    let mut bytes = Vec::new();
    source
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ParseError::new(path, 0, 0, format!("cannot read {what}: {e}")))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        let m = format!("the {what} holds more than {MAX_INPUT_BYTES} bytes: no puzzle or solution is that large");
        return Err(ParseError::new(path, 0, 0, m));
    }
    Ok(bytes)
}

/// The file in `path`'s folder whose name is nearest `path`'s (at most two
/// edits away, the nearest first), for a misspelt name.
fn did_you_mean(path: &str) -> Option<String> {
    let path = std::path::Path::new(path);
    let name = path.file_name()?.to_str()?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    let (distance, nearest) = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .map(|other| (strsim::levenshtein(name, &other), other))
        .min()?;
    (distance <= 2).then(|| dir.join(nearest).display().to_string())
}

/// The whitespace-separated tokens of `line` with their 1-based character
/// columns, which every line-oriented reader (native headers, Rush Hour,
/// tiles, solutions) reports errors at.
pub fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (col, (i, ch)) in line.char_indices().enumerate() {
        match (ch.is_whitespace(), start) {
            (true, Some((c0, b0))) => {
                out.push((c0 + 1, &line[b0..i]));
                start = None;
            }
            (false, None) => start = Some((col, i)),
            _ => {}
        }
    }
    if let Some((c0, b0)) = start {
        out.push((c0 + 1, &line[b0..]));
    }
    out
}

/// The text of a file, or an error naming the line and column of the first
/// byte that is not UTF-8. A leading byte-order mark is skipped.
pub fn decode<'a>(path: &str, bytes: &'a [u8]) -> Result<&'a str, ParseError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        let good = &bytes[..e.valid_up_to()];
        let line = good.iter().filter(|b| **b == b'\n').count() + 1;
        let line_start = good.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        let column = std::str::from_utf8(&good[line_start..]).map_or(1, |s| s.chars().count() + 1);
        ParseError::new(path, line, column, "not UTF-8 text: save the file as UTF-8")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_native_and_legacy() {
        let native = "% name: x\n!\n@\n!\n#@ #\n!\n# @#\n!\n";
        let p = parse_text(native, "f", None, &ImportOptions::default()).unwrap();
        assert_eq!(p[0].name.as_deref(), Some("x"));
        let legacy = "####\n#@ #\n####\n";
        let p = parse_text(legacy, "f", None, &ImportOptions::default()).unwrap();
        assert_eq!(p[0].types[0].id, '@');
        assert!(p[0].goals.is_empty());
    }

    /// Every shared development puzzle reads back from its native text unchanged.
    #[test]
    fn dev_puzzles_round_trip_through_native() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/dev-puzzles");
        assert!(
            dir.is_dir(),
            "{} is missing: this test needs the shared development puzzles; \
             put the shared folder (dev-puzzles/) beside the repository",
            dir.display()
        );
        let cases = [
            ("rushhour_dev.txt", Format::Rush),
            ("korf_first10.txt", Format::Tiles),
            ("gnome-klotski/red_donkey.txt", Format::Klotski),
            ("gnome-klotski/pennant_puzzle.txt", Format::Klotski),
        ];
        for (name, format) in cases {
            let text = std::fs::read_to_string(dir.join(name)).unwrap();
            let puzzles = parse_text(&text, name, Some(format), &ImportOptions::default()).unwrap();
            let written = native::write_collection(&puzzles);
            assert_eq!(
                native::parse_collection(&written, "w", &ImportOptions::default()).unwrap(),
                puzzles,
                "{name}"
            );
        }
    }

    #[test]
    fn boards_larger_than_supported() {
        let d = ImportOptions::default();
        // Rush Hour and tiles add a frame: 127 cells a side is too many.
        let rush = format!("AA{}", "o".repeat(127 * 127 - 2));
        let e = parse_text(&rush, "f", Some(Format::Rush), &d).unwrap_err();
        assert!(e.message.contains("larger than supported"), "{e}");
        let tiles: Vec<String> = (0..127 * 2).map(|n| n.to_string()).collect();
        let wide = ImportOptions {
            width: Some(127),
            ..Default::default()
        };
        let e = parse_text(&tiles.join(" "), "f", Some(Format::Tiles), &wide).unwrap_err();
        assert!(e.message.contains("larger than supported"), "{e}");
        let tall = format!("*.\n{}", "#\n".repeat(128));
        let e = parse_text(&tall, "f", Some(Format::Klotski), &d).unwrap_err();
        assert!(e.message.contains("larger than supported"), "{e}");
        let e = parse_text(&tall, "f", Some(Format::Legacy), &d).unwrap_err();
        assert!(e.message.contains("larger than supported"), "{e}");
    }

    #[test]
    fn decode_names_the_bad_byte() {
        let e = decode("f", b"ab\nc\xffd").unwrap_err();
        assert_eq!((e.line, e.column), (2, 2));
        assert_eq!(decode("f", b"\xEF\xBB\xBFok").unwrap(), "ok");
    }
}
