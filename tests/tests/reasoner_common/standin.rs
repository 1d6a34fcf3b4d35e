//! Stand-in solvers for the reasoner's end-to-end tests: bash scripts that
//! answer `features` and `solve` with canned JSON, so that each test controls
//! exactly what the solver says; `verify` is passed to the real solver, so
//! every claimed solution is replayed for real. The stand-in puzzles are real
//! one-block puzzles (solved by `@ 1,1 R`) that differ by their name.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{json_of, s, Scratch};

/// Writes a stand-in solver. Modes:
/// - `threshold`: solved iff `--space-value` >= 14; a lower cutoff gives
///   `no_solution`, no cutoff `limit_reached`.
/// - `never`: always `limit_reached`, best distance a hash of the arguments
///   (less `--threads`, which changes no result of the real solver).
/// - `crash`: A* runs print garbage, strict resting exits 2, others SIGSEGV.
/// - `slow`: writes its pid next to the puzzle and sleeps.
/// - `liar`: claims a one-move solution that is blocked by the wall.
/// - `sabotage`: solves, and makes `cb.toml` beside the puzzle read-only.
/// - `stall`: the first two solve runs reach the limit, later ones write
///   their pid next to the puzzle and sleep.
/// - `wide`: exits 2 with the solver's one-line error for too wide keys.
/// - `panic`: exits 101 as a Rust panic does, backtrace and all.
/// - `orphan`: reaches the limit, leaving a child that holds its stdout for
///   a minute and writes its pid next to the puzzle.
///
/// `features` prints the file PUZZLE.features, or fails with exit 2;
/// `heuristics` runs the real solver, so that the declarations the cycle
/// checks case bases against are the real ones (in mode `slowlist` it
/// writes its pid to `heuristics.pid` beside the script and sleeps);
/// `verify`, `improve` and `prunings` run the real solver too.
pub fn standin(dir: &Scratch, mode: &str) -> PathBuf {
    let script = r#"#!/bin/bash
MODE=@MODE@
case "$1" in verify|improve|prunings) exec "@REAL@" "$@";; esac
cmd=$1; shift
puzzle=$1; shift
if [ "$cmd" = features ]; then
  if [ -f "$puzzle.features" ]; then cat "$puzzle.features"; exit 0; fi
  echo "cannot read $puzzle" >&2; exit 2
fi
if [ "$cmd" = heuristics ]; then
  if [ "$MODE" = slowlist ]; then echo $$ > "$(dirname "$0")/heuristics.pid"; exec sleep 120; fi
  exec "@REAL@" heuristics "$puzzle" "$@"
fi
[ "$cmd" = solve ] || exit 2
all="$*"
args="${all%% --solution*}"
echo "$args" >> "$puzzle.calls"
sv=""
while [ $# -gt 0 ]; do
  case "$1" in --space-value) sv=$2; shift;; esac
  shift
done
# --threads changes no result of the real solver: left out of the hash.
h=$(printf '%s' "$args" | sed 's/ --threads [0-9]*//' | cksum | cut -d' ' -f1)
# report STATUS STEPS MOVES EXAMINED BEST BEST_AT [SOLUTION]: a complete result
# as docs/json-result.md defines it, with an unknown field the reader must skip.
report() {
  echo '{"puzzle":"'"$puzzle"'","name":null,"status":"'$1'","steps":'$2',"moves":'$3',"positions_examined":'$4',"positions_stored":'$4',"best_distance":'$5',"best_distance_positions":'$6',"start_distance":5,"goals_reached":0,"goals_total":1,"elapsed_ms":1,"peak_memory_bytes":1024,"encoding":"rank","key_bits":20,"limit":null,"params":{"algorithm":"bfs","heuristic":"h0","weight":1.0,"h2":[1.0,0.0,1.0],"ida_limit":null,"space_value":null,"resting":"off","master_never_away":false,"lock":[],"metric":"steps","encoding":"auto","keep_visited":false,"threads":1},"limits":{"max_positions":null,"max_memory":null,"time_limit_seconds":null},"extra":1'${7:+,'"solution":'$7}'}'
}
case "$MODE" in
  threshold)
    if [ -z "$sv" ]; then
      report limit_reached null null 1000 4 500; exit 1
    elif [ "$sv" -ge 14 ]; then
      p=$((2000 - sv))
      report solved 1 1 $p 0 $p '["@ 1,1 R"]'; exit 0
    else
      report no_solution null null $((100 + sv)) 3 50; exit 1
    fi;;
  never)
    report limit_reached null null 1000 $((h % 7 + 1)) $((h % 1000)); exit 1;;
  crash)
    case "$args" in
      *astar*) echo 'this is not { json'; exit 0;;
      *strict*) echo 'bad input' >&2; exit 2;;
      *) kill -SEGV $$;;
    esac;;
  slow)
    echo $$ > "$puzzle.pid"; exec sleep 120;;
  sabotage)
    chmod 0444 "$(dirname "$puzzle")/cb.toml"
    report solved 1 1 9 0 9 '["@ 1,1 R"]'; exit 0;;
  stall)
    if [ "$(wc -l < "$puzzle.calls")" -gt 2 ]; then echo $$ > "$puzzle.pid"; exec sleep 120; fi
    report limit_reached null null 1000 2 10; exit 1;;
  orphan)
    sleep 60 & echo $! > "$puzzle.pid"
    report limit_reached null null 1000 2 10; exit 1;;
  wide)
    echo 'error: position keys of 4800 bits are wider than the 4096 bits supported; use a smaller board' >&2; exit 2;;
  panic)
    printf "thread 'main' panicked at solver/src/search/astar.rs:120:17:\nindex out of bounds: the len is 3 but the index is 7\nstack backtrace:\n   0: rust_begin_unwind\n   1: core::panicking::panic_fmt\nnote: Some details are omitted\n" >&2; exit 101;;
  liar)
    report solved 1 1 5 0 5 '["@ 1,1 L"]'; exit 0;;
esac
"#
    .replace("@MODE@", mode)
    .replace("@REAL@", s(&end_to_end::solver_bin()));
    let path = dir.path(&format!("solver-{mode}"));
    std::fs::write(&path, script).unwrap();
    let status = Command::new("chmod").arg("+x").arg(&path).status().unwrap();
    assert!(status.success());
    path
}

/// Feature values in a fixed order: log10 of the search-space size, its
/// type, branching factor, regular shapes, block size, spaces, puzzle size.
pub type Feat = [f64; 7];

pub const NAMES: [&str; 7] = [
    "search_space_log10",
    "search_space_size_type",
    "branching_factor",
    "regular_shapes",
    "block_size",
    "num_of_spaces",
    "puzzle_size",
];

/// A real puzzle of one block, solved by `@ 1,1 R` (one step).
pub const TINY: &str = "!\n@\n!\n####\n#@ #\n####\n!\n####\n# @#\n####\n!\n";

/// Writes a stand-in puzzle file and the features the stand-in reports for it.
pub fn puzzle(dir: &Scratch, name: &str, f: Feat) -> PathBuf {
    let path = dir.path(&format!("{name}.txt"));
    std::fs::write(&path, format!("% name: {name}\n{TINY}")).unwrap();
    let mut features = serde_json::Map::new();
    for (n, v) in NAMES.iter().zip(f).skip(1) {
        features.insert(n.to_string(), json!([v, v]));
    }
    features.insert(
        "search_space_size".into(),
        json!([10f64.powf(f[0]), 10f64.powf(f[0])]),
    );
    features.insert("master_distance".into(), json!([3, 3]));
    let report = json!({
        "puzzle": path.display().to_string(),
        "name": name,
        "features": features,
        "search_space_log10": [f[0], f[0]],
        "unknown_field": {"x": 1},
    });
    std::fs::write(
        dir.path(&format!("{name}.txt.features")),
        report.to_string(),
    )
    .unwrap();
    path
}

/// A TOML case with point features and the given parameters (TOML lines).
pub fn case_toml(name: &str, f: Feat, params: &str) -> String {
    let mut s = format!("[[case]]\nname = \"{name}\"\n[case.features]\n");
    for (n, v) in NAMES.iter().zip(f) {
        s.push_str(&format!("{n} = [{v:?}, {v:?}]\n"));
    }
    s.push_str(&format!(
        "[case.params]\n{params}\n[case.outcome]\nfound_by = \"hand-tuned\"\npositions_examined = 1000\n\n"
    ));
    s
}

pub fn write_casebase(dir: &Scratch, cases: &[String]) -> PathBuf {
    let path = dir.path("cb.toml");
    std::fs::write(&path, format!("version = 1\n\n{}", cases.concat())).unwrap();
    path
}

pub fn reasoner(args: &[&str]) -> Output {
    Command::new(end_to_end::reasoner_bin())
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

pub const QUERY: Feat = [20.0, 20.0, 3.0, 1.0, 2.0, 2.0, 20.0];
/// A puzzle unlike QUERY, for the retain tests.
pub const FRESH: Feat = [12.0, 10.0, 2.7, 0.9, 1.5, 3.0, 30.0];
/// Parameters the `threshold` stand-in solves with.
pub const SOLVING: &str = "algorithm = \"bfs\"\nspace_value = 16";

/// `reasoner solve PUZZLE --casebase CB --solver SOLVER --retain --json`,
/// to add more arguments to and run.
pub fn retain(puzzle: &Path, cb: &Path, solver: &Path) -> Command {
    let mut cmd = Command::new(end_to_end::reasoner_bin());
    cmd.args(["solve", s(puzzle), "--casebase", s(cb)])
        .args(["--solver", s(solver), "--retain", "--json"])
        .env("RUST_LOG", "warn");
    cmd
}

pub fn solve_json(args: &[&str]) -> (Output, Value) {
    let out = reasoner(args);
    let v = json_of(&out);
    (out, v)
}

pub fn list_cases(cb: &Path) -> Vec<String> {
    let out = reasoner(&["casebase", "list", s(cb), "--json"]);
    end_to_end::assert_success(&out, "the case base does not load");
    json_of(&out)["case"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|c| c["name"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Waits until `f` holds, at most `secs` seconds.
pub fn wait_for(secs: u64, mut f: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < end {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

/// The pid a stand-in wrote to `pid_file`, waiting up to 30 s for it.
pub fn pid_in(pid_file: &Path) -> String {
    assert!(
        wait_for(30, || std::fs::read_to_string(pid_file)
            .is_ok_and(|s| s.ends_with('\n'))),
        "no pid in {}",
        pid_file.display()
    );
    std::fs::read_to_string(pid_file)
        .unwrap()
        .trim()
        .to_string()
}

/// Sends SIG`name` (`INT`, `TERM`, `KILL`) to `pid`.
pub fn send(name: &str, pid: u32) {
    let sent = Command::new("kill")
        .args([format!("-{name}"), pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -{name} {pid}");
}

/// Whether a process is alive (a zombie counts as dead).
pub fn alive(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z')
        }
        Err(_) => false,
    }
}
