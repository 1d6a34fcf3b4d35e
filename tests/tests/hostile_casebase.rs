//! Hostile input for the case base (issue 44, item 9): a case base that
//! grows with use stays cheap. Loading one used to be quadratic in its
//! cases (1,000 cases 1.4 s, 4,000 cases 20.6 s, 50,000 not loaded in
//! 120 s), and `--retain` read it again under the lock.
//!
//! The bounds are generous (these are debug builds on a shared machine);
//! the quadratic code took minutes for the same work. The measured figures
//! of a release build are in `experiments/casebase-scale.md`.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

mod reasoner_common;
use reasoner_common::{json_of, s, Scratch};

/// Cases in the large case bases below: the quadratic load took over
/// 100 s for this many in a release build (4,000 took 20.6 s).
const CASES: usize = 10_000;

/// A case base of `n` cases: the seed case base's cases again and again,
/// each with its own name and puzzle hash (so each is another puzzle).
fn big_casebase(path: &Path, n: usize) -> BTreeSet<String> {
    let seed = std::fs::read_to_string(end_to_end::workspace_root().join("casebase/seed.toml"))
        .expect("casebase/seed.toml is readable");
    let cases: Vec<&str> = seed.split("[[case]]\n").skip(1).collect();
    let mut text = String::from("version = 2\n");
    let mut names = BTreeSet::new();
    for k in 0..n {
        let mut lines = cases[k % cases.len()].lines();
        let first = lines.next().expect("a case begins with its name");
        let base = first
            .strip_prefix("name = \"")
            .and_then(|r| r.strip_suffix('"'))
            .expect("the seed's cases begin with `name = \"...\"`");
        let name = format!("{base} #{k}");
        text.push_str(&format!("\n[[case]]\nname = \"{name}\"\n"));
        for line in lines {
            if line.starts_with("sha256 = ") {
                text.push_str(&format!("sha256 = \"{k:064x}\"\n"));
            } else {
                text.push_str(line);
                text.push('\n');
            }
        }
        names.insert(name);
    }
    std::fs::write(path, text).unwrap();
    names
}

fn reasoner(args: &[&str]) -> (Output, Duration) {
    let start = Instant::now();
    let out = Command::new(end_to_end::reasoner_bin())
        .args(args)
        .current_dir(end_to_end::workspace_root())
        .env("RUST_LOG", "warn")
        .output()
        .expect("the reasoner runs");
    (out, start.elapsed())
}

/// The names of the cases in the case base at `cb`, as the reasoner lists them.
fn names(cb: &Path) -> Vec<String> {
    let (out, _) = reasoner(&["casebase", "list", s(cb), "--json"]);
    end_to_end::assert_success(&out, "list");
    json_of(&out)["case"]
        .as_array()
        .expect("a list of cases")
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect()
}

/// Loading and retrieving from a 10,000-case case base takes seconds, not
/// the minutes of a load quadratic in the cases.
#[test]
fn a_large_case_base_loads_and_retrieves_in_seconds() {
    let dir = Scratch::new("big-load");
    let cb = dir.path("big.toml");
    let names = big_casebase(&cb, CASES);
    let (out, took) = reasoner(&["casebase", "list", s(&cb)]);
    end_to_end::assert_success(&out, "list");
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(listed.ends_with(&format!("{CASES} cases\n")), "{listed}");
    assert!(took < Duration::from_secs(40), "listing took {took:?}");

    let (out, took) = reasoner(&[
        "retrieve",
        "puzzles/quickstart.txt",
        "--casebase",
        s(&cb),
        "--json",
    ]);
    end_to_end::assert_success(&out, "retrieve");
    assert!(took < Duration::from_secs(40), "retrieving took {took:?}");
    let v = json_of(&out);
    let ranked = v["cases"].as_array().expect("the ranked cases");
    assert_eq!(ranked.len(), CASES, "every case is ranked");
    assert!(names.contains(ranked[0]["name"].as_str().unwrap()));
}

/// Retaining into a 10,000-case case base keeps every case and adds the
/// new one, in seconds; a second retain of the same puzzle keeps it.
#[test]
fn retaining_into_a_large_case_base_keeps_every_case() {
    let dir = Scratch::new("big-retain");
    let cb = dir.path("big.toml");
    let mut expected = big_casebase(&cb, CASES);
    let p = dir.path("quick.txt");
    std::fs::copy(
        end_to_end::workspace_root().join("puzzles/quickstart.txt"),
        &p,
    )
    .unwrap();
    let solve = ["solve", s(&p), "--casebase", s(&cb), "--retain", "--json"];
    let (out, took) = reasoner(&solve);
    end_to_end::assert_success(&out, "solve --retain");
    let v = json_of(&out);
    assert_eq!(v["retained"]["action"], "added", "{}", v["retained"]);
    assert!(
        took < Duration::from_secs(60),
        "solve --retain took {took:?}"
    );
    expected.insert(v["retained"]["case"].as_str().unwrap().to_string());
    let after: BTreeSet<String> = names(&cb).into_iter().collect();
    assert_eq!(after.len(), CASES + 1);
    assert_eq!(after, expected, "every case is kept, the new one added");

    let (out, _) = reasoner(&solve);
    end_to_end::assert_success(&out, "solve --retain again");
    assert_ne!(json_of(&out)["retained"]["action"], "added");
    assert_eq!(
        names(&cb).len(),
        CASES + 1,
        "the puzzle's case is not added twice"
    );
}
