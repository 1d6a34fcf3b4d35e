//! End-to-end tests of the reasoner's phases for hard puzzles, with the real
//! solver under small position limits: the easier-variant phase (a variant's
//! solution as subgoals), parking the blocks on the master's way, and
//! restarts from the best positions. Each winning
//! solution is replayed against the original puzzle by `solver verify`.

use std::process::{Command, Output};

use serde_json::Value;

mod reasoner_common;
use reasoner_common::{assert_solution_replays, json_of, s, Scratch};

fn puzzle(rel: &str) -> String {
    end_to_end::workspace_root().join(rel).display().to_string()
}

/// `reasoner solve PUZZLE` with the seed case base copied to `dir` without
/// the puzzle's own case (`own`: which would get the positions it needed),
/// two limited attempts of `limit` positions, no final run, JSON; and `extra`.
fn solve(dir: &Scratch, file: &str, own: &str, limit: &str, extra: &[&str]) -> (Output, Value) {
    let cb = dir.path("cb.toml");
    std::fs::copy(puzzle("casebase/seed.toml"), &cb).unwrap();
    let removed = Command::new(end_to_end::reasoner_bin())
        .args(["casebase", "remove", s(&cb), own])
        .output()
        .unwrap();
    end_to_end::assert_success(&removed, "casebase remove");
    let solver = end_to_end::solver_bin();
    let out = Command::new(end_to_end::reasoner_bin())
        .args(["solve", file, "--casebase", s(&cb), "--json", "--jobs", "1"])
        .args(["--position-limit", limit, "--attempts", "2", "--no-final"])
        .args(["--solver", solver.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    let v = json_of(&out);
    (out, v)
}

/// The run solved the puzzle (exit 0) after both limited attempts, the
/// retrieved cases' sets, stopped at their limit.
fn solved_after_two_stopped_attempts(out: &Output, v: &Value) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let attempts = v["attempts"].as_array().unwrap();
    let direct: Vec<&Value> = attempts.iter().filter(|a| a["phase"] == "reuse").collect();
    assert_eq!(direct.len(), 2);
    assert!(direct.iter().all(|a| a["status"] == "limit_reached"), "{v}");
}

/// Classic Klotski, and its case's name in the seed case base.
const CLASSIC: &str = "puzzles/klotski/classic.txt";
const CLASSIC_CASE: &str = "Classic Klotski (Red Donkey, master to the bottom centre)";

/// The attempt that solved the puzzle.
fn winner(v: &Value) -> &Value {
    let by = &v["solved_by"];
    v["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| &a["index"] == by)
        .expect("a winning attempt")
}

#[test]
fn the_variant_phase_solves_a_puzzle_every_bounded_attempt_fails_on() {
    let dir = Scratch::new("variant-phase");
    let daisy = puzzle("puzzles/klotski/daisy.txt");
    let (out, v) = solve(
        &dir,
        &daisy,
        "Daisy (GNOME Klotski)",
        "10000",
        &[
            "--restarts",
            "0",
            "--parks",
            "0",
            "--variants",
            "4",
            "--retain",
            "--no-improve",
            "--position-budget",
            "100000000",
        ],
    );
    solved_after_two_stopped_attempts(&out, &v);
    let attempts = v["attempts"].as_array().unwrap();
    // A variant's own cycle solved the variant, then its subgoals the puzzle.
    let w = winner(&v);
    assert_eq!(w["phase"], "subgoals", "{v}");
    assert!(w["positions_examined"].as_u64().unwrap() <= 10000);
    let recipe = &w["params"]["variant"];
    assert!(recipe["remove"].as_u64().unwrap() >= 1, "{w}");
    let variant = attempts
        .iter()
        .rev()
        .find(|a| a["phase"] == "variant")
        .unwrap();
    assert_eq!(variant["status"], "solved");
    assert_eq!(&variant["params"]["variant"], recipe);
    assert_eq!(v["steps"], w["steps"]);
    assert_solution_replays(&dir, &daisy, &v);
    // The run's budget counts every position once: the variant's own cycle
    // shares it, and its summed row is not charged again.
    let rows: u64 = attempts
        .iter()
        .filter_map(|a| a["positions_examined"].as_u64())
        .sum();
    assert_eq!(
        v["budget"]["positions_used"].as_u64(),
        Some(rows),
        "{}",
        v["budget"]
    );
    // The case retained keeps the recipe, so a later run can reuse it.
    let cb = std::fs::read_to_string(dir.path("cb.toml")).unwrap();
    assert!(cb.contains("found_by = \"easier-variant\""), "{cb}");
    assert!(
        cb.contains(&format!("remove = {}", recipe["remove"])),
        "{cb}"
    );
}

#[test]
fn a_restart_from_the_best_positions_solves_and_the_concatenation_verifies() {
    let dir = Scratch::new("restart-phase");
    let (classic, own) = (puzzle(CLASSIC), CLASSIC_CASE);
    let (out, v) = solve(
        &dir,
        &classic,
        own,
        "5000",
        &["--variants", "0", "--parks", "0"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let w = winner(&v);
    assert_eq!(w["phase"], "restart", "{v}");
    // It restarted from the best positions of the limited attempt nearest the goal.
    let from = w["from"].as_u64().unwrap();
    let origin = &v["attempts"][(from - 1) as usize];
    assert_eq!(origin["status"], "limit_reached");
    assert_eq!(origin["params"], w["params"]);
    // The whole solution (moves to the restart position, then the restart's)
    // replays against Classic, and is no shorter than the optimum.
    assert!(v["steps"].as_u64().unwrap() >= 116);
    assert_solution_replays(&dir, &classic, &v);
    // Without restarts (and variants) the same run is not solved.
    let (out, v) = solve(
        &dir,
        &classic,
        own,
        "5000",
        &["--variants", "0", "--restarts", "0", "--parks", "0"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(v["status"], "limit_reached");
}

#[test]
fn the_parking_phase_solves_a_puzzle_the_bounded_attempts_fail_on() {
    let dir = Scratch::new("park-phase");
    let (classic, own) = (puzzle(CLASSIC), CLASSIC_CASE);
    let (out, v) = solve(
        &dir,
        &classic,
        own,
        "10000",
        &["--variants", "0", "--restarts", "0", "--no-improve"],
    );
    solved_after_two_stopped_attempts(&out, &v);
    let w = winner(&v);
    assert_eq!(w["phase"], "park", "{v}");
    assert!(w["positions_examined"].as_u64().unwrap() <= 10000);
    assert!(
        w["case"].as_str().unwrap().starts_with("parked round"),
        "{w}"
    );
    assert!(
        v["steps"].as_u64().unwrap() >= 116,
        "Classic's optimum is 116 steps"
    );
    assert_solution_replays(&dir, &classic, &v);
    // Without the phase the same run is not solved.
    let (out, v) = solve(
        &dir,
        &classic,
        own,
        "10000",
        &["--variants", "0", "--restarts", "0", "--parks", "0"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(v["status"], "limit_reached");
}

const ITHACA: &str = "puzzles/klotski/ithaca.txt";

/// `reasoner solve FILE` with an empty case base at `dir/cb.toml`, one
/// solver at a time, no final run, no parking, restarts or improving, JSON;
/// and `extra`.
fn from_empty_casebase(dir: &Scratch, file: &str, extra: &[&str]) -> (Output, Value) {
    let cb = dir.path("cb.toml");
    std::fs::write(&cb, "version = 1\n").unwrap();
    let out = Command::new(end_to_end::reasoner_bin())
        .args(["solve", file, "--casebase", s(&cb), "--json", "--jobs", "1"])
        .args([
            "--no-final",
            "--parks",
            "0",
            "--restarts",
            "0",
            "--no-improve",
        ])
        .args(["--solver", end_to_end::solver_bin().to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    let v = json_of(&out);
    (out, v)
}

/// GNOME's Ithaca, which no search of the whole level solves: its frame's
/// master-only door parts the blocks inside from those outside. With an
/// empty case base the one limited attempt of 30,000 positions stops at
/// its limit; the
/// door-split phase then solves the master's region and the outside as
/// parts of their own and the whole level from where they leave it, and
/// the joined solution replays against the level.
#[test]
fn the_door_split_phase_solves_ithaca_where_the_bounded_attempt_stops() {
    let dir = Scratch::new("split-phase");
    let (ithaca, cb) = (puzzle(ITHACA), dir.path("cb.toml"));
    let extra = ["--position-limit", "30000", "--attempts", "1", "--retain"];
    let (out, v) = from_empty_casebase(&dir, &ithaca, &extra);
    assert_eq!(out.status.code(), Some(0), "{v}");
    let rows = v["attempts"].as_array().unwrap();
    let phases: Vec<&str> = rows.iter().map(|a| a["phase"].as_str().unwrap()).collect();
    assert_eq!(
        phases,
        ["general", "split-part", "split-part", "split"],
        "{v}"
    );
    assert_eq!(rows[0]["status"], "limit_reached");
    assert!(rows[1..].iter().all(|a| a["status"] == "solved"), "{v}");
    let w = winner(&v);
    assert_eq!(w["phase"], "split");
    // The winning row counts the whole solution: the inside's steps and more.
    assert_eq!(v["steps"], w["steps"]);
    assert!(v["steps"].as_u64().unwrap() > rows[1]["steps"].as_u64().unwrap());
    assert_solution_replays(&dir, &ithaca, &v);
    let kept = std::fs::read_to_string(&cb).unwrap();
    assert!(kept.contains("found_by = \"door-split\""), "{kept}");
    // The case counts the positions of all three parts, not the rest's alone.
    let spent: u64 = rows[1..]
        .iter()
        .map(|a| a["positions_examined"].as_u64().unwrap())
        .sum();
    assert!(spent > w["positions_examined"].as_u64().unwrap());
    assert!(
        kept.contains(&format!("positions_examined = {spent}")),
        "{kept}"
    );
}

/// The door split runs once, right after the first wave, and its rows
/// number between the waves': on Ithaca with attempts of 2,000 positions
/// its first part is not solved by any of its three settings, and the
/// second wave's attempts number after its rows.
#[test]
fn the_door_split_runs_once_after_the_first_wave_and_the_rows_number_in_order() {
    let dir = Scratch::new("split-between-waves");
    let extra = [
        "--position-limit",
        "2000",
        "--attempts",
        "6",
        "--variants",
        "1",
    ];
    let (out, v) = from_empty_casebase(&dir, &puzzle(ITHACA), &extra);
    assert_eq!(out.status.code(), Some(1), "{v}");
    let rows = v["attempts"].as_array().unwrap();
    let indices: Vec<u64> = rows.iter().map(|a| a["index"].as_u64().unwrap()).collect();
    assert_eq!(indices, (1..=rows.len() as u64).collect::<Vec<_>>(), "{v}");
    let phases: Vec<&str> = rows.iter().map(|a| a["phase"].as_str().unwrap()).collect();
    let split: Vec<usize> = (0..phases.len())
        .filter(|&i| phases[i] == "split-part")
        .collect();
    // Three settings tried on part 1 after the first wave of four, then
    // the last two attempts, then the variant phase.
    assert_eq!(split, [4, 5, 6], "{phases:?}");
    assert!(phases[..4].iter().all(|p| *p == "general"), "{phases:?}");
    assert_eq!(phases[7..9], ["general", "general"], "{phases:?}");
    assert!(
        rows[4..7].iter().all(|a| a["status"] == "limit_reached"),
        "{v}"
    );
}
