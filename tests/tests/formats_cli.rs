//! End-to-end tests of the formats, `solver import`, `solver show` and
//! `solver verify`, run on the binary Cargo built for the tests.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use end_to_end::{dev_puzzles, solver_bin, workspace_root};

/// Runs `solver ARGS` in the workspace root with `stdin` as standard input.
fn solver(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(solver_bin())
        .args(args)
        .current_dir(workspace_root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("solver runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A file in a fresh temporary folder for this test.
fn temp_file(test: &str, name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("formats-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// Imports `file` with `--from format` and checks the native text shows
/// `expected` puzzles through `solver show -`; returns the native text.
fn import_and_show(format: &str, file: &Path, expected: usize) -> String {
    let file = file.to_str().unwrap();
    let imported = solver(&["import", "--from", format, file], "");
    assert_eq!(imported.status.code(), Some(0), "{}", stderr(&imported));
    let native = stdout(&imported);
    let shown = solver(&["show", "-"], &native);
    assert_eq!(shown.status.code(), Some(0), "{}", stderr(&shown));
    let shown = stdout(&shown);
    assert_eq!(shown.matches("start:\n").count(), expected, "{shown}");
    assert_eq!(shown.matches("goal:\n").count(), expected, "{shown}");
    // --from works directly on show too, with the same result.
    let direct = solver(&["show", "--from", format, file], "");
    assert_eq!(direct.status.code(), Some(0), "{}", stderr(&direct));
    assert_eq!(stdout(&direct), shown);
    native
}

#[test]
fn every_rush_hour_dev_line_imports_and_shows() {
    let dir = dev_puzzles();
    let file = dir.join("rushhour_dev.txt");
    let lines = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count();
    let native = import_and_show("rush", &file, lines);
    assert_eq!(native.matches("% optimum: ").count(), lines);
    let one = solver(
        &[
            "import",
            "--from",
            "rush",
            file.to_str().unwrap(),
            "--index",
            "3",
        ],
        "",
    );
    assert!(
        stdout(&one).starts_with("% name: rush line 3\n"),
        "{}",
        stdout(&one)
    );
    let out_of_range = solver(
        &[
            "import",
            "--from",
            "rush",
            file.to_str().unwrap(),
            "--index",
            "999",
        ],
        "",
    );
    assert_eq!(out_of_range.status.code(), Some(2));
    assert!(stderr(&out_of_range).contains("out of range"));
}

#[test]
fn every_korf_line_imports_and_shows() {
    let dir = dev_puzzles();
    let native = import_and_show("tiles", &dir.join("korf_first10.txt"), 10);
    assert!(native.starts_with("% name: tiles line 1\n% optimum: 57 steps\n"));
    assert!(
        !native.contains("solvable: no"),
        "Korf's instances are solvable"
    );
}

#[test]
fn every_gnome_klotski_level_imports_and_shows() {
    let dir = dev_puzzles();
    let mut levels = 0;
    for entry in std::fs::read_dir(dir.join("gnome-klotski")).unwrap() {
        let path = entry.unwrap().path();
        let native = import_and_show("klotski", &path, 1);
        assert!(
            native.contains("----@@"),
            "the goal is outside the frame: {native}"
        );
        levels += 1;
    }
    assert!(levels >= 2);
}

#[test]
fn stored_gnome_levels_carry_their_optima() {
    for (file, optimum) in [
        ("puzzles/klotski/red_donkey.txt", "121 steps, 81 moves"),
        ("puzzles/klotski/pennant.txt", "89 steps, 59 moves"),
    ] {
        let text = std::fs::read_to_string(workspace_root().join(file)).unwrap();
        assert!(text.contains(&format!("% optimum: {optimum}")), "{file}");
        assert!(text.contains("% origin: GNOME Klotski level"), "{file}");
        let shown = solver(&["show", file], "");
        assert_eq!(shown.status.code(), Some(0), "{}", stderr(&shown));
    }
}

/// GNOME Klotski's "Ithaca" as its source (src/klotski-window.vala) spells it:
/// most blocks stand outside the frame.
const ITHACA_GNOME: &str = "\
.aaaaaaaaaaaaaaaaab
..  cddeffffffffffb
 .. cddeffffffffffb
  . cddeffffffffffb
ggg-############hhb
ggg-  ABCDEFFGH#hhb
ggg-       FFIJ#hhb
ggg#       KLMJ#hhb
ggg#NNNNOOOPQMJ#hhb
ggg#NNNNOOOP*RS#hhb
ggg#TTTTTUVW**X#hhb
ggg#YZ12222W3**#hhb
ggg#YZ12222W34*#iib
jjj#YZ155555367#klb
jjj#############mmb
jjjnooooooooooppppb
jjjqooooooooooppppb
       rrrssssppppb
ttttttuvvvvvvvwwwwx
";

/// The grids of a native puzzle text (between its `!` lines).
fn native_grids(text: &str) -> Vec<Vec<String>> {
    let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('%')).collect();
    body.split(|l| *l == "!")
        .filter(|g| !g.is_empty())
        .map(|g| g.iter().map(|l| l.to_string()).collect())
        .collect()
}

#[test]
fn ithaca_imports_as_gnome_plays_it_and_its_outside_blocks_move() {
    let level = temp_file("ithaca", "ithaca.lvl", ITHACA_GNOME.as_bytes());
    let imported = solver(
        &["import", "--from", "klotski", level.to_str().unwrap()],
        "",
    );
    assert_eq!(imported.status.code(), Some(0), "{}", stderr(&imported));
    let stored =
        std::fs::read_to_string(workspace_root().join("puzzles/klotski/ithaca.txt")).unwrap();
    // The stored level is the importer's output, metadata aside.
    assert_eq!(native_grids(&stdout(&imported)), native_grids(&stored));
    let shown = solver(&["show", "puzzles/klotski/ithaca.txt"], "");
    assert!(
        stdout(&shown).contains("19x19 board, 58 block(s)"),
        "{}",
        stdout(&shown)
    );
    // A short BFS run is not stuck: the outside blocks move.
    let run = solver(
        &[
            "solve",
            "puzzles/klotski/ithaca.txt",
            "--max-positions",
            "2000",
            "--json",
        ],
        "",
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let json: serde_json::Value = serde_json::from_str(stdout(&run).trim()).unwrap();
    assert_eq!(json["status"], "limit_reached", "{json}");
    assert!(json["positions_stored"].as_u64().unwrap() > 2000, "{json}");
    // First steps outside the frame: 'j' (3x4, bottom left) down one row,
    // then 'g' (3x9) after it. Outside blocks pass through outside cells.
    let grids = native_grids(&stored);
    let (header, start) = (&grids[0], &grids[1]);
    let mut goal: Vec<Vec<char>> = start
        .iter()
        .map(|row| {
            row.chars()
                .map(|c| if "#-".contains(c) { c } else { '.' })
                .collect()
        })
        .collect();
    for (r, row) in goal.iter_mut().enumerate().skip(5).take(13) {
        row[..3].copy_from_slice(&[if r < 14 { 'g' } else { 'j' }; 3]);
    }
    let goal: Vec<String> = goal.into_iter().map(String::from_iter).collect();
    let text = [
        "!",
        &header.join("\n"),
        "!",
        &start.join("\n"),
        "!",
        &goal.join("\n"),
        "!",
    ]
    .join("\n");
    let file = temp_file("ithaca", "first_steps.txt", text.as_bytes());
    let file = file.to_str().unwrap();
    let sol = file.replace(".txt", ".sol");
    let solved = solver(&["solve", file, "--solution", &sol, "--json"], "");
    assert_eq!(solved.status.code(), Some(0), "{}", stderr(&solved));
    let json: serde_json::Value = serde_json::from_str(stdout(&solved).trim()).unwrap();
    assert_eq!(json["steps"], 2, "{json}");
    let verified = solver(&["verify", file, &sol], "");
    assert_eq!(verified.status.code(), Some(0), "{}", stderr(&verified));
}

#[test]
fn the_old_format_is_detected_without_from() {
    let file = temp_file(
        "legacy",
        "old.txt",
        b"######\n#a@@b#\n#a@@b#\n#c  d#\n######\n\n######\n#    #\n# @@ #\n# @@ #\n######\n",
    );
    let shown = solver(&["show", file.to_str().unwrap()], "");
    assert_eq!(shown.status.code(), Some(0), "{}", stderr(&shown));
    assert!(
        stdout(&shown).contains("5 block(s) of 3 type(s)"),
        "{}",
        stdout(&shown)
    );
}

/// A 2x2 master, a vertical slider and a door: the fixture the solver's
/// own parser and verifier tests read too.
const SMALL: &str = include_str!("../../solver/tests/common/small.txt");

#[test]
fn verify_accepts_a_correct_solution() {
    let puzzle = temp_file("verify-ok", "small.txt", SMALL.as_bytes());
    let sol = temp_file(
        "verify-ok",
        "small.sol",
        b"% a hand-written solution\na 3,1 R\na 3,2 R\n\n@ 1,1 DD\n",
    );
    let out = solver(
        &["verify", puzzle.to_str().unwrap(), sol.to_str().unwrap()],
        "",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(
        stdout(&out).starts_with("valid: 4 steps, 2 moves"),
        "{}",
        stdout(&out)
    );
    let json = solver(
        &["verify", puzzle.to_str().unwrap(), "-", "--json"],
        "a 3,1 RR\n@ 1,1 DD\n",
    );
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["valid"], true);
    assert_eq!(v["steps"], 4);
    assert_eq!(v["moves"], 2);
}

#[test]
fn verify_rejects_an_illegal_move_naming_it() {
    let puzzle = temp_file("verify-bad", "small.txt", SMALL.as_bytes());
    let sol = temp_file("verify-bad", "small.sol", b"a 3,1 R\n% then\n@ 1,1 D\n");
    let out = solver(
        &["verify", puzzle.to_str().unwrap(), sol.to_str().unwrap()],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out).trim(),
        "invalid: move 2 (line 3, `@ 1,1 D`): step 1 (D) is blocked: \
         cell 3,2 is occupied by block 'a'"
    );
    // A legal sequence that stops short of the goal is not a solution either.
    let short = solver(&["verify", puzzle.to_str().unwrap(), "-"], "a 3,1 R\n");
    assert_eq!(short.status.code(), Some(1));
    assert!(stdout(&short).contains("end before reaching the goal"));
    // A malformed solution is bad input.
    let bad = solver(&["verify", puzzle.to_str().unwrap(), "-"], "a 3;1 R\n");
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("-:1:"), "{}", stderr(&bad));
}

/// Every malformed input: exit 2, nothing on stdout, one line on stderr that
/// names the file, line and column.
fn rejects(test: &str, format: Option<&str>, contents: &[u8], at: &str, what: &str) {
    let file = temp_file(test, "input.txt", contents);
    let path = file.to_str().unwrap();
    let mut args = vec!["show", path];
    if let Some(f) = format {
        args.extend(["--from", f]);
    }
    let out = solver(&args, "");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{test}: {err}");
    assert!(out.stdout.is_empty(), "{test}: partial output");
    assert_eq!(err.lines().count(), 1, "{test}: {err}");
    // `at` is line:column; 0 stands for none, which the message leaves out
    // (a whole file: the path alone; a whole line: path:line).
    let place = match at.split_once(':') {
        Some(("0", _)) => path.to_string(),
        Some((line, "0")) => format!("{path}:{line}"),
        _ => format!("{path}:{at}"),
    };
    assert!(
        err.starts_with(&format!("error: {place}: ")),
        "{test}: expected {place}: in {err}"
    );
    assert!(err.contains(what), "{test}: expected '{what}' in {err}");
    assert!(!err.contains("panicked"), "{test}: {err}");
}

/// Malformed puzzles in the native format (the default `--from`).
#[test]
fn malformed_native_inputs_exit_2_with_one_located_message() {
    let small = |from: &str, to: &str| SMALL.replacen(from, to, 1).into_bytes();
    rejects(
        "unknown",
        None,
        &small("#a  #", "#a ?#"),
        "10:4",
        "unknown character",
    );
    rejects(
        "ragged",
        None,
        &small("#a  #", "#a #"),
        "10:5",
        "ragged rows",
    );
    rejects(
        "twice",
        None,
        &small("a\n!", "a\na 0,1\n!"),
        "6:1",
        "defined twice",
    );
    rejects(
        "shape",
        None,
        &small("#@@v#\n#a", "#@@ #\n#a"),
        "8:4",
        "do not form the shape",
    );
    rejects(
        "no-master",
        None,
        &small("#@@v#\n#@@v#", "#  v#\n#  v#"),
        "17:2",
        "no master",
    );
    rejects(
        "two-masters-in-the-goal",
        None,
        b"!\n@\na\n!\n#####\n#@ a#\n#   #\n#####\n!\n#####\n#@ @#\n#   #\n#####\n!\n",
        "11:4",
        "the goal places the master '@' 2 times; there is one master",
    );
    rejects(
        "unknown-goal-block",
        None,
        &small("#@@ #\n#-###", "#@@z#\n#-###"),
        "18:4",
        "'z'",
    );
    rejects(
        "slider",
        None,
        b"!\n@\nh = 1,0\n!\n#####\n#@ ##\n#hh##\n#####\n!\n",
        "3:1",
        "can never slide",
    );
    rejects("empty", None, b"", "0:0", "empty file");
    let wide = format!("!\n@\n!\n@{}\n!\n", ".".repeat(128));
    rejects(
        "too-large",
        None,
        wide.as_bytes(),
        "4:1",
        "larger than supported",
    );
    rejects("not-utf8", None, b"!\n@\n!\n#\xff#\n!\n", "4:2", "UTF-8");
}

/// Malformed inputs in the other formats (`--from`: Rush Hour, tiles,
/// Klotski, legacy).
#[test]
fn malformed_other_formats_exit_2_with_one_located_message() {
    rejects("blank", Some("rush"), b"\n  \n", "0:0", "empty file");
    rejects(
        "rush-line",
        Some("rush"),
        b"1 ooooooooooooAAoooooooooooooooooooooo 2\n5 ooooooooooooAAoBooooooBooooooooooooo 9\n",
        "2:18",
        "vehicle 'B'",
    );
    rejects(
        "rush-length",
        Some("rush"),
        b"ooooooooooooAAooooooooooooooooooooooooo\n",
        "1:1",
        "square",
    );
    rejects(
        "tile-twice",
        Some("tiles"),
        b"1 2 3 4 5 6 7 8 0\n1 2 3 4 5 6 7 1 0\n",
        "2:15",
        "tile 1 appears twice",
    );
    rejects(
        "klotski-target",
        Some("klotski"),
        b"#####\n#*..#\n#####\n",
        "2:3",
        "target cells",
    );
    rejects(
        "legacy-goal",
        Some("legacy"),
        b"####\n#a #\n####\n\n####\n# @#\n####\n",
        "6:3",
        "no master",
    );
}

/// Issue 12: solving or verifying a puzzle without a goal section said so
/// without a line or column. It is bad input there, located where the goal
/// grid would go; showing and counting it still work.
#[test]
fn a_puzzle_without_a_goal_section_cannot_be_searched() {
    let cases = [
        ("legacy.txt", "####\n#@ #\n####\n", "4:1"),
        ("native.txt", "!\n@\n!\n#@ #\n!\n", "5:1"),
    ];
    for (name, text, at) in cases {
        let file = temp_file("no-goal", name, text.as_bytes());
        let path = file.to_str().unwrap();
        let count = solver(&["count", path], "");
        assert_eq!(count.status.code(), Some(0), "{name}: {}", stderr(&count));
        assert!(
            stdout(&count).contains(": 2 reachable positions"),
            "{name}: {}",
            stdout(&count)
        );
        for args in [vec!["solve", path], vec!["verify", path, "-"]] {
            let out = solver(&args, "");
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{name} {args:?}: {err}");
            assert!(out.stdout.is_empty(), "{name} {args:?}");
            assert!(
                err.starts_with(&format!(
                    "error: {path}:{at}: the puzzle has no goal section"
                )),
                "{name} {args:?}: {err}"
            );
        }
    }
}

/// Issue 12: an invisible character was described as "character character U+0000".
#[test]
fn an_invisible_character_is_named_once() {
    rejects(
        "nul",
        None,
        &SMALL.replacen("#a  #", "#a \0#", 1).into_bytes(),
        "10:4",
        "unknown character U+0000: not a wall",
    );
}

/// An endless input (here `/dev/zero`) as a puzzle or as a solution ends in
/// one clear error, exit 2, at a fixed size, instead of filling memory.
#[cfg(target_os = "linux")]
#[test]
fn an_endless_input_is_refused_at_a_fixed_size() {
    for args in [
        vec!["show", "/dev/zero"],
        vec!["verify", "puzzles/klotski/classic.txt", "/dev/zero"],
    ] {
        let out = solver(&args, "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("/dev/zero: the file holds more than 268435456 bytes"),
            "{args:?}: {err}"
        );
    }
}
