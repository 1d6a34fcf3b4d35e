import pz, chain, sys, string
def label(g):
    bl = pz.blocks(g, chain.sh)
    out=[list(r) for r in g]
    names = {}
    k=0; syms=string.ascii_letters+string.digits
    for (r,c),(t,cells) in sorted(bl.items()):
        if t in '0@': ch = {'0':'.','@':'@'}[t]
        elif t=='3': ch='#'
        else: ch=syms[k%len(syms)]; k+=1
        for (y,x) in cells: out[y][x]=ch
    for i,r in enumerate(out):
        if i>=5: print('%2d %s'%(i,''.join(r).replace(' ','_')))
label(chain.load(sys.argv[1]))
