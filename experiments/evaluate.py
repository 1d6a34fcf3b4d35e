"""Does the case base earn its keep? The thesis's evaluation (table 8.4) at
its own scale, with the ablations and the learning curve of issue 18:

1. Table 8.4: every puzzle with the four general settings, the reasoner, and
   an oracle (per puzzle the best single set of a grid drawn over the whole
   parameter space by `reasoner settings --grid`; the general settings are
   its first four points, so they are run once).
2. Ablations: the reasoner with retrieval by the thesis similarity, the
   extended similarity, a random case, and none (the general settings),
   `SEEDS` seeds each. The case base is casebase/seed.toml without the
   puzzle's own case, so no run reuses the answer to its own puzzle.
3. Learning curve: from an empty case base, the collection in `ORDERS`
   random orders with `--retain`, twice over (second pass against first).
4. Solution quality: the reasoner's steps against the known optima, and with
   `--improve` when the reasoner has it.
5. Learned retrieval (issue 45, PARTS=learned): the same case base, its
   cases given their performance profiles from the collection's matrix
   (`PROFILE_MATRIX`, the rows of the seed's own puzzles), retrieved from by
   the learned selector (refitted by `reasoner learn` without the puzzle's
   own case, so neither its case nor its profile informs its own run), by
   the thesis similarity and by a random case, at seed 1.

Every solver or reasoner process is one keyed run of experiments/harness.py:
one per core at once, resumable (a rerun skips what is done), each result
line stamped with the commit and machine. Then evaluate_tables.py writes the
tables and figures into experiments/results/evaluate/<scale>/.

    python3 experiments/evaluate.py             # build first: cargo build --release --bins
    LIMIT=200000 QUICK=1 python3 experiments/evaluate.py

Environment (the thesis's scale is the default):
LIMIT positions per solver run (5,000,000), ATTEMPTS reasoner attempts before
the final run (25), FINAL_TIMEOUT seconds of the reasoner's final unlimited
run (60), GRID oracle grid size (50), SEEDS (5), ORDERS (5), QUICK=1 every
sixth puzzle, PARTS (which to run, in this order of priority; default
table,ablations,learning,oracle,seeds,improve), JOBS processes at once (the number of cores),
PUZZLES (comma-separated puzzle paths instead of the collection),
SOLVER and REASONER (the binaries; default target/release),
TABLES_ONLY=1 (write the tables from the results there, run nothing),
OUT (the results' folder, experiments/results/evaluate).
"""
import functools
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import tomllib

from common import REASONER, ROOT, SOLVER, casebase_without, puzzles
from harness import Harness, Store, key_text

OUT = os.environ.get("OUT") or os.path.join(ROOT, "experiments", "results", "evaluate")
SEED_CASEBASE = os.path.join("casebase", "seed.toml")
# Most wanted first: table 8.4 (general settings, reasoner seed 1), the other
# retrievals at seed 1, the learning curve, the oracle grid, seeds 2 and up,
# the reasoner with --improve.
DEFAULT_PARTS = "table,ablations,learning,oracle,seeds,improve"
# The matrix whose rows give the seed's cases their profiles (part `learned`).
PROFILE_MATRIX = os.path.join("experiments", "results", "matrix", "collection-L200000-G50.jsonl")


def env_int(name, default):
    return int(os.environ.get(name, default))


class Scale:
    """The experiment's size, from the environment."""

    def __init__(self):
        self.limit = env_int("LIMIT", 5_000_000)
        self.attempts = env_int("ATTEMPTS", 25)
        self.final_timeout = env_int("FINAL_TIMEOUT", 60)
        self.grid = env_int("GRID", 50)
        self.seeds = env_int("SEEDS", 5)
        self.orders = env_int("ORDERS", 5)
        self.quick = os.environ.get("QUICK") == "1"
        self.parts = os.environ.get("PARTS", DEFAULT_PARTS).split(",")

    def puzzles(self):
        """The collection, every sixth with QUICK, or the paths in PUZZLES."""
        if os.environ.get("PUZZLES"):
            return os.environ["PUZZLES"].split(",")
        return puzzles()[::6] if self.quick else puzzles()

    def tag(self):
        """The scale as a folder name for its tables."""
        subset = f"-n{len(self.puzzles())}" if os.environ.get("PUZZLES") else "-quick" if self.quick else ""
        return (f"L{self.limit}-A{self.attempts}-F{self.final_timeout}-G{self.grid}-S{self.seeds}-O{self.orders}"
                + subset)

    def as_dict(self):
        return dict(vars(self))


def run_process(args, timeout):
    """Runs a binary; returns (exit code, the JSON object it printed last or
    None, the last line of stderr). A process killed by a signal other than
    our timeout, or one that panicked, raises: the run did not finish and is
    retried next time."""
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return None, None, f"killed after {timeout} s"
    if out.returncode < 0:
        raise RuntimeError(f"{args[0]} killed by signal {-out.returncode}")
    # A panic (exit 101, or one reported by the reasoner of its solver) is a
    # bug in the binaries, not an outcome: not recorded, so that a resume
    # with fixed binaries redoes the run (a broken build once recorded 162
    # such runs as `failed`, which a resume would have kept).
    if out.returncode >= 100 or "panicked" in out.stderr:
        last = out.stderr.strip().splitlines()[-1:] or [""]
        raise RuntimeError(f"{args[0]} crashed (exit {out.returncode}): {last[0][:300]}")
    lines = [l for l in out.stdout.splitlines() if l.strip()]
    try:
        value = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        value = None
    err = out.stderr.strip().splitlines()
    return out.returncode, value, err[-1] if err else ""


def solver_timeout(limit):
    """The reasoner's default attempt timeout (reasoner/src/flags.rs)."""
    return 60 + limit // 20_000


def features_run(puzzle):
    def work():
        code, f, err = run_process([SOLVER, "features", puzzle, "--json"], timeout=600)
        if not f:
            return {"spaces": 1, "error": err}
        return {"spaces": int(f["features"]["num_of_spaces"][0])}
    return {"kind": "features", "puzzle": puzzle}, work


def solver_run(puzzle, args, limit):
    """One solver run with parameter set `args` (solver flags)."""
    key = {"kind": "solver", "puzzle": puzzle, "args": args, "limit": limit}

    def work():
        # Told to stop a little before it is killed, as the reasoner tells its
        # attempts, so that a slow run reports how close it got instead of
        # failing (BFS on Huge 1x1, 10,000 cells per position, was killed at
        # 310 s); not part of the key, which no finished run reached.
        timeout = solver_timeout(limit)
        code, r, err = run_process([SOLVER, "solve", puzzle, "--json", "--quiet", "--max-positions", str(limit),
                                    "--time-limit", f"{timeout * 0.9:.0f}", *args], timeout=timeout)
        if not r:
            return {"status": "failed", "exit": code, "error": err}
        return {k: r.get(k) for k in ("status", "steps", "moves", "positions_examined", "best_distance",
                                       "start_distance", "elapsed_ms")}
    return key, work


def summary(report):
    """What the tables need of a reasoner report."""
    attempts = report.get("attempts", [])
    solver = next((a for a in attempts if a["index"] == report.get("solved_by")), None)
    return {"status": report["status"], "steps": report.get("steps"), "moves": report.get("moves"),
            "attempts": len(attempts),
            "positions": sum(a.get("positions_examined") or 0 for a in attempts),
            "solved_by_phase": solver["phase"] if solver else None,
            "best": min((a["best_distance"] for a in attempts if a.get("best_distance") is not None), default=None),
            "retrieved": [r["name"] for r in report.get("retrieved", [])],
            "retained": report.get("retained"),
            # The improve phase (on by default since 88bfca3): the first
            # solution's length, before the shortening.
            "first_steps": (report.get("improvement") or {}).get("first_steps"),
            "improved_by": (report.get("improvement") or {}).get("final_by")}


def reasoner_args(puzzle, casebase, scale, seed, extra):
    return [REASONER, "solve", puzzle, "--casebase", casebase, "--json", "--quiet", "--jobs", "1",
            "--seed", str(seed), "--position-limit", str(scale.limit), "--attempts", str(scale.attempts),
            "--final-timeout", str(scale.final_timeout), *extra]


def reasoner_timeout(scale):
    return (scale.attempts + 1) * solver_timeout(scale.limit) + scale.final_timeout + 60


def file_sha(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def ablation_run(puzzle, method, seed, scale, improve=False, profiled=False):
    """The reasoner on `puzzle` with seed.toml less its own case; `method`:
    thesis, extended (similarity), learned (the selector, refitted without
    the case) or random, none (retrieval). `profiled`: the case base's cases
    carry their profiles from PROFILE_MATRIX (required by learned)."""
    flags = {"thesis": ["--similarity", "thesis"], "extended": ["--similarity", "extended"],
             "learned": ["--similarity", "learned"],
             "random": ["--retrieval", "random"], "none": ["--retrieval", "none"]}[method]
    if improve:
        flags = flags + ["--improve"]
    key = {"kind": "reasoner", "puzzle": puzzle, "method": method, "seed": seed, "limit": scale.limit,
           "attempts": scale.attempts, "final_timeout": scale.final_timeout, "improve": improve,
           "casebase": SEED_CASEBASE, "casebase_sha": file_sha(SEED_CASEBASE), "leave_own_case_out": True}
    if profiled or method == "learned":
        key["profiles"] = PROFILE_MATRIX
        key["profiles_sha"] = file_sha(PROFILE_MATRIX)

    def work():
        source = profiled_casebase() if "profiles" in key else os.path.join(ROOT, SEED_CASEBASE)
        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as tmp:
            tmp.write(casebase_without(source, puzzle))
        try:
            if method == "learned":
                subprocess.run([REASONER, "learn", tmp.name], capture_output=True, check=True, cwd=ROOT)
            code, r, err = run_process(reasoner_args(puzzle, tmp.name, scale, seed, flags), reasoner_timeout(scale))
        finally:
            os.unlink(tmp.name)
        return summary(r) if r else {"status": "failed", "exit": code, "error": err}
    return key, work


@functools.lru_cache(maxsize=None)
def profiled_casebase():
    """seed.toml with its cases' profiles joined from PROFILE_MATRIX (the
    rows of the puzzles it has a case for; no case is added), written once
    per process into a temporary folder; its path."""
    with open(os.path.join(ROOT, SEED_CASEBASE), "rb") as f:
        own = {c["provenance"]["puzzle"] for c in tomllib.load(f)["case"] if "provenance" in c}
    folder = tempfile.mkdtemp(prefix="evaluate-profiled-")
    rows, cb = os.path.join(folder, "rows.jsonl"), os.path.join(folder, "seed-profiled.toml")
    with open(os.path.join(ROOT, PROFILE_MATRIX)) as f, open(rows, "w") as out:
        out.writelines(line for line in f if line.strip() and json.loads(line)["puzzle"] in own)
    shutil.copyfile(os.path.join(ROOT, SEED_CASEBASE), cb)
    subprocess.run([REASONER, "casebase", "from-matrix", rows, "--casebase", cb], capture_output=True,
                   check=True, cwd=ROOT)
    return cb


def cases_in(path):
    if not os.path.exists(path):
        return 0
    with open(path, "rb") as f:
        return len(tomllib.load(f).get("case", []))


def learning_chain(files, order, scale):
    """One order of the learning curve: both passes over the shuffled
    collection, retaining into one case base, as one chain of runs."""
    shuffled = list(files)
    random.Random(order).shuffle(shuffled)
    tag = f"L{scale.limit}-A{scale.attempts}-F{scale.final_timeout}-Q{int(scale.quick)}-order{order}"
    casebase = os.path.join(OUT, "learning", tag + ".toml")
    chain = []
    for pass_ in (1, 2):
        for step, puzzle in enumerate(shuffled):
            key = {"kind": "learn", "order": order, "pass": pass_, "step": step, "puzzle": puzzle,
                   "limit": scale.limit, "attempts": scale.attempts, "final_timeout": scale.final_timeout,
                   "collection": len(shuffled), "casebase": os.path.relpath(casebase, ROOT)}

            def work(puzzle=puzzle, first=(pass_, step) == (1, 0)):
                if first and os.path.exists(casebase):
                    os.unlink(casebase)  # a stale case base from a run that left no line
                held = cases_in(casebase)
                code, r, err = run_process(reasoner_args(puzzle, casebase, scale, 1, ["--retain"]),
                                           reasoner_timeout(scale))
                out = summary(r) if r else {"status": "failed", "exit": code, "error": err}
                return {**out, "cases_before": held}
            chain.append((key, work))
    return chain


@functools.lru_cache(maxsize=None)
def grid_args(spaces, size):
    """The oracle grid's solver flags for a puzzle with `spaces` spaces (one
    reasoner process per distinct request: the table's order and its runs
    ask for the same points)."""
    out = subprocess.run([REASONER, "settings", "--spaces", str(spaces), "--grid", str(size), "--seed", "1",
                          "--json"], capture_output=True, text=True, check=True, cwd=ROOT)
    return [(s["name"], s["args"]) for s in json.loads(out.stdout)]


def cheapest_first(files, spaces, scale, store):
    """The puzzles, those whose general-setting runs took least time first
    (not run yet: none), so that a stretch cut short finishes the most rows.
    The widest boards come last: on Ithaca and Sunshine each general run
    takes its full 90 s, and the reasoner's 25 attempts up to 279 s each,
    more than a session's stretch, so first in line they held both cores and
    no row was finished."""
    def cost(p):
        runs = (store.get(solver_run(p, args, scale.limit)[0]) for _, args in grid_args(spaces[p], 4))
        return sum((r or {}).get("result", {}).get("elapsed_ms") or 0 for r in runs)
    return sorted(files, key=cost)


def plan(files, spaces, scale, store):
    """Every chain of runs, most wanted first (see PARTS)."""
    chains = []
    for part in scale.parts:
        if part == "table":
            for p in cheapest_first(files, spaces, scale, store):
                chains += [[solver_run(p, args, scale.limit)] for _, args in grid_args(spaces[p], 4)]
                chains.append([ablation_run(p, "thesis", 1, scale)])
        elif part == "ablations":
            chains += [[ablation_run(p, m, 1, scale)] for p in cheapest_first(files, spaces, scale, store)
                       for m in ("extended", "random", "none")]
        elif part == "learned":
            chains += [[ablation_run(p, m, 1, scale, profiled=True)] for p in cheapest_first(files, spaces, scale, store)
                       for m in ("learned", "thesis", "random")]
        elif part == "seeds":
            for seed in range(2, scale.seeds + 1):
                chains += [[ablation_run(p, m, seed, scale)] for p in files for m in ("thesis", "extended", "random", "none")]
        elif part == "improve":
            if has_improve():
                chains += [[ablation_run(p, "thesis", 1, scale, improve=True)] for p in files]
        elif part == "learning":
            chains += [learning_chain(files, k, scale) for k in range(1, scale.orders + 1)]
        elif part == "oracle":
            # Cheapest first, as for the table: a stretch cut short then
            # finishes the most puzzles' grids.
            for p in cheapest_first(files, spaces, scale, store):
                chains += [[solver_run(p, args, scale.limit)] for _, args in grid_args(spaces[p], scale.grid)[4:]]
        else:
            sys.exit(f"evaluate.py: unknown part {part!r} in PARTS; use {DEFAULT_PARTS}")
    return chains


def has_improve():
    """Whether this reasoner has `solve --improve` (issue 15)."""
    out = subprocess.run([REASONER, "solve", "--help"], capture_output=True, text=True, cwd=ROOT)
    return "--improve " in out.stdout or "--improve\n" in out.stdout


def main():
    import evaluate_tables
    scale = Scale()
    os.makedirs(os.path.join(OUT, "learning"), exist_ok=True)
    tables_only = os.environ.get("TABLES_ONLY") == "1"
    # Tables only: read, never repair, so it may run beside a running evaluation.
    store = Store(os.path.join(OUT, "runs.jsonl"), write=not tables_only)
    files = scale.puzzles()
    if not tables_only:
        for binary in (SOLVER, REASONER):
            if not os.path.exists(binary):
                sys.exit(f"evaluate.py: {binary} is missing; run `cargo build --release --bins` first")
        harness = Harness(store)
        print(f"evaluate.py: {len(files)} puzzles, {harness.jobs} at once, scale {scale.as_dict()}, "
              f"commit {harness.stamp['commit']}", file=sys.stderr)
        harness.run([[features_run(p)] for p in files])
        spaces = {p: store.get(features_run(p)[0])["result"]["spaces"] for p in files}
        print(json.dumps(harness.run(plan(files, spaces, scale, store))), file=sys.stderr)
    evaluate_tables.write_all(store, files, scale)


if __name__ == "__main__":
    main()
