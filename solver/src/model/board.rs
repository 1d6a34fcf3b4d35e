//! The board: a rectangle of walls, free cells and master-only cells (doors).

use serde::{Deserialize, Serialize};

/// Largest supported board side, in cells (rows and columns are 128-bit masks).
pub const MAX_SIDE: usize = 128;

/// What a cell of the board is, independent of the blocks on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CellKind {
    /// Never occupied.
    Wall,
    /// Any block may occupy it.
    Free,
    /// Only the master block may occupy it (GNOME Klotski's `-`, and the area
    /// outside a frame that is reached through such a door).
    Door,
}

/// A rectangular board. Cells are numbered row-major: `row * width + col`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    width: usize,
    height: usize,
    cells: Vec<CellKind>,
}

impl Board {
    /// A board from row-major cells; `cells.len()` must be `width * height`
    /// and both sides at most [`MAX_SIDE`] (parsers check this first).
    pub fn new(width: usize, height: usize, cells: Vec<CellKind>) -> Board {
        assert_eq!(
            cells.len(),
            width * height,
            "board cells do not match its size"
        );
        assert!(
            width <= MAX_SIDE && height <= MAX_SIDE,
            "board larger than supported"
        );
        Board {
            width,
            height,
            cells,
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells, walls included.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    pub fn kind(&self, cell: usize) -> CellKind {
        self.cells[cell]
    }

    pub fn cells(&self) -> &[CellKind] {
        &self.cells
    }

    pub fn index(&self, row: usize, col: usize) -> usize {
        row * self.width + col
    }

    /// `(row, col)` of a cell index.
    pub fn coordinates(&self, cell: usize) -> (usize, usize) {
        (cell / self.width, cell % self.width)
    }

    /// The cell `(row + dr, col + dc)` if it lies on the board.
    pub fn offset(&self, cell: usize, dr: i32, dc: i32) -> Option<usize> {
        let (r, c) = self.coordinates(cell);
        let (r, c) = (r as i64 + dr as i64, c as i64 + dc as i64);
        if r < 0 || c < 0 || r >= self.height as i64 || c >= self.width as i64 {
            None
        } else {
            Some(r as usize * self.width + c as usize)
        }
    }

    /// Cells a block may occupy: free cells, plus doors for the master.
    pub fn allows(&self, cell: usize, is_master: bool) -> bool {
        match self.cells[cell] {
            CellKind::Wall => false,
            CellKind::Free => true,
            CellKind::Door => is_master,
        }
    }

    /// Number of non-wall cells (the thesis's "puzzle size").
    pub fn open_cells(&self) -> usize {
        self.cells.iter().filter(|k| **k != CellKind::Wall).count()
    }
}
