//! The units-as-fluid abstraction (an experiment, not part of the solver;
//! `experiments/fluid/ithaca.py` builds it with `rustc -O`).
//!
//! Usage: `fluid PUZZLE UNIT [WEIGHT] [LIMIT]`: PUZZLE in the native format,
//! UNIT the id of a type of 1x1 interchangeable blocks. Prints the plan, one
//! abstract state a line (the other blocks' origins, then the units in each
//! fluid component), for `refine.py`.
//!
//! A state is the places of every other ("big") block, sorted per type, and
//! the number of units in each connected component of the fluid cells (free
//! cells, doors excluded, that no big block covers), the components ordered
//! by their lowest cell. The abstraction is exact: unlabelled tokens on a
//! connected graph with an empty vertex reach every arrangement of their
//! number, so within a component the units can stand anywhere; a big block
//! may step where the cells it newly covers are fluid and their component has
//! room for its units elsewhere, and the units of a component split by the
//! step may be shared among its parts in any way that fits (they were placed
//! before it). So every plan refines into moves (`refine.py` does it), and a
//! puzzle without a plan has no solution. Weighted A* on the master's
//! Manhattan distance to its goal (weight 0: uniform cost, exhaustive).
//! Keys are boxed byte strings in a `HashMap`: simple, not compact (about
//! 200 bytes a state). Doors are the `-` cells of the start grid and of the
//! goal grid (which may mark one the master starts on). Refused with exit 2:
//! more than one goal section, a fluid type that is not 1x1, boards over 384
//! cells or with over 255 free cells (sizes and counts are bytes).
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

struct Puzzle {
    h: usize,
    w: usize,
    kind: Vec<u8>, // b'#', b'-', b'.'
    types: Vec<(char, Vec<(i32, i32)>)>,
    start: Vec<(usize, usize)>, // (type, anchor cell)
    goal_anchor: usize,
}

/// Stops with a message and exit code 2 (input this prototype does not take).
fn fail(message: &str) -> ! {
    eprintln!("fluid: {message}");
    std::process::exit(2)
}

fn parse(text: &str) -> Puzzle {
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('%')).collect();
    let bangs: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.trim() == "!")
        .map(|(i, _)| i)
        .collect();
    let header = &lines[bangs[0] + 1..bangs[1]];
    let grid = &lines[bangs[1] + 1..bangs[2]];
    let goal = &lines[bangs[2] + 1..bangs[3]];
    let mut types = Vec::new();
    for hl in header {
        let mut p = hl.split_whitespace();
        let id = p.next().unwrap().chars().next().unwrap();
        let mut cells = vec![(0, 0)];
        for q in p {
            let (x, y) = q.split_once(',').unwrap();
            cells.push((y.parse().unwrap(), x.parse().unwrap()));
        }
        types.push((id, cells));
    }
    let h = grid.len();
    let w = grid.iter().map(|l| l.chars().count()).max().unwrap();
    let mut kind = vec![b'.'; h * w];
    let mut owner: Vec<Option<char>> = vec![None; h * w];
    for (r, l) in grid.iter().enumerate() {
        for (c, ch) in l.chars().enumerate() {
            match ch {
                '#' => kind[r * w + c] = b'#',
                '-' => kind[r * w + c] = b'-',
                ' ' | '.' => {}
                x => owner[r * w + c] = Some(x),
            }
        }
    }
    // decompose: scan reading order; the first unassigned cell of type t is its shape's first cell
    let mut used = vec![false; h * w];
    let mut start = Vec::new();
    for cell in 0..h * w {
        if let Some(ch) = owner[cell] {
            if used[cell] {
                continue;
            }
            let t = types
                .iter()
                .position(|(id, _)| *id == ch)
                .expect("unknown block char");
            let first = *types[t].1.iter().min().unwrap();
            let (r, c) = ((cell / w) as i32 - first.0, (cell % w) as i32 - first.1);
            for &(dr, dc) in &types[t].1 {
                let x = ((r + dr) as usize) * w + (c + dc) as usize;
                assert!(owner[x] == Some(ch) && !used[x]);
                used[x] = true;
            }
            start.push((t, (r as usize) * w + c as usize));
        }
    }
    // A goal grid may mark as a door a cell the master starts on: a door
    // for every block but the master all the same.
    if bangs.len() != 4 {
        fail("one goal section only (a subgoal sequence is not supported)");
    }
    for (r, l) in goal.iter().enumerate() {
        for (c, ch) in l.chars().enumerate() {
            if ch == '-' {
                kind[r * w + c] = b'-';
            }
        }
    }
    let mut goal_anchor = usize::MAX;
    'o: for (r, l) in goal.iter().enumerate() {
        for (c, ch) in l.chars().enumerate() {
            if ch == '@' {
                let t = types.iter().position(|(id, _)| *id == '@').unwrap();
                let first = *types[t].1.iter().min().unwrap();
                goal_anchor = (r - first.0 as usize) * w + (c as i32 - first.1) as usize;
                break 'o;
            }
        }
    }
    Puzzle {
        h,
        w,
        kind,
        types,
        start,
        goal_anchor,
    }
}

type Bits = [u64; 6];
fn set(b: &mut Bits, i: usize) {
    b[i >> 6] |= 1 << (i & 63);
}
fn get(b: &Bits, i: usize) -> bool {
    b[i >> 6] >> (i & 63) & 1 == 1
}
fn and(a: &Bits, b: &Bits) -> Bits {
    let mut o = [0; 6];
    for i in 0..6 {
        o[i] = a[i] & b[i];
    }
    o
}
fn andnot(a: &Bits, b: &Bits) -> Bits {
    let mut o = [0; 6];
    for i in 0..6 {
        o[i] = a[i] & !b[i];
    }
    o
}
fn or(a: &Bits, b: &Bits) -> Bits {
    let mut o = [0; 6];
    for i in 0..6 {
        o[i] = a[i] | b[i];
    }
    o
}
fn none(a: &Bits) -> bool {
    a.iter().all(|&x| x == 0)
}

struct Model {
    n: usize,
    w: usize,
    free: Bits, // '.' cells
    nbr: Vec<[usize; 4]>,
    big: Vec<usize>,                  // type per big instance
    masks: Vec<HashMap<usize, Bits>>, // per type: anchor -> mask
    master_type: usize,
    goal: usize,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let p = parse(&std::fs::read_to_string(&args[1]).unwrap());
    let fluid = args[2].chars().next().unwrap();
    let weight: f64 = args.get(3).map_or(1.0, |s| s.parse().unwrap());
    let limit: usize = args.get(4).map_or(10_000_000, |s| s.parse().unwrap());
    let fluid_t = p
        .types
        .iter()
        .position(|(id, _)| *id == fluid)
        .unwrap_or_else(|| fail("no block type with that id"));
    if p.types[fluid_t].1.len() != 1 {
        fail("the fluid's blocks must be 1x1");
    }
    let master_type = p.types.iter().position(|(id, _)| *id == '@').unwrap();
    let (h, w) = (p.h, p.w);
    let n = h * w;
    if n > 384 {
        fail("boards of up to 384 cells");
    }
    let mut free = [0; 6];
    for i in 0..n {
        if p.kind[i] == b'.' {
            set(&mut free, i);
        }
    }
    // Component sizes and unit counts are bytes.
    if (0..n).filter(|&i| p.kind[i] == b'.').count() > 255 {
        fail("at most 255 free cells");
    }
    let mut nbr = vec![[usize::MAX; 4]; n];
    for i in 0..n {
        let (r, c) = (i / w, i % w);
        if r > 0 {
            nbr[i][0] = i - w;
        }
        if r + 1 < h {
            nbr[i][1] = i + w;
        }
        if c > 0 {
            nbr[i][2] = i - 1;
        }
        if c + 1 < w {
            nbr[i][3] = i + 1;
        }
    }
    let mut masks = vec![HashMap::new(); p.types.len()];
    for (t, (_, cells)) in p.types.iter().enumerate() {
        for a in 0..n {
            let (r, c) = ((a / w) as i32, (a % w) as i32);
            let mut m = [0; 6];
            let ok = cells.iter().all(|&(dr, dc)| {
                let (rr, cc) = (r + dr, c + dc);
                if rr < 0 || cc < 0 || rr >= h as i32 || cc >= w as i32 {
                    return false;
                }
                let x = rr as usize * w + cc as usize;
                let k = p.kind[x];
                if k == b'#' || (k == b'-' && t != master_type) {
                    return false;
                }
                set(&mut m, x);
                true
            });
            if ok {
                masks[t].insert(a, m);
            }
        }
    }
    let units = p.start.iter().filter(|b| b.0 == fluid_t).count();
    let mut bigs: Vec<(usize, usize)> =
        p.start.iter().copied().filter(|b| b.0 != fluid_t).collect();
    bigs.sort();
    let model = Model {
        n,
        w,
        free,
        nbr,
        big: bigs.iter().map(|b| b.0).collect(),
        masks,
        master_type,
        goal: p.goal_anchor,
    };
    let start_anchors: Vec<u16> = bigs.iter().map(|b| b.1 as u16).collect();
    let occ = model.occupancy(&start_anchors);
    let (comp, ncomp) = model.components(&occ);
    let mut counts = vec![0u8; ncomp];
    for b in &p.start {
        if b.0 == fluid_t {
            counts[comp[b.1] as usize] += 1;
        }
    }
    let start = encode(&start_anchors, &counts);
    eprintln!(
        "{} big blocks, {} units, {} fluid components at start, goal anchor {},{}",
        bigs.len(),
        units,
        ncomp,
        model.goal / w,
        model.goal % w
    );
    model.search(start, weight, limit, bigs.len());
}

fn encode(anchors: &[u16], counts: &[u8]) -> Box<[u8]> {
    let mut v = Vec::with_capacity(anchors.len() * 2 + counts.len());
    for a in anchors {
        v.extend_from_slice(&a.to_le_bytes());
    }
    v.extend_from_slice(counts);
    v.into_boxed_slice()
}

impl Model {
    fn occupancy(&self, anchors: &[u16]) -> Bits {
        let mut o = [0; 6];
        for (i, &a) in anchors.iter().enumerate() {
            o = or(&o, &self.masks[self.big[i]][&(a as usize)]);
        }
        o
    }
    /// component id per cell (u8::MAX where not fluid), and the count; ordered by lowest cell.
    fn components(&self, occ: &Bits) -> (Vec<u8>, usize) {
        let fluid = andnot(&self.free, occ);
        let mut comp = vec![u8::MAX; self.n];
        let mut k = 0u8;
        let mut stack = Vec::new();
        for i in 0..self.n {
            if get(&fluid, i) && comp[i] == u8::MAX {
                comp[i] = k;
                stack.push(i);
                while let Some(x) = stack.pop() {
                    for &y in &self.nbr[x] {
                        if y != usize::MAX && get(&fluid, y) && comp[y] == u8::MAX {
                            comp[y] = k;
                            stack.push(y);
                        }
                    }
                }
                k += 1;
            }
        }
        (comp, k as usize)
    }
    fn h(&self, anchors: &[u16]) -> usize {
        let m = self
            .big
            .iter()
            .position(|&t| t == self.master_type)
            .unwrap();
        let a = anchors[m] as usize;
        let (r, c, gr, gc) = (
            a / self.w,
            a % self.w,
            self.goal / self.w,
            self.goal % self.w,
        );
        r.abs_diff(gr) + c.abs_diff(gc)
    }
    fn search(&self, start: Box<[u8]>, weight: f64, limit: usize, nb: usize) {
        let t0 = std::time::Instant::now();
        let mut states: Vec<(Box<[u8]>, u32, u32)> = vec![(start.clone(), u32::MAX, 0)]; // key, parent, g
        let mut index: HashMap<Box<[u8]>, u32> = HashMap::new();
        index.insert(start.clone(), 0);
        let mut heap = BinaryHeap::new();
        let dec = |k: &[u8]| -> (Vec<u16>, Vec<u8>) {
            let a: Vec<u16> = (0..nb)
                .map(|i| u16::from_le_bytes([k[2 * i], k[2 * i + 1]]))
                .collect();
            (a, k[2 * nb..].to_vec())
        };
        // f = g + weight * h, in sixteenths so that the heap orders integers.
        let f = |g: u32, key: &[u8]| {
            (g as f64 * 16.0 + weight * self.h(&dec(key).0) as f64 * 16.0) as u64
        };
        heap.push(Reverse((f(0, &start), 0u32, 0u32)));
        let mut best = usize::MAX;
        let mut expanded = 0usize;
        let mut succ = Vec::new();
        while let Some(Reverse((_, g, id))) = heap.pop() {
            if g > states[id as usize].2 {
                continue;
            }
            expanded += 1;
            let key = states[id as usize].0.clone();
            let (anchors, counts) = dec(&key);
            let hh = self.h(&anchors);
            if hh < best {
                best = hh;
                eprintln!(
                    "best {best} at g {g}: expanded {expanded}, stored {}, {:.1} s",
                    states.len(),
                    t0.elapsed().as_secs_f64()
                );
            }
            if hh == 0 {
                println!(
                    "SOLVED: {g} big-block steps, expanded {expanded}, stored {}",
                    states.len()
                );
                let mut path = vec![id];
                let mut x = id;
                while states[x as usize].1 != u32::MAX {
                    x = states[x as usize].1;
                    path.push(x);
                }
                path.reverse();
                for s in path {
                    let (a, c) = dec(&states[s as usize].0);
                    println!(
                        "{:?} {:?}",
                        a.iter()
                            .map(|&x| (x as usize / self.w, x as usize % self.w))
                            .collect::<Vec<_>>(),
                        c
                    );
                }
                return;
            }
            if expanded >= limit {
                println!(
                    "LIMIT: best {best}, expanded {expanded}, stored {}",
                    states.len()
                );
                return;
            }
            succ.clear();
            self.successors(&anchors, &counts, &mut succ);
            for s in succ.drain(..) {
                let ng = g + 1;
                let j = match index.get(&s) {
                    Some(&j) if states[j as usize].2 <= ng => continue,
                    Some(&j) => {
                        states[j as usize].1 = id;
                        states[j as usize].2 = ng;
                        j
                    }
                    None => {
                        let j = states.len() as u32;
                        index.insert(s.clone(), j);
                        states.push((s.clone(), id, ng));
                        j
                    }
                };
                heap.push(Reverse((f(ng, &s), ng, j)));
            }
        }
        println!(
            "EXHAUSTED: no solution; {} abstract states, expanded {expanded}, best {best}",
            states.len()
        );
    }
    fn successors(&self, anchors: &[u16], counts: &[u8], out: &mut Vec<Box<[u8]>>) {
        let occ = self.occupancy(anchors);
        let (comp, ncomp) = self.components(&occ);
        let mut size = vec![0u8; ncomp];
        for i in 0..self.n {
            if comp[i] != u8::MAX {
                size[comp[i] as usize] += 1;
            }
        }
        for (i, &a) in anchors.iter().enumerate() {
            let t = self.big[i];
            let old = &self.masks[t][&(a as usize)];
            let others = andnot(&occ, old);
            for d in 0..4 {
                let na = self.nbr[a as usize][d];
                if na == usize::MAX {
                    continue;
                }
                let Some(new) = self.masks[t].get(&na) else {
                    continue;
                };
                if !none(&and(new, &others)) {
                    continue;
                }
                let k = andnot(new, old);
                let mut need = vec![0u8; ncomp];
                for x in 0..self.n {
                    if get(&k, x) && comp[x] != u8::MAX {
                        need[comp[x] as usize] += 1;
                    }
                }
                if (0..ncomp).any(|c| counts[c] + need[c] > size[c]) {
                    continue;
                }
                let mut na_all = anchors.to_vec();
                na_all[i] = na as u16;
                // keep each type's instances sorted
                let r = (0..anchors.len())
                    .filter(|&j| self.big[j] == t)
                    .collect::<Vec<_>>();
                let mut vals: Vec<u16> = r.iter().map(|&j| na_all[j]).collect();
                vals.sort();
                for (j, v) in r.iter().zip(vals) {
                    na_all[*j] = v;
                }
                let nocc = or(&others, new);
                let (ncompv, nn) = self.components(&nocc);
                // pieces: for each old component, the capacity it offers each new component
                let mut pieces: Vec<(u8, Vec<(usize, u8)>)> = Vec::new();
                for c in 0..ncomp {
                    if counts[c] == 0 {
                        continue;
                    }
                    let mut caps: Vec<(usize, u8)> = Vec::new();
                    for x in 0..self.n {
                        if comp[x] as usize == c && ncompv[x] != u8::MAX {
                            let nc = ncompv[x] as usize;
                            match caps.iter_mut().find(|p| p.0 == nc) {
                                Some(p) => p.1 += 1,
                                None => caps.push((nc, 1)),
                            }
                        }
                    }
                    pieces.push((counts[c], caps));
                }
                let mut acc = vec![0u8; nn];
                distribute(&pieces, 0, &mut acc, &mut |cnt| {
                    out.push(encode(&na_all, cnt))
                });
            }
        }
    }
}

fn distribute(
    pieces: &[(u8, Vec<(usize, u8)>)],
    i: usize,
    acc: &mut Vec<u8>,
    emit: &mut dyn FnMut(&[u8]),
) {
    if i == pieces.len() {
        emit(acc);
        return;
    }
    let (n, caps) = (&pieces[i].0, &pieces[i].1);
    split(caps, 0, *n, acc, &mut |acc2| {
        distribute(pieces, i + 1, acc2, emit)
    });
}

fn split(
    caps: &[(usize, u8)],
    p: usize,
    left: u8,
    acc: &mut Vec<u8>,
    k: &mut dyn FnMut(&mut Vec<u8>),
) {
    if p == caps.len() {
        if left == 0 {
            k(acc);
        }
        return;
    }
    let (nc, cap) = caps[p];
    let rest: u8 = caps[p + 1..].iter().map(|c| c.1).sum();
    let lo = left.saturating_sub(rest);
    for take in lo..=left.min(cap) {
        acc[nc] += take;
        split(caps, p + 1, left - take, acc, k);
        acc[nc] -= take;
    }
}
