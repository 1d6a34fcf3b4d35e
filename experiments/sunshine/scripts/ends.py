# ends.py STAGE_DIR NAME...: replay start.txt through STAGE_DIR/NAME.sol in order, writing NAME.end here for each
import pz, chain, sys
d = sys.argv[1]; s = chain.load('start.txt')
for n in sys.argv[2:]:
    s = pz.replay(s, chain.sh, open('%s/%s.sol' % (d, n)).read().split('\n'))
    open(n + '.end', 'w').write('\n'.join(s) + '\n')
