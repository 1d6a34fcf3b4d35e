//! Admissibility of the pattern databases against the true distances: every
//! position reachable from the start, its exact distance to the goal by a
//! backward BFS over the whole reachable space (moves are reversible), and
//! the PDB estimate never above it (tables built on two threads). On the
//! 8-puzzle a table of all eight tiles must be exact; a block table built
//! on two threads equals the one built on one.

use std::collections::{HashMap, VecDeque};

use super::abstraction::{Abstraction, Pattern};
use crate::formats::{self, ImportOptions};
use crate::geometry::Geometry;
use crate::model::Puzzle;
use crate::moves::{MoveGenerator, State};
use crate::params::{Heuristic as Kind, Metric, SearchParams};

pub(super) fn puzzle(path: &str) -> Puzzle {
    let file = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    formats::load(&file, None, &ImportOptions::default())
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .remove(0)
}

/// A 5x4 board with a door the master leaves through, interchangeable 1x1
/// blocks and one slider per axis: 32,032 reachable positions.
const DOORS_AND_SLIDERS: &str = "!\n@ 1,0\na\nv | 0,1\nh = 1,0\n!\n\
#######\n#@@ v #\n#a  v #\n#hh a #\n#.  a -\n#######\n!\n\
#######\n#.....#\n#.....#\n#.....#\n#....@@\n#######\n!\n";

fn doors_and_sliders() -> Puzzle {
    formats::parse_text(
        DOORS_AND_SLIDERS,
        "doors.txt",
        None,
        &ImportOptions::default(),
    )
    .expect("test puzzle parses")
    .remove(0)
}

/// Every reachable position and its exact distance to the goal.
pub(super) fn true_distances(p: &Puzzle, metric: Metric) -> Vec<(State, u32)> {
    let mut moves = MoveGenerator::new(p, metric, &[]);
    let geometry = Geometry::new(p, p.goals.first());
    let mut start = State::new(p);
    start.load(&p.start, moves.shapes());
    let mut index: HashMap<Vec<u16>, usize> = HashMap::new();
    let mut states = vec![start.clone()];
    let mut edges: Vec<Vec<u32>> = Vec::new();
    index.insert(start.to_position(p).anchors, 0);
    let mut list = Vec::new();
    let mut k = 0;
    while k < states.len() {
        let mut s = states[k].clone();
        moves.generate(&s, &mut list);
        let mut out = Vec::new();
        for &m in &list {
            moves.apply(&mut s, m);
            let n = states.len();
            let j = *index.entry(s.to_position(p).anchors).or_insert(n);
            if j == n {
                states.push(s.clone());
            }
            out.push(j as u32);
            moves.undo(&mut s, m);
        }
        edges.push(out);
        k += 1;
    }
    let mut dist = vec![u32::MAX; states.len()];
    let mut queue: VecDeque<usize> = (0..states.len())
        .filter(|&i| geometry.is_goal(&states[i]))
        .collect();
    queue.iter().for_each(|&i| dist[i] = 0);
    while let Some(i) = queue.pop_front() {
        for &j in &edges[i] {
            if dist[j as usize] == u32::MAX {
                dist[j as usize] = dist[i] + 1;
                queue.push_back(j as usize);
            }
        }
    }
    states.into_iter().zip(dist).collect()
}

/// Checks h <= true distance everywhere; returns (positions where h equals
/// it, positions, sum of h) for the callers' informedness checks.
fn check_admissible(
    p: &Puzzle,
    metric: Metric,
    pdb: Option<&str>,
    memory: u64,
) -> (usize, usize, u64) {
    let mut params = SearchParams {
        heuristic: Kind::new(super::SPEC.name),
        metric,
        ..SearchParams::default()
    };
    let text = |s: &str| Some(sbp_protocol::Value::Text(s.to_string()));
    params
        .options
        .0
        .insert(super::PATTERNS.json.into(), pdb.and_then(text));
    params.options.0.insert(
        super::MEMORY.json.into(),
        Some(sbp_protocol::Value::Whole(memory)),
    );
    params.local.insert(
        super::CACHE.flag.into(),
        sbp_protocol::Value::Text("off".into()),
    );
    params.threads = 2;
    let geometry = Geometry::new(p, p.goals.first());
    let mut h = super::load(p, &geometry, &params, None).into_heuristic();
    assert!(h.memory_bytes() > 0, "no table was built for {pdb:?}");
    let (mut exact, mut total, mut sum) = (0, 0, 0u64);
    for (s, d) in true_distances(p, metric) {
        let e = h.estimate(&s);
        assert!(
            e <= d,
            "{pdb:?} {metric:?}: estimate {e} above the true distance {d}"
        );
        exact += usize::from(e == d);
        total += 1;
        sum += e as u64;
    }
    (exact, total, sum)
}

#[test]
fn eight_puzzle_full_table_is_exact_and_partitions_admissible() {
    let p = puzzle("puzzles/tiles/eight_hardest_a.txt");
    let (exact, total, _) = check_admissible(&p, Metric::Steps, None, 512 << 20);
    assert_eq!(total, 181_440);
    assert_eq!(
        exact, total,
        "a table of all eight tiles is the true distance"
    );
    let (_, _, four_four) = check_admissible(&p, Metric::Steps, Some("1,2,3,4/5,6,7,8"), 1 << 20);
    let (_, _, two_tiles) = check_admissible(&p, Metric::Steps, Some("1,2/3,4/5,6/7,8"), 1 << 20);
    assert!(
        four_four > two_tiles,
        "larger patterns must estimate higher: {four_four} vs {two_tiles}"
    );
    check_admissible(&p, Metric::Moves, Some("1,2,3/4,5,6/7,8"), 1 << 20);
}

#[test]
fn classic_klotski_abstractions_are_admissible() {
    let p = puzzle("puzzles/klotski/classic.txt");
    for metric in [Metric::Steps, Metric::Moves] {
        let (exact, total, _) = check_admissible(&p, metric, None, 512 << 20);
        assert_eq!(total, 25_955);
        assert_eq!(
            exact, total,
            "{metric:?}: the table keeps every block, so it is exact"
        );
        let (exact, _, sum) = check_admissible(&p, metric, None, 100 << 10);
        assert!(
            exact < total && sum > 0,
            "{metric:?}: small tables are lower bounds, not exact"
        );
        check_admissible(&p, metric, Some("v/o,h"), 1 << 20);
    }
}

#[test]
fn doors_and_sliders_abstractions_are_admissible() {
    let p = doors_and_sliders();
    for metric in [Metric::Steps, Metric::Moves] {
        let (_, total, sum) = check_admissible(&p, metric, Some("v,h"), 1 << 20);
        assert_eq!(total, 32_032);
        assert!(sum > 0);
        check_admissible(&p, metric, Some("a/v"), 1 << 20);
    }
}

#[test]
fn block_tables_built_on_two_threads_equal_one_thread() {
    for (p, spec) in [
        (puzzle("puzzles/klotski/classic.txt"), None),
        (doors_and_sliders(), Some("v,h")),
    ] {
        let geometry = Geometry::new(&p, p.goals.first());
        for metric in [Metric::Steps, Metric::Moves] {
            let plan =
                super::patterns::plan(&p, &geometry, spec, (512 << 20, None)).expect("a plan");
            let built = |threads| {
                let groups = super::load_tables(&p, &geometry, &plan, metric, None, threads);
                groups
                    .into_iter()
                    .flatten()
                    .map(|t| t.values)
                    .collect::<Vec<_>>()
            };
            let one = built(1);
            assert!(!one.is_empty() && one.iter().all(|v| v.iter().any(|&e| e > 0)));
            assert!(one == built(2), "{spec:?} {metric:?}: the tables differ");
        }
    }
}

#[test]
fn master_split_index_round_trips_and_leaves_out_door_cells() {
    let p = doors_and_sliders();
    let geometry = Geometry::new(&p, p.goals.first());
    let h = p.type_by_id('h').unwrap();
    let master = p.master().unwrap();
    let pattern = Pattern {
        counted: vec![p.type_range(master).start, p.type_range(h).start],
        merged: Vec::new(),
    };
    let mut abs = Abstraction::new(&p, &geometry, &pattern, Metric::Steps).unwrap();
    assert_eq!(abs.index.layout(), "master-split rank");
    // Plain rank: @, h and 17 spaces over the 21 open cells (the door
    // included), 19!/17! strings; split, h never stands on the door.
    assert!(abs.size < 19 * 18, "{} entries", abs.size);
    let mut state = State::new(&abs.puzzle);
    for r in 0..abs.size as usize {
        abs.unrank(r, &mut state);
        assert_eq!(abs.rank(&state), r);
        let shapes = abs.moves.shapes();
        let mut rebuilt = state.clone();
        rebuilt.rebuild_owner(shapes);
        assert_eq!(rebuilt.owner, state.owner, "index {r}: owner map");
    }
}

#[test]
fn tile_tables_count_four_bits_per_entry_and_the_budget_picks_the_partition() {
    let p = puzzle("puzzles/tiles/korf_01.txt");
    let geometry = Geometry::new(&p, p.goals.first());
    let sizes = |memory| {
        let plan = super::patterns::plan(&p, &geometry, None, (memory, None)).expect("a plan");
        let group = plan.groups[0].iter().map(|g| g.counted.len());
        group.collect::<Vec<_>>()
    };
    // 7-8: (16!/9! + 16!/8!) / 2 bytes; 1-7-7: (16 + 2 * 16!/9!) / 2; 6-6-3.
    assert_eq!(sizes(512 << 20), vec![7, 8]);
    assert_eq!(sizes(288_288_000), vec![7, 8]);
    assert_eq!(sizes(288_287_999), vec![1, 7, 7]);
    assert_eq!(sizes(57_657_608), vec![1, 7, 7]);
    assert_eq!(sizes(57_657_607), vec![3, 6, 6]);
    let eight = puzzle("puzzles/tiles/eight_hardest_a.txt");
    let geometry = Geometry::new(&eight, eight.goals.first());
    let plan = |memory| super::patterns::plan(&eight, &geometry, Some("1,2,3,4"), (memory, None));
    assert!(plan(9 * 8 * 7 * 6 / 2).is_ok());
    let err = plan(9 * 8 * 7 * 6 / 2 - 1).expect_err("one byte short");
    assert!(err.contains("need 1512 bytes"), "{err}");
}

/// Under a share of `--max-memory` the automatic tiles shrink until their
/// builds' peak fits it (7-8's build holds about 900 MB), down to none;
/// `--pdb` groups that do not fit are refused, naming both sizes; the
/// abstractions of a block puzzle shrink too.
#[test]
fn the_builds_peak_fits_the_share_of_max_memory_or_the_plan_is_refused() {
    let p = puzzle("puzzles/tiles/korf_01.txt");
    let geometry = Geometry::new(&p, p.goals.first());
    let plan = |spec, cap| super::patterns::plan(&p, &geometry, spec, (512 << 20, cap));
    let peak = |plan: &super::patterns::Plan| super::patterns::peak_bytes(&p, &geometry, plan);
    let unlimited = plan(None, None).expect("a plan");
    assert!(
        peak(&unlimited).unwrap() > 800 << 20,
        "7-8 builds in about 900 MB"
    );
    let mut last = u64::MAX;
    for cap in [1u64 << 30, 256 << 20, 32 << 20, 4 << 20, 1 << 20] {
        let fitted = plan(None, Some(cap)).expect("automatic tables always fit");
        let p = peak(&fitted).unwrap();
        assert!(p <= cap && p <= last, "{cap}: {p}");
        last = p;
    }
    assert!(
        plan(None, Some(10)).unwrap().groups.is_empty(),
        "no table fits"
    );
    let err = plan(Some("1,2,3,4,5,6,7/8,9,10,11,12,13,14,15"), Some(16 << 20)).unwrap_err();
    assert!(
        err.contains("288288000 bytes") && err.contains("--max-memory"),
        "{err}"
    );
    let klotski = puzzle("puzzles/klotski/classic.txt");
    let geometry = Geometry::new(&klotski, klotski.goals.first());
    let blocks = |cap| {
        let plan = super::patterns::plan(&klotski, &geometry, None, (512 << 20, cap)).unwrap();
        super::patterns::peak_bytes(&klotski, &geometry, &plan).unwrap()
    };
    assert!(blocks(Some(1 << 20)) <= 1 << 20 && blocks(Some(1 << 20)) < blocks(None));
}

/// A build stopped before any of its rounds never exceeds the complete
/// table, entry by entry (so it stays admissible), and keeps no
/// "unreached" mark; stopped before none, it is the complete table. Classic
/// Klotski with the master and one 2x2 block counted and the rest merged
/// into free units: zero-cost moves inside a layer, where an entry set to
/// d + 1 early in a layer may later come down to d. Both metrics.
#[test]
fn a_build_stopped_at_any_round_stays_below_the_complete_table() {
    let p = puzzle("puzzles/klotski/classic.txt");
    let geometry = Geometry::new(&p, p.goals.first());
    let master = p.type_range(p.master().unwrap()).start;
    let counted: Vec<usize> = (0..p.instances())
        .filter(|&i| i == master || p.types[p.instance_type(i)].shape.size() == 4)
        .take(2)
        .collect();
    let merged = (0..p.instances())
        .filter(|i| !counted.contains(i))
        .collect();
    let pattern = Pattern { counted, merged };
    for metric in [Metric::Steps, Metric::Moves] {
        let mut abs = Abstraction::new(&p, &geometry, &pattern, metric).unwrap();
        let (full, complete) = super::build::fill(&mut abs, 1, &|| false, &mut |_, _| {});
        assert!(complete && full.iter().any(|&v| v > 2));
        let mut rounds_seen = 0;
        for k in 0.. {
            let asked = std::sync::atomic::AtomicUsize::new(0);
            let stop = || asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed) >= k;
            let (part, done) = super::build::fill(&mut abs, 1, &stop, &mut |_, _| {});
            let above = part.iter().zip(&full).filter(|(a, b)| a > b).count();
            assert_eq!(above, 0, "{metric:?}: stopped after {k} rounds");
            if done {
                assert_eq!(part, full);
                rounds_seen = k;
                break;
            }
            assert!(
                !part.contains(&super::build::UNSEEN),
                "{metric:?}, {k} rounds"
            );
        }
        assert!(rounds_seen > 10, "{metric:?}: only {rounds_seen} rounds");
    }
}

/// A 3x3 board of a domino and five unit blocks, each its own type, and
/// two empty cells; the goal fixes every block.
fn all_fixed() -> Puzzle {
    let text = "!\n1 0,1\n2\n3\n4\n5\n6\n!\n#####\n#123#\n#145#\n#  6#\n#####\n!\n\
                #####\n#  1#\n#231#\n#456#\n#####\n!\n";
    crate::formats::native::parse(text, "all fixed").unwrap()
}

#[test]
fn tables_over_some_goal_blocks_are_admissible_where_the_goal_fixes_every_block() {
    let p = all_fixed();
    for metric in [Metric::Steps, Metric::Moves] {
        // Named goal blocks: only those are kept (the whole goal would be
        // the whole puzzle).
        let (_, total, sum) = check_admissible(&p, metric, Some("1,2/3,4"), 1 << 20);
        assert!(total > 1000, "{total}");
        assert!(sum > 0);
        // Automatic, in a budget too small for all six blocks: tables over
        // subsets of them.
        let geometry = Geometry::new(&p, p.goals.first());
        let plan = super::patterns::plan(&p, &geometry, None, (4 << 10, None)).unwrap();
        assert!(
            plan.groups.iter().flatten().all(|t| t.counted.len() < 6),
            "{plan:?}"
        );
        let (_, _, sum) = check_admissible(&p, metric, None, 4 << 10);
        assert!(sum > 0);
    }
}

/// Every registered heuristic declared admissible under a metric never
/// overestimates under it, on every reachable position of three puzzles
/// whose distances a backward BFS gives exactly: classic Klotski, the
/// 5x4 board with a door and sliders, and Layton's Cluttered Bag (nine
/// blocks of irregular shapes, all distinct). Built with its defaults, as
/// the solver's `--optimal` and the reasoner use them (pattern databases
/// within 256 KiB, so that they are partial and quick to build).
#[test]
fn every_heuristic_declared_admissible_is_so_in_both_metrics() {
    let puzzles = [
        ("classic", puzzle("puzzles/klotski/classic.txt")),
        ("doors and sliders", doors_and_sliders()),
        ("cluttered bag", puzzle("puzzles/layton/cluttered_bag.txt")),
    ];
    for (name, p) in &puzzles {
        let geometry = Geometry::new(p, p.goals.first());
        for metric in [Metric::Steps, Metric::Moves] {
            let distances = true_distances(p, metric);
            for spec in crate::heuristics::REGISTRY {
                if !spec.admissible.under(metric) {
                    continue;
                }
                let mut params = SearchParams {
                    heuristic: Kind::new(spec.name),
                    metric,
                    ..SearchParams::default()
                };
                params.local.insert(
                    super::CACHE.flag.into(),
                    sbp_protocol::Value::Text("off".into()),
                );
                // Small tables (pdb): partial patterns, built in a moment.
                params.options.0.insert(
                    super::MEMORY.json.into(),
                    Some(sbp_protocol::Value::Whole(256 << 10)),
                );
                let mut h = crate::heuristics::build(&params, p, &geometry, None);
                let mut checked = 0;
                for (s, d) in distances.iter().filter(|(_, d)| *d != u32::MAX) {
                    let e = h.estimate(s);
                    assert!(e <= *d, "{name} {metric:?} {}: {e} above {d}", spec.name);
                    checked += 1;
                }
                assert!(checked > 1000, "{name}: {checked} positions");
            }
        }
    }
}

/// On the 24-puzzle the automatic tables are four compact groups of six
/// (Korf and Felner's 6-6-6-6 up to the diagonal: three 2x3 blocks and the
/// blank's corner, 27 neighbouring goal pairs inside groups, the most
/// four groups of six can hold), where the bands alone cut two of them
/// in pieces.
#[test]
fn the_twenty_four_puzzle_gets_four_compact_groups_of_six() {
    let line = "95 14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13";
    let p = formats::tiles::parse(line, "korf24", &ImportOptions::default())
        .expect("Korf and Taylor's instance 2")
        .remove(0);
    let geometry = Geometry::new(&p, p.goals.first());
    let plan = super::patterns::plan(&p, &geometry, None, (512 << 20, None)).expect("a plan");
    let goal = |i: usize| {
        let (_, anchors) = geometry
            .targets()
            .iter()
            .find(|(r, _)| r.start == i)
            .unwrap();
        (
            geometry.row(anchors[0] as usize),
            geometry.col(anchors[0] as usize),
        )
    };
    let groups = &plan.groups[0];
    assert_eq!(
        groups.iter().map(|g| g.counted.len()).collect::<Vec<_>>(),
        [6; 4]
    );
    let inside: usize = groups
        .iter()
        .map(|g| {
            let cells: Vec<(i32, i32)> = g.counted.iter().map(|&i| goal(i)).collect();
            let pairs = cells.iter().flat_map(|a| cells.iter().map(move |b| (a, b)));
            pairs
                .filter(|(a, b)| (a.0 - b.0).abs() + (a.1 - b.1).abs() == 1)
                .count()
                / 2
        })
        .sum();
    assert_eq!(inside, 27, "{groups:?}");
}
