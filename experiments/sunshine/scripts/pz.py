"""Helpers for Sunshine: parse native puzzle, replay solutions, write variants."""
import sys, re, json, subprocess
import os
# The repository root: this file is experiments/sunshine/scripts/pz.py.
# A scratch copy elsewhere (run_stages.sh) names the repository in REPO.
ROOT = os.environ.get('REPO') or os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
SOLVER = os.path.join(ROOT, 'target', 'release', 'solver')
ORIG = os.path.join(ROOT, 'puzzles', 'klotski', 'sunshine.txt')

def read(path):
    txt = open(path).read()
    lines = [l for l in txt.split('\n') if not l.startswith('%')]
    secs, cur = [], None
    for l in lines:
        if l.strip() == '!':
            if cur is not None: secs.append(cur)
            cur = []
        elif cur is not None:
            cur.append(l)
    header = [l for l in secs[0] if l.strip()]
    grids = [[l for l in s if l.strip()] for s in secs[1:]]
    return header, grids[0], grids[1:]

def shapes(header):
    sh = {}
    for l in header:
        parts = l.split()
        t = parts[0]
        offs = [(0, 0)] + [tuple(int(v) for v in p.split(',')) for p in parts[1:]]
        offs = [(y, x) for (x, y) in offs]  # (drow, dcol)
        offs.sort()
        ay, ax = offs[0]
        sh[t] = [(y - ay, x - ax) for (y, x) in offs]
    return sh

def blocks(grid, sh):
    """return dict anchor->(type, cells) ; grid list of str"""
    g = [list(r) for r in grid]
    H, W = len(g), len(g[0])
    used = set(); bl = {}
    for r in range(H):
        for c in range(W):
            t = g[r][c]
            if t in sh and (r, c) not in used:
                cells = [(r + dy, c + dx) for dy, dx in sh[t]]
                for (y, x) in cells:
                    assert g[y][x] == t and (y, x) not in used, (t, r, c)
                    used.add((y, x))
                bl[(r, c)] = (t, cells)
    return bl

def replay(grid, sh, sol_lines):
    g = [list(r) for r in grid]
    for ln in sol_lines:
        ln = ln.strip()
        if not ln or ln.startswith('%'): continue
        t, rc, steps = ln.split()
        r, c = map(int, rc.split(','))
        cells = [(r + dy, c + dx) for dy, dx in sh[t]]
        for s in steps:
            dy, dx = {'U': (-1, 0), 'D': (1, 0), 'L': (0, -1), 'R': (0, 1)}[s]
            for (y, x) in cells:
                assert g[y][x] == t, (ln, y, x, g[y][x])
                g[y][x] = ' ' if y > 5 or (y == 5 and not (6 <= x <= 10)) else '-'
            # door restore: rows 0-4 and row5 cols 6-10 are door
            for (y, x) in cells:
                if y <= 4 or (y == 5 and 6 <= x <= 10): g[y][x] = '-'
                else: g[y][x] = ' '
            cells = [(y + dy, x + dx) for (y, x) in cells]
            for (y, x) in cells:
                assert g[y][x] in ' -', (ln, y, x, g[y][x])
                g[y][x] = t
    return [''.join(r) for r in g]

def write(path, header, start, goals, name='sunshine-sub'):
    out = ['% name: ' + name, '!'] + header + ['!'] + start
    for gg in goals:
        out += ['!'] + gg
    out += ['!']
    open(path, 'w').write('\n'.join(out) + '\n')

def empty_goal(start):
    g = []
    for r in start:
        g.append(''.join(ch if ch in '#-' else ' ' for ch in r))
    return g

def goal(start, sh, placements):
    """placements: list of (type, row, col) anchors"""
    g = [list(r) for r in empty_goal(start)]
    for t, r, c in placements:
        for dy, dx in sh[t]:
            assert g[r + dy][c + dx] in ' -'
            g[r + dy][c + dx] = t
    return [''.join(r) for r in g]

def freeze(grid, rect_cells):
    """turn given cells (set) to walls"""
    g = [list(r) for r in grid]
    for (y, x) in rect_cells: g[y][x] = '#'
    return [''.join(r) for r in g]

def show(grid):
    for i, r in enumerate(grid): print('%2d %s' % (i, r))

def master_anchor(grid):
    for r, row in enumerate(grid):
        if '@' in row: return (r, row.index('@'))
