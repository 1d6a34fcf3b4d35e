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
        moves.push(parse_line(raw).map_err(|(col, msg)| ParseError::new(file, i + 1, col, msg))?);
    }
    Ok(moves)
}

/// Parses one line; errors carry the 1-based column of the token at fault
/// (the end of the line for a missing one).
fn parse_line(line: &str) -> Result<SolutionMove, (usize, String)> {
    let expected = "expected 'ID ROW,COL STEPS', e.g. '@ 3,1 DDL'";
    let toks = crate::formats::tokens(line);
    let end = line.trim_end().chars().count() + 2;
    let missing = |what: &str| (end, format!("missing {what}; {expected}"));
    let &(id_col, id_tok) = toks.first().ok_or_else(|| missing("the block"))?;
    let mut id_chars = id_tok.chars();
    let id = id_chars.next().ok_or_else(|| missing("the block"))?;
    if id_chars.next().is_some() {
        return Err((
            id_col,
            format!("block identifier '{id_tok}' must be one character; {expected}"),
        ));
    }
    let &(at_col, at) = toks.get(1).ok_or_else(|| missing("ROW,COL"))?;
    let (row, col) = at
        .split_once(',')
        .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)))
        .ok_or((at_col, format!("'{at}' is not ROW,COL; {expected}")))?;
    let &(steps_col, steps_tok) = toks
        .get(2)
        .ok_or_else(|| missing("steps (letters U, D, L, R)"))?;
    let steps = steps_tok
        .chars()
        .map(Direction::from_letter)
        .collect::<Option<Vec<_>>>()
        .ok_or((
            steps_col,
            format!("steps '{steps_tok}' may contain only U, D, L and R"),
        ))?;
    if let Some(&(extra_col, extra)) = toks.get(3) {
        return Err((
            extra_col,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every error names the line and the column of the token at fault
    /// (indentation counted), or the end of the line for a missing one.
    #[test]
    fn errors_point_at_the_token_at_fault() {
        for (text, at, says) in [
            ("@ 1,2\n", "1:7", "missing steps"),
            ("   @ 1,2 D x\n", "1:12", "unexpected 'x'"),
            ("ab 1,2 D\n", "1:1", "must be one character"),
            ("@ 1,2 DQ\n", "1:7", "may contain only U, D, L and R"),
            ("% c\n@ 1;2 D\n", "2:3", "'1;2' is not ROW,COL"),
            ("@\n", "1:3", "missing ROW,COL"),
        ] {
            let e = parse(text, "s.sol").unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("s.sol:{at}: ")) && e.contains(says),
                "{text:?}: {e}"
            );
        }
        let ok = parse("@ 1,2 DR\n  v 3,4 U  \n", "s.sol").unwrap();
        assert_eq!(ok.len(), 2);
        assert_eq!(
            (ok[1].id, ok[1].row, ok[1].col, ok[1].steps.len()),
            ('v', 3, 4, 1)
        );
    }
}
