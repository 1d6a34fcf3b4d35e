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

/// An output naming the puzzle file itself (here through `..`) is refused
/// before any work by every command that writes one, and the puzzle is left
/// as it was; `improve` may still rewrite its solution in place.
#[test]
fn an_output_that_is_the_input_puzzle_is_refused_and_the_puzzle_kept() {
    let dir = temp_dir("self");
    let original = std::fs::read(workspace_root().join(CLASSIC)).unwrap();
    let puzzle = dir.join("p.txt");
    std::fs::write(&puzzle, &original).unwrap();
    let p = puzzle.to_str().unwrap();
    let same = format!(
        "{}/../{}/p.txt",
        dir.display(),
        dir.file_name().unwrap().to_str().unwrap()
    );
    let sol = dir.join("s.sol");
    let s = sol.to_str().unwrap();
    assert_eq!(
        solver(&["solve", p, "--solution", s]).status.code(),
        Some(0)
    );
    for args in [
        vec!["solve", p, "--solution", &same],
        vec!["solve", p, "--best-out", &same],
        vec!["solve", p, "--render", &same],
        vec!["improve", p, s, "-o", &same],
        vec!["render", p, "-o", &same],
        vec!["variant", p, "--remove", "0,0", "-o", &same],
        vec!["import", p, "-o", &same],
    ] {
        let out = solver(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("this is the input file"), "{args:?}: {err}");
        assert_eq!(std::fs::read(&puzzle).unwrap(), original, "{args:?}");
    }
    // A variant's solution input is an input too.
    let out = solver(&["variant", p, "--remove", "5,1", "--subgoals", s, "-o", s]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("--output"));
    // In a collection, the numbered files are what is written: `--solution
    // x` over the collection `x.1` is refused, the bare name is not.
    let collection = dir.join("x.1");
    let two = format!(
        "{}%%\n{}",
        String::from_utf8_lossy(&original),
        String::from_utf8_lossy(&original)
    );
    std::fs::write(&collection, &two).unwrap();
    let c = collection.to_str().unwrap();
    let x = dir.join("x");
    let out = solver(&["solve", c, "--solution", x.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&collection).unwrap(), two);
    let out = solver(&["solve", c, "--solution", c]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.join("x.1.2").exists());
    let out = solver(&["improve", p, s, "-o", s]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let check = solver(&["verify", p, s]);
    assert_eq!(check.status.code(), Some(0));
}

#[test]
fn a_failed_write_after_the_search_prints_the_result_then_the_error() {
    let dir = temp_dir("late");
    // A collection of two puzzles writes x.sol.1 and x.sol.2. x.sol.2 is a
    // folder: that is found before any search. Then it is a FIFO nobody
    // reads, which only the write itself finds out: after the second
    // search, whose result is still printed.
    let classic = std::fs::read_to_string(workspace_root().join(CLASSIC)).unwrap();
    let collection = dir.join("two.txt");
    std::fs::write(&collection, format!("{classic}%%\n{classic}")).unwrap();
    let sol = dir.join("x.sol");
    let args = [
        "solve",
        collection.to_str().unwrap(),
        "--solution",
        sol.to_str().unwrap(),
        "--json",
    ];
    std::fs::create_dir_all(dir.join("x.sol.2/taken")).unwrap();
    let out = solver(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "searched anyway");
    assert!(String::from_utf8_lossy(&out.stderr).contains("x.sol.2: this names a folder"));
    std::fs::remove_dir_all(dir.join("x.sol.2")).unwrap();
    let fifo = std::ffi::CString::new(dir.join("x.sol.2").to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    let out = solver(&args);
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
        err.contains("x.sol.2") && err.contains("no process reads this FIFO"),
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

/// A solved puzzle's summary says how to get the moves when no flag asked
/// for them (issue 49: "solve prints no moves and no hint how to get
/// them"), and not when one did.
#[test]
fn the_summary_says_how_to_get_the_moves() {
    let hint = "--solution FILE writes them";
    let out = solver(&["solve", "puzzles/klotski/only_18_steps.txt"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(hint), "{text}");
    let out = solver(&[
        "solve",
        "puzzles/klotski/only_18_steps.txt",
        "--solution",
        "-",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    let moves = text
        .lines()
        .filter(|l| l.ends_with(['U', 'D', 'L', 'R']))
        .count();
    assert!(!text.contains(hint) && moves >= 18, "{text}");
    let out = solver(&["solve", "puzzles/klotski/only_18_steps.txt", "--show"]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains(hint));
}
