//! The README's hand commands ("Using the solver by hand") run as written
//! from the repository root: each line of the section's shell blocks is run
//! with `sh -c` (so `&&` chains and `|` pipes work) and `S` set to the solver
//! built for this test run. A line must exit 0 (or the code its comment
//! names as `(exit N)`), every figure its comment states (`116 steps`,
//! `25,955 reachable positions`, `72 -> 34 steps`, ...) must be in what it
//! prints on standard output, and no line may write into the checkout: every
//! file it writes is under `/tmp/` (the test moves `/tmp/` to a folder of its
//! own, so runs side by side do not share files).

use std::process::{Command, Stdio};
use std::time::Instant;

use end_to_end::{solver_bin, workspace_root};

/// The section whose shell blocks are the hand commands.
const SECTION: &str = "## Using the solver by hand";

/// The flags whose value is a file a command writes.
const OUTPUT_FLAGS: &[&str] = &[
    "-o",
    "--output",
    "--solution",
    "--render",
    "--best-out",
    "--moves-out",
];

/// The words after a number that make it a figure the output must show.
const UNITS: &[&str] = &[
    "steps",
    "moves",
    "positions",
    "states",
    "abstract",
    "reachable",
];

/// The lines of the shell blocks in the hand-command section, in order.
fn hand_lines(readme: &str) -> Vec<String> {
    let start = readme
        .find(SECTION)
        .unwrap_or_else(|| panic!("README.md has no section {SECTION:?}"));
    let rest = &readme[start + SECTION.len()..];
    let section = match rest.find("\n## ") {
        Some(end) => &rest[..end],
        None => rest,
    };
    let mut lines = Vec::new();
    let mut in_block = false;
    for line in section.lines() {
        let trimmed = line.trim_end();
        if trimmed.starts_with("```") {
            in_block = !in_block && trimmed == "```sh";
            continue;
        }
        if in_block && !trimmed.trim().is_empty() {
            lines.push(trimmed.to_string());
        }
    }
    assert!(!in_block, "an unclosed shell block in {SECTION:?}");
    lines
}

/// Splits a line into the command and its trailing `# comment` (a `#` after
/// white space, outside quotes).
fn split_comment(line: &str) -> (&str, &str) {
    let (mut single, mut double) = (false, false);
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && previous.is_whitespace() => {
                return (line[..i].trim_end(), line[i + 1..].trim());
            }
            _ => {}
        }
        previous = c;
    }
    (line.trim_end(), "")
}

/// The whole numbers in `text`, commas between digit groups removed, each
/// with the text after it.
fn numbers(text: &str) -> Vec<(String, &str)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts = bytes[i].is_ascii_digit()
            && (i == 0
                || !(bytes[i - 1].is_ascii_alphanumeric() || b"_.,-".contains(&bytes[i - 1])));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        let mut digits = String::new();
        loop {
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                digits.push(bytes[j] as char);
                j += 1;
            }
            // A comma followed by exactly three digits continues the number.
            let group = j + 4 <= bytes.len()
                && bytes[j] == b','
                && bytes[j + 1..j + 4].iter().all(u8::is_ascii_digit)
                && bytes.get(j + 4).is_none_or(|b| !b.is_ascii_digit());
            if group {
                j += 1;
            } else {
                break;
            }
        }
        let fraction = j + 1 < bytes.len() && bytes[j] == b'.' && bytes[j + 1].is_ascii_digit();
        let glued = j < bytes.len() && (bytes[j].is_ascii_alphabetic() || bytes[j] == b'_');
        if !fraction && !glued {
            found.push((digits, &text[j..]));
        }
        while j < bytes.len() && (bytes[j].is_ascii_digit() || bytes[j] == b'.') {
            j += 1;
        }
        i = j;
    }
    found
}

/// The figures a comment states: numbers followed by a unit (`116 steps`,
/// `25,955 reachable positions`) or by `->` (`72 -> 34 steps`). Times and
/// sizes are not figures: they vary with the machine.
fn figures(comment: &str) -> Vec<String> {
    numbers(comment)
        .into_iter()
        .filter(|(_, after)| {
            let after = after.trim_start();
            after.starts_with("->")
                || UNITS.iter().any(|unit| {
                    after.starts_with(unit)
                        && after[unit.len()..]
                            .chars()
                            .next()
                            .is_none_or(|c| !c.is_alphanumeric())
                })
        })
        .map(|(n, _)| n)
        .collect()
}

/// The exit code a comment names as `(exit N)`, else 0.
fn expected_exit(comment: &str) -> i32 {
    comment
        .split("(exit ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .map(|n| n.trim().parse().expect("`(exit N)` names a number"))
        .unwrap_or(0)
}

/// The files a command line writes: the values of the output flags and of
/// `>` redirections.
fn written_files(command: &str) -> Vec<String> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let mut files = Vec::new();
    for (i, word) in words.iter().enumerate() {
        if let Some(file) = word.strip_prefix('>').filter(|f| !f.is_empty()) {
            files.push(file.trim_start_matches('>').to_string());
        }
        if OUTPUT_FLAGS.contains(word) || *word == ">" || *word == ">>" {
            if let Some(value) = words.get(i + 1) {
                files.push(value.to_string());
            }
        }
        if let Some((flag, value)) = word.split_once('=') {
            if OUTPUT_FLAGS.contains(&flag) {
                files.push(value.to_string());
            }
        }
    }
    files
}

/// Whether `number` (digits only) appears in `output` as a whole number,
/// with or without thousands separators.
fn shows_number(output: &str, number: &str) -> bool {
    numbers(output).iter().any(|(n, _)| n == number)
}

#[test]
fn comments_are_parsed() {
    assert_eq!(
        split_comment("$S count x.txt   # 25,955 reachable positions"),
        ("$S count x.txt", "25,955 reachable positions")
    );
    assert_eq!(
        split_comment("echo '# not a comment' | $S show -"),
        ("echo '# not a comment' | $S show -", "")
    );
    assert_eq!(figures("25,955 reachable positions"), ["25955"]);
    assert_eq!(
        figures("shorten: 72 -> 34 steps, the optimum"),
        ["72", "34"]
    );
    assert_eq!(
        figures("322 steps from 200 abstract states in 0.01 s, 1.5 s, 2 GiB, korf_01"),
        ["322", "200"]
    );
    assert_eq!(figures("39 moves in 1 to 1.5 s"), ["39"]);
    assert_eq!(expected_exit("stopped by the limit (exit 1)"), 1);
    assert_eq!(expected_exit("116 steps"), 0);
    assert_eq!(
        written_files("$S solve a --solution /tmp/k.sol && $S improve a b -o short.sol"),
        ["/tmp/k.sol", "short.sol"]
    );
    assert!(shows_number("25955 reachable positions", "25955"));
    assert!(shows_number("25,955 reachable positions", "25955"));
    assert!(!shows_number("125955 reachable positions", "25955"));
}

#[test]
fn readme_hand_commands_run_as_written() {
    let root = workspace_root();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md is readable");
    let lines = hand_lines(&readme);
    assert!(
        lines.len() >= 10,
        "too few hand commands found in {SECTION:?}: {lines:?}"
    );
    let solver = solver_bin();
    let scratch = std::env::temp_dir().join(format!("readme-cli-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let scratch_prefix = format!("{}/", scratch.display());

    let mut problems = Vec::new();
    let mut ran = 0;
    let all = Instant::now();
    for line in &lines {
        let (command, comment) = split_comment(line);
        if let Some(value) = command.strip_prefix("S=") {
            assert_eq!(
                value, "./target/release/solver",
                "the README defines S as the release solver"
            );
            continue;
        }
        assert!(
            command.contains("$S "),
            "a hand command that does not run the solver: {line}"
        );
        let outside: Vec<String> = written_files(command)
            .into_iter()
            .filter(|file| !file.starts_with("/tmp/") && file != "-")
            .collect();
        if !outside.is_empty() {
            // Not run: it would write into the checkout.
            problems.push(format!(
                "writes {outside:?} outside /tmp/ (not run): {line}"
            ));
            continue;
        }
        let run = command.replace("/tmp/", &scratch_prefix);
        let started = Instant::now();
        let out = Command::new("sh")
            .arg("-c")
            .arg(&run)
            .env("S", &solver)
            .current_dir(&root)
            .stdin(Stdio::null())
            .output()
            .expect("sh runs");
        let seconds = started.elapsed().as_secs_f64();
        eprintln!("{seconds:6.2} s  {command}");
        ran += 1;
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let expected = expected_exit(comment);
        if out.status.code() != Some(expected) {
            problems.push(format!(
                "{command}\n  exit {:?}, expected {expected}\n  stderr: {}",
                out.status.code(),
                stderr.trim()
            ));
            continue;
        }
        for figure in figures(comment) {
            if !shows_number(&stdout, &figure) {
                problems.push(format!(
                    "{command}\n  the comment states {figure} ({comment:?}), the output does not show it:\n{}",
                    stdout.lines().take(12).collect::<Vec<_>>().join("\n")
                ));
            }
        }
    }
    eprintln!(
        "{ran} hand commands in {:.1} s",
        all.elapsed().as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        problems.is_empty(),
        "README hand commands:\n{}",
        problems.join("\n\n")
    );
    assert!(ran >= 10, "only {ran} hand commands ran");
}
