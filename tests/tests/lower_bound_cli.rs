//! The `lower_bound` an optimal search reports when it stops at a limit
//! never exceeds the optimum: on puzzles with known optima, for each
//! optimal algorithm, under position limits of growing size.

use end_to_end::run_solver as solver;
use serde_json::Value;

#[test]
fn a_stopped_optimal_search_bounds_the_optimum_from_below() {
    let cases: [(&str, &str, u64, &[&[&str]]); 4] = [
        (
            "puzzles/klotski/classic.txt",
            "steps",
            116,
            &[
                &["--algorithm", "bfs"],
                &["--algorithm", "astar", "--heuristic", "manhattan"],
            ],
        ),
        (
            "puzzles/klotski/classic.txt",
            "moves",
            81,
            &[&["--algorithm", "bfs"], &["--optimal"]],
        ),
        (
            "puzzles/layton/the_time_machine.txt",
            "moves",
            39,
            &[
                &["--algorithm", "bidir"],
                &["--algorithm", "astar", "--heuristic", "manhattan"],
                &["--algorithm", "bfs"],
            ],
        ),
        (
            "puzzles/tiles/eight_hardest_a.txt",
            "steps",
            31,
            &[
                &["--algorithm", "ida", "--heuristic", "manhattan"],
                &["--algorithm", "bidir"],
                &["--algorithm", "astar", "--heuristic", "manhattan"],
            ],
        ),
    ];
    for (puzzle, metric, optimum, searches) in cases {
        for search in searches {
            let mut best = 0;
            for limit in ["30", "300", "3000", "30000"] {
                let mut args = vec![
                    "solve",
                    puzzle,
                    "--json",
                    "--metric",
                    metric,
                    "--max-positions",
                    limit,
                ];
                args.extend_from_slice(search);
                let out = solver(&args);
                let r: Value = serde_json::from_slice(&out.stdout).unwrap();
                if r["status"] != "limit_reached" {
                    assert_eq!(r["status"], "solved", "{args:?}: {r}");
                    assert_eq!(r["optimal"], true, "{args:?}: {r}");
                    assert_eq!(r[metric], optimum, "{args:?}: {r}");
                    continue;
                }
                let bound = r["lower_bound"]
                    .as_u64()
                    .unwrap_or_else(|| panic!("{args:?}: {r}"));
                assert!(
                    bound <= optimum,
                    "{args:?}: {bound} above the optimum {optimum}"
                );
                best = best.max(bound);
            }
            // Not the trivial bound: the searches get well into the space.
            assert!(best > 1, "{puzzle} {search:?}: best bound {best}");
        }
    }
    // A weighted search proves nothing: its bound is the admissible
    // heuristics' estimate of the start (the master's distance, 3).
    let out = solver(&[
        "solve",
        "puzzles/klotski/classic.txt",
        "--json",
        "--algorithm",
        "astar",
        "--heuristic",
        "h2",
        "--weight",
        "5",
        "--max-positions",
        "30",
    ]);
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["status"], "limit_reached", "{r}");
    assert_eq!(r["lower_bound"], 3, "{r}");
}

/// A solved search claims `optimal` only where it proved it: an optimal
/// search without pruning does, in its metric (and says so on its first
/// line); a weighted or greedy search does not, and neither does an
/// optimal one with a pruning, which may cut the shortest paths (nor does
/// it prove a bound beyond the heuristics' estimate of the start when
/// stopped: before, it gave its depth).
#[test]
fn optimal_is_claimed_only_by_an_optimal_search_without_pruning() {
    let classic = "puzzles/klotski/classic.txt";
    let json = |args: &[&str]| -> Value {
        let out = solver(&[&["solve", classic, "--json"], args].concat());
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let r = json(&["--algorithm", "bfs"]);
    assert_eq!(
        (r["steps"].as_u64(), r["optimal"].as_bool()),
        (Some(116), Some(true)),
        "{r}"
    );
    let r = json(&["--algorithm", "bfws", "--heuristic", "path"]);
    assert_eq!(r["status"], "solved", "{r}");
    assert_eq!(r["optimal"], false, "{r}");
    // Resting-block pruning cuts the shortest paths here: 120 steps.
    let r = json(&["--algorithm", "bfs", "--resting", "relaxed"]);
    assert_eq!(r["steps"], 120, "{r}");
    assert_eq!(r["optimal"], false, "{r}");
    let r = json(&[
        "--algorithm",
        "bfs",
        "--resting",
        "relaxed",
        "--max-positions",
        "3000",
    ]);
    assert_eq!(r["status"], "limit_reached", "{r}");
    assert_eq!(r["lower_bound"], 3, "the master's distance: {r}");
    let out = solver(&[
        "solve",
        "puzzles/tiles/eight_hardest_a.txt",
        "--algorithm",
        "bfs",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("solved in 31 steps, 31 moves (optimal in steps)"),
        "{text}"
    );
}

/// The known optima of the bundled puzzles (`% optimum: 81 moves, 116
/// steps`): per file, the metrics and lengths it names.
fn known_optima() -> Vec<(String, Vec<(&'static str, u64)>)> {
    let mut out = Vec::new();
    let mut dirs = vec![end_to_end::workspace_root().join("puzzles")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let Some(line) = text.lines().find_map(|l| l.strip_prefix("% optimum: ")) else {
                continue;
            };
            let mut optima = Vec::new();
            let words: Vec<&str> = line
                .split([' ', ',', '('])
                .filter(|w| !w.is_empty())
                .collect();
            for pair in words.windows(2) {
                for metric in ["steps", "moves"] {
                    if let (Ok(n), true) = (pair[0].parse::<u64>(), pair[1] == metric) {
                        if !optima.iter().any(|&(m, _)| m == metric) {
                            optima.push((metric, n));
                        }
                    }
                }
            }
            out.push((path.to_string_lossy().into_owned(), optima));
        }
    }
    out.sort();
    out
}

/// Every answer's lower bound is at most the known optimum, in both
/// metrics, whether the search solved the puzzle (greedy BFWS, an upper
/// bound beside it) or stopped (a BFS under a small position cap, whose
/// bound is the larger of its depth and the heuristics' estimate).
#[test]
fn the_lower_bound_never_exceeds_a_known_optimum() {
    let optima = known_optima();
    let mut checked = 0;
    for (file, known) in &optima {
        for &(metric, optimum) in known {
            for search in [
                &[
                    "--algorithm",
                    "bfws",
                    "--heuristic",
                    "path",
                    "--max-positions",
                    "20000",
                ][..],
                &["--algorithm", "bfs", "--max-positions", "2000"][..],
            ] {
                let args = [
                    &["solve", file.as_str(), "--json", "--metric", metric],
                    search,
                ]
                .concat();
                let out = solver(&args);
                let text = String::from_utf8_lossy(&out.stdout);
                let lines: Vec<&str> = text.lines().collect();
                if lines.len() != 1 {
                    continue; // a collection: the optimum is one of its puzzles'
                }
                let r: Value = serde_json::from_str(lines[0]).unwrap();
                let Some(bound) = r["lower_bound"].as_u64() else {
                    assert_eq!(r["status"], "no_solution", "{args:?}: {r}");
                    continue;
                };
                assert!(
                    bound <= optimum,
                    "{args:?}: bound {bound} above the optimum {optimum}"
                );
                if let Some(length) = r[metric].as_u64() {
                    assert!(
                        length >= optimum,
                        "{args:?}: {length} below the optimum {optimum}"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(
        checked > 60,
        "{checked} answers checked over {} files",
        optima.len()
    );
}
