//! End-to-end tests of the reasoner's launchers (`--launcher slurm`, a
//! command template) with the real solver behind stand-ins for the scheduler:
//! a stand-in `srun` on PATH records its arguments and runs the command here,
//! as a one-node cluster would.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod reasoner_common;
use reasoner_common::{assert_solution_replays, json_of, s, write_script, Scratch};

/// Dad's Puzzle: BFS solves it in 83 steps (puzzles/quickstart.txt).
const QUICKSTART: &str = "puzzles/quickstart.txt";
const QUICKSTART_STEPS: u64 = 83;

/// A folder holding a stand-in `srun`: it appends its arguments to
/// `$LAUNCH_LOG`, skips its `--` options and runs the rest. `fail` makes it
/// refuse every job the way `srun` does when the cluster cannot run it.
fn fake_srun(dir: &Scratch, fail: bool) -> PathBuf {
    let bin = dir.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let refuse = if fail {
        "echo 'srun: error: Unable to allocate resources: Invalid partition' >&2; exit 1"
    } else {
        ""
    };
    write_script(
        &bin.join("srun"),
        &format!(
            "#!/bin/bash\necho \"$*\" >> \"$LAUNCH_LOG\"\n{refuse}\n\
             while [ $# -gt 0 ]; do case \"$1\" in --*) shift;; *) break;; esac; done\n\
             exec \"$@\"\n"
        ),
    );
    bin
}

/// Runs `reasoner solve QUICKSTART` on an empty case base with `extra`
/// arguments, `path` first on PATH and `$LAUNCH_LOG` set.
fn solve(dir: &Scratch, path: &Path, extra: &[&str]) -> Output {
    let cb = dir.path("cb.toml");
    std::fs::write(&cb, "version = 1\n").unwrap();
    let root = end_to_end::workspace_root();
    let solver = end_to_end::solver_bin();
    let mut args = vec![
        "solve",
        QUICKSTART,
        "--casebase",
        s(&cb),
        "--json",
        "--attempts",
        "2",
        "--jobs",
        "1",
        "--solver",
        s(&solver),
    ];
    args.extend(extra);
    let old_path = std::env::var("PATH").unwrap_or_default();
    Command::new(end_to_end::reasoner_bin())
        .args(&args)
        .current_dir(&root)
        .env("PATH", format!("{}:{old_path}", path.display()))
        .env("LAUNCH_LOG", dir.path("launch.log"))
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn log_lines(dir: &Scratch) -> Vec<String> {
    std::fs::read_to_string(dir.path("launch.log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn slurm_launcher_submits_each_attempt_with_srun_and_its_limits() {
    let dir = Scratch::new("srun");
    let bin = fake_srun(&dir, false);
    let out = solve(
        &dir,
        &bin,
        &[
            "--launcher",
            "slurm",
            "--max-memory",
            "256M",
            "--attempt-timeout",
            "75",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json_of(&out);
    assert_eq!(report["status"], "solved");
    assert_eq!(report["steps"], QUICKSTART_STEPS);
    assert_solution_replays(&dir, QUICKSTART, &report);
    // One srun per attempt, each with the memory (256 MiB + 64 MiB headroom)
    // and time limits, running the solver with the same limits.
    let lines = log_lines(&dir);
    // With one job (solve's), the attempts cancelled once one solved never started.
    let attempts: Vec<&serde_json::Value> = report["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["status"] != "cancelled")
        .collect();
    assert_eq!(lines.len(), attempts.len(), "{lines:?}");
    for (line, attempt) in lines.iter().zip(attempts) {
        let name = format!("--job-name=reasoner-quickstart-{}", attempt["index"]);
        assert!(line.starts_with(&name), "{line}");
        assert!(
            line.contains("--ntasks=1 --quiet --mem=320M --time=1:15 "),
            "{line}"
        );
        assert!(
            line.contains(" solve puzzles/quickstart.txt --json"),
            "{line}"
        );
        assert!(
            line.contains(&format!("--max-memory {}", 256 << 20)),
            "{line}"
        );
    }
}

#[test]
fn a_job_the_cluster_refuses_is_a_failed_attempt_with_srun_s_message() {
    let dir = Scratch::new("srun-refuses");
    let bin = fake_srun(&dir, true);
    let out = solve(&dir, &bin, &["--launcher", "slurm", "--no-final"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report = json_of(&out);
    assert_eq!(report["status"], "failed");
    for a in report["attempts"].as_array().unwrap() {
        assert_eq!(a["status"], "failed");
        let why = a["error"].as_str().unwrap();
        assert!(why.contains("Unable to allocate resources"), "{why}");
    }
    // Without srun at all, the run is refused before any attempt (exit 2),
    // saying what is missing, rather than failing every attempt in turn.
    let empty = dir.path("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = Command::new(end_to_end::reasoner_bin())
        .args(["solve", QUICKSTART, "--casebase", s(&dir.path("cb.toml"))])
        .args([
            "--json",
            "--attempts",
            "1",
            "--no-final",
            "--launcher",
            "slurm",
        ])
        .args(["--solver", s(&end_to_end::solver_bin())])
        .current_dir(end_to_end::workspace_root())
        .env("PATH", &empty)
        .output()
        .unwrap();
    let why = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{why}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        why.contains("cannot start `srun`") && why.contains("--launcher"),
        "{why}"
    );
}

#[test]
fn a_command_template_runs_each_attempt_through_the_given_command() {
    let dir = Scratch::new("template");
    let bin = dir.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let wrap = bin.join("wrap");
    write_script(
        &wrap,
        "#!/bin/bash\necho \"$*\" >> \"$LAUNCH_LOG\"\n\
         while [ \"$1\" != -- ]; do shift; done; shift\nexec \"$@\"\n",
    );
    // `wrap` runs its words itself, with no shell between: `{argv}`.
    let template = format!(
        "'{}' --job {{name}} --mem {{mem_mb}} --time {{time_s}} -- {{argv}}",
        wrap.display()
    );
    let out = solve(
        &dir,
        &bin,
        &[
            "--launcher",
            &template,
            "--max-memory",
            "1G",
            "--attempt-timeout",
            "30.5",
            "--final-timeout",
            "60",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json_of(&out);
    assert_eq!(report["steps"], QUICKSTART_STEPS);
    assert_solution_replays(&dir, QUICKSTART, &report);
    let lines = log_lines(&dir);
    assert!(!lines.is_empty());
    for line in &lines {
        assert!(line.starts_with("--job reasoner-quickstart-"), "{line}");
        assert!(line.contains(" --mem 1088 --time 31 -- "), "{line}");
        assert!(line.contains(" solve puzzles/quickstart.txt "), "{line}");
    }
}

#[test]
fn launcher_mistakes_are_usage_errors_before_any_attempt_runs() {
    let dir = Scratch::new("launcher-usage");
    let bin = fake_srun(&dir, false);
    let cases: [(&[&str], &str); 4] = [
        (&["--launcher", "pbs"], "unknown launcher \"pbs\""),
        (&["--launcher", "ssh 'n1 {args}"], "unclosed quote"),
        // Limited attempts always have a time (by default derived from the
        // position limit); the final has none unless given.
        (
            &[
                "--launcher",
                "srun -t {time_s} {args}",
                "--attempt-timeout",
                "9",
            ],
            "uses {time_s}, but the final attempt has no time limit",
        ),
        (
            &["--launcher", "slurm", "--max-memory", "lots"],
            "--max-memory",
        ),
    ];
    for (extra, message) in cases {
        let out = solve(&dir, &bin, extra);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(message),
            "{extra:?}: {}",
            stderr(&out)
        );
    }
    assert!(log_lines(&dir).is_empty(), "nothing was launched");
}
