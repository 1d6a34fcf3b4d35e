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

/// The bundled puzzles `files`, then random boxes ([`random_box`]) drawn
/// with `rng` up to `total` puzzles: boards for tests that walk them.
pub fn bundled_and_boxes(files: &[&str], total: usize, rng: &mut ChaCha8Rng) -> Vec<Puzzle> {
    let mut puzzles: Vec<Puzzle> = files.iter().map(|f| formats::bundled(f)).collect();
    while puzzles.len() < total {
        if let Some(p) = random_box(rng) {
            puzzles.push(p);
        }
    }
    puzzles
}

/// A random walled box with a master (a unit or a 2x2 square), units,
/// 2x2 squares and dominoes, and a goal cell for the master; boards
/// from 25 to 110 cells, so that steps are checked both as bits (up to
/// 64 cells) and cell by cell.
pub fn random_box(rng: &mut ChaCha8Rng) -> Option<Puzzle> {
    let (h, w) = (rng.gen_range(3..9), rng.gen_range(3..9));
    let kit = Kit {
        masters: [UNIT, SQUARE],
        others: &[UNIT, SQUARE, &[(0, 0), (0, 1)], &[(0, 0), (1, 0)]],
        placements: (h * w) / 3,
    };
    boxed(rng, h, w, &kit)
}

/// A random walled box of 64 to 121 cells with a 2x2 master, 2x2 squares
/// and bars three cells long, at most one block tried per five cells so
/// that many stay empty: the blocks' leading edges are long and the spaces
/// often enough to count steps per leading edge (`moves/counted.rs`; the
/// tests keep the boxes that do).
pub fn random_long_box(rng: &mut ChaCha8Rng) -> Option<Puzzle> {
    let (h, w) = (rng.gen_range(8..12), rng.gen_range(8..12));
    let kit = Kit {
        masters: [SQUARE, SQUARE],
        others: &[SQUARE, &[(0, 0), (0, 1), (0, 2)], &[(0, 0), (1, 0), (2, 0)]],
        placements: (h * w) / 5,
    };
    boxed(rng, h, w, &kit)
}

const UNIT: &[(usize, usize)] = &[(0, 0)];
const SQUARE: &[(usize, usize)] = &[(0, 0), (0, 1), (1, 0), (1, 1)];

/// The blocks of a random box: the master's cells (one of two, chosen at
/// random), each other type's (row, column offsets from its first cell),
/// and how many blocks to try to place.
struct Kit {
    masters: [&'static [(usize, usize)]; 2],
    others: &'static [&'static [(usize, usize)]],
    placements: usize,
}

/// A box of `h` by `w` open cells inside walls, a tenth of them walls too,
/// with the master at a random place and a random goal place, and up to
/// `kit.placements` other blocks of random types.
fn boxed(rng: &mut ChaCha8Rng, h: usize, w: usize, kit: &Kit) -> Option<Puzzle> {
    let mut grid = vec![vec!['#'; w + 2]; h + 2];
    for row in grid.iter_mut().take(h + 1).skip(1) {
        for cell in row.iter_mut().take(w + 1).skip(1) {
            *cell = if rng.gen_range(0..10) == 0 { '#' } else { ' ' };
        }
    }
    let master = kit.masters[rng.gen_bool(0.5) as usize];
    let shapes: Vec<&[(usize, usize)]> = std::iter::once(master)
        .chain(kit.others.iter().copied())
        .collect();
    let symbols = ['@', 'a', 'h', 'G', 'J'];
    let fits = |g: &Vec<Vec<char>>, r: usize, c: usize, cells: &[(usize, usize)]| {
        cells
            .iter()
            .all(|&(dr, dc)| g.get(r + dr).and_then(|row| row.get(c + dc)) == Some(&' '))
    };
    let place = |rng: &mut ChaCha8Rng, g: &mut Vec<Vec<char>>, k: usize| {
        for _ in 0..30 {
            let (r, c) = (rng.gen_range(1..=h), rng.gen_range(1..=w));
            if fits(g, r, c, shapes[k]) {
                shapes[k]
                    .iter()
                    .for_each(|&(dr, dc)| g[r + dr][c + dc] = symbols[k]);
                return Some((r, c));
            }
        }
        None
    };
    let mut start = grid.clone();
    place(rng, &mut start, 0)?;
    let mut goal = grid;
    place(rng, &mut goal, 0)?;
    for _ in 0..kit.placements {
        let k = rng.gen_range(1..shapes.len());
        place(rng, &mut start, k);
    }
    let text = |g: &Vec<Vec<char>>| -> String {
        g.iter()
            .map(|r| r.iter().collect::<String>() + "\n")
            .collect()
    };
    // Each type's line: its cells after the first, as column,row.
    let types: Vec<String> = shapes
        .iter()
        .zip(symbols)
        .map(|(cells, sym)| {
            let rest = cells[1..].iter().map(|&(r, c)| format!(" {c},{r}"));
            std::iter::once(sym.to_string()).chain(rest).collect()
        })
        .collect();
    let file = format!(
        "!\n{}\n!\n{}!\n{}!\n",
        types.join("\n"),
        text(&start),
        text(&goal)
    );
    formats::native::parse(&file, "box").ok()
}
