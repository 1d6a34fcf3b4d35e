//! `reasoner solve --metric moves` and `--optimal` with the real solver: the
//! metric reaches every solver search the reasoner starts, the answer is in
//! it and replays in `solver verify` to the steps and moves the JSON gives,
//! cases solved in the asked metric are retrieved first among equals, and
//! `optimal: true` is said only when the solver proved it.

use std::process::Command;

use serde_json::Value;

mod reasoner_common;
use reasoner_common::{json_of, s, solution_file, write_script, Scratch};

const TIME_MACHINE: &str = "puzzles/layton/the_time_machine.txt";
/// lumi-a's minimum for The Time Machine.
const TIME_MACHINE_MOVES: u64 = 39;

/// `reasoner solve PUZZLE --casebase CB --json ARGS` from the workspace
/// root, with `solver` as the solver.
fn solve(puzzle: &str, cb: &str, solver: &str, args: &[&str]) -> Value {
    let out = Command::new(end_to_end::reasoner_bin())
        .args([
            "solve",
            puzzle,
            "--casebase",
            cb,
            "--json",
            "--quiet",
            "--solver",
            solver,
        ])
        .args(args)
        .current_dir(end_to_end::workspace_root())
        .output()
        .unwrap();
    json_of(&out)
}

fn real_solver() -> String {
    s(&end_to_end::solver_bin()).to_string()
}

/// `solver verify --json`'s steps and moves for the report's solution.
fn verified(dir: &Scratch, puzzle: &str, report: &Value) -> (u64, u64) {
    let file = solution_file(dir, report);
    let out = end_to_end::run_solver(&["verify", puzzle, s(&file), "--json"]);
    end_to_end::assert_success(&out, "verify");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    (v["steps"].as_u64().unwrap(), v["moves"].as_u64().unwrap())
}

#[test]
fn every_search_runs_in_the_asked_metric_and_the_answer_replays() {
    let dir = Scratch::new("metric");
    // A stand-in that logs each call's words, then runs the real solver.
    let log = dir.path("calls.log");
    let wrapper = dir.path("solver.sh");
    let body = format!(
        "#!/bin/sh\necho \"$*\" >> '{}'\nexec '{}' \"$@\"\n",
        s(&log),
        real_solver()
    );
    write_script(&wrapper, &body);
    let cb = "casebase/seed.toml";
    let r = solve(TIME_MACHINE, cb, s(&wrapper), &["--metric", "moves"]);
    assert_eq!(r["status"], "solved", "{r}");
    assert_eq!(r["metric"], "moves", "{r}");
    assert_eq!(r["moves"], TIME_MACHINE_MOVES, "{r}");
    assert_eq!(
        verified(&dir, TIME_MACHINE, &r),
        (r["steps"].as_u64().unwrap(), TIME_MACHINE_MOVES)
    );
    for a in r["attempts"].as_array().unwrap() {
        assert_eq!(a["params"]["metric"], "moves", "{a}");
    }
    let calls = std::fs::read_to_string(&log).unwrap();
    let searches: Vec<&str> = calls
        .lines()
        .filter(|l| l.starts_with("solve ") || l.starts_with("improve "))
        .collect();
    // The attempts and the improve phase's optimal re-run at least.
    assert!(searches.len() >= 2, "{calls}");
    assert!(searches.iter().any(|l| l.contains("--optimal")), "{calls}");
    for line in searches {
        assert!(line.contains("--metric moves"), "{line}");
        assert!(!line.contains("--metric steps"), "{line}");
    }
}

#[test]
fn a_case_solved_in_the_asked_metric_is_retrieved_before_an_equal_one() {
    let dir = Scratch::new("metric-cases");
    let cb = dir.path("cb.toml");
    // Two cases of one puzzle (equal features): "a" in steps, "b" in moves.
    for (name, metric) in [("a", "steps"), ("b", "moves")] {
        let out = Command::new(end_to_end::reasoner_bin())
            .args([
                "casebase",
                "add",
                s(&cb),
                "puzzles/klotski/pennant.txt",
                "--name",
                name,
            ])
            .args(["--metric", metric, "--solver", &real_solver()])
            .current_dir(end_to_end::workspace_root())
            .output()
            .unwrap();
        end_to_end::assert_success(&out, "casebase add");
    }
    let names = |r: &Value| -> Vec<String> {
        r["retrieved"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_string())
            .collect()
    };
    let quick = ["--attempts", "1", "--no-improve", "--no-final"];
    let puzzle = "puzzles/klotski/pennant.txt";
    let r = solve(puzzle, s(&cb), &real_solver(), &quick);
    assert_eq!(names(&r), ["a", "b"], "{r}");
    let moves = [&quick[..], &["--metric", "moves"]].concat();
    let r = solve(puzzle, s(&cb), &real_solver(), &moves);
    assert_eq!(names(&r), ["b", "a"], "{r}");
    assert_eq!(r["attempts"][0]["case"], "b", "{r}");
}

/// Where the attempt that solved was an optimal search in the run's metric
/// (The Time Machine with no case retrieved: the bidirectional search
/// comes first, since the goal fixes every block), the improve phase runs
/// nothing: the first solution is the optimum, and under `--optimal` the
/// report says so.
#[test]
fn a_first_solution_proved_optimal_is_not_searched_again() {
    let args = ["--metric", "moves", "--optimal", "--retrieval", "none"];
    let r = solve(TIME_MACHINE, "casebase/seed.toml", &real_solver(), &args);
    assert_eq!(r["status"], "solved", "{r}");
    assert_eq!(r["moves"], TIME_MACHINE_MOVES, "{r}");
    assert_eq!(r["optimal"], true, "{r}");
    let i = &r["improvement"];
    assert_eq!(i["first_optimal"], true, "{r}");
    assert_eq!(i["final_by"], "first", "{r}");
    assert!(
        i.get("rerun").is_none() && i.get("quick_rerun").is_none(),
        "{r}"
    );
    let winner = r["solved_by"].as_u64().unwrap() as usize;
    assert_eq!(
        r["attempts"][winner - 1]["params"]["algorithm"],
        "bidir",
        "{r}"
    );
}

#[test]
fn optimal_is_claimed_only_when_the_solver_proved_it() {
    let cb = "casebase/seed.toml";
    let r = solve(
        TIME_MACHINE,
        cb,
        &real_solver(),
        &["--metric", "moves", "--optimal"],
    );
    assert_eq!(r["status"], "solved", "{r}");
    assert_eq!(r["moves"], TIME_MACHINE_MOVES, "{r}");
    assert_eq!(r["optimal"], true, "{r}");
    let rerun = &r["improvement"]["rerun"];
    assert!(
        ["shorter", "none_shorter"].contains(&rerun["status"].as_str().unwrap()),
        "{r}"
    );
    // A position budget the re-run cannot finish in (one attempt at a
    // time, so that the first gets the whole budget): solved, not proven.
    let tight = [
        "--metric",
        "moves",
        "--optimal",
        "--position-budget",
        "80000",
        "--wave",
        "1",
    ];
    let r = solve(TIME_MACHINE, cb, &real_solver(), &tight);
    assert_eq!(r["status"], "solved", "{r}");
    assert_eq!(r["optimal"], false, "{r}");
    // The re-run's bidirectional search got some depth: a bound below the
    // optimum, never above it.
    let bound = r["lower_bound"].as_u64().unwrap_or_else(|| panic!("{r}"));
    assert!((1..=TIME_MACHINE_MOVES).contains(&bound), "{r}");
    // Without --optimal the quick re-run (5 s) still proves it here.
    let r = solve(TIME_MACHINE, cb, &real_solver(), &["--metric", "moves"]);
    assert_eq!(
        (r["optimal"].as_bool(), r["lower_bound"].as_u64()),
        (Some(true), Some(39)),
        "{r}"
    );
    // Without the improve phase the first answer (113 moves) stands, with
    // the attempts' bounds beside it: below the optimum.
    let args = ["--metric", "moves", "--no-improve"];
    let r = solve(TIME_MACHINE, cb, &real_solver(), &args);
    assert_eq!(r["optimal"], false, "{r}");
    let bound = r["lower_bound"].as_u64().unwrap_or_else(|| panic!("{r}"));
    assert!((1..=TIME_MACHINE_MOVES).contains(&bound), "{r}");
}
