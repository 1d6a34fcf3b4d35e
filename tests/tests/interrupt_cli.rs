//! Ctrl-C (SIGINT) asks a search to stop, not to die: `solver solve`,
//! `count` and `improve` print their summary (the JSON result under
//! `--json`), keep what they have (`improve -o` writes the best so far,
//! which `solver verify` accepts), and exit 130, as a shell expects of a
//! process that SIGINT ended; the reasoner passes the signal on to the
//! attempts running and reports how close they got. Each run here would go
//! on for minutes; the signal comes after a second and a half (three
//! seconds for the reasoner).

use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use end_to_end::{run_solver, solver_bin, workspace_root};

fn start(args: &[&str]) -> Child {
    start_binary(&solver_bin(), args)
}

fn start_binary(binary: &std::path::Path, args: &[&str]) -> Child {
    Command::new(binary)
        .args(args)
        .current_dir(workspace_root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the solver starts")
}

/// Runs `args`, sends SIGINT after a moment, and returns what it printed.
fn interrupted(args: &[&str]) -> Output {
    interrupted_after(start(args), args, 1500)
}

fn interrupted_after(child: Child, args: &[&str], ms: u64) -> Output {
    std::thread::sleep(Duration::from_millis(ms));
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

#[test]
fn the_reasoner_reports_the_attempts_it_stopped_on_ctrl_c() {
    let args = [
        "solve",
        "puzzles/klotski/sunshine.txt",
        "--json",
        "--jobs",
        "2",
    ];
    let child = start_binary(&end_to_end::reasoner_bin(), &args);
    let out = interrupted_after(child, &args, 3000);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("the report");
    assert_eq!(report["status"], "interrupted", "{report}");
    let stopped: Vec<&serde_json::Value> = report["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["status"] == "limit_reached")
        .collect();
    assert!(
        !stopped.is_empty(),
        "the attempts running at the signal keep their rows: {report}"
    );
    for a in stopped {
        assert!(a["best_distance"].as_u64().is_some(), "{a}");
    }
}
