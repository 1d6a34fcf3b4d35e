//! End-to-end tests of the `reasoner` binary against stand-in solvers: bash
//! scripts that answer `features` and `solve` with canned JSON, so that each
//! test controls exactly what the solver says (solvable only above a cutoff,
//! never solved, crashing, printing garbage, hanging); see
//! `reasoner_common/standin.rs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

mod reasoner_common;
use reasoner_common::standin::*;
use reasoner_common::{attempts, json_of, s, Scratch};

/// The thesis's similarity (§7.2.2) written out for point features.
fn by_hand(q: Feat, c: Feat) -> f64 {
    let a1 = |f: Feat| f[0] * std::f64::consts::LN_10 / 2f64.sqrt().powf(f[1]);
    (a1(q) - a1(c)).abs() + (2..7).map(|i| (q[i] - c[i]).abs()).sum::<f64>()
}

/// The point cases of the retrieval test, each at a known distance from
/// [`QUERY`].
const RETRIEVAL_CASES: [(&str, Feat); 4] = [
    ("a-bigger-board", [20.0, 20.0, 3.0, 1.0, 2.0, 2.0, 24.0]),
    ("b-exact-size", [10.0, 0.0, 3.0, 1.0, 2.0, 2.0, 20.0]),
    ("c-shapes", [20.0, 20.0, 2.5, 0.5, 2.0, 3.0, 20.0]),
    ("d-larger-space", [25.0, 20.0, 3.0, 1.0, 2.0, 2.0, 20.0]),
];

/// The retrieval test's case base: [`RETRIEVAL_CASES`] and `e-ranges`, a
/// case with ranges 0.5 from the query.
fn retrieval_casebase(dir: &Scratch) -> PathBuf {
    let mut toml: Vec<String> = RETRIEVAL_CASES
        .iter()
        .map(|(n, f)| case_toml(n, *f, "algorithm = \"bfs\""))
        .collect();
    // A case with ranges: block size [2.5, 3] is 0.5 from 2; the puzzle size
    // [18, 22] and the size type [10, 20] overlap the query's: 0.
    toml.push(
        case_toml("e-ranges", QUERY, "algorithm = \"bfs\"")
            .replace("block_size = [2.0, 2.0]", "block_size = [2.5, 3.0]")
            .replace("puzzle_size = [20.0, 20.0]", "puzzle_size = [18.0, 22.0]")
            .replace(
                "search_space_size_type = [20.0, 20.0]",
                "search_space_size_type = [10.0, 20.0]",
            ),
    );
    write_casebase(dir, &toml)
}

/// The cases of a `reasoner retrieve --json` report, in its order: name,
/// similarity, and whether retrieved.
fn listed(r: &Value) -> Vec<(String, f64, bool)> {
    r["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["similarity"].as_f64().unwrap(),
                c["retrieved"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[test]
fn retrieval_order_matches_the_thesis_formula() {
    let dir = Scratch::new("retrieve");
    let solver = standin(&dir, "never");
    let p = puzzle(&dir, "query", QUERY);
    let cb = retrieval_casebase(&dir);
    let out = reasoner(&[
        "retrieve",
        s(&p),
        "--casebase",
        s(&cb),
        "--json",
        "--solver",
        s(&solver),
    ]);
    end_to_end::assert_success(&out, "");
    let got = listed(&json_of(&out));
    let mut expected: Vec<(String, f64)> = RETRIEVAL_CASES
        .iter()
        .map(|(n, f)| (n.to_string(), by_hand(QUERY, *f)))
        .collect();
    expected.push(("e-ranges".to_string(), 0.5));
    expected.sort_by(|a, b| a.1.total_cmp(&b.1));
    let names: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
    assert_eq!(
        names,
        [
            "d-larger-space",
            "e-ranges",
            "c-shapes",
            "a-bigger-board",
            "b-exact-size"
        ]
    );
    for ((name, sim, _), (ename, esim)) in got.iter().zip(&expected) {
        assert_eq!(name, ename);
        assert!((sim - esim).abs() < 1e-9, "{name}: {sim} vs {esim}");
    }
    // The three best are retrieved; the fourth is beyond three times the best.
    let retrieved: Vec<bool> = got.iter().map(|g| g.2).collect();
    assert_eq!(retrieved, [true, true, true, false, false]);

    // The text form lists the same order.
    let out = reasoner(&[
        "retrieve",
        s(&p),
        "--casebase",
        s(&cb),
        "--solver",
        s(&solver),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    let order: Vec<usize> = names.iter().map(|n| text.find(n).unwrap()).collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
}

/// The seed test's case base: `near` (the query's own features, A* h1 w3)
/// and `far` (BFS).
fn seed_casebase(dir: &Scratch) -> PathBuf {
    write_casebase(
        dir,
        &[
            case_toml(
                "near",
                QUERY,
                "algorithm = \"astar\"\nheuristic = \"h1\"\nweight = 3.0\nspace_value = 10",
            ),
            case_toml(
                "far",
                [20.0, 20.0, 3.0, 1.0, 2.0, 4.0, 30.0],
                "algorithm = \"bfs\"",
            ),
        ],
    )
}

/// `reasoner solve --json` with 12 limited attempts on a puzzle the
/// stand-in never solves, with `seed` and `jobs`: its report (exit 1).
fn unsolved_report(p: &Path, cb: &Path, solver: &Path, seed: &str, jobs: &str) -> Value {
    let (out, v) = solve_json(&[
        "solve",
        s(p),
        "--casebase",
        s(cb),
        "--solver",
        s(solver),
        "--json",
        "--seed",
        seed,
        "--jobs",
        jobs,
        "--attempts",
        "12",
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    v
}

/// Both cases are reused first, most similar first; then the general
/// settings (one of the four thesis ones is a case's set already); then
/// the search; then the final run.
fn assert_phase_order(a: &Value) {
    let phases: Vec<&str> = a["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["phase"].as_str().unwrap())
        .collect();
    assert_eq!(&phases[..2], ["reuse", "reuse"]);
    let general = phases.iter().filter(|p| **p == "general").count();
    assert!((4..=5).contains(&general), "{phases:?}");
    assert!(
        phases[2..2 + general].iter().all(|p| *p == "general")
            && phases[2 + general..12].iter().all(|p| *p == "proximity"),
        "{phases:?}"
    );
    assert_eq!(phases[12], "final");
}

/// The final run (attempt 13 of `a`) repeats the limited attempt that came
/// closest, ties to fewest positions.
fn assert_final_repeats_the_closest(a: &Value) {
    let limited = &a["attempts"].as_array().unwrap()[..12];
    let best = limited
        .iter()
        .min_by_key(|x| {
            (
                x["best_distance"].as_u64().unwrap(),
                x["best_distance_positions"].as_u64().unwrap(),
                x["index"].as_u64().unwrap(),
            )
        })
        .unwrap();
    assert_eq!(a["attempts"][12]["from"], best["index"]);
    assert_eq!(a["attempts"][12]["params"], best["params"]);
}

/// The solver calls of the seed test's three runs (`calls`: each line
/// holds one solve call's arguments after the puzzle): the limited attempts
/// have a position limit, the final runs none. The final run, alone, takes
/// the cores of `--jobs` (runs a, b, c: one job, then two); the limited
/// attempts, which run side by side, do not.
fn assert_final_calls(calls: &str) {
    let last = calls.lines().last().unwrap();
    assert!(!last.contains("--max-positions"), "{last}");
    assert!(calls
        .lines()
        .next()
        .unwrap()
        .contains("--max-positions 5000000"));
    let (limited, finals): (Vec<&str>, Vec<&str>) =
        calls.lines().partition(|l| l.contains("--max-positions"));
    assert_eq!(finals.len(), 3, "{finals:?}");
    assert!(!finals[0].contains("--threads"), "{}", finals[0]);
    assert!(
        finals[1..].iter().all(|l| l.contains("--threads 2")),
        "{finals:?}"
    );
    assert!(limited.iter().all(|l| !l.contains("--threads")));
}

#[test]
fn the_same_seed_gives_the_same_attempts_whatever_the_jobs() {
    let dir = Scratch::new("seed");
    let solver = standin(&dir, "never");
    let p = puzzle(&dir, "query", QUERY);
    let cb = seed_casebase(&dir);
    let a = unsolved_report(&p, &cb, &solver, "5", "1");
    let b = unsolved_report(&p, &cb, &solver, "5", "2");
    let c = unsolved_report(&p, &cb, &solver, "6", "2");
    assert_eq!(a["status"], "limit_reached");
    // 12 limited attempts and the final one.
    assert_eq!(a["attempts"].as_array().unwrap().len(), 13);
    assert_eq!(attempts(&a), attempts(&b));
    assert_ne!(attempts(&a), attempts(&c));
    assert_phase_order(&a);
    assert_eq!(a["attempts"][0]["case"], "near");
    assert_eq!(a["retrieved"][0]["name"], "near");
    assert!(a["retrieved"][0]["similarity"].as_f64().unwrap() < 1e-12);
    // No parameter set is tried twice.
    let sets: Vec<&Value> = a["attempts"].as_array().unwrap()[..12]
        .iter()
        .map(|x| &x["params"])
        .collect();
    for (i, x) in sets.iter().enumerate() {
        assert!(!sets[..i].contains(x), "repeated {x}");
    }
    // The final run repeats the attempt that came closest and runs without
    // a position limit.
    assert_final_repeats_the_closest(&a);
    let calls = std::fs::read_to_string(dir.path("query.txt.calls")).unwrap();
    assert_final_calls(&calls);
}

#[test]
fn a_cutoff_above_the_case_is_found_by_the_proximity_search() {
    let dir = Scratch::new("threshold");
    let solver = standin(&dir, "threshold");
    let p = puzzle(&dir, "query", QUERY);
    let cb = write_casebase(
        &dir,
        &[case_toml(
            "tight",
            QUERY,
            "algorithm = \"bfs\"\nspace_value = 10",
        )],
    );
    let (out, v) = solve_json(&[
        "solve",
        s(&p),
        "--casebase",
        s(&cb),
        "--solver",
        s(&solver),
        "--json",
        "--seed",
        "1",
        "--jobs",
        "2",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(v["status"], "solved");
    assert_eq!(v["steps"], 1);
    assert_eq!(v["solution"], json!(["@ 1,1 R"]));
    let all = v["attempts"].as_array().unwrap();
    assert_eq!(all[0]["phase"], "reuse");
    assert_eq!(all[0]["status"], "no_solution");
    // The attempt that solved; the rest of its wave is cancelled after it.
    let last = all.iter().find(|a| a["index"] == v["solved_by"]).unwrap();
    assert_eq!(v["solved_by"], last["index"]);
    assert_eq!(last["status"], "solved");
    assert_eq!(last["phase"], "proximity");
    assert!(last["params"]["space_value"].as_u64().unwrap() >= 14);
    // After the no_solution at 10, no cutoff of 10 or less is tried again.
    for a in &all[1..] {
        if let Some(sv) = a["params"]["space_value"].as_u64() {
            assert!(sv >= 11, "{a}");
        }
    }
    // The text table goes to stderr with --json.
    let table = String::from_utf8_lossy(&out.stderr);
    assert!(
        table.contains("proximity") && table.contains("positions"),
        "{table}"
    );
}

#[test]
fn crashing_or_garbage_solvers_are_failed_attempts() {
    let dir = Scratch::new("crash");
    let solver = standin(&dir, "crash");
    let p = puzzle(&dir, "query", QUERY);
    let cb = write_casebase(
        &dir,
        &[
            case_toml("segv", QUERY, "algorithm = \"bfs\""),
            case_toml("garbage", QUERY, "algorithm = \"astar\""),
            case_toml("exit2", QUERY, "algorithm = \"bfs\"\nresting = \"strict\""),
        ],
    );
    let (out, v) = solve_json(&[
        "solve",
        s(&p),
        "--casebase",
        s(&cb),
        "--solver",
        s(&solver),
        "--json",
        "--attempts",
        "8",
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(v["status"], "failed");
    let all = v["attempts"].as_array().unwrap();
    assert_eq!(all.len(), 8, "no final run without a usable attempt");
    for a in all {
        assert_eq!(a["status"], "failed", "{a}");
        assert!(a["positions_examined"].is_null());
    }
    let error = |name: &str| {
        all.iter().find(|a| a["case"] == name).unwrap()["error"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(error("segv").contains("signal 11"), "{}", error("segv"));
    assert!(
        error("garbage").contains("not the expected JSON"),
        "{}",
        error("garbage")
    );
    assert!(error("exit2").contains("exit 2") && error("exit2").contains("bad input"));
}

#[test]
fn broken_inputs_are_clear_errors() {
    let dir = Scratch::new("broken");
    let solver = standin(&dir, "never");
    let p = puzzle(&dir, "query", QUERY);
    // A case base broken on line 7.
    let cb = dir.path("cb.toml");
    let text = case_toml("one", QUERY, "algorithm = \"bfs\"");
    let mut lines: Vec<String> = format!("version = 1\n{text}")
        .lines()
        .map(String::from)
        .collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("block_size"))
        .unwrap();
    lines[at] = "block_size = [2.0, oops]".to_string();
    std::fs::write(&cb, lines.join("\n")).unwrap();
    for cmd in [&["solve", s(&p)][..], &["retrieve", s(&p)][..]] {
        let mut args = cmd.to_vec();
        args.extend(["--casebase", s(&cb), "--solver", s(&solver)]);
        let out = reasoner(&args);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("cb.toml:{}:", at + 1)), "{err}");
    }
    let out = reasoner(&["casebase", "list", s(&cb)]);
    assert_eq!(out.status.code(), Some(2));

    // A puzzle that cannot be read stops the cycle: no attempt runs.
    let good = write_casebase(&dir, &[text]);
    let missing = dir.path("missing.txt");
    let out = reasoner(&[
        "solve",
        s(&missing),
        "--casebase",
        s(&good),
        "--solver",
        s(&solver),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("missing.txt: No such file"), "{err}");
    assert!(
        !err.contains("solver features"),
        "no internal command line: {err}"
    );
    assert!(!dir.path("missing.txt.calls").exists());

    // A missing solver binary says so.
    let out = reasoner(&[
        "solve",
        s(&p),
        "--casebase",
        s(&good),
        "--solver",
        "/nonexistent/solver",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot start the solver") && err.contains("--solver"),
        "{err}"
    );
}

#[test]
fn retain_adds_a_case_that_is_then_ranked_first() {
    let dir = Scratch::new("retain");
    let solver = standin(&dir, "threshold");
    let p = puzzle(&dir, "fresh", FRESH);
    let cb = write_casebase(
        &dir,
        &[
            case_toml("other", QUERY, SOLVING),
            case_toml(
                "another",
                [20.0, 20.0, 3.0, 1.0, 2.0, 4.0, 30.0],
                "algorithm = \"bfs\"",
            ),
        ],
    );
    let (out, v) = solve_json(&[
        "solve",
        s(&p),
        "--casebase",
        s(&cb),
        "--solver",
        s(&solver),
        "--json",
        "--retain",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(v["retained"], json!({"case": "fresh", "action": "added"}));
    assert_eq!(list_cases(&cb), ["other", "another", "fresh"]);
    let shown = reasoner(&["casebase", "show", s(&cb), "fresh", "--json"]);
    let case = json_of(&shown);
    assert_eq!(case["params"]["space_value"], 16);
    assert_eq!(case["outcome"]["found_by"], "case-reuse");
    assert_eq!(case["outcome"]["positions_examined"], 1984);
    assert_eq!(case["provenance"]["puzzle"], s(&p));
    assert_eq!(case["provenance"]["sha256"].as_str().unwrap().len(), 64);

    let out = reasoner(&[
        "retrieve",
        s(&p),
        "--casebase",
        s(&cb),
        "--json",
        "--solver",
        s(&solver),
    ]);
    let r = json_of(&out);
    assert_eq!(r["cases"][0]["name"], "fresh");
    assert_eq!(r["cases"][0]["similarity"], 0.0);

    // Solving again with the same parameters keeps the case as it is.
    let (_, v) = solve_json(&[
        "solve",
        s(&p),
        "--casebase",
        s(&cb),
        "--solver",
        s(&solver),
        "--json",
        "--retain",
    ]);
    assert_eq!(v["retained"], json!({"case": "fresh", "action": "kept"}));
    assert_eq!(list_cases(&cb).len(), 3);
}

fn temporaries(dir: &Scratch) -> Vec<String> {
    std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(".cb.toml.") && n.ends_with(".tmp"))
        .collect()
}

#[test]
fn killing_the_reasoner_during_retain_leaves_a_case_base_that_loads() {
    let dir = Scratch::new("kill-retain");
    let solver = standin(&dir, "threshold");
    let p = puzzle(&dir, "fresh", FRESH);
    let cb = write_casebase(&dir, &[case_toml("other", QUERY, SOLVING)]);
    let old = std::fs::read(&cb).unwrap();
    let start = |pause_ms: Option<u64>| {
        let mut cmd = Command::new(end_to_end::reasoner_bin());
        cmd.args([
            "solve",
            s(&p),
            "--casebase",
            s(&cb),
            "--solver",
            s(&solver),
            "--retain",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        if let Some(ms) = pause_ms {
            cmd.env("REASONER_SAVE_PAUSE_MS", ms.to_string());
        }
        cmd.spawn().unwrap()
    };

    // Killed between writing the new case base and renaming it over the old.
    let mut child = start(Some(30_000));
    assert!(
        wait_for(30, || !temporaries(&dir).is_empty()),
        "no temporary file appeared"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        std::fs::read(&cb).unwrap(),
        old,
        "the old case base is intact"
    );
    assert_eq!(list_cases(&cb), ["other"]);

    // Killed at other moments: the file holds the old or the new case base.
    for delay_ms in [0, 5, 15, 30, 60, 100, 200] {
        std::fs::write(&cb, &old).unwrap();
        let mut child = start(None);
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = child.kill();
        child.wait().unwrap();
        let cases = list_cases(&cb);
        assert!(
            cases == ["other"] || cases == ["other", "fresh"],
            "after {delay_ms} ms: {cases:?}"
        );
    }

    // Undisturbed, the case is added.
    std::fs::write(&cb, &old).unwrap();
    let status = start(None).wait().unwrap();
    assert!(status.success());
    assert_eq!(list_cases(&cb), ["other", "fresh"]);
}

#[test]
fn a_killed_reasoner_kills_its_solvers() {
    let dir = Scratch::new("kill-solvers");
    let solver = standin(&dir, "slow");
    let p = puzzle(&dir, "query", QUERY);
    let cb = write_casebase(&dir, &[case_toml("one", QUERY, "algorithm = \"bfs\"")]);
    let pid_file = dir.path("query.txt.pid");
    for signal in ["TERM", "INT", "KILL"] {
        let _ = std::fs::remove_file(&pid_file);
        let mut child = Command::new(end_to_end::reasoner_bin())
            .args([
                "solve",
                s(&p),
                "--casebase",
                s(&cb),
                "--solver",
                s(&solver),
                "--jobs",
                "1",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let solver_pid = pid_in(&pid_file);
        assert!(alive(&solver_pid));
        send(signal, child.id());
        let status = child.wait().unwrap();
        if signal == "TERM" {
            assert_eq!(status.code(), Some(143));
        } else if signal == "INT" {
            assert_eq!(status.code(), Some(130));
        }
        assert!(
            wait_for(10, || !alive(&solver_pid)),
            "solver {solver_pid} outlived a reasoner killed with SIG{signal}"
        );
    }
}

#[test]
fn attempt_timeouts_are_failed_attempts() {
    let dir = Scratch::new("timeout");
    let solver = standin(&dir, "slow");
    let p = puzzle(&dir, "query", QUERY);
    let cb = write_casebase(&dir, &[case_toml("one", QUERY, "algorithm = \"bfs\"")]);
    let (out, v) = solve_json(&[
        "solve",
        s(&p),
        "--casebase",
        s(&cb),
        "--solver",
        s(&solver),
        "--json",
        "--attempts",
        "2",
        "--attempt-timeout",
        "0.5",
        "--jobs",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(v["status"], "failed");
    let all = v["attempts"].as_array().unwrap();
    assert_eq!(all.len(), 2);
    for a in all {
        assert!(a["error"].as_str().unwrap().contains("timed out"), "{a}");
    }
}

#[test]
fn legacy_case_bases_are_imported() {
    let dir = Scratch::new("import");
    let legacy = dir.path("old.txt");
    std::fs::write(
        &legacy,
        "search_space_size\nsearch_space_size_type\nbranching_factor\nregular_shapes\nblock_size\nnum_of_spaces\npuzzle_size\n!\n\
         comment puzzle 04 american pie\nsearch_space_size 110000000000000000 110000000000000000\n\
         search_space_size_type 20 20\nbranching_factor 9.73991 9.73991\nregular_shapes 0.96 0.96\n\
         block_size 2 2\nnum_of_spaces 6 6\npuzzle_size 56 56\n!\n\
         algorithm 2 2\nheuristic_weight 30 30\nspacevalue 45 45\nrestingblock 2 2\n!\n!!\n",
    )
    .unwrap();
    let cb = dir.path("cb.toml");
    let out = reasoner(&["casebase", "import", s(&legacy), "--into", s(&cb)]);
    end_to_end::assert_success(&out, "");
    let shown = json_of(&reasoner(&[
        "casebase",
        "show",
        s(&cb),
        "puzzle 04 american pie",
        "--json",
    ]));
    assert_eq!(
        shown["params"],
        // h0 has no options: the thesis's h2 weights are kept with h2 only.
        json!({"algorithm": "astar", "heuristic": "h0", "weight": 30.0,
               "space_value": 45, "resting": "strict", "metric": "steps"})
    );
    assert_eq!(shown["features"]["num_of_spaces"], json!([6.0, 6.0]));
    // Importing again clashes unless asked to replace.
    let out = reasoner(&["casebase", "import", s(&legacy), "--into", s(&cb)]);
    assert_eq!(out.status.code(), Some(2));
    let out = reasoner(&[
        "casebase",
        "import",
        s(&legacy),
        "--into",
        s(&cb),
        "--replace",
    ]);
    end_to_end::assert_success(&out, "");
    assert_eq!(list_cases(&cb), ["puzzle 04 american pie"]);
}
