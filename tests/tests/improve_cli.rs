//! End-to-end tests of `solver improve`: a solution made long on purpose is
//! shortened to the known optimum and replays in the verifier; an optimal
//! one is never lengthened; what is not a solution is refused (exit 2).

use std::path::PathBuf;

use end_to_end::run_solver;

/// Classic Klotski: 116 steps is the published optimum.
const CLASSIC: &str = "puzzles/klotski/classic.txt";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("improve-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn json(out: &std::process::Output) -> serde_json::Value {
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Runs `solver ARGS`, which must exit 0, and reads its JSON.
fn json_ok(args: &[&str]) -> serde_json::Value {
    let out = run_solver(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    json(&out)
}

/// The optimal BFS solution of Classic Klotski, as solution lines.
fn optimal_classic(file: &str) -> Vec<String> {
    let solved = json_ok(&["solve", CLASSIC, "--solution", file, "--json"]);
    assert_eq!(solved["steps"], 116);
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn verify_steps(solution: &str) -> u64 {
    json_ok(&["verify", CLASSIC, solution, "--json"])["steps"]
        .as_u64()
        .unwrap()
}

#[test]
fn a_detour_is_cut_back_to_the_optimum_and_replays() {
    let optimal = scratch("optimal.sol");
    let lines = optimal_classic(optimal.to_str().unwrap());
    // After the 10th line, insert one step of that line's block and its
    // return: a legal back-and-forth detour of 2 steps, twice.
    let mut long = lines.clone();
    for at in [40, 10] {
        let (detour, back) = detour_after(&lines[..at]);
        long.splice(at..at, [detour, back]);
    }
    let long_file = scratch("long.sol");
    std::fs::write(&long_file, long.join("\n") + "\n").unwrap();
    let long_file = long_file.to_str().unwrap();
    assert_eq!(verify_steps(long_file), 120);
    let improved = scratch("improved.sol");
    let improved = improved.to_str().unwrap();
    let args = "--window 8 --max-positions 2000 --json -o";
    let mut improve = vec!["improve", CLASSIC, long_file];
    improve.extend(args.split(' ').chain([improved]));
    let report = json_ok(&improve);
    assert_eq!(report["status"], "improved", "{report}");
    assert_eq!(report["first_steps"], 120, "{report}");
    assert_eq!(report["steps"], 116, "{report}");
    assert!(report["shortcuts"].as_u64().unwrap() >= 2, "{report}");
    assert_eq!(verify_steps(improved), 116);
}

/// The row and column change of a step letter.
fn delta(step: char) -> (i64, i64) {
    match step {
        'U' => (-1, 0),
        'D' => (1, 0),
        'L' => (0, -1),
        _ => (0, 1),
    }
}

/// A legal detour after `prefix`: the last line's block steps back the way
/// it came (its last step reversed), then forward again.
fn detour_after(prefix: &[String]) -> (String, String) {
    let last: Vec<&str> = prefix.last().unwrap().split_whitespace().collect();
    let (id, at, steps) = (last[0], last[1], last[2]);
    let (r, c) = at.split_once(',').unwrap();
    let (mut r, mut c): (i64, i64) = (r.parse().unwrap(), c.parse().unwrap());
    for (dr, dc) in steps.chars().map(delta) {
        (r, c) = (r + dr, c + dc);
    }
    let forward = steps.chars().last().unwrap();
    let backward = ['U', 'D', 'L', 'R']
        .into_iter()
        .find(|&b| delta(b) == (-delta(forward).0, -delta(forward).1))
        .unwrap();
    let (dr, dc) = delta(backward);
    (
        format!("{id} {r},{c} {backward}"),
        format!("{id} {},{} {forward}", r + dr, c + dc),
    )
}

#[test]
fn an_optimal_solution_is_never_lengthened() {
    let optimal = scratch("never.sol");
    let optimal = optimal.to_str().unwrap();
    optimal_classic(optimal);
    let args = "--window 6 --max-positions 500 --json";
    let mut improve = vec!["improve", CLASSIC, optimal];
    improve.extend(args.split(' '));
    let report = json_ok(&improve);
    assert_eq!(report["status"], "unchanged", "{report}");
    assert_eq!(
        (report["first_steps"].as_u64(), report["steps"].as_u64()),
        (Some(116), Some(116))
    );
    assert_eq!(
        report["solution"].as_array().unwrap().len(),
        std::fs::read_to_string(optimal).unwrap().lines().count()
    );
}

#[test]
fn what_is_not_a_solution_is_refused() {
    let file = scratch("bad.sol");
    std::fs::write(&file, "@ 1,2 U\n").unwrap();
    let out = run_solver(&["improve", CLASSIC, file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("not a valid solution") && stderr.contains("solver verify"),
        "{stderr}"
    );
}

/// The 8-puzzle's hardest start: 31 steps is its optimum.
const EIGHT: &str = "puzzles/tiles/eight_hardest_a.txt";

/// Runs `solver solve PUZZLE ARGS --json` and reads its status, steps and
/// exit code.
fn solve(puzzle: &str, args: &str) -> (Option<i32>, serde_json::Value) {
    let mut line = vec!["solve", puzzle, "--json"];
    line.extend(args.split(' '));
    let out = run_solver(&line);
    (out.status.code(), json(&out))
}

#[test]
fn the_bounded_rerun_turns_a_weighted_solution_into_the_optimum_and_it_replays() {
    let (code, long) = solve(EIGHT, "--algorithm astar --heuristic h2 --weight 5");
    assert_eq!(code, Some(0), "{long}");
    let first = long["steps"].as_u64().unwrap();
    assert!(first > 31, "weighted A* found the optimum: {long}");
    let file = scratch("rerun.sol");
    let file = file.to_str().unwrap();
    let bound = format!("--optimal --max-length {} --solution {file}", first - 1);
    let (code, short) = solve(EIGHT, &bound);
    assert_eq!(code, Some(0), "{short}");
    assert_eq!(short["steps"], 31, "{short}");
    assert_eq!(short["limits"]["max_length"], first - 1, "{short}");
    let replay = json_ok(&["verify", EIGHT, file, "--json"]);
    assert_eq!(
        (replay["valid"].as_bool(), replay["steps"].as_u64()),
        (Some(true), Some(31))
    );
    // One below the optimum there is none: the bound proves it.
    let (code, none) = solve(EIGHT, "--optimal --max-length 30");
    assert_eq!(
        (code, &none["status"]),
        (Some(1), &"no_solution".into()),
        "{none}"
    );
}

/// Whatever the algorithm, a bounded search returns a solution within its
/// bound or none: it never lengthens what the bound came from. (Weighted
/// IDA* with an inadmissible heuristic is left out: under a bound below
/// the optimum it must try every path within it, which takes minutes.)
#[test]
fn a_bounded_search_never_returns_more_than_its_bound() {
    let searches = [
        ("bfs", ""),
        ("astar", " --heuristic h2 --weight 5"),
        ("astar", " --heuristic manhattan"),
        ("ida", " --heuristic manhattan --weight 2"),
        ("bidir", ""),
        ("nbs", " --heuristic manhattan"),
    ];
    for (algorithm, rest) in searches {
        for bound in [30, 31, 40] {
            let args = format!("--algorithm {algorithm}{rest} --max-length {bound}");
            let (code, r) = solve(EIGHT, &args);
            match r["steps"].as_u64() {
                Some(steps) => assert!(
                    code == Some(0) && (31..=bound).contains(&steps),
                    "{args}: {r}"
                ),
                None => assert_eq!(
                    (code, &r["status"]),
                    (Some(1), &"no_solution".into()),
                    "{args}: {r}"
                ),
            }
            // The optimal searches find the optimum exactly when the bound allows it.
            if !rest.contains("--weight") {
                assert_eq!(r["steps"].as_u64().is_some(), bound >= 31, "{args}: {r}");
            }
        }
    }
    // Klotski through BFS layers: 116 steps is the optimum.
    assert_eq!(
        solve(CLASSIC, "--max-length 115").1["status"],
        "no_solution"
    );
    assert_eq!(solve(CLASSIC, "--max-length 116").1["steps"], 116);
}

#[test]
fn optimal_refuses_a_chosen_search_and_the_bound_its_range() {
    for args in [
        vec!["--optimal", "--algorithm", "bfs"],
        vec!["--optimal", "--heuristic", "h2"],
        vec!["--max-length", "-1"],
        vec!["--max-length", "4294967296"],
    ] {
        let mut line = vec!["solve", EIGHT];
        line.extend(&args);
        let out = run_solver(&line);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(args[0].trim_start_matches('-')) || stderr.contains(args[1]),
            "{stderr}"
        );
    }
}
