//! Rush Hour boards as in Michael Fogleman's database of hardest positions:
//! one puzzle per line, `MOVES BOARD CLUSTER` or `BOARD` alone.
//!
//! BOARD is an n x n board row-major (36 characters for 6x6; any square
//! length works): `o` or `.` empty, `x` a wall, `A` the red car, other
//! letters `B`-`Z` vehicles of 2 or 3 cells in a straight line. Every vehicle
//! is a slider along its length and a unique type named by its letter, except
//! the red car, which is the master and so is named `@`. The model puts a
//! wall frame around the board (so board row r, column c is model row r+1,
//! column c+1); the goal is the red car at the right edge of its row. MOVES
//! becomes the metadata `optimum: MOVES moves`, CLUSTER `cluster size`.
//! Blank lines and lines starting with `%` are skipped.

use std::collections::BTreeMap;

use super::builder::PuzzleBuilder;
use super::error::{Loc, ParseError};
use super::native::MASTER_ID;
use crate::model::{Axis, BlockType, CellKind, Puzzle, Shape};

/// Parses a file of Rush Hour boards, one puzzle per line.
pub fn parse(text: &str, file: &str) -> Result<Vec<Puzzle>, ParseError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() || line.starts_with('%') {
            continue;
        }
        out.push(parse_line(line, i + 1, file)?);
    }
    if out.is_empty() {
        return Err(ParseError::new(
            file,
            0,
            0,
            "empty file: no Rush Hour board in it",
        ));
    }
    Ok(out)
}

/// Parses one line `MOVES BOARD CLUSTER` (the numbers are optional).
pub fn parse_line(line: &str, line_no: usize, file: &str) -> Result<Puzzle, ParseError> {
    let err = |column: usize, message: String| ParseError::new(file, line_no, column, message);
    let toks = super::tokens(line);
    let expected = "expected 'MOVES BOARD CLUSTER' or a board alone, e.g. \
                    '5 ooooooooooooAAoooooooooooooooooooooo 21'";
    let is_number = |t: &str| t.chars().all(|c| c.is_ascii_digit());
    let boards: Vec<usize> = (0..toks.len()).filter(|&i| !is_number(toks[i].1)).collect();
    let Some(&b) = boards.first() else {
        return Err(err(1, format!("no board on this line; {expected}")));
    };
    if let Some(&extra) = boards.get(1) {
        return Err(err(
            toks[extra].0,
            format!(
                "unexpected '{}': one board per line; {expected}",
                toks[extra].1
            ),
        ));
    }
    if b > 1 {
        return Err(err(
            toks[1].0,
            format!("one number may precede the board; {expected}"),
        ));
    }
    if toks.len() > b + 2 {
        return Err(err(
            toks[b + 2].0,
            format!("one number may follow the board; {expected}"),
        ));
    }
    let number = |i: usize| -> Result<u64, ParseError> {
        toks[i]
            .1
            .parse::<u64>()
            .map_err(|_| err(toks[i].0, format!("'{}' is too large a number", toks[i].1)))
    };
    let moves = if b == 1 { Some(number(0)?) } else { None };
    let cluster = if toks.len() == b + 2 {
        Some(number(b + 1)?)
    } else {
        None
    };
    let (board_col, board) = toks[b];
    let mut builder = read_board(file, Loc::new(line_no, board_col), board)?;
    let name = format!("rush line {line_no}");
    builder.metadata([
        ("name".into(), name),
        (
            "origin".into(),
            format!("Rush Hour board {board} (A is the master '@')"),
        ),
    ]);
    builder.metadata(moves.map(|m| ("optimum".into(), format!("{m} moves"))));
    builder.metadata(cluster.map(|c| ("cluster size".into(), c.to_string())));
    builder.build(None)
}

/// The board written at `at`: an n x n square inside a wall frame, its
/// vehicles placed and the goal set.
fn read_board<'f>(file: &'f str, at: Loc, board: &str) -> Result<PuzzleBuilder<'f>, ParseError> {
    let err =
        |i: usize, message: String| ParseError::at(file, Loc::new(at.line, at.column + i), message);
    let chars: Vec<char> = board.chars().collect();
    let n = (chars.len() as f64).sqrt().round() as usize;
    if n * n != chars.len() || n < 2 {
        return Err(err(
            0,
            format!(
                "the board has {} cells, which is not the square of a side of 2 or more \
                 (a 6x6 board has 36)",
                chars.len()
            ),
        ));
    }
    let side = n + 2;
    let mut builder = PuzzleBuilder::new(file, side, side, at)?;
    // Board row r, column c is model cell (r + 1, c + 1).
    let cell = |i: usize| (i / n + 1) * side + i % n + 1;
    for x in 0..side * side {
        builder.set_kind(x, CellKind::Wall);
    }
    let mut vehicles: BTreeMap<char, Vec<usize>> = BTreeMap::new();
    for (i, &ch) in chars.iter().enumerate() {
        match ch {
            'o' | '.' => builder.set_kind(cell(i), CellKind::Free),
            'x' => {}
            'A'..='Z' => {
                builder.set_kind(cell(i), CellKind::Free);
                vehicles.entry(ch).or_default().push(i);
            }
            _ => {
                return Err(err(
                    i,
                    format!(
                        "unknown character '{}' in the board: expected 'o' or '.' (empty), \
                         'x' (wall), 'A' (red car) or a vehicle letter B-Z",
                        ch.escape_debug()
                    ),
                ))
            }
        }
    }
    let Some(red) = vehicles.get(&'A') else {
        return Err(err(0, "no red car 'A' on this board".to_string()));
    };
    let (red_first, red_len) = (red[0], red.len());
    // The red car first (it is the master), then B, C, ... in letter order.
    let order = std::iter::once('A').chain(vehicles.keys().copied().filter(|&c| c != 'A'));
    for letter in order {
        let cells = &vehicles[&letter];
        let block = vehicle(letter, cells, n).map_err(|m| err(cells[0], m))?;
        let t = builder.declare(block, Loc::new(at.line, at.column + cells[0]));
        builder.place(t, cell(cells[0]), Loc::new(at.line, at.column + cells[0]))?;
    }
    // Walls to the right of the red car would keep it from the exit forever.
    if (red_first + red_len..(red_first / n + 1) * n).any(|i| chars[i] == 'x') {
        return Err(err(
            red_first,
            "a wall 'x' stands between the red car and the right edge of its row".to_string(),
        ));
    }
    builder.goal_section();
    let goal = cell(red_first - red_first % n + n - red_len);
    builder.want(0, goal, Loc::new(at.line, at.column + red_first))?;
    Ok(builder)
}

/// The block type of a vehicle: a straight line of 2 or 3 cells (board
/// indices, row-major on an n x n board), a slider along its length; the
/// red car `A` is the master `@` and must be horizontal.
fn vehicle(letter: char, cells: &[usize], n: usize) -> Result<BlockType, String> {
    let first = cells[0];
    let len = cells.len();
    let horizontal = cells
        .iter()
        .enumerate()
        .all(|(k, &i)| i / n == first / n && i == first + k);
    let vertical = cells.iter().enumerate().all(|(k, &i)| i == first + k * n);
    if !(2..=3).contains(&len) || !(horizontal || vertical) {
        return Err(format!(
            "vehicle '{letter}' has {len} cell(s) that are not a straight line of 2 or 3 \
             (a car is 1x2 or 2x1, a truck 1x3 or 3x1)"
        ));
    }
    let is_master = letter == 'A';
    if is_master && !horizontal {
        return Err(
            "the red car 'A' must be horizontal: it leaves through the right edge of its row"
                .to_string(),
        );
    }
    let (axis, shape) = if horizontal {
        (Axis::Horizontal, Shape::rectangle(1, len as i32))
    } else {
        (Axis::Vertical, Shape::rectangle(len as i32, 1))
    };
    Ok(BlockType {
        id: if is_master { MASTER_ID } else { letter },
        shape,
        slider: Some(axis),
        is_master,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;
    use crate::model::Cell;

    const LINE: &str = "03 oBBBoooooCooAAoCoooooDoooooDoooooooo 49";

    #[test]
    fn reads_a_database_line() {
        let p = parse_line(LINE, 7, "f").unwrap();
        assert_eq!((p.board.width(), p.board.height()), (8, 8));
        assert_eq!(p.name.as_deref(), Some("rush line 7"));
        let ids: Vec<char> = p.types.iter().map(|t| t.id).collect();
        assert_eq!(ids, vec!['@', 'B', 'C', 'D']);
        assert_eq!(p.types[0].slider, Some(Axis::Horizontal));
        assert_eq!(p.types[2].slider, Some(Axis::Vertical));
        assert_eq!(p.types[1].shape, Shape::rectangle(1, 3));
        // Red car at board row 2, columns 0-1 = model row 3, column 1.
        assert_eq!(p.start.anchors[0] as usize, p.board.index(3, 1));
        assert_eq!(
            p.goals[0].requirements[0].anchors,
            vec![p.board.index(3, 5) as Cell]
        );
        assert!(p
            .metadata
            .contains(&("optimum".to_string(), "3 moves".to_string())));
        assert!(p
            .metadata
            .contains(&("cluster size".to_string(), "49".to_string())));
        let back = native::parse(&native::write(&p), "w").unwrap();
        assert_eq!(back, p);
    }

    #[test]
    fn accepts_a_board_alone_and_walls() {
        let p = parse("ooooooooooooAAoooooooooxoooooooooooo\n", "f").unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].board.kind(p[0].board.index(4, 6)), CellKind::Wall);
    }

    #[test]
    fn rejects_bad_lines_with_their_column() {
        let cases = [
            ("1 ooooo 2", 3, "square"),
            ("oooooooooooooAoooooooooooooooooooooo", 14, "straight"),
            ("ooooooooooooooBBoooooooooooooooooooo", 1, "red car"),
            ("ooAoooooAooooooooooooooooooooooooooo", 3, "horizontal"),
            ("ooooooooooooAAoBooooooBooooooooooooo", 16, "straight"),
            ("ooooooooooooAAoqoooooooooooooooooooo", 16, "unknown"),
            ("1 2 ooooooooooooAAoooooooooooooooooooooo", 3, "precede"),
            ("ooooooooooooAAoooooooooooooooooooooo x", 38, "one board"),
            ("ooooooooooooAAooooxooooooooooooooooooo", 1, "square"),
            ("ooooooooooooAAoxoooooooooooooooooooo", 13, "between"),
        ];
        for (line, col, what) in cases {
            let e = parse(&format!("\n{line}\n"), "f").unwrap_err();
            assert_eq!((e.line, e.column), (2, col), "{line}: {e}");
            assert!(e.message.contains(what), "{line}: {e}");
        }
    }
}
