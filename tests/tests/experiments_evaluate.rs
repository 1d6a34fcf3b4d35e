//! End-to-end test of `experiments/evaluate.py` (issue 18) at a tiny scale,
//! on one Rush Hour puzzle with the binaries Cargo built for the test run:
//! the tables hold the real results, a second start runs nothing, and a
//! result line cut short by a kill is dropped and its run redone.
//! Prints `SKIPPED` when `python3` is missing.

use std::process::{Command, Output};

mod reasoner_common;
use reasoner_common::Scratch;

const PUZZLE: &str = "puzzles/rushhour/rush_05.txt";
/// The tables' folder, named for the scale below.
const TABLES: &str = "out/L5000-A2-F5-G6-S2-O1-n1";

fn python() -> bool {
    Command::new("python3").arg("--version").output().is_ok()
}

fn evaluate(dir: &Scratch) -> Output {
    let out = Command::new("python3")
        .arg("experiments/evaluate.py")
        .current_dir(end_to_end::workspace_root())
        .env("SOLVER", end_to_end::solver_bin())
        .env("REASONER", end_to_end::reasoner_bin())
        .env("OUT", dir.path("out"))
        .env("PUZZLES", PUZZLE)
        .envs([
            ("LIMIT", "5000"),
            ("ATTEMPTS", "2"),
            ("FINAL_TIMEOUT", "5"),
            ("GRID", "6"),
            ("SEEDS", "2"),
            ("ORDERS", "1"),
            ("JOBS", "2"),
        ])
        .output()
        .unwrap();
    end_to_end::assert_success(&out, "");
    out
}

/// The harness's counts line: `{"skipped": N, "ran": N, "failed": N}`.
fn counts(out: &Output) -> serde_json::Value {
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err.lines().rev().find(|l| l.starts_with('{')).unwrap();
    serde_json::from_str(line).unwrap()
}

#[test]
fn python_harness_self_check_passes() {
    if !python() {
        println!("SKIPPED: python3 is missing (install python3)");
        return;
    }
    let out = Command::new("python3")
        .args(["experiments/harness.py", "--self-check"])
        .current_dir(end_to_end::workspace_root())
        .output()
        .unwrap();
    end_to_end::assert_success(&out, "");
    assert!(String::from_utf8_lossy(&out.stdout).contains("harness self-check passed"));
}

#[test]
fn evaluate_records_real_results_and_resumes_without_redoing_them() {
    if !python() {
        println!("SKIPPED: python3 is missing (install python3)");
        return;
    }
    let dir = Scratch::new("evaluate");
    let first = evaluate(&dir);
    // Features, 6 grid points (the first 4 the general settings), 4 retrievals
    // x 2 seeds, the learning curve's 2 passes, and the improve part's run
    // (the reasoner has --improve).
    let expected: u64 = 1 + 6 + 8 + 2 + 1;
    assert_eq!(counts(&first)["ran"], expected, "{:?}", counts(&first));
    assert_eq!(counts(&first)["failed"], 0);
    let table = std::fs::read_to_string(dir.path(&format!("{TABLES}/table8_4.md"))).unwrap();
    // BFS solves rush_05 optimally: 8 steps (puzzles/README.md), 44 positions.
    assert!(table.contains("| rush_05 | 8 / 44 |"), "{table}");
    assert!(table.contains("5,000 positions per solver run"), "{table}");
    let quality = std::fs::read_to_string(dir.path(&format!("{TABLES}/quality.md"))).unwrap();
    assert!(quality.contains("| rush_05 | 8 |"), "{quality}");
    // The improve run's report gives its first and final lengths: the
    // final one optimal (the re-run proves 8), the first no shorter.
    let row = quality
        .lines()
        .find(|l| l.starts_with("| rush_05 |"))
        .unwrap();
    let cell = row.trim_end_matches('|').rsplit('|').next().unwrap().trim();
    let (first, last) = cell.split_once(" -> ").expect(row);
    let first: u64 = first.parse().expect(row);
    assert!(last.starts_with('8') && first >= 8, "{row}");
    let learning =
        std::fs::read_to_string(dir.path(&format!("{TABLES}/learning_curve.md"))).unwrap();
    assert!(learning.contains("| 1 | 2 | 1 of 1 | 1 |"), "{learning}");

    // A second start finds every run done.
    let again = evaluate(&dir);
    assert_eq!(counts(&again)["ran"], 0, "{:?}", counts(&again));
    assert_eq!(counts(&again)["skipped"], expected);

    // Cut the last line short, as a kill while writing would: dropped, redone.
    let runs = dir.path("out/runs.jsonl");
    let text = std::fs::read_to_string(&runs).unwrap();
    let cut = text.trim_end().rfind('\n').unwrap() + 20;
    std::fs::write(&runs, &text[..cut]).unwrap();
    let third = evaluate(&dir);
    assert_eq!(counts(&third)["ran"], 1, "{:?}", counts(&third));
    assert!(String::from_utf8_lossy(&third.stderr).contains("dropping 1 incomplete line"));
    let lines = std::fs::read_to_string(&runs).unwrap();
    assert_eq!(lines.lines().count() as u64, expected);
    for line in lines.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(
            v["commit"].is_string() && v["machine"].is_string(),
            "{line}"
        );
    }
}
