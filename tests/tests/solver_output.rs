//! End-to-end tests of how `solver solve` hands over its results: an
//! unwritable `--solution` is refused before any search, a write that fails
//! after the search still prints the result first, and a reader that closes
//! the pipe early ends the solver quietly, without a panic.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use end_to_end::{run_solver as solver, solver_bin, workspace_root};

const CLASSIC: &str = "puzzles/klotski/classic.txt";

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("solver-output-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

#[test]
fn an_unwritable_solution_path_is_refused_before_searching() {
    let dir = temp_dir("refused");
    let missing = dir.join("no/such/folder/x.sol");
    for path in [missing.to_str().unwrap(), dir.to_str().unwrap()] {
        let out = solver(&["solve", CLASSIC, "--solution", path, "--json"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{path}: {err}");
        assert!(err.contains(&format!("--solution {path}")), "{err}");
        assert!(out.stdout.is_empty(), "searched anyway: {path}");
    }
}

#[test]
fn a_failed_write_after_the_search_prints_the_result_then_the_error() {
    let dir = temp_dir("late");
    // A collection of two puzzles writes x.sol.1 and x.sol.2; x.sol.2 is
    // taken by a folder, so only the second write fails, after its search.
    let classic = std::fs::read_to_string(workspace_root().join(CLASSIC)).unwrap();
    let collection = dir.join("two.txt");
    std::fs::write(&collection, format!("{classic}%%\n{classic}")).unwrap();
    let sol = dir.join("x.sol");
    std::fs::create_dir_all(dir.join("x.sol.2/taken")).unwrap();
    let out = solver(&[
        "solve",
        collection.to_str().unwrap(),
        "--solution",
        sol.to_str().unwrap(),
        "--json",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let results: Vec<&str> = stdout.lines().collect();
    assert_eq!(results.len(), 2, "both results printed: {stdout}");
    assert!(
        results.iter().all(|r| r.contains("\"steps\":116")),
        "{stdout}"
    );
    assert!(
        err.contains("cannot write the solution to") && err.contains("x.sol.2"),
        "{err}"
    );
    let first = std::fs::read_to_string(dir.join("x.sol.1")).expect("the first was written");
    assert!(!first.trim().is_empty());
}

#[test]
fn a_closed_pipe_ends_quietly_without_a_panic() {
    let mut child = Command::new(solver_bin())
        .args(["solve", CLASSIC, "--show"])
        .current_dir(workspace_root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("solver starts");
    // The reader goes away before the solver has printed anything.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("solver ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{err}");
    assert!(err.is_empty(), "nothing on stderr for a closed pipe: {err}");
}
