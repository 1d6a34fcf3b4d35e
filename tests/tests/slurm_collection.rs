//! End-to-end test of `experiments/slurm/run-collection.sh` with a stand-in
//! `sbatch` that runs the job array's tasks here, one after the other: the
//! tasks' reports and case bases come back merged, every solved puzzle has
//! exactly one case, and the seed's cases are not doubled.

use std::process::{Command, Output};

mod reasoner_common;
use reasoner_common::{s, Scratch};

/// A stand-in `sbatch --wait --array=0-N --output=PAT --export=ALL SCRIPT`:
/// runs SCRIPT once per task with `SLURM_ARRAY_TASK_ID`, output to PAT with
/// `%a` the task, and fails when a task fails.
const SBATCH: &str = r#"#!/bin/bash
for a in "$@"; do
  case "$a" in
    --array=*) last=${a#--array=0-};;
    --output=*) out=${a#--output=};;
    --*) ;;
    *) script=$a;;
  esac
done
echo "Submitted batch job 1"
for i in $(seq 0 "$last"); do
  SLURM_ARRAY_TASK_ID=$i bash "$script" > "${out//%a/$i}" 2>&1 || exit 1
done
"#;

/// Runs `run-collection.sh PUZZLES` with the stand-in `sbatch` first on
/// PATH, output to `dir/out`, 2 tasks and small limits unless `env` says
/// otherwise.
fn run_collection(dir: &Scratch, puzzles: &[&str], env: &[(&str, &str)]) -> Output {
    let bin = dir.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("sbatch"), SBATCH).unwrap();
    let ok = Command::new("chmod")
        .arg("+x")
        .arg(bin.join("sbatch"))
        .status()
        .unwrap();
    assert!(ok.success());
    let old_path = std::env::var("PATH").unwrap_or_default();
    Command::new("bash")
        .arg("experiments/slurm/run-collection.sh")
        .args(puzzles)
        .current_dir(end_to_end::workspace_root())
        .env("PATH", format!("{}:{old_path}", bin.display()))
        .env("REASONER", end_to_end::reasoner_bin())
        .env("OUT", dir.path("out"))
        .env("TASKS", "2")
        .env("LIMIT", "100000")
        .env("ATTEMPTS", "2")
        .env("FINAL_TIMEOUT", "5")
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

#[test]
fn the_job_array_s_case_bases_merge_into_one_case_per_solved_puzzle() {
    let dir = Scratch::new("slurm-collection");
    let out_dir = dir.path("out");
    // One puzzle the seed case base knows (Classic Klotski), three it does not
    // (quickstart.txt is a copy of Dad's Puzzle with other bytes), one unsolvable,
    // one missing (an error line; the task goes on).
    let puzzles = [
        "puzzles/quickstart.txt",
        "puzzles/klotski/classic.txt",
        "puzzles/rushhour/rush_01.txt",
        "puzzles/rushhour/rush_20.txt",
        "puzzles/special/twin_unsolvable.txt",
        "puzzles/missing.txt",
    ];
    let out = run_collection(&dir, &puzzles, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    end_to_end::assert_success(&out, &format!("{stdout}"));
    assert!(
        stdout.contains("6 puzzles: 1 error, 1 no_solution, 4 solved"),
        "{stdout}"
    );
    assert!(
        stdout.contains("solved puzzles with exactly one case: 4 of 4"),
        "{stdout}"
    );
    assert!(
        stdout.contains("check: every solved puzzle has exactly one case"),
        "{stdout}"
    );
    // Each task's reports (puzzles dealt round-robin); all of them merged.
    let lines = |f: &str| {
        std::fs::read_to_string(out_dir.join(f))
            .unwrap()
            .lines()
            .count()
    };
    assert_eq!((lines("results-0.jsonl"), lines("results-1.jsonl")), (3, 3));
    assert_eq!(lines("results.jsonl"), 6);
    let results = std::fs::read_to_string(out_dir.join("results.jsonl")).unwrap();
    assert!(
        results.contains(r#"{"puzzle":"puzzles/missing.txt","status":"error","exit_code":2}"#),
        "{results}"
    );
    // The seed's cases once each, plus the three solved puzzles it lacked.
    let seed_cases =
        std::fs::read_to_string(end_to_end::workspace_root().join("casebase/seed.toml"))
            .unwrap()
            .matches("[[case]]")
            .count();
    let merged = std::fs::read_to_string(out_dir.join("casebase.toml")).unwrap();
    assert_eq!(merged.matches("[[case]]").count(), seed_cases + 3);
    let list = Command::new(end_to_end::reasoner_bin())
        .args(["casebase", "list", s(&out_dir.join("casebase.toml"))])
        .output()
        .unwrap();
    end_to_end::assert_success(&list, "");
}

#[test]
fn bad_settings_are_refused_before_anything_is_submitted() {
    let dir = Scratch::new("slurm-collection-bad");
    for (var, value) in [
        ("TASKS", "0"),
        ("LIMIT", "lots"),
        ("SEED_CASEBASE", "none.toml"),
    ] {
        let out = run_collection(&dir, &["puzzles/quickstart.txt"], &[(var, value)]);
        assert_eq!(out.status.code(), Some(2), "{var}={value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(var) || err.contains(value),
            "{var}={value}: {err}"
        );
        assert!(!String::from_utf8_lossy(&out.stdout).contains("Submitted"));
    }
}
