import json, sys, collections
recs = [json.loads(l) for l in open(sys.argv[1])]
acts = collections.defaultdict(list)
for r in recs:
    key = (r.get('node'), r['action'].rsplit(' ', 1)[0] if r['action'] != 'GOAL' else 'GOAL')
    acts[key].append(r['status'])
ok = sum(1 for v in acts.values() if 'solved' in v)
print('solver calls', len(recs), 'high-level actions (node,action)', len(acts), 'succeeded', ok, 'failed', len(acts) - ok,
      'positions %.1fM' % (sum(r['positions'] or 0 for r in recs) / 1e6), 'solver s %.0f' % sum(r['sec'] for r in recs))
st = collections.Counter(r['status'] for r in recs); print('call statuses', dict(st))
