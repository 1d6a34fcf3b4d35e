//! End-to-end tests of `--spill DIR`, the BFS that goes on with its layers on
//! disk when memory runs out: a `--max-memory` too small for any table forces
//! the spill, and the counts and solution lengths must be those of the search
//! in memory for every encoding, thread count and metric; spilled solutions
//! replay in `solver verify`; the spill folder is left empty; bad folders and
//! settings the spill cannot serve are refused with exit 2.

use std::path::{Path, PathBuf};

use end_to_end::run_solver;
use serde_json::Value;

/// A fresh folder for this test's spill files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("spill-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `solver` and parses its one JSON line; returns the exit code too.
fn one(args: &[&str]) -> (i32, Value) {
    let out = run_solver(args);
    let text = String::from_utf8_lossy(&out.stdout);
    let v = serde_json::from_str(text.trim()).unwrap_or_else(|e| {
        panic!(
            "{args:?}: bad JSON {text:?}: {e}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), v)
}

/// The entries left in `dir`.
fn left_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// Checks that a run ended with exit 2, no output, and a message naming the
/// spill folder `dir` and saying `what` to do.
fn refused_naming(out: &std::process::Output, dir: &Path, what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    assert!(err.contains(&format!("--spill {}", dir.display())), "{err}");
    assert!(err.contains(what), "the message says what to do: {err}");
}

/// `--max-memory 1M` is below what the process already holds, so a BFS with
/// `--spill` goes to disk at once.
const FORCE: [&str; 2] = ["--max-memory", "1M"];

/// Counts and solves `puzzle` in memory and spilled with `extra` flags;
/// returns (positions, solution length in the search's metric) of each, and
/// checks the solutions in the verifier and the folder empty afterwards.
fn both_ways(puzzle: &str, extra: &[&str], dir: &Path) -> [(Value, Value); 2] {
    let metric = if extra.contains(&"moves") {
        "moves"
    } else {
        "steps"
    };
    let spill = ["--spill", dir.to_str().unwrap()];
    let sol = dir.with_extension("sol");
    let sol = sol.to_str().unwrap();
    let mut seen = Vec::new();
    for spilled in [false, true] {
        let mut args = extra.to_vec();
        if spilled {
            args.extend(FORCE);
            args.extend(spill);
        }
        let count = [&["count", puzzle, "--json", "--quiet"], &args[..]].concat();
        let (code, c) = one(&count);
        assert_eq!(
            (code, &c["complete"]),
            (0, &Value::Bool(true)),
            "{count:?}: {c}"
        );
        let solve = [
            &["solve", puzzle, "--json", "--quiet", "--solution", sol],
            &args[..],
        ]
        .concat();
        let (code, s) = one(&solve);
        assert_eq!(code, 0, "{solve:?}: {s}");
        let disk = (
            c["spill_disk_bytes"].as_u64(),
            s["spill_disk_bytes"].as_u64(),
        );
        if spilled {
            assert!(
                disk.0 > Some(0) && disk.1 > Some(0),
                "{args:?} did not spill: {disk:?}"
            );
        } else {
            assert_eq!(disk, (Some(0), Some(0)), "{args:?} spilled unasked");
        }
        let v = run_solver(&["verify", puzzle, sol, "--json"]);
        assert!(
            v.status.success(),
            "{solve:?}: the verifier refused the solution"
        );
        let replay: Value = serde_json::from_slice(&v.stdout).unwrap();
        assert_eq!(replay["steps"], s["steps"], "{solve:?}");
        seen.push((c["positions"].clone(), s[metric].clone()));
        assert!(left_in(dir).is_empty(), "{args:?} left {:?}", left_in(dir));
    }
    [seen[0].clone(), seen[1].clone()]
}

#[test]
fn spilled_searches_count_and_solve_as_in_memory_for_every_encoding_and_thread_count() {
    let dir = folder("agree");
    for puzzle in [
        "puzzles/klotski/classic.txt",
        "puzzles/tiles/eight_hardest_a.txt",
        "puzzles/rushhour/rush_30.txt",
    ] {
        for encoding in ["rank", "packed", "sets", "auto"] {
            for threads in ["1", "2"] {
                let extra = ["--encoding", encoding, "--threads", threads];
                let [ram, disk] = both_ways(puzzle, &extra, &dir);
                assert_eq!(ram, disk, "{puzzle} {extra:?}");
            }
        }
    }
}

#[test]
fn spilled_searches_agree_under_the_moves_metric_and_with_prunings() {
    let dir = folder("moves");
    let classic = "puzzles/klotski/classic.txt";
    let [ram, disk] = both_ways(classic, &["--metric", "moves"], &dir);
    assert_eq!(ram, disk);
    assert_eq!(ram.1, 81, "classic Klotski's optimum is 81 moves");
    let [ram, disk] = both_ways(classic, &["--space-value", "3"], &dir);
    assert_eq!(ram, disk, "--space-value keeps the graph undirected");
    assert_eq!(ram, (15673.into(), 118.into()), "the cutoff prunes");
}

#[test]
fn a_spilled_search_stopped_by_a_limit_leaves_the_folder_empty() {
    let dir = folder("limit");
    // A folder a killed run left behind (its lock file held by no one) goes too.
    let stale = dir.join("solver-spill-4294967295-x");
    std::fs::create_dir(&stale).unwrap();
    std::fs::write(stale.join("layer-1.keys"), [0u8; 8]).unwrap();
    std::fs::write(stale.join("lock"), []).unwrap();
    let d = dir.to_str().unwrap();
    let (code, r) = one(&[
        "count",
        "puzzles/bench/bench_1e6.txt",
        "--json",
        "--max-memory",
        "1M",
        "--spill",
        d,
        "--max-positions",
        "50000",
    ]);
    assert_eq!(
        (code, r["limit"].as_str()),
        (1, Some("max_positions")),
        "{r}"
    );
    assert_eq!(r["positions_examined"], 50000);
    assert!(r["spill_disk_bytes"].as_u64() > Some(0), "{r}");
    assert!(left_in(&dir).is_empty(), "left {:?}", left_in(&dir));
}

#[test]
fn a_spill_folder_that_cannot_be_written_is_refused_before_the_search() {
    let dir = folder("bad");
    let file = dir.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let bad = file.join("spill");
    let out = run_solver(&[
        "count",
        "puzzles/klotski/classic.txt",
        "--spill",
        bad.to_str().unwrap(),
    ]);
    // The message says to give a writable folder.
    refused_naming(&out, &bad, "writ");
}

#[test]
fn spill_refuses_what_it_cannot_serve() {
    let dir = folder("refuse");
    let d = dir.to_str().unwrap();
    for (extra, says) in [
        (vec!["--algorithm", "astar"], "--algorithm bfs only"),
        (vec!["--master-never-away"], "one-way"),
        (vec!["--keep-visited"], "--keep-visited"),
    ] {
        let mut args = vec!["solve", "puzzles/klotski/classic.txt", "--spill", d];
        args.extend(&extra);
        let out = run_solver(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(says), "{extra:?}: {err}");
    }
    assert!(left_in(&dir).is_empty());
}

#[test]
fn bench_with_spill_gives_a_row_for_memory_and_one_for_disk() {
    let dir = folder("bench");
    let out = run_solver(&[
        "bench",
        "puzzles/klotski/classic.txt",
        "--threads",
        "1",
        "--encodings",
        "rank",
        "--metrics",
        "steps",
        "--spill",
        dir.to_str().unwrap(),
    ]);
    end_to_end::assert_success(&out, "");
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(2)
        .map(|l| l.split('|').map(str::trim).collect())
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    for row in &rows {
        assert_eq!(row[2], "25955", "{text}");
    }
    // The last column: no disk in memory; a figure (0.0 when it fit) spilled.
    assert_eq!(rows[0][9], "-", "{text}");
    assert!(rows[1][9].parse::<f64>().is_ok(), "{text}");
    assert!(left_in(&dir).is_empty());
}

#[test]
fn a_spill_folder_that_fills_up_ends_with_exit_2_and_is_cleared() {
    let dir = folder("full");
    // A file size limit makes every write past 8-16 KiB fail (EFBIG, with
    // SIGXFSZ ignored), as a full disk would.
    let script = format!(
        "trap '' XFSZ; ulimit -f 16; exec '{}' solve puzzles/bench/bench_1e6.txt --max-memory 1M --spill '{}' --quiet",
        end_to_end::solver_bin().display(),
        dir.display()
    );
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(end_to_end::workspace_root())
        .output()
        .expect("sh runs");
    refused_naming(&out, &dir, "free room");
    assert!(left_in(&dir).is_empty(), "left {:?}", left_in(&dir));
}
