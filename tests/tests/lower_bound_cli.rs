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
    // A weighted search proves nothing.
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
    assert!(r.get("lower_bound").is_none(), "{r}");
}

/// A solved search claims `optimal` only where it proved it: an optimal
/// search without pruning does, in its metric (and says so on its first
/// line); a weighted or greedy search does not, and neither does an
/// optimal one with a pruning, which may cut the shortest paths (nor does
/// it give a lower bound when stopped: before, it gave one).
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
    assert!(r.get("lower_bound").is_none(), "{r}");
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
