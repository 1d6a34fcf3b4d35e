//! Property test of the reasoner's numeric flags (issue 12): whatever value a
//! flag gets (0, negative, NaN, infinities, huge, garbage, valid), the
//! reasoner never panics, never aborts and never exits with a code of 100 or
//! more; a value outside the flag's range is exit 2 naming the flag.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use proptest::prelude::*;

mod reasoner_common;
use reasoner_common::standin::*;
use reasoner_common::{s, Scratch};

/// `reasoner solve`'s numeric flags.
const SOLVE_FLAGS: [&str; 10] = [
    "--seed",
    "--position-limit",
    "--attempts",
    "--jobs",
    "--wave",
    "--attempt-timeout",
    "--final-timeout",
    "--max-memory",
    "--min-distance",
    "--max-distance",
];

/// `reasoner casebase add`'s numeric flags.
const ADD_FLAGS: [&str; 4] = ["--weight", "--h2", "--space-value", "--position-limit"];

/// Values that have broken command lines before, and random ones.
fn value() -> impl Strategy<Value = String> {
    let fixed = prop::sample::select(vec![
        "0",
        "-0",
        "-1",
        "1",
        "2",
        "16",
        "NaN",
        "nan",
        "inf",
        "-inf",
        "1e308",
        "1e-308",
        "1e9",
        "1e10",
        "0.0005",
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999999999",
        "12Q",
        "2G",
        "1024T",
        "1025T",
        "",
        " ",
        "x",
        "1,1,1",
        "NaN,1,1",
        "-1,0,1",
        "inf,1,1",
        "1,2",
    ])
    .prop_map(str::to_string);
    prop_oneof![
        3 => fixed,
        1 => any::<u64>().prop_map(|n| n.to_string()),
        1 => any::<i64>().prop_map(|n| n.to_string()),
        1 => any::<f64>().prop_map(|x| x.to_string()),
        1 => (any::<u8>(), any::<u8>(), any::<u8>()).prop_map(|(a, b, c)| format!("{a},{b},{c}")),
    ]
}

/// Waits for `child` at most `secs` seconds (then kills it and fails).
fn finish(mut child: Child, secs: u64, what: &str) -> Output {
    let end = Instant::now() + Duration::from_secs(secs);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > end {
            let _ = child.kill();
            panic!("{what} ran for more than {secs} s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

/// Runs the reasoner and checks the property; the exit code.
fn check(args: &[String], what: &str) -> i32 {
    let child = Command::new(end_to_end::reasoner_bin())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = finish(child, 60, what);
    let err = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    assert!(
        code.is_some_and(|c| (0..100).contains(&c)),
        "{what}: exit {:?}\n{err}",
        out.status
    );
    assert!(!err.contains("panicked"), "{what}: {err}");
    if code == Some(2) && err.contains("invalid value") {
        let flag = what.split('=').next().unwrap();
        assert!(
            err.contains(flag),
            "{what}: the message names the flag: {err}"
        );
    }
    // Shown only when a test fails: what the reasoner said (once, under
    // load, `--jobs=1` exited 2 and the assertion named only the flag).
    eprintln!("{what}: exit {code:?}\n{err}");
    code.unwrap()
}

struct Setup {
    _dir: Scratch,
    solver: String,
    puzzle: String,
    cb: String,
    fresh: String,
}

fn setup() -> Setup {
    let dir = Scratch::new("flag-property");
    let solver = standin(&dir, "threshold");
    let puzzle = puzzle(&dir, "query", QUERY);
    let cb = write_casebase(&dir, &[case_toml("one", QUERY, SOLVING)]);
    let fresh = dir.path("added.toml");
    let text = |p: &Path| s(p).to_string();
    Setup {
        solver: text(&solver),
        puzzle: text(&puzzle),
        cb: text(&cb),
        fresh: text(&fresh),
        _dir: dir,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn solve_flags_never_crash(flag in prop::sample::select(SOLVE_FLAGS.to_vec()), v in value()) {
        let t = setup();
        let arg = format!("{flag}={v}");
        let args = ["solve", &t.puzzle, "--casebase", &t.cb, "--solver", &t.solver, &arg]
            .map(str::to_string);
        check(&args, &arg);
    }

    #[test]
    fn casebase_add_flags_never_crash(flag in prop::sample::select(ADD_FLAGS.to_vec()), v in value()) {
        let t = setup();
        let arg = format!("{flag}={v}");
        // With h2, so that `--h2`'s values are read, not refused as an
        // option of another heuristic.
        let h2 = ["--algorithm", "astar", "--heuristic", "h2"];
        let args = ["casebase", "add", &t.fresh, &t.puzzle, "--solver", &t.solver];
        let args: Vec<String> = args.iter().chain(&h2).chain([&arg.as_str()]).map(|a| a.to_string()).collect();
        check(&args, &arg);
    }
}

#[test]
fn the_readme_lists_every_flag_with_its_range() {
    let readme = end_to_end::workspace_root().join("README.md");
    let readme = std::fs::read_to_string(readme).unwrap();
    let table = reasoner::flags::table();
    assert!(
        readme.contains(&table),
        "README.md's table of the reasoner's numeric flags must read:\n{table}"
    );
}

#[test]
fn settings_spaces_never_crash() {
    for (v, want) in [("0", 0), ("16384", 0), ("16385", 2), ("-1", 2), ("NaN", 2)] {
        let arg = format!("--spaces={v}");
        assert_eq!(check(&["settings".to_string(), arg.clone()], &arg), want);
    }
    let huge = "--spaces=18446744073709551615".to_string();
    assert_eq!(check(&["settings".to_string(), huge.clone()], &huge), 2);
}

/// A reader that stops early (`reasoner settings ... --json | head -c 1`) ends
/// the reasoner quietly, as it does other Unix tools: no panic on the
/// closed pipe.
#[test]
fn a_closed_standard_output_ends_the_reasoner_without_a_panic() {
    let line = format!(
        "'{}' settings --spaces 1 --grid 50 --seed 1 --json | head -c 1 >/dev/null",
        end_to_end::reasoner_bin().display()
    );
    let out = Command::new("sh").args(["-c", &line]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("Broken pipe"), "{err}");
}

#[test]
fn the_edges_of_each_range_are_accepted_and_beyond_them_refused() {
    let t = setup();
    let solve = |arg: &str| {
        let args = [
            "solve",
            &t.puzzle,
            "--casebase",
            &t.cb,
            "--solver",
            &t.solver,
            arg,
        ];
        check(&args.map(str::to_string), arg)
    };
    for ok in [
        "--jobs=1",
        "--jobs=256",
        "--wave=1000",
        "--attempts=0",
        "--max-memory=1M",
    ] {
        assert_eq!(solve(ok), 0, "{ok}");
    }
    for bad in [
        "--jobs=257",
        "--wave=1001",
        "--attempts=10001",
        "--max-memory=1025T",
    ] {
        assert_eq!(solve(bad), 2, "{bad}");
    }
}

/// Without `--casebase` the reasoner solves with the seed case base it
/// carries (the real solver beside it); `--retain` then asks where to store
/// the case; a puzzle given as the case base is named as such.
#[test]
fn the_bundled_seed_case_base_is_the_default() {
    let root = end_to_end::workspace_root();
    let quickstart = root.join("puzzles/quickstart.txt");
    let out = reasoner(&["solve", s(&quickstart), "--json", "--jobs", "1"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["status"], "solved", "{report}");
    assert_eq!(report["steps"], 83, "quickstart's optimum");

    let out = reasoner(&["solve", s(&quickstart), "--retain"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("name it with --casebase FILE"));

    let out = reasoner(&["solve", s(&quickstart), "--casebase", s(&quickstart)]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("this is a puzzle, not a case base"), "{err}");
}
