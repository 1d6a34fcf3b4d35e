//! End-to-end tests of what the reasoner promises whatever its solver, its
//! case base or its flags do (issue 12): claimed solutions are verified, no
//! case is lost or written where it should not be, interrupted runs report.

use std::process::Stdio;

use serde_json::json;

mod reasoner_common;
use reasoner_common::standin::*;
use reasoner_common::{json_of, Scratch};

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
        err.contains("the case base is read-only (mode 0444)") && err.contains("chmod u+w"),
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
