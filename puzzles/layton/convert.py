#!/usr/bin/env python3
"""Convert lumi-a/sliding-blocks' Layton examples (src/examples.rs) to native puzzles.

Usage: python3 puzzles/layton/convert.py PATH/TO/sliding-blocks/src/examples.rs [OUT_DIR]

lumi-a's notation: every non-whitespace character is a board cell, whitespace is
outside the board; `.` is an empty cell and every other character one block (its
cells need not touch). The goal string fixes the blocks it draws; the others go
anywhere. Blocks of one shape that the goal does not fix are interchangeable,
as in lumi-a's solver, and a move is one block sliding any distance (its
`min_moves` is our moves metric).

Native output: the board inside a `#` frame, cells outside lumi-a's board as
walls; one type per goal block (it must stay distinguishable) and one per shape
of the other blocks; the goal block is the master `@` when there is only one.
Each file records the origin and lumi-a's minimum as `% optimum: N moves`.
"""
import os
import re
import sys

# Identifiers for the block types, in order of use (the native format forbids
# `#`, `.`, `-`, `!`, `%`, `|`, `=`, `,` and whitespace).
POOL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

ENTRY = re.compile(
    r'name:\s*"(?P<name>[^"]*)",\s*start:\s*"(?P<start>[^"]*)",\s*'
    r'goal:\s*"(?P<goal>[^"]*)",\s*min_moves:\s*(?P<min>\d+)'
)


def cells(text):
    """Character -> set of (x, y) for every non-whitespace character, and the board."""
    points = [(x, y, c) for y, line in enumerate(text.split("\n"))
              for x, c in enumerate(line) if not c.isspace()]
    x0 = min(p[0] for p in points)
    y0 = min(p[1] for p in points)
    by_char, board = {}, set()
    for x, y, c in points:
        board.add((x - x0, y - y0))
        if c != ".":
            by_char.setdefault(c, set()).add((x - x0, y - y0))
    return by_char, board


def shape(points):
    """The points relative to their first cell in reading order (row, then column)."""
    ax, ay = min(points, key=lambda p: (p[1], p[0]))
    return tuple(sorted((x - ax, y - ay) for x, y in points))


def slug(name):
    words = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    return words


def convert(name, start, goal, minimum):
    blocks, board = cells(start)
    targets, goal_board = cells(goal)
    if board != goal_board:
        raise SystemExit(f"{name}: the start and goal boards differ")
    for c, pts in targets.items():
        if c not in blocks or shape(blocks[c]) != shape(pts):
            raise SystemExit(f"{name}: goal block {c!r} has no start block of its shape")
    ids = iter(POOL)
    type_of, header = {}, []
    goal_chars = sorted(targets)
    for c in goal_chars:
        ident = "@" if len(goal_chars) == 1 else next(ids)
        type_of[c] = ident
        header.append((ident, shape(blocks[c])))
    by_shape = {}
    for c in sorted(blocks):
        if c in targets:
            continue
        s = shape(blocks[c])
        if s not in by_shape:
            by_shape[s] = next(ids)
            header.append((by_shape[s], s))
        type_of[c] = by_shape[s]
    width = max(x for x, _ in board) + 3
    height = max(y for _, y in board) + 3

    def grid(fixed):
        rows = [["#"] * width for _ in range(height)]
        for x, y in board:
            rows[y + 1][x + 1] = "."
        for c, pts in fixed.items():
            for x, y in pts:
                rows[y + 1][x + 1] = type_of[c]
        return "\n".join("".join(r) for r in rows)

    lines = [
        f"% name: {name.lstrip('🎩🧬 ').strip()} (Professor Layton)",
        "% origin: lumi-a/sliding-blocks, src/examples.rs (the Professor Layton games' "
        "sliding puzzles as lumi-a transcribed them; converted by puzzles/layton/convert.py)",
        f"% optimum: {minimum} moves (lumi-a's min_moves)",
        "!",
    ]
    for ident, s in header:
        offsets = " ".join(f"{x},{y}" for x, y in s if (x, y) != (0, 0))
        lines.append(f"{ident} {offsets}".rstrip())
    lines += ["!", grid(blocks), "!", grid(targets), "!"]
    return "\n".join(lines) + "\n"


def main():
    source = open(sys.argv[1], encoding="utf-8").read()
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(__file__))
    found = 0
    for m in ENTRY.finditer(source):
        name = m["name"]
        prefix = "genome_" if name.startswith("🧬") else ""
        path = os.path.join(out, prefix + slug(name.lstrip("🎩🧬 ")) + ".txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write(convert(name, m["start"], m["goal"], int(m["min"])))
        found += 1
    print(f"wrote {found} puzzles to {out}")


if __name__ == "__main__":
    main()
