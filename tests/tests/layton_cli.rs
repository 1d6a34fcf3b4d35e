//! Layton's puzzles (lumi-a's 24, `puzzles/layton/`) solved as a user runs
//! the solver, with no flags but the metric lumi-a counts: the answers are
//! at lumi-a's published minima, the default picks the bidirectional search
//! where the goal fixes every block and says why, and `--encoding auto`'s
//! faster first try falls back to the narrower encoding when memory runs out.

use end_to_end::{assert_success, run_solver as solver, workspace_root};
use serde_json::Value;

/// `solver solve FILE --metric moves --json ARGS` and its result.
fn solve(file: &str, args: &[&str]) -> Value {
    let mut all = vec!["solve", file, "--metric", "moves", "--json"];
    all.extend_from_slice(args);
    let out = solver(&all);
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{file}: {e}: {}", String::from_utf8_lossy(&out.stderr)))
}

/// The `% optimum: N moves` of a bundled puzzle.
fn optimum(file: &str) -> u64 {
    let text = std::fs::read_to_string(workspace_root().join(file)).unwrap();
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("% optimum: "))
        .unwrap_or_else(|| panic!("{file} has no optimum"));
    line.split_whitespace().next().unwrap().parse().unwrap()
}

const TIME_MACHINE: &str = "puzzles/layton/the_time_machine.txt";

#[test]
fn the_default_search_of_the_time_machine_is_bidirectional_and_at_the_minimum() {
    let r = solve(TIME_MACHINE, &[]);
    assert_eq!(r["status"], "solved", "{r}");
    assert_eq!(r["moves"], optimum(TIME_MACHINE), "{r}");
    assert_eq!(r["params"]["algorithm"], "bidir", "{r}");
    let reason = r["algorithm_reason"].as_str().unwrap();
    assert!(reason.contains("fixes every block"), "{reason}");
    // The packed encoding, taken although its worst-case bound does not fit.
    assert_eq!(r["encoding"], "packed", "{r}");
    // The text report prints the choice too.
    let out = solver(&["solve", TIME_MACHINE, "--metric", "moves"]);
    assert_success(&out, "solve");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("  algorithm: bidir: "), "{text}");
    assert!(text.contains("fixes every block"), "{text}");
}

#[test]
fn optimal_proves_the_minimum_by_a_bidirectional_search_bounded_by_max_length() {
    let best = optimum(TIME_MACHINE);
    let r = solve(TIME_MACHINE, &["--optimal"]);
    assert_eq!(r["moves"], best, "{r}");
    assert_eq!(r["params"]["algorithm"], "bidir", "{r}");
    assert!(r["algorithm_reason"].as_str().unwrap().contains("optimal"));
    // One below the minimum: none, and the search stops once its two
    // depths reach the bound, before the layer where they would meet.
    let below = (best - 1).to_string();
    let bounded = solve(TIME_MACHINE, &["--optimal", "--max-length", &below]);
    assert_eq!(bounded["status"], "no_solution", "{bounded}");
    let (all, cut) = (&r["positions_examined"], &bounded["positions_examined"]);
    assert!(cut.as_u64() < all.as_u64(), "{cut} against {all}");
    // An explicit algorithm is reported as asked for.
    let r = solve(
        TIME_MACHINE,
        &["--algorithm", "bfs", "--max-positions", "1000"],
    );
    assert_eq!(r["algorithm_reason"], "bfs (asked for)", "{r}");
}

#[test]
fn the_quick_layton_puzzles_solve_at_lumi_as_minimum_by_default() {
    // The ones this solver answers in under 0.1 s (each of the 24 is in
    // experiments/peers.md); the goal leaves blocks free in all but Jewel
    // Swap, so BFS, which is optimal.
    let quick = [
        "a_troublesome_table",
        "cluttered_bag",
        "garbage_disposal",
        "genome_entanglement",
        "genome_garbage_disposal",
        "genome_royal_escape",
        "grab_the_key",
        "jewel_swap",
        "royal_escape",
        "taking_out_the_trash",
        "ten_step_solution",
        "the_diabolical_box_reopened",
        "the_dragon_bridge",
        "the_greatest_escape_1",
        "ufo_sos",
    ];
    for name in quick {
        let file = format!("puzzles/layton/{name}.txt");
        let r = solve(&file, &[]);
        assert_eq!(r["status"], "solved", "{file}: {r}");
        assert_eq!(r["moves"], optimum(&file), "{file}: {r}");
        let algorithm = if name == "jewel_swap" { "bidir" } else { "bfs" };
        assert_eq!(r["params"]["algorithm"], algorithm, "{file}: {r}");
    }
}

#[test]
fn auto_encoding_searches_again_with_the_narrower_keys_when_memory_runs_out() {
    // Sliding Pipes: packed keys of 59 bits (8-byte slots) against the
    // rank's 33 (5 bytes); its worst-case bound does not fit, yet auto
    // starts with packed. Under a budget of 10 MB (the whole process)
    // packed runs out, and the search goes on with the rank, which also
    // runs out, later.
    let file = "puzzles/layton/sliding_pipes.txt";
    let r = solve(file, &["--max-memory", "10M"]);
    assert_eq!(r["status"], "limit_reached", "{r}");
    assert_eq!(r["limit"], "max_memory", "{r}");
    assert_eq!(r["encoding"], "rank", "{r}");
    let reason = r["encoding_reason"].as_str().unwrap();
    assert!(reason.contains("packed first"), "{reason}");
    assert!(reason.contains("ran out of memory"), "{reason}");
    let stored: u64 = reason
        .split("after storing ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{reason}"));
    assert!(stored > 0, "{reason}");
    // With room, packed alone, no second search.
    let r = solve(file, &["--max-memory", "200M"]);
    assert_eq!(r["status"], "solved", "{r}");
    assert_eq!(r["moves"], optimum(file), "{r}");
    assert_eq!(r["encoding"], "packed", "{r}");
    let reason = r["encoding_reason"].as_str().unwrap();
    assert!(
        reason.contains("might not fit in the worst case"),
        "{reason}"
    );
}
