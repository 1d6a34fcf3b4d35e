//! The (n*m-1)-puzzle (8-puzzle, 15-puzzle...): one puzzle per line, tile
//! numbers row-major separated by whitespace, 0 the blank.
//!
//! The width is the square root of the tile count, or `--width`. A line of
//! `N*N + 1` numbers (with the width: one more than a multiple of it), such as
//! Korf's `OPTLEN t0 ... t15`, starts with the known optimum, kept as the
//! metadata `optimum: OPTLEN steps`. Every tile is a unique 1x1 block named by
//! [`super::ids::fresh_sequence`]: tiles 1-9 are `1`-`9`, 10-35 are `A`-`Z`,
//! 36-61 `a`-`z`, then ASCII symbols and Latin-1 and Greek letters. The
//! model has a wall frame around the board (board row r, column c is model
//! row r+1, column c+1). The goal fixes every tile: `0 1 2 ...` with the
//! blank first (Korf's convention), or `1 2 ... 0` with `--blank-last`.
//! Positions of the wrong permutation parity are accepted and marked with the
//! metadata `solvable: no`. Blank lines and lines starting with `%` are skipped.

use super::builder::PuzzleBuilder;
use super::error::{Loc, ParseError};
use super::ids::{fresh_count, fresh_sequence};
use super::ImportOptions;
use crate::model::{BlockType, CellKind, Puzzle, Shape};

/// Parses a file of tile puzzles, one per line.
pub fn parse(text: &str, file: &str, options: &ImportOptions) -> Result<Vec<Puzzle>, ParseError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() || line.starts_with('%') {
            continue;
        }
        out.push(parse_line(line, i + 1, file, options)?);
    }
    if out.is_empty() {
        return Err(ParseError::new(
            file,
            0,
            0,
            "empty file: no tile puzzle in it",
        ));
    }
    Ok(out)
}

fn isqrt(n: usize) -> Option<usize> {
    let r = (n as f64).sqrt().round() as usize;
    (r * r == n).then_some(r)
}

/// Parses one line of tile numbers.
pub fn parse_line(
    line: &str,
    line_no: usize,
    file: &str,
    options: &ImportOptions,
) -> Result<Puzzle, ParseError> {
    let err = |column: usize, message: String| ParseError::new(file, line_no, column, message);
    let mut numbers = numbers(line).map_err(|(col, m)| err(col, m))?;
    let count = numbers.len();
    let with_optimum = match options.width {
        Some(0) => return Err(err(0, "--width must be at least 1".into())),
        Some(w) => !count.is_multiple_of(w) && (count - 1).is_multiple_of(w),
        None => isqrt(count).is_none() && count > 1 && isqrt(count - 1).is_some(),
    };
    let optimum = with_optimum.then(|| numbers.remove(0).1);
    let tiles = numbers.len();
    let width = match options.width {
        Some(w) => w,
        None => isqrt(tiles).ok_or_else(|| {
            err(
                0,
                format!(
                    "{count} numbers do not make a square board (nor a square board after an \
                     optimum); give the width with --width"
                ),
            )
        })?,
    };
    if !tiles.is_multiple_of(width) {
        return Err(err(
            0,
            format!("{tiles} tiles do not fill rows of width {width}"),
        ));
    }
    let height = tiles / width;
    if tiles < 2 {
        return Err(err(0, "a tile puzzle needs at least two cells".into()));
    }
    let mut builder = PuzzleBuilder::new(file, height + 2, width + 2, Loc::new(line_no, 1))?;
    if tiles - 1 > fresh_count() {
        return Err(err(
            1,
            format!(
                "{} tiles are more than the {} block identifiers available",
                tiles - 1,
                fresh_count()
            ),
        ));
    }
    let index_of = permutation(&numbers, height, width).map_err(|(col, m)| err(col, m))?;
    let goal_index = |n: usize| {
        if options.blank_last {
            (n + tiles - 1) % tiles
        } else {
            n
        }
    };
    place_tiles(&mut builder, width, &index_of, goal_index, line_no)?;
    let solvable = solvable(
        &index_of,
        &(0..tiles).map(goal_index).collect::<Vec<_>>(),
        width,
        height,
    );
    builder.metadata([("name".into(), format!("tiles line {line_no}"))]);
    builder.metadata(optimum.map(|o| ("optimum".into(), format!("{o} steps"))));
    builder.metadata((!solvable).then(|| ("solvable".into(), "no".into())));
    builder.build(None)
}

/// The whole numbers of a line with their 1-based columns, or the column of
/// the first token that is not one and the message.
fn numbers(line: &str) -> Result<Vec<(usize, u64)>, (usize, String)> {
    super::tokens(line)
        .into_iter()
        .map(|(col, tok)| {
            tok.parse::<u64>().map(|n| (col, n)).map_err(|_| {
                (
                    col,
                    format!("'{tok}' is not a tile number (whole numbers, 0 for the blank)"),
                )
            })
        })
        .collect()
}

/// Where each tile number is (its board index, row-major), when the numbers
/// are exactly 0 to tiles-1; else the column of the first bad one and why.
fn permutation(
    numbers: &[(usize, u64)],
    height: usize,
    width: usize,
) -> Result<Vec<usize>, (usize, String)> {
    let tiles = numbers.len();
    let mut where_is: Vec<Option<(usize, usize)>> = vec![None; tiles];
    for (index, &(col, n)) in numbers.iter().enumerate() {
        if n >= tiles as u64 {
            return Err((
                col,
                format!(
                    "tile {n} is out of range: a {height}x{width} board has tiles 0 to {}",
                    tiles - 1
                ),
            ));
        }
        if let Some((_, first)) = where_is[n as usize] {
            return Err((
                col,
                format!("tile {n} appears twice (first at column {first})"),
            ));
        }
        where_is[n as usize] = Some((index, col));
    }
    // `tiles` numbers below `tiles` without a duplicate: every one appears.
    Ok(where_is
        .into_iter()
        .map(|w| w.expect("a permutation").0)
        .collect())
}

/// The board inside its wall frame (board row r, column c is model row r+1,
/// column c+1), each tile a unique 1x1 block at `index_of[tile]`, and the
/// goal fixing every tile at `goal_index(tile)`.
fn place_tiles(
    builder: &mut PuzzleBuilder,
    width: usize,
    index_of: &[usize],
    goal_index: impl Fn(usize) -> usize,
    line_no: usize,
) -> Result<(), ParseError> {
    let side = width + 2;
    let model_cell = |index: usize| (index / width + 1) * side + index % width + 1;
    for x in 0..side * (index_of.len() / width + 2) {
        builder.set_kind(x, CellKind::Wall);
    }
    for index in 0..index_of.len() {
        builder.set_kind(model_cell(index), CellKind::Free);
    }
    let at = Loc::new(line_no, 0);
    for (k, id) in (1..index_of.len()).zip(fresh_sequence()) {
        let block = BlockType {
            id,
            shape: Shape::unit(),
            slider: None,
            is_master: false,
        };
        let t = builder.declare(block, at);
        builder.place(t, model_cell(index_of[k]), at)?;
    }
    builder.goal_section();
    for k in 1..index_of.len() {
        builder.want(k - 1, model_cell(goal_index(k)), at)?;
    }
    Ok(())
}

/// Whether the goal can be reached: `start[n]` and `goal[n]` are the cell
/// indices of tile `n` (0 = blank). On boards of two rows and columns or
/// more, iff the permutation's parity equals the parity of the blank's
/// Manhattan distance; on a single row or column the tiles keep their order.
fn solvable(start: &[usize], goal: &[usize], width: usize, height: usize) -> bool {
    let n = start.len();
    if width == 1 || height == 1 {
        let order = |cells: &[usize]| {
            let mut tiles: Vec<usize> = (1..n).collect();
            tiles.sort_by_key(|&t| cells[t]);
            tiles
        };
        return order(start) == order(goal);
    }
    // perm[start cell] = goal cell of the same tile.
    let mut perm = vec![0; n];
    for t in 0..n {
        perm[start[t]] = goal[t];
    }
    let mut seen = vec![false; n];
    let mut cycles = 0;
    for i in 0..n {
        if !seen[i] {
            cycles += 1;
            let mut j = i;
            while !seen[j] {
                seen[j] = true;
                j = perm[j];
            }
        }
    }
    let odd_permutation = (n - cycles) % 2 == 1;
    let (sr, sc) = (start[0] / width, start[0] % width);
    let (gr, gc) = (goal[0] / width, goal[0] % width);
    let odd_distance = (sr.abs_diff(gr) + sc.abs_diff(gc)) % 2 == 1;
    odd_permutation == odd_distance
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;
    use crate::model::Cell;

    const KORF1: &str = "57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

    #[test]
    fn reads_a_korf_line_with_its_optimum() {
        let p = parse_line(KORF1, 1, "f", &ImportOptions::default()).unwrap();
        assert_eq!((p.board.width(), p.board.height()), (6, 6));
        assert_eq!(p.types.len(), 15);
        assert_eq!(p.types[9].id, 'A');
        assert!(p
            .metadata
            .contains(&("optimum".to_string(), "57 steps".to_string())));
        assert!(!p.metadata.iter().any(|(k, _)| k == "solvable"));
        // Tile 14 is first: model row 1, column 1.
        assert_eq!(p.start.anchors[13] as usize, p.board.index(1, 1));
        // Goal: tile 1 right of the blank.
        assert_eq!(
            p.goals[0].requirements[0].anchors,
            vec![p.board.index(1, 2) as Cell]
        );
        assert_eq!(native::parse(&native::write(&p), "w").unwrap(), p);
    }

    #[test]
    fn goal_with_the_blank_last_and_parity() {
        let last = ImportOptions {
            blank_last: true,
            ..Default::default()
        };
        let p = parse_line("1 2 3 4 5 6 7 8 0", 1, "f", &last).unwrap();
        assert!(p.satisfies(&p.start, &p.goals[0]));
        let p = parse_line("2 1 3 4 5 6 7 8 0", 1, "f", &last).unwrap();
        assert!(p
            .metadata
            .contains(&("solvable".to_string(), "no".to_string())));
        let p = parse_line("1 0 2 3 4 5 6 7 8", 1, "f", &ImportOptions::default()).unwrap();
        assert!(!p.metadata.iter().any(|(k, _)| k == "solvable"));
        let p = parse_line("0 2 1 3 4 5 6 7 8", 1, "f", &ImportOptions::default()).unwrap();
        assert!(p.metadata.iter().any(|(k, _)| k == "solvable"));
    }

    #[test]
    fn width_option_for_rectangles() {
        let opts = ImportOptions {
            width: Some(3),
            ..Default::default()
        };
        let p = parse_line("1 2 0 3 4 5", 1, "f", &opts).unwrap();
        assert_eq!((p.board.width(), p.board.height()), (5, 4));
        let p = parse_line("9 1 2 0 3 4 5", 1, "f", &opts).unwrap();
        assert!(p
            .metadata
            .contains(&("optimum".to_string(), "9 steps".to_string())));
    }

    #[test]
    fn rejects_bad_lines_with_their_column() {
        let d = ImportOptions::default();
        let e = parse("1 2 3\n1 2 3 0 1 5 6 7 8\n", "f", &d).unwrap_err();
        assert_eq!((e.line, e.column), (1, 0), "{e}");
        let e = parse("1 2 3 0 1 5 6 7 8\n", "f", &d).unwrap_err();
        assert_eq!((e.line, e.column), (1, 9), "{e}");
        assert!(e.message.contains("twice"), "{e}");
        let e = parse("1 2 x 0\n", "f", &d).unwrap_err();
        assert_eq!((e.line, e.column), (1, 5), "{e}");
        let e = parse("1 2 9 0\n", "f", &d).unwrap_err();
        assert!(e.message.contains("out of range"), "{e}");
        assert!(parse("% only a comment\n", "f", &d).is_err());
    }
}
