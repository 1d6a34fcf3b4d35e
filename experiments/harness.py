"""Parallel, resumable runs for the experiments (issue 18).

A *run* is one command (a solver or reasoner process) keyed by its full
parameters: a dict that says everything the result depends on (puzzle, flags,
limit, seed, case base...). Results are appended to a JSON Lines file, one
complete line per finished run, with the run's key, the commit the binaries
were built from and the machine. On the next start the file is read back and
every run whose key is already there is skipped, so an interrupted experiment
resumes where it stopped. A line counts only when it is complete: a line cut
short by a kill (no newline, or not valid JSON) is dropped when the file is
opened, by rewriting the file without it (atomically).

Runs go to a pool of worker threads, one per core by default (`JOBS`), each
running one process at a time. A *chain* is a list of runs that must go in
order (the learning curve's runs share a case base); chains run in parallel
with each other and with single runs. A chain resumes at its first run
without a line.

    python3 experiments/harness.py --self-check    # tests this file's pieces
"""
import fcntl
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def key_text(key):
    """The canonical text of a key: equal keys give equal text."""
    return json.dumps(key, sort_keys=True, separators=(",", ":"))


def commit():
    """The commit HEAD names, `-dirty` when the worktree has changes."""
    out = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=12"],
                         capture_output=True, text=True, cwd=ROOT)
    return out.stdout.strip() or "unknown"


def machine():
    """Host, cores, CPU model and memory, for each result line."""
    cpu = mem = "?"
    try:
        cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
        mem = next(l.split(":", 1)[1].strip() for l in open("/proc/meminfo") if l.startswith("MemTotal"))
    except (OSError, StopIteration):
        pass
    return f"{socket.gethostname()}, {os.cpu_count()} cores, {cpu}, {mem}"


class Store:
    """The finished runs of one JSON Lines file, by key text."""

    def __init__(self, path, write=True):
        """Reads the finished runs. With `write` (the default) this process
        becomes the file's one writer: it holds an exclusive lock on
        `path`.lock until it exits (another writer is refused with a
        message) and drops a line cut short; without, it only reads."""
        self.path = path
        self.lock = threading.Lock()
        self.done = {}
        self.writer = None
        if write:
            self.writer = open(path + ".lock", "w")
            try:
                fcntl.flock(self.writer, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                sys.exit(f"{path} is being written by another run (it holds {path}.lock); "
                         "wait for it to finish or stop it, then start again")
        self._load()

    def _load(self):
        if not os.path.exists(self.path):
            return
        with open(self.path, "rb") as f:
            pieces = f.read().split(b"\n")
        # The last piece follows the last newline: empty, or a line cut short.
        complete, kept = pieces[:-1], []
        for raw in complete:
            try:
                line = json.loads(raw)
            except ValueError:
                continue
            if isinstance(line, dict) and "key" in line and "result" in line:
                self.done[key_text(line["key"])] = line
                kept.append(raw)
        dropped = len(complete) - len(kept) + (pieces[-1] != b"")
        if dropped and self.writer:
            print(f"{self.path}: dropping {dropped} incomplete line(s) of an interrupted run", file=sys.stderr)
            self._rewrite(kept)

    def close(self):
        """Gives up the writer's lock (it also goes when the process exits)."""
        if self.writer:
            self.writer.close()
            self.writer = None

    def _rewrite(self, lines):
        d = os.path.dirname(os.path.abspath(self.path))
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".runs-")
        with os.fdopen(fd, "wb") as f:
            f.write(b"".join(l + b"\n" for l in lines))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def get(self, key):
        """The line of a finished run, or None."""
        return self.done.get(key_text(key))

    def add(self, key, result, stamp):
        """Appends one complete line (flushed to disk) and remembers it."""
        at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        line = {"key": key, **stamp, "finished": at, "result": result}
        text = json.dumps(line, sort_keys=True) + "\n"
        with self.lock:
            with open(self.path, "a") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            self.done[key_text(key)] = line
        return line


class Harness:
    """Runs keyed runs and chains on a pool of workers, skipping finished ones.

    A run is `(key, work)`: `work()` returns the result (a JSON value) or
    raises; a raised error is printed and the run left without a line, so the
    next start retries it."""

    def __init__(self, store, jobs=None, log=sys.stderr):
        self.store = store
        self.jobs = jobs or int(os.environ.get("JOBS", 0)) or os.cpu_count() or 1
        self.stamp = {"commit": commit(), "machine": machine()}
        self.log = log
        self.counts = {"skipped": 0, "ran": 0, "failed": 0}
        self._lock = threading.Lock()

    def _count(self, what):
        with self._lock:
            self.counts[what] += 1

    def _one(self, key, work):
        if self.store.get(key) is not None:
            self._count("skipped")
            return True
        try:
            result = work()
        except Exception as e:  # noqa: BLE001 - a failed run is retried next time
            print(f"run {key_text(key)} failed: {e}", file=self.log)
            self._count("failed")
            return False
        self.store.add(key, result, self.stamp)
        self._count("ran")
        return True

    def _chain(self, runs):
        for key, work in runs:
            if not self._one(key, work):
                return

    def run(self, chains):
        """Runs every chain (a list of `(key, work)`; a single run is a chain
        of one), `jobs` at once, in the order given as far as workers free up."""
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            for f in [pool.submit(self._chain, c) for c in chains]:
                f.result()
        return self.counts


def self_check():
    """Checks the store and the harness on a scratch file: a killed run's
    partial line is dropped, finished runs are skipped, failed ones retried,
    chains stop at their first failure and run in order."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "runs.jsonl")
        with open(path, "w") as f:
            f.write(json.dumps({"key": {"a": 1}, "result": 1}) + "\n")
            f.write('{"key": {"a": 2}, "res')  # cut short by a kill
        store = Store(path)
        assert list(store.done) == [key_text({"a": 1})], store.done
        assert open(path).read().count("\n") == 1 and open(path).read().endswith("\n")
        try:
            Store(path)
            raise AssertionError("a second writer was let in")
        except SystemExit as e:
            assert "being written by another run" in str(e)
        with open(path, "a") as f:
            f.write('{"key": {"a": 9}')  # a writer's line half written
        assert len(Store(path, write=False).done) == 1 and open(path).read().endswith('{"key": {"a": 9}')
        store._rewrite([json.dumps({"key": {"a": 1}, "result": 1}).encode()])
        calls = []

        def work(x, fail=False):
            def w():
                calls.append(x)
                if fail:
                    raise RuntimeError("boom")
                return x * 10
            return w

        h = Harness(store, jobs=2, log=open(os.devnull, "w"))
        counts = h.run([[({"a": 1}, work(1))], [({"a": 2}, work(2))],
                        [({"c": 1}, work(3)), ({"c": 2}, work(4, fail=True)), ({"c": 3}, work(5))]])
        assert counts == {"skipped": 1, "ran": 2, "failed": 1}, counts
        assert sorted(calls) == [2, 3, 4], calls
        store.close()
        again = Harness(Store(path), jobs=2, log=open(os.devnull, "w"))
        counts = again.run([[({"a": 2}, work(2))], [({"c": 1}, work(3)), ({"c": 2}, work(4)), ({"c": 3}, work(5))]])
        assert counts == {"skipped": 2, "ran": 2, "failed": 0}, counts
        lines = [json.loads(l) for l in open(path)]
        assert sorted(l["result"] for l in lines) == [1, 20, 30, 40, 50], lines
        assert all("commit" in l and "machine" in l for l in lines[1:])
        assert key_text({"b": 1, "a": 2}) == key_text({"a": 2, "b": 1})
    print("harness self-check passed")


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-check"]:
        self_check()
    else:
        print(__doc__)
