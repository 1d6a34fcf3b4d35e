//! The tile tables against the truth: on the 8-puzzle every estimate, plain
//! and through the reflection, never exceeds the exact distance (a full
//! backward BFS), the reflected maximum is strictly better somewhere, and
//! the entries fit 4 bits; on the 15-puzzle the per-move updates a
//! depth-first search uses equal a fresh estimate along a random walk; and
//! each compact entry is the least over the blank's cells of the general
//! (blank-keeping) abstraction's table; and the layered builder fills
//! exactly the reference builder's table (boards with walls, 2 to 8 tiles,
//! one and two threads); tables read once stay in memory for the next
//! puzzle on the same board.

use super::additive::TileDatabases;
use super::values::Values;
use super::{build, layers, load, reflect, TileBoard};
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
    let tables = load::tables(
        &board,
        &patterns(p, groups),
        Metric::Steps,
        None,
        (2, &|| false),
    );
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
        crate::heuristics::pdb::load_tables(&p, &geometry, &plan, Metric::Steps, None, 2)
            .remove(0)
            .remove(0);
    let compact = load::tables(
        &board,
        std::slice::from_ref(&tiles),
        Metric::Steps,
        None,
        (1, &|| false),
    )
    .remove(0);
    let mut least = std::collections::HashMap::new();
    for (s, _) in true_distances(&p, Metric::Steps) {
        let cells: Vec<u32> = tiles.iter().map(|&t| u32::from(s.anchors[t])).collect();
        let index = compact.index(&board).index(&cells);
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

/// A 4x3 tile puzzle with a wall inside: ten tiles, one blank.
const WALLED: &str = "!\n1\n2\n3\n4\n5\n6\n7\n8\n9\nA\n!\n\
######\n#1234#\n#5#67#\n#89A #\n######\n!\n\
######\n#1234#\n#5#67#\n#89A #\n######\n!\n";

#[test]
fn the_layered_builder_matches_the_reference_entry_by_entry() {
    let walled = crate::formats::parse_text(
        WALLED,
        "walled.txt",
        None,
        &crate::formats::ImportOptions::default(),
    )
    .expect("test puzzle parses")
    .remove(0);
    let cases = [
        (
            puzzle("puzzles/tiles/eight_hardest_a.txt"),
            vec!["36", "1245", "12345678"],
        ),
        (puzzle("puzzles/tiles/korf_01.txt"), vec!["123", "59DE"]),
        (walled, vec!["1256", "37A", "489"]),
    ];
    for (p, groups) in cases {
        let geometry = Geometry::new(&p, p.goals.first());
        let board = TileBoard::new(&p, &geometry).expect("a one-blank tile puzzle");
        for (tiles, group) in patterns(&p, &groups).into_iter().zip(&groups) {
            let reference = build::fill(&board, &tiles, &|| false, &mut |_, _| {});
            let reference = Values::pack(&reference.expect("not stopped"));
            let reached = (0..reference.len()).filter(|&i| reference.reached(i));
            assert!(reached.count() as u64 >= reference.len() / 2, "{group}");
            for threads in [1, 2] {
                let fast = layers::fill(&board, &tiles, (threads, &|| false), &mut |_, _| {});
                let fast = fast.expect("not stopped");
                assert_eq!(fast.len(), reference.len());
                let differ = (0..fast.len()).find(|&i| fast.get(i) != reference.get(i));
                assert_eq!(differ, None, "tiles {group}, {threads} threads");
                assert!(fast == reference, "tiles {group}: unreached entries differ");
            }
        }
    }
}

#[test]
fn tables_read_once_stay_in_memory_for_the_next_puzzle_on_the_board() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let p = puzzle("puzzles/tiles/eight_hardest_a.txt");
    let geometry = Geometry::new(&p, p.goals.first());
    let board = TileBoard::new(&p, &geometry).expect("a one-blank tile puzzle");
    let groups = patterns(&p, &["1234", "5678"]);
    let get = || {
        load::tables(
            &board,
            &groups,
            Metric::Steps,
            Some(dir.path()),
            (2, &|| false),
        )
    };
    let built = get();
    assert!(built.iter().all(|t| !t.from_cache));
    // With the files gone, the tables come from memory, the same entries.
    for file in std::fs::read_dir(dir.path()).expect("the cache folder") {
        std::fs::remove_file(file.expect("an entry").path()).expect("removable");
    }
    let again = get();
    assert!(again.iter().all(|t| t.from_cache));
    assert!(built.iter().zip(&again).all(|(a, b)| a.values == b.values));
    // Another pattern set is built anew (and the memory then holds it).
    let other = load::tables(
        &board,
        &patterns(&p, &["1256"]),
        Metric::Steps,
        Some(dir.path()),
        (1, &|| false),
    );
    assert!(!other[0].from_cache);
}

/// A build told to stop (the search's time limit) gives no table, and the
/// builds after it are not begun; on both builders, also within a layer
/// and in the last pass; never stopped, every table is there.
#[test]
fn a_stopped_tile_build_leaves_its_table_and_the_later_ones_out() {
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    let p = puzzle("puzzles/tiles/korf_01.txt");
    let geometry = Geometry::new(&p, p.goals.first());
    let board = TileBoard::new(&p, &geometry).expect("a one-blank tile puzzle");
    let groups = patterns(&p, &["59DE", "123"]);
    let all = load::tables(&board, &groups, Metric::Steps, None, (1, &|| false));
    assert_eq!(all.len(), 2);
    for k in [0, 1, 5, 40] {
        let asked = AtomicUsize::new(0);
        let stop = || asked.fetch_add(1, Relaxed) >= k;
        let fast = layers::fill(&board, &groups[0], (1, &stop), &mut |_, _| {});
        assert!(fast.is_none(), "stopped after {k} asks");
        asked.store(0, Relaxed);
        let none = load::tables(&board, &groups, Metric::Steps, None, (1, &stop));
        assert!(
            none.is_empty(),
            "the 4-tile table is built first and stopped"
        );
    }
    // The reference builder stops at whichever of its asks says so.
    let asked = AtomicUsize::new(0);
    let count = || asked.fetch_add(1, Relaxed) == usize::MAX;
    assert!(build::fill(&board, &groups[0][..1], &count, &mut |_, _| {}).is_some());
    for k in 0..asked.load(Relaxed) {
        let asked = AtomicUsize::new(0);
        let stop = || asked.fetch_add(1, Relaxed) >= k;
        let single = build::fill(&board, &groups[0][..1], &stop, &mut |_, _| {});
        assert!(
            single.is_none(),
            "the reference builder, stopped at ask {k}"
        );
    }
    let asked = AtomicUsize::new(0);
    let never = || asked.fetch_add(1, Relaxed) == usize::MAX;
    assert!(layers::fill(&board, &groups[0], (1, &never), &mut |_, _| {}).is_some());
    assert!(
        asked.load(Relaxed) > 40,
        "asked within the layers, not once"
    );
}
