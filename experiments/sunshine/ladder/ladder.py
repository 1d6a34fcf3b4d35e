#!/usr/bin/env python3
"""Generic abstract ladder over the big blocks (experiment, not product code).

ladder.py PUZZLE OUTDIR [options]

High-level state: the places of the big blocks (the master and every block of at least --big cells).
High-level action: one big block moves one cell (U/D/L/R); every other big block is frozen to walls
where it stands (stays put); all small blocks are free. Each action is one bounded solver search on the
current concrete position with a goal fixing the big blocks at their new places.
Best-first over the abstract graph: nodes ordered by the master's empty-board distance to its goal, then
deepest first (so a successful non-master action is followed at once by the master's own step).
Each abstract state is realised once (first concrete position reached). A failed action is a dead edge.
Everything is generic: it reads the puzzle's header/grids and calls only the solver binary.
"""
import sys, os, json, time, heapq, subprocess, argparse
from collections import deque

# The solver binary: $SOLVER, else the repository's release build.
SOLVER = os.environ.get('SOLVER') or os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../target/release/solver')
DIRS = {'U': (-1, 0), 'D': (1, 0), 'L': (0, -1), 'R': (0, 1)}

# The puzzle reader of the hand chain's scripts (native format: header, start, goal grids).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'scripts'))
from pz import read  # noqa: E402


def shapes(header):
    sh = {}
    for l in header:
        parts = l.split()
        t = parts[0][0]
        offs = [(0, 0)] + [tuple(int(v) for v in p.split(',')) for p in parts[1:] if ',' in p]
        offs = sorted((y, x) for (x, y) in offs)
        ay, ax = offs[0]
        sh[t] = [(y - ay, x - ax) for (y, x) in offs]
    return sh


def blocks(grid, sh):
    used = set(); bl = []
    for r, row in enumerate(grid):
        for c, t in enumerate(row):
            if t in sh and (r, c) not in used:
                cells = [(r + dy, c + dx) for dy, dx in sh[t]]
                for y, x in cells:
                    assert grid[y][x] == t and (y, x) not in used, (t, r, c)
                    used.add((y, x))
                bl.append((t, r, c))
    return bl


class Puzzle:
    def __init__(self, path, big):
        self.header, self.start, self.goals = read(path)
        self.sh = shapes(self.header)
        self.H, self.W = len(self.start), len(self.start[0])
        self.wall = {(r, c) for r in range(self.H) for c in range(self.W) if self.start[r][c] == '#'}
        self.door = {(r, c) for r in range(self.H) for c in range(self.W) if self.start[r][c] == '-'}
        self.bigtypes = {t for t, cs in self.sh.items() if t == '@' or len(cs) >= big}
        # master goal anchor(s) from the last goal grid
        gm = [b for b in blocks(self.goals[-1], self.sh) if b[0] == '@']
        self.mgoal = (gm[0][1], gm[0][2])
        self.mdist = self.master_dist_table()

    def fits(self, t, r, c, blocked=()):
        for dy, dx in self.sh[t]:
            y, x = r + dy, c + dx
            if not (0 <= y < self.H and 0 <= x < self.W): return False
            if (y, x) in self.wall or (y, x) in blocked: return False
            if t != '@' and (y, x) in self.door: return False
        return True

    def master_dist_table(self):
        # BFS of the master's anchor on the empty board (walls only, doors allowed), from the goal
        d = {self.mgoal: 0}; q = deque([self.mgoal])
        while q:
            r, c = q.popleft()
            for dy, dx in DIRS.values():
                n = (r + dy, c + dx)
                if n not in d and self.fits('@', *n):
                    d[n] = d[(r, c)] + 1; q.append(n)
        return d

    def replay(self, grid, lines):
        g = [list(r) for r in grid]
        for ln in lines:
            ln = ln.strip()
            if not ln or ln.startswith('%'): continue
            t, rc, steps = ln.split()
            r, c = map(int, rc.split(','))
            cells = [(r + dy, c + dx) for dy, dx in self.sh[t]]
            for s in steps:
                dy, dx = DIRS[s]
                for y, x in cells:
                    assert g[y][x] == t, (ln, y, x)
                    g[y][x] = '-' if (y, x) in self.door else ' '
                cells = [(y + dy, x + dx) for y, x in cells]
                for y, x in cells:
                    assert g[y][x] in ' -.', (ln, y, x, g[y][x])
                    g[y][x] = t
        return [''.join(r) for r in g]

    def goal_grid(self, placements, base=None):
        g = [['#' if (r, c) in self.wall or (base and base[r][c] == '#') else '-' if (r, c) in self.door else ' '
              for c in range(self.W)] for r in range(self.H)]
        for t, r, c in placements:
            for dy, dx in self.sh[t]:
                g[r + dy][c + dx] = t
        return [''.join(r) for r in g]

    def write(self, path, start, goals, name):
        out = ['% name: ' + name, '!'] + self.header + ['!'] + start
        for gg in goals:
            out += ['!'] + gg
        out += ['!']
        open(path, 'w').write('\n'.join(out) + '\n')


def parse_zone(x, default_max):
    # "5" (symmetric), "a5s3b1" (ahead, side, behind), "a5b-2l5r0" (ahead, behind, left, right: left/right
    # = west/east for vertical moves, north/south for horizontal ones); optional ":N" positions (K/M suffix)
    import re
    mx = default_max
    if ':' in x:
        x, m = x.split(':')
        mx = int(float(m[:-1]) * {'K': 1e3, 'M': 1e6}[m[-1]]) if m[-1] in 'KM' else int(m)
    if x[0] == 'a':
        m = re.match(r'a(-?\d+)s(-?\d+)b(-?\d+)$', x)
        if m:
            ra, rs, rb = map(int, m.groups())
            return (ra, rs, rs, rb, mx)
        ra, rb, rl, rr = map(int, re.match(r'a(-?\d+)b(-?\d+)l(-?\d+)r(-?\d+)$', x).groups())
        return (ra, rl, rr, rb, mx)
    return (int(x), int(x), int(x), int(x), mx)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('puzzle'); ap.add_argument('outdir')
    ap.add_argument('--big', type=int, default=9)
    ap.add_argument('--maxpos', type=int, default=2000000)
    ap.add_argument('--budget', type=float, default=1200, help='total solver seconds')
    ap.add_argument('--search', default='--algorithm bfs')
    ap.add_argument('--maxside', type=int, default=4, help='max consecutive non-master actions')
    ap.add_argument('--final-within', type=int, default=3, help='try the real goal when the master is this close')
    ap.add_argument('--radii', default='99', help='comma list of zones (see parse_zone), each with its position cap')
    ap.add_argument('--sidecost', type=float, default=2.0, help='cost factor of a non-master action')
    ap.add_argument('--start-sol', default=None)
    a = ap.parse_args()
    P = Puzzle(a.puzzle, a.big)
    ZONES = [parse_zone(x, a.maxpos) for x in a.radii.split(',')]
    os.makedirs(a.outdir, exist_ok=True)
    log = open(os.path.join(a.outdir, 'actions.jsonl'), 'a')
    print('big types', sorted(P.bigtypes), 'master goal', P.mgoal, 'zones', ZONES, flush=True)
    start = P.start; path0 = []
    if a.start_sol:
        path0 = [l for l in open(a.start_sol).read().split('\n') if l.strip() and not l.startswith('%')]
        start = P.replay(start, path0)

    def bigs(grid):
        return sorted(b for b in blocks(grid, P.sh) if b[0] in P.bigtypes)

    def dist(grid):
        m = [b for b in blocks(grid, P.sh) if b[0] == '@'][0]
        return P.mdist.get((m[1], m[2]), 999)

    seen = set(); nodes = []; q = []; seq = [0]
    best = [dist(start), len(path0)]

    def add_node(grid, path, side, gcost):
        bl = bigs(grid); d = dist(grid); nid = len(nodes)
        seen.add(tuple(bl))
        cands = []
        if d <= a.final_within:
            cands.append(('GOAL', None))
        for i, (t, r, c) in enumerate(bl):
            others = set()
            for j, (t2, r2, c2) in enumerate(bl):
                if j != i:
                    others |= {(r2 + dy, c2 + dx) for dy, dx in P.sh[t2]}
            for dn, (dy, dx) in DIRS.items():
                if not P.fits(t, r + dy, c + dx, others): continue
                if t == '@':
                    if P.mdist.get((r + dy, c + dx), 999) >= d: continue  # the master only moves toward its goal
                elif side >= a.maxside:
                    continue
                cands.append(((i, t, r, c, dn), sorted(bl[:i] + [(t, r + dy, c + dx)] + bl[i + 1:])))
        nodes.append((grid, path, side, gcost, bl, d, cands))
        for k, (act, nb) in enumerate(cands):
            master = act == 'GOAL' or act[1] == '@'
            for L, z in enumerate(ZONES):
                if act == 'GOAL' and L > 0: break
                cost = gcost + z[4] * (1 if master else a.sidecost)
                seq[0] += 1
                heapq.heappush(q, (d, cost, -len(path), seq[0], nid, k, L))

    add_node(start, path0, 0, 0)
    used = 0.0; tried = 0; failed = 0; totpos = 0; solved_act = set()
    t0 = time.time()
    while q and used < a.budget:
        d, cost, _, _, nid, k, L = heapq.heappop(q)
        grid, path, side, gcost, bl, d, cands = nodes[nid]
        act, nb = cands[k]
        if (nid, k) in solved_act: continue
        if act != 'GOAL' and tuple(nb) in seen: continue
        tried += 1
        name = 'a%04d' % tried
        pzf = os.path.join(a.outdir, name + '.txt'); so = os.path.join(a.outdir, name + '.sol')
        if act == 'GOAL':
            v = grid; goals = [P.goal_grid([b for b in blocks(P.goals[-1], P.sh)])]
            desc = 'GOAL'; MAXPOS = ZONES[-1][4]
        else:
            RA, RL, RR, RB, MAXPOS = ZONES[L]
            i, t, r, c, dn = act
            dest = {(r + dy + DIRS[dn][0], c + dx + DIRS[dn][1]) for dy, dx in P.sh[t]}
            zone = [(r + dy, c + dx) for dy, dx in P.sh[t]] + list(dest)
            r1 = min(y for y, x in zone); r2 = max(y for y, x in zone)
            c1 = min(x for y, x in zone); c2 = max(x for y, x in zone)
            ext = {'U': (RA, RB, RL, RR), 'D': (RB, RA, RL, RR), 'L': (RL, RR, RA, RB), 'R': (RL, RR, RB, RA)}[dn]
            r1 -= ext[0]; r2 += ext[1]; c1 -= ext[2]; c2 += ext[3]
            g = [list(x) for x in grid]
            for (t2, rr2, cc2) in blocks(grid, P.sh):
                if (t2, rr2, cc2) == (t, r, c): continue
                cells = [(rr2 + dy, cc2 + dx) for dy, dx in P.sh[t2]]
                if t2 in P.bigtypes or (not all(r1 <= y <= r2 and c1 <= x <= c2 for y, x in cells) and not dest & set(cells)):
                    for y, x in cells:
                        g[y][x] = '#'
            v = [''.join(x) for x in g]
            goals = [P.goal_grid([(t, r + DIRS[dn][0], c + DIRS[dn][1])], v)]
            desc = '%s %d,%d %s a%db%dl%dr%d:%d' % (t, r, c, dn, RA, RB, RL, RR, MAXPOS)
        P.write(pzf, v, goals, name)
        cmd = ['nice', '-n', '19', SOLVER, 'solve', pzf, '--threads', '1', '--max-memory', '6G', '--quiet',
               '--json', '--solution', so, '--max-positions', str(MAXPOS)] + a.search.split()
        ts = time.time()
        rr = subprocess.run(cmd, capture_output=True, text=True)
        el = time.time() - ts; used += el
        try:
            js = json.loads(rr.stdout.splitlines()[0])
        except Exception:
            js = {'status': 'error', 'positions_examined': 0}
            print('ERR', rr.stdout[:300], rr.stderr[:500], flush=True)
        pos = js.get('positions_examined') or 0
        totpos += pos
        rec = {'n': tried, 'node': nid, 'action': desc, 'from_dist': d, 'node_steps': len(path), 'status': js['status'],
               'positions': pos, 'steps': js.get('steps'), 'sec': round(el, 2),
               'used': round(used, 1), 'wall': round(time.time() - t0, 1)}
        log.write(json.dumps(rec) + '\n'); log.flush()
        print(json.dumps(rec), flush=True)
        if js['status'] != 'solved':
            failed += 1
            if js['status'] != 'error': os.remove(pzf)
            continue
        solved_act.add((nid, k))
        lines = [l for l in open(so).read().split('\n') if l.strip() and not l.startswith('%')]
        ng = P.replay(grid, lines)
        npath = path + lines
        if act == 'GOAL':
            open(os.path.join(a.outdir, 'solution.sol'), 'w').write('\n'.join(npath) + '\n')
            print('SOLVED', len(npath), flush=True)
            best = [0, len(npath)]
            break
        master = act[1] == '@'
        add_node(ng, npath, 0 if master else side + 1, 0 if master else gcost + pos * a.sidecost)
        nd = nodes[-1][5]
        if nd < best[0] or (nd == best[0] and len(npath) > best[1] and False):
            best = [nd, len(npath)]
            open(os.path.join(a.outdir, 'best.sol'), 'w').write('\n'.join(npath) + '\n')
            open(os.path.join(a.outdir, 'best.end'), 'w').write('\n'.join(ng) + '\n')
        print('NODE', len(nodes) - 1, 'dist', nd, 'steps', len(npath), 'bigs', nodes[-1][4], flush=True)
    print('END tried', tried, 'failed', failed, 'nodes', len(nodes), 'solver s %.0f' % used, 'positions', totpos,
          'best dist', best[0], 'steps', best[1], flush=True)


if __name__ == '__main__':
    main()
