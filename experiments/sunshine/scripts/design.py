# design.py: helpers to turn drawn target rows into goal placements
import pz, chain
def placements(rows, r0, c0):
    """rows: list of strings drawn with type letters (h J G 0 3 @), '.' = don't care, ' ' = must be empty(not encoded).
    r0,c0: board coords of rows[0][0]. Returns list of (type,r,c) anchors."""
    H = len(rows); W = max(len(r) for r in rows)
    g = {}
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            g[(r0 + i, c0 + j)] = ch
    used = set(); out = []
    for (r, c) in sorted(g):
        t = g[(r, c)]
        if t in chain.sh and (r, c) not in used:
            cells = [(r + dy, c + dx) for dy, dx in chain.sh[t]]
            for x in cells:
                assert g.get(x) == t and x not in used, ('bad', t, r, c)
                used.add(x)
            out.append((t, r, c))
    return out
