//! The reflection about the board's main diagonal, (row, column) to
//! (column, row). Where board and goal are symmetric under it (the 15-puzzle
//! with the blank's goal in a corner of the diagonal), reflecting a position
//! gives another position of the same puzzle at the same distance, so every
//! table can be looked up a second time for free memory: tile t at cell p
//! becomes tile tau(t), the tile whose goal is t's goal reflected, at cell
//! sigma(p). The two additive sums are both admissible; their maximum is
//! taken.

use super::TileBoard;

/// The diagonal symmetry of a tile puzzle.
#[derive(Clone, Debug)]
pub struct Reflection {
    /// Per board cell: its mirror cell.
    pub cell: Vec<u8>,
    /// Per instance: the instance whose goal is its goal's mirror (an involution).
    pub tile: Vec<usize>,
}

/// The diagonal reflection of `board`'s puzzle, when board and goal are
/// symmetric under it.
pub fn diagonal(board: &TileBoard) -> Option<Reflection> {
    if board.width != board.height {
        return None;
    }
    let w = board.width;
    let cell: Vec<u8> = (0..w * w).map(|c| ((c % w) * w + c / w) as u8).collect();
    let open_mirrored = (0..w * w)
        .filter(|&c| board.open >> c & 1 == 1)
        .all(|c| board.open >> cell[c as usize] & 1 == 1);
    if !open_mirrored || cell[board.blank_goal as usize] as u32 != board.blank_goal {
        return None;
    }
    let tile = board
        .goal
        .iter()
        .map(|&g| {
            let mirror = u32::from(cell[g as usize]);
            board.goal.iter().position(|&h| h == mirror)
        })
        .collect::<Option<Vec<usize>>>()?;
    Some(Reflection { cell, tile })
}
