//! End-to-end tests of case-base version 2's performance profiles: `reasoner
//! casebase from-matrix` builds cases from matrix rows, and `solve --retain`
//! writes the cycle's attempts as the new case's profile.

use std::path::Path;
use std::process::Output;

use serde_json::{json, Value};

mod reasoner_common;
use reasoner_common::{json_of, listed_cases as cases, reasoner_at_root as reasoner, s, Scratch};

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts that the command succeeded and its output says each of `parts`.
fn says(out: &Output, parts: &[&str]) {
    end_to_end::assert_success(out, "");
    let said = String::from_utf8_lossy(&out.stdout);
    for part in parts {
        assert!(said.contains(part), "{part:?} in {said}");
    }
}

/// The case base's text read as TOML.
fn toml_of(path: &Path) -> toml::Table {
    toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The four general settings' `{name, params}` for two spaces, as the
/// matrix helper takes them from `reasoner settings --json`.
fn settings() -> Vec<(String, Value)> {
    let out = reasoner(&["settings", "--spaces", "2", "--json"]);
    end_to_end::assert_success(&out, "");
    let list = json_of(&out);
    list.as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap().to_string(), s["params"].clone()))
        .collect()
}

/// A matrix row.
fn row(
    puzzle: &str,
    family: &str,
    setting: &(String, Value),
    status: &str,
    positions: u64,
) -> String {
    let length = (status == "solved").then_some(positions % 97 + 80);
    let mut r = json!({
        "puzzle": puzzle, "family": family, "setting": setting.0, "params": setting.1,
        "args": [], "limit": 200000, "status": status, "positions": positions,
        "seconds": 0.5, "length": length,
    });
    if status == "error" {
        r["error"] = json!("the solver crashed");
        r["positions"] = Value::Null;
    }
    r.to_string()
}

/// Two puzzles solved by some settings, one by none, one of an excluded
/// family, and an error row: one case each for the solved two, parameters
/// of the fewest positions, profile of every row but the error.
#[test]
fn from_matrix_builds_one_case_per_solved_puzzle() {
    let dir = Scratch::new("from-matrix");
    let g = settings();
    let (classic, century) = ("puzzles/klotski/classic.txt", "puzzles/klotski/century.txt");
    let a = [
        row(classic, "klotski", &g[0], "solved", 25955),
        row(classic, "klotski", &g[1], "no_solution", 900),
        row(classic, "klotski", &g[2], "solved", 3000),
        row(classic, "klotski", &g[3], "error", 0),
        row(century, "klotski", &g[0], "limit_reached", 200000),
    ];
    let b = [
        row(century, "klotski", &g[3], "solved", 40000),
        row(
            "puzzles/klotski/pennant.txt",
            "klotski",
            &g[0],
            "limit_reached",
            200000,
        ),
        row("puzzles/rushhour/rush_10.txt", "rush", &g[0], "solved", 50),
    ];
    let (ma, mb) = (dir.path("a.jsonl"), dir.path("b.jsonl"));
    std::fs::write(&ma, a.join("\n") + "\n").unwrap();
    std::fs::write(&mb, b.join("\n") + "\n\n").unwrap();
    let cb = dir.path("cb.toml");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "casebase",
            "from-matrix",
            s(&ma),
            s(&mb),
            "--casebase",
            s(&cb),
        ];
        args.extend(extra);
        reasoner(&args)
    };
    says(
        &run(&["--exclude-family", "rush"]),
        &[
            "8 rows (1 left out by --exclude-family), 3 puzzles: 2 cases added",
            "1 skipped",
        ],
    );
    let got = cases(&cb);
    let names: Vec<&str> = got.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["century", "classic"]);
    let file = toml_of(&cb);
    assert_eq!(file["version"].as_integer(), Some(2));
    let case = |i: usize| &file["case"].as_array().unwrap()[i];
    let classic_case = case(1);
    assert_eq!(classic_case["params"]["algorithm"].as_str(), Some("astar"));
    assert_eq!(classic_case["params"]["weight"].as_float(), Some(5.0));
    let outcome = &classic_case["outcome"];
    assert_eq!(outcome["positions_examined"].as_integer(), Some(3000));
    assert_eq!(outcome["steps"].as_integer(), Some((3000 % 97 + 80) as i64));
    assert_eq!(outcome["found_by"].as_str(), Some("hand-tuned"));
    let sha = classic_case["provenance"]["sha256"].as_str().unwrap();
    assert_eq!(sha.len(), 64);
    assert!(classic_case["features"]["num_of_spaces"].is_array());
    let trials = classic_case["trial"].as_array().unwrap();
    assert_eq!(trials.len(), 3, "the error row is left out");
    let statuses: Vec<&str> = trials
        .iter()
        .map(|t| t["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses.iter().filter(|s| **s == "solved").count(), 2);
    assert!(statuses.contains(&"no_solution"));
    assert!(trials
        .iter()
        .all(|t| t["limit"].as_integer() == Some(200000)));
    assert_eq!(case(0)["trial"].as_array().unwrap().len(), 2);
    // Again without the exclusion: the two cases kept, rush_10 added.
    says(&run(&[]), &["1 cases added", "2 kept"]);
    let again = toml_of(&cb);
    assert_eq!(again["case"].as_array().unwrap().len(), 3);
    assert_eq!(&again["case"].as_array().unwrap()[1], classic_case);
}

/// A row naming a puzzle file that is gone, and a line that is no row,
/// are errors naming the file and line; nothing is written.
#[test]
fn from_matrix_refuses_a_missing_puzzle_and_a_bad_line() {
    let dir = Scratch::new("from-matrix-bad");
    let g = settings();
    let m = dir.path("m.jsonl");
    let cb = dir.path("cb.toml");
    std::fs::write(
        &m,
        row("puzzles/klotski/gone.txt", "klotski", &g[0], "solved", 5) + "\n",
    )
    .unwrap();
    let out = reasoner(&["casebase", "from-matrix", s(&m), "--casebase", s(&cb)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!(
            "{}:1: puzzle puzzles/klotski/gone.txt is not a file",
            m.display()
        )),
        "{}",
        stderr(&out)
    );
    std::fs::write(&m, "{\"puzzle\": 3}\n").unwrap();
    let out = reasoner(&["casebase", "from-matrix", s(&m), "--casebase", s(&cb)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("{}:1: not a matrix row", m.display())),
        "{}",
        stderr(&out)
    );
    assert!(!cb.exists());
}

/// `solve --retain` writes the new case with a profile of the cycle's
/// attempts, the winner's run among them, each with the position limit it
/// ran under; retaining again joins the profiles.
#[test]
fn retain_writes_the_attempts_as_the_profile() {
    let dir = Scratch::new("retain-profile");
    let cb = dir.path("cb.toml");
    let puzzle = "puzzles/quickstart.txt";
    let solve = [
        "solve",
        puzzle,
        "--casebase",
        s(&cb),
        "--retain",
        "--json",
        "--attempts",
        "4",
    ];
    let out = reasoner(&solve);
    end_to_end::assert_success(&out, "");
    let report = json_of(&out);
    let answered: Vec<&Value> = report["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| {
            ["solved", "no_solution", "limit_reached"].contains(&a["status"].as_str().unwrap())
        })
        .collect();
    let file = toml_of(&cb);
    let case = &file["case"].as_array().unwrap()[0];
    let trials = case["trial"].as_array().expect("a profile");
    assert!(!trials.is_empty() && trials.len() <= answered.len());
    for a in answered {
        let same = trials.iter().any(|t| {
            t["status"].as_str() == a["status"].as_str()
                && t["positions"].as_integer() == a["positions_examined"].as_i64()
                // The limit the attempt itself ran under, as its report row says.
                && t.get("limit").and_then(|l| l.as_integer())
                    == a.get("position_limit").and_then(|l| l.as_i64())
        });
        assert!(same, "attempt {a} in {trials:#?}");
    }
    let winner = report["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["index"] == report["solved_by"])
        .unwrap();
    let won = trials.iter().find(|t| {
        t["status"].as_str() == Some("solved")
            && t["positions"].as_integer() == winner["positions_examined"].as_i64()
            && t["params"]["algorithm"].as_str() == winner["params"]["algorithm"].as_str()
    });
    assert!(won.is_some(), "the winner's run in {trials:#?}");
    assert_eq!(
        case["params"]["algorithm"].as_str(),
        winner["params"]["algorithm"].as_str()
    );
    // The same cycle again: the same trials, joined, none lost.
    let out = reasoner(&solve);
    end_to_end::assert_success(&out, "");
    let again = toml_of(&cb);
    let joined = again["case"].as_array().unwrap()[0]["trial"]
        .as_array()
        .unwrap()
        .len();
    assert!(joined >= trials.len(), "{joined} < {}", trials.len());
}
