//! End-to-end tests of the solver on boards built to be hard on its limits:
//! the time limit is kept on boards where one position takes milliseconds to
//! expand, and a board whose keys are too wide for the visited set is
//! refused with the limit named (IDA*, which stores nothing, still runs).

use std::path::PathBuf;

use end_to_end::boards::{board, dense};
use end_to_end::run_solver;

/// 128x62 with 59 horizontal bars of 100 cells, one per row: every
/// position has many moves and a 378-bit key.
fn long_bars() -> PathBuf {
    let bar = (1..100)
        .map(|k| format!("{k},0"))
        .collect::<Vec<_>>()
        .join(" ");
    board("bars", &format!("b {bar}\n"), 128, 62, |r, c| {
        let first = 1 + (r - 1) % 26;
        match (r, c) {
            (60, 1) => '@',
            _ if r <= 59 && (first..first + 100).contains(&c) => 'b',
            _ => ' ',
        }
    })
}

/// Runs a search expected to stop at a limit (exit 1): its JSON result.
fn stopped(args: &[&str]) -> serde_json::Value {
    let out = run_solver(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    serde_json::from_slice(&out.stdout).expect("one JSON result")
}

#[test]
fn the_time_limit_holds_where_one_position_takes_milliseconds() {
    for (puzzle, limit) in [(long_bars(), "1"), (dense(30), "2")] {
        let started = std::time::Instant::now();
        let path = puzzle.to_str().unwrap();
        let r = stopped(&["solve", path, "--time-limit", limit, "--json", "--quiet"]);
        let wall = started.elapsed().as_secs_f64();
        assert_eq!(r["limit"], "time_limit");
        let own = r["elapsed_ms"].as_f64().unwrap() / 1000.0;
        let limit: f64 = limit.parse().unwrap();
        // Within 1 s of the limit by its own clock; the wall clock also
        // counts parsing and start-up on a shared 2-core machine.
        assert!(own <= limit + 1.0, "{puzzle:?}: {own} s by its own clock");
        assert!(
            wall <= limit + 3.0,
            "{puzzle:?}: {wall} s on the wall clock"
        );
    }
}

#[test]
fn keys_too_wide_for_the_visited_set_are_refused_naming_the_limit() {
    let puzzle = dense(40);
    let path = puzzle.to_str().unwrap();
    let out = run_solver(&["solve", path, "--quiet"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("-bit keys") && err.contains("the 4064 bits the visited set stores"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    let out = run_solver(&["count", path, "--quiet"]);
    assert_eq!(out.status.code(), Some(2));
    // IDA* and DFID store no positions, so they run.
    for algorithm in ["ida", "dfid"] {
        let depth_first = ["--algorithm", algorithm, "--max-positions", "50", "--json"];
        let r = stopped(&[&["solve", path][..], &depth_first[..]].concat());
        assert_eq!(r["limit"], "max_positions", "{algorithm}");
    }
    assert!(err.contains("--algorithm ida or dfid"), "{err}");
    let out = run_solver(&["features", path, "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// On two threads too: a helper thread's grown and freed shards went to
/// an allocator arena of its own, which the main thread's later arrays
/// could not reuse, and the 10^7 bench under 64M peaked at 82 MB resident
/// (the search counted 54 MB). The solver keeps one arena under
/// `--max-memory`: 64.5 MB.
#[test]
fn max_memory_bounds_the_whole_process_on_two_threads() {
    use end_to_end::measure::run_measured;
    use end_to_end::{solver_bin, workspace_root};
    let limit = 64u64 << 20;
    let measured = run_measured(
        std::process::Command::new(solver_bin())
            .args(["count", "puzzles/bench/bench_1e7.txt", "--json"])
            .args(["--max-memory", "64M", "--threads", "2"])
            .current_dir(workspace_root()),
    );
    let report: serde_json::Value =
        serde_json::from_str(measured.stdout.trim()).expect("one JSON result");
    // Whole, or stopped by the limit where the process holds more at the
    // start (a debug build): either way past the growth that overshot.
    assert!(report["positions"].as_u64() > Some(5_000_000), "{report}");
    assert!(
        measured.peak_rss <= limit + limit / 10,
        "peak RSS {} more than 10% over the 64 MiB limit",
        measured.peak_rss
    );
}

/// `--max-memory` bounds the whole process, not only the search's own
/// tables: a count that needs about 80 MB stops with `max_memory`, its own
/// count (`peak_memory_bytes`) stays under the limit, and the peak resident
/// memory the kernel measured stays within 10% of it.
#[test]
fn max_memory_bounds_the_whole_process() {
    use end_to_end::measure::run_measured;
    use end_to_end::{solver_bin, workspace_root};
    for mib in [24u64, 48] {
        let limit = mib << 20;
        let measured = run_measured(
            std::process::Command::new(solver_bin())
                .args(["count", "puzzles/bench/bench_1e7.txt", "--json"])
                // The table of keys: under these limits auto would take
                // the dense array, which holds the whole count in 4 MB.
                .args(["--encoding", "packed"])
                .args(["--max-memory", &format!("{mib}M")])
                .current_dir(workspace_root()),
        );
        assert_eq!(measured.code, Some(1), "stopped by a limit: {measured:?}");
        let report: serde_json::Value =
            serde_json::from_str(measured.stdout.trim()).expect("one JSON result");
        assert_eq!(report["limit"], "max_memory", "{report}");
        let counted = report["peak_memory_bytes"].as_u64().expect("a count");
        assert!(counted <= limit, "counted {counted} > limit {limit}");
        assert!(
            measured.peak_rss <= limit + limit / 10,
            "peak RSS {} more than 10% over the {mib} MiB limit",
            measured.peak_rss
        );
    }
}
