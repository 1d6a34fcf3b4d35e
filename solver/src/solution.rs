//! The solution format shared by the solver's output and the verifier: one
//! move per line, `ID ROW,COL STEPS`, e.g. `@ 3,1 DDL` = "the block `@`
//! whose anchor (first cell, row-major) is at row 3, column 1 moves down,
//! down, left". Rows and columns are 0-based in the grid as written in the
//! puzzle file. Blank lines and lines starting with `%` are ignored.

use std::fmt;

use crate::formats::ParseError;

/// A unit step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// `(row, col)` displacement.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::Up => (-1, 0),
            Direction::Down => (1, 0),
            Direction::Left => (0, -1),
            Direction::Right => (0, 1),
        }
    }

    pub fn letter(self) -> char {
        match self {
            Direction::Up => 'U',
            Direction::Down => 'D',
            Direction::Left => 'L',
            Direction::Right => 'R',
        }
    }

    pub fn from_letter(c: char) -> Option<Direction> {
        match c.to_ascii_uppercase() {
            'U' => Some(Direction::Up),
            'D' => Some(Direction::Down),
            'L' => Some(Direction::Left),
            'R' => Some(Direction::Right),
            _ => None,
        }
    }

    pub fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
        }
    }
}

/// One line of a solution: which block, where it is, and its unit steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolutionMove {
    pub id: char,
    pub row: usize,
    pub col: usize,
    pub steps: Vec<Direction>,
}

impl fmt::Display for SolutionMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {},{} ", self.id, self.row, self.col)?;
        for s in &self.steps {
            write!(f, "{}", s.letter())?;
        }
        Ok(())
    }
}

/// Parses a solution file.
pub fn parse(text: &str, file: &str) -> Result<Vec<SolutionMove>, ParseError> {
    let mut moves = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        moves.push(parse_line(line).map_err(|(col, msg)| {
            let col = raw.len() - raw.trim_start().len() + col;
            ParseError::new(file, i + 1, col, msg)
        })?);
    }
    Ok(moves)
}

/// Parses one trimmed line; errors carry a 1-based column within it.
fn parse_line(line: &str) -> Result<SolutionMove, (usize, String)> {
    let expected = "expected 'ID ROW,COL STEPS', e.g. '@ 3,1 DDL'";
    let mut parts = line.split_whitespace();
    let id_tok = parts.next().ok_or((1, expected.to_string()))?;
    let mut id_chars = id_tok.chars();
    let id = id_chars.next().ok_or((1, expected.to_string()))?;
    if id_chars.next().is_some() {
        return Err((
            1,
            format!("block identifier '{id_tok}' must be one character; {expected}"),
        ));
    }
    let at_col = line.find(char::is_whitespace).unwrap_or(line.len()) + 2;
    let at = parts
        .next()
        .ok_or((at_col, format!("missing ROW,COL; {expected}")))?;
    let (row, col) = at
        .split_once(',')
        .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)))
        .ok_or((at_col, format!("'{at}' is not ROW,COL; {expected}")))?;
    let steps_tok = parts
        .next()
        .ok_or((1, format!("missing steps (letters U, D, L, R); {expected}")))?;
    let steps = steps_tok
        .chars()
        .map(Direction::from_letter)
        .collect::<Option<Vec<_>>>()
        .ok_or((
            1,
            format!("steps '{steps_tok}' may contain only U, D, L and R"),
        ))?;
    if let Some(extra) = parts.next() {
        return Err((
            1,
            format!("unexpected '{extra}' after the steps; {expected}"),
        ));
    }
    Ok(SolutionMove {
        id,
        row,
        col,
        steps,
    })
}

/// Writes a solution, one move per line.
pub fn write(moves: &[SolutionMove]) -> String {
    let mut s = String::new();
    for m in moves {
        s.push_str(&m.to_string());
        s.push('\n');
    }
    s
}
