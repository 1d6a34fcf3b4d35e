#!/usr/bin/env python3
"""Our solver against its two public peers, on the puzzles both sides read.

What: one command, `python3 experiments/peers.py`, that
  1. builds the peers from their sources: lumi-a/sliding-blocks (Rust) through
     the small driver in experiments/peers/lumi-driver/, which solves one named
     example of its src/examples.rs and prints the minimal move count, and
     fogleman/rush (Go) through experiments/peers/rush-driver/, which solves
     every board of Fogleman's database format read on stdin in one process;
  2. runs both sides alternately (ours, peer, ours, peer, ...; ROUNDS rounds)
     under `/usr/bin/time -f "%e %U %S %M"`:
       Layton: the 24 puzzles of puzzles/layton/ (lumi-a's examples, converted),
               one process per puzzle: ours `solver solve FILE --metric moves
               --json` with no other flag, ours again with `--optimal`, and
               lumi-a's solve_puzzle_minmoves on the same example;
       Rush Hour: Fogleman's boards, one process per side for the whole list:
               ours `solver solve FILE --from rush --metric moves --json`,
               fogleman/rush's Solve() on each board;
  3. checks every answer against the known optimum (Layton: the file's
     `% optimum: N moves`, lumi-a's min_moves; Rush Hour: the MOVES field);
  4. writes experiments/peers.md: the machine, the commits, per-puzzle medians
     over the rounds of wall s, CPU s (user + system) and max RSS, the ratio
     peer CPU / our CPU, and whether the answers agree.

Why: a claim "faster than X" needs X built from its own sources and run on the
same machine and the same puzzles, with both answers checked, and a page that
anyone can redraw with one command.

Nothing is written into the repository but experiments/peers.md (and the
lumi driver's Cargo.lock, which is committed: it is lumi-a's own lock with the
driver added, so the peer builds with the dependency versions it pins). The
peers' sources are extracted into the scratch folder PEERS_DIR, builds and
caches go there too. A peer whose source is missing or whose build fails is
left out: the page records ours alone and says which peer is missing and why.

Environment:
  ROUNDS       rounds of alternating runs (default 3); medians are over them
  SOLVER       our binary (default target/release/solver, built with
               `cargo build --release --bins` when missing)
  LUMI_SRC     lumi-a/sliding-blocks: a git dir or a source folder
               (default /work/.mirror/lumi-a+sliding-blocks/repo)
  RUSH_SRC     fogleman/rush: a git dir or a source folder
               (default /work/.mirror/fogleman+rush/repo)
  PEERS_DIR    scratch folder (default target/peers)
  RUSH_DEV     the bundled Rush Hour sample (default
               /work/shared/dev-puzzles/rushhour_dev.txt)
  RUSH_DB      a local copy of Fogleman's full database rush.txt; without it
               the script tries RUSH_DB_URL once and caches it in PEERS_DIR
  RUSH_DB_URL  default https://www.michaelfogleman.com/static/rush.txt
  RUSH_SAMPLE  boards taken from the full database (default 18000): every
               k-th line from the first, k = lines // RUSH_SAMPLE
  TIMEOUT      seconds one process may run (default 1800)
  ONLY         comma-separated Layton file stems to run (default: all 24; for a
               quick check of the script)

fogleman/rush imports github.com/fogleman/gg (for rendering only); it is built
in GOPATH mode against Debian's golang-github-fogleman-gg-dev. When `go` or
that package is missing and the script runs as root, it installs them with
apt-get (golang, golang-github-fogleman-gg-dev).
"""
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from common import ROOT, SOLVER

HERE = os.path.join(ROOT, "experiments")
PAGE = os.path.join(HERE, "peers.md")
ROUNDS = int(os.environ.get("ROUNDS", 3))
PEERS_DIR = os.path.abspath(os.environ.get("PEERS_DIR") or os.path.join(ROOT, "target", "peers"))
LUMI_SRC = os.environ.get("LUMI_SRC", "/work/.mirror/lumi-a+sliding-blocks/repo")
RUSH_SRC = os.environ.get("RUSH_SRC", "/work/.mirror/fogleman+rush/repo")
RUSH_DEV = os.environ.get("RUSH_DEV", "/work/shared/dev-puzzles/rushhour_dev.txt")
RUSH_DB = os.environ.get("RUSH_DB")
RUSH_DB_URL = os.environ.get("RUSH_DB_URL", "https://www.michaelfogleman.com/static/rush.txt")
RUSH_SAMPLE = int(os.environ.get("RUSH_SAMPLE", 18000))
TIMEOUT = float(os.environ.get("TIMEOUT", 1800))
LAYTON = os.path.join(ROOT, "puzzles", "layton")
TIME_FORMAT = "%e %U %S %M"
# Where the lumi driver's Cargo.toml expects the extracted crate.
LUMI_CRATE = os.path.join(ROOT, "target", "peers", "sliding-blocks")


# ---------------------------------------------------------------- helpers

def sh(args, **kw):
    """Runs a command, returning (ok, combined output tail)."""
    out = subprocess.run(args, capture_output=True, text=True, **kw)
    text = (out.stdout + out.stderr).strip()
    return out.returncode == 0, "\n".join(text.splitlines()[-15:])


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def is_git_dir(path):
    """Is `path` a repository itself (a git dir, or a work tree's top with
    .git), not merely a folder inside some other repository's work tree?"""
    out = subprocess.run(["git", "-C", path, "rev-parse", "--absolute-git-dir"],
                         capture_output=True, text=True)
    here = os.path.realpath(path)
    return out.returncode == 0 and os.path.realpath(out.stdout.strip()) in (here, os.path.join(here, ".git"))


def extract(src, dest):
    """Puts the source at `src` (a git dir: its HEAD; or a folder) into `dest`,
    fresh. Returns the commit (short) or 'no git' for a plain folder."""
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    if is_git_dir(src):
        archive = subprocess.run(["git", "-C", src, "archive", "HEAD"], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", dest], input=archive.stdout, check=True)
        return subprocess.run(["git", "-C", src, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
    shutil.copytree(src, dest, dirs_exist_ok=True)
    return "no git (a plain folder)"


def timed(cmd, stdin_path=None):
    """Runs `cmd` under /usr/bin/time; returns a dict with wall, cpu (user +
    system) s, rss (MB), the return code and stdout."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        stdin = open(stdin_path) if stdin_path else subprocess.DEVNULL
        try:
            out = subprocess.run(["/usr/bin/time", "-f", TIME_FORMAT, "-o", tf.name, *cmd],
                                 stdin=stdin, capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT)
        except subprocess.TimeoutExpired:
            return {"ok": False, "error": f"timeout after {TIMEOUT:g} s"}
        finally:
            if stdin_path:
                stdin.close()
        fields = tf.read().split()[-4:]
    try:
        wall, user, system, rss_kb = (float(x) for x in fields)
    except ValueError:
        return {"ok": False, "error": "no /usr/bin/time line", "stdout": out.stdout}
    return {"ok": True, "rc": out.returncode, "wall": wall, "cpu": user + system,
            "rss": rss_kb / 1024, "stdout": out.stdout, "stderr": out.stderr[-500:]}


# ---------------------------------------------------------------- machine, commits

def machine():
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    mem = ""
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB"
    return {"nproc": os.cpu_count(), "cpu": model, "memory": mem, "kernel": platform.release(),
            "load": " ".join(f"{x:.2f}" for x in os.getloadavg())}


def our_commit():
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "diff-index", "--quiet", "HEAD", "--"]).returncode != 0
    return head + ("-dirty" if dirty else "")


def ensure_solver():
    if not os.path.exists(SOLVER):
        log("building our solver: cargo build --release --bins")
        subprocess.run(["cargo", "build", "--release", "--bins"], cwd=ROOT, check=True)
    return SOLVER


# ---------------------------------------------------------------- peers

def build_lumi():
    """lumi-a/sliding-blocks plus the driver. Returns a peer dict: binary,
    commit, and the examples' names (or `missing` with the reason)."""
    if not os.path.exists(LUMI_SRC):
        return {"missing": f"no source at LUMI_SRC={LUMI_SRC}"}
    try:
        commit = extract(LUMI_SRC, LUMI_CRATE)
    except (subprocess.CalledProcessError, OSError) as e:
        return {"missing": f"extracting {LUMI_SRC} failed: {e}"}
    driver = os.path.join(HERE, "peers", "lumi-driver")
    target = os.path.join(PEERS_DIR, "lumi-target")
    log(f"building lumi-a/sliding-blocks {commit} with experiments/peers/lumi-driver")
    ok, out = sh(["cargo", "build", "--release", "--quiet"], cwd=driver,
                 env={**os.environ, "CARGO_TARGET_DIR": target})
    binary = os.path.join(target, "release", "lumi-driver")
    if not ok or not os.path.exists(binary):
        return {"missing": f"its build failed (`cargo build --release` in experiments/peers/lumi-driver):\n{out}",
                "commit": commit}
    listing = subprocess.run([binary, "--list"], capture_output=True, text=True, check=True).stdout
    examples = dict(line.rsplit("\t", 1) for line in listing.splitlines())
    return {"binary": binary, "commit": commit, "examples": {k: int(v) for k, v in examples.items()}}


def ensure_go():
    """`go` and Debian's gg package (fogleman/rush's one import outside the
    standard library); installed with apt-get when missing and we are root."""
    gg = "/usr/share/gocode/src/github.com/fogleman/gg"
    if shutil.which("go") and os.path.isdir(gg):
        return None
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return "`go` or golang-github-fogleman-gg-dev is missing (and not root, so not installed)"
    packages = ["golang", "golang-github-fogleman-gg-dev"]
    log("installing", " ".join(packages), "with apt-get")
    ok, out = sh(["apt-get", "install", "-y", *packages])
    if not ok:
        sh(["apt-get", "update"])
        ok, out = sh(["apt-get", "install", "-y", *packages])
    if not ok or not shutil.which("go"):
        return f"apt-get install {' '.join(packages)} failed:\n{out}"
    return None


def build_rush():
    """fogleman/rush in a GOPATH (its repository has no go.mod) plus the
    driver. Returns a peer dict: binary and commit (or `missing`)."""
    if not os.path.exists(RUSH_SRC):
        return {"missing": f"no source at RUSH_SRC={RUSH_SRC}"}
    problem = ensure_go()
    if problem:
        return {"missing": problem}
    gopath = os.path.join(PEERS_DIR, "gopath")
    try:
        commit = extract(RUSH_SRC, os.path.join(gopath, "src", "github.com", "fogleman", "rush"))
    except (subprocess.CalledProcessError, OSError) as e:
        return {"missing": f"extracting {RUSH_SRC} failed: {e}"}
    driver_dir = os.path.join(gopath, "src", "rush-driver")
    os.makedirs(driver_dir, exist_ok=True)
    shutil.copy(os.path.join(HERE, "peers", "rush-driver", "main.go"), driver_dir)
    binary = os.path.join(PEERS_DIR, "rush-driver")
    env = {**os.environ, "GO111MODULE": "off", "GOPATH": f"{gopath}:/usr/share/gocode",
           "GOCACHE": os.path.join(PEERS_DIR, "gocache"), "GOFLAGS": ""}
    log(f"building fogleman/rush {commit} with experiments/peers/rush-driver")
    ok, out = sh(["go", "build", "-o", binary, "."], cwd=driver_dir, env=env)
    if not ok:
        return {"missing": f"its build failed (`go build` of experiments/peers/rush-driver):\n{out}",
                "commit": commit}
    version = subprocess.run(["go", "version"], capture_output=True, text=True).stdout.strip()
    return {"binary": binary, "commit": commit, "go": version}


# ---------------------------------------------------------------- puzzles

def layton_puzzles():
    """Each Layton file with its lumi-a example name and optimum. The `% name:`
    line gives the Professor Layton name; lumi-a marks its three variants
    (our genome_* files) with 🧬 and the games' puzzles with 🎩."""
    found = []
    for name in sorted(os.listdir(LAYTON)):
        if not name.endswith(".txt"):
            continue
        if os.environ.get("ONLY") and name[:-4] not in os.environ["ONLY"].split(","):
            continue
        path = os.path.join(LAYTON, name)
        title = optimum = None
        with open(path) as f:
            for line in f:
                if line.startswith("% name:"):
                    title = line.split(":", 1)[1].strip().removesuffix("(Professor Layton)").strip()
                elif line.startswith("% optimum:"):
                    optimum = int(line.split(":", 1)[1].split()[0])
        mark = "🧬" if name.startswith("genome_") else "🎩"
        found.append({"file": os.path.relpath(path, ROOT), "title": title,
                      "example": f"{mark} {title}", "optimum": optimum})
    return found


def read_rush(path):
    """(optimum, board) of each `MOVES BOARD CLUSTER` line."""
    boards = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and not line.startswith("#"):
                boards.append((int(parts[0]), parts[1]))
    return boards


def rush_sets():
    """The Rush Hour lists to run: the bundled sample, and a deterministic
    sample of the full database when it can be had. Returns (sets, note)."""
    sets = []
    if os.path.exists(RUSH_DEV):
        sets.append({"label": "dev sample", "path": RUSH_DEV,
                     "about": f"`{RUSH_DEV}`, every line"})
    full = RUSH_DB or os.path.join(PEERS_DIR, "rush.txt")
    note = None
    if not os.path.exists(full):
        try:
            log(f"downloading {RUSH_DB_URL}")
            part = full + ".part"
            with urllib.request.urlopen(RUSH_DB_URL, timeout=30) as r, open(part, "wb") as f:
                shutil.copyfileobj(r, f)
            os.replace(part, full)
        except (OSError, ValueError) as e:
            note = (f"Fogleman's full database ({RUSH_DB_URL}) could not be downloaded here "
                    f"({getattr(e, 'reason', e)}), and no RUSH_DB copy was given: "
                    f"the Rush Hour rows use the bundled sample alone.")
    if os.path.exists(full):
        with open(full) as f:
            lines = [l for l in f if len(l.split()) >= 2 and not l.startswith("#")]
        k = max(1, len(lines) // RUSH_SAMPLE)
        sample = os.path.join(PEERS_DIR, f"rush-every{k}.txt")
        with open(sample, "w") as f:
            f.writelines(lines[::k])
        sets.append({"label": "database sample", "path": sample,
                     "about": f"every {k}th line of Fogleman's rush.txt ({len(lines):,} lines), from the first"})
    return sets, note


# ---------------------------------------------------------------- runs and checks

def our_layton(puzzle, optimal):
    cmd = [SOLVER, "solve", puzzle["file"], "--metric", "moves", "--json"]
    if optimal:
        cmd.append("--optimal")
    run = timed(cmd)
    if run["ok"]:
        try:
            result = json.loads(run["stdout"].strip().splitlines()[-1])
            run["moves"] = result["moves"] if result.get("status") == "solved" else None
        except (json.JSONDecodeError, IndexError, KeyError):
            run["moves"] = None
    return run


def lumi_layton(peer, puzzle):
    run = timed([peer["binary"], puzzle["example"]])
    if run["ok"]:
        text = run["stdout"].strip()
        run["moves"] = int(text) if text.isdigit() else None
    return run


def our_rush(path, count):
    """Ours on a whole list; its JSON lines are named `rush line N`."""
    run = timed([SOLVER, "solve", path, "--from", "rush", "--metric", "moves", "--json"])
    if run["ok"]:
        answers = [None] * count
        for line in run["stdout"].splitlines():
            try:
                r = json.loads(line)
                i = int(r["name"].rsplit(" ", 1)[1]) - 1
                answers[i] = r["moves"] if r.get("status") == "solved" else None
            except (json.JSONDecodeError, KeyError, ValueError, IndexError):
                continue
        run["answers"] = answers
    return run


def peer_rush(peer, path, boards):
    run = timed([peer["binary"]], stdin_path=path)
    if run["ok"]:
        by_board = {}
        for line in run["stdout"].splitlines():
            board, moves = line.split()
            by_board.setdefault(board, int(moves))
        run["answers"] = [by_board.get(board) for _, board in boards]
    return run


def agree_count(run, optima):
    """How many of the list's answers equal the optimum."""
    if not run.get("ok") or "answers" not in run:
        return 0
    return sum(a == o for a, o in zip(run["answers"], optima))


def run_all(puzzles, rush, lumi, fogleman):
    """ROUNDS rounds; in each, per Layton puzzle ours, ours --optimal, lumi-a,
    then per Rush Hour list ours, fogleman/rush: the sides alternate, so a
    slow drift of the shared machine falls on both."""
    runs = {"layton": {p["file"]: {"ours": [], "optimal": [], "lumi": []} for p in puzzles},
            "rush": {s["label"]: {"ours": [], "rush": []} for s in rush}}
    for r in range(1, ROUNDS + 1):
        for p in puzzles:
            log(f"round {r}/{ROUNDS}  {p['file']}")
            slot = runs["layton"][p["file"]]
            slot["ours"].append(strip(our_layton(p, optimal=False)))
            if lumi.get("binary"):
                slot["lumi"].append(strip(lumi_layton(lumi, p)))
            slot["optimal"].append(strip(our_layton(p, optimal=True)))
        for s in rush:
            log(f"round {r}/{ROUNDS}  rush {s['label']} ({len(s['boards'])} boards)")
            slot = runs["rush"][s["label"]]
            slot["ours"].append(strip(our_rush(s["path"], len(s["boards"])), s["optima"]))
            if fogleman.get("binary"):
                slot["rush"].append(strip(peer_rush(fogleman, s["path"], s["boards"]), s["optima"]))
    return runs


def strip(run, optima=None):
    """A run without its bulky output: per-list answers become a count."""
    run = dict(run)
    run.pop("stdout", None)
    if optima is not None:
        run["checked"] = len(optima)
        run["agree"] = agree_count(run, optima)
        run.pop("answers", None)
    return run


# ---------------------------------------------------------------- the page

def median(runs, key):
    values = [r[key] for r in runs if r.get("ok")]
    return statistics.median(values) if values else None


def fmt(x, digits=2):
    return "—" if x is None else f"{x:.{digits}f}"


def ratio(peer_cpu, our_cpu):
    """peer / ours; /usr/bin/time counts in 0.01 s, so a side under that is a bound."""
    if peer_cpu is None or our_cpu is None:
        return "—"
    if our_cpu < 0.005:
        return "—" if peer_cpu < 0.005 else f">{peer_cpu / 0.01:.0f}"
    return f"{peer_cpu / our_cpu:.1f}" if peer_cpu >= 0.005 else f"<{0.01 / our_cpu:.2f}"


def sides_line(runs):
    """wall | CPU | RSS cells of one side's runs."""
    return f"{fmt(median(runs, 'wall'))} | {fmt(median(runs, 'cpu'))} | {fmt(median(runs, 'rss'), 1)}"


def layton_table(puzzles, runs, lumi):
    have_lumi = bool(lumi.get("binary"))
    head = "| puzzle | optimum | ours wall s | ours CPU s | ours RSS MB | --optimal wall s | --optimal CPU s | --optimal RSS MB |"
    rule = "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    if have_lumi:
        head += " lumi-a wall s | lumi-a CPU s | lumi-a RSS MB | lumi-a / ours CPU | lumi-a / --optimal CPU |"
        rule += " ---: | ---: | ---: | ---: | ---: |"
    head += " answers agree |"
    rule += " --- |"
    lines = [head, rule]
    totals = {side: {"wall": 0.0, "cpu": 0.0} for side in ("ours", "optimal", "lumi")}
    agree = {side: 0 for side in totals}
    checked = 0
    for p in puzzles:
        slot = runs[p["file"]]
        sides = ["ours", "optimal"] + (["lumi"] if have_lumi else [])
        row = f"| {p['example']} | {p['optimum']} | " + " | ".join(sides_line(slot[s]) for s in sides)
        bad = []
        for s in sides:
            good = [r for r in slot[s] if r.get("ok") and r.get("moves") == p["optimum"]]
            if len(good) == len(slot[s]) and slot[s]:
                agree[s] += 1
            else:
                got = sorted({str(r.get("moves", r.get("error"))) for r in slot[s]} - {str(p["optimum"])})
                bad.append(f"{NAMES[s]}: {', '.join(got) or 'not run'}")
            for key in ("wall", "cpu"):
                totals[s][key] += median(slot[s], key) or 0.0
        checked += 1
        if have_lumi:
            row += (f" | {ratio(median(slot['lumi'], 'cpu'), median(slot['ours'], 'cpu'))}"
                    f" | {ratio(median(slot['lumi'], 'cpu'), median(slot['optimal'], 'cpu'))}")
        row += " | " + ("yes" if not bad else "no (" + "; ".join(bad) + ")") + " |"
        lines.append(row)
    total = f"| **total** ({checked}) | | {fmt(totals['ours']['wall'])} | {fmt(totals['ours']['cpu'])} | | " \
            f"{fmt(totals['optimal']['wall'])} | {fmt(totals['optimal']['cpu'])} | |"
    if have_lumi:
        total += (f" {fmt(totals['lumi']['wall'])} | {fmt(totals['lumi']['cpu'])} | |"
                  f" {ratio(totals['lumi']['cpu'], totals['ours']['cpu'])} |"
                  f" {ratio(totals['lumi']['cpu'], totals['optimal']['cpu'])} |")
    total += " |"
    lines.append(total)
    return lines, totals, agree, checked


NAMES = {"ours": "ours", "optimal": "ours --optimal", "lumi": "lumi-a", "rush": "fogleman/rush"}


def rush_table(rush, runs, fogleman):
    have = bool(fogleman.get("binary"))
    head = "| boards | side | wall s | CPU s | max RSS MB | ms CPU per board | answers = MOVES |"
    lines = [head, "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for s in rush:
        slot = runs[s["label"]]
        n = len(s["boards"])
        for side in ["ours"] + (["rush"] if have else []):
            cpu = median(slot[side], "cpu")
            per = fmt(cpu / n * 1e3, 2) if cpu is not None else "—"
            agree = min((r.get("agree", 0) for r in slot[side]), default=0)
            lines.append(f"| {s['label']}: {n:,} | {NAMES[side]} | {sides_line(slot[side])} | {per} | "
                         f"{agree:,} of {n:,} (every round) |")
        if have:
            lines.append(f"| | **fogleman/rush / ours CPU** | | "
                         f"**{ratio(median(slot['rush'], 'cpu'), median(slot['ours'], 'cpu'))}** | | | |")
    return lines


def write_page(info, puzzles, rush, runs, lumi, fogleman, rush_note, elapsed):
    m = info["machine"]
    out = ["# Our solver against its public peers",
           "",
           f"Written by `{info['command']}` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
           f"{elapsed / 60:.0f} minutes, ROUNDS={ROUNDS}): every figure is the median over "
           f"{ROUNDS} round{'s' if ROUNDS != 1 else ''}, the sides run alternately (per Layton puzzle: ours, "
           "lumi-a, ours `--optimal`; per Rush Hour list: ours, fogleman/rush), each process under "
           f"`/usr/bin/time -f \"{TIME_FORMAT}\"`. CPU s is user + system; RSS is the maximum "
           "resident set size. /usr/bin/time counts in 0.01 s, so ratios against a side under 0.01 s are bounds "
           "(`>N`) or left out (`—`).",
           "",
           "## Machine and commits",
           "",
           f"- machine: {m['nproc']} cores (`nproc`), {m['cpu']} (`/proc/cpuinfo`), {m['memory']}, Linux {m['kernel']}; "
           f"load average {info['load_before']} before the runs and {m['load']} after (1, 5, 15 min): "
           "other work on the machine shows as jitter between rounds",
           f"- ours: `{info['ours']}` (`git -C /work/main rev-parse --short HEAD`, `-dirty`: the tree had "
           "uncommitted changes), binary `target/release/solver` as found"
           if info["ours"].endswith("-dirty") else
           f"- ours: `{info['ours']}` (`git -C /work/main rev-parse --short HEAD`), binary `target/release/solver`"]
    for label, peer, src, how in (
            ("lumi-a/sliding-blocks", lumi, LUMI_SRC,
             "built by `cargo build --release` of experiments/peers/lumi-driver (its Cargo.lock is lumi-a's, "
             "so the dependencies are the versions lumi-a pins), which calls `solve_puzzle_minmoves` on the "
             "example of `src/examples.rs` named on its command line"),
            ("fogleman/rush", fogleman, RUSH_SRC,
             "built by `go build` of experiments/peers/rush-driver in GOPATH mode (the repository has no go.mod; "
             "its one outside import, github.com/fogleman/gg, used only for rendering, is Debian's "
             f"golang-github-fogleman-gg-dev), {fogleman.get('go', 'go')}; the driver calls `Solve()` on every "
             "board read on stdin, in one process")):
        if peer.get("binary"):
            out.append(f"- {label}: commit `{peer['commit']}` from `{src}`, {how}")
        else:
            out.append(f"- {label}: **missing**: {peer['missing'].splitlines()[0]}")
            if "\n" in peer["missing"]:
                out += ["", "  ```", *("  " + l for l in peer["missing"].splitlines()[1:]), "  ```"]
    out += ["", "## Professor Layton (lumi-a's 24 examples)", "",
            "Ours: `target/release/solver solve puzzles/layton/FILE --metric moves --json`, no other flag, "
            "and again with `--optimal`; one process per puzzle. lumi-a: its `solve_puzzle_minmoves` on the "
            "same example (the file's `% name:`; 🧬 marks lumi-a's variants, our `genome_*` files). An answer "
            "agrees when the move count equals the file's `% optimum:` (lumi-a's `min_moves`) in every round.",
            ""]
    table, totals, agree, checked = layton_table(puzzles, runs["layton"], lumi)
    out += table
    out += ["", f"Answers checked: {checked} puzzles × {ROUNDS} round{'s' if ROUNDS != 1 else ''} per side; agreeing on every round: "
            f"ours {agree['ours']} of {checked}, ours `--optimal` {agree['optimal']} of {checked}"
            + (f", lumi-a {agree['lumi']} of {checked}." if lumi.get("binary") else
               " (lumi-a missing: ours alone).")]
    if lumi.get("binary"):
        tm = next((p for p in puzzles if p["title"] == "The Time Machine"), None)
        if tm:
            slot = runs["layton"][tm["file"]]
            rest = {s: totals[s]["cpu"] - (median(slot[s], "cpu") or 0.0) for s in ("ours", "lumi")}
            out += ["", f"The Time Machine (which lumi-a's own tests and benchmark leave out): lumi-a "
                    f"{fmt(median(slot['lumi'], 'cpu'))} CPU s and {fmt(median(slot['lumi'], 'rss'), 0)} MB, ours "
                    f"{fmt(median(slot['ours'], 'cpu'))} CPU s and {fmt(median(slot['ours'], 'rss'), 0)} MB. "
                    f"The other {checked - 1} together: lumi-a {fmt(rest['lumi'])} CPU s, ours {fmt(rest['ours'])} "
                    f"(ratio {ratio(rest['lumi'], rest['ours'])})."]
    out += ["", "## Rush Hour (fogleman/rush)", "",
            "Ours: `target/release/solver solve LIST --from rush --metric moves --json`, one process for the "
            "whole list (it solves a collection's puzzles two at a time by default, `--jobs` = the cores, "
            "so on an idle machine its wall time can be below its CPU time). fogleman/rush: the driver, one process, one board "
            "after another. An answer agrees when it equals the line's MOVES field.", ""]
    for s in rush:
        out.append(f"- {s['label']}: {s['about']}")
    if rush_note:
        out += ["", rush_note]
    out += [""] + rush_table(rush, runs["rush"], fogleman)
    if not rush:
        out += ["", "No Rush Hour list was found (RUSH_DEV missing and no database)."]
    out += ["", "Regenerate with `python3 experiments/peers.py` (ROUNDS, LUMI_SRC, RUSH_SRC, RUSH_DB, ... in its "
            "docstring); scratch and builds go to target/peers/, the raw runs to target/peers/runs.json.", ""]
    with open(PAGE, "w") as f:
        f.write("\n".join(out))


# ---------------------------------------------------------------- main

def main():
    started = time.time()
    load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    os.makedirs(PEERS_DIR, exist_ok=True)
    ensure_solver()
    lumi = build_lumi()
    fogleman = build_rush()
    for label, peer in (("lumi-a", lumi), ("fogleman/rush", fogleman)):
        if not peer.get("binary"):
            log(f"{label} missing: {peer['missing']}")
    puzzles = layton_puzzles()
    if lumi.get("binary"):
        unknown = [p["example"] for p in puzzles if p["example"] not in lumi["examples"]]
        if unknown:
            log("no lumi-a example for", unknown)
    rush, rush_note = rush_sets()
    for s in rush:
        s["boards"] = read_rush(s["path"])
        s["optima"] = [o for o, _ in s["boards"]]
    runs = run_all(puzzles, rush, lumi, fogleman)
    settings = " ".join(f"{k}={os.environ[k]}" for k in ("ROUNDS", "ONLY") if k in os.environ)
    info = {"command": (settings + " " if settings else "") + "python3 experiments/peers.py",
            "machine": machine(), "ours": our_commit(), "load_before": load_before}
    with open(os.path.join(PEERS_DIR, "runs.json"), "w") as f:
        json.dump({"info": info, "runs": runs, "lumi": lumi, "rush": fogleman}, f, indent=1)
    write_page(info, puzzles, rush, runs, lumi, fogleman, rush_note, time.time() - started)
    log(f"wrote {os.path.relpath(PAGE, ROOT)}")


if __name__ == "__main__":
    main()
