//! Hostile input for the reasoner (issue 44): `--attempts 0`, signals while
//! it waits on a case base (its lock held by another process, a FIFO given
//! as the case base), file names that would run commands in the shell a
//! launcher template hands them to, a board too wide for the solver's
//! visited set, and the oracle grid's size. Each test ran against the
//! reasoner of 2113315 and failed there.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

mod reasoner_common;
use reasoner_common::{assert_solution_replays, json_of, s, Scratch};

/// An empty case base in `dir`.
fn empty_casebase(dir: &Scratch) -> PathBuf {
    let cb = dir.path("cb.toml");
    std::fs::write(&cb, "version = 1\n").unwrap();
    cb
}

/// Runs the reasoner with `args` in the workspace root, killed after
/// `secs` seconds (then the test fails with what it printed so far).
fn reasoner_within(secs: u64, args: &[&str], cwd: &Path, env: &[(&str, String)]) -> Output {
    let mut cmd = Command::new(end_to_end::reasoner_bin());
    cmd.args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let child = cmd.spawn().unwrap();
    let (out, took) = wait_at_most(child, Duration::from_secs(secs));
    assert!(
        took.is_some(),
        "reasoner {args:?} did not finish within {secs} s: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Waits for `child` at most `limit`; kills it if it is still running. Its
/// output, and how long it took (`None`: it had to be killed).
fn wait_at_most(mut child: Child, limit: Duration) -> (Output, Option<Duration>) {
    let start = Instant::now();
    let mut took = None;
    while start.elapsed() < limit {
        if child.try_wait().unwrap().is_some() {
            took = Some(start.elapsed());
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    if took.is_none() {
        let _ = child.kill();
    }
    (child.wait_with_output().unwrap(), took)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Item 3: `--attempts 0` runs the final attempt alone, as the README says:
/// no door split, parking, variant or restart run before it. Fool is solved
/// by BFS in well under a second; the reasoner of 2113315 ran the variant
/// phases instead (82 s) and reported it unsolved.
#[test]
fn zero_attempts_run_the_final_attempt_alone() {
    let dir = Scratch::new("zero-attempts");
    let cb = empty_casebase(&dir);
    let args = [
        "solve",
        "puzzles/klotski/fool.txt",
        "--casebase",
        s(&cb),
        "--attempts",
        "0",
        "--json",
    ];
    let start = Instant::now();
    let out = reasoner_within(60, &args, &end_to_end::workspace_root(), &[]);
    let took = start.elapsed();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json_of(&out);
    assert_eq!(report["status"], "solved");
    let rows = report["attempts"].as_array().unwrap();
    let phases: Vec<&str> = rows.iter().map(|a| a["phase"].as_str().unwrap()).collect();
    assert_eq!(phases, ["final"], "{report}");
    assert_eq!(report["solved_by"], rows[0]["index"]);
    assert_solution_replays(&dir, "puzzles/klotski/fool.txt", &report);
    // A debug build takes a few seconds; the variant phases took minutes.
    assert!(took < Duration::from_secs(30), "took {took:?}");
}

fn write_script(path: &Path, body: &str) {
    std::fs::write(path, body).unwrap();
    let ok = Command::new("chmod").arg("+x").arg(path).status().unwrap();
    assert!(ok.success());
}

/// A file name that runs two commands when a shell reads it unquoted (its
/// quotes balanced, so that the shell runs the line), and breaks into
/// several words otherwise.
const HOSTILE_NAME: &str = "a;touch PWNED1;b $(touch PWNED2) 'q' \"x y\".txt";

/// Item 11: the README's template `ssh node1 {args}` hands its words to a
/// shell on the node; a stand-in `ssh` first on PATH does what ssh does
/// (joins its words after the host and runs them with `sh -c`). The words
/// are quoted for it, so a puzzle named with `;`, `$(...)`, quotes and
/// spaces is solved and runs no command. The reasoner of 2113315 ran both
/// `touch`es and failed the attempts.
#[test]
fn the_template_launcher_quotes_the_words_it_hands_to_a_shell() {
    let dir = Scratch::new("inject");
    let bin = dir.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    write_script(
        &bin.join("ssh"),
        "#!/bin/sh\necho \"$1\" >> \"$LAUNCH_LOG\"\nshift\nexec sh -c \"$*\"\n",
    );
    let puzzle = dir.path(HOSTILE_NAME);
    std::fs::copy(end_to_end::workspace_root().join(QUICKSTART), &puzzle).unwrap();
    let cb = empty_casebase(&dir);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let log = dir.path("launch.log");
    let env = [("PATH", path), ("LAUNCH_LOG", s(&log).to_string())];
    let solver = end_to_end::solver_bin();
    for launcher in ["ssh node1 {args}", "env {argv}"] {
        let args = [
            "solve",
            s(&puzzle),
            "--casebase",
            s(&cb),
            "--json",
            "--attempts",
            "2",
            "--jobs",
            "1",
            // Only runs of the puzzle itself (a variant's file has a tame name).
            "--variants",
            "0",
            "--parks",
            "0",
            "--restarts",
            "0",
            "--launcher",
            launcher,
            "--solver",
            s(&solver),
        ];
        // Run in the scratch folder: a `touch` that ran would leave its file here.
        let out = reasoner_within(120, &args, &dir.0, &env);
        assert_eq!(out.status.code(), Some(0), "{launcher}: {}", stderr(&out));
        let report = json_of(&out);
        assert_eq!(report["status"], "solved", "{launcher}: {report}");
        for row in report["attempts"].as_array().unwrap() {
            assert!(row["error"].is_null(), "{launcher}: {row}");
        }
        assert_solution_replays(&dir, s(&puzzle), &report);
        for pwned in ["PWNED1", "PWNED2"] {
            assert!(!dir.path(pwned).exists(), "{launcher} ran `touch {pwned}`");
            assert!(!end_to_end::workspace_root().join(pwned).exists());
        }
    }
    let hosts = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(hosts.lines().count() >= 1, "the stand-in ssh ran: {hosts:?}");
    assert!(hosts.lines().all(|h| h == "node1"), "{hosts:?}");
}

