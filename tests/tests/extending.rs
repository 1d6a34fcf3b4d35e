//! docs/extending.md's worked examples: the heuristic `goal-clear`, with an
//! option of its own, and the pruning `goal-radius` are each one file and one
//! registration line, and through them alone they appear in the solver's
//! command line, its JSON result, the docs' range table, `solver heuristics
//! --json` / `solver prunings --json` and the reasoner's parameter space.

use std::path::Path;

use end_to_end::{run_solver, solver_bin, workspace_root};
use reasoner::params::{Algorithm, Heuristic, ParamSet, Value as ReasonerValue};
use reasoner::plan::{Phase, Planner, SearchConfig};
use reasoner::runner::Runner;
use reasoner::space::Space;
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
    let file = std::fs::read_to_string(root.join("solver/src/heuristics/goal_clear.rs")).unwrap();
    assert_eq!(
        first_rust_block(&page),
        file,
        "docs/extending.md must show goal_clear.rs as it is"
    );
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
        mentions_of(&root.join(dir), &["goal_clear", "goal-clear"], &mut found);
    }
    let outside: Vec<&String> = found
        .iter()
        .filter(|m| !m.contains("heuristics/goal_clear.rs: "))
        .collect();
    let registry = root
        .join("solver/src/heuristics/mod.rs")
        .display()
        .to_string();
    // `mod goal_clear;` and the REGISTRY line holding `goal_clear::SPEC`.
    let registration = |m: &&String| {
        m.starts_with(&format!("{registry}: "))
            && (m.ends_with("mod goal_clear;") || m.contains("goal_clear::SPEC"))
    };
    assert!(
        outside.len() == 2 && outside.iter().all(registration),
        "goal-clear must be named only in its file and its registration: {outside:#?}"
    );
}

/// The values of `keys` in a declaration, as text.
fn fields(declaration: &Value, keys: &[&str]) -> Vec<String> {
    let text = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
    keys.iter().map(|k| text(&declaration[*k])).collect()
}

/// `solver solve` with these flags: exit code and JSON result.
fn solve(args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["solve", "puzzles/klotski/classic.txt", "--json", "--quiet"];
    all.extend(args);
    let out = run_solver(&all);
    let report = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code(), report)
}

#[test]
fn the_solver_lists_accepts_and_records_it_and_its_option() {
    let out = run_solver(&["heuristics", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let h = list
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["name"] == "goal-clear")
        .expect("solver heuristics lists goal-clear");
    assert_eq!(
        fields(&h["options"][0], &["flag", "json", "kind", "vary"]),
        ["goal-clear-weight", "goal_clear.weight", "reals", "log1p"]
    );
    // On classic Klotski A* with the default weight finds BFS's optimum
    // (goal-clear is inadmissible in general: it counts cells, not steps).
    let astar = ["--algorithm", "astar", "--heuristic", "goal-clear"];
    let (code, report) = solve(&astar);
    assert_eq!(code, Some(0));
    assert_eq!(report["params"]["heuristic"], "goal-clear");
    assert_eq!(
        report["params"]["goal_clear"]["weight"],
        serde_json::json!([1.0])
    );
    assert_eq!(report["steps"], 116);
    let (code, report) = solve(&[&astar[..], &["--goal-clear-weight", "2.5"]].concat());
    assert_eq!(code, Some(0));
    assert_eq!(
        report["params"]["goal_clear"]["weight"],
        serde_json::json!([2.5])
    );
    let (code, _) = solve(&[&astar[..], &["--goal-clear-weight", "-1"]].concat());
    assert_eq!(
        code,
        Some(2),
        "a weight outside its declared range is refused"
    );
    // The range table of the docs carries its flag and range.
    let search = std::fs::read_to_string(workspace_root().join("docs/search.md")).unwrap();
    assert!(search
        .contains("| `--goal-clear-weight` | solve, count, pdb | a number from 0 to 1000000 |"));
}

/// The solver's parameter space as the reasoner reads it.
fn space() -> Space {
    let runner = Runner::new(solver_bin()).unwrap();
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(runner.space(None))
        .unwrap()
}

/// Every set a planner over `space` draws from `case` in 60 attempts.
fn draws(space: Space, case: ParamSet) -> Vec<ParamSet> {
    let mut planner = Planner::new(
        7,
        SearchConfig::default(),
        vec![("case".into(), case)],
        60,
        4,
        2,
    )
    .with_space(space);
    let mut drawn = Vec::new();
    loop {
        let wave = planner.next_wave();
        if wave.is_empty() {
            return drawn;
        }
        let proximity = wave.into_iter().filter(|p| p.phase == Phase::Proximity);
        drawn.extend(proximity.map(|p| p.params));
    }
}

#[test]
fn the_reasoners_parameter_space_holds_it_and_varies_its_option() {
    let space = space();
    // The proximity search reaches goal-clear from an A* h0 case and varies
    // its weight on its declared scale; the sets pass it to the solver.
    let case = ParamSet {
        algorithm: Algorithm::Astar,
        weight: 3.0,
        ..ParamSet::default()
    };
    let drawn: Vec<ParamSet> = draws(space.clone(), case)
        .into_iter()
        .filter(|p| p.heuristic == Heuristic::from("goal-clear"))
        .collect();
    let weights: Vec<String> = drawn
        .iter()
        .filter_map(|p| p.settings.get("goal_clear_weight").map(|v| v.to_string()))
        .collect();
    assert!(weights.iter().any(|w| w == "1"), "{weights:?}");
    assert!(
        weights.iter().any(|w| w != "1"),
        "never varied: {weights:?}"
    );
    let args = drawn[0].solver_args().join(" ");
    assert!(args.contains("--goal-clear-weight"), "{args}");
    // Its distance: the weight on the log2(1 + x) scale, 1 -> 3 one unit.
    let with = |w: f64| {
        ParamSet {
            algorithm: Algorithm::Astar,
            heuristic: Heuristic::from("goal-clear"),
            ..ParamSet::default()
        }
        .with("goal_clear_weight", ReasonerValue::Reals(vec![w]))
    };
    assert!((space.distance(&with(1.0), &with(3.0)) - 1.0).abs() < 1e-12);
    assert!(space.validate(&with(-1.0)).is_err());
}

/// The example pruning reaches the reasoner's space through its
/// declaration: its setting is read, compared (a cutoff: one unit per step,
/// two to switch it), passed to the solver and learnt from; and declared
/// `proximity: true`, the proximity search varies it.
#[test]
fn the_reasoners_parameter_space_holds_the_example_pruning() {
    let space = space();
    let radius = |r: u64| ParamSet::default().with("goal_radius", ReasonerValue::Whole(r));
    assert_eq!(space.validate(&radius(4)), Ok(()));
    assert_eq!(space.distance(&radius(4), &radius(6)), 2.0);
    assert_eq!(space.distance(&radius(4), &ParamSet::default()), 2.0);
    let args = space.normalized(radius(4)).solver_args().join(" ");
    assert!(args.contains("--goal-radius 4"), "{args}");
    let mut bounds = reasoner::bounds::Bounds::new(space.prunings.clone());
    bounds.learn_no_solution(&radius(3));
    assert!(bounds.forbids(&radius(2)) && !bounds.forbids(&radius(4)));
    let mut varying = space.clone();
    for p in &mut varying.prunings {
        p.proximity |= p.json == "goal_radius";
    }
    let drawn = draws(varying, ParamSet::default());
    assert!(
        drawn
            .iter()
            .any(|p| p.settings.get("goal_radius").is_some()),
        "no draw set a goal radius"
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
        fields(radius, &["flag", "json", "kind", "directed"]),
        ["goal-radius", "goal_radius", "cutoff", "false"]
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

/// The reasoner's unit tests read the space from a saved copy of the
/// solver's lists: it must be the solver's.
#[test]
fn the_reasoners_test_fixture_is_the_solvers_space() {
    let path = workspace_root().join("reasoner/src/space_fixture.json");
    let saved: Space = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(
        saved,
        space(),
        "regenerate reasoner/src/space_fixture.json from `solver heuristics --json` and `solver prunings --json`"
    );
}
