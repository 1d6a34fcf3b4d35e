# vprefix.py SOL "GOAL placements": verify SOL against the original start with a waypoint goal
import pz, chain, sys, subprocess, tempfile, os
h, s, _ = pz.read(pz.ORIG)
pl = eval(sys.argv[2])
wp = os.path.join(tempfile.mkdtemp(), 'waypoint.txt')
pz.write(wp, h, s, [pz.goal(s, chain.sh, pl)], 'sunshine waypoint')
r = subprocess.run([pz.SOLVER, 'verify', wp, sys.argv[1]], capture_output=True, text=True)
print(r.stdout.strip().split('\n')[0], r.stderr.strip()[:300])
