"""Reruns the thesis's experiments (chapter 8) and writes markdown tables and
the raw JSON Lines into experiments/results/ (experiments/plot.py draws the
figures from those JSON Lines; run.sh runs both).

1. The reasoner on every puzzle with casebase/seed.toml, and leave-one-out
   (the puzzle's own case removed) for the puzzles that have a case (table 8.2).
2. The reasoner against the four general settings of §8.2, all under the same
   position limit per solver run (table 8.4, fig. 8.1-8.4).
3. Permutation rank against the packed encoding (tables 8.5-8.6).
4. An easier variant's solution used as a subgoal sequence (§5.1.4, §8.3.4).

Environment: LIMIT (positions per solver run, default 1,000,000), ATTEMPTS
(reasoner attempts before the final run, default 6), FINAL_TIMEOUT (seconds
for the reasoner's final unlimited run, default 10), QUICK=1 (a subset),
TABLES_ONLY=1 (redraw the tables of 1 and 2 from results/*.jsonl, run nothing).
The thesis used 5,000,000 positions and 25 attempts; the defaults here keep
the whole run within about 15 minutes on 2 cores."""
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib

from common import REASONER, ROOT, SOLVER, casebase_without, general_settings, puzzles, run_json, solve, spaces

OUT = os.path.join(ROOT, "experiments", "results")
LIMIT = int(os.environ.get("LIMIT", 1_000_000))
ATTEMPTS = int(os.environ.get("ATTEMPTS", 6))
FINAL_TIMEOUT = int(os.environ.get("FINAL_TIMEOUT", 10))
QUICK = os.environ.get("QUICK") == "1"
CASEBASE = os.path.join(ROOT, "casebase", "seed.toml")


def reasoner(puzzle, casebase):
    r = run_json([REASONER, "solve", puzzle, "--casebase", casebase, "--json", "--seed", "1",
                  "--position-limit", str(LIMIT), "--attempts", str(ATTEMPTS), "--jobs", "2",
                  "--final-timeout", str(FINAL_TIMEOUT)], timeout=ATTEMPTS * 120 + FINAL_TIMEOUT + 60)
    if r is None:
        return {"status": "failed", "attempts": []}
    return r


def progress(r):
    start = r.get("start_distance") or 0
    best = r.get("best_distance")
    return 0.0 if not start or best is None else 1 - best / start


def within_limit(r):
    """Solved by an attempt that respected the position limit (not the final run)."""
    return any(a["status"] == "solved" and a["phase"] != "final" for a in r.get("attempts", []))


def write_jsonl(name, rows):
    with open(os.path.join(OUT, name), "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")


def short(p):
    return os.path.splitext(os.path.basename(p))[0]


def experiment_1_and_2(files):
    with open(CASEBASE, "rb") as f:
        cases = tomllib.load(f)["case"]
    case_of = {c["provenance"]["puzzle"]: c["name"] for c in cases if "provenance" in c}
    rows = []
    for p in files:
        s = spaces(p)
        row = {"puzzle": p, "spaces": s, "general": {}}
        for name, params in general_settings(s).items():
            r = solve(p, params, LIMIT, timeout=600) or {"status": "failed"}
            row["general"][name] = {k: r.get(k) for k in ("status", "steps", "positions_examined", "best_distance", "start_distance")}
        r = reasoner(p, CASEBASE)
        row["reasoner"] = {"status": r["status"], "steps": r.get("steps"), "attempts": len(r.get("attempts", [])),
                           "within_limit": within_limit(r),
                           "positions": sum(a.get("positions_examined") or 0 for a in r.get("attempts", [])),
                           "best": min((a["best_distance"] for a in r.get("attempts", []) if a.get("best_distance") is not None), default=None)}
        if p in case_of:
            with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as tmp:
                tmp.write(casebase_without(CASEBASE, p))
            loo = reasoner(p, tmp.name)
            os.unlink(tmp.name)
            row["leave_one_out"] = {"status": loo["status"], "steps": loo.get("steps"),
                                    "attempts": len(loo.get("attempts", [])), "within_limit": within_limit(loo)}
        rows.append(row)
        print(f"{p}: reasoner {row['reasoner']['status']}, general "
              + ", ".join(f"{k}={v['status']}" for k, v in row["general"].items()), file=sys.stderr)
    write_jsonl("reasoner_vs_general.jsonl", rows)
    return tables_1_and_2(rows)


def tables_1_and_2(rows):
    """Tables of experiments 1 and 2 from their raw rows."""
    # Table 8.2: leave-one-out.
    with open(os.path.join(OUT, "leave_one_out.md"), "w") as f:
        f.write(f"# Reasoner with and without the puzzle's own case (thesis table 8.2)\n\n"
                f"Limit {LIMIT:,} positions per attempt, {ATTEMPTS} attempts, final run capped at {FINAL_TIMEOUT} s, seed 1.\n\n"
                "| puzzle | with its case: solved | solver runs | without its case: solved | solver runs |\n|---|---|---|---|---|\n")
        for r in rows:
            if "leave_one_out" in r:
                a, b = r["reasoner"], r["leave_one_out"]
                f.write(f"| {short(r['puzzle'])} | {'yes' if a['status']=='solved' else 'no'} | {a['attempts']} | "
                        f"{'yes' if b['status']=='solved' else 'no'} | {b['attempts']} |\n")
    # Table 8.4: every method.
    names = list(general_settings(1).keys())
    solved = {n: 0 for n in names}
    total = {n: 0 for n in names}
    reasoner_solved = reasoner_within = 0
    with open(os.path.join(OUT, "reasoner_vs_general.md"), "w") as f:
        f.write(f"# The reasoner against the four general settings (thesis table 8.4)\n\n"
                f"Every solver run limited to {LIMIT:,} positions. Solved: steps / positions examined; unsolved: "
                f"(progress 1 - d_min/d). The reasoner column counts positions over all its attempts; "
                f"'final' marks a puzzle solved only by the final run (no position limit, {FINAL_TIMEOUT} s cap).\n\n")
        f.write("| puzzle | " + " | ".join(names) + " | reasoner |\n" + "|---" * (len(names) + 2) + "|\n")
        for r in rows:
            cells = []
            for n in names:
                g = r["general"][n]
                if g["status"] == "solved":
                    solved[n] += 1
                    total[n] += g["positions_examined"]
                    cells.append(f"{g['steps']} / {g['positions_examined']}")
                elif g["status"] != "no_solution" and g.get("start_distance"):
                    cells.append(f"({progress(g):.2f})")
                else:
                    cells.append(g["status"])
            rr = r["reasoner"]
            if rr["status"] == "solved":
                reasoner_solved += 1
                reasoner_within += rr["within_limit"]
                cells.append(f"{rr['steps']} / {rr['positions']}" + ("" if rr["within_limit"] else " final"))
            else:
                cells.append(rr["status"])
            f.write(f"| {short(r['puzzle'])} | " + " | ".join(cells) + " |\n")
        f.write("\n| method | puzzles solved | positions examined on solved puzzles |\n|---|---|---|\n")
        for n in names:
            f.write(f"| {n} | {solved[n]} of {len(rows)} | {total[n]:,} |\n")
        f.write(f"| reasoner (within the limit) | {reasoner_within} of {len(rows)} | |\n")
        f.write(f"| reasoner (with the final run) | {reasoner_solved} of {len(rows)} | |\n")
    return solved, reasoner_within, reasoner_solved, len(rows)


def experiment_3(files):
    rows = []
    for p in files:
        row = {"puzzle": p}
        for enc in ("rank", "packed"):
            r = run_json([SOLVER, "solve", p, "--json", "--quiet", "--encoding", enc, "--max-positions", str(LIMIT)], timeout=600)
            if r:
                row[enc] = {"status": r["status"], "key_bits": r["key_bits"], "ms": r["elapsed_ms"],
                            "bytes_per_position": r["peak_memory_bytes"] / max(1, r["positions_stored"]),
                            "stored": r["positions_stored"]}
        rows.append(row)
    write_jsonl("encodings.jsonl", rows)
    with open(os.path.join(OUT, "encodings.md"), "w") as f:
        f.write(f"# Permutation rank against the packed encoding (thesis tables 8.5-8.6)\n\n"
                f"The same BFS (limit {LIMIT:,} positions) with each encoding. Bytes per position = peak bytes of the "
                "visited set and layers / positions stored. Thesis: 28-40 bytes per position in practice.\n\n"
                "| puzzle | stored | rank bits | rank bytes/pos | rank ms | packed bits | packed bytes/pos | packed ms |\n|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            if "rank" in r and "packed" in r:
                a, b = r["rank"], r["packed"]
                f.write(f"| {short(r['puzzle'])} | {a['stored']} | {a['key_bits']} | {a['bytes_per_position']:.2f} | {a['ms']} | "
                        f"{b['key_bits']} | {b['bytes_per_position']:.2f} | {b['ms']} |\n")


def experiment_4():
    """Century with one 1x1 block removed: solve it, turn every position of its
    solution into a goal section fixing the blocks it has, solve Century with
    that subgoal sequence."""
    full = os.path.join(ROOT, "puzzles", "klotski", "century.txt")
    text = open(full).read()
    sections = re.split(r"(?m)^!\s*$", text)
    # sections: [metadata, header, start, goal, ''].
    start = sections[2].strip("\n").split("\n")
    # Remove the last 1x1 block 'o' of the start grid (scanning from the bottom).
    easy_start = list(start)
    for i in range(len(easy_start) - 1, -1, -1):
        if "o" in easy_start[i]:
            j = easy_start[i].rindex("o")
            easy_start[i] = easy_start[i][:j] + "." + easy_start[i][j + 1:]
            break
    easy = sections[0] + "!" + sections[1] + "!\n" + "\n".join(easy_start) + "\n!" + sections[3] + "!\n"
    work = tempfile.mkdtemp()
    easy_file = os.path.join(work, "century_easy.txt")
    open(easy_file, "w").write(easy)
    shown = subprocess.run([SOLVER, "solve", easy_file, "--show", "--quiet"], capture_output=True, text=True, cwd=ROOT).stdout
    height = len(start)
    boards, lines = [], shown.splitlines()
    for k, line in enumerate(lines):
        if line.startswith("move "):
            boards.append(lines[k + 1:k + 1 + height])
    easy_result = run_json([SOLVER, "solve", easy_file, "--json", "--quiet"])
    # Goal sections: every position of the easy solution (blocks it has), then the real goal.
    goals = ["\n".join(b).replace(" ", ".") for b in boards]
    sub = sections[0] + "!" + sections[1] + "!\n" + "\n".join(start) + "\n!\n" + "\n!\n".join(goals) + "\n!" + sections[3] + "!\n"
    sub_file = os.path.join(work, "century_subgoals.txt")
    open(sub_file, "w").write(sub)
    direct = run_json([SOLVER, "solve", full, "--json", "--quiet"])
    chained = run_json([SOLVER, "solve", sub_file, "--json", "--quiet", "--max-positions", str(LIMIT)], timeout=600)
    write_jsonl("easier_variant.jsonl", [{"easy": easy_result, "chained": chained, "direct": direct}])
    with open(os.path.join(OUT, "easier_variant.md"), "w") as f:
        f.write("# Solving an easier variant first (thesis §5.1.4, §8.3.4)\n\n"
                "Century with its last 1x1 block removed was solved by BFS; every position of that solution became a "
                "goal section (fixing the blocks the easy puzzle has; the removed block may be anywhere), followed by "
                "Century's own goal; the full puzzle was then solved section by section with BFS (visited set cleared "
                f"between sections, limit {LIMIT:,} positions in all).\n\n"
                "| run | status | goal sections reached | steps | positions examined |\n|---|---|---|---|---|\n")
        for name, r in (("easy variant", easy_result), ("full, with the subgoals", chained), ("full, directly", direct)):
            if r:
                f.write(f"| {name} | {r['status']} | {r['goals_reached']} of {r['goals_total']} | {r.get('steps')} | {r['positions_examined']} |\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    if os.environ.get("TABLES_ONLY") == "1":
        # Redraw experiments 1 and 2 from their raw results, running nothing.
        with open(os.path.join(OUT, "reasoner_vs_general.jsonl")) as f:
            print(json.dumps(tables_1_and_2([json.loads(line) for line in f])))
        return
    files = puzzles()
    if QUICK:
        files = files[::6]
    solved, within, with_final, n = experiment_1_and_2(files)
    experiment_3(files)
    experiment_4()
    with open(os.path.join(OUT, "MACHINE.md"), "w") as f:
        cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
        mem = next((l.split(":", 1)[1].strip() for l in open("/proc/meminfo") if l.startswith("MemTotal")), "?")
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
        f.write(f"# Machine\n\n{os.cpu_count()} cores, {cpu}, {mem}; commit {commit}; "
                f"LIMIT={LIMIT} ATTEMPTS={ATTEMPTS} FINAL_TIMEOUT={FINAL_TIMEOUT} QUICK={int(QUICK)}; "
                f"{subprocess.run(['date', '-u'], capture_output=True, text=True).stdout.strip()}\n")
    print(json.dumps({"general_solved": solved, "reasoner_within_limit": within, "reasoner_with_final": with_final, "puzzles": n}))


if __name__ == "__main__":
    main()
