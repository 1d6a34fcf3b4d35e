//! The JSON contract between the solver and the reasoner: the real solver's
//! `solve --json` output for every status it reports is checked field by
//! field against the table of `docs/json-result.md` (names, types, the
//! `params` and `limits` objects), and the reasoner's runner reads exactly
//! those outputs.

use std::collections::BTreeSet;

use end_to_end::{run_solver, workspace_root};
use reasoner::runner::{parse_solve_output, RunStatus};
use sbp_protocol::Setting;
use serde_json::Value;

/// One documented field: its name, its type column, its meaning column.
struct Field {
    name: String,
    ty: String,
    meaning: String,
}

/// The rows of the field table in docs/json-result.md. A row naming two
/// fields (`goals_reached`, `goals_total`) gives each its own type.
fn documented_fields() -> Vec<Field> {
    let page = std::fs::read_to_string(workspace_root().join("docs/json-result.md"))
        .expect("docs/json-result.md is readable");
    let mut fields = Vec::new();
    for line in page.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        assert_eq!(cells.len(), 3, "a field row has three cells: {line}");
        let names = backticked(cells[0]);
        let types: Vec<&str> = cells[1].split(", ").collect();
        for (i, name) in names.iter().enumerate() {
            let ty = match (types.len() == names.len(), cells[1]) {
                (true, _) => types[i].to_string(),
                (false, "integers") => "integer".to_string(),
                (false, t) => t.to_string(),
            };
            fields.push(Field {
                name: name.clone(),
                ty,
                meaning: cells[2].to_string(),
            });
        }
    }
    assert!(fields.len() > 15, "the field table was not found");
    fields
}

/// Every `name` in backticks, in order.
fn backticked(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

/// Whether `v` has the documented type (`"a"`, `"b"` lists the allowed strings).
fn has_type(v: &Value, ty: &str) -> bool {
    if ty.starts_with('`') {
        let allowed: Vec<String> = backticked(ty)
            .iter()
            .map(|s| s.trim_matches('"').to_string())
            .collect();
        return v.as_str().is_some_and(|s| allowed.iter().any(|a| a == s));
    }
    // A field that is left out when it has no value.
    let ty = ty.strip_suffix(", when known").unwrap_or(ty);
    let (base, nullable) = match ty.strip_suffix(" or null") {
        Some(b) => (b, true),
        None => (ty, false),
    };
    if v.is_null() {
        return nullable;
    }
    match base {
        "string" => v.is_string(),
        "integer" => v.is_u64(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "list of strings" => v.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
        other => panic!("docs/json-result.md has a type this test does not know: {other}"),
    }
}

/// Runs `solver solve` and checks its one line against the documented table.
fn checked_run(args: &[&str], expect_status: &str, with_solution: bool) -> String {
    let out = run_solver(args);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let json: Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("{args:?} printed no JSON ({e}): {stdout}"));
    assert_eq!(json["status"], expect_status, "{args:?}");
    let fields = documented_fields();
    let object = json.as_object().unwrap();
    let printed: BTreeSet<&str> = object.keys().map(String::as_str).collect();
    let mut expected: BTreeSet<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    if !with_solution {
        expected.remove("solution");
    }
    for f in &fields {
        if f.ty.ends_with(", when known") && !printed.contains(f.name.as_str()) {
            expected.remove(f.name.as_str());
        }
    }
    assert_eq!(
        printed, expected,
        "{args:?}: fields differ from docs/json-result.md"
    );
    for f in &fields {
        let Some(v) = object.get(&f.name) else {
            continue;
        };
        assert!(
            has_type(v, &f.ty),
            "{args:?}: `{}` = {v} is not {}",
            f.name,
            f.ty
        );
        if f.ty == "object" {
            // The meaning lists the object's fields in backticks (after the
            // colon when there is one); `params` adds one per registered pruning.
            let listed = &f.meaning[f.meaning.find(':').unwrap_or(0)..];
            let (listed, per_pruning) = match listed.split_once(PER_PRUNING) {
                Some((before, _)) => (before, true),
                None => (listed, false),
            };
            let mut documented: BTreeSet<String> = backticked(listed).into_iter().collect();
            if per_pruning {
                documented.extend(pruning_keys());
                documented.extend(option_keys());
            }
            let keys: BTreeSet<String> = v.as_object().unwrap().keys().cloned().collect();
            assert_eq!(keys, documented, "{args:?}: fields of `{}`", f.name);
        }
    }
    stdout
}

const CLASSIC: &str = "puzzles/klotski/classic.txt";

/// How docs/json-result.md says that `params` holds a key per pruning.
const PER_PRUNING: &str = "and one key per registered pruning";

/// The keys of `params` the recorded options of the heuristics `solver
/// heuristics --json` lists make: a `json` name, or the group of `group.name`.
fn option_keys() -> Vec<String> {
    let out = end_to_end::run_solver(&["heuristics", "--json"]);
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let options = list.as_array().unwrap().iter().flat_map(|h| {
        h["options"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["recorded"] == true)
            .map(|o| {
                o["json"]
                    .as_str()
                    .unwrap()
                    .split('.')
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect::<Vec<_>>()
    });
    options.collect()
}

/// The `json` names of the prunings `solver prunings --json` lists.
fn pruning_keys() -> Vec<String> {
    let out = run_solver(&["prunings", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let list: Value = serde_json::from_slice(&out.stdout).expect("a JSON list");
    let keys: Vec<String> = list
        .as_array()
        .expect("a JSON list")
        .iter()
        .map(|p| {
            p["json"]
                .as_str()
                .expect("each has a json name")
                .to_string()
        })
        .collect();
    // The thesis's three, which results carried before prunings were registered.
    for old in ["space_value", "resting", "master_never_away"] {
        assert!(keys.iter().any(|k| k == old), "{old} in {keys:?}");
    }
    keys
}

#[test]
fn solved_output_matches_the_documented_schema_and_the_reasoner_reads_it() {
    let solution = std::env::temp_dir().join(format!("contract-{}.sol", std::process::id()));
    let path = solution.to_str().unwrap();
    let text = checked_run(
        &["solve", CLASSIC, "--json", "--quiet", "--solution", path],
        "solved",
        true,
    );
    let _ = std::fs::remove_file(&solution);
    let report = parse_solve_output(&text).expect("the reasoner reads the solver's result");
    assert_eq!(RunStatus::from(report.status), RunStatus::Solved);
    // The known optimum of classic Klotski under the steps metric.
    assert_eq!(report.steps, Some(116));
    assert_eq!(report.solution.map(|s| s.len() as u64), report.moves);
}

#[test]
fn no_solution_output_matches_the_documented_schema_and_the_reasoner_reads_it() {
    // A space-value cutoff of 0 prunes every successor of the start: the
    // search exhausts at once, a proof of no solution under this cutoff.
    let text = checked_run(
        &["solve", CLASSIC, "--json", "--quiet", "--space-value", "0"],
        "no_solution",
        false,
    );
    let report = parse_solve_output(&text).unwrap();
    assert_eq!(RunStatus::from(report.status), RunStatus::NoSolution);
    assert_eq!((report.steps, report.limit), (None, None));
    assert_eq!(
        report.params.prunings.get("space_value"),
        Some(&Setting::Cutoff(Some(0)))
    );
}

#[test]
fn limit_reached_output_matches_the_documented_schema_and_the_reasoner_reads_it() {
    let text = checked_run(
        &[
            "solve",
            CLASSIC,
            "--json",
            "--quiet",
            "--max-positions",
            "100",
        ],
        "limit_reached",
        false,
    );
    let report = parse_solve_output(&text).unwrap();
    assert_eq!(RunStatus::from(report.status), RunStatus::LimitReached);
    assert_eq!(report.limit.as_deref(), Some("max_positions"));
    assert_eq!(report.limits.max_positions, Some(100));
    assert!(report.positions_examined <= 100);
}

#[test]
fn the_documented_statuses_are_exactly_the_solvers() {
    let fields = documented_fields();
    let status = fields.iter().find(|f| f.name == "status").unwrap();
    let documented: Vec<String> = backticked(&status.ty)
        .iter()
        .map(|s| s.trim_matches('"').to_string())
        .collect();
    let declared: Vec<&str> = sbp_protocol::Status::ALL.iter().map(|s| s.name()).collect();
    assert_eq!(documented, declared);
}

/// A result written before prunings were registered (docs/json-result.md's
/// example of then) reads the same: its pruning fields land in the
/// registered prunings' settings, and written again they are the same keys
/// with the same values.
#[test]
fn results_from_before_the_pruning_registry_read_the_same() {
    let old = r#"{"puzzle":"puzzles/klotski/classic.txt","name":null,"status":"no_solution","steps":null,"moves":null,"positions_examined":1,"positions_stored":1,"best_distance":3,"best_distance_positions":0,"start_distance":3,"goals_reached":0,"goals_total":1,"elapsed_ms":0,"peak_memory_bytes":0,"encoding":"rank","key_bits":19,"limit":null,"params":{"algorithm":"bfs","heuristic":"h0","weight":1.0,"h2":[1.0,0.0,1.0],"ida_limit":null,"space_value":14,"resting":"strict","master_never_away":true,"lock":[],"metric":"steps","encoding":"auto","keep_visited":false,"threads":1},"limits":{"max_positions":null,"max_memory":null,"time_limit_seconds":null}}"#;
    let report = parse_solve_output(old).expect("an old result reads");
    let p = &report.params.prunings;
    assert_eq!(p.get("space_value"), Some(&Setting::Cutoff(Some(14))));
    assert_eq!(p.get("resting"), Some(&Setting::Level("strict".into())));
    assert_eq!(p.get("master_never_away"), Some(&Setting::Switch(true)));
    assert_eq!(p.len(), 3, "{p:?}");
    let again: Value = serde_json::to_value(&report.params).unwrap();
    let before: Value = serde_json::from_str::<Value>(old).unwrap()["params"].clone();
    for key in [
        "space_value",
        "resting",
        "master_never_away",
        "lock",
        "threads",
    ] {
        assert_eq!(again[key], before[key], "{key}");
    }
}
