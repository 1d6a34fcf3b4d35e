"""Turns a plan of the fluid abstraction (`fluid` prints one state a line:
the big blocks' origins, then the units in each fluid component) into the
solver's solution lines. Per abstract step: the units are moved, inside
their component, so that the cells the big block is about to cover are
empty and each part of the component left after the move holds the number of
units the next state says; then the big block moves. Units are unlabelled,
so a unit is carried from a cell to an empty one along a path by moving, from
the target backwards, the unit nearest ahead on it (cells between keep what
they hold)."""
import ast
import itertools
from collections import deque

from grids import NAMES, blocks, doors, load, sections

# Down, up, right, left: the order breaks ties among equally near cells, so it
# decides which moves the refinement writes.
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def read_plan(lines):
    plan = []
    for l in lines:
        if l.startswith('['):
            a, c = l.rsplit('] [', 1)
            plan.append(([tuple(x) for x in ast.literal_eval(a + ']')], ast.literal_eval('[' + c)))
    return plan


class Refiner:
    def __init__(self, path, fluid):
        self.shapes, grid, _ = load(path)
        self.fluid = fluid
        h, w = len(grid), max(len(r) for r in grid)
        door = doors(path)

        def kind(r, c):
            k = grid[r][c] if c < len(grid[r]) else ' '
            return '#' if k == '#' else '-' if k == '-' or (r, c) in door else '.'
        self.kind = {(r, c): kind(r, c) for r in range(h) for c in range(w)}
        lines, bang = sections(open(path).read())
        self.order = [l.split()[0] for l in lines[bang[0] + 1:bang[1]]]
        bl = blocks(self.shapes, grid)
        self.units = {b[1] for b in bl if b[0] == fluid}
        self.big = sorted(([b[0], b[1]] for b in bl if b[0] != fluid), key=self.key)
        self.moves = []

    def key(self, b):
        return (self.order.index(b[0]), b[1])

    def cells(self, t, a):
        return [(a[0] + dr, a[1] + dc) for dr, dc in self.shapes[t]]

    def occupied(self, big):
        return {x for t, a in big for x in self.cells(t, a)}

    def components(self, occ):
        comp, out = {}, []
        for p in sorted(self.kind):
            if self.kind[p] == '.' and p not in occ and p not in comp:
                k, stack, members = len(out), [p], []
                comp[p] = k
                while stack:
                    q = stack.pop()
                    members.append(q)
                    for d in STEPS:
                        n = (q[0] + d[0], q[1] + d[1])
                        if self.kind.get(n) == '.' and n not in occ and n not in comp:
                            comp[n] = k
                            stack.append(n)
                out.append(members)
        return comp, out

    def step_unit(self, a, b):
        self.moves.append('%s %d,%d %s' % (self.fluid, a[0], a[1], NAMES[(b[0] - a[0], b[1] - a[1])]))
        self.units.remove(a)
        self.units.add(b)

    def carry(self, src, dst, allowed):
        """src holds a unit and dst none: afterwards the reverse, the cells
        of the path between unchanged."""
        prev, queue = {src: None}, deque([src])
        while queue:
            x = queue.popleft()
            if x == dst:
                break
            for d in STEPS:
                n = (x[0] + d[0], x[1] + d[1])
                if n in allowed and n not in prev:
                    prev[n] = x
                    queue.append(n)
        path = [dst]
        while prev[path[-1]] is not None:
            path.append(prev[path[-1]])
        path.reverse()
        end = len(path) - 1
        while True:
            j = max(i for i in range(end) if path[i] in self.units)
            for i in range(j, end):
                self.step_unit(path[i], path[i + 1])
            if j == 0:
                return
            end = j

    def nearest_empty(self, src, targets, allowed):
        seen, queue = {src}, deque([src])
        while queue:
            x = queue.popleft()
            if x in targets:
                return x
            for d in STEPS:
                n = (x[0] + d[0], x[1] + d[1])
                if n in allowed and n not in seen:
                    seen.add(n)
                    queue.append(n)
        raise ValueError('no empty cell reachable')

    def step(self, state, following):
        (now, counts), (nxt, nxt_counts) = state, following
        assert [a for _, a in self.big] == now, 'the plan and the blocks disagree'
        moved = [i for i in range(len(now)) if now[i] != nxt[i]]
        t = self.big[moved[0]][0]
        (a,) = set(now[i] for i in moved) - set(nxt[i] for i in moved)
        (na,) = set(nxt[i] for i in moved) - set(now[i] for i in moved)
        bi = next(i for i, b in enumerate(self.big) if b == [t, a])
        comp, parts = self.components(self.occupied(self.big))
        have = [0] * len(parts)
        for u in self.units:
            have[comp[u]] += 1
        assert have == list(counts), (have, counts)
        cover = set(self.cells(t, na)) - set(self.cells(t, a))
        after = [list(b) for b in self.big]
        after[bi][1] = na
        ncomp, nparts = self.components(self.occupied(after))
        pieces = {}
        for x, k in comp.items():
            if x in ncomp:
                pieces.setdefault(k, {}).setdefault(ncomp[x], []).append(x)
        # Units per piece, as the next state's counts require.
        loaded = [k for k in range(len(parts)) if have[k]]

        def splits(k):
            ps = sorted(pieces.get(k, {}).items())

            def rec(i, left):
                if i == len(ps):
                    if left == 0:
                        yield []
                    return
                for take in range(min(left, len(ps[i][1])) + 1):
                    for rest in rec(i + 1, left - take):
                        yield [(ps[i][0], take)] + rest
            return list(rec(0, have[k]))
        chosen = None
        for combo in itertools.product(*[splits(k) for k in loaded]):
            tot = [0] * len(nparts)
            for sp in combo:
                for nc, n in sp:
                    tot[nc] += n
            if tot == list(nxt_counts):
                chosen = dict(zip(loaded, combo))
                break
        assert chosen is not None, 'no share of the units gives the next state'
        for k, share in chosen.items():
            allowed = set(parts[k])
            spare = [u for u in self.units if comp[u] == k and u in cover]
            short = []
            for nc, n in share:
                held = [x for x in pieces[k][nc] if x in self.units]
                if len(held) > n:
                    spare += held[:len(held) - n]
                elif len(held) < n:
                    short.append((nc, n - len(held)))
            for nc, need in short:
                for _ in range(need):
                    src = spare.pop()
                    empty = {x for x in pieces[k][nc] if x not in self.units}
                    self.carry(src, self.nearest_empty(src, empty, allowed), allowed)
            assert not spare
        assert not (cover & self.units)
        self.moves.append('%s %d,%d %s' % (t, a[0], a[1], NAMES[(na[0] - a[0], na[1] - a[1])]))
        self.big = sorted(after, key=self.key)
        self.big = [[b[0], tuple(b[1])] for b in self.big]


def refine(path, fluid, plan_lines):
    r = Refiner(path, fluid)
    plan = read_plan(plan_lines)
    for s, n in zip(plan, plan[1:]):
        r.step(s, n)
    return r.moves
