"""Shared helpers of the experiment scripts: running the binaries, the four
general settings of the thesis (§8.2) as the reasoner declares them."""
import json
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The release binaries, unless SOLVER or REASONER name others (the tests use their own builds).
SOLVER = os.environ.get("SOLVER") or os.path.join(ROOT, "target", "release", "solver")
REASONER = os.environ.get("REASONER") or os.path.join(ROOT, "target", "release", "reasoner")


def run_json(args, timeout=None):
    """Runs a command and parses the JSON object it prints (None on failure)."""
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return None
    lines = [l for l in out.stdout.splitlines() if l.strip()]
    if not lines:
        return None
    try:
        return json.loads(lines[-1])
    except json.JSONDecodeError:
        return None


def spaces(puzzle):
    f = run_json([SOLVER, "features", puzzle, "--json"], timeout=60)
    return int(f["features"]["num_of_spaces"][0]) if f else 1


def general_settings(s):
    """The four general settings of thesis §8.2 for a puzzle with s spaces, as
    solver flags by name. They live in the reasoner (reasoner/src/plan.rs);
    `reasoner settings --json` prints them, so this never keeps its own copy."""
    out = subprocess.run([REASONER, "settings", "--spaces", str(s), "--json"],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    return {setting["name"].removeprefix("standard: "): setting["args"]
            for setting in json.loads(out.stdout)}


def solve(puzzle, params, max_positions, timeout=None, extra=()):
    return run_json([SOLVER, "solve", puzzle, "--json", "--quiet", "--max-positions", str(max_positions),
                     *params, *extra], timeout=timeout)


def puzzles():
    """Every puzzle file of the collection, sorted."""
    out = []
    for kind in sorted(os.listdir(os.path.join(ROOT, "puzzles"))):
        d = os.path.join(ROOT, "puzzles", kind)
        if os.path.isdir(d):
            out += [os.path.join("puzzles", kind, f) for f in sorted(os.listdir(d)) if f.endswith(".txt")]
    return out


def gnome_levels():
    """The GNOME Klotski levels of the collection (their `% name:` line says
    so), as paths from the repository root, sorted."""
    d = os.path.join(ROOT, "puzzles", "klotski")
    found = []
    for name in sorted(os.listdir(d)):
        with open(os.path.join(d, name)) as f:
            first = f.readline()
        if first.startswith("% name:") and "GNOME Klotski" in first:
            found.append(os.path.join("puzzles", "klotski", name))
    return found


def casebase_without(path, puzzle):
    """The TOML text of the case base at `path` without the case whose
    provenance names `puzzle` (leave one out): its [[case]] block cut out."""
    with open(path) as f:
        text = f.read()
    blocks = re.split(r"(?m)^(?=\[\[case\]\])", text)
    return "".join(b for b in blocks if f'puzzle = "{puzzle}"' not in b)


def load_results(path):
    """The results a resumable experiment stored at `path` ({} when none yet)."""
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    return {}


def save_results(path, results):
    """Stores `results` at `path` atomically (a temporary file renamed), so an
    interrupted run never leaves a half-written file."""
    import tempfile
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".results-")
    with os.fdopen(fd, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    os.replace(tmp, path)
