"""chain.py STATE_IN SOL_OUT STATE_OUT -- helpers for stage runs.
Usage from other scripts: run_stage(start_grid, goals(list of placements lists), freeze_cells, extra args)"""
import pz, subprocess, json, os, sys, time
h, s0, _ = pz.read(pz.ORIG); sh = pz.shapes(h)
def run_stage(name, start, goal_list, frozen=set(), args=(), lim=20000000, tl=280):
    v = pz.freeze(start, frozen)
    goals = [pz.goal(v, sh, gl) for gl in goal_list]
    pz.write(name + '.txt', h, v, goals, name)
    cmd = ['nice', '-n', '19', pz.SOLVER, 'solve', name + '.txt', '--threads', '1',
           '--max-positions', str(lim), '--time-limit', str(tl), '--json',
           '--solution', name + '.sol', '--best-out', name + '.best.json', '--max-memory', '7G'] + list(args)
    t = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    js = json.loads(r.stdout.splitlines()[0])
    print(name, js['status'], 'steps', js['steps'], 'pos', js['positions_examined'], 'best', js['best_distance'], 'goals', js['goals_reached'], '/', js['goals_total'], '%.1fs' % (time.time() - t), flush=True)
    if js['status'] == 'solved':
        sol = open(name + '.sol').read().split('\n')
        end = pz.replay(start, sh, sol)
        open(name + '.end', 'w').write('\n'.join(end) + '\n')
        return end, sol
    return None, None

def load(path):
    return [l.rstrip('\n') for l in open(path) if l.strip()]

def rect(r1, c1, r2, c2, grid, keep='@ -#'):
    cells = {(r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1) if grid[r][c] not in keep}
    out = set()
    for a, (t, cs) in pz.blocks(grid, sh).items():
        if any(x in cells for x in cs): out |= set(cs)
    return out
