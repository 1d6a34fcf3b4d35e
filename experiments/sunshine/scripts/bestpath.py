# bestpath.py BEST.json START OUTPREFIX [index]: write the path of the best position as .sol and its end as .end
import json, sys, pz, chain
d = json.load(open(sys.argv[1])); i = int(sys.argv[4]) if len(sys.argv) > 4 else 0
p = d['positions'][i]
s = chain.load(sys.argv[2])
end = pz.replay(s, chain.sh, p['solution'])
open(sys.argv[3] + '.sol', 'w').write('\n'.join(p['solution']) + '\n')
open(sys.argv[3] + '.end', 'w').write('\n'.join(end) + '\n')
print('steps', p['steps'], 'dist', p['distance'], 'goals', p['goals_reached'])
