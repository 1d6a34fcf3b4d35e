//! The native format: the thesis's new format (§7.1.3, fig. 7.3), extended
//! with `%` comment/metadata lines, `-` door cells and `.` as an explicit
//! empty cell. See `docs/format.md`.
//!
//! ```text
//! % name: Classic Klotski
//! !
//! @ 1,0 0,1 1,1
//! a
//! b 0,1
//! v | 0,1
//! !
//! <start grid>
//! !
//! <goal grid>   (one or more; all but the last are subgoals)
//! !
//! ```

use std::collections::HashMap;

use super::builder::{comment, Metadata, PuzzleBuilder};
use super::error::{Loc, ParseError};
use super::grid::{split_into_shape, Grid};
use super::ImportOptions;
use crate::model::{Axis, BlockType, Puzzle, Shape};

/// Characters that cannot be block identifiers.
pub const RESERVED: &[char] = &['#', ' ', '.', '-', '!', '%', '|', '=', ',', '\t'];

/// The identifier of the master block.
pub const MASTER_ID: char = '@';

/// True when the text is in the native format: its first line that is not a
/// comment or blank is `!` alone (thesis §7.1.3).
pub fn detect(text: &str) -> bool {
    text.lines()
        .map(|l| l.trim_end())
        .find(|l| !l.is_empty() && !l.starts_with('%'))
        .is_some_and(|l| l == "!")
}

/// True for the line that separates the puzzles of a native collection.
fn is_separator(line: &str) -> bool {
    line.trim_end() == "%%"
}

/// Parses one puzzle in the native format. A file holding several puzzles
/// separated by `%%` lines is an error here: see [`parse_collection`].
pub fn parse(text: &str, file: &str) -> Result<Puzzle, ParseError> {
    let mut puzzles = parse_chunks(text, file, &ImportOptions::default())?;
    if puzzles.len() > 1 {
        let (line, _) = puzzles.swap_remove(1);
        return Err(ParseError::new(
            file,
            line,
            0,
            "this file holds several puzzles separated by '%%' lines; load it as a collection",
        ));
    }
    Ok(puzzles.pop().expect("parse_chunks gives at least one").1)
}

/// Parses a native collection: puzzles one after another, separated by lines
/// `%%` (a file without such a line is a collection of one). Chunks holding
/// nothing but comments and blank lines are skipped.
pub fn parse_collection(
    text: &str,
    file: &str,
    options: &ImportOptions,
) -> Result<Vec<Puzzle>, ParseError> {
    Ok(parse_chunks(text, file, options)?
        .into_iter()
        .map(|(_, p)| p)
        .collect())
}

/// The puzzles of a collection with the first line of each.
fn parse_chunks(
    text: &str,
    file: &str,
    options: &ImportOptions,
) -> Result<Vec<(usize, Puzzle)>, ParseError> {
    let mut chunks: Vec<Vec<(usize, &str)>> = vec![Vec::new()];
    for (i, raw) in text.lines().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if is_separator(line) {
            chunks.push(Vec::new());
        } else {
            chunks.last_mut().expect("never empty").push((i + 1, line));
        }
    }
    let mut puzzles = Vec::new();
    for chunk in chunks {
        let has_content = chunk
            .iter()
            .any(|(_, l)| !l.trim().is_empty() && !l.starts_with('%'));
        if has_content {
            puzzles.push((chunk[0].0, parse_lines(&chunk, file, options)?));
        }
    }
    if puzzles.is_empty() {
        return Err(ParseError::new(file, 0, 0, "empty file: no puzzle in it"));
    }
    Ok(puzzles)
}

/// Writes several puzzles as one native collection (separated by `%%`).
pub fn write_collection(puzzles: &[Puzzle]) -> String {
    let mut out = String::new();
    for (i, p) in puzzles.iter().enumerate() {
        if i > 0 {
            out.push_str("%%\n");
        }
        out.push_str(&write(p));
    }
    out
}

/// `(line number, text)` lines of a file.
type Lines<'a> = Vec<(usize, &'a str)>;

/// Parses one puzzle from `(line number, text)` lines.
fn parse_lines(
    lines: &[(usize, &str)],
    file: &str,
    options: &ImportOptions,
) -> Result<Puzzle, ParseError> {
    let (metadata, sections) = split_sections(lines, file)?;
    let first_line = lines.first().map_or(0, |l| l.0);
    if sections.is_empty() {
        return Err(ParseError::new(
            file,
            first_line,
            0,
            "no puzzle: expected a '!' line, the block definitions, '!' and the start grid",
        ));
    }
    let header_end = sections[0].last().map_or(first_line, |l| l.0);
    let declared = parse_header(file, &sections[0], header_end)?;
    let Some(start_rows) = sections.get(1) else {
        return Err(ParseError::new(
            file,
            header_end + 1,
            0,
            "missing start position: expected a '!' line and the start grid after the block definitions",
        ));
    };
    if start_rows.is_empty() {
        return Err(ParseError::new(
            file,
            header_end + 1,
            0,
            "the start grid is empty: draw the board between the second and third '!' lines",
        ));
    }
    let start = Grid::from_rows(file, start_rows)?;
    let mut goals = Vec::new();
    for rows in &sections[2..] {
        if rows.is_empty() {
            return Err(ParseError::new(
                file,
                start.lines[0],
                0,
                "an empty goal section (two '!' lines with nothing between them)",
            ));
        }
        goals.push(Grid::from_rows(file, rows)?);
    }
    let goal_at = options
        .need_goal
        .then(|| Loc::new(start.lines[start.height() - 1] + 1, 1));
    let mut builder = build(file, &declared, &start, &goals)?;
    builder.metadata(metadata);
    builder.build(goal_at)
}

/// The `% key: value` metadata and the sections between `!` lines, without
/// the blank lines around them.
fn split_sections<'a>(
    lines: &[(usize, &'a str)],
    file: &str,
) -> Result<(Metadata, Vec<Lines<'a>>), ParseError> {
    let mut metadata = Vec::new();
    let mut sections: Vec<Lines> = Vec::new();
    for &(line_no, line) in lines {
        if let Some(key_value) = comment(line) {
            metadata.extend(key_value);
        } else if line.trim_end() == "!" {
            sections.push(Vec::new());
        } else if let Some(section) = sections.last_mut() {
            section.push((line_no, line));
        } else if !line.trim().is_empty() {
            return Err(ParseError::new(
                file,
                line_no,
                1,
                "expected '!' on a line of its own before the block definitions",
            ));
        }
    }
    // Blank lines around grids and the empty section after the final '!' carry nothing.
    for s in &mut sections {
        while s.last().is_some_and(|(_, l)| l.trim().is_empty()) {
            s.pop();
        }
        let leading = s.iter().take_while(|(_, l)| l.trim().is_empty()).count();
        s.drain(..leading);
    }
    while sections.last().is_some_and(|s| s.is_empty()) {
        sections.pop();
    }
    Ok((metadata, sections))
}

/// A block type as declared in the header, before instances are counted.
struct Declared {
    block: BlockType,
    line: usize,
}

/// The block types of the header section, one per non-blank line.
fn parse_header(
    file: &str,
    rows: &[(usize, &str)],
    header_end: usize,
) -> Result<Vec<Declared>, ParseError> {
    let mut declared: Vec<Declared> = Vec::new();
    for &(line, text) in rows.iter().filter(|(_, t)| !t.trim().is_empty()) {
        let block = parse_declaration(file, line, text)?;
        if let Some(prev) = declared.iter().find(|d| d.block.id == block.id) {
            return Err(ParseError::new(
                file,
                line,
                1,
                format!(
                    "block type '{}' is defined twice (first on line {})",
                    block.id, prev.line
                ),
            ));
        }
        declared.push(Declared { block, line });
    }
    if declared.is_empty() {
        return Err(ParseError::new(
            file,
            rows.first().map_or(header_end, |r| r.0),
            0,
            "no block types defined: the first section must list them, one per line",
        ));
    }
    Ok(declared)
}

/// One header line: the identifier, then optionally `|` or `=` (a slider)
/// and the cell offsets `x,y` of the shape beyond the anchor.
fn parse_declaration(file: &str, line: usize, text: &str) -> Result<BlockType, ParseError> {
    let err = |column: usize, message: String| ParseError::new(file, line, column, message);
    let id = text.chars().next().expect("a non-blank line");
    if RESERVED.contains(&id) || super::ids::invisible(id) {
        return Err(err(
            1,
            format!(
                "{} cannot be a block identifier (reserved: # . - ! % | = , whitespace, control and invisible \
                 characters such as U+202E or U+200D); \
                 a header line starts with the block's identifier",
                describe(id)
            ),
        ));
    }
    let rest_start = id.len_utf8();
    if rest_start < text.len() && !text[rest_start..].starts_with(char::is_whitespace) {
        return Err(err(
            2,
            format!("a block identifier is one character: put a space after '{id}'"),
        ));
    }
    let mut slider = None;
    let mut offsets = vec![(0, 0)];
    // The first token is the identifier itself (a space follows it).
    for (column, tok) in super::tokens(text).into_iter().skip(1) {
        let (axis, coords) = match tok.chars().next() {
            Some('|') => (Some(Axis::Vertical), &tok[1..]),
            Some('=') => (Some(Axis::Horizontal), &tok[1..]),
            _ => (None, tok),
        };
        if let Some(axis) = axis {
            if slider.is_some_and(|s| s != axis) {
                return Err(err(
                    column,
                    format!("block type '{id}' cannot be both a vertical (|) and a horizontal (=) slider"),
                ));
            }
            slider = Some(axis);
        }
        if coords.is_empty() {
            continue;
        }
        let parsed = coords.split_once(',').and_then(|(x, y)| {
            Some((x.trim().parse::<i32>().ok()?, y.trim().parse::<i32>().ok()?))
        });
        let Some((x, y)) = parsed.filter(|(x, y)| x.abs() < 128 && y.abs() < 128) else {
            return Err(err(
                column,
                format!(
                    "expected a cell offset 'x,y' (column,row, each within ±127) but found '{tok}'"
                ),
            ));
        };
        offsets.push((y, x));
    }
    Ok(BlockType {
        id,
        shape: Shape::new(offsets).expect("contains (0,0)"),
        slider,
        is_master: id == MASTER_ID,
    })
}

/// A character for an error message, visible even when it is blank:
/// `'x'`, or `U+0009` for a tab.
fn describe(c: char) -> String {
    if super::ids::invisible(c) {
        format!("U+{:04X}", c as u32)
    } else {
        format!("'{c}'")
    }
}

/// Hands the board, the declared types, the start grid's blocks and the
/// goal grids' requirements to the builder.
fn build<'f>(
    file: &'f str,
    declared: &[Declared],
    start: &Grid,
    goals: &[Grid],
) -> Result<PuzzleBuilder<'f>, ParseError> {
    let known =
        |ch: char| matches!(ch, '#' | ' ' | '.' | '-') || declared.iter().any(|d| d.block.id == ch);
    let mut builder = start.builder(file, |ch| {
        (!known(ch)).then(|| {
            format!(
                "unknown character {}: not a wall (#), empty cell (space or .), door (-) \
                 or a block defined in the header",
                describe(ch)
            )
        })
    })?;
    // A door may also be marked in a goal grid (where the start grid shows the master on it).
    for goal in goals {
        start.goal_doors(goal, &mut builder)?;
    }
    for d in declared {
        builder.declare(d.block.clone(), Loc::new(d.line, 1));
    }
    let cells = start.cells_by_char();
    for (t, d) in declared.iter().enumerate() {
        for (r, c) in instances(file, start, &cells, d, "cells")? {
            builder.place(t, builder.cell(r, c), start.loc(r, c))?;
        }
    }
    for goal in goals {
        goal.check(file, |ch| {
            (!known(ch)).then(|| {
                format!(
                    "the goal names block {}, which the header does not define",
                    describe(ch)
                )
            })
        })?;
        builder.goal_section();
        let cells = goal.cells_by_char();
        for (t, d) in declared.iter().enumerate() {
            for (r, c) in instances(file, goal, &cells, d, "goal cells")? {
                builder.want(t, builder.cell(r, c), goal.loc(r, c))?;
            }
        }
    }
    Ok(builder)
}

/// The anchors `(row, col)` of the blocks of a declared type drawn in a
/// grid, or an error at the first cell that does not fit its shape.
fn instances(
    file: &str,
    grid: &Grid,
    cells: &HashMap<char, Vec<(usize, usize)>>,
    d: &Declared,
    what: &str,
) -> Result<Vec<(usize, usize)>, ParseError> {
    let marked = cells.get(&d.block.id).map_or(&[][..], Vec::as_slice);
    split_into_shape(marked, &d.block.shape).map_err(|(r, c)| {
        ParseError::at(
            file,
            grid.loc(r, c),
            format!(
                "the {what} marked '{}' do not form the shape declared for it on line {}",
                d.block.id, d.line
            ),
        )
    })
}

/// Writes a puzzle in the native format; `parse(write(p))` gives `p` back.
pub fn write(puzzle: &Puzzle) -> String {
    let mut out = String::new();
    for (k, v) in &puzzle.metadata {
        out.push_str(&format!("% {k}: {v}\n"));
    }
    if puzzle.name.is_some()
        && !puzzle
            .metadata
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("name"))
    {
        out.push_str(&format!(
            "% name: {}\n",
            puzzle.name.as_deref().unwrap_or_default()
        ));
    }
    out.push_str("!\n");
    for t in &puzzle.types {
        out.push(t.id);
        match t.slider {
            Some(Axis::Vertical) => out.push_str(" |"),
            Some(Axis::Horizontal) => out.push_str(" ="),
            None => {}
        }
        for &(dr, dc) in &t.shape.offsets()[1..] {
            out.push_str(&format!(" {dc},{dr}"));
        }
        out.push('\n');
    }
    out.push_str("!\n");
    out.push_str(&protect_trailing_spaces(&puzzle.render(&puzzle.start)));
    for g in &puzzle.goals {
        out.push_str("!\n");
        out.push_str(&protect_trailing_spaces(&puzzle.render_goal(g)));
    }
    out.push_str("!\n");
    out
}

/// Editors strip trailing spaces; an empty cell at the end of a row is written as '.'.
fn protect_trailing_spaces(grid: &str) -> String {
    let mut out = String::with_capacity(grid.len());
    for line in grid.lines() {
        let trimmed = line.trim_end_matches(' ');
        out.push_str(trimmed);
        out.extend(std::iter::repeat_n('.', line.len() - trimmed.len()));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CellKind;

    const SMALL: &str = include_str!("../../tests/common/small.txt");

    /// Parses and expects an error at `(line, column)` whose message contains `what`.
    fn error_at(text: &str, line: usize, column: usize, what: &str) {
        let e = parse(text, "t.txt").expect_err(text);
        assert_eq!((e.line, e.column), (line, column), "{e}");
        assert!(e.message.contains(what), "expected '{what}' in: {e}");
        assert!(e
            .to_string()
            .starts_with(&format!("t.txt:{line}:{column}: ")));
    }

    #[test]
    fn parses_and_round_trips() {
        let p = parse(SMALL, "t").unwrap();
        assert_eq!(p.name.as_deref(), Some("small"));
        assert_eq!(p.types[1].slider, Some(Axis::Vertical));
        assert_eq!(p.board.kind(p.board.index(5, 1)), CellKind::Door);
        assert_eq!(parse(&write(&p), "w").unwrap(), p);
    }

    #[test]
    fn unknown_character() {
        error_at(
            &SMALL.replace("#a  #", "#a ?#"),
            10,
            4,
            "unknown character '?'",
        );
    }

    #[test]
    fn ragged_rows() {
        error_at(&SMALL.replace("#a  #", "#a #"), 10, 5, "ragged rows");
    }

    #[test]
    fn block_type_defined_twice() {
        error_at(&SMALL.replace("a\n!", "a\na 0,1\n!"), 6, 1, "defined twice");
    }

    #[test]
    fn cells_that_do_not_form_the_shape() {
        error_at(
            &SMALL.replace("#@@v#\n#a", "#@@ #\n#a"),
            8,
            4,
            "do not form the shape",
        );
    }

    #[test]
    fn no_master_where_a_goal_needs_one() {
        let text = SMALL.replace("#@@v#\n#@@v#", "#  v#\n#  v#");
        error_at(&text, 17, 2, "no master");
    }

    #[test]
    fn goal_naming_an_unknown_block() {
        error_at(&SMALL.replace("#@@ #\n#-###", "#@@z#\n#-###"), 18, 4, "'z'");
    }

    #[test]
    fn slider_that_cannot_slide() {
        let text = "!\n@\nh = 1,0\n!\n#####\n#@ ##\n#hh##\n#####\n!\n";
        let e = parse(text, "t").unwrap_err();
        assert_eq!((e.line, e.column), (3, 1), "{e}");
        assert!(e.message.contains("can never slide"), "{e}");
    }

    #[test]
    fn empty_file_and_empty_sections() {
        for text in ["", "\n\n", "% only metadata\n", "!\n!\n", "!\n"] {
            let e = parse(text, "t").unwrap_err();
            assert!(
                e.message.contains("no puzzle")
                    || e.message.contains("empty")
                    || e.message.contains("no block types"),
                "{text:?}: {e}"
            );
        }
        let e = parse("!\n@\n", "t").unwrap_err();
        assert!(e.message.contains("missing start"), "{e}");
        let e = parse("!\n@\n!\n#@#\n!\n!\n#@#\n!\n", "t").unwrap_err();
        assert!(e.message.contains("empty goal"), "{e}");
    }

    #[test]
    fn board_larger_than_supported() {
        let wide = format!("!\n@\n!\n@{}\n!\n", " ".repeat(128));
        error_at(&wide, 4, 1, "larger than supported");
        let tall = format!("!\n@\n!\n@\n{}!\n", ".\n".repeat(128));
        error_at(&tall, 4, 1, "larger than supported");
    }

    #[test]
    fn goal_on_a_wall() {
        error_at(
            &SMALL.replace("#@@ #\n#@@ #\n#-###", "#   #\n#@@ #\n#@@##"),
            18,
            2,
            "wall",
        );
    }

    #[test]
    fn odd_input_gives_errors_not_panics() {
        // Non-ASCII identifiers work; tabs and CRLF line ends are handled.
        let p = parse(
            "!\r\n@\r\né 0,1\r\n!\r\n###\r\n#@#\r\n#é#\r\n#é#\r\n###\r\n!\r\n",
            "t",
        )
        .unwrap();
        assert_eq!(p.types[1].id, 'é');
        let p = parse("!\n@\tb\n!\n#@#\n!\n", "t");
        assert!(p.is_err());
        assert_eq!(
            parse("!\n@\t1,0\n!\n#@@#\n!\n", "t").unwrap().types[0]
                .shape
                .size(),
            2
        );
        error_at("!\n@ 99999999999,0\n!\n#@#\n!\n", 2, 3, "cell offset");
        error_at("!\n@ 127,127\n!\n#@#\n!\n", 4, 2, "shape");
        error_at("!\n@ -5,3\n!\n#@#\n!\n", 4, 2, "shape");
        error_at("!\n\u{1}\n!\n#@#\n!\n", 2, 1, "U+0001");
        error_at("!\n@x\n!\n#@#\n!\n", 2, 2, "one character");
        error_at("!\n@\n!\n#@\t#\n!\n", 4, 3, "U+0009");
        error_at("garbage\n", 1, 1, "expected '!'");
    }

    /// Issue 12: the message said "unknown character character U+0000".
    #[test]
    fn an_invisible_character_is_named_once() {
        let e = parse("!\n@\n!\n#@\0#\n!\n", "t").unwrap_err();
        assert_eq!((e.line, e.column), (4, 3), "{e}");
        assert!(
            e.message
                .starts_with("unknown character U+0000: not a wall (#)"),
            "{e}"
        );
    }

    #[test]
    fn a_search_needs_a_goal_section_where_it_would_go() {
        let text = "% name: x\n!\n@\n!\n#@ #\n!\n";
        assert!(parse(text, "t").unwrap().goals.is_empty());
        let need = ImportOptions {
            need_goal: true,
            ..Default::default()
        };
        let e = parse_collection(text, "t", &need).unwrap_err();
        assert_eq!((e.line, e.column), (6, 1), "{e}");
        assert!(e.message.contains("no goal section"), "{e}");
        assert_eq!(
            parse_collection(SMALL, "t", &need).unwrap()[0].goals.len(),
            1
        );
    }

    #[test]
    fn collections_split_at_double_percent() {
        let two = format!("{SMALL}%%\n{}", SMALL.replace("small", "second"));
        let ps = parse_collection(&two, "t", &ImportOptions::default()).unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[1].name.as_deref(), Some("second"));
        assert_eq!(
            parse_collection(&write_collection(&ps), "w", &ImportOptions::default()).unwrap(),
            ps
        );
        let e = parse(&two, "t").unwrap_err();
        assert_eq!(e.line, 22, "{e}");
        // Errors in the second puzzle name the line in the whole file.
        let bad = format!("{SMALL}%%\n{}", SMALL.replace("#a  #", "#a ?#"));
        let e = parse_collection(&bad, "t", &ImportOptions::default()).unwrap_err();
        assert_eq!((e.line, e.column), (10 + 21, 4), "{e}");
    }
}
