//! End-to-end tests of `--algorithm nbs`: it returns the optimum BFS or IDA*
//! finds on the 8-puzzle and on a small 15-puzzle instance, with Manhattan
//! distance and with pattern databases in both directions, each solution
//! replayed by `solver verify`; and it refuses, with exit 2 and what to
//! change, the settings under which it would not be optimal or cannot run.

use std::path::PathBuf;

use end_to_end::run_solver as solver;
use serde_json::Value;

/// A 15-puzzle instance 60 random moves from the goal: 32 steps (IDA*).
const FIFTEEN: &str = "2 4 1 7 6 0 10 5 9 13 11 3 8 12 14 15\n";

/// A fresh folder for this test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nbs-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Solves `puzzle` with `args`, returns (steps, positions examined) and
/// replays the solution in `solver verify`.
fn solve_verified(puzzle: &str, args: &[&str], dir: &std::path::Path) -> (u64, u64) {
    let sol = dir.join(format!("{}.sol", args.join("_").replace('/', "_")));
    let sol = sol.to_str().unwrap();
    let mut all = vec!["solve", puzzle, "--json", "--quiet", "--solution", sol];
    all.extend_from_slice(args);
    let out = solver(&all);
    let r: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{all:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(out.status.code(), Some(0), "{all:?}: {r}");
    let from: &[&str] = if args.contains(&"tiles") {
        &["--from", "tiles"]
    } else {
        &[]
    };
    let mut verify = vec!["verify", puzzle, sol];
    verify.extend_from_slice(from);
    let v = solver(&verify);
    end_to_end::assert_success(&v, &format!("verify rejected {all:?}"));
    (
        r["steps"].as_u64().expect("steps"),
        r["positions_examined"].as_u64().expect("positions"),
    )
}

#[test]
fn nbs_returns_the_optimum_on_the_eight_and_fifteen_puzzles() {
    let dir = folder("optimum");
    let cache = dir.join("cache");
    let cache = cache.to_str().unwrap();
    let eight = "puzzles/tiles/eight_hardest_a.txt";
    let (bfs, _) = solve_verified(eight, &[], &dir);
    assert_eq!(bfs, 31);
    for h in ["manhattan", "pdb"] {
        let args = ["--algorithm", "nbs", "--heuristic", h, "--pdb-cache", cache];
        let (steps, examined) = solve_verified(eight, &args, &dir);
        assert_eq!(steps, bfs, "nbs {h} on the 8-puzzle");
        assert!(examined < 181_440 / 2, "nbs {h} examined {examined}");
    }
    let fifteen = dir.join("fifteen.txt");
    std::fs::write(&fifteen, FIFTEEN).unwrap();
    let fifteen = fifteen.to_str().unwrap();
    let tiles = ["--from", "tiles", "--heuristic", "manhattan"];
    let ida = [&tiles[..], &["--algorithm", "ida"]].concat();
    let (optimum, _) = solve_verified(fifteen, &ida, &dir);
    assert_eq!(optimum, 32);
    let nbs = [&tiles[..], &["--algorithm", "nbs"]].concat();
    let (steps, _) = solve_verified(fifteen, &nbs, &dir);
    assert_eq!(steps, optimum, "nbs manhattan on the 15-puzzle");
}

#[test]
fn nbs_refuses_what_would_lose_optimality_with_exit_2() {
    let eight = "puzzles/tiles/eight_hardest_a.txt";
    for (args, expected) in [
        (
            vec!["puzzles/klotski/classic.txt"],
            "needs a goal that fixes every block",
        ),
        (
            vec![eight, "--heuristic", "h2"],
            "needs an admissible heuristic",
        ),
        (
            vec![eight, "--heuristic", "h0", "--metric", "moves"],
            "may overestimate under --metric moves",
        ),
        (
            vec![eight, "--heuristic", "manhattan", "--weight", "2"],
            "takes no --weight",
        ),
        (
            vec![eight, "--resting", "strict"],
            "needs a symmetric search graph",
        ),
    ] {
        let mut all = vec!["solve", "--algorithm", "nbs"];
        all.extend_from_slice(&args);
        let out = solver(&all);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {err}");
        assert!(err.contains(expected), "{all:?}: {err}");
        assert!(err.contains("--algorithm nbs"), "{all:?}: {err}");
    }
}
