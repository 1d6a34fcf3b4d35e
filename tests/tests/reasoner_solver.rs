//! End-to-end tests of the `reasoner` binary driving the real `solver`
//! (`solver features` and `solver solve`) on the puzzles under `puzzles/`.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

mod reasoner_common;
use reasoner_common::{assert_solution_replays, attempts, json_of, s, Scratch};

fn puzzle(rel: &str) -> String {
    end_to_end::workspace_root()
        .join(rel)
        .to_str()
        .unwrap()
        .to_string()
}

fn reasoner(args: &[&str]) -> Output {
    let solver = end_to_end::solver_bin();
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--solver", solver.to_str().unwrap()]);
    let out = Command::new(end_to_end::reasoner_bin())
        .args(&all)
        .output()
        .unwrap();
    out
}

/// A copy of `casebase/example.toml` in `dir`, to change or to check unchanged.
fn example_casebase(dir: &Scratch) -> PathBuf {
    let cb = dir.path("cb.toml");
    std::fs::copy(
        end_to_end::workspace_root().join("casebase/example.toml"),
        &cb,
    )
    .unwrap();
    cb
}

/// A case base with one case for `puzzle`: its real features (from
/// `solver features`) and the given TOML parameter lines.
fn casebase_for(dir: &Scratch, puzzle: &str, name: &str, params: &str) -> PathBuf {
    let out = Command::new(end_to_end::solver_bin())
        .args(["features", puzzle, "--json"])
        .output()
        .unwrap();
    end_to_end::assert_success(&out, "");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut text = format!("version = 1\n\n[[case]]\nname = \"{name}\"\n[case.features]\n");
    for (k, v) in report["features"].as_object().unwrap() {
        if k == "search_space_size" {
            continue;
        }
        text.push_str(&format!(
            "{k} = [{:?}, {:?}]\n",
            v[0].as_f64().unwrap(),
            v[1].as_f64().unwrap()
        ));
    }
    let l = &report["search_space_log10"];
    text.push_str(&format!(
        "search_space_log10 = [{:?}, {:?}]\n[case.params]\n{params}\n[case.outcome]\nfound_by = \"hand-tuned\"\n",
        l[0].as_f64().unwrap(),
        l[1].as_f64().unwrap()
    ));
    let path = dir.path("cb.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn classic_klotski_is_solved_retained_and_then_reused() {
    let dir = Scratch::new("classic");
    let classic = puzzle("puzzles/klotski/classic.txt");
    let cb = dir.path("cb.toml");
    // No case base yet: the thesis's general settings stand in; BFS solves it.
    let out = reasoner(&[
        "solve",
        &classic,
        "--casebase",
        s(&cb),
        "--retain",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_of(&out);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["steps"], 116);
    assert_eq!(v["attempts"][0]["case"], "standard: BFS");
    assert_eq!(v["retained"]["action"], "added");
    let name = v["retained"]["case"].as_str().unwrap().to_string();

    // The solution replays in the independent verifier.
    assert_solution_replays(&dir, &classic, &v);

    // The new case is ranked first for the same puzzle, at distance 0.
    let r = json_of(&reasoner(&[
        "retrieve",
        &classic,
        "--casebase",
        s(&cb),
        "--json",
    ]));
    assert_eq!(r["cases"][0]["name"].as_str(), Some(name.as_str()));
    assert_eq!(r["cases"][0]["similarity"], 0.0);

    // Solving again reuses it: one attempt, and the case stays as it is.
    let v = json_of(&reasoner(&[
        "solve",
        &classic,
        "--casebase",
        s(&cb),
        "--json",
        "--retain",
    ]));
    assert_eq!(v["status"], "solved");
    let all = v["attempts"].as_array().unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0]["phase"], "reuse");
    assert_eq!(all[0]["case"].as_str(), Some(name.as_str()));
    assert_eq!(v["retained"]["action"], "kept");
}

/// A puzzle that only the final unlimited run solved keeps the positions
/// that run needed in its case; solving it again, its reuse attempt gets
/// them (a quarter more) instead of failing at the limit once more.
#[test]
fn a_case_of_the_same_puzzle_gets_the_positions_it_needed() {
    let dir = Scratch::new("own-case");
    let classic = puzzle("puzzles/klotski/classic.txt");
    let cb = dir.path("cb.toml");
    let run = || {
        let out = reasoner(&[
            "solve",
            &classic,
            "--casebase",
            s(&cb),
            "--position-limit",
            "100",
            "--attempts",
            "2",
            "--variants",
            "0",
            "--restarts",
            "0",
            "--no-improve",
            "--retain",
            "--json",
        ]);
        end_to_end::assert_success(&out, "reasoner solve");
        json_of(&out)
    };
    let first = run();
    assert_eq!(first["status"], "solved");
    let all = first["attempts"].as_array().unwrap();
    assert_eq!(all.last().unwrap()["phase"], "final", "{first}");
    let needed = all.last().unwrap()["positions_examined"].as_u64().unwrap();
    assert!(needed > 100, "{needed}");
    let name = first["retained"]["case"].as_str().unwrap().to_string();

    let again = run();
    assert_eq!(again["status"], "solved");
    let all = again["attempts"].as_array().unwrap();
    assert_eq!(all.len(), 1, "{again}");
    assert_eq!(all[0]["phase"], "reuse");
    assert_eq!(all[0]["case"].as_str(), Some(name.as_str()));
    assert_eq!(all[0]["positions_examined"].as_u64(), Some(needed));
    assert_eq!(again["steps"], first["steps"]);
    assert_solution_replays(&dir, &classic, &again);
}

#[test]
fn a_cutoff_too_low_in_the_case_is_never_tried_again_below_its_bound() {
    // Classic Klotski has no solution with a space-value cutoff of 1 or 2
    // (the two spaces must come apart), and one from 3 on.
    let dir = Scratch::new("cutoff");
    let classic = puzzle("puzzles/klotski/classic.txt");
    let cb = casebase_for(
        &dir,
        &classic,
        "too tight",
        "algorithm = \"bfs\"\nspace_value = 1",
    );
    let out = reasoner(&[
        "solve",
        &classic,
        "--casebase",
        s(&cb),
        "--json",
        "--seed",
        "2",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_of(&out);
    let all = v["attempts"].as_array().unwrap();
    assert_eq!(all[0]["status"], "no_solution");
    assert_eq!(all[0]["params"]["space_value"], 1);
    // The attempt that solved (a general setting, tried after the case, or
    // the proximity search); the rest of its wave is cancelled after it.
    let last = all.iter().find(|a| a["index"] == v["solved_by"]).unwrap();
    assert_eq!(last["status"], "solved");
    assert_ne!(last["index"], 1);
    if let Some(sv) = last["params"]["space_value"].as_u64() {
        assert!(sv >= 3, "{last}");
    }
    for a in &all[1..] {
        if let Some(sv) = a["params"]["space_value"].as_u64() {
            assert!(sv >= 2, "a cutoff below the bound was tried: {a}");
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_real_attempts() {
    let dir = Scratch::new("seed");
    let classic = puzzle("puzzles/klotski/classic.txt");
    let cb = casebase_for(&dir, &classic, "bfs", "algorithm = \"bfs\"");
    let run = |seed: &str, jobs: &str| {
        let out = reasoner(&[
            "solve",
            &classic,
            "--casebase",
            s(&cb),
            "--json",
            "--seed",
            seed,
            "--jobs",
            jobs,
            "--position-limit",
            "300",
            "--attempts",
            "10",
            "--no-final",
            // A variant's own cycle runs waves that solve, and in a wave
            // that solves which attempts finish first depends on --jobs
            // and the timing (reasoner/README.md): compared without it.
            "--variants",
            "0",
        ]);
        json_of(&out)
    };
    let a = run("11", "1");
    let b = run("11", "2");
    let c = run("12", "2");
    assert_eq!(attempts(&a), attempts(&b), "{a}\n{b}");
    assert_ne!(attempts(&a), attempts(&c));
    assert!(a["attempts"][0]["positions_examined"].as_u64().unwrap() >= 300);
}

#[test]
fn other_kinds_of_puzzle_are_solved_from_the_general_settings() {
    for (rel, steps) in [
        ("puzzles/rushhour/rush_10.txt", None),
        ("puzzles/klotski/pennant.txt", Some(89)),
    ] {
        let dir = Scratch::new("kinds");
        let cb = dir.path("cb.toml");
        let p = puzzle(rel);
        let out = reasoner(&["solve", &p, "--casebase", s(&cb), "--json", "--retain"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{rel}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v = json_of(&out);
        assert_eq!(v["status"], "solved", "{rel}");
        if let Some(n) = steps {
            assert_eq!(v["steps"], n, "{rel}");
        }
        assert_eq!(v["retained"]["action"], "added");
    }
}

/// `reasoner settings --json` is where the experiments read the four general
/// settings: each carries solver flags the real solver accepts.
#[test]
fn general_settings_are_printed_as_solver_flags_the_solver_accepts() {
    let out = Command::new(end_to_end::reasoner_bin())
        .args(["settings", "--spaces", "2", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let all: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "standard: BFS",
            "standard: aggressive BFS",
            "standard: A* w5 h0",
            "standard: aggressive A* w10 h2"
        ]
    );
    // 2 s^2 and 4 s^2 for s = 2 spaces.
    assert_eq!(all[1]["params"]["space_value"], 8);
    assert_eq!(all[3]["params"]["h2"], serde_json::json!([6.0, 16.0, 2.0]));
    for setting in all.as_array().unwrap() {
        let args: Vec<&str> = setting["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        let run = Command::new(end_to_end::solver_bin())
            .args(["solve", "puzzles/klotski/classic.txt", "--json", "--quiet"])
            .args(["--max-positions", "2000"])
            .args(&args)
            .current_dir(end_to_end::workspace_root())
            .output()
            .unwrap();
        let code = run.status.code();
        assert!(code == Some(0) || code == Some(1), "{args:?}: {run:?}");
        let report: Value = serde_json::from_slice(&run.stdout).unwrap();
        assert_eq!(
            report["params"]["algorithm"],
            setting["params"]["algorithm"]
        );
    }
}

/// A puzzle with units (GNOME's Shark: 11 interchangeable 1x1 blocks)
/// gets the fluid search among the general settings: with an empty case
/// base and attempts of 20,000 positions, the thesis's four and A* on
/// `path` stop at the limit and `general: fluid w3 path` solves it; the
/// solution replays in the verifier.
#[test]
fn the_fluid_setting_solves_a_puzzle_with_units_where_the_others_stop() {
    let dir = Scratch::new("fluid-general");
    let cb = dir.path("cb.toml");
    std::fs::write(&cb, "version = 1\n").unwrap();
    let p = puzzle("puzzles/klotski/shark.txt");
    let args = [
        "solve",
        &p,
        "--casebase",
        s(&cb),
        "--json",
        "--jobs",
        "1",
        "--position-limit",
        "20000",
        "--attempts",
        "6",
        "--variants",
        "0",
        "--restarts",
        "0",
        "--parks",
        "0",
        "--no-improve",
    ];
    let out = reasoner(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_of(&out);
    assert_eq!(v["status"], "solved", "{v}");
    let all = attempts(&v);
    let names: Vec<&str> = all
        .iter()
        .map(|a| a["case"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(names.len(), 6, "{names:?}");
    assert_eq!(names[5], "general: fluid w3 path");
    assert!(
        all[..5].iter().all(|a| a["status"] == "limit_reached"),
        "{v}"
    );
    assert_eq!(all[5]["status"], "solved");
    assert_eq!(all[5]["params"]["algorithm"], "fluid");
    assert_solution_replays(&dir, &p, &v);
}

/// A puzzle without a goal is refused once, before any attempt (exit 2,
/// naming the file and what to add), and `--retain` leaves the case base as
/// it was; before, every attempt was refused by the solver in turn and the
/// run ended "not solved" (exit 1).
#[test]
fn a_puzzle_without_a_goal_is_refused_before_any_attempt() {
    let dir = Scratch::new("no-goal");
    let text = std::fs::read_to_string(puzzle("puzzles/quickstart.txt")).unwrap();
    // The start grid and its closing `!` only: cut before the goal grid.
    let last = text.trim_end().rfind("\n!").unwrap();
    let cut = text[..last].rfind("\n!\n").unwrap();
    let no_goal = dir.path("no-goal.txt");
    std::fs::write(&no_goal, &text[..cut + 3]).unwrap();
    let refused = std::process::Command::new(end_to_end::solver_bin())
        .args(["solve", s(&no_goal)])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no goal section"));
    let cb = example_casebase(&dir);
    let before = std::fs::read(&cb).unwrap();
    let out = reasoner(&[
        "solve",
        s(&no_goal),
        "--casebase",
        s(&cb),
        "--retain",
        "--json",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("the puzzle has no goal"), "{err}");
    assert!(err.contains(s(&no_goal)), "{err}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(std::fs::read(&cb).unwrap(), before);
}

/// `--attempt-timeout` bounds the attempts, not the set-up calls (`solver
/// features`, `heuristics`, `prunings`, `variant`, `verify`): at its least
/// value the run still starts every time and no attempt fails for a tool
/// call cut short, where it used to fail at set-up now and then (exit 2,
/// "`solver prunings --json` did not finish within 0.001 s") or lose a found
/// solution ("`solver verify` did not finish within 0.001 s").
#[test]
fn the_attempt_timeout_does_not_cut_the_set_up_calls() {
    let dir = Scratch::new("setup-timeout");
    let cb = example_casebase(&dir);
    for _ in 0..3 {
        let out = reasoner(&[
            "solve",
            &puzzle("puzzles/quickstart.txt"),
            "--casebase",
            s(&cb),
            "--attempt-timeout",
            "0.001",
            "--attempts",
            "1",
            "--json",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(matches!(out.status.code(), Some(0 | 1)), "{err}");
        let report = json_of(&out);
        let attempts = report["attempts"].as_array().unwrap();
        assert!(!attempts.is_empty(), "{report}");
        // Attempts may solve, stop or time out on their own limit; none may
        // fail because a tool call (variant, verify) was cut short.
        for a in attempts {
            if let Some(e) = a["error"].as_str() {
                assert!(e.starts_with("timed out after 0.001 s"), "{a}");
            }
        }
    }
}

/// `casebase add` whose solver run is refused as bad input (an unknown
/// heuristic) exits 2 like every other bad input, and one that only fails to
/// solve within its limit exits 1; neither adds a case.
#[test]
fn casebase_add_tells_bad_input_from_not_solved() {
    let dir = Scratch::new("add-exit");
    let cb = example_casebase(&dir);
    let before = std::fs::read(&cb).unwrap();
    let quick = puzzle("puzzles/quickstart.txt");
    for (extra, code, says) in [
        (
            vec!["--algorithm", "astar", "--heuristic", "foo"],
            2,
            "unknown heuristic 'foo'",
        ),
        (vec!["--position-limit", "10"], 1, "limit_reached"),
    ] {
        let mut args = vec!["casebase", "add", s(&cb), quick.as_str()];
        args.extend(extra);
        let out = reasoner(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{err}");
        assert!(err.contains(says) && err.contains("no case added"), "{err}");
        assert_eq!(std::fs::read(&cb).unwrap(), before);
    }
}
