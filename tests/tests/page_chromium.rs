//! The page of `solver render PUZZLE -o PAGE.html` played as a person plays
//! it, in headless Chromium with the solver compiled to WebAssembly inside:
//! `tests/browser/play.mjs` (playwright-core driving the system's Chromium)
//! drags a block one cell with the mouse, asks for a hint, then asks for
//! hints until the goal. The moves the page made are then replayed by
//! `solver verify`, and their number checked against the puzzle's optimum:
//! the drag is one move and every hint is the first move of a shortest
//! solution from where the page stood, so the whole is at most one move
//! longer than the optimum. The page's console must stay free of errors.
//! Screenshots at the start, after the first hint and at the goal are kept
//! in `target/test-artifacts/page-*.png`.
//!
//! Needs Chromium, Node.js with `tests/browser/node_modules` (npm install
//! there) and the module (`cargo build --profile web -p sbp-web --target
//! wasm32-unknown-unknown`); `.ci/install-test-deps` provides all three.
//! Without one of them the test says so and is skipped.

use std::path::{Path, PathBuf};
use std::process::Command;

use end_to_end::{artifacts_dir, run_solver, workspace_root};
use serde_json::Value;

/// What is missing for the test to run, if anything; else the module.
fn prerequisites() -> Result<PathBuf, String> {
    let chromium = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if !chromium.is_file() {
        return Err(format!("no Chromium at {}", chromium.display()));
    }
    let node_ok = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !node_ok {
        return Err("no Node.js (node) on PATH".into());
    }
    let driver = workspace_root().join("tests/browser/node_modules/playwright-core");
    if !driver.is_dir() {
        return Err("no playwright-core in tests/browser/node_modules (npm install there)".into());
    }
    let target = artifacts_dir()
        .parent()
        .expect("artifacts live in target/")
        .to_path_buf();
    let module = target.join("wasm32-unknown-unknown/web/sbp_web.wasm");
    if !module.is_file() {
        return Err(format!("no WebAssembly module at {}", module.display()));
    }
    Ok(module)
}

/// The sources the module was built from that changed after it: the
/// files cargo's dep-info beside it lists (`sbp_web.d`), so that a change
/// to code the browser build leaves out (the command line) does not count.
fn changed_since_built(module: &Path) -> Vec<String> {
    let built = module.metadata().and_then(|m| m.modified()).unwrap();
    let info = std::fs::read_to_string(module.with_extension("d")).unwrap_or_default();
    let sources = info.split_once(": ").map_or("", |(_, deps)| deps);
    sources
        .split_whitespace()
        .filter(|f| {
            let time = std::fs::metadata(f).and_then(|m| m.modified());
            time.map_or(true, |t| t > built)
        })
        .map(str::to_string)
        .collect()
}

/// Plays `puzzle`'s page; returns the driver's report.
fn play(module: &Path, puzzle: &str, name: &str) -> Value {
    let dir = artifacts_dir();
    let page = dir.join(format!("page-{name}.html"));
    let out = run_solver(&[
        "render",
        puzzle,
        "-o",
        page.to_str().unwrap(),
        "--web-module",
        module.to_str().unwrap(),
    ]);
    end_to_end::assert_success(&out, "solver render");
    let out = Command::new("node")
        .arg(workspace_root().join("tests/browser/play.mjs"))
        .arg(&page)
        .arg(&dir)
        .arg(format!("page-{name}"))
        .output()
        .expect("node runs");
    end_to_end::assert_success(&out, "the browser driver");
    serde_json::from_slice(&out.stdout).expect("the driver prints one JSON line")
}

/// The page's moves replayed by the verifier: its JSON summary.
fn verified(puzzle: &str, moves: &str, name: &str) -> Value {
    let file = artifacts_dir().join(format!("page-{name}.sol"));
    std::fs::write(&file, moves).unwrap();
    let out = run_solver(&["verify", puzzle, file.to_str().unwrap(), "--json"]);
    end_to_end::assert_success(&out, "solver verify of the page's moves");
    serde_json::from_slice(&out.stdout).unwrap()
}

fn plays_to_the_goal_with_hints(puzzle: &str, name: &str, optimum: u64) {
    let module = match prerequisites() {
        Ok(m) => m,
        Err(why) => {
            eprintln!(
                "SKIPPED the page test for {name}: {why} (.ci/install-test-deps installs what it needs)"
            );
            return;
        }
    };
    let changed = changed_since_built(&module);
    assert!(
        changed.is_empty(),
        "{} is older than {changed:?}: build it again with \
         `cargo build --profile web -p sbp-web --target wasm32-unknown-unknown`",
        module.display()
    );
    let report = play(&module, puzzle, name);
    assert_eq!(
        report["errors"],
        serde_json::json!([]),
        "console errors: {report}"
    );
    assert_eq!(
        report["dragged"], true,
        "a block moved by the mouse: {report}"
    );
    assert_eq!(report["after_drag"], 1, "one drag, one step: {report}");
    assert_eq!(report["first_hint_moved"], true, "{report}");
    assert!(
        report["first_hint_status"]
            .as_str()
            .unwrap()
            .contains("to the goal"),
        "the hint says how far the goal is: {report}"
    );
    assert_eq!(
        report["solved"], true,
        "the hints reached the goal: {report}"
    );
    let check = verified(puzzle, report["moves"].as_str().unwrap(), name);
    assert_eq!(check["valid"], true, "{check}");
    let moves = check["moves"].as_u64().unwrap();
    assert_eq!(
        report["moves_count"].as_u64(),
        Some(moves),
        "the page's counter: {report}"
    );
    assert!(
        (optimum..=optimum + 1).contains(&moves),
        "{moves} moves: the drag, then shortest solutions ({optimum} from the start)"
    );
    // The editor painted a wall, then a block of a new letter, which the
    // page declared; its text is a puzzle the solver reads.
    assert_eq!(
        report["walls_after"].as_u64(),
        report["walls_before"].as_u64().map(|w| w + 1),
        "{report}"
    );
    assert_eq!(report["new_blocks"], 1, "{report}");
    assert_eq!(report["edit_error"], "", "{report}");
    let edited = artifacts_dir().join(format!("page-{name}-edited.txt"));
    std::fs::write(&edited, report["edited_text"].as_str().unwrap()).unwrap();
    let out = run_solver(&["show", edited.to_str().unwrap()]);
    end_to_end::assert_success(&out, "solver show of the edited puzzle");
    for shot in report["screenshots"].as_array().unwrap() {
        let png = std::fs::read(shot.as_str().unwrap()).expect("the screenshot was written");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        eprintln!("screenshot: {}", shot.as_str().unwrap());
    }
}

#[test]
fn classic_klotski_is_played_to_the_goal_with_hints_in_chromium() {
    plays_to_the_goal_with_hints("puzzles/klotski/classic.txt", "classic", 81);
}

#[test]
fn a_rush_hour_board_is_played_to_the_goal_with_hints_in_chromium() {
    plays_to_the_goal_with_hints("puzzles/rushhour/rush_40.txt", "rush", 40);
}
