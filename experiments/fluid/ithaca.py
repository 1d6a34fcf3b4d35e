#!/usr/bin/env python3
"""Solves GNOME Klotski's Ithaca (marked SOLVEME in GNOME's source) in three
parts, each checked by `solver verify`, and writes the whole solution.

Superseded for use: `solver variant --split inside|outside|rest` derives the
same three parts by rule (no hand-chosen corner or freezes) and the
reasoner's door-split phase runs them (244 steps; experiments/README.md).
This script is kept because it made the committed 367-step solution.

1. The inside: the frame's master-only door splits the level, so before the
   master reaches the door no other block crosses it. `solver variant
   --freeze-area` turns everything outside the frame into walls; the goal is
   set one step before the door (the master's origin at row 5, column 4;
   every way out passes there). The 19 units `A` are what stop every search
   on positions (`experiments/README.md`), so the solver's `--algorithm
   fluid` (weight 10) plans on the abstraction in which they are a fluid
   and refines the plan into moves.
2. The way out: with the inside walled but for the corner by the door and
   the master placed there, the blocks above and right of the bottom rows
   frozen, BFS finds how `t`, `v`, `r`, `s`, `A`, then `j` and `g` make
   room; its moves up to the master's first are kept.
3. The rest, from the position reached, by A* (`path`, weight 2) on the
   whole level.

Usage: python3 experiments/fluid/ithaca.py [OUT] (default
experiments/results/ithaca.sol); needs target/release/solver.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from grids import blocks, draw, load, master_goal, replay, write  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
SOLVER = os.path.join(ROOT, 'target/release/solver')
LEVEL = os.path.join(ROOT, 'puzzles/klotski/ithaca.txt')
DOOR_CORNER = (5, 4)          # the master's origin one step before the door
INSIDE = (5, 13, 4, 14)       # rows and columns within the frame
OUTSIDE = ['0,0,3,18', '0,0,18,3', '0,15,18,18', '14,0,18,18']


def run(*args, **kw):
    print('$', ' '.join(os.path.relpath(a, ROOT) if a.startswith(ROOT) else a for a in args), flush=True)
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


def verify(puzzle, sol):
    """Asserts that `solver verify` accepts SOL as a solution of PUZZLE."""
    out = subprocess.run([SOLVER, 'verify', puzzle, sol], capture_output=True, text=True).stdout
    print('  ' + out.splitlines()[0])
    assert out.startswith('valid'), out


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'experiments/results/ithaca.sol')
    with tempfile.TemporaryDirectory(prefix='ithaca-') as tmp:
        solve(tmp, out_path)


def solve(tmp, out_path):
    shapes, grid, goal = load(LEVEL)

    # 1. The inside.
    frozen = os.path.join(tmp, 'frozen.txt')
    args = [SOLVER, 'variant', LEVEL, '-o', frozen]
    for a in OUTSIDE:
        args += ['--freeze-area', a]
    run(*args)
    _, fgrid, _ = load(frozen)
    inside = os.path.join(tmp, 'inside.txt')
    write(frozen, inside, fgrid, master_goal(fgrid, shapes, DOOR_CORNER))
    part1 = os.path.join(tmp, 'inside.sol')
    print('  ' + run(SOLVER, 'solve', inside, '--algorithm', 'fluid', '--weight', '10', '--quiet',
                     '--solution', part1).splitlines()[0])
    verify(inside, part1)
    moves = open(part1).read().split('\n')[:-1]

    # 2. The way out, on the outside with the master in the door's corner.
    out_only = os.path.join(tmp, 'out_frozen.txt')
    run(SOLVER, 'variant', LEVEL, '-o', out_only, '--freeze-area', '0,1,3,18', '--freeze-area', '0,18,18,18',
        '--freeze-area', '4,15,14,18', '--freeze-area', '15,4,16,13', '--freeze-area', '5,4,13,14')
    _, ogrid, _ = load(out_only)
    r1, r2, c1, c2 = INSIDE
    for r in range(r1, r2 + 1):
        for c in range(c1, c2 + 1):
            near = r <= DOOR_CORNER[0] + 3 and c <= DOOR_CORNER[1] + 3
            ogrid[r][c] = ' ' if near else '#'
    for dr, dc in shapes['@']:
        ogrid[DOOR_CORNER[0] + dr][DOOR_CORNER[1] + dc] = '@'
    way_out = os.path.join(tmp, 'way_out.txt')
    write(out_only, way_out, ogrid, goal)
    part2 = os.path.join(tmp, 'way_out.sol')
    print('  ' + run(SOLVER, 'solve', way_out, '--quiet', '--solution', part2).splitlines()[0])
    lines = open(part2).read().split('\n')
    first_master = next(i for i, l in enumerate(lines) if l.startswith('@'))
    prefix = os.path.join(tmp, 'prefix.sol')
    open(prefix, 'w').write(''.join(l + '\n' for l in moves + lines[:first_master]))

    # 3. The rest, from where the two parts leave the whole level.
    bl = blocks(shapes, grid)
    replay(bl, open(prefix).read().split('\n'))
    rest = os.path.join(tmp, 'rest.txt')
    write(LEVEL, rest, draw(grid, bl), goal)
    part3 = os.path.join(tmp, 'rest.sol')
    print('  ' + run(SOLVER, 'solve', rest, '--algorithm', 'astar', '--heuristic', 'path', '--weight', '2',
                     '--quiet', '--max-positions', '5000000', '--solution', part3).splitlines()[0])
    whole = open(prefix).read() + open(part3).read()
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    open(out_path, 'w').write(whole)
    verify(LEVEL, out_path)
    print('written', os.path.relpath(out_path, ROOT))


if __name__ == '__main__':
    main()
