//! End-to-end tests of what the reasoner promises whatever its solver, its
//! case base or its flags do (issue 12): claimed solutions are verified, no
//! case is lost or written where it should not be, interrupted runs report.

use std::process::Stdio;

use serde_json::json;

mod reasoner_common;
use reasoner_common::standin::*;
use reasoner_common::{json_of, s, Scratch};

#[test]
fn a_claimed_solution_that_does_not_replay_is_a_failed_attempt_and_not_retained() {
    let dir = Scratch::new("liar");
    let solver = standin(&dir, "liar");
    let p = puzzle(&dir, "fresh", FRESH);
    let cb = write_casebase(&dir, &[case_toml("other", QUERY, SOLVING)]);
    let before = std::fs::read(&cb).unwrap();
    let out = retain(&p, &cb, &solver)
        .args(["--attempts", "2"])
        .output()
        .unwrap();
    let v = json_of(&out);
    assert_eq!(out.status.code(), Some(1), "nothing solved: exit 1");
    assert_eq!(v["status"], "failed");
    assert_eq!(v["solution"], json!(null));
    assert_eq!(v["retained"], json!(null));
    let all = v["attempts"].as_array().unwrap();
    assert!(!all.is_empty());
    for a in all {
        assert_eq!(a["status"], "failed", "{a}");
        assert_eq!(
            a["error"],
            "the claimed solution does not replay: move 1 (line 1, `@ 1,1 L`): \
             step 1 (L) is blocked: cell 1,0 is a wall",
            "{a}"
        );
        assert_eq!(a["positions_examined"], 5, "the statistics stay: {a}");
    }
    assert_eq!(std::fs::read(&cb).unwrap(), before, "nothing retained");

    // The same stand-in telling the truth is believed and retained.
    let honest = standin(&dir, "threshold");
    let out = retain(&p, &cb, &honest).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v = json_of(&out);
    assert_eq!(v["solution"], json!(["@ 1,1 R"]));
    assert_eq!(list_cases(&cb), ["other", "fresh"]);
}

#[test]
fn reasoners_retaining_at_once_lose_no_case() {
    let dir = Scratch::new("concurrent");
    let solver = standin(&dir, "threshold");
    let cb = write_casebase(&dir, &[case_toml("other", QUERY, SOLVING)]);
    let mut expected = vec!["other".to_string()];
    for round in 0..3 {
        let children: Vec<_> = (0..4)
            .map(|k| {
                let name = format!("r{round}p{k}");
                let p = puzzle(&dir, &name, FRESH);
                expected.push(name);
                retain(&p, &cb, &solver)
                    // Widens the window between reading and renaming, where
                    // unlocked writers would overwrite each other's case.
                    .env("REASONER_SAVE_PAUSE_MS", "40")
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut c in children {
            assert_eq!(c.wait().unwrap().code(), Some(0));
        }
    }
    let mut cases = list_cases(&cb);
    cases.sort();
    expected.sort();
    assert_eq!(cases, expected, "every retained case is in the case base");
    assert!(!dir.path("cb.toml.lock").exists(), "the lock file is gone");
}

fn mode(path: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

fn chmod(path: &std::path::Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn retain_keeps_the_mode_refuses_read_only_and_writes_through_symlinks() {
    let dir = Scratch::new("mode");
    let solver = standin(&dir, "threshold");
    let cb = write_casebase(&dir, &[case_toml("other", QUERY, SOLVING)]);
    for (name, m) in [("a", 0o664), ("b", 0o640)] {
        chmod(&cb, m);
        let p = puzzle(&dir, name, FRESH);
        assert_eq!(
            retain(&p, &cb, &solver).output().unwrap().status.code(),
            Some(0)
        );
        assert_eq!(mode(&cb), m, "mode kept after retaining {name}");
    }
    assert_eq!(list_cases(&cb), ["other", "a", "b"]);

    // Read-only: refused before any search, with the mode and what to do.
    chmod(&cb, 0o444);
    let before = std::fs::read(&cb).unwrap();
    let p = puzzle(&dir, "c", FRESH);
    let out = retain(&p, &cb, &solver).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is read-only (mode 0444)")
            && err.contains("chmod u+w")
            && err.contains("without --retain"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    assert!(!dir.path("c.txt.calls").exists(), "no solver ran");
    assert_eq!(std::fs::read(&cb).unwrap(), before);
    assert_eq!(mode(&cb), 0o444);

    // Through a symlink: the target changes, the link stays a link.
    chmod(&cb, 0o644);
    let link = dir.path("link.toml");
    std::os::unix::fs::symlink("cb.toml", &link).unwrap();
    assert_eq!(
        retain(&p, &link, &solver).output().unwrap().status.code(),
        Some(0)
    );
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(list_cases(&cb), ["other", "a", "b", "c"]);
    assert_eq!(mode(&cb), 0o644);
}

#[test]
fn a_write_that_fails_after_the_search_comes_after_the_printed_result() {
    let dir = Scratch::new("late-write");
    let solver = standin(&dir, "sabotage");
    let cb = write_casebase(&dir, &[case_toml("other", QUERY, SOLVING)]);
    let before = std::fs::read(&cb).unwrap();
    let p = puzzle(&dir, "fresh", FRESH);
    let out = retain(&p, &cb, &solver).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v = json_of(&out);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["solution"], json!(["@ 1,1 R"]));
    assert_eq!(v["retained"], json!(null));
    let err = String::from_utf8_lossy(&out.stderr);
    let table = err.find("solved").expect("the table on stderr");
    let error = err.find("read-only").expect("the error on stderr");
    assert!(table < error, "the result comes first: {err}");
    assert_eq!(std::fs::read(&cb).unwrap(), before);
}

#[test]
fn an_interrupted_solve_reports_the_finished_attempts_and_kills_its_solver() {
    let dir = Scratch::new("interrupt");
    let solver = standin(&dir, "stall");
    let p = puzzle(&dir, "query", QUERY);
    let cb = write_casebase(&dir, &[case_toml("one", QUERY, "algorithm = \"bfs\"")]);
    let pid_file = dir.path("query.txt.pid");
    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        let _ = std::fs::remove_file(&pid_file);
        let _ = std::fs::remove_file(dir.path("query.txt.calls"));
        let child = retain(&p, &cb, &solver)
            .args(["--jobs", "1", "--wave", "1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let solver_pid = pid_in(&pid_file);
        send(signal, child.id());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(code), "SIG{signal}");
        let v = json_of(&out);
        assert_eq!(v["status"], "interrupted");
        // The two finished attempts, and the one running at the signal,
        // which the stand-in does not answer: stopped, not failed.
        let all = v["attempts"].as_array().unwrap();
        let finished = all.iter().filter(|a| a["status"] == "limit_reached");
        assert_eq!(finished.count(), 2, "the two finished attempts: {v}");
        assert!(
            all.iter()
                .all(|a| a["status"] == "limit_reached" || a["status"] == "cancelled"),
            "{v}"
        );
        assert_eq!(v["retained"], json!(null));
        assert!(String::from_utf8_lossy(&out.stderr).contains("interrupted"));
        assert!(
            wait_for(10, || !alive(&solver_pid)),
            "solver {solver_pid} outlived the interrupted reasoner"
        );
    }
    assert_eq!(list_cases(&cb), ["one"]);
}

#[test]
fn an_interrupt_while_the_solver_lists_its_heuristics_is_handled() {
    let dir = Scratch::new("interrupt-list");
    let solver = standin(&dir, "slowlist");
    let p = puzzle(&dir, "query", QUERY);
    let cb = write_casebase(&dir, &[case_toml("one", QUERY, "algorithm = \"bfs\"")]);
    let started = std::time::Instant::now();
    let child = retain(&p, &cb, &solver)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lister = pid_in(&dir.path("heuristics.pid"));
    send("INT", child.id());
    let out = child.wait_with_output().unwrap();
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "waited {:?} for `solver heuristics`",
        started.elapsed()
    );
    assert_eq!(out.status.code(), Some(130));
    let v = json_of(&out);
    assert_eq!(v["status"], "interrupted");
    assert_eq!(v["attempts"].as_array().map(Vec::len), Some(0), "{v}");
    assert!(!dir.path("query.txt.calls").exists(), "no attempt ran");
    assert!(
        wait_for(10, || !alive(&lister)),
        "`solver heuristics` ({lister}) outlived the interrupted reasoner"
    );
    assert_eq!(list_cases(&cb), ["one"]);
}

#[test]
fn a_solver_child_holding_stdout_is_not_waited_for() {
    let dir = Scratch::new("orphan");
    let solver = standin(&dir, "orphan");
    let p = puzzle(&dir, "query", QUERY);
    let cb = write_casebase(&dir, &[case_toml("one", QUERY, "algorithm = \"bfs\"")]);
    let start = std::time::Instant::now();
    let out = retain(&p, &cb, &solver)
        .args(["--attempts", "2", "--no-final"])
        .output()
        .unwrap();
    assert!(
        start.elapsed() < std::time::Duration::from_secs(20),
        "waited {:?} for the solver's leftover child",
        start.elapsed()
    );
    assert_eq!(out.status.code(), Some(1));
    let v = json_of(&out);
    assert_eq!(v["status"], "limit_reached");
    assert_eq!(v["attempts"].as_array().unwrap().len(), 2);
    let orphan = std::fs::read_to_string(dir.path("query.txt.pid")).unwrap();
    assert!(
        wait_for(5, || !alive(orphan.trim())),
        "the child was killed"
    );
}

/// Runs `reasoner solve ... ARGS` with the `threshold` stand-in and a case
/// that solves.
fn with_flags(dir: &Scratch, args: &[&str]) -> std::process::Output {
    with_standin(dir, "threshold", args)
}

/// Runs `reasoner solve ... ARGS` with the stand-in `mode` and a case that
/// solves.
fn with_standin(dir: &Scratch, mode: &str, args: &[&str]) -> std::process::Output {
    let solver = standin(dir, mode);
    let p = puzzle(dir, "query", QUERY);
    let cb = write_casebase(dir, &[case_toml("one", QUERY, SOLVING)]);
    std::process::Command::new(end_to_end::reasoner_bin())
        .args(["solve", s(&p), "--casebase", s(&cb), "--solver", s(&solver)])
        .args(["--json"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn out_of_range_flags_are_refused_before_anything_runs() {
    for (flag, value, range) in [
        ("--jobs", "0", "a whole number from 1 to 256"),
        ("--wave", "0", "a whole number from 1 to 1000"),
        ("--attempts", "-1", "a whole number from 0 to 10000"),
        ("--max-memory", "12Q", "a byte count from 1M to 1024T"),
        (
            "--attempt-timeout",
            "NaN",
            "a number from 0.001 to 1000000000",
        ),
        (
            "--final-timeout",
            "inf",
            "a number from 0.001 to 1000000000",
        ),
        ("--min-distance", "-1", "a number from 0 to 1000000"),
        ("--position-limit", "0", "a whole number from 1 to"),
    ] {
        let dir = Scratch::new("flags");
        let out = with_flags(&dir, &[flag, value]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(flag) && err.contains(range),
            "{flag} {value}: {err}"
        );
        assert!(out.stdout.is_empty());
        assert!(!dir.path("query.txt.calls").exists(), "no solver ran");
    }
}

#[test]
fn zero_attempts_runs_only_the_final_attempt() {
    let dir = Scratch::new("zero");
    let out = with_flags(&dir, &["--attempts", "0"]);
    assert_eq!(out.status.code(), Some(0));
    let v = json_of(&out);
    let all = v["attempts"].as_array().unwrap();
    assert_eq!(all.len(), 1, "{v}");
    assert_eq!(all[0]["phase"], "final");
    assert_eq!(all[0]["case"], "one");
    assert_eq!(all[0]["status"], "solved");
    let calls = std::fs::read_to_string(dir.path("query.txt.calls")).unwrap();
    // Besides the final attempt, the improve phase's re-run (`--optimal`).
    let attempts: Vec<&str> = calls.lines().filter(|l| !l.contains("--optimal")).collect();
    assert_eq!(attempts.len(), 1, "{calls}");
    assert!(
        !attempts[0].contains("--max-positions"),
        "the final is unlimited: {calls}"
    );
}

#[test]
fn a_failing_solver_shows_as_its_one_line_message() {
    for (mode, error) in [
        (
            "wide",
            "the solver rejected its input (exit 2): position keys of 4800 bits are wider \
             than the 4096 bits supported; use a smaller board",
        ),
        (
            "panic",
            "the solver exited with code 101: panicked: index out of bounds: the len is 3 \
             but the index is 7 (at solver/src/search/astar.rs:120:17)",
        ),
    ] {
        let dir = Scratch::new(mode);
        let out = with_standin(&dir, mode, &["--attempts", "1", "--no-final"]);
        assert_eq!(out.status.code(), Some(1), "{mode}");
        let v = json_of(&out);
        assert_eq!(v["status"], "failed");
        assert_eq!(v["attempts"][0]["error"], error, "{mode}");
    }
}

#[test]
fn broken_case_bases_are_errors_at_their_line() {
    let dir = Scratch::new("broken-cb");
    let list = |cb: &std::path::Path| {
        let out = reasoner(&["casebase", "list", s(cb)]);
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        String::from_utf8_lossy(&out.stderr).trim().to_string()
    };
    let text = format!("version = 1\n\n{}", case_toml("one", QUERY, SOLVING));
    let line_of = |key: &str| text.lines().position(|l| l.starts_with(key)).unwrap() + 1;
    let cb = dir.path("cb.toml");

    let mut bytes = text.clone().into_bytes();
    let at = text.find("num_of_spaces").unwrap() + 3;
    bytes[at] = 0xff;
    std::fs::write(&cb, &bytes).unwrap();
    assert_eq!(
        list(&cb),
        format!(
            "reasoner: {}:{}:4: byte 0xff is not UTF-8; case bases are UTF-8 text \
             (convert it, e.g. with iconv)",
            s(&cb),
            line_of("num_of_spaces")
        )
    );

    std::fs::write(
        &cb,
        text.replace("num_of_spaces = [2.0, 2.0]", "num_of_spaces = [nan, 2.0]"),
    )
    .unwrap();
    let err = list(&cb);
    assert!(
        err.starts_with(&format!(
            "reasoner: {}:{}:1: ",
            s(&cb),
            line_of("num_of_spaces")
        )) && err.contains("feature num_of_spaces must be two finite numbers"),
        "{err}"
    );

    let hashed = text.replace(
        "[case.features]",
        "[case.provenance]\nsha256 = \"xyz\"\n[case.features]",
    );
    std::fs::write(&cb, &hashed).unwrap();
    let line = hashed
        .lines()
        .position(|l| l.starts_with("sha256"))
        .unwrap()
        + 1;
    let err = list(&cb);
    assert!(
        err.starts_with(&format!("reasoner: {}:{line}:1: ", s(&cb)))
            && err.contains("sha256 must be 64 hexadecimal digits"),
        "{err}"
    );
}

#[test]
fn importing_a_file_without_cases_writes_nothing() {
    let dir = Scratch::new("import-garbage");
    let into = dir.path("into.toml");
    for (garbage, message) in [
        (
            "hello\nworld\n!\n!!\n",
            "holds no case, so nothing was imported",
        ),
        (
            "!!\n",
            "garbage.txt:1:1: missing the field-definition section",
        ),
    ] {
        let legacy = dir.path("garbage.txt");
        std::fs::write(&legacy, garbage).unwrap();
        let out = reasoner(&["casebase", "import", s(&legacy), "--into", s(&into)]);
        assert_eq!(out.status.code(), Some(2), "{garbage:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{err}");
        assert!(!into.exists(), "nothing written");
    }
}

#[test]
fn a_collection_is_refused_with_how_to_pick_one() {
    let dir = Scratch::new("collection");
    let coll = dir.path("two.txt");
    std::fs::write(&coll, format!("% name: a\n{TINY}%%\n% name: b\n{TINY}")).unwrap();
    let cb = write_casebase(&dir, &[]);
    let out = std::process::Command::new(end_to_end::reasoner_bin())
        .args(["solve", s(&coll), "--casebase", s(&cb)])
        .args(["--solver", s(&end_to_end::solver_bin())])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "{} is a collection of 2 puzzles, and the reasoner solves one puzzle at a time: \
             pick one with `solver import {} --index N > one.txt`",
            s(&coll),
            s(&coll)
        )),
        "{err}"
    );
    assert!(!err.contains("trailing characters"), "{err}");
}
