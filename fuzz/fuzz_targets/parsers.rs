//! Feeds arbitrary UTF-8 to every puzzle format and to the solution parser
//! and verifier. Properties checked besides "never panics":
//! - every puzzle a parser accepts writes back as native text that parses to
//!   the same puzzle;
//! - `verify::replay` of any parsed solution, against the fixed puzzles below
//!   and against whatever the input itself parses to, never panics.
//!
//! Input layout: the first byte picks the `--width`/`--blank-last` options;
//! the rest is the text. The solution part is the text after the last `~`
//! (or all of it).
#![no_main]

use libfuzzer_sys::fuzz_target;
use solver::formats::{self, native, Format, ImportOptions};
use solver::model::Puzzle;
use solver::{solution, verify};
use std::sync::OnceLock;

fn fixed() -> &'static [Puzzle] {
    static PUZZLES: OnceLock<Vec<Puzzle>> = OnceLock::new();
    PUZZLES.get_or_init(|| {
        FIXED
            .iter()
            .map(|f| native::parse(f, "fixed").expect("fixed puzzles parse"))
            .collect()
    })
}

const FIXED: &[&str] = &[
    "!\n@ 1,0 0,1 1,1\nv | 0,1\na\n!\n#####\n#@@v#\n#@@v#\n#a  #\n#   #\n#-###\n!\n#####\n#   #\n#   #\n#@@ #\n#@@ #\n#-###\n!\n",
    "!\n@\nh = 1,0\n!\n#####\n#@  #\n#hh #\n#####\n!\n#####\n# @ #\n#   #\n#####\n!\n#####\n#@  #\n#   #\n#####\n!\n",
];

fn check_round_trip(puzzles: &[Puzzle]) {
    let text = native::write_collection(puzzles);
    let back = native::parse_collection(&text, "written", &ImportOptions::default())
        .unwrap_or_else(|e| panic!("written text does not parse: {e}\n{text}"));
    assert_eq!(back, puzzles, "round trip changed the puzzles:\n{text}");
}

fuzz_target!(|data: &[u8]| {
    let Some((&opt, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let options = ImportOptions {
        width: match opt & 7 {
            0..=3 => None,
            w => Some(w as usize - 3),
        },
        blank_last: opt & 8 != 0,
        need_goal: opt & 16 != 0,
    };
    let solution_text = text.rsplit('~').next().unwrap_or(text);
    let moves = solution::parse(solution_text, "sol").ok();
    let mut puzzles = Vec::new();
    for format in [
        None,
        Some(Format::Native),
        Some(Format::Legacy),
        Some(Format::Rush),
        Some(Format::Tiles),
        Some(Format::Klotski),
    ] {
        if let Ok(ps) = formats::parse_text(text, "fuzz", format, &options) {
            check_round_trip(&ps);
            puzzles.extend(ps);
        }
    }
    if let Some(moves) = moves {
        for p in fixed() {
            let _ = verify::replay(p, &moves);
        }
        for p in puzzles.iter().take(4) {
            let _ = verify::replay(p, &moves);
        }
    }
});
