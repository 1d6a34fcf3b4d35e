//! The tile tables against the truth: on the 8-puzzle every estimate, plain
//! and through the reflection, never exceeds the exact distance (a full
//! backward BFS), the reflected maximum is strictly better somewhere, and
//! the entries fit 4 bits; on the 15-puzzle the per-move updates a
//! depth-first search uses equal a fresh estimate along a random walk; and
//! each compact entry is the least over the blank's cells of the general
//! (blank-keeping) abstraction's table.

use super::additive::TileDatabases;
use super::{load, reflect, TileBoard};
use crate::geometry::Geometry;
use crate::heuristics::pdb::tests::{puzzle, true_distances};
use crate::heuristics::Heuristic;
use crate::model::Puzzle;
use crate::moves::{MoveGenerator, State};
use crate::params::Metric;

/// The instances of the tiles named by `groups` (ids as in the puzzle).
fn patterns(p: &Puzzle, groups: &[&str]) -> Vec<Vec<usize>> {
    groups
        .iter()
        .map(|g| {
            g.chars()
                .map(|c| p.type_range(p.type_by_id(c).expect("tile id")).start)
                .collect()
        })
        .collect()
}

/// The plain and the reflected heuristic over the tables of `groups`.
fn both(p: &Puzzle, groups: &[&str]) -> (TileDatabases, TileDatabases) {
    let geometry = Geometry::new(p, p.goals.first());
    let board = TileBoard::new(p, &geometry).expect("a one-blank tile puzzle");
    let reflection = reflect::diagonal(&board).expect("the goal is symmetric");
    let tables = load::tables(&board, &patterns(p, groups), Metric::Steps, None, 2);
    let plain = TileDatabases::new(p, &geometry, board.clone(), tables.clone(), None);
    let mirrored = TileDatabases::new(p, &geometry, board, tables, Some(&reflection));
    (plain, mirrored)
}

#[test]
fn eight_puzzle_tables_fit_four_bits_and_reflections_stay_admissible() {
    let p = puzzle("puzzles/tiles/eight_hardest_a.txt");
    let (mut plain, mut mirrored) = both(&p, &["1234", "5678"]);
    assert!(mirrored.reflected() && !plain.reflected());
    for t in mirrored.tables() {
        assert_eq!(t.values.bits(), 4, "8-puzzle entries fit 4 bits");
        assert_eq!(t.values.bytes(), 3024 / 2);
    }
    let (mut better, mut total) = (0, 0);
    for (s, d) in true_distances(&p, Metric::Steps) {
        let (a, b) = (plain.estimate(&s), mirrored.estimate(&s));
        assert!(a <= b && b <= d, "plain {a}, reflected {b}, true {d}");
        better += usize::from(b > a);
        total += 1;
    }
    assert_eq!(total, 181_440);
    assert!(
        better > total / 10,
        "the reflection raised only {better} of {total} estimates"
    );
}

#[test]
fn per_move_updates_equal_fresh_estimates() {
    let p = puzzle("puzzles/tiles/korf_01.txt");
    let (_, mut h) = both(&p, &["1234", "5678", "9ABC", "DEF"]);
    let (_, mut fresh) = both(&p, &["1234", "5678", "9ABC", "DEF"]);
    let mut moves = MoveGenerator::new(&p, Metric::Steps, &[]);
    let mut state = State::new(&p);
    state.load(&p.start, moves.shapes());
    let root = h.estimate(&state);
    assert_eq!(root, fresh.estimate(&state));
    let (mut path, mut values, mut list) = (Vec::new(), vec![root], Vec::new());
    let mut seed = 12345u64;
    for step in 0..400 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        if step % 5 == 4 {
            let m = path.pop().expect("a move to undo");
            moves.undo(&mut state, m);
            h.retreat();
            values.pop();
            continue;
        }
        moves.generate(&state, &mut list);
        let m = list[(seed >> 33) as usize % list.len()];
        moves.apply(&mut state, m);
        let v = h.advance(&state, m, *values.last().unwrap());
        assert_eq!(v, fresh.estimate(&state), "after {step} moves");
        path.push(m);
        values.push(v);
    }
    while let Some(m) = path.pop() {
        moves.undo(&mut state, m);
        h.retreat();
        values.pop();
    }
    assert_eq!(values, vec![root]);
}

#[test]
fn an_entry_is_the_least_blank_keeping_distance_of_its_placement() {
    // The general abstraction keeps the blank's cell; the compact table must
    // hold, per placement of the pattern's tiles, the least of those values.
    let p = puzzle("puzzles/tiles/eight_hardest_a.txt");
    let geometry = Geometry::new(&p, p.goals.first());
    let board = TileBoard::new(&p, &geometry).expect("a one-blank tile puzzle");
    let tiles = patterns(&p, &["1245"]).remove(0);
    let merged = (0..p.instances()).filter(|i| !tiles.contains(i)).collect();
    let pattern = crate::heuristics::pdb::abstraction::Pattern {
        counted: tiles.clone(),
        merged,
    };
    let plan = crate::heuristics::pdb::patterns::Plan {
        groups: vec![vec![pattern]],
    };
    let mut general =
        crate::heuristics::pdb::load_tables(&p, &geometry, &plan, Metric::Steps, None)
            .remove(0)
            .remove(0);
    let compact =
        load::tables(&board, std::slice::from_ref(&tiles), Metric::Steps, None, 1).remove(0);
    let mut least = std::collections::HashMap::new();
    for (s, _) in true_distances(&p, Metric::Steps) {
        let cells: Vec<u32> = tiles.iter().map(|&t| u32::from(s.anchors[t])).collect();
        let index = super::rank::rank(cells.iter().copied(), board.open, board.n);
        let md: u32 = (0..tiles.len())
            .map(|i| board.manhattan(cells[i], board.goal[tiles[i]]))
            .sum();
        let entry = md + 2 * compact.values.get(index);
        let kept = least.entry(index).or_insert((u32::MAX, entry));
        kept.0 = kept.0.min(general.lookup(&s));
    }
    assert_eq!(least.len(), 9 * 8 * 7 * 6, "every placement reached");
    for (index, (blank_kept, entry)) in least {
        assert_eq!(entry, blank_kept, "placement {index}");
    }
}
