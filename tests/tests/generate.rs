//! End-to-end tests of `solver generate`: the same seed gives the same
//! bytes, every written puzzle reads back and `solver solve` (which
//! verifies its answer) finds it at the length `% optimum` states, each
//! family draws its characteristic elements, and bad flags are refused.

use std::path::PathBuf;

use end_to_end::run_solver;
use serde_json::Value;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("generate-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs the solver, asserting exit 0; returns stdout.
fn ok(args: &[&str]) -> String {
    let out = run_solver(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The value of metadata `key` in each puzzle of a collection, in order.
fn meta(text: &str, key: &str) -> Vec<String> {
    let prefix = format!("% {key}: ");
    text.lines()
        .filter_map(|l| l.strip_prefix(&prefix).map(str::to_string))
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_bytes_and_another_seed_others() {
    let args = ["generate", "--family", "klotski", "--count", "3", "--seed"];
    let a = ok(&[&args[..], &["7"]].concat());
    let b = ok(&[&args[..], &["7"]].concat());
    let c = ok(&[&args[..], &["8"]].concat());
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_eq!(meta(&a, "family"), ["klotski"; 3]);
}

/// Every family's puzzles solve optimally (`--optimal`) at exactly their
/// `% optimum`, at least the asked length (`solver solve` replays each
/// answer before it reports it).
#[test]
fn every_puzzle_solves_at_its_stated_optimum() {
    for family in ["klotski", "gnome", "rush", "mixed", "tiles", "walls"] {
        let file = temp(&format!("{family}.txt"));
        let file = file.to_str().unwrap();
        let args = [
            "generate", "--family", family, "--seed", "3", "--count", "2",
        ];
        ok(&[&args[..], &["--min-length", "8", "-o", file]].concat());
        let text = std::fs::read_to_string(file).unwrap();
        let optima = meta(&text, "optimum");
        assert_eq!(optima.len(), 2, "{family}: {text}");
        let solved = ok(&["solve", file, "--json", "--optimal"]);
        let results: Vec<Value> = solved
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(results.len(), 2, "{family}: {solved}");
        for (r, optimum) in results.iter().zip(&optima) {
            let steps = r["steps"].as_u64().unwrap();
            assert_eq!(format!("{steps} steps"), *optimum, "{family}: {r}");
            assert!(steps >= 8, "{family}: {r}");
            assert_eq!(r["status"], "solved", "{family}: {r}");
        }
    }
}

#[test]
fn one_puzzle_regenerates_alone_from_its_seed() {
    let run = ok(&[
        "generate", "--family", "walls", "--seed", "5", "--count", "3",
    ]);
    let seeds = meta(&run, "seed");
    let third = run.split("%%\n").nth(2).unwrap();
    let again = ok(&["generate", "--family", "walls", "--seed", &seeds[2]]);
    // Only the name (run seed and index) differs.
    let body = |t: &str| t.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&again), body(third));
}

#[test]
fn families_draw_their_characteristic_elements() {
    let draw = |family: &str| {
        ok(&[
            "generate", "--family", family, "--seed", "2", "--count", "2",
        ])
    };
    // Doors beyond the frame in gnome; sliders (`=`/`|` in the header) in rush.
    assert!(draw("gnome").contains("--"), "gnome has no door");
    let rush = draw("rush");
    assert!(rush.contains("@ = 1,0") && rush.contains(" | "), "{rush}");
    // Tiles: every block its own type, and a goal that places every one of
    // them (the goal board holds the start board's cells, rearranged).
    let tiles = draw("tiles");
    let first = tiles.split("%%\n").next().unwrap();
    let sections: Vec<&str> = first.split("!\n").collect();
    let (header, start, goal) = (sections[1], sections[2], sections[3]);
    assert!(header.lines().count() >= 5, "{tiles}");
    assert!(!header.lines().any(|l| l.starts_with('o')), "{tiles}");
    let cells = |board: &str| {
        let mut c: Vec<char> = board.chars().filter(|c| !"# \n".contains(*c)).collect();
        c.sort_unstable();
        c
    };
    assert_eq!(cells(start), cells(goal), "{tiles}");
    assert_ne!(start, goal, "{tiles}");
    // Walls inside the frame: a row with a '#' between its ends.
    let walls = draw("walls");
    let inner_wall = walls
        .lines()
        .filter(|l| l.starts_with('#') && l.ends_with('#') && l.len() > 2)
        .any(|l| l[1..l.len() - 1].contains('#'));
    assert!(inner_wall, "{walls}");
}

#[test]
fn out_dir_writes_one_file_per_puzzle_and_hardest_keeps_the_longest() {
    let dir = temp("out");
    let d = dir.to_str().unwrap();
    let args = [
        "generate", "--family", "klotski", "--seed", "4", "--count", "2",
    ];
    ok(&[&args[..], &["--hardest", "6", "--out-dir", d]].concat());
    let mut names = end_to_end::names_in(&dir);
    names.sort();
    assert_eq!(names, ["klotski-4-0000.txt", "klotski-4-0001.txt"]);
    let lengths: Vec<u64> = names
        .iter()
        .map(|n| {
            let text = std::fs::read_to_string(dir.join(n)).unwrap();
            meta(&text, "optimum")[0]
                .trim_end_matches(" steps")
                .parse()
                .unwrap()
        })
        .collect();
    // The longest two of the same six draws: with --keep-unsolvable every
    // draw is kept, so these are the first six, those the check solved
    // with their optimum.
    let all = ok(&[
        "generate",
        "--family",
        "klotski",
        "--seed",
        "4",
        "--count",
        "6",
        "--keep-unsolvable",
    ]);
    let mut every: Vec<u64> = meta(&all, "optimum")
        .iter()
        .map(|o| o.trim_end_matches(" steps").parse().unwrap())
        .collect();
    every.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(lengths, every[..2]);
}

#[test]
fn bad_flags_are_refused() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--family", "nope", "--seed", "1"],
            "unknown family 'nope'",
        ),
        (
            &["--family", "klotski", "--seed", "1", "--width", "0"],
            "--width",
        ),
        (
            &[
                "--family", "klotski", "--seed", "1", "--width", "4", "--height", "5", "--spaces",
                "40",
            ],
            "--spaces 40",
        ),
        (
            &[
                "--family",
                "klotski",
                "--seed",
                "1",
                "--count",
                "3",
                "--hardest",
                "2",
            ],
            "--hardest 2",
        ),
        (
            &[
                "--family",
                "klotski",
                "--seed",
                "1",
                "--min-length",
                "100000",
                "--max-positions-check",
                "500",
            ],
            "could not generate 1 puzzles",
        ),
    ];
    for (args, said) in cases {
        let out = run_solver(&[&["generate"], *args].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
