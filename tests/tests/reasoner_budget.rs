//! End-to-end tests of the reasoner's whole-run budget (`--time-budget`,
//! `--position-budget`), of waves that stop once one attempt solves, and of
//! the improve phase, with the real solver.

use std::process::{Command, Output};
use std::time::Instant;

use serde_json::Value;

mod reasoner_common;
use reasoner_common::{assert_solution_replays, json_of, s, Scratch};

fn puzzle(rel: &str) -> String {
    s(&end_to_end::workspace_root().join(rel)).to_string()
}

/// `reasoner solve PUZZLE --casebase CB ARGS --json` with the real solver.
fn solve(puzzle: &str, cb: &str, args: &[&str]) -> (Output, Value) {
    let solver = end_to_end::solver_bin();
    let out = Command::new(end_to_end::reasoner_bin())
        .args(["solve", puzzle, "--casebase", cb, "--json", "--solver"])
        .arg(&solver)
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    let v = json_of(&out);
    (out, v)
}

fn seed_casebase() -> String {
    puzzle("casebase/seed.toml")
}

fn positions(report: &Value) -> Vec<u64> {
    report["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["positions_examined"].as_u64().unwrap_or(0))
        .collect()
}

#[test]
fn the_position_budget_bounds_the_whole_run() {
    let pie = puzzle("puzzles/klotski/american_pie.txt");
    let args = ["--position-budget", "30000", "--position-limit", "1000000"];
    let (out, v) = solve(&pie, &seed_casebase(), &args);
    assert_eq!(out.status.code(), Some(1), "{v}");
    let used: u64 = positions(&v).iter().sum();
    assert!(used <= 30000, "{used}: {v}");
    assert_eq!(v["budget"]["positions_used"], used, "{v}");
    assert_eq!(v["budget"]["position_budget"], 30000);
    assert_eq!(v["budget"]["exhausted"], "positions", "{v}");
    assert!(v["budget"]["first_solution_ms"].is_null(), "unsolved: {v}");
    // Each attempt of the wave got at most its share of what was left.
    assert!(positions(&v).iter().all(|&p| p <= 30000 / 4), "{v}");
    let table = String::from_utf8_lossy(&out.stderr);
    assert!(table.contains("the positions budget ran out"), "{table}");
}

#[test]
fn the_time_budget_stops_the_run_in_time() {
    let pie = puzzle("puzzles/klotski/american_pie.txt");
    let started = Instant::now();
    let args = ["--time-budget", "8", "--position-limit", "1000000000"];
    let (out, v) = solve(&pie, &seed_casebase(), &args);
    let took = started.elapsed().as_secs_f64();
    assert_eq!(out.status.code(), Some(1), "{v}");
    // The solvers stop themselves just before the budget, or are killed at it.
    assert!(took < 8.0 + 5.0, "took {took} s: {v}");
    assert_eq!(v["budget"]["exhausted"], "time", "{v}");
    assert!(v["budget"]["elapsed_ms"].as_u64().unwrap() >= 8000, "{v}");
    // The solvers stop themselves just before the budget (limit_reached),
    // or one that overruns is killed at it (failed, timed out); those the
    // budget left no time for never start (cancelled).
    let attempts = v["attempts"].as_array().unwrap();
    let status = |a: &Value| a["status"].as_str().unwrap().to_string();
    assert!(!attempts.is_empty(), "{v}");
    for a in attempts {
        let killed = status(a) == "failed" && a["error"].as_str().unwrap().contains("timed out");
        assert!(
            killed || ["limit_reached", "cancelled"].contains(&status(a).as_str()),
            "{a}"
        );
    }
}

/// A case base of two cases with Classic Klotski's features: IDA* on `h0`
/// (hopeless on Fool: 145M positions in 20 s without a solution, and its
/// BFS probe meets its cap of 100,000 before the goal) first, BFS (Fool in
/// 247k positions, 0.1 s) second.
fn slow_and_fast(dir: &Scratch) -> String {
    let seed = std::fs::read_to_string(seed_casebase()).unwrap();
    let start = seed.find("[case.features]").unwrap();
    let end = seed[start..].find("[case.params]").unwrap() + start;
    let features = &seed[start..end];
    let case = |name: &str, params: &str| {
        format!(
            "[[case]]\nname = \"{name}\"\n{features}[case.params]\n{params}\n\
             [case.outcome]\nfound_by = \"hand-tuned\"\npositions_examined = 1000\n\n"
        )
    };
    let cb = dir.path("cb.toml");
    let text = format!(
        "version = 1\n\n{}{}",
        case("a-slow", "algorithm = \"ida\"\nheuristic = \"h0\""),
        case("b-fast", "algorithm = \"bfs\"")
    );
    std::fs::write(&cb, text).unwrap();
    s(&cb).to_string()
}

#[test]
fn the_rest_of_a_wave_is_cancelled_once_one_solves() {
    let dir = Scratch::new("cancel");
    let cb = slow_and_fast(&dir);
    let fool = puzzle("puzzles/klotski/fool.txt");
    let started = Instant::now();
    let args = ["--jobs", "2", "--no-improve", "--attempt-timeout", "120"];
    let (out, v) = solve(&fool, &cb, &args);
    assert_eq!(out.status.code(), Some(0), "{v}");
    assert!(
        started.elapsed().as_secs() < 60,
        "the slow attempt was not stopped: {v}"
    );
    let attempts = v["attempts"].as_array().unwrap();
    assert_eq!(attempts[0]["case"], "a-slow", "{v}");
    assert_eq!(attempts[0]["status"], "cancelled", "{v}");
    assert_eq!(attempts[1]["status"], "solved", "{v}");
    assert_eq!(v["solved_by"], 2);
    assert_eq!(v["steps"], 48);
    assert!(v["improvement"].is_null(), "--no-improve: {v}");
}

#[test]
fn improve_shortens_the_first_solution_and_it_replays() {
    let dir = Scratch::new("improve");
    let classic = puzzle("puzzles/klotski/classic.txt");
    // The seed case of Classic Klotski is weighted A*: 140 steps, 116 optimal.
    let (out, v) = solve(&classic, &seed_casebase(), &["--jobs", "1"]);
    assert_eq!(out.status.code(), Some(0), "{v}");
    let i = &v["improvement"];
    assert_eq!(i["first_steps"], 140, "{v}");
    assert_eq!(i["status"], "improved", "{v}");
    // The quick bounded optimal re-run (one below 140) reaches the optimum
    // at once, so the windows do not run.
    let r = &i["rerun"];
    assert_eq!(r["status"], "shorter", "{v}");
    assert_eq!(r["bound"], 139, "{v}");
    assert_eq!(i["shortcuts"], 0, "{v}");
    assert!(i.get("quick_rerun").is_none(), "{v}");
    assert_eq!(i["steps"], 116, "{v}");
    assert_eq!(i["final_by"], "rerun", "{v}");
    assert_eq!(v["steps"], 116, "the report gives the improved length");
    assert_solution_replays(&dir, &classic, &v);
    // The first solution's time leaves out the improve phase, which took
    // the re-run's time at least.
    let b = &v["budget"];
    let (first, all) = (b["first_solution_ms"].as_u64(), b["elapsed_ms"].as_u64());
    let seconds = v["first_solution_s"]
        .as_f64()
        .unwrap_or_else(|| panic!("{v}"));
    assert!(
        (seconds * 1000.0 - first.unwrap() as f64).abs() < 1.0,
        "{v}"
    );
    let rerun = r["elapsed_ms"].as_u64().unwrap();
    assert!(first.unwrap() + rerun <= all.unwrap(), "{b}");
    let table = Command::new(end_to_end::reasoner_bin())
        .args([
            "solve",
            &classic,
            "--casebase",
            &seed_casebase(),
            "--jobs",
            "1",
            "--solver",
        ])
        .arg(end_to_end::solver_bin())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.contains("improve: improved (140 -> 116 steps"),
        "{text}"
    );
    assert!(text.contains("final length from: rerun"), "{text}");
    assert!(text.contains("first solution after "), "{text}");
}
