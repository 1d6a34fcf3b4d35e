//! A proof that no search is needed: in a one-blank tile puzzle (every
//! block a unique 1x1 tile with its own goal cell and exactly one empty
//! cell, as [`TileBoard`] recognises it) each step swaps the blank with a
//! tile. That flips the parity of the permutation taking every cell's
//! content to its goal cell, and it flips the colour of the blank's cell on
//! the board's checkerboard. Their agreement is therefore fixed, and it
//! holds at the goal (the identity, the blank home): where it fails at the
//! start, no sequence of moves reaches the goal. Half of the 15-puzzle's
//! starts are so answered at once, where BFS would run out of memory over
//! 10^13 positions and IDA* would never end.

use crate::geometry::Geometry;
use crate::heuristics::pdb::tiles::TileBoard;
use crate::model::Puzzle;

/// True when the parity argument proves that the goal of `geometry` cannot
/// be reached from `puzzle`'s start; false when it does not apply or the
/// parities agree (which proves nothing).
pub fn unreachable(puzzle: &Puzzle, geometry: &Geometry) -> bool {
    let Some(board) = TileBoard::new(puzzle, geometry) else {
        return false;
    };
    // Walls stay fixed points, one cycle each, so they change no parity.
    let mut goal_of: Vec<u32> = (0..puzzle.board.len() as u32).collect();
    let mut covered = 0u64;
    for (i, &cell) in puzzle.start.anchors.iter().enumerate() {
        goal_of[usize::from(cell)] = board.goal[i];
        covered |= 1 << cell;
    }
    let blank = (board.open & !covered).trailing_zeros();
    goal_of[blank as usize] = board.blank_goal;
    let odd_permutation = (goal_of.len() - cycles(&goal_of)) % 2 == 1;
    let colour = |c: u32| (c / board.width + c % board.width) % 2;
    odd_permutation != (colour(blank) != colour(board.blank_goal))
}

/// The number of cycles of the permutation `p` (fixed points included).
fn cycles(p: &[u32]) -> usize {
    let mut seen = vec![false; p.len()];
    let mut count = 0;
    for i in 0..p.len() {
        if !seen[i] {
            count += 1;
            let mut j = i;
            while !seen[j] {
                seen[j] = true;
                j = p[j] as usize;
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{tiles, ImportOptions};

    fn puzzle(line: &str) -> Puzzle {
        tiles::parse_line(line, 1, "t", &ImportOptions::default()).expect("a tile puzzle")
    }

    /// The importer's own solvability (its `% solvable: no`, computed from
    /// the numbers on the grid) agrees with the proof on the model, for
    /// solvable and unsolvable starts of both sizes.
    #[test]
    fn agrees_with_the_importer() {
        let lines = [
            "1 2 3 4 5 6 7 8 0",
            "1 2 3 4 5 6 8 7 0",
            "8 6 7 2 5 4 3 0 1",
            "8 6 7 2 5 4 0 3 1",
            "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
            "14 13 15 7 11 12 9 5 6 0 2 1 4 8 3 10",
        ];
        let mut proved = Vec::new();
        for line in lines {
            let p = puzzle(line);
            let geometry = Geometry::new(&p, p.goals.first());
            let marked = p.metadata.iter().any(|(k, v)| k == "solvable" && v == "no");
            assert_eq!(unreachable(&p, &geometry), marked, "{line}");
            proved.push(marked);
        }
        assert_eq!(proved, [false, true, false, false, false, true]);
    }

    /// On a board with a wall inside and the blank's goal in a corner, no
    /// start reached by legal moves from the goal is ever called
    /// unreachable, and every such start with two tiles swapped is.
    #[test]
    fn walks_from_the_goal_stay_reachable_and_swapped_tiles_do_not() {
        use crate::formats::native;
        use crate::moves::{MoveGenerator, State};
        use crate::params::Metric;
        use rand::{Rng, SeedableRng};
        let grid = "######\n#abc #\n#d#ef#\n#ghij#\n######\n";
        let header: String = "abcdefghij".chars().map(|c| format!("{c}\n")).collect();
        let text = format!("!\n{header}!\n{grid}!\n{grid}!\n");
        let mut p = native::parse(&text, "t").unwrap();
        let goal = p.start.clone();
        let geometry = Geometry::new(&p, p.goals.first());
        let mut moves = MoveGenerator::new(&p, Metric::Steps, &[]);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let (mut list, mut swapped_proved) = (Vec::new(), 0);
        for walk in 0..40 {
            let mut state = State::new(&p);
            state.load(&goal, moves.shapes());
            for _ in 0..(walk * 3 + 1) {
                moves.generate(&state, &mut list);
                let m = list[rng.gen_range(0..list.len())];
                moves.apply(&mut state, m);
            }
            p.start = state.to_position(&p);
            assert!(!unreachable(&p, &geometry), "walk {walk}");
            p.start.anchors.swap(0, 1 + walk % 9);
            swapped_proved += usize::from(unreachable(&p, &geometry));
        }
        assert_eq!(swapped_proved, 40);
    }
}
