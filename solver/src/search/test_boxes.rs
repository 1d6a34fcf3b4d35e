//! For the searches' tests: random small puzzles (walled boxes with a
//! master, units, 2x2 squares and dominoes), and the length of the
//! solution a search finds.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::formats;
use crate::model::Puzzle;
use crate::params::{Limits, SearchParams};
use crate::search::{solve, SolveOptions};

/// Steps of the solution `params` find for `p` within `limits`, all its
/// goal sections together; `None` when unsolved.
pub fn solution_steps(p: &Puzzle, params: &SearchParams, limits: &Limits) -> Option<usize> {
    let out =
        solve(p, params, limits, SolveOptions::quiet()).expect("the search serves the puzzle");
    out.solution
        .map(|moves| moves.iter().map(|m| m.steps.len()).sum())
}

/// A random walled box with a master (a unit or a 2x2 square), units,
/// 2x2 squares and dominoes, and a goal cell for the master; boards
/// from 25 to 110 cells, so that steps are checked both as bits (up to
/// 64 cells) and cell by cell.
pub fn random_box(rng: &mut ChaCha8Rng) -> Option<Puzzle> {
    let (h, w) = (rng.gen_range(3..9), rng.gen_range(3..9));
    let mut grid = vec![vec!['#'; w + 2]; h + 2];
    for row in grid.iter_mut().take(h + 1).skip(1) {
        for cell in row.iter_mut().take(w + 1).skip(1) {
            *cell = if rng.gen_range(0..10) == 0 { '#' } else { ' ' };
        }
    }
    let square = rng.gen_bool(0.5);
    let shapes: [(char, &[(usize, usize)]); 5] = [
        (
            '@',
            if square {
                &[(0, 0), (0, 1), (1, 0), (1, 1)]
            } else {
                &[(0, 0)]
            },
        ),
        ('a', &[(0, 0)]),
        ('h', &[(0, 0), (0, 1), (1, 0), (1, 1)]),
        ('G', &[(0, 0), (0, 1)]),
        ('J', &[(0, 0), (1, 0)]),
    ];
    let fits = |g: &Vec<Vec<char>>, r: usize, c: usize, cells: &[(usize, usize)]| {
        cells
            .iter()
            .all(|&(dr, dc)| g.get(r + dr).and_then(|row| row.get(c + dc)) == Some(&' '))
    };
    let place = |rng: &mut ChaCha8Rng, g: &mut Vec<Vec<char>>, k: usize| {
        let (sym, cells) = shapes[k];
        for _ in 0..30 {
            let (r, c) = (rng.gen_range(1..=h), rng.gen_range(1..=w));
            if fits(g, r, c, cells) {
                cells.iter().for_each(|&(dr, dc)| g[r + dr][c + dc] = sym);
                return Some((r, c));
            }
        }
        None
    };
    let mut start = grid.clone();
    place(rng, &mut start, 0)?;
    let mut goal = grid;
    place(rng, &mut goal, 0)?;
    for _ in 0..(h * w) / 3 {
        let k = rng.gen_range(1..shapes.len());
        place(rng, &mut start, k);
    }
    let text = |g: &Vec<Vec<char>>| -> String {
        g.iter()
            .map(|r| r.iter().collect::<String>() + "\n")
            .collect()
    };
    let master = if square { "@ 1,0 0,1 1,1" } else { "@" };
    let types = format!("{master}\na\nh 1,0 0,1 1,1\nG 1,0\nJ 0,1");
    let file = format!("!\n{types}\n!\n{}!\n{}!\n", text(&start), text(&goal));
    formats::native::parse(&file, "box").ok()
}
