//! The `reasoner` binary's own smoke tests on the bundled seed case base.
//!
//! They also make `cargo test --workspace` build `target/<profile>/reasoner`
//! (Cargo builds a package's binaries for its integration tests), which the
//! end-to-end tests in the top-level `tests/` crate run.

use std::process::Command;

fn reasoner(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_reasoner"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("the reasoner binary runs")
}

#[test]
fn lists_every_case_of_the_seed_case_base() {
    let out = reasoner(&["casebase", "list", "casebase/seed.toml"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let cases = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../casebase/seed.toml"
    ))
    .unwrap()
    .lines()
    .filter(|l| l.trim() == "[[case]]")
    .count();
    assert_eq!(cases, 19);
    assert_eq!(text.lines().count(), cases + 1, "{text}");
    assert!(text.contains("Century (J. H. Conway)"), "{text}");
    assert!(text.ends_with(&format!("{cases} cases\n")), "{text}");
}

#[test]
fn a_missing_case_base_is_bad_input() {
    let out = reasoner(&["casebase", "list", "casebase/no-such-file.toml"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("casebase/no-such-file.toml"), "{err}");
}
