"""Earns the seed case base: for each chosen puzzle, runs the solver with the
four general settings of thesis §8.2 (5 million positions each), keeps the
setting that solves it with the fewest positions examined, and adds it with
`reasoner casebase add` (which runs the solver again and records the outcome).
Writes casebase/seed.toml and casebase/SEED.md."""
import os
import subprocess
import sys

from common import REASONER, ROOT, general_settings, solve, spaces

CHOSEN = [
    "puzzles/klotski/classic.txt", "puzzles/klotski/century.txt", "puzzles/klotski/dads_puzzle.txt",
    "puzzles/klotski/pennant.txt", "puzzles/klotski/red_donkey.txt", "puzzles/klotski/daisy.txt",
    "puzzles/klotski/violet.txt", "puzzles/klotski/poppy.txt", "puzzles/klotski/trail.txt",
    "puzzles/klotski/snowdrop.txt", "puzzles/klotski/super_century.txt", "puzzles/klotski/ambush.txt",
    "puzzles/rushhour/rush_10.txt", "puzzles/rushhour/rush_30.txt", "puzzles/rushhour/rush_51.txt",
    "puzzles/tiles/eight_hardest_a.txt", "puzzles/special/fig7_3b_sliders.txt",
    "puzzles/special/twin_solvable.txt", "puzzles/special/huge_open.txt",
]
LIMIT = 5_000_000


def main():
    target = os.path.join(ROOT, "casebase", "seed.toml")
    if os.path.exists(target):
        os.remove(target)
    rows = []
    for puzzle in CHOSEN:
        s = spaces(puzzle)
        best = None
        for name, params in general_settings(s).items():
            r = solve(puzzle, params, LIMIT, timeout=300)
            if r and r["status"] == "solved" and (best is None or r["positions_examined"] < best[2]["positions_examined"]):
                best = (name, params, r)
        if best is None:
            print(f"{puzzle}: no general setting solves it within {LIMIT} positions", file=sys.stderr)
            continue
        name, params, r = best
        command = " ".join(["solver solve", puzzle, *params])
        subprocess.run([REASONER, "casebase", "add", target, puzzle, "--comment",
                        f"earned by experiments/seed_casebase.py: best of the four general settings ({name}): {command}",
                        *params], check=True, cwd=ROOT, capture_output=True)
        rows.append((puzzle, name, command, r["steps"], r["positions_examined"]))
        print(f"{puzzle}: {name}, {r['steps']} steps, {r['positions_examined']} positions", file=sys.stderr)
    with open(os.path.join(ROOT, "casebase", "SEED.md"), "w") as f:
        f.write("# The seed case base (`casebase/seed.toml`)\n\n")
        f.write("Earned by `python3 experiments/seed_casebase.py`: for each puzzle the solver ran the four general "
                "settings of thesis §8.2 (limit 5,000,000 positions); the one that solved it with the fewest positions "
                "examined became the case, added by `reasoner casebase add` (which reruns the solver and records the "
                "outcome). Found: hand-tuned (a choice among fixed settings, by this script).\n\n")
        f.write("| puzzle | setting | command | steps | positions examined |\n|---|---|---|---|---|\n")
        for p, n, c, st, pos in rows:
            f.write(f"| {p} | {n} | `{c}` | {st} | {pos} |\n")


if __name__ == "__main__":
    main()
