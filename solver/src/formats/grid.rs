//! Grids of characters shared by the grid-based formats: reading rows with
//! their line numbers, checking they are rectangular, splitting cells into
//! block instances of a known shape.

use std::collections::HashMap;

use super::builder::{check_size, PuzzleBuilder};
use super::error::{Loc, ParseError};
use crate::model::{Axis, Board, CellKind, Shape};

/// A rectangular grid of characters and the file line of each row.
pub struct Grid {
    pub rows: Vec<Vec<char>>,
    /// 1-based file line of each row.
    pub lines: Vec<usize>,
    pub width: usize,
}

impl Grid {
    /// Builds a grid from `(line number, text)` rows. Rows must all have the
    /// same length (ragged rows are an error) and fit [`MAX_SIDE`](crate::model::MAX_SIDE).
    pub fn from_rows(file: &str, rows: &[(usize, &str)]) -> Result<Grid, ParseError> {
        let Some(&(first_line, first)) = rows.first() else {
            return Err(ParseError::new(
                file,
                0,
                0,
                "empty grid: expected at least one row",
            ));
        };
        let width = first.chars().count();
        check_size(file, Loc::new(first_line, 1), rows.len(), width)?;
        let mut grid = Grid {
            rows: Vec::with_capacity(rows.len()),
            lines: Vec::with_capacity(rows.len()),
            width,
        };
        for &(line, text) in rows {
            let chars: Vec<char> = text.chars().collect();
            if chars.len() != width {
                return Err(ParseError::new(
                    file,
                    line,
                    chars.len().min(width) + 1,
                    format!(
                        "ragged rows: this row has {} cells but the first row (line {first_line}) has {width}; \
                         pad rows to the same width (use '.' for an empty cell at the end of a row)",
                        chars.len()
                    ),
                ));
            }
            grid.rows.push(chars);
            grid.lines.push(line);
        }
        Ok(grid)
    }

    /// Builds a grid from `(line number, text)` rows, padding short rows
    /// with spaces (empty cells) to the longest; it must fit [`MAX_SIDE`](crate::model::MAX_SIDE).
    pub fn padded(file: &str, rows: &[(usize, &str)]) -> Result<Grid, ParseError> {
        let chars: Vec<Vec<char>> = rows.iter().map(|r| r.1.chars().collect()).collect();
        let width = chars.iter().map(Vec::len).max().unwrap_or(0);
        let first_line = rows.first().map_or(0, |r| r.0);
        check_size(file, Loc::new(first_line, 1), rows.len(), width)?;
        let rows_padded = chars
            .into_iter()
            .map(|mut row| {
                row.resize(width, ' ');
                row
            })
            .collect();
        Ok(Grid {
            rows: rows_padded,
            lines: rows.iter().map(|r| r.0).collect(),
            width,
        })
    }

    pub fn height(&self) -> usize {
        self.rows.len()
    }

    pub fn get(&self, row: usize, col: usize) -> char {
        self.rows[row][col]
    }

    /// Where cell `(row, col)` is written in the file.
    pub fn loc(&self, row: usize, col: usize) -> Loc {
        Loc::new(self.lines[row], col + 1)
    }

    /// The first cell in reading order whose character `unknown` rejects
    /// (with the message it gives), as an error at that cell.
    pub fn check(
        &self,
        file: &str,
        unknown: impl Fn(char) -> Option<String>,
    ) -> Result<(), ParseError> {
        for (r, row) in self.rows.iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                if let Some(message) = unknown(ch) {
                    return Err(ParseError::at(file, self.loc(r, c), message));
                }
            }
        }
        Ok(())
    }

    /// A builder for the board this start grid draws: `#` walls, `-` doors,
    /// every other cell free (blocks stand on free cells), after `check`.
    pub fn builder<'f>(
        &self,
        file: &'f str,
        unknown: impl Fn(char) -> Option<String>,
    ) -> Result<PuzzleBuilder<'f>, ParseError> {
        self.check(file, unknown)?;
        let mut builder = PuzzleBuilder::new(file, self.height(), self.width, self.loc(0, 0))?;
        for (r, row) in self.rows.iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                let kind = match ch {
                    '#' => CellKind::Wall,
                    '-' => CellKind::Door,
                    _ => CellKind::Free,
                };
                builder.set_kind(builder.cell(r, c), kind);
            }
        }
        Ok(builder)
    }

    /// Checks that `goal` is drawn on this start grid's board and hands the
    /// doors (`-`) it marks to the builder.
    pub fn goal_doors(&self, goal: &Grid, builder: &mut PuzzleBuilder) -> Result<(), ParseError> {
        if goal.height() != self.height() || goal.width != self.width {
            return Err(builder.error(
                goal.loc(0, 0),
                format!(
                    "goal grid is {}x{} but the start grid is {}x{}; draw goals on the same board",
                    goal.height(),
                    goal.width,
                    self.height(),
                    self.width
                ),
            ));
        }
        for (r, row) in goal.rows.iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                if ch == '-' {
                    builder.goal_door(builder.cell(r, c), goal.loc(r, c))?;
                }
            }
        }
        Ok(())
    }

    /// The cells of every character, each list in row-major order.
    pub fn cells_by_char(&self) -> HashMap<char, Vec<(usize, usize)>> {
        let mut map: HashMap<char, Vec<(usize, usize)>> = HashMap::new();
        for (r, row) in self.rows.iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                map.entry(ch).or_default().push((r, c));
            }
        }
        map
    }
}

/// Splits `cells` (all the cells marked with one character, in row-major
/// order) into instances of `shape`: the first unassigned cell must be an
/// instance's anchor, so the split is unique when it exists. Returns the
/// anchors `(row, col)`, or the first cell that does not fit the shape.
pub fn split_into_shape(
    cells: &[(usize, usize)],
    shape: &Shape,
) -> Result<Vec<(usize, usize)>, (usize, usize)> {
    let mut taken = vec![false; cells.len()];
    let mut anchors = Vec::new();
    for (i, &(r, c)) in cells.iter().enumerate() {
        if taken[i] {
            continue;
        }
        for &(dr, dc) in shape.offsets() {
            let (rr, cc) = (r as i64 + dr as i64, c as i64 + dc as i64);
            if rr < 0 || cc < 0 {
                return Err((r, c));
            }
            match cells.binary_search(&(rr as usize, cc as usize)) {
                Ok(j) if !taken[j] => taken[j] = true,
                _ => return Err((r, c)),
            }
        }
        anchors.push((r, c));
    }
    Ok(anchors)
}

/// True when a slider of this shape has room somewhere on the empty board
/// to make at least one step along its axis.
pub fn slider_can_slide(board: &Board, shape: &Shape, axis: Axis, is_master: bool) -> bool {
    let (dr, dc) = match axis {
        Axis::Horizontal => (0, 1),
        Axis::Vertical => (1, 0),
    };
    let fitting: Vec<bool> = (0..board.len())
        .map(|anchor| {
            shape.offsets().iter().all(|&(r, c)| {
                board
                    .offset(anchor, r, c)
                    .is_some_and(|x| board.allows(x, is_master))
            })
        })
        .collect();
    (0..board.len()).any(|a| fitting[a] && board.offset(a, dr, dc).is_some_and(|b| fitting[b]))
}

/// Row-major cells reachable from `seeds` through cells for which `pass` is
/// true (4-neighbourhood) on a `height` x `width` grid.
pub fn flood(
    height: usize,
    width: usize,
    seeds: impl IntoIterator<Item = (usize, usize)>,
    pass: impl Fn(usize, usize) -> bool,
) -> Vec<bool> {
    let mut seen = vec![false; height * width];
    let mut stack = Vec::new();
    for (r, c) in seeds {
        if r < height && c < width && !seen[r * width + c] && pass(r, c) {
            seen[r * width + c] = true;
            stack.push((r, c));
        }
    }
    while let Some((r, c)) = stack.pop() {
        let mut visit = |rr: usize, cc: usize| {
            if !seen[rr * width + cc] && pass(rr, cc) {
                seen[rr * width + cc] = true;
                stack.push((rr, cc));
            }
        };
        if r > 0 {
            visit(r - 1, c);
        }
        if r + 1 < height {
            visit(r + 1, c);
        }
        if c > 0 {
            visit(r, c - 1);
        }
        if c + 1 < width {
            visit(r, c + 1);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_two_dominoes_and_rejects_a_broken_one() {
        let shape = Shape::rectangle(1, 2);
        assert_eq!(
            split_into_shape(&[(0, 0), (0, 1), (1, 3), (1, 4)], &shape),
            Ok(vec![(0, 0), (1, 3)])
        );
        assert_eq!(
            split_into_shape(&[(0, 0), (0, 1), (1, 3)], &shape),
            Err((1, 3))
        );
    }

    #[test]
    fn flood_stops_at_blocked_cells() {
        // 3x3 with the middle column blocked: from the left column only.
        let seen = flood(3, 3, [(0, 0)], |_, c| c != 1);
        assert_eq!(seen.iter().filter(|s| **s).count(), 3);
    }
}
