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
