//! Ctrl-C (SIGINT) asks a search to stop, not to die: `solver solve`,
//! `count` and `improve` print their summary (the JSON result under
//! `--json`), keep what they have (`improve -o` writes the best so far,
//! which `solver verify` accepts), and exit 130, as a shell expects of a
//! process that SIGINT ended. Each run here would go on for minutes; the
//! signal comes after a second and a half.

use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use end_to_end::{run_solver, solver_bin, workspace_root};

fn start(args: &[&str]) -> Child {
    Command::new(solver_bin())
        .args(args)
        .current_dir(workspace_root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the solver starts")
}

/// Runs `args`, sends SIGINT after a moment, and returns what it printed.
fn interrupted(args: &[&str]) -> Output {
    let child = start(args);
    std::thread::sleep(Duration::from_millis(1500));
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn solve_and_count_print_their_summary_on_ctrl_c() {
    let out = interrupted(&["solve", "puzzles/klotski/sunshine.txt"]);
    let text = stdout(&out);
    assert!(text.contains("stopped by Ctrl-C"), "{text}");
    assert!(text.contains("positions examined"), "{text}");

    let out = interrupted(&["solve", "puzzles/klotski/sunshine.txt", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON result");
    assert_eq!(json["status"], "limit_reached");
    assert_eq!(json["limit"], "interrupted");
    assert!(json["positions_examined"].as_u64().unwrap() > 0);

    let out = interrupted(&["count", "puzzles/bench/bench_1e9.txt"]);
    let text = stdout(&out);
    assert!(
        text.contains("reachable positions; stopped by Ctrl-C"),
        "{text}"
    );
}

#[test]
fn improve_writes_its_best_so_far_on_ctrl_c() {
    let dir = std::env::temp_dir().join(format!("interrupt-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let short = dir.join("short.sol");
    let out = interrupted(&[
        "improve",
        "puzzles/klotski/ithaca.txt",
        "experiments/results/ithaca.sol",
        "--window",
        "400",
        "-o",
        short.to_str().unwrap(),
    ]);
    let text = stdout(&out);
    assert!(
        text.contains("stopped by Ctrl-C: the best so far"),
        "{text}"
    );
    let check = run_solver(&[
        "verify",
        "puzzles/klotski/ithaca.txt",
        short.to_str().unwrap(),
    ]);
    assert!(
        check.status.success(),
        "the best so far is a solution: {}",
        String::from_utf8_lossy(&check.stdout)
    );
}
