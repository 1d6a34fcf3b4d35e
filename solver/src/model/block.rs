//! Block types: a polyomino shape (possibly disconnected), an identifier and
//! an optional slider axis.

use serde::{Deserialize, Serialize};

/// The axis a slider is restricted to (thesis §3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Axis {
    /// Moves only left and right (`=` in the native format).
    Horizontal,
    /// Moves only up and down (`|` in the native format).
    Vertical,
}

/// A set of cells as `(row, col)` offsets from the block's anchor, which is its
/// first cell in row-major order; so offsets are sorted, the first is `(0, 0)`,
/// rows are never negative (columns may be, for shapes like a `J`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    offsets: Vec<(i32, i32)>,
}

impl Shape {
    /// A shape from any cell offsets (duplicates removed), re-anchored at its
    /// first cell in row-major order. `None` for an empty set.
    pub fn new(mut offsets: Vec<(i32, i32)>) -> Option<Shape> {
        offsets.sort_unstable();
        offsets.dedup();
        let &(r0, c0) = offsets.first()?;
        for o in &mut offsets {
            *o = (o.0 - r0, o.1 - c0);
        }
        Some(Shape { offsets })
    }

    /// The 1x1 shape.
    pub fn unit() -> Shape {
        Shape {
            offsets: vec![(0, 0)],
        }
    }

    /// A `rows` x `cols` rectangle.
    pub fn rectangle(rows: i32, cols: i32) -> Shape {
        let offsets = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .collect();
        Shape { offsets }
    }

    /// `(row, col)` offsets from the anchor, sorted row-major.
    pub fn offsets(&self) -> &[(i32, i32)] {
        &self.offsets
    }

    /// Number of cells.
    pub fn size(&self) -> usize {
        self.offsets.len()
    }

    /// `(min_col, max_col, max_row)` of the offsets.
    pub fn extent(&self) -> (i32, i32, i32) {
        let min_c = self.offsets.iter().map(|o| o.1).min().unwrap_or(0);
        let max_c = self.offsets.iter().map(|o| o.1).max().unwrap_or(0);
        let max_r = self.offsets.iter().map(|o| o.0).max().unwrap_or(0);
        (min_c, max_c, max_r)
    }

    /// Bounding-box `(height, width)`.
    pub fn bounding_box(&self) -> (usize, usize) {
        let (min_c, max_c, max_r) = self.extent();
        ((max_r + 1) as usize, (max_c - min_c + 1) as usize)
    }

    /// True when the shape fills its bounding box (the thesis's "regular shape").
    pub fn is_rectangle(&self) -> bool {
        let (h, w) = self.bounding_box();
        h * w == self.offsets.len()
    }

    /// True when every cell touches another one orthogonally (or it has one cell).
    pub fn is_connected(&self) -> bool {
        let n = self.offsets.len();
        let mut seen = vec![false; n];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            let (r, c) = self.offsets[i];
            for (j, &(r2, c2)) in self.offsets.iter().enumerate() {
                if !seen[j] && (r - r2).abs() + (c - c2).abs() == 1 {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen.iter().all(|s| *s)
    }
}

/// A kind of block. Every instance of a type is interchangeable with the
/// others; a type with one instance is a unique block (thesis §3.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockType {
    /// The character that marks the block's cells in a grid.
    pub id: char,
    pub shape: Shape,
    /// `Some` for a slider restricted to one axis.
    pub slider: Option<Axis>,
    /// The master block: the one whose goal distance guides the search and the
    /// only one allowed on door cells.
    pub is_master: bool,
}
