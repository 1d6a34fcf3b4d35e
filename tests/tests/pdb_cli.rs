//! End-to-end tests of `--heuristic pdb`, `solver pdb build|info` and
//! `--algorithm dfid`: A* and IDA* with pattern databases return the BFS
//! optimum (solutions replayed by `solver verify`), also on a puzzle with
//! doors and sliders, a cached table is reused
//! and a changed puzzle rebuilds it, table bytes count in `--max-memory`
//! (tables it leaves no room for are refused),
//! and bad `--pdb` settings exit 2 with what to change.

use std::path::PathBuf;

use end_to_end::{run_solver as solver, workspace_root};
use serde_json::Value;

/// A fresh folder for this test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pdb-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Solves with `extra`, checks the result's `field` equals `expected`, and
/// replays the solution in `solver verify`; returns the JSON result.
fn solve_verified(puzzle: &str, extra: &[&str], field: &str, expected: u64) -> Value {
    let dir = folder(&format!("{}{}", puzzle.len(), extra.join("").len()));
    let sol = dir.join("run.sol");
    let sol = sol.to_str().unwrap();
    let mut args = vec!["solve", puzzle, "--json", "--quiet", "--solution", sol];
    args.extend_from_slice(extra);
    let out = solver(&args);
    let r: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(out.status.code(), Some(0), "{args:?}: {r}");
    assert_eq!(r[field].as_u64(), Some(expected), "{args:?}: {r}");
    let v = solver(&["verify", puzzle, sol]);
    assert!(v.status.success(), "verify rejected {args:?}");
    r
}

/// The BFS optimum of `puzzle` under `metric`, and the positions BFS examined.
fn bfs_optimum(puzzle: &str, metric: &str) -> (u64, u64) {
    let field = if metric == "moves" { "moves" } else { "steps" };
    let args = ["solve", puzzle, "--json", "--quiet", "--algorithm", "bfs"];
    let out = solver(&[&args[..], &["--metric", metric]].concat());
    let r: Value = serde_json::from_slice(&out.stdout).expect("BFS JSON");
    (
        r[field].as_u64().expect("BFS solves it"),
        r["positions_examined"].as_u64().unwrap(),
    )
}

/// `solver pdb info PUZZLE --pdb PDB --pdb-cache CACHE`'s output (it must succeed).
fn pdb_info(puzzle: &str, pdb: &str, cache: &str) -> String {
    let out = solver(&["pdb", "info", puzzle, "--pdb", pdb, "--pdb-cache", cache]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{puzzle}: {err}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn astar_and_ida_with_pdb_return_the_bfs_optimum() {
    let cache = folder("optimum");
    let cache = cache.to_str().unwrap();
    for (puzzle, metric, pdb) in [
        (
            "puzzles/tiles/eight_hardest_a.txt",
            "steps",
            "1,2,3,4/5,6,7,8",
        ),
        ("puzzles/klotski/classic.txt", "steps", "v"),
        ("puzzles/klotski/classic.txt", "moves", "o,h"),
        ("puzzles/special/fig7_3b_sliders.txt", "steps", "a"),
        ("puzzles/special/fig7_3b_sliders.txt", "moves", "v,b"),
    ] {
        let (optimum, bfs_examined) = bfs_optimum(puzzle, metric);
        let field = if metric == "moves" { "moves" } else { "steps" };
        for algorithm in ["astar", "ida"] {
            if algorithm == "ida" && !puzzle.contains("tiles") {
                continue; // IDA* keeps no visited set: hopeless on block puzzles
            }
            let extra = [
                "--algorithm",
                algorithm,
                "--heuristic",
                "pdb",
                "--metric",
                metric,
                "--pdb",
                pdb,
                "--pdb-cache",
                cache,
            ];
            let r = solve_verified(puzzle, &extra, field, optimum);
            assert_eq!(r["params"]["heuristic"], "pdb");
            if algorithm == "astar" {
                let examined = r["positions_examined"].as_u64().unwrap();
                assert!(
                    examined < bfs_examined,
                    "{puzzle} {metric}: A* pdb examined {examined}, BFS {bfs_examined}"
                );
            }
        }
    }
}

/// A 5x4 board with a door the master leaves through, interchangeable 1x1
/// blocks and one slider per axis (the library's admissibility test checks
/// every one of its 32,032 positions).
const DOORS_AND_SLIDERS: &str = "!\n@ 1,0\na\nv | 0,1\nh = 1,0\n!\n\
#######\n#@@ v #\n#a  v #\n#hh a #\n#.  a -\n#######\n!\n\
#######\n#.....#\n#.....#\n#.....#\n#....@@\n#######\n!\n";

#[test]
fn astar_with_pdb_returns_the_bfs_optimum_with_doors_and_sliders() {
    let dir = folder("doors");
    let puzzle = dir.join("doors.txt");
    std::fs::write(&puzzle, DOORS_AND_SLIDERS).unwrap();
    let puzzle = puzzle.to_str().unwrap();
    let cache = dir.join("cache");
    let cache = cache.to_str().unwrap();
    for metric in ["steps", "moves"] {
        let (optimum, bfs_examined) = bfs_optimum(puzzle, metric);
        // The master kept with each slider: the master-split index.
        let extra = [
            "--algorithm",
            "astar",
            "--heuristic",
            "pdb",
            "--metric",
            metric,
            "--pdb",
            "v,h",
            "--pdb-cache",
            cache,
        ];
        let r = solve_verified(puzzle, &extra, metric, optimum);
        let examined = r["positions_examined"].as_u64().unwrap();
        assert!(
            examined < bfs_examined,
            "{metric}: A* pdb examined {examined}, BFS {bfs_examined}"
        );
    }
}

#[test]
fn a_cached_table_is_reused_and_a_changed_puzzle_rebuilds_it() {
    let dir = folder("cache");
    let cache = dir.to_str().unwrap();
    let info = |puzzle: &str| pdb_info(puzzle, "v", cache);
    let tables = || {
        let files = std::fs::read_dir(&dir).unwrap();
        files
            .filter(|f| f.as_ref().unwrap().path().extension() == Some("pdb".as_ref()))
            .count()
    };
    let first = info("puzzles/klotski/classic.txt");
    assert!(first.contains("built in"), "{first}");
    assert!(first.contains("start estimate: "), "{first}");
    assert_eq!(tables(), 1);
    let again = info("puzzles/klotski/classic.txt");
    assert!(again.contains("read from the cache"), "{again}");
    assert_eq!(tables(), 1);
    // The same board with the master's goal one column to the left.
    let text =
        std::fs::read_to_string(workspace_root().join("puzzles/klotski/classic.txt")).unwrap();
    let goal = text.rfind("@@").unwrap();
    let mut moved = text.clone();
    moved.replace_range(goal - 1..goal + 2, "@@ ");
    let upper = moved[..goal].rfind("@@").unwrap();
    moved.replace_range(upper - 1..upper + 2, "@@ ");
    let changed = dir.join("changed.txt");
    std::fs::write(&changed, &moved).unwrap();
    let rebuilt = info(changed.to_str().unwrap());
    assert!(
        rebuilt.contains("built in"),
        "a changed goal must rebuild: {rebuilt}"
    );
    assert_eq!(tables(), 2);
}

#[test]
fn a_cached_tile_table_is_reused_and_another_goal_rebuilds_it() {
    let dir = folder("tile-cache");
    let cache = dir.to_str().unwrap();
    let info = |puzzle: &str| pdb_info(puzzle, "1,2,3,4/5,6,7,8", cache);
    let first = info("puzzles/tiles/eight_hardest_a.txt");
    assert_eq!(first.matches("built in").count(), 2, "{first}");
    assert!(first.contains("4 bits each"), "{first}");
    assert!(
        first.contains("read again through the main diagonal"),
        "{first}"
    );
    let again = info("puzzles/tiles/eight_hardest_b.txt");
    assert_eq!(
        again.matches("read from the cache").count(),
        2,
        "same goal: {again}"
    );
    let moved = info("puzzles/tiles/eight_hardest_blank_first.txt");
    assert_eq!(
        moved.matches("built in").count(),
        2,
        "another goal: {moved}"
    );
}

#[test]
fn table_bytes_count_in_max_memory() {
    let dir = folder("memory");
    let base = [
        "solve",
        "puzzles/tiles/korf_01.txt",
        "--json",
        "--quiet",
        "--algorithm",
        "ida",
        "--heuristic",
        "pdb",
        "--pdb",
        "1,2,3,4/5,6,7,8/9,10,11,12",
        "--pdb-cache",
        dir.to_str().unwrap(),
    ];
    let run = |extra: [&str; 2]| {
        let mut args = base.to_vec();
        args.extend(extra);
        let out = solver(&args);
        let r: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
        (out.status.code(), r)
    };
    // Three tables of 16! / 12! entries (four tiles' cells), 4 bits each.
    let tables = 3 * 43_680 / 2;
    let (code, r) = run(["--max-positions", "1"]);
    assert_eq!(
        (code, &r["limit"]),
        (Some(1), &Value::from("max_positions")),
        "{r}"
    );
    assert!(r["peak_memory_bytes"].as_u64().unwrap() >= tables, "{r}");
    // A limit that leaves the tables no room (the process holds more than
    // 1M already) refuses them before they are built, naming the limit.
    let mut args = base.to_vec();
    args.extend(["--max-memory", "1M"]);
    let out = solver(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--max-memory leaves them"), "{err}");
}

#[test]
fn dfid_finds_the_optimum_without_a_heuristic() {
    let dir = folder("dfid");
    let tiles = dir.join("near.tiles");
    std::fs::write(&tiles, "3 1 2 4 0 5 6 7 8\n").unwrap();
    let native = solver(&["import", "--from", "tiles", tiles.to_str().unwrap()]);
    end_to_end::assert_success(&native, "");
    let file = dir.join("near.txt");
    std::fs::write(&file, native.stdout).unwrap();
    let r = solve_verified(file.to_str().unwrap(), &["--algorithm", "dfid"], "steps", 2);
    assert_eq!(r["params"]["algorithm"], "dfid");
}

#[test]
fn bad_pdb_settings_exit_2_with_what_to_change() {
    let cases: [(&[&str], &str); 4] = [
        (&["--pdb", "z"], "--pdb names block 'z'"),
        (&["--pdb", "1,2/2,3"], "a tile is in two groups"),
        (&["--pdb-memory", "lots"], "--pdb-memory takes a byte count"),
        (
            &["--pdb", "1,2,3,4", "--pdb-memory", "1K"],
            "more than --pdb-memory",
        ),
    ];
    for (extra, expected) in cases {
        let mut args = vec![
            "solve",
            "puzzles/tiles/eight_hardest_a.txt",
            "--algorithm",
            "astar",
            "--heuristic",
            "pdb",
            "--pdb-cache",
            "off",
        ];
        args.extend(extra);
        let out = solver(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

/// `--time-limit` covers the pattern-database build: on a 100x100 board of
/// 1x1 blocks, whose table takes minutes to build, a 1-second limit ends the
/// run with `limit_reached` (`time_limit`) within seconds, where the build
/// ran on past a minute before; the stopped table is not cached.
#[test]
fn the_time_limit_stops_a_long_table_build() {
    let cache = folder("deadline");
    let started = std::time::Instant::now();
    let out = solver(&[
        "solve",
        "puzzles/special/huge_1x1.txt",
        "--algorithm",
        "astar",
        "--heuristic",
        "pdb",
        "--pdb-cache",
        cache.to_str().unwrap(),
        "--time-limit",
        "1",
        "--json",
    ]);
    let secs = started.elapsed().as_secs_f64();
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{r}");
    assert_eq!(
        (r["status"].as_str(), r["limit"].as_str()),
        (Some("limit_reached"), Some("time_limit")),
        "{r}"
    );
    assert!(secs < 30.0, "took {secs:.1} s");
    let cached = std::fs::read_dir(&cache).map_or(0, |d| d.count());
    assert_eq!(cached, 0, "a stopped table was cached");
}
