"""Checks a merged collection run (run-collection.sh): every puzzle the
reasoner solved has exactly one case in the merged case base, found by the
SHA-256 of its file, and no puzzle has two. Prints a summary; exits 1 when
the check fails, 2 on unreadable input.

    python3 experiments/slurm/check_merged.py RESULTS.jsonl CASEBASE.toml
"""
import collections
import hashlib
import json
import os
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sha256(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main(results_path, casebase_path):
    try:
        with open(results_path) as f:
            reports = [json.loads(line) for line in f if line.strip()]
        with open(casebase_path, "rb") as f:
            cases = tomllib.load(f).get("case", [])
    except (OSError, ValueError) as e:
        print(f"check_merged: {e}", file=sys.stderr)
        return 2
    by_hash = collections.Counter(c.get("provenance", {}).get("sha256") for c in cases)
    statuses = collections.Counter(r["status"] for r in reports)
    solved = [r["puzzle"] for r in reports if r["status"] == "solved"]
    missing = [p for p in solved if by_hash[sha256(p)] == 0]
    twice = [h for h, n in by_hash.items() if h is not None and n > 1]
    print(f"{len(reports)} puzzles: " + ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())))
    print(f"merged case base {os.path.relpath(casebase_path, ROOT)}: {len(cases)} cases, {len(by_hash)} distinct puzzles")
    print(f"solved puzzles with exactly one case: {len(solved) - len(missing)} of {len(solved)}")
    for p in missing:
        print(f"  no case for solved {p}")
    for h in twice:
        print(f"  {by_hash[h]} cases for the puzzle with sha256 {h}")
    ok = not missing and not twice
    print("check: every solved puzzle has exactly one case" if ok else "check: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
