//! End-to-end tests of what the reasoner's variant and restart phases ask
//! of the solver: `solver variant` (rank, remove, subgoals from a variant's
//! solution) and `solver solve --best-out`, each result replayed against the
//! original puzzle by `solver verify`.

use std::path::PathBuf;

use end_to_end::{run_solver, workspace_root};
use serde_json::Value;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("variant-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn classic() -> String {
    workspace_root()
        .join("puzzles/klotski/classic.txt")
        .display()
        .to_string()
}

/// Runs the solver, asserting its exit code; returns stdout.
fn ok(args: &[&str], code: i32) -> String {
    let out = run_solver(args);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `solver verify --json` of `solution` against `puzzle`.
fn verify(puzzle: &str, solution: &str) -> Value {
    serde_json::from_str(&ok(&["verify", puzzle, solution, "--json"], 0)).unwrap()
}

#[test]
fn a_variants_solution_as_subgoals_solves_the_full_puzzle_and_replays() {
    let full = classic();
    let rank: Value =
        serde_json::from_str(&ok(&["variant", &full, "--rank", "--json"], 0)).unwrap();
    // Classic: the horizontal block right under the master is most in its way.
    let first = &rank[0];
    assert_eq!(first["id"], "h", "{rank}");
    assert!(first["cells_on_path"].as_u64().unwrap() >= 1);
    let cell = format!("{},{}", first["row"], first["col"]);
    let (variant, variant_sol) = (temp("v.txt"), temp("v.sol"));
    let (variant, variant_sol) = (variant.to_str().unwrap(), variant_sol.to_str().unwrap());
    ok(&["variant", &full, "--remove", &cell, "-o", variant], 0);
    let easy: Value = serde_json::from_str(&ok(
        &["solve", variant, "--json", "--solution", variant_sol],
        0,
    ))
    .unwrap();
    assert!(easy["steps"].as_u64().unwrap() < 116, "{easy}");
    // Fixing every kept block: with the 'h' block back, no subgoal sequence
    // of this variant is reachable (the solver proves it: exit 1).
    let write_subgoals = |fix: &str, out: &str| {
        let args = [
            "variant",
            &full,
            "--remove",
            &cell,
            "--subgoals",
            variant_sol,
        ];
        ok(&[&args[..], &["--fix", fix, "-o", out]].concat(), 0)
    };
    let strict = temp("strict.txt");
    let strict = strict.to_str().unwrap();
    write_subgoals("all", strict);
    let r: Value = serde_json::from_str(&ok(&["solve", strict, "--json"], 1)).unwrap();
    assert_eq!(r["status"], "no_solution");
    // Fixing the master alone: solved section by section, and the whole
    // solution replays against the original puzzle.
    let sub = temp("sub.txt");
    let sub = sub.to_str().unwrap();
    write_subgoals("master", sub);
    let sol = temp("sub.sol");
    let sol = sol.to_str().unwrap();
    let r: Value =
        serde_json::from_str(&ok(&["solve", sub, "--json", "--solution", sol], 0)).unwrap();
    assert!(r["goals_total"].as_u64().unwrap() >= 2, "{r}");
    assert_eq!(r["goals_reached"], r["goals_total"]);
    let v = verify(&full, sol);
    assert_eq!(v["valid"], true);
    assert_eq!(v["goals_total"], 1);
    assert_eq!(v["steps"], r["steps"]);
}

/// `solver solve PUZZLE --max-positions 3000 --best-out FILE --best-count 3`
/// plus `extra` (the search stops by its limit): the file's positions.
fn best_positions(puzzle: &str, file: &str, extra: &[&str]) -> Vec<Value> {
    let best = temp(file);
    let best = best.to_str().unwrap();
    let mut args = vec![
        "solve",
        puzzle,
        "--max-positions",
        "3000",
        "--best-out",
        best,
        "--best-count",
        "3",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    ok(&args, 1);
    let file: Value = serde_json::from_str(&std::fs::read_to_string(best).unwrap()).unwrap();
    file["positions"].as_array().unwrap().clone()
}

/// The best positions handed on are the same under every encoding: ties
/// at the least distance are broken by the canonical position, not by the
/// encoding-specific key (under the key, packed and rank handed American
/// Pie's parking rule different stalls from the same search).
#[test]
fn the_best_positions_do_not_depend_on_the_encoding() {
    let full = classic();
    let puzzles = |encoding: &str| -> Vec<String> {
        let file = format!("best-{encoding}.json");
        best_positions(&full, &file, &["--encoding", encoding])
            .iter()
            .map(|p| p["puzzle"].as_str().unwrap().to_string())
            .collect()
    };
    let (packed, rank) = (puzzles("packed"), puzzles("rank"));
    assert_eq!(packed.len(), 3);
    assert_eq!(packed, rank);
}

#[test]
fn a_restart_from_a_best_position_concatenates_into_a_verified_solution() {
    let full = classic();
    let positions = best_positions(&full, "best.json", &[]);
    assert_eq!(positions.len(), 3);
    // Nearest first, and nearer than the start (distance 3).
    let d: Vec<u64> = positions
        .iter()
        .map(|p| p["distance"].as_u64().unwrap())
        .collect();
    assert!(d.windows(2).all(|w| w[0] <= w[1]) && d[0] < 3, "{d:?}");
    let p = &positions[0];
    let restarted = temp("restart.txt");
    std::fs::write(&restarted, p["puzzle"].as_str().unwrap()).unwrap();
    let rest = temp("rest.sol");
    let r: Value = serde_json::from_str(&ok(
        &[
            "solve",
            restarted.to_str().unwrap(),
            "--json",
            "--solution",
            rest.to_str().unwrap(),
        ],
        0,
    ))
    .unwrap();
    let prefix: Vec<&str> = p["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let whole = temp("whole.sol");
    let text = prefix.join("\n") + "\n" + &std::fs::read_to_string(&rest).unwrap();
    std::fs::write(&whole, text).unwrap();
    let v = verify(&full, whole.to_str().unwrap());
    assert_eq!(v["valid"], true);
    assert_eq!(
        v["steps"].as_u64().unwrap(),
        p["steps"].as_u64().unwrap() + r["steps"].as_u64().unwrap()
    );
    // Solved: the file is rewritten with no positions, never left stale.
    let best = temp("best.json");
    let best = best.to_str().unwrap();
    ok(&["solve", &full, "--best-out", best, "--quiet"], 0);
    let file: Value = serde_json::from_str(&std::fs::read_to_string(best).unwrap()).unwrap();
    assert_eq!(file["positions"].as_array().unwrap().len(), 0);
}

/// Merging interchangeable blocks: a Rush Hour position (dev puzzles, line
/// 90: 52 moves optimal) whose same-shaped cars are types of their own.
/// The merged variant's solution, given back the full puzzle's ids, becomes
/// subgoals that fix every block; the full puzzle is solved section by
/// section and the solution replays against the original.
#[test]
fn a_merged_variants_subgoals_solve_the_full_puzzle_and_replay() {
    let collection = end_to_end::dev_puzzles().join("rushhour_dev.txt");
    let full = temp("rush90.txt");
    let full = full.to_str().unwrap();
    let text = ok(
        &[
            "import",
            collection.to_str().unwrap(),
            "--from",
            "rush",
            "--index",
            "90",
        ],
        0,
    );
    std::fs::write(full, text).unwrap();
    let (variant, variant_sol) = (temp("m.txt"), temp("m.sol"));
    let (variant, variant_sol) = (variant.to_str().unwrap(), variant_sol.to_str().unwrap());
    ok(&["variant", full, "--merge", "-o", variant], 0);
    let merged = std::fs::read_to_string(variant).unwrap();
    assert!(merged.contains("% variant: merged "), "{merged}");
    let solve = |p: &str, sol: &str| -> Value {
        let args = ["solve", p, "--metric", "moves", "--json", "--solution", sol];
        serde_json::from_str(&ok(&args, 0)).unwrap()
    };
    assert_eq!(solve(variant, variant_sol)["moves"], 52);
    let sub = temp("msub.txt");
    let sub = sub.to_str().unwrap();
    let args = [
        "variant",
        full,
        "--merge",
        "--subgoals",
        variant_sol,
        "--every",
        "5",
        "-o",
        sub,
    ];
    ok(&args, 0);
    let sol = temp("msub.sol");
    let sol = sol.to_str().unwrap();
    let r = solve(sub, sol);
    assert!(r["goals_total"].as_u64().unwrap() >= 10, "{r}");
    let v = verify(full, sol);
    assert_eq!(
        (v["valid"].as_bool(), v["goals_total"].as_u64()),
        (Some(true), Some(1))
    );
    assert_eq!(
        v["moves"], 52,
        "subgoals every 5 moves of an optimal solution keep it optimal"
    );
}

/// Asserts that `solver variant PUZZLE ARGS` exits 2 with a message
/// containing the text given, for each case.
fn refused(puzzle: &str, cases: &[(Vec<&str>, &str)]) {
    for (args, says) in cases {
        let mut all = vec!["variant", puzzle];
        all.extend(args.iter().copied());
        let out = run_solver(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{all:?}: {err}");
    }
}

#[test]
fn bad_variant_requests_are_refused_with_exit_2() {
    let full = classic();
    refused(
        &full,
        &[
            (vec!["--remove", "1,2"], "is the master"),
            (vec!["--remove", "5,2"], "no block has its anchor"),
            (vec!["--remove", "x"], "expected ROW,COL"),
            (vec![], "say what to do"),
            (vec!["--remove", "5,1", "--every", "0"], "--every takes"),
            // Classic's blocks of one shape are one type already.
            (vec!["--merge"], "nothing to merge"),
        ],
    );
    let dev = workspace_root().join("puzzles/klotski/classic.txt");
    let text = std::fs::read_to_string(&dev).unwrap();
    let two = temp("two.txt");
    std::fs::write(&two, format!("{text}%%\n{text}")).unwrap();
    let out = run_solver(&["solve", two.to_str().unwrap(), "--best-out", "/tmp/x.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--best-out takes one puzzle"));
}

/// `solver variant --park BEST`: Classic stalls under A* w5 `path` at
/// 10,000 positions; the block on the master's way in the nearest stored
/// position gets a parking place off the master's route, as a goal section
/// before the final goal, and the same search then solves the parked
/// puzzle, whose solution replays against the original.
#[test]
fn parking_the_block_on_the_masters_way_solves_and_replays() {
    let full = classic();
    let (best, parked, sol) = (temp("park.json"), temp("parked.txt"), temp("parked.sol"));
    let (best, parked, sol) = (
        best.to_str().unwrap(),
        parked.to_str().unwrap(),
        sol.to_str().unwrap(),
    );
    let search = [
        "--algorithm",
        "astar",
        "--heuristic",
        "path",
        "--weight",
        "5",
    ];
    let mut stalled = vec!["solve", full.as_str(), "--max-positions", "10000"];
    stalled.extend(search);
    stalled.extend(["--best-out", best, "--json"]);
    let first: Value = serde_json::from_str(&ok(&stalled, 1)).unwrap();
    assert_eq!(first["status"], "limit_reached", "{first}");
    let out = run_solver(&["variant", &full, "--park", best, "-o", parked]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("parked "));
    let text = std::fs::read_to_string(parked).unwrap();
    assert!(text.contains("% parked: round 1: "), "{text}");
    // One goal section more than Classic's one (four `!` lines before).
    assert_eq!(text.matches("\n!\n").count(), 5, "{text}");
    // The optimum no longer holds for the parked puzzle.
    assert!(!text.contains("% optimum"), "{text}");
    let mut again = vec!["solve", parked, "--max-positions", "10000"];
    again.extend(search);
    again.extend(["--solution", sol, "--json"]);
    let solved: Value = serde_json::from_str(&ok(&again, 0)).unwrap();
    assert_eq!(solved["status"], "solved");
    let v = verify(&full, sol);
    assert_eq!(v["valid"], true, "{v}");
    assert!(
        v["steps"].as_u64().unwrap() >= 116,
        "Classic's optimum is 116 steps"
    );
    // A second round keeps the first round's places and adds a section.
    let best2 = temp("park2.json");
    let best2 = best2.to_str().unwrap();
    std::fs::write(best2, std::fs::read_to_string(best).unwrap()).unwrap();
    let twice = temp("parked2.txt");
    let out = run_solver(&[
        "variant",
        parked,
        "--park",
        best2,
        "-o",
        twice.to_str().unwrap(),
    ]);
    if out.status.code() == Some(0) {
        let text2 = std::fs::read_to_string(&twice).unwrap();
        assert!(text2.contains("% parked: round 2: "), "{text2}");
        assert_eq!(text2.matches("\n!\n").count(), 6, "{text2}");
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("could be parked"), "{err}");
    }
}

#[test]
fn bad_park_requests_are_refused_with_exit_2() {
    let full = classic();
    let (garbage, empty) = (temp("garbage.json"), temp("empty.json"));
    std::fs::write(&garbage, "not json").unwrap();
    std::fs::write(&empty, r#"{"puzzle": "x", "positions": []}"#).unwrap();
    let missing = temp("missing.json");
    for (best, says) in [
        (
            garbage.to_str().unwrap(),
            "not a `solver solve --best-out` file",
        ),
        (empty.to_str().unwrap(), "holds no position"),
        (missing.to_str().unwrap(), "cannot read file"),
        ("/dev/zero", "/dev/zero: the file holds more than"),
    ] {
        let out = run_solver(&["variant", &full, "--park", best]);
        assert_eq!(out.status.code(), Some(2), "{best}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{best}: {err}");
    }
    let out = run_solver(&["variant", &full, "--park", "x.json", "--rank"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run_solver(&["variant", &full, "--park-blocks", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--park <BEST>"));
}

/// `solver variant --freeze`: the frozen block is a wall, so the variant is a
/// harder puzzle whose solution is one of the original as written. On Only
/// 18 Steps (32 steps optimal), freezing the block at 1,1 leaves a puzzle
/// BFS solves in 34 steps; that solution replays against the original, and
/// no frozen variant's optimum is below the original's.
#[test]
fn a_frozen_variants_solution_replays_against_the_original() {
    let full = workspace_root()
        .join("puzzles/klotski/only_18_steps.txt")
        .display()
        .to_string();
    let optimum: Value = serde_json::from_str(&ok(&["solve", &full, "--json"], 0)).unwrap();
    assert_eq!(optimum["steps"], 32, "{optimum}");
    let (variant, sol) = (temp("frozen.txt"), temp("frozen.sol"));
    let (variant, sol) = (variant.to_str().unwrap(), sol.to_str().unwrap());
    ok(&["variant", &full, "--freeze", "1,1", "-o", variant], 0);
    let text = std::fs::read_to_string(variant).unwrap();
    assert!(text.contains("% variant: frozen "), "{text}");
    let hard: Value =
        serde_json::from_str(&ok(&["solve", variant, "--json", "--solution", sol], 0)).unwrap();
    assert_eq!(hard["steps"], 34, "{hard}");
    let replay = verify(&full, sol);
    assert_eq!(replay["valid"], true, "{replay}");
    assert_eq!(replay["steps"], 34, "{replay}");
    // An area over the two top blocks of the left column freezes both
    // (36 steps then), and that solution replays against the original too.
    ok(
        &["variant", &full, "--freeze-area", "1,1,2,1", "-o", variant],
        0,
    );
    let both = std::fs::read_to_string(variant).unwrap();
    assert!(both.contains("% variant: frozen a 1,1; a 2,1"), "{both}");
    let harder: Value =
        serde_json::from_str(&ok(&["solve", variant, "--json", "--solution", sol], 0)).unwrap();
    assert_eq!(harder["steps"], 36, "{harder}");
    assert_eq!(verify(&full, sol)["valid"], true);
}

#[test]
fn bad_freeze_requests_are_refused_with_exit_2() {
    let full = classic();
    refused(
        &full,
        &[
            (vec!["--freeze", "1,2"], "is the master"),
            // The two `o` of row 4 stand where the goal puts the master.
            (
                vec!["--freeze", "4,2"],
                "cannot be solved as written: the goal places block '@' on a wall",
            ),
            (
                vec!["--freeze", "5,1", "--every", "2"],
                "cannot be used with",
            ),
            (vec!["--freeze", "5,2"], "no block has its anchor"),
            (
                vec!["--freeze-area", "1,1,0,0"],
                "top left then the bottom right",
            ),
            (vec!["--freeze-area", "1,1,2"], "expected R1,C1,R2,C2"),
            (
                vec!["--freeze-area", "0,0,0,5"],
                "no block other than the master",
            ),
            (
                vec!["--freeze", "5,1", "--remove", "5,1"],
                "cannot be used with",
            ),
        ],
    );
}

/// GNOME Klotski's Ithaca, marked SOLVEME in GNOME's source, has a
/// solution: `experiments/fluid/ithaca.py` found the one committed in
/// `experiments/results/ithaca.sol` (the inside by `solver solve
/// --algorithm fluid`, the way out by BFS on a frozen variant, the rest by A*).
/// The verifier replays it against the level as bundled.
#[test]
fn the_committed_ithaca_solution_replays_in_the_verifier() {
    let root = workspace_root();
    let level = root.join("puzzles/klotski/ithaca.txt");
    let sol = root.join("experiments/results/ithaca.sol");
    let replay = verify(level.to_str().unwrap(), sol.to_str().unwrap());
    assert_eq!(replay["valid"], true, "{replay}");
    assert_eq!(replay["steps"], 367, "{replay}");
    assert_eq!(replay["moves"], 304, "{replay}");
}

/// GNOME Klotski's Sunshine has a solution: two helper sessions chained 23
/// searches on frozen variants (`experiments/sunshine/`: the master
/// stepping up as a side 5x5 block steps down, then the 2x2 blocks stored
/// in aligned pairs in the side columns so that the units flow round the
/// master). The verifier replays it against the level as bundled.
#[test]
fn the_committed_sunshine_solution_replays_in_the_verifier() {
    let root = workspace_root();
    let level = root.join("puzzles/klotski/sunshine.txt");
    let sol = root.join("experiments/results/sunshine.sol");
    let replay = verify(level.to_str().unwrap(), sol.to_str().unwrap());
    assert_eq!(replay["valid"], true, "{replay}");
    assert_eq!(replay["steps"], 1526, "{replay}");
    assert_eq!(replay["moves"], 1308, "{replay}");
}

/// A frame whose master-only door (`-`) parts the master's region, where
/// `b` blocks its way out, from the outside, where `a` stands on its goal.
const DOOR_FRAME: &str = "!\n@\na\nb\n!\na      \n  #####\n  -b @#\n  #   #\n  #####\n!\n@      \n  #####\n  -   #\n  #   #\n  #####\n!\n";

/// Solves `puzzle` into `solution` and asserts that the solution replays.
fn solves_and_replays(puzzle: &str, solution: &str) {
    ok(&["solve", puzzle, "--quiet", "--solution", solution], 0);
    assert_eq!(verify(puzzle, solution)["valid"], true);
}

/// `solver variant --split`: a frame whose master-only door parts the
/// master's region (where `b` blocks its way out) from the outside (where
/// `a` stands on its goal). The three parts are solved by BFS; the parts'
/// moves (`--moves-out`) and the rest's solution, joined, replay against
/// the original as a solution.
#[test]
fn a_door_splits_into_three_parts_whose_solutions_join_and_replay() {
    let full = temp("frame.txt");
    std::fs::write(&full, DOOR_FRAME).unwrap();
    let full = full.to_str().unwrap();
    let part = |name: &str| temp(name).display().to_string();
    let (inside, outside, rest, moves) = (
        part("in.txt"),
        part("out.txt"),
        part("rest.txt"),
        part("moves.sol"),
    );
    ok(&["variant", full, "--split", "inside", "-o", &inside], 0);
    ok(&["variant", full, "--split", "outside", "-o", &outside], 0);
    let (s1, s2, s3) = (part("in.sol"), part("out.sol"), part("rest.sol"));
    solves_and_replays(&inside, &s1);
    solves_and_replays(&outside, &s2);
    // The inside part ends with the master by the door, 'b' out of its way.
    let steps1 = verify(&inside, &s1)["steps"].as_u64().unwrap();
    assert_eq!(steps1, 3, "b down, the master two left");
    ok(
        &[
            "variant",
            full,
            "--split",
            "rest",
            "--inside-solution",
            &s1,
            "--outside-solution",
            &s2,
            "--moves-out",
            &moves,
            "-o",
            &rest,
        ],
        0,
    );
    solves_and_replays(&rest, &s3);
    let whole = part("whole.sol");
    let joined = std::fs::read_to_string(&moves).unwrap() + &std::fs::read_to_string(&s3).unwrap();
    std::fs::write(&whole, joined).unwrap();
    let replay = verify(full, &whole);
    assert_eq!(replay["valid"], true, "{replay}");
    // 3 inside, 'a' one step off the goal, the master 5 out: 9 steps.
    assert_eq!(replay["steps"], 9, "{replay}");
    split_misuses_are_refused(full, &s1, &moves, &whole);
}

/// `solver variant --split` refuses what does not make a split of the door
/// frame `full` (`s1`: its inside part's solution, `moves`: where the
/// parts' moves went, `whole`: the whole frame's solution), and a puzzle
/// without a door.
fn split_misuses_are_refused(full: &str, s1: &str, moves: &str, whole: &str) {
    refused(
        full,
        &[(
            vec!["--split", "rest", "--inside-solution", s1],
            "needs --outside-solution",
        )],
    );
    refused(
        &classic(),
        &[(vec!["--split", "inside"], "no door to split at")],
    );
    refused(
        full,
        &[
            (
                vec!["--split", "inside", "--moves-out", moves],
                "go with --split rest",
            ),
            // The whole frame's solution is not the outside part's.
            (
                vec![
                    "--split",
                    "rest",
                    "--inside-solution",
                    s1,
                    "--outside-solution",
                    whole,
                ],
                "outside part's solution does not replay",
            ),
        ],
    );
}

/// `--rank` on a puzzle whose master has no goal (here the goal places
/// another block only) measures no distance: `-` in the table and null in
/// JSON, where it printed 4294967295.
#[test]
fn rank_without_a_master_goal_shows_no_distance() {
    let text = "!\n@\nv 0,1\n!\n#####\n#@ v#\n#  v#\n#   #\n#####\n!\n#####\n#   #\n#  v#\n#  v#\n#####\n!\n";
    let file = temp("no-master-goal.txt");
    std::fs::write(&file, text).unwrap();
    let f = file.to_str().unwrap();
    let table = ok(&["variant", f, "--rank"], 0);
    let row = table.lines().nth(1).unwrap();
    assert!(row.starts_with("v ") && row.contains(" -  "), "{table}");
    assert!(!table.contains("4294967295"), "{table}");
    let json: Value = serde_json::from_str(&ok(&["variant", f, "--rank", "--json"], 0)).unwrap();
    assert_eq!(json[0]["distance"], Value::Null, "{json}");
}
