//! End-to-end tests of `solver solve` and `solver count`: solution lengths
//! against published optima, exhaustive counts, options that change the
//! search as documented, limits, and every printed solution replayed by
//! `solver verify`.

use std::path::{Path, PathBuf};
use std::process::Output;

use end_to_end::{dev_puzzles, run_solver};
use serde_json::Value;

fn solver(args: &[&str]) -> Output {
    run_solver(args)
}

/// Runs `solver` and parses every JSON line it printed.
fn json_lines(args: &[&str]) -> (i32, Vec<Value>) {
    let out = solver(args);
    let text = String::from_utf8_lossy(&out.stdout);
    let rows = text
        .lines()
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| {
                panic!(
                    "bad JSON {l:?}: {e}\nstderr: {}",
                    String::from_utf8_lossy(&out.stderr)
                )
            })
        })
        .collect();
    (out.status.code().unwrap_or(-1), rows)
}

fn one(args: &[&str]) -> (i32, Value) {
    let (code, mut rows) = json_lines(args);
    assert_eq!(rows.len(), 1, "one JSON object expected for {args:?}");
    (code, rows.remove(0))
}

/// The first number of every non-empty line: the published optima of the dev files.
fn first_column(file: &std::path::Path) -> Vec<u64> {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("search-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Solves with `--solution`, checks the length, and replays the file in `solver verify`.
fn solve_and_verify(puzzle: &str, extra: &[&str], field: &str, expected: u64) -> Value {
    let file = temp(&format!(
        "{}-{field}-{}.sol",
        puzzle.replace('/', "_"),
        extra.join("_").replace('/', "_")
    ));
    let file_s = file.to_str().unwrap();
    let mut args = vec!["solve", puzzle, "--json", "--quiet", "--solution", file_s];
    args.extend_from_slice(extra);
    let (code, r) = one(&args);
    assert_eq!(code, 0, "{puzzle} {extra:?}: {r}");
    assert_eq!(r["status"], "solved");
    assert_eq!(r[field].as_u64(), Some(expected), "{puzzle} {extra:?}: {r}");
    let v = solver(&["verify", puzzle, file_s, "--json"]);
    assert!(
        v.status.success(),
        "verify rejected the solution of {puzzle}: {}",
        String::from_utf8_lossy(&v.stdout)
    );
    let replay: Value = serde_json::from_slice(&v.stdout).expect("verify --json");
    assert_eq!(
        replay["steps"], r["steps"],
        "verifier and solver disagree on steps"
    );
    r
}

#[test]
fn classic_klotski_116_steps_and_81_moves() {
    solve_and_verify("puzzles/klotski/classic.txt", &[], "steps", 116);
    solve_and_verify(
        "puzzles/klotski/classic.txt",
        &["--metric", "moves"],
        "moves",
        81,
    );
}

#[test]
fn classic_klotski_has_25955_reachable_positions() {
    let (code, r) = one(&["count", "puzzles/klotski/classic.txt", "--json", "--quiet"]);
    assert_eq!(code, 0);
    assert_eq!(r["complete"], true);
    assert_eq!(r["positions"], 25955);
}

#[test]
fn gnome_levels_with_exit_doors_reach_their_optima() {
    solve_and_verify("puzzles/klotski/red_donkey.txt", &[], "steps", 121);
    solve_and_verify(
        "puzzles/klotski/red_donkey.txt",
        &["--metric", "moves"],
        "moves",
        81,
    );
    solve_and_verify("puzzles/klotski/pennant.txt", &[], "steps", 89);
    solve_and_verify(
        "puzzles/klotski/pennant.txt",
        &["--metric", "moves"],
        "moves",
        59,
    );
}

#[test]
fn eight_puzzle_space_and_a_hardest_position() {
    let (_, r) = one(&[
        "count",
        "puzzles/tiles/eight_hardest_a.txt",
        "--json",
        "--quiet",
    ]);
    assert_eq!(r["positions"], 181440);
    for algorithm in ["bfs", "bidir"] {
        solve_and_verify(
            "puzzles/tiles/eight_hardest_a.txt",
            &["--algorithm", algorithm],
            "steps",
            31,
        );
    }
    solve_and_verify(
        "puzzles/tiles/eight_hardest_a.txt",
        &["--algorithm", "ida", "--heuristic", "manhattan"],
        "steps",
        31,
    );
    solve_and_verify(
        "puzzles/tiles/eight_hardest_a.txt",
        &["--algorithm", "astar", "--heuristic", "manhattan"],
        "steps",
        31,
    );
}

#[test]
fn every_rush_hour_dev_line_in_its_optimal_move_count() {
    let dev = dev_puzzles();
    let file = dev.join("rushhour_dev.txt");
    let optima = first_column(&file);
    let sol = temp("rush.sol");
    let (code, rows) = json_lines(&[
        "solve",
        file.to_str().unwrap(),
        "--from",
        "rush",
        "--metric",
        "moves",
        "--json",
        "--solution",
        sol.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert_eq!(rows.len(), optima.len());
    for (k, (r, &opt)) in rows.iter().zip(&optima).enumerate() {
        assert_eq!(r["moves"].as_u64(), Some(opt), "line {}: {r}", k + 1);
    }
    // Replay a spread of the written solutions in the verifier.
    for k in [1usize, 20, 50, rows.len()] {
        let v = solver(&[
            "verify",
            file.to_str().unwrap(),
            &format!("{}.{k}", sol.display()),
            "--from",
            "rush",
            "--index",
            &k.to_string(),
        ]);
        assert!(
            v.status.success(),
            "line {k}: {}",
            String::from_utf8_lossy(&v.stdout)
        );
    }
}

/// A row of `solve --json` without what depends on the run (time, memory,
/// and the limits and encoding reason that name the memory share).
fn outcome(row: &Value) -> Value {
    let mut row = row.clone();
    for field in [
        "elapsed_ms",
        "peak_memory_bytes",
        "limits",
        "encoding_reason",
    ] {
        row.as_object_mut().unwrap().remove(field);
    }
    row
}

/// A collection searched several puzzles at a time (`--jobs`) reports what
/// one at a time reports, in the collection's order, with the same solution
/// files; each job gets its share of `--max-memory`; and a puzzle the
/// parameters do not fit ends the run at that puzzle, after the same rows.
#[test]
fn a_collection_gives_the_same_results_on_any_number_of_jobs() {
    let file = dev_puzzles().join("rushhour_dev.txt");
    let file = file.to_str().unwrap();
    let (code, one_at_a_time, solutions) = solve_collection(file, "1");
    assert_eq!((code, one_at_a_time.len()), (0, 95));
    assert_eq!(one_at_a_time[0]["limits"]["max_memory"], 64 << 20);
    for jobs in ["2", "3"] {
        let (code, rows, files) = solve_collection(file, jobs);
        assert_eq!(code, 0, "{jobs} jobs");
        let same = rows
            .iter()
            .map(outcome)
            .eq(one_at_a_time.iter().map(outcome));
        assert!(same, "{jobs} jobs: other rows or another order");
        assert_eq!(files, solutions, "{jobs} jobs: other solutions");
        let share = (64u64 << 20) / jobs.parse::<u64>().unwrap();
        assert_eq!(rows[0]["limits"]["max_memory"], share, "{jobs} jobs");
    }
    // `--lock B` on boards that have a B, then one that has not (line 1:
    // the red car alone), then more: that board is refused (exit 2) and
    // named, after every board before it is reported, on any number of jobs.
    let mixed = mixed_collection(file);
    let (code, rows, stderr) = solve_locked(&mixed, "1");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("(rush line 7)") && stderr.contains("'B'"),
        "{stderr}"
    );
    assert_eq!(rows.len(), 6, "the six boards before it");
    assert!(
        solve_locked(&mixed, "2") == (code, rows, stderr),
        "2 jobs: other rows"
    );
    // `count` names the refused board the same way.
    let counted = solver(&[
        "count",
        mixed.to_str().unwrap(),
        "--from",
        "rush",
        "--lock",
        "B",
    ]);
    let stderr = String::from_utf8_lossy(&counted.stderr);
    assert_eq!(counted.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("(rush line 7)"), "{stderr}");
}

/// Solves the Rush Hour collection `file` on `jobs` jobs, with the packed
/// encoding and 64 MiB of memory: the exit code, the JSON rows, and the
/// solution files' contents in the collection's order.
fn solve_collection(file: &str, jobs: &str) -> (i32, Vec<Value>, Vec<String>) {
    let sol = temp(&format!("jobs-{jobs}.sol"));
    let (code, rows) = json_lines(&[
        "solve",
        file,
        "--from",
        "rush",
        "--metric",
        "moves",
        "--json",
        "--jobs",
        jobs,
        // auto weighs its choice against the memory share: held fixed here.
        "--encoding",
        "packed",
        "--max-memory",
        "64M",
        "--solution",
        sol.to_str().unwrap(),
    ]);
    let solutions: Vec<String> = (1..=rows.len())
        .map(|k| std::fs::read_to_string(format!("{}.{k}", sol.display())).unwrap())
        .collect();
    (code, rows, solutions)
}

/// A collection of lines of the Rush Hour collection `file`: six boards
/// that have a `B`, then line 1 (the red car alone, no `B`), then two more.
fn mixed_collection(file: &str) -> PathBuf {
    let lines: Vec<String> = std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let mixed = temp("mixed.txt");
    let picked: Vec<&String> = [40, 41, 43, 44, 45, 46, 0, 47, 48]
        .iter()
        .map(|&k| &lines[k])
        .collect();
    let picked: Vec<&str> = picked.iter().map(|l| l.as_str()).collect();
    std::fs::write(&mixed, picked.join("\n")).unwrap();
    mixed
}

/// Solves the collection `mixed` with `--lock B` on `jobs` jobs: the exit
/// code, the rows' outcomes, and the standard error.
fn solve_locked(mixed: &Path, jobs: &str) -> (Option<i32>, Vec<Value>, String) {
    let out = solver(&[
        "solve",
        mixed.to_str().unwrap(),
        "--from",
        "rush",
        "--metric",
        "moves",
        "--lock",
        "B",
        "--json",
        "--jobs",
        jobs,
    ]);
    let rows: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| outcome(&serde_json::from_str(l).unwrap()))
        .collect();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), rows, stderr)
}

/// `count --jobs 2` of the Rush Hour database sample: every board's
/// reachable positions equal its published cluster size (the file's third
/// column), in the file's order, and one job at a time gives the same rows.
#[test]
fn a_collection_counted_two_at_a_time_gives_every_cluster_size() {
    let file = dev_puzzles().join("rushhour_dev.txt");
    let text = std::fs::read_to_string(&file).unwrap();
    let clusters: Vec<u64> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect();
    let count = |jobs: &str| {
        let args = [
            "count",
            file.to_str().unwrap(),
            "--from",
            "rush",
            "--metric",
            "moves",
        ];
        let (code, rows) = json_lines(&[&args[..], &["--json", "--jobs", jobs]].concat());
        assert_eq!(code, 0, "{jobs} jobs");
        rows
    };
    let two = count("2");
    let counted: Vec<u64> = two
        .iter()
        .map(|r| r["positions"].as_u64().unwrap())
        .collect();
    assert_eq!(counted, clusters);
    let without_times = |rows: &[Value]| -> Vec<Value> { rows.iter().map(outcome).collect() };
    assert_eq!(without_times(&count("1")), without_times(&two));
}

/// A* with a costly heuristic on two threads (its successors' estimates
/// shared out, `search/estimates.rs`) stores, examines and reaches what one
/// thread does, capped on Ithaca (where `path` costs some 18 microseconds a
/// node, enough for the threads to take over) and solved on Classic.
#[test]
fn astar_on_two_threads_searches_as_on_one() {
    for (puzzle, cap) in [
        ("puzzles/klotski/ithaca.txt", "4000"),
        ("puzzles/klotski/classic.txt", "100000"),
    ] {
        let run = |threads: &str| {
            let args = [
                "solve",
                puzzle,
                "--algorithm",
                "astar",
                "--heuristic",
                "path",
            ];
            let more = [
                "--weight",
                "5",
                "--max-positions",
                cap,
                "--threads",
                threads,
            ];
            let (_, r) = one(&[&args[..], &more, &["--json"]].concat());
            let fields = [
                "positions_examined",
                "positions_stored",
                "best_distance",
                "steps",
            ];
            fields.map(|f| r[f].clone())
        };
        let one_thread = run("1");
        assert_eq!(run("2"), one_thread, "{puzzle}");
        assert!(
            one_thread[1].as_u64() > Some(10_000),
            "{puzzle}: {one_thread:?}"
        );
    }
}

#[test]
fn korf_instances_solved_optimally_by_ida() {
    let dev = dev_puzzles();
    let file = dev.join("korf_first10.txt");
    let optima = first_column(&file);
    let (code, rows) = json_lines(&[
        "solve",
        file.to_str().unwrap(),
        "--from",
        "tiles",
        "--algorithm",
        "ida",
        "--heuristic",
        "manhattan",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(rows.len(), optima.len());
    for (k, (r, &opt)) in rows.iter().zip(&optima).enumerate() {
        assert_eq!(
            r["steps"].as_u64(),
            Some(opt),
            "Korf instance {}: {r}",
            k + 1
        );
    }
}

#[test]
fn space_value_below_the_threshold_proves_no_solution() {
    // Classic Klotski's threshold is 3: with 2 the space is exhausted.
    let (code, r) = one(&[
        "solve",
        "puzzles/klotski/classic.txt",
        "--space-value",
        "2",
        "--json",
    ]);
    assert_eq!(code, 1);
    assert_eq!(r["status"], "no_solution");
    assert_eq!(r["params"]["space_value"], 2);
    let solved = solve_and_verify(
        "puzzles/klotski/classic.txt",
        &["--space-value", "3"],
        "steps",
        118,
    );
    let plain = solve_and_verify("puzzles/klotski/classic.txt", &[], "steps", 116);
    assert!(solved["positions_examined"].as_u64() < plain["positions_examined"].as_u64());
}

#[test]
fn resting_block_pruning_and_weights_reduce_the_work() {
    // Thesis §3.2.1: resting-block pruning works best with moves.
    let examined = |extra: &[&str]| {
        let mut args = vec!["solve", "puzzles/klotski/century.txt", "--json", "--quiet"];
        args.extend_from_slice(extra);
        let (code, r) = one(&args);
        assert_eq!(code, 0, "{r}");
        r["positions_examined"].as_u64().unwrap()
    };
    let off = examined(&["--metric", "moves"]);
    let relaxed = examined(&["--metric", "moves", "--resting", "relaxed"]);
    let strict = examined(&["--metric", "moves", "--resting", "strict"]);
    assert!(
        strict < relaxed && relaxed < off,
        "off {off}, relaxed {relaxed}, strict {strict}"
    );
    let bfs = examined(&[]);
    let weighted = examined(&[
        "--algorithm",
        "astar",
        "--heuristic",
        "h2",
        "--h2",
        "6,16,2",
        "--weight",
        "3",
    ]);
    assert!(weighted < bfs, "A* h2 weight 3 {weighted} vs BFS {bfs}");
}

#[test]
fn unsolvable_twin_is_proved_and_subgoals_are_chained() {
    let (code, r) = one(&["solve", "puzzles/special/twin_unsolvable.txt", "--json"]);
    assert_eq!((code, r["status"].as_str()), (1, Some("no_solution")));
    let r = solve_and_verify(
        "puzzles/special/klotski_there_and_back.txt",
        &[],
        "goals_reached",
        2,
    );
    assert_eq!(r["goals_total"], 2);
}

#[test]
fn max_memory_stops_the_search_cleanly() {
    let (code, r) = one(&[
        "count",
        "puzzles/bench/bench_1e7.txt",
        "--max-memory",
        "16M",
        "--encoding",
        "packed",
        "--json",
        "--quiet",
    ]);
    assert_eq!(code, 1);
    assert_eq!(r["limit"], "max_memory");
    let peak = r["peak_memory_bytes"].as_u64().unwrap();
    assert!(
        peak <= 16 * 1024 * 1024 * 11 / 10,
        "peak {peak} more than 10% over the limit"
    );
    // Where a table of keys would not fit, auto takes the dense array
    // (3.7 MB for the bench's 9,979,200 ranks) and counts every position.
    let (code, r) = one(&[
        "count",
        "puzzles/bench/bench_1e7.txt",
        "--max-memory",
        "16M",
        "--json",
        "--quiet",
    ]);
    assert_eq!((code, r["complete"].as_bool()), (0, Some(true)), "{r}");
    assert_eq!(r["positions"], 9_979_200);
    assert!(r["peak_memory_bytes"].as_u64().unwrap() <= 16 << 20, "{r}");
    let (code, r) = one(&[
        "solve",
        "puzzles/klotski/century.txt",
        "--max-positions",
        "1000",
        "--json",
    ]);
    assert_eq!((code, r["status"].as_str()), (1, Some("limit_reached")));
    assert!(r["best_distance"].as_u64() <= r["start_distance"].as_u64());
}

#[test]
fn all_encodings_and_thread_counts_agree_on_counts_and_lengths() {
    for puzzle in [
        "puzzles/klotski/classic.txt",
        "puzzles/tiles/eight_hardest_a.txt",
        "puzzles/rushhour/rush_30.txt",
    ] {
        let mut seen = Vec::new();
        // Rush Hour's rank has 2^41 ranks: no dense array for it.
        let dense = !puzzle.contains("rush");
        let encodings = ["rank", "packed", "sets", "auto", "dense"];
        for encoding in encodings.into_iter().filter(|&e| dense || e != "dense") {
            let (_, c) = one(&["count", puzzle, "--encoding", encoding, "--json", "--quiet"]);
            let (_, s) = one(&["solve", puzzle, "--encoding", encoding, "--json", "--quiet"]);
            seen.push((c["positions"].clone(), s["steps"].clone()));
        }
        for threads in ["2", "3"] {
            let (_, c) = one(&["count", puzzle, "--threads", threads, "--json", "--quiet"]);
            let (_, s) = one(&["solve", puzzle, "--threads", threads, "--json", "--quiet"]);
            seen.push((c["positions"].clone(), s["steps"].clone()));
        }
        assert!(seen.windows(2).all(|w| w[0] == w[1]), "{puzzle}: {seen:?}");
    }
}

/// An explicit `--encoding dense` whose array cannot fit is refused before
/// the search, saying what it needs and what to use instead (Rush Hour's
/// rank has 2^41 ranks; under `--max-memory 1M` even classic Klotski's
/// 156 KB array is refused, since the process holds more); where the
/// search cannot use the array (A*), the rank's keys are stored.
#[test]
fn a_dense_array_that_cannot_fit_is_refused_with_what_to_do() {
    for args in [
        &[
            "count",
            "puzzles/rushhour/rush_30.txt",
            "--encoding",
            "dense",
        ][..],
        &[
            "solve",
            "puzzles/klotski/classic.txt",
            "--encoding",
            "dense",
            "--max-memory",
            "1M",
        ],
    ] {
        let out = solver(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("--encoding dense needs") && stderr.contains("use --encoding auto"),
            "{args:?}: {stderr}"
        );
    }
    let (code, r) = one(&[
        "solve",
        "puzzles/rushhour/rush_30.txt",
        "--encoding",
        "dense",
        "--algorithm",
        "astar",
        "--json",
    ]);
    assert_eq!((code, r["encoding"].as_str()), (0, Some("dense")), "{r}");
    assert!(r["steps"].as_u64().is_some(), "{r}");
}

/// Reinefeld's hardest 8-puzzle position (31 steps, 181,440 positions
/// reachable) beside 24 interchangeable blocks walled into cells of their
/// own: under `packed` every block's field counts the 33 open cells, 192
/// bits in all, so the set keeps the keys apart from its slots and BFS
/// queues references to them. The count and the optimum are the 8-puzzle's
/// for every encoding (`rank` stays within a word) and thread count, and
/// the solution replays.
#[test]
fn wide_keys_queued_by_reference_count_and_solve_as_narrow_ones() {
    let puzzle = temp("eight-beside-walled-blocks.txt");
    let walled = "a#".repeat(24);
    let wall = "#".repeat(53);
    let rows = |a: &str, b: &str, c: &str, pockets: &str| {
        format!(
            "{wall}\n#{a}#{pockets}\n#{b}#{}\n#{c}#{}\n{wall}",
            "#".repeat(48),
            "#".repeat(48)
        )
    };
    let text = format!(
        "!\n1\n2\n3\n4\n5\n6\n7\n8\na\n!\n{}\n!\n{}\n!\n",
        rows("867", "254", "3 1", &walled),
        rows("123", "456", "78 ", &" #".repeat(24)),
    );
    std::fs::write(&puzzle, text).unwrap();
    let p = puzzle.to_str().unwrap();
    let (_, r) = one(&[
        "solve",
        p,
        "--encoding",
        "packed",
        "--max-positions",
        "1",
        "--json",
    ]);
    assert!(r["key_bits"].as_u64() > Some(128), "{r}");
    for (encoding, threads) in [
        ("packed", "1"),
        ("packed", "2"),
        ("packed", "3"),
        ("rank", "1"),
        ("sets", "2"),
    ] {
        let (code, c) = one(&[
            "count",
            p,
            "--encoding",
            encoding,
            "--threads",
            threads,
            "--json",
            "--quiet",
        ]);
        assert_eq!(code, 0, "{encoding} {threads}: {c}");
        assert_eq!(
            c["positions"].as_u64(),
            Some(181_440),
            "{encoding} {threads}: {c}"
        );
        let extra = ["--encoding", encoding, "--threads", threads];
        solve_and_verify(p, &extra, "steps", 31);
    }
}

/// A type whose blocks fill every place they can take has one set of
/// places: under `sets` it takes no bits, here at the very end of a key
/// whose other fields fill whole words (a 0-bit field read past the key's
/// last word once panicked). The solution is the packed encoding's length
/// and replays.
#[test]
fn sets_keeps_a_type_that_fills_its_places_in_no_bits() {
    let puzzle = temp("fills-its-places.txt");
    let cells = "#  #  #  #  #  #  #";
    let mut start = vec!["######################".to_string()];
    for id in ["a", "c", "d", "e", "f", "g", "i", "j", " ", " "] {
        start.push(format!("#{id} {cells}"));
    }
    let goal: Vec<String> = (0..10)
        .map(|r| format!("#{}{cells}", if r == 0 { " a" } else { "  " }))
        .collect();
    let text = format!(
        "!\na\nc\nd\ne\nf\ng\ni\nj\nb 1,0 2,0\n!\n{}\n######################\n#bbb#bbb##############\n######################\n!\n######################\n{}\n######################\n#   #   ##############\n######################\n!\n",
        start.join("\n"),
        goal.join("\n")
    );
    std::fs::write(&puzzle, text).unwrap();
    let p = puzzle.to_str().unwrap();
    for encoding in ["packed", "sets"] {
        let r = solve_and_verify(p, &["--encoding", encoding], "steps", 1);
        assert_eq!(r["encoding"], encoding, "{r}");
    }
}

/// Threads insert into their own shards of the visited set, yet in the
/// order one thread would: with a cap on expansions, what is stored (which
/// depends on that order) is the same for 1, 2 and 3 threads, for both
/// encodings and both metrics.
#[test]
fn capped_counts_store_the_same_positions_for_any_thread_count() {
    for encoding in ["rank", "packed", "sets"] {
        for metric in ["steps", "moves"] {
            let mut seen = Vec::new();
            for threads in ["1", "2", "3"] {
                let (code, c) = one(&[
                    "count",
                    "puzzles/bench/bench_1e6.txt",
                    "--max-positions",
                    "100000",
                    "--encoding",
                    encoding,
                    "--metric",
                    metric,
                    "--threads",
                    threads,
                    "--json",
                    "--quiet",
                ]);
                assert_eq!(code, 1, "{c}");
                assert_eq!(c["positions_examined"].as_u64(), Some(100000), "{c}");
                seen.push(c["positions"].clone());
            }
            assert!(
                seen.windows(2).all(|w| w[0] == w[1]),
                "{encoding} {metric}: {seen:?}"
            );
        }
    }
}

/// Under `--metric moves` BFS skips the block that moved last: counts and
/// optimal move counts (known optima, solutions replayed by the verifier)
/// stay the same for both encodings and 1 or 2 threads.
#[test]
fn metric_moves_counts_and_optima_agree_for_every_encoding_and_thread_count() {
    for (puzzle, positions, moves) in [
        ("puzzles/klotski/classic.txt", 25955, 81),
        ("puzzles/rushhour/rush_30.txt", 7684, 30),
    ] {
        for encoding in ["rank", "packed", "sets"] {
            for threads in ["1", "2"] {
                let flags = [
                    "--metric",
                    "moves",
                    "--encoding",
                    encoding,
                    "--threads",
                    threads,
                ];
                let (code, c) =
                    one(&[&["count", puzzle, "--json", "--quiet"][..], &flags].concat());
                assert_eq!(code, 0, "{puzzle} {flags:?}: {c}");
                assert_eq!(
                    c["positions"].as_u64(),
                    Some(positions),
                    "{puzzle} {flags:?}"
                );
                solve_and_verify(puzzle, &flags, "moves", moves);
            }
        }
    }
}

/// Bad search options exit 2 before any search, each naming what is wrong.
#[test]
fn bad_search_options_exit_2() {
    let classic = "puzzles/klotski/classic.txt";
    for (extra, says) in [
        (
            ["--lock", "Z"],
            "--lock names block 'Z', which the puzzle does not have",
        ),
        (["--h2", "1,2"], "--h2 takes 3 comma-separated values"),
        (["--max-memory", "lots"], "--max-memory takes a byte count"),
        (
            ["--algorithm", "bidir"],
            "needs a goal that fixes every block",
        ),
    ] {
        let mut args = vec!["solve", classic];
        args.extend(extra);
        let out = solver(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn manhattan_with_modified_linear_conflict_stays_admissible() {
    // Goal tiles 1-3 must pass free 1x1 blocks `o`: IDA* and A* with the
    // admissible heuristic must find BFS's optimal length.
    let puzzle = temp("modified-lc.txt");
    std::fs::write(
        &puzzle,
        "!\n1\n2\n3\no\n!\n######\n#1o 3#\n#o2o #\n#  o #\n######\n!\n######\n#   1#\n#2   #\n#3   #\n######\n!\n",
    )
    .unwrap();
    let p = puzzle.to_str().unwrap();
    let (_, bfs) = one(&["solve", p, "--json", "--quiet"]);
    let optimum = bfs["steps"].as_u64().unwrap();
    assert_eq!(optimum, 13);
    for algorithm in ["ida", "astar"] {
        solve_and_verify(
            p,
            &["--algorithm", algorithm, "--heuristic", "manhattan"],
            "steps",
            optimum,
        );
    }
}

#[test]
fn bench_measures_the_encodings_named_as_for_encoding() {
    let out = solver(&[
        "bench",
        "puzzles/klotski/classic.txt",
        "--encodings",
        "packed,rank",
        "--threads",
        "1",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<Vec<&str>> = table
        .lines()
        .skip(2)
        .map(|l| l.split('|').map(str::trim).collect())
        .collect();
    // One row per encoding and metric (steps and moves by default), in the
    // order asked, each counting all 25,955 (both metrics reach the same
    // positions).
    let column = |c: usize| rows.iter().map(|r| r[c]).collect::<Vec<_>>();
    assert_eq!(rows.len(), 4, "{table}");
    assert_eq!(column(3), ["packed", "packed", "rank", "rank"], "{table}");
    assert_eq!(column(10), ["steps", "moves", "steps", "moves"], "{table}");
    assert!(rows.iter().all(|r| r[2] == "25955"), "{table}");
    // Classic states no reachable count: counted whole, with a hint.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("states no reachable count") && err.contains("--max-positions"),
        "{err}"
    );
}

/// `bench --max-positions`: stopped after 1,000 positions examined, a row
/// says "at least" the positions stored by then, more than examined and
/// fewer than the whole space, and no hint is printed.
#[test]
fn bench_stopped_by_max_positions_says_at_least() {
    let out = solver(&[
        "bench",
        "puzzles/klotski/classic.txt",
        "--encodings",
        "packed",
        "--metrics",
        "steps",
        "--threads",
        "1",
        "--max-positions",
        "1000",
    ]);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stored: Vec<u64> = table
        .lines()
        .skip(2)
        .map(|l| {
            let cell = l.split('|').nth(2).unwrap().trim();
            let n = cell.strip_prefix("at least ").expect("a stopped count");
            n.parse().unwrap()
        })
        .collect();
    assert_eq!(out.status.code(), Some(0), "{table}");
    assert!(
        stored.len() == 1 && (1000..25955).contains(&stored[0]),
        "{table}"
    );
}

#[test]
fn bench_refuses_an_unknown_encoding_naming_the_known_ones() {
    let out = solver(&[
        "bench",
        "puzzles/klotski/classic.txt",
        "--encodings",
        "rank,zip",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("'zip'") && err.contains("auto, rank, packed"),
        "{err}"
    );
}

/// Every heuristic `solver heuristics --json` declares admissible under a
/// metric leads A* (weight 1) to BFS's optimum under that metric. Cleopatra
/// is a level where a wrong declaration shows: `h0` (the master's distance
/// in cells) gives 32 moves where 31 is optimal, since one move may carry
/// the master across several cells; it is declared admissible under steps
/// only.
#[test]
fn heuristics_declared_admissible_under_a_metric_give_its_optimum() {
    let out = solver(&["heuristics", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let list: Value = serde_json::from_slice(&out.stdout).expect("heuristics --json");
    let list = list.as_array().expect("a list of heuristics");
    let admissible = |name: &str| {
        list.iter()
            .find(|h| h["name"] == name)
            .map(|h| h["admissible"].clone())
    };
    assert_eq!(admissible("h0"), Some(Value::from("steps")));
    assert_eq!(admissible("blind"), Some(Value::from("always")));
    let puzzle = "puzzles/klotski/cleopatra.txt";
    let cache = temp("admissible-pdb-cache");
    let cache = cache.to_str().unwrap();
    for (metric, optimum) in [("steps", 45), ("moves", 31)] {
        let (_, bfs) = one(&["solve", puzzle, "--metric", metric, "--json", "--quiet"]);
        assert_eq!(bfs[metric], optimum, "BFS under {metric}");
        let mut checked = 0;
        for h in list {
            let name = h["name"].as_str().unwrap();
            if h["admissible"] != "always" && h["admissible"] != metric {
                continue;
            }
            let extra = [
                "--metric",
                metric,
                "--algorithm",
                "astar",
                "--heuristic",
                name,
                "--pdb-cache",
                cache,
            ];
            solve_and_verify(puzzle, &extra, metric, optimum);
            checked += 1;
        }
        assert!(
            checked >= 3,
            "{checked} admissible heuristics under {metric}"
        );
    }
}

/// `--algorithm fluid` plans with the units as a fluid and writes real
/// moves: on Lodzianka (3 units) and Pennant (optimum 89 steps) its
/// solutions replay in the verifier, and Pennant's is no shorter than the
/// optimum. A heuristic that reads the units is refused with the fix.
#[test]
fn the_fluid_search_writes_solutions_the_verifier_accepts() {
    for puzzle in [
        "puzzles/klotski/lodzianka.txt",
        "puzzles/klotski/pennant.txt",
    ] {
        let file = temp(&format!("fluid-{}.sol", puzzle.replace('/', "_")));
        let file_s = file.to_str().unwrap();
        let args = [
            "solve",
            puzzle,
            "--json",
            "--quiet",
            "--algorithm",
            "fluid",
            "--weight",
            "5",
            "--solution",
            file_s,
        ];
        let (code, r) = one(&args);
        assert_eq!((code, r["status"].as_str()), (0, Some("solved")), "{r}");
        let v = solver(&["verify", puzzle, file_s, "--json"]);
        assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stdout));
        let replay: Value = serde_json::from_slice(&v.stdout).expect("verify --json");
        assert_eq!(replay["steps"], r["steps"]);
        if puzzle.contains("pennant") {
            assert!(r["steps"].as_u64().unwrap() >= 89, "{r}");
        }
    }
    let out = solver(&[
        "solve",
        "puzzles/klotski/lodzianka.txt",
        "--algorithm",
        "fluid",
        "--heuristic",
        "h2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("h0, path, blind"), "{err}");
}

/// `--algorithm bfws` crosses the plateau where weighted A* on the same
/// abstraction stalls: on American Pie, within 100,000 abstract states, the
/// fluid search (`path` w3) stops at master distance 7 and BFWS solves it
/// (322 steps in 200 states here), its solution replaying in the verifier.
/// A weight, which it does not use, is refused.
#[test]
fn bfws_solves_what_the_fluid_search_stalls_on() {
    let puzzle = "puzzles/klotski/american_pie.txt";
    let common = ["--heuristic", "path", "--max-positions", "100000"];
    let mut fluid = vec!["solve", puzzle, "--json", "--algorithm", "fluid"];
    fluid.extend(common);
    fluid.extend(["--weight", "3"]);
    let (code, r) = one(&fluid);
    assert_eq!(
        (code, r["status"].as_str()),
        (1, Some("limit_reached")),
        "{r}"
    );
    assert!(r["best_distance"].as_u64().unwrap() > 0, "{r}");
    let mut bfws = vec!["--algorithm", "bfws"];
    bfws.extend(common);
    let r = solve_and_verify(puzzle, &bfws, "goals_reached", 1);
    assert!(r["positions_examined"].as_u64().unwrap() < 100_000, "{r}");
    let out = solver(&["solve", puzzle, "--algorithm", "bfws", "--weight", "3"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("takes no --weight"), "{err}");
}

/// An unsolvable tile start (two tiles swapped) is answered `no_solution`
/// at once by every search, the optimal search of the solver's choosing
/// (IDA* on pattern databases, which could never prove it) included, on the
/// 15-puzzle too; swapping a tile with the blank instead keeps it solvable,
/// and BFS then solves the 8-puzzle at its optimum.
#[test]
fn a_tile_start_of_the_wrong_parity_has_no_solution_without_a_search() {
    let dir = temp("parity");
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, line: &str| {
        let path = dir.join(name);
        std::fs::write(&path, format!("{line}\n")).unwrap();
        path.to_str().unwrap().to_string()
    };
    let swapped = write("swapped.txt", "0 1 2 3 4 5 7 6 8");
    let fifteen = write("fifteen.txt", "0 1 2 3 4 5 6 7 8 9 10 11 12 13 15 14");
    for (file, extra) in [
        (&swapped, vec!["--optimal", "--pdb-cache", "off"]),
        (
            &swapped,
            vec!["--algorithm", "ida", "--heuristic", "manhattan"],
        ),
        (&swapped, vec!["--algorithm", "dfid"]),
        (&swapped, vec![]),
        (&fifteen, vec!["--optimal", "--pdb-cache", "off"]),
        (&fifteen, vec![]),
    ] {
        let mut args = vec![
            "solve",
            file.as_str(),
            "--from",
            "tiles",
            "--json",
            "--time-limit",
            "30",
        ];
        args.extend(extra.iter().copied());
        let (code, r) = one(&args);
        assert_eq!(
            (code, r["status"].as_str()),
            (1, Some("no_solution")),
            "{args:?}: {r}"
        );
        assert_eq!(r["positions_examined"], 0, "{args:?}");
    }
    let text = String::from_utf8_lossy(&solver(&["solve", &fifteen, "--from", "tiles"]).stdout)
        .to_string();
    assert!(text.contains("parity of the tiles' permutation"), "{text}");
    // One step from the goal: the blank and tile 1 swapped.
    let near = write("near.txt", "1 0 2 3 4 5 6 7 8");
    let (code, r) = one(&["solve", &near, "--from", "tiles", "--json"]);
    assert_eq!((code, r["steps"].as_u64()), (0, Some(1)), "{r}");
}

/// `solver bench` reads every puzzle and checks `--spill`'s folder before
/// its first row: a bad file named last, or a file given as the spill
/// folder, is an error (exit 2) with nothing measured or printed.
#[test]
fn bench_checks_every_input_before_measuring() {
    let dir = temp("bench-inputs");
    std::fs::create_dir_all(&dir).unwrap();
    let ragged = dir.join("ragged.txt");
    std::fs::write(
        &ragged,
        "!\n@\n!\n#####\n#@ #\n#  ##\n#####\n!\n#####\n#  @#\n#   #\n#####\n!\n",
    )
    .unwrap();
    let a_file = dir.join("a-file");
    std::fs::write(&a_file, "").unwrap();
    let quick = "puzzles/quickstart.txt";
    for args in [
        vec![
            "bench",
            quick,
            ragged.to_str().unwrap(),
            "--repeat",
            "1",
            "--threads",
            "1",
        ],
        vec![
            "bench",
            quick,
            "--repeat",
            "1",
            "--threads",
            "1",
            "--spill",
            a_file.to_str().unwrap(),
        ],
    ] {
        let out = solver(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            out.stdout.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(
            err.contains("ragged rows") || err.contains("cannot create the folder"),
            "{err}"
        );
    }
}

/// IDA* and DFID store no positions, so alone they deepen forever on an
/// unsolvable puzzle; a small reachable space is settled first by a BFS
/// probe: `no_solution`, with the probe's positions (all 42 reachable ones
/// of the twin puzzle), where the run used to never end.
#[test]
fn ida_and_dfid_end_on_a_small_unsolvable_puzzle() {
    for algorithm in ["ida", "dfid"] {
        let (code, r) = one(&[
            "solve",
            "puzzles/special/twin_unsolvable.txt",
            "--algorithm",
            algorithm,
            "--json",
            "--time-limit",
            "30",
        ]);
        assert_eq!(
            (code, r["status"].as_str()),
            (1, Some("no_solution")),
            "{algorithm}: {r}"
        );
        assert_eq!(r["positions_examined"], 42, "{algorithm}: {r}");
        assert_eq!(r["params"]["algorithm"], algorithm, "{r}");
    }
    // Where the probe meets its cap, IDA* runs as before and counts only
    // its own positions (the 8-puzzle's hardest start: 31 steps, in a
    // space of 181,440 positions).
    let (code, r) = one(&[
        "solve",
        "puzzles/tiles/eight_hardest_a.txt",
        "--algorithm",
        "ida",
        "--heuristic",
        "manhattan",
        "--json",
    ]);
    assert_eq!((code, r["steps"].as_u64()), (0, Some(31)), "{r}");
    assert!(r["positions_examined"].as_u64().unwrap() < 20_000, "{r}");
}

/// Where the probe reaches the goal, its shortest solution is the answer
/// (IDA* and DFID would find one of the same length), in either metric:
/// the twin puzzle's solvable half took IDA* over 20 s before.
#[test]
fn ida_and_dfid_take_the_probes_shortest_solution() {
    let puzzle = "puzzles/special/twin_solvable.txt";
    // BFS's shortest: 34 steps; 23 moves (in 36 steps) by moves.
    for (metric, shortest) in [("steps", 34), ("moves", 23)] {
        solve_and_verify(puzzle, &["--metric", metric], metric, shortest);
        for algorithm in ["ida", "dfid"] {
            let extra = [
                "--algorithm",
                algorithm,
                "--metric",
                metric,
                "--time-limit",
                "30",
            ];
            let r = solve_and_verify(puzzle, &extra, metric, shortest);
            assert!(r["positions_examined"].as_u64().unwrap() <= 100_000, "{r}");
        }
    }
    // Below the shortest length the probe's answer is no solution.
    let (code, r) = one(&[
        "solve",
        puzzle,
        "--algorithm",
        "ida",
        "--max-length",
        "33",
        "--json",
        "--time-limit",
        "30",
    ]);
    assert_eq!(
        (code, r["status"].as_str()),
        (1, Some("no_solution")),
        "{r}"
    );
}
