//! docs/extending.md's worked examples: the heuristic `blind` and the pruning
//! `goal-radius` are each one file and one registration line, and through
//! them alone they appear in the solver's command line, its JSON result,
//! `solver heuristics --json` / `solver prunings --json` and (blind) the
//! reasoner's parameter space.

use std::path::Path;

use end_to_end::{run_solver, solver_bin, workspace_root};
use reasoner::params::{Algorithm, Heuristic, ParamSet};
use reasoner::plan::{Phase, Planner, SearchConfig};
use reasoner::runner::Runner;
use serde_json::Value;

/// The first ```rust block of the page.
fn first_rust_block(page: &str) -> &str {
    let start = page.find("```rust\n").expect("a rust block") + "```rust\n".len();
    let len = page[start..].find("```").expect("the block ends");
    &page[start..start + len]
}

#[test]
fn the_page_shows_the_file_as_compiled() {
    let root = workspace_root();
    let page = std::fs::read_to_string(root.join("docs/extending.md")).unwrap();
    let file = std::fs::read_to_string(root.join("solver/src/heuristics/blind.rs")).unwrap();
    assert_eq!(
        first_rust_block(&page),
        file,
        "docs/extending.md must show blind.rs as it is"
    );
}

/// Every line of the Rust sources that mentions `blind`, as `path: line`.
fn mentions(dir: &Path, out: &mut Vec<String>) {
    mentions_of(dir, &["blind"], out)
}

/// Every line of the Rust sources under `dir` that mentions one of `words`,
/// as `path: line`.
fn mentions_of(dir: &Path, words: &[&str], out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            mentions_of(&path, words, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for line in text.lines().filter(|l| words.iter().any(|w| l.contains(w))) {
                out.push(format!("{}: {}", path.display(), line.trim()));
            }
        }
    }
}

#[test]
fn nothing_but_its_file_and_its_registration_names_it() {
    let root = workspace_root();
    let mut found = Vec::new();
    for dir in ["solver/src", "solver/protocol/src", "reasoner/src"] {
        mentions(&root.join(dir), &mut found);
    }
    let outside: Vec<&String> = found
        .iter()
        .filter(|m| !m.contains("heuristics/blind.rs: "))
        .collect();
    let registry = root
        .join("solver/src/heuristics/mod.rs")
        .display()
        .to_string();
    // `mod blind;` and the REGISTRY line holding `blind::SPEC`.
    let registration = |m: &&String| {
        m.starts_with(&format!("{registry}: "))
            && (m.ends_with("mod blind;") || m.contains("blind::SPEC"))
    };
    assert!(
        outside.len() == 2 && outside.iter().all(registration),
        "blind must be named only in its file and its registration: {outside:#?}"
    );
}

#[test]
fn the_solver_lists_accepts_and_records_it() {
    let out = run_solver(&["heuristics", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let blind = list
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["name"] == "blind")
        .expect("solver heuristics lists blind");
    assert_eq!(blind["admissible"], true);
    let out = run_solver(&[
        "solve",
        "puzzles/klotski/classic.txt",
        "--algorithm",
        "astar",
        "--heuristic",
        "blind",
        "--json",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["params"]["heuristic"], "blind");
    // Admissible, so A* finds the optimum BFS finds: 116 steps.
    assert_eq!(report["steps"], 116);
}

#[test]
fn the_reasoners_parameter_space_holds_it() {
    let runner = Runner::new(solver_bin()).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let listed = runtime.block_on(runner.heuristics(None)).unwrap();
    let names: Vec<Heuristic> = listed.into_iter().map(|h| Heuristic::new(h.name)).collect();
    assert!(names.contains(&Heuristic::from("blind")), "{names:?}");
    // The proximity search, given the solver's list, reaches blind from an
    // A* h0 case.
    let case = ParamSet {
        algorithm: Algorithm::Astar,
        weight: 3.0,
        ..ParamSet::default()
    };
    let mut planner = Planner::new(
        7,
        SearchConfig::default(),
        vec![("case".into(), case)],
        40,
        4,
        2,
    )
    .with_heuristics(names);
    let mut drawn = Vec::new();
    loop {
        let wave = planner.next_wave();
        if wave.is_empty() {
            break;
        }
        drawn.extend(wave.into_iter().filter(|p| p.phase == Phase::Proximity));
    }
    assert!(
        drawn
            .iter()
            .any(|p| p.params.heuristic == Heuristic::from("blind")),
        "no proximity draw used blind: {:?}",
        drawn
            .iter()
            .map(|p| p.params.to_string())
            .collect::<Vec<_>>()
    );
}

/// The ```rust block that follows `heading` on the page.
fn rust_block_after<'a>(page: &'a str, heading: &str) -> &'a str {
    let at = page.find(heading).expect("the heading is on the page");
    first_rust_block(&page[at..])
}

#[test]
fn the_page_shows_the_example_pruning_as_compiled() {
    let root = workspace_root();
    let page = std::fs::read_to_string(root.join("docs/extending.md")).unwrap();
    let file = std::fs::read_to_string(root.join("solver/src/pruning/goal_radius.rs")).unwrap();
    assert_eq!(
        rust_block_after(&page, "### Worked example: `goal-radius`"),
        file,
        "docs/extending.md must show goal_radius.rs as it is"
    );
}

#[test]
fn nothing_but_its_file_and_its_registration_names_the_example_pruning() {
    let root = workspace_root();
    let mut found = Vec::new();
    for dir in ["solver/src", "solver/protocol/src", "reasoner/src"] {
        mentions_of(&root.join(dir), &["goal_radius", "goal-radius"], &mut found);
    }
    let outside: Vec<&String> = found
        .iter()
        .filter(|m| !m.contains("pruning/goal_radius.rs: "))
        .collect();
    let registry = root.join("solver/src/pruning/mod.rs").display().to_string();
    let registration = |m: &&String| {
        m.starts_with(&format!("{registry}: "))
            && (m.ends_with("mod goal_radius;") || m.contains("goal_radius::SPEC"))
    };
    assert!(
        outside.len() == 2 && outside.iter().all(registration),
        "goal-radius must be named only in its file and its registration: {outside:#?}"
    );
}

#[test]
fn the_solver_lists_takes_applies_and_records_the_example_pruning() {
    let out = run_solver(&["prunings", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let radius = list
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "goal-radius")
        .expect("solver prunings lists goal-radius");
    assert_eq!(
        (
            &radius["flag"],
            &radius["json"],
            &radius["kind"],
            &radius["directed"]
        ),
        (
            &Value::from("goal-radius"),
            &Value::from("goal_radius"),
            &Value::from("cutoff"),
            &Value::from(false)
        )
    );
    // Classic Klotski's master starts 3 cells from its goal and must step
    // away once: a radius of 3 leaves no solution, 4 the BFS optimum.
    let solve = |radius: &str| {
        let out = run_solver(&[
            "solve",
            "puzzles/klotski/classic.txt",
            "--goal-radius",
            radius,
            "--json",
            "--quiet",
        ]);
        let report: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        (out.status.code(), report)
    };
    let (code, tight) = solve("3");
    assert_eq!(
        (code, &tight["status"]),
        (Some(1), &Value::from("no_solution"))
    );
    assert_eq!(tight["params"]["goal_radius"], 3);
    assert!(
        tight["positions_examined"].as_u64().unwrap() < 23975,
        "{tight}"
    );
    let (code, loose) = solve("4");
    assert_eq!(code, Some(0));
    assert_eq!(
        (&loose["steps"], &loose["params"]["goal_radius"]),
        (&Value::from(116), &Value::from(4))
    );
    let (code, _) = solve("-1");
    assert_eq!(
        code,
        Some(2),
        "a radius outside its declared range is refused"
    );
}
