//! Grids of characters shared by the grid-based formats: reading rows with
//! their line numbers, checking they are rectangular, splitting cells into
//! block instances of a known shape.

use super::error::ParseError;
use crate::model::{Shape, MAX_SIDE};

/// A rectangular grid of characters and the file line of each row.
pub struct Grid {
    pub rows: Vec<Vec<char>>,
    /// 1-based file line of each row.
    pub lines: Vec<usize>,
    pub width: usize,
}

impl Grid {
    /// Builds a grid from `(line number, text)` rows. Rows must all have the
    /// same length (ragged rows are an error) and fit [`MAX_SIDE`].
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
        if rows.len() > MAX_SIDE || width > MAX_SIDE {
            return Err(ParseError::new(
                file,
                first_line,
                1,
                format!(
                    "board of {}x{} cells is larger than supported ({MAX_SIDE}x{MAX_SIDE})",
                    rows.len(),
                    width
                ),
            ));
        }
        let mut grid = Grid {
            rows: Vec::new(),
            lines: Vec::new(),
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

    pub fn height(&self) -> usize {
        self.rows.len()
    }

    pub fn get(&self, row: usize, col: usize) -> char {
        self.rows[row][col]
    }
}

/// Splits the cells marked `id` into instances of `shape`, scanning row-major:
/// the first unassigned cell must be an instance's anchor, so the split is
/// unique when it exists. Returns the anchors `(row, col)`, or the first cell
/// that does not fit the declared shape.
pub fn split_into_shape(
    grid: &Grid,
    id: char,
    shape: &Shape,
) -> Result<Vec<(usize, usize)>, (usize, usize)> {
    let h = grid.height();
    let mut taken = vec![false; h * grid.width];
    let mut anchors = Vec::new();
    for r in 0..h {
        for c in 0..grid.width {
            if grid.get(r, c) != id || taken[r * grid.width + c] {
                continue;
            }
            for &(dr, dc) in shape.offsets() {
                let (rr, cc) = (r as i64 + dr as i64, c as i64 + dc as i64);
                let ok = rr >= 0
                    && cc >= 0
                    && (rr as usize) < h
                    && (cc as usize) < grid.width
                    && grid.get(rr as usize, cc as usize) == id
                    && !taken[rr as usize * grid.width + cc as usize];
                if !ok {
                    return Err((r, c));
                }
                taken[rr as usize * grid.width + cc as usize] = true;
            }
            anchors.push((r, c));
        }
    }
    Ok(anchors)
}
