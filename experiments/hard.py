#!/usr/bin/env python3
"""The reasoner on every GNOME Klotski level (issue 15): with the seed case
base and with it minus the level's own case (leave one out), unattended.
Per run: solved or not, steps (first and, when the reasoner reports an
improved length, improved), positions examined by all attempts, wall time,
and the phase that solved it (reuse, proximity, variant/subgoals, restart,
final).

Resumable: each finished run is stored in results/hard-<settings>.json
(written atomically; one file per setting of the variables below, so runs
at another budget never mix) and skipped next time; experiments/hard.md is
redrawn from the current settings' file. A level without its own case in
the seed case base is run once: both columns are the same run.

Environment (the defaults are the issue's target: the reasoner's own
defaults, 20 minutes per level; the settings are printed into hard.md):
  LIMIT      positions per limited attempt (default 5,000,000, the reasoner's default)
  ATTEMPTS   limited attempts before the phases and the final (default 25, the reasoner's default)
  BUDGET     the reasoner's --time-budget in seconds (default 1200); it is stopped
             with SIGTERM (and reports what finished) 60 s after that if still running
  JOBS       solver processes at once (default 2, the cores of the target machine)
  LEVELS     comma-separated file stems to run (default: all, the hard ones first)
  PAGE       the page to write (default experiments/hard.md); a run of a few
             levels at another budget writes its own page beside it
  METRIC     steps or moves: passed as the reasoner's --metric (default: none given,
             the reasoner's default, steps); its own results file and, with PAGE, page
  COMMIT     the commit REASONER's binaries were built from, when they are not
             the checked-out tree's (recorded with each run and shown on the page)
  TABLE_ONLY=1  redraw PAGE from the current settings' results file, run nothing
Run it under `nice -n 19` on a shared machine."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

import harness
from common import REASONER, ROOT, load_results, save_results, casebase_without, gnome_levels

OUT = os.path.join(ROOT, "experiments", "results")
SEED = os.path.join(ROOT, "casebase", "seed.toml")
HARD_LAST = ["american_pie", "sunshine", "ithaca"]
LIMIT = int(os.environ.get("LIMIT", 5_000_000))
ATTEMPTS = int(os.environ.get("ATTEMPTS", 25))
BUDGET = float(os.environ.get("BUDGET", 1200))
JOBS = int(os.environ.get("JOBS", 2))
METRIC = os.environ.get("METRIC")
RESULTS = os.path.join(OUT, f"hard-l{LIMIT}-a{ATTEMPTS}-b{BUDGET:g}-j{JOBS}"
                       + (f"-{METRIC}" if METRIC else "") + ".json")
PAGE = os.environ.get("PAGE", os.path.join(ROOT, "experiments", "hard.md"))


def levels(only_wanted=True):
    """GNOME Klotski levels of the collection, by name; the three that no
    setting had solved last, so that the quick ones are recorded first.
    With `only_wanted`, just those LEVELS names (the ones to run); the page
    lists every level, so that running a few never hides the others' rows."""
    found = [os.path.basename(p)[:-4] for p in gnome_levels()]
    wanted = os.environ.get("LEVELS")
    if wanted and only_wanted:
        found = [f for f in found if f in wanted.split(",")]
    return sorted(found, key=lambda f: (f in HARD_LAST, HARD_LAST.index(f) if f in HARD_LAST else 0, f))


def load():
    return load_results(RESULTS)


def save(results):
    save_results(RESULTS, results)


def run(puzzle, casebase):
    """One unattended reasoner run within its --time-budget BUDGET (SIGTERM, after which it
    reports what finished, 60 s later if it has not stopped by then)."""
    args = [REASONER, "solve", puzzle, "--casebase", casebase, "--json", "--quiet",
            "--position-limit", str(LIMIT), "--attempts", str(ATTEMPTS), "--jobs", str(JOBS),
            "--time-budget", f"{BUDGET:g}"] + (["--metric", METRIC] if METRIC else [])
    started = time.time()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        out, err = p.communicate(timeout=BUDGET + 60)
        stopped = False
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate()
        stopped = True
    wall = time.time() - started
    try:
        r = json.loads(out)
    except json.JSONDecodeError:
        return {"status": "failed", "error": err.strip()[-300:], "seconds": round(wall, 1)}
    winner = next((a for a in r["attempts"] if a["index"] == r.get("solved_by")), None)
    return {
        "status": r["status"],
        "stopped_by_budget": stopped,
        "steps": r.get("steps"),
        "first_steps": (r.get("improvement") or {}).get("first_steps") or r.get("steps"),
        "moves": r.get("moves"),
        "first_moves": (r.get("improvement") or {}).get("first_moves") or r.get("moves"),
        "positions": sum(a.get("positions_examined") or 0 for a in r["attempts"]),
        "attempts": len(r["attempts"]),
        "phase": winner["phase"] if winner else None,
        "phases_run": sorted({a["phase"] for a in r["attempts"]}),
        "by_phase": by_phase(r["attempts"]),
        "seconds": round(wall, 1),
        "first_seconds": _seconds((r.get("budget") or {}).get("first_solution_ms")),
    }


def _seconds(ms):
    """Milliseconds as seconds with one decimal, or None."""
    return None if ms is None else round(ms / 1000, 1)


def by_phase(attempts):
    """Per phase: its rows, the positions they examined and their solver
    seconds (summed, so two at once count twice), to see where a budget went."""
    phases = {}
    for a in attempts:
        p = phases.setdefault(a["phase"], {"rows": 0, "positions": 0, "seconds": 0.0})
        p["rows"] += 1
        p["positions"] += a.get("positions_examined") or 0
        p["seconds"] = round(p["seconds"] + (a.get("elapsed_ms") or 0) / 1000, 1)
    return phases


def has_own_case(level):
    with open(SEED) as f:
        return f'puzzle = "puzzles/klotski/{level}.txt"' in f.read()


def main():
    os.makedirs(OUT, exist_ok=True)
    results = load()
    if os.environ.get("TABLE_ONLY") != "1":
        work = tempfile.mkdtemp()
        for level in levels():
            puzzle = f"puzzles/klotski/{level}.txt"
            for mode in ("with", "without"):
                key = f"{level}/{mode}"
                if key in results:
                    continue
                if mode == "without" and not has_own_case(level):
                    continue  # the same run as "with"
                cb = os.path.join(work, f"{level}-{mode}.toml")
                text = open(SEED).read() if mode == "with" else casebase_without(SEED, puzzle)
                with open(cb, "w") as f:
                    f.write(text)
                load_before, source = os.getloadavg()[0], commit()
                r = run(puzzle, cb)
                r["load"] = round(load_before, 1)
                r["commit"] = source
                results[key] = r
                save(results)
                print(key, r, flush=True)
    write_table(results)


def commit():
    """The commit the binaries were built from, recorded with each run: COMMIT
    when REASONER names binaries built elsewhere, else the checked-out one
    (`-dirty` with uncommitted changes, as the evaluation records it)."""
    return os.environ.get("COMMIT") or harness.commit()


def cell(r):
    if r is None:
        return ["not run"] * 5
    solved = r["status"] == "solved"
    steps = "-" if not solved else (f"{r['first_steps']} → {r['steps']}" if r.get("first_steps") != r.get("steps") else str(r["steps"]))
    if solved and METRIC == "moves":
        first, final = r.get("first_moves"), r.get("moves")
        steps = (f"{first} → {final}" if first != final else str(final)) + f" moves ({r['steps']} steps)"
    elif solved and r.get("moves") is not None:
        # Runs recorded before issue 51 kept steps only.
        steps += f" ({r['moves']} moves)"
    status = r["status"] + (" (budget)" if r.get("stopped_by_budget") else "")
    first = f", first solution after {r['first_seconds']:.0f} s" if r.get("first_seconds") is not None else ""
    return [status, steps, f"{r.get('positions', 0):,}", f"{r['seconds']:.0f} s (load {r.get('load', '?')}, {r.get('commit', 'commit not recorded')}{first})", r.get("phase") or "-"]


def command():
    """The command line that reproduces this page's settings (LEVELS and
    COMMIT only choose which runs to add and what to record with them: each
    run's commit is in its row)."""
    env = [f"{k}={os.environ[k]}" for k in ("LIMIT", "ATTEMPTS", "BUDGET", "JOBS", "METRIC", "PAGE")
           if k in os.environ]
    return " ".join(env + ["python3 experiments/hard.py"])


def write_table(results):
    rows = []
    for level in levels(only_wanted=False):
        own = has_own_case(level)
        w = results.get(f"{level}/with")
        wo = results.get(f"{level}/without") if own else w
        rows.append(f"| {level} | {'yes' if own else 'no'} | " + " | ".join(cell(w)) + " | " + " | ".join(cell(wo)) + " |")
    done = [r for r in results.values()]
    solved = sum(r["status"] == "solved" for r in done)
    with open(PAGE, "w") as f:
        f.write("# The GNOME Klotski levels, unattended (issue 15)\n\n"
                f"Produced by `{command()}` (resumable; raw results in "
                f"`experiments/results/{os.path.basename(RESULTS)}`). Each run: `reasoner solve LEVEL "
                f"--casebase CB --json --position-limit {LIMIT:,} --attempts {ATTEMPTS} --jobs {JOBS} "
                f"--time-budget {BUDGET:g}" + (f" --metric {METRIC}" if METRIC else "") + "`; everything else is the reasoner's default (the general "
                "settings after the retrieved cases; under a budget the limited attempts stop at half "
                "of it; then the parking phase with 4 rounds, the variant phase with 3 recipes, 2 rounds "
                "of restarts, the final run, `--improve`). CB is `casebase/seed.toml` (with) or it minus the "
                "level's own case (without); a level without its own case is run once and both columns "
                "show that run. The load average at each run's start is in the time column. The time is "
                "the whole run's, `--improve` included, which takes what is left of the budget once the "
                "puzzle is solved; runs since 26 Nov 2026 also give the time of the first solution.\n\n"
                "Steps: `first → improved` when the reasoner reports an improved length (`--improve`, "
                "issue 15 part A), else the one length, and the final solution's moves beside them "
                "(runs before issue 51 recorded steps only); under `METRIC=moves` the moves first. Positions: all attempts of the run together. Phase: "
                "the phase of the attempt that solved it.\n\n"
                "| level | own case in seed | with: status | steps | positions | time | phase | "
                "without: status | steps | positions | time | phase |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|\n")
        f.write("\n".join(rows) + "\n")
        f.write(f"\n{len(done)} runs recorded, {solved} solved.\n")


if __name__ == "__main__":
    sys.exit(main())
