//! The progress bars as a person sees them: on a terminal (a pseudo
//! terminal from util-linux's `script`) a long solver run and a reasoner run
//! draw their bars, and with `--json`, `--quiet` or a pipe instead of a
//! terminal nothing is drawn. The solver runs last their `--time-limit`, so
//! the bar's first draw (after a second) is due whatever the machine's speed.
//! Skipped, saying so, without `script`.

use std::process::Command;

use end_to_end::{reasoner_bin, solver_bin, workspace_root};

const RUN: &str = "count puzzles/klotski/sunshine.txt --time-limit 1.6";

/// What a terminal shows while `solver ARGS` runs (stdout and stderr both).
fn on_a_terminal(args: &str) -> Option<String> {
    on_a_terminal_run(&format!("{} {args}", solver_bin().display()))
}

/// What a terminal shows while a command line runs.
fn on_a_terminal_run(command: &str) -> Option<String> {
    let out = Command::new("script")
        .args(["-qfec", command, "/dev/null"])
        .current_dir(workspace_root())
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn the_bar_shows_on_a_terminal_only() {
    let Some(shown) = on_a_terminal(RUN) else {
        eprintln!("SKIPPED the_bar_shows_on_a_terminal_only: util-linux `script` is not installed");
        return;
    };
    assert!(
        shown.contains(" positions, ")
            && shown.contains("best distance 16")
            && shown.contains("00:00:01"),
        "no progress bar on the terminal:\n{shown}"
    );
    assert!(shown.contains("stopped by time_limit"), "{shown}");
    for quiet in ["--json", "--quiet"] {
        let shown = on_a_terminal(&format!("{RUN} {quiet}")).unwrap();
        assert!(
            !shown.contains("best distance"),
            "a bar despite {quiet}:\n{shown}"
        );
        assert!(
            shown.contains("time_limit"),
            "{quiet}: the result is printed:\n{shown}"
        );
    }
    let piped = Command::new(solver_bin())
        .args(RUN.split(' '))
        .current_dir(workspace_root())
        .output()
        .unwrap();
    assert!(
        piped.stderr.is_empty(),
        "a bar on a pipe: {}",
        String::from_utf8_lossy(&piped.stderr)
    );
    assert!(String::from_utf8_lossy(&piped.stdout).contains("stopped by time_limit"));
}

#[test]
fn the_reasoner_shows_its_attempts_on_a_terminal_only() {
    let run = format!(
        "{} solve puzzles/klotski/sunshine.txt --casebase casebase/seed.toml \
         --position-limit 20000 --attempts 2 --jobs 1 --no-final",
        reasoner_bin().display()
    );
    let Some(shown) = on_a_terminal_run(&run) else {
        eprintln!("SKIPPED the_reasoner_shows_its_attempts_on_a_terminal_only: util-linux `script` is not installed");
        return;
    };
    assert!(shown.contains("attempts done"), "no progress bar:\n{shown}");
    assert!(
        shown.contains("of 2 attempts") || shown.contains("/2 attempts"),
        "{shown}"
    );
    // With a time budget, the elapsed time is shown against it.
    let shown = on_a_terminal_run(&format!("{run} --time-budget 30")).unwrap();
    assert!(shown.contains(" of 30 seconds ["), "{shown}");
    let shown = on_a_terminal_run(&format!("{run} --json")).unwrap();
    assert!(
        !shown.contains("attempts done"),
        "a bar despite --json:\n{shown}"
    );
    assert!(
        shown.contains("\"status\""),
        "the JSON report is printed:\n{shown}"
    );
}

/// Under `--json` (no bar), a long IDA* still says where it is: a line on
/// stderr per new bound after the first second and one where it stops, and
/// none with `--quiet`.
#[test]
fn ida_prints_its_bounds_under_json_unless_quiet() {
    // A 24-puzzle scramble of 400 random moves (seed 5): IDA* with Manhattan deepens
    // for far longer than the 5 s it gets here.
    let dir = std::env::temp_dir().join(format!("ida-bounds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("t24.txt");
    let line = "3 15 14 12 9 11 0 10 13 4 16 1 22 5 19 7 6 23 17 2 20 21 24 8 18";
    std::fs::write(&file, format!("{line}\n")).unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["solve", file.to_str().unwrap(), "--from", "tiles"];
        args.extend_from_slice(&["--algorithm", "ida", "--heuristic", "manhattan"]);
        args.extend_from_slice(&["--json", "--time-limit", "5"]);
        args.extend_from_slice(extra);
        end_to_end::run_solver(&args)
    };
    let out = run(&[]);
    let err = String::from_utf8_lossy(&out.stderr);
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    if r["status"] == "limit_reached" {
        assert!(err.contains("progress: bound "), "{err}");
        let quiet = run(&["--quiet"]);
        assert!(!String::from_utf8_lossy(&quiet.stderr).contains("progress:"));
    } else {
        panic!("the scramble was solved within 5 s, so it shows no bound lines: {r}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
