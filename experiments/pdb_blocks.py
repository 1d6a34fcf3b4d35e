"""Pattern databases on block puzzles (issue 13), the block-puzzle part of
experiments/pdb.md (run through `python3 experiments/pdb.py --part blocks`).

For every GNOME Klotski level of the collection (puzzles/klotski/, the files
named "(GNOME Klotski ...)") and both metrics: BFS, and where BFS finds the
optimum within --bfs-positions, A* h0 and A* pdb (automatic patterns within
--pdb-memory), positions examined and the length each returned. The tables
are built first by `solver pdb build` into the cache, timed on their own, so
A* pdb's count is the search alone; the build's time and entries are shown
beside it. The target: A* pdb returns BFS's optimum and examines at least 3x
fewer positions on the median level.
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, SOLVER, gnome_levels, run_json  # noqa: E402

SAVED = os.path.join(ROOT, "experiments", "results", "pdb_blocks.json")


def add_arguments(ap):
    """This part's options on pdb.py's command line."""
    ap.add_argument("--pdb-memory", default="512M", help="--pdb-memory of the block tables")
    ap.add_argument("--bfs-positions", type=int, default=5_000_000,
                    help="BFS stops here: levels it cannot finish are left out")
    ap.add_argument("--run-timeout", type=float, default=900, help="seconds per solver run")
    ap.add_argument("--levels", help="comma-separated level file names (default: every GNOME level)")
    ap.add_argument("--metrics", default="steps,moves")
    ap.add_argument("--threads", type=int, default=2, help="--threads of the table builds")
    ap.add_argument("--saved", default=SAVED,
                    help="the JSON file of the run's rows (another one lets a second run go "
                    "on beside this one, on other --levels)")
    ap.add_argument("--resume", action="store_true",
                    help="skip the levels and metrics the saved run (same settings) has")
    ap.add_argument("--cache", help="--pdb-cache of the tables (default: a temporary folder "
                    "per level and metric, so every build starts from nothing)")


def run(puzzle, metric, args, timeout):
    """(length under the metric, positions examined) of one solve, or None."""
    r = run_json([SOLVER, "solve", puzzle, "--json", "--quiet", "--metric", metric] + args,
                 timeout=timeout)
    if not r or r.get("status") != "solved":
        return None
    return [r[metric], r["positions_examined"]]


def build(puzzle, metric, a, cache):
    """Builds (or finds) the tables on --threads threads: wall seconds, CPU
    seconds and `pdb info`'s table lines (None when the build did not finish
    within --run-timeout)."""
    started = time.time()
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        out = subprocess.run([SOLVER, "pdb", "build", puzzle, "--metric", metric,
                              "--pdb-memory", a.pdb_memory, "--pdb-cache", cache,
                              "--threads", str(a.threads)],
                             capture_output=True, text=True, cwd=ROOT, timeout=a.run_timeout)
    except subprocess.TimeoutExpired:
        return time.time() - started, None, None
    seconds = time.time() - started
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime
    tables = [l.strip() for l in out.stdout.splitlines() if l.strip().startswith("group")]
    return seconds, cpu, tables


def level_row(puzzle, metric, a):
    """One row: BFS, then (when BFS finished) A* h0, the build and A* pdb."""
    row = {"puzzle": puzzle, "metric": metric,
           "bfs": run(puzzle, metric, ["--max-positions", str(a.bfs_positions)], a.run_timeout)}
    if row["bfs"]:
        row["h0"] = run(puzzle, metric, ["--algorithm", "astar", "--heuristic", "h0"],
                        a.run_timeout)
        with tempfile.TemporaryDirectory(prefix="pdb-blocks-") as tmp:
            cache = a.cache or tmp
            row["build_s"], row["build_cpu"], row["tables"] = build(puzzle, metric, a, cache)
            pdb = ["--algorithm", "astar", "--heuristic", "pdb", "--pdb-memory", a.pdb_memory,
                   "--pdb-cache", cache]
            row["pdb"] = (run(puzzle, metric, pdb, a.run_timeout)
                          if row["tables"] is not None else None)
    print(f"{puzzle} {metric}: {row}", file=sys.stderr)
    return row


def cell(x, i):
    return "-" if not x else f"{x[i]:,}"


def build_cell(r):
    """The build's wall seconds (and CPU seconds when recorded), or that it
    did not finish in time."""
    if r.get("tables") is None:
        return f"over {r.get('build_s', 0):.0f}"
    cpu = f" ({r['build_cpu']:.1f})" if r.get("build_cpu") is not None else ""
    return f"{r['build_s']:.1f}{cpu}"


def section(a, redraw=False):
    """The block-puzzle section of pdb.md, from a new run or the saved one."""
    if redraw:
        saved = json.load(open(a.saved))
    else:
        levels = a.levels.split(",") if a.levels else gnome_levels()
        levels = [p if "/" in p else os.path.join("puzzles", "klotski", p.removesuffix(".txt") + ".txt")
                  for p in levels]
        # Rows of levels and metrics not rerun are kept from the last run with
        # the same settings, so a narrowed run (--levels, --metrics) adds to
        # it; each new row is saved at once, so an interrupted run keeps them
        # and --resume goes on from there. Both metrics of a level run
        # together, so a run cut short has whole levels.
        old = json.load(open(a.saved)) if os.path.exists(a.saved) else {}
        same = ((old.get("pdb_memory"), old.get("bfs_positions"), old.get("threads"))
                == (a.pdb_memory, a.bfs_positions, a.threads))
        saved = {"pdb_memory": a.pdb_memory, "bfs_positions": a.bfs_positions,
                 "threads": a.threads, "rows": old["rows"] if same else []}
        done = {(r["puzzle"], r["metric"]) for r in saved["rows"]} if a.resume else set()
        for p in levels:
            for m in a.metrics.split(","):
                if (p, m) in done:
                    continue
                row = level_row(p, m, a)
                saved["rows"] = [r for r in saved["rows"]
                                 if (r["puzzle"], r["metric"]) != (p, m)] + [row]
                saved["rows"].sort(key=lambda r: (r["metric"] != "steps", r["puzzle"]))
                saved["load"] = max(saved.get("load", 0.0), os.getloadavg()[0])
                with open(a.saved, "w") as f:
                    json.dump(saved, f)
    return table(saved)


def table(saved):
    """The table, one line per level and metric, and the closing note."""
    md = ["## Block puzzles: GNOME Klotski levels, positions examined", "",
          f"A* pdb with the automatic patterns within `--pdb-memory {saved['pdb_memory']}`; its",
          f"tables are built first (`solver pdb build --threads {saved.get('threads', 1)}`, wall and CPU "
          "seconds in `build s`) and read from",
          "the cache by the search, so its count is the search alone. Levels BFS cannot finish",
          f"within {saved['bfs_positions']:,} positions are left out. Wall times on a shared",
          f"2-core machine (load average up to {saved.get('load', 0):.0f} while the rows were",
          "run), so indicative only; a build over `--run-timeout` leaves A* pdb out.",
          "Under moves A* h0 is not an optimal search (h0 counts cells, and one move may cover",
          "several: it is admissible under steps only); its column counts positions only.", "",
          "| level | metric | optimum (BFS) | BFS | A* h0 | A* pdb | length (pdb) | BFS / pdb | build s (CPU s) |",
          "|---|---|---|---|---|---|---|---|---|"]
    for r in saved["rows"]:
        if not r["bfs"]:
            continue
        p = r.get("pdb")
        ratio = f"{r['bfs'][1] / p[1]:.1f}" if p else "-"
        md.append(f"| {os.path.basename(r['puzzle'])[:-4]} | {r['metric']} | {r['bfs'][0]} "
                  f"| {cell(r['bfs'], 1)} | {cell(r.get('h0'), 1)} | {cell(p, 1)} | {cell(p, 0)} "
                  f"| {ratio} | {build_cell(r)} |")
    return md + ["", "### Closing note (block puzzles)", ""] + closing_note(saved)


def closing_note(saved):
    """The median ratio per metric, optimality, and what the figures do not show."""
    lines = []
    for metric in sorted({r["metric"] for r in saved["rows"]}):
        rows = [r for r in saved["rows"] if r["metric"] == metric and r["bfs"]]
        done = [r for r in rows if r.get("pdb")]
        if not done:
            continue
        ratios = [r["bfs"][1] / r["pdb"][1] for r in done]
        # A level whose tables did not build in time counts as no gain (1x).
        all_levels = ratios + [1.0] * (len(rows) - len(done))
        same = all(r["pdb"][0] == r["bfs"][0] for r in done)
        builds = [r["build_s"] for r in done]
        cpus = [r["build_cpu"] for r in done if r.get("build_cpu") is not None]
        cpu_range = f", {min(cpus):.1f}-{max(cpus):.1f} CPU s" if cpus else ""
        lines.append(
            f"- {metric}: A* pdb finished {len(done)} of the {len(rows)} levels BFS finished, "
            f"{'every one with' if same else 'NOT every one with'} BFS's optimum; median "
            f"BFS / A* pdb positions over those {len(rows)} levels "
            f"{statistics.median(all_levels):.0f}x (a level A* pdb did not finish counted as "
            f"1x; over the {len(done)} it finished {statistics.median(ratios):.0f}x, least "
            f"{min(ratios):.1f}x); table builds {min(builds):.1f}-{max(builds):.1f} s wall"
            f"{cpu_range}.")
    for metric in sorted({r["metric"] for r in saved["rows"]}):
        unfinished = [os.path.basename(r["puzzle"])[:-4] for r in saved["rows"]
                      if r["metric"] == metric and not r["bfs"]]
        if unfinished:
            lines.append(f"- {metric}: left out because BFS did not find the optimum within "
                         f"{saved['bfs_positions']:,} positions (or --run-timeout): "
                         + ", ".join(unfinished) + ".")
    for metric in sorted({r["metric"] for r in saved["rows"]}):
        run_here = {r["puzzle"] for r in saved["rows"] if r["metric"] == metric}
        missing = [os.path.basename(p)[:-4] for p in gnome_levels() if p not in run_here]
        if missing:
            lines.append(f"- {metric}: not run (left out with --levels, or the run was cut short "
                         "for machine time): "
                         + ", ".join(missing) + ".")
    lines += [
        "- Why so few positions: an abstraction that keeps a single master is indexed by "
        "the master's anchor, then the other blocks' rank over the cells they may take "
        "(door cells walled for them), so on most levels every block fits one table and "
        "the estimate is exact: A* walks the optimal path (optimum + 1 positions). The "
        "table's backward BFS from every goal position then does more work than the "
        "forward BFS would: the build time is the price, paid once per level and metric "
        "and cached.",
    ]
    return lines
