//! End-to-end tests of the solver's numeric flags: every value outside its
//! documented range exits 2 naming the flag and the range, and huge but
//! valid values neither panic nor allocate in proportion to the value.

use std::process::Command;

use end_to_end::measure::{run_measured, Measured};
use end_to_end::{run_solver as solver, solver_bin, workspace_root};

const CLASSIC: &str = "puzzles/klotski/classic.txt";

/// A mebibyte: the unit of the resident memory allowed.
const MIB: u64 = 1 << 20;

#[test]
fn values_outside_the_range_exit_2_naming_flag_and_range() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", CLASSIC, "--weight", "inf"], "from 1 to 100"),
        (&["solve", CLASSIC, "--weight", "-1"], "from 1 to 100"),
        (&["solve", CLASSIC, "--weight", "0.5"], "from 1 to 100"),
        (&["solve", CLASSIC, "--h2", "NaN,1,1"], "from 0 to 1000000"),
        (&["solve", CLASSIC, "--h2", "-1,1,1"], "from 0 to 1000000"),
        (
            &["solve", CLASSIC, "--ida-limit", "4294967296"],
            "to 4294967295",
        ),
        (&["count", CLASSIC, "--threads", "1000000"], "from 1 to 256"),
        (&["count", CLASSIC, "--threads", "0"], "from 1 to 256"),
        (&["solve", CLASSIC, "--time-limit", "1e19"], "to 1000000000"),
        (&["solve", CLASSIC, "--time-limit", "inf"], "to 1000000000"),
        (
            &["solve", CLASSIC, "--max-memory", "12Q"],
            "from 1M to 1024T",
        ),
        (&["solve", CLASSIC, "--max-positions", "-5"], "from 1 to"),
        (&["solve", CLASSIC, "--space-value", "NaN"], "whole number"),
        (&["features", CLASSIC, "--budget-bytes", "65G"], "to 64G"),
        (&["bench", CLASSIC, "--threads", "1,0"], "from 1 to 256"),
        (&["bench", CLASSIC, "--repeat", "0"], "from 1 to 1000"),
        (&["show", CLASSIC, "--width", "129"], "from 1 to 128"),
    ];
    for (args, range) in cases {
        let out = solver(args);
        let err = String::from_utf8_lossy(&out.stderr);
        let flag = args[2];
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(&format!("{flag} takes")) && err.contains(range),
            "{args:?} must name {flag} and its range {range}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?} printed a result");
    }
}

/// `--width` and `--blank-last` describe tile puzzles: without `--from
/// tiles` they are refused (exit 2) instead of silently ignored.
#[test]
fn tile_options_need_from_tiles() {
    for args in [
        ["show", CLASSIC, "--width", "4"].as_slice(),
        ["solve", CLASSIC, "--blank-last"].as_slice(),
    ] {
        let out = solver(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("add --from tiles"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?} printed a result");
    }
}

/// Runs the solver with `args`, measured (exit code, output, peak RSS).
fn measured(args: &[&str]) -> Measured {
    let mut command = Command::new(solver_bin());
    command.args(args).current_dir(workspace_root());
    run_measured(&mut command)
}

fn field<'a>(m: &'a Measured, name: &str) -> &'a str {
    let at = m
        .stdout
        .find(&format!("\"{name}\":"))
        .unwrap_or_else(|| panic!("no {name} in {}\n{}", m.stdout, m.stderr));
    let rest = &m.stdout[at + name.len() + 3..];
    rest[..rest.find([',', '}']).unwrap_or(rest.len())].trim_matches('"')
}

#[test]
fn huge_but_valid_values_neither_panic_nor_allocate_in_proportion() {
    // (arguments, exit code, status, limit, most resident memory allowed)
    let cases: &[(&[&str], i32, &str, &str, u64)] = &[
        // The A* open list was an array indexed by f: f ~ 1e6 * h with h2's
        // largest weights.
        (
            &["--algorithm", "astar", "--weight", "100"],
            0,
            "solved",
            "null",
            48 * MIB,
        ),
        (
            &[
                "--algorithm",
                "astar",
                "--heuristic",
                "h2",
                "--h2",
                "1000000,1000000,1000000",
                "--weight",
                "100",
            ],
            0,
            "solved",
            "null",
            48 * MIB,
        ),
        // IDA* recursed as deep as the bound allowed: a stack overflow.
        // (Below the 25,955 reachable positions, so that the BFS probe
        // before IDA* meets its cap without the goal and IDA* runs.)
        (
            &[
                "--algorithm",
                "ida",
                "--weight",
                "100",
                "--max-positions",
                "20000",
            ],
            1,
            "limit_reached",
            "max_positions",
            256 * MIB,
        ),
        (
            &[
                "--algorithm",
                "ida",
                "--ida-limit",
                "4294967295",
                "--max-memory",
                "8M",
            ],
            1,
            "limit_reached",
            "max_memory",
            48 * MIB,
        ),
        (
            &["--time-limit", "1000000000"],
            0,
            "solved",
            "null",
            48 * MIB,
        ),
        (&["--threads", "256"], 0, "solved", "null", 256 * MIB),
    ];
    for &(flags, code, status, limit, rss) in cases {
        solves_within(flags, code, status, limit, rss);
    }
}

/// Solves the classic Klotski with `flags`, measured: it must exit `code`,
/// report `status` and `limit` in its JSON, and keep at most `rss` bytes
/// resident.
fn solves_within(flags: &[&str], code: i32, status: &str, limit: &str, rss: u64) {
    let mut args = vec!["solve", CLASSIC, "--json", "--quiet"];
    args.extend_from_slice(flags);
    let m = measured(&args);
    assert_eq!(m.code, Some(code), "{flags:?}: {}", m.stderr);
    assert_eq!(field(&m, "status"), status, "{flags:?}");
    assert_eq!(field(&m, "limit"), limit, "{flags:?}");
    assert!(
        m.peak_rss <= rss,
        "{flags:?}: {} MiB resident",
        m.peak_rss / MIB
    );
}

/// A puzzle file given where the command goes (`solver classic.txt`) gets
/// a hint naming the command to run, not only clap's "unrecognized
/// subcommand"; a name that is no file still gets clap's error.
#[test]
fn a_file_in_the_command_place_gets_a_hint() {
    let out = end_to_end::run_solver(&["puzzles/klotski/classic.txt"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is a file, not a command")
            && err.contains("`solver solve puzzles/klotski/classic.txt`"),
        "{err}"
    );
    let out = end_to_end::run_solver(&["no-such-file.txt"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unrecognized subcommand"), "{err}");
}

/// Shell completions and the man page come from the parser's own
/// definitions: every command is in them, bash accepts the script, and the
/// man page has each command's options.
#[test]
fn completions_and_the_man_page_name_every_command() {
    let commands = [
        "show", "solve", "count", "render", "verify", "improve", "generate", "man",
    ];
    let bash = solver(&["completions", "bash"]);
    assert!(bash.status.success());
    let script = String::from_utf8(bash.stdout).unwrap();
    for c in commands {
        assert!(script.contains(&format!("solver,{c})")), "bash: no {c}");
    }
    assert!(script.contains("--max-positions") && script.contains("--web-module"));
    let check = Command::new("bash")
        .args(["-n", "-c", &script])
        .output()
        .expect("bash runs");
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    for shell in ["zsh", "fish"] {
        let out = solver(&["completions", shell]);
        assert!(out.status.success() && String::from_utf8_lossy(&out.stdout).contains("solve"));
    }
    let bad = solver(&["completions", "tcsh"]);
    assert_eq!(bad.status.code(), Some(2));

    let man = solver(&["man"]);
    assert!(man.status.success());
    let page = String::from_utf8(man.stdout).unwrap();
    assert!(page.contains(".TH solver 1"), "a man page of section 1");
    for c in commands {
        assert!(
            page.contains(&format!(".SH \"SOLVER {}\"", c.to_uppercase())),
            "man: no {c}"
        );
    }
    assert!(
        page.contains("\\-\\-max\\-positions"),
        "the options of solve"
    );
}

/// A misspelt puzzle file is named with the nearest file of its folder.
#[test]
fn a_misspelt_file_gets_a_did_you_mean() {
    let out = solver(&["solve", "puzzles/klotski/clasic.txt"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("did you mean puzzles/klotski/classic.txt?"),
        "{err}"
    );
    let out = solver(&["solve", "puzzles/klotski/no_such_level_at_all.txt"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("did you mean"));
}
