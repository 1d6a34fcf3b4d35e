//! Puzzles generated for the tests that are hard on the solver's limits:
//! boards where one position has very many moves.

use std::path::PathBuf;

/// A native puzzle: a 1x1 master `@`, the given block types, a start grid
/// of `width` x `height` (frame included) filled by `cell`, and the master's
/// goal in the bottom-right corner.
pub fn board(
    name: &str,
    types: &str,
    width: usize,
    height: usize,
    cell: impl Fn(usize, usize) -> char,
) -> PathBuf {
    let grid = |f: &dyn Fn(usize, usize) -> char| -> String {
        (0..height)
            .map(|r| {
                let row: String = (0..width)
                    .map(|c| match (r, c) {
                        _ if r == 0 || c == 0 || r == height - 1 || c == width - 1 => '#',
                        _ => f(r, c),
                    })
                    .collect();
                row + "\n"
            })
            .collect()
    };
    let start = grid(&cell);
    let goal = grid(&|r, c| {
        if (r, c) == (height - 2, width - 2) {
            '@'
        } else {
            ' '
        }
    });
    let text = format!("!\n@\n{types}!\n{start}!\n{goal}!\n");
    let path = std::env::temp_dir().join(format!("boards-{}-{name}.txt", std::process::id()));
    std::fs::write(&path, text).expect("the generated puzzle is written");
    path
}

/// `side` x `side` packed with 1x1 blocks of 8 types, two cells free.
pub fn dense(side: usize) -> PathBuf {
    board(
        &format!("dense{side}"),
        "a\nb\nc\nd\ne\nf\ng\nh\n",
        side,
        side,
        |r, c| match (r, c) {
            (1, 1) => '@',
            _ if r == side - 2 && c >= side - 3 => ' ',
            _ => (b'a' + ((r * side + c) % 8) as u8) as char,
        },
    )
}
