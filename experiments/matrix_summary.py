#!/usr/bin/env python3
"""Summary of a performance matrix written by `matrix.py` (issue 45): per
family and overall, the puzzles, the single best setting (SBS: most solved,
then fewest PAR2 positions, a run not solved counting twice the limit), its
solved share, the per-puzzle best of the grid (VBS) and its solved share,
both in PAR2 positions, the overall SBS's solved share in the family (what
one setting for everything gives there), and per algorithm how often it is the
per-puzzle best (solved in fewest positions, then least time, then the
grid's order).

`--limit L` reads the matrix as if it had been run under a lower limit L
(positions are deterministic: a run solved within L positions is solved the
same way under L, any other is not), so one run at a high limit calibrates
every lower one. The SBS of a family is the family's own best setting.
Puzzles with fewer runs than the others (a matrix still running) are left
out and named.

Usage: matrix_summary.py MATRIX.jsonl [MATRIX.jsonl ...] [--limit L] [--markdown]"""
import argparse
import collections
import json
import sys


def load(paths):
    """The rows of the matrix files, the last row of a (puzzle, setting) winning."""
    rows = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    rows[(r["puzzle"], r["setting"])] = r
    return list(rows.values())


def lowered(r, limit):
    """Row r as if run under the lower position limit `limit`: a run solved
    or settled within it is the same run (the solver's positions are
    deterministic and its search does not depend on the limit before it is
    reached); any other stopped at the limit, `limit_reached`."""
    if r["status"] == "error" or r["positions"] <= limit:
        return {**r, "limit": limit}
    return {**r, "limit": limit, "status": "limit_reached", "positions": limit, "length": None}


def solved(r):
    return r["status"] == "solved"


def par2(r, limit):
    return r["positions"] if solved(r) else 2 * limit


def summarize(rows, limit, overall=None):
    """{puzzles, sbs, sbs_solved, vbs_solved, sbs_par2, vbs_par2, best_by_algorithm,
    overall_solved} for rows (run, or `lowered`, under `limit`); overall_solved is what
    setting `overall` solves of them."""
    order = {}
    for r in rows:
        order.setdefault(r["setting"], len(order))
    puzzles = sorted({r["puzzle"] for r in rows})
    by_setting = collections.defaultdict(dict)
    for r in rows:
        by_setting[r["setting"]][r["puzzle"]] = r

    def score(setting):
        runs = by_setting[setting]
        won = sum(1 for p in puzzles if p in runs and solved(runs[p]))
        cost = sum(par2(runs[p], limit) if p in runs else 2 * limit for p in puzzles)
        return (-won, cost, order[setting])

    sbs = min(by_setting, key=score)
    best = collections.Counter()
    vbs_solved, vbs_par2 = 0, 0
    for p in puzzles:
        runs = [r for r in rows if r["puzzle"] == p and solved(r)]
        if runs:
            w = min(runs, key=lambda r: (r["positions"], r["seconds"], order[r["setting"]]))
            best[w["params"]["algorithm"]] += 1
            vbs_solved += 1
            vbs_par2 += w["positions"]
        else:
            vbs_par2 += 2 * limit
    won, cost, _ = score(sbs)
    fixed = -score(overall or sbs)[0] if (overall or sbs) in by_setting else 0
    return {"puzzles": len(puzzles), "sbs": sbs, "sbs_solved": -won, "vbs_solved": vbs_solved,
            "sbs_par2": cost, "vbs_par2": vbs_par2, "best_by_algorithm": dict(best.most_common()),
            "overall_solved": fixed}


def pct(n, d):
    return f"{100 * n / d:.0f}%" if d else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("matrix", nargs="+")
    ap.add_argument("--limit", type=int, help="read as if run under this lower position limit")
    ap.add_argument("--markdown", action="store_true", help="a Markdown table")
    a = ap.parse_args()
    rows = load(a.matrix)
    if not rows:
        sys.exit("matrix_summary.py: no rows")
    # A puzzle whose grid is not run through yet (a matrix still running)
    # would count its missing runs as unsolved: it is left out.
    runs = collections.Counter(r["puzzle"] for r in rows)
    full = max(runs.values())
    partial = sorted(p for p, n in runs.items() if n < full)
    if partial:
        print(f"left out, fewer than {full} runs: {', '.join(partial)}")
        rows = [r for r in rows if runs[r["puzzle"]] == full]
    run_limit = min(r["limit"] for r in rows)
    limit = a.limit or run_limit
    if limit > run_limit:
        sys.exit(f"matrix_summary.py: --limit {limit} is above the matrix's limit {run_limit}")
    rows = [lowered(r, limit) for r in rows]
    families = collections.defaultdict(list)
    for r in rows:
        families[r["family"]].append(r)
    everything = summarize(rows, limit)
    groups = [(f, summarize(rs, limit, everything["sbs"])) for f, rs in sorted(families.items())]
    groups.append(("all", everything))
    head = ["family", "puzzles", "SBS", "SBS solved", "VBS solved", "SBS PAR2", "VBS PAR2",
            "overall SBS solved", "per-puzzle best by algorithm"]
    print(f"limit {limit:,} positions, {len(rows)} runs")
    if a.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    for f, s in groups:
        cells = [f, str(s["puzzles"]), s["sbs"], pct(s["sbs_solved"], s["puzzles"]),
                 pct(s["vbs_solved"], s["puzzles"]), f"{s['sbs_par2']:,}", f"{s['vbs_par2']:,}",
                 pct(s["overall_solved"], s["puzzles"]),
                 ", ".join(f"{k} {v}" for k, v in s["best_by_algorithm"].items())]
        print("| " + " | ".join(cells) + " |" if a.markdown else "  ".join(cells))


if __name__ == "__main__":
    main()
