"""run one stage: python3 st.py NAME START FREEZE GOALS [solver args]
FREEZE: python expr -> list of (r1,c1,r2,c2) rects (blocks with a cell inside become walls)
GOALS: python expr -> list of sections, each a list of (type,row,col)
env LIM (positions), TL (seconds)"""
import pz, chain, sys, os, subprocess, time, json
name, start, frz, gl = sys.argv[1:5]
s = chain.load(start)
cells = set()
for r in eval(frz):
    cells |= chain.rect(*r, s)
end, sol = chain.run_stage(name, s, eval(gl), cells, sys.argv[5:], lim=int(os.environ.get('LIM', '20000000')), tl=int(os.environ.get('TL', '200')))
if end:
    subprocess.run(['python3', 'lab.py', name + '.end'])
