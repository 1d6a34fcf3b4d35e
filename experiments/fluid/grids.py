"""Native-format grids for `ithaca.py`: read a puzzle's blocks, replay
solution lines on them, and write a position back as a puzzle. Plain Python;
the solver's own `verify` checks every result."""

MOVES = {'U': (-1, 0), 'D': (1, 0), 'L': (0, -1), 'R': (0, 1)}


def sections(text):
    """The native file's lines and the indices of its `!` lines."""
    lines = text.split('\n')
    return lines, [i for i, l in enumerate(lines) if l.strip() == '!']


def load(path):
    """(shapes by id as (row, col) offsets, start grid rows, goal grid rows)."""
    lines, bang = sections(open(path).read())
    shapes = {}
    for h in lines[bang[0] + 1:bang[1]]:
        p = h.split()
        shapes[p[0]] = [(0, 0)] + [(int(y), int(x)) for x, y in (q.split(',') for q in p[1:])]
    grid = [list(l) for l in lines[bang[1] + 1:bang[2]]]
    goal = [list(l) for l in lines[bang[2] + 1:bang[3]]]
    return shapes, grid, goal


def blocks(shapes, grid):
    """[id, (row, col) origin, cells] per block: each unassigned cell, in
    reading order, is its shape's first cell."""
    h, w = len(grid), max(len(r) for r in grid)
    g = [r + [' '] * (w - len(r)) for r in grid]
    used = [[False] * w for _ in range(h)]
    out = []
    for r in range(h):
        for c in range(w):
            t = g[r][c]
            if t in shapes and not used[r][c]:
                f = min(shapes[t])
                org = (r - f[0], c - f[1])
                cs = [(org[0] + a, org[1] + b) for a, b in shapes[t]]
                assert all(g[x][y] == t and not used[x][y] for x, y in cs), (t, r, c)
                for x, y in cs:
                    used[x][y] = True
                out.append([t, org, cs])
    return out


def replay(blist, solution_lines):
    """Applies `ID R,C DIRS` lines to the blocks in place (no legality check)."""
    for line in solution_lines:
        p = line.split()
        if not p:
            continue
        r, c = map(int, p[1].split(','))
        b = next(b for b in blist if b[0] == p[0] and b[1] == (r, c))
        for d in p[2]:
            dr, dc = MOVES[d]
            b[1] = (b[1][0] + dr, b[1][1] + dc)
            b[2] = [(x + dr, y + dc) for x, y in b[2]]


def draw(grid, blist):
    """The start grid's walls and doors with the blocks drawn on them."""
    g = [[ch if ch in '#-' else ' ' for ch in row] for row in grid]
    for t, _, cs in blist:
        for r, c in cs:
            g[r][c] = t
    return g


def write(path_in, path_out, grid_rows, goal_rows):
    """PATH_IN with its start grid and goal grid replaced."""
    lines, bang = sections(open(path_in).read())
    head = lines[:bang[1] + 1]
    # Rows keep their full width: native grids need rows of one length.
    out = head + [''.join(r) for r in grid_rows] + ['!'] + [''.join(r) for r in goal_rows] + ['!', '']
    open(path_out, 'w').write('\n'.join(out))


def master_goal(grid, shapes, anchor):
    """A goal grid with only the master, its origin at `anchor`."""
    g = [[ch if ch in '#-' else ' ' for ch in row] for row in grid]
    for dr, dc in shapes['@']:
        g[anchor[0] + dr][anchor[1] + dc] = '@'
    return g
