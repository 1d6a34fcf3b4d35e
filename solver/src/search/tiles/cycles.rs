//! Move strings a depth-first search of a one-blank tile puzzle need never
//! try (Taylor and Korf's duplicate pruning, "Pruning duplicate nodes in
//! depth-first search", AAAI 1993).
//!
//! IDA* keeps no visited set, so it reaches a position once per path to
//! it: stepping back at once (which every tile search forbids) is the
//! shortest such repeat, the blank going half way round a 2x2 square one
//! way or the other (six moves, the same three tiles turned) the next.
//! Here every string of blank moves up to [`Automaton::build`]'s depth is
//! tried on an unbounded grid, breadth first and in the order of the
//! directions; a string is *forbidden* when an earlier one (shorter, or as
//! long and smaller letter by letter) leaves every tile where it leaves
//! them and steps the blank on no cell it does not: wherever the forbidden
//! string can be played the earlier one can be too, to the same position.
//!
//! Why no shortest solution is lost: among a puzzle's shortest solutions
//! take the smallest letter by letter. Were a forbidden string part of it,
//! playing the earlier string in its place would give a shorter solution
//! or an as short and smaller one. So that solution contains none, every
//! prefix of it stays in the tree, and IDA*'s bounds step to its length.
//!
//! The forbidden strings are matched while the search descends by an
//! Aho-Corasick automaton over them: a state per prefix, a transition per
//! direction, [`DEAD`] where a forbidden string ends. On Korf and Taylor's
//! 24-puzzle instance 2 the strings up to 12 moves leave 59% of the
//! positions of the bounds up to 91, those up to 14 moves 54%
//! (`experiments/bench.md`).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Mutex;

/// The transition into a forbidden string's end.
pub const DEAD: u32 = u32::MAX;

/// The blank's steps as rows and columns: up, down, left, right.
pub const STEPS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// The strings' automaton: per state, the state after each direction.
pub struct Automaton {
    next: Vec<[u32; 4]>,
    forbidden: usize,
}

impl Automaton {
    /// The automaton of the forbidden strings up to `depth` moves on a
    /// `board` (width, height), built once per board size, depth and
    /// process.
    pub fn shared(board: (u32, u32), depth: usize) -> &'static Automaton {
        type Built = Vec<(((u32, u32), usize), &'static Automaton)>;
        static BUILT: Mutex<Built> = Mutex::new(Vec::new());
        let mut built = BUILT.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(&(_, a)) = built.iter().find(|(k, _)| *k == (board, depth)) {
            return a;
        }
        let a: &'static Automaton = Box::leak(Box::new(Automaton::build(depth, board)));
        built.push(((board, depth), a));
        a
    }

    /// Finds the forbidden strings up to `depth` moves and builds their
    /// automaton (the start state is 0).
    pub fn build(depth: usize, board: (u32, u32)) -> Automaton {
        let strings = forbidden(depth, board);
        let mut a = aho_corasick(&strings);
        a.forbidden = strings.len();
        a
    }

    /// The state after direction `dir` (an index of [`STEPS`]) from
    /// `state`, or [`DEAD`].
    #[inline(always)]
    pub fn step(&self, state: u32, dir: u8) -> u32 {
        self.next[state as usize][dir as usize]
    }

    /// How many strings are forbidden.
    #[cfg(test)]
    pub fn forbidden(&self) -> usize {
        self.forbidden
    }

    /// How many states the automaton has.
    #[cfg(test)]
    pub fn states(&self) -> usize {
        self.next.len()
    }

    /// The bytes its transitions take.
    pub fn bytes(&self) -> u64 {
        (self.next.len() * std::mem::size_of::<[u32; 4]>()) as u64
    }
}

/// A string of moves: two bits per move, the first in the highest pair,
/// so that strings of one length compare as their codes do.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Word {
    code: u64,
    len: u8,
}

impl Word {
    fn push(self, dir: u8) -> Word {
        Word {
            code: self.code << 2 | u64::from(dir),
            len: self.len + 1,
        }
    }

    fn dir(self, i: u8) -> u8 {
        (self.code >> (2 * (self.len - 1 - i))) as u8 & 3
    }

    fn suffix(self, len: u8) -> Word {
        Word {
            code: self.code & ((1u64 << (2 * len)) - 1),
            len,
        }
    }
}

/// The cells a string may step on, relative to where the blank starts:
/// a window as wide and high as the board allows (at most 11 x 11; strings
/// that leave it are not tried), each cell holding the cell its tile
/// started on.
struct Grid {
    width: i32,
    /// How far a string may reach from its start: columns, rows.
    reach: (i32, i32),
    tiles: Vec<u8>,
}

/// A set of the window's cells.
type Cells = u128;

/// What a string does to the tiles, as a fingerprint, and where it can
/// be played: the cells the blank steps on.
struct Played {
    fingerprint: u64,
    cells: Cells,
}

impl Grid {
    fn new(depth: usize, board: (u32, u32)) -> Grid {
        let reach = |side: u32| (side.saturating_sub(1) as i32).min(depth as i32).min(5);
        let reach = (reach(board.0), reach(board.1));
        let width = 2 * reach.0 + 1;
        Grid {
            width,
            reach,
            tiles: (0..(width * (2 * reach.1 + 1)) as u8).collect(),
        }
    }

    /// Plays `w` from the centre: `None` when the blank's steps do not
    /// fit on the board, else the string's effect (the tiles it leaves off
    /// their cells and the blank's last cell, written into `effect` when
    /// given) and cells. The grid is restored.
    fn play(&mut self, w: Word, mut effect: Option<&mut Vec<u8>>) -> Option<Played> {
        let centre = self.width * self.reach.1 + self.reach.0;
        let (mut r, mut c) = (0i32, 0i32);
        let (mut low, mut high) = ((0i32, 0i32), (0i32, 0i32));
        let mut blank = centre;
        let mut cells: Cells = 1 << blank;
        let mut fits = true;
        for i in 0..w.len {
            let (dr, dc) = STEPS[w.dir(i) as usize];
            (r, c) = (r + dr, c + dc);
            (low, high) = ((low.0.min(c), low.1.min(r)), (high.0.max(c), high.1.max(r)));
            if high.0 - low.0 > self.reach.0 || high.1 - low.1 > self.reach.1 {
                fits = false;
                break;
            }
            let next = centre + r * self.width + c;
            self.tiles.swap(blank as usize, next as usize);
            blank = next;
            cells |= 1 << blank;
        }
        let mut hash = 0x9e37_79b9_7f4a_7c15u64 ^ blank as u64;
        if let Some(e) = effect.as_deref_mut() {
            e.clear();
        }
        let mut rest = cells;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let tile = self.tiles[cell];
            if tile as usize != cell && cell as i32 != blank {
                hash = mix(hash ^ (cell as u64) << 8 ^ tile as u64);
                if let Some(e) = effect.as_deref_mut() {
                    e.extend([cell as u8, tile]);
                }
            }
            self.tiles[cell] = cell as u8;
        }
        if let Some(e) = effect {
            e.push(blank as u8);
        }
        fits.then_some(Played {
            fingerprint: hash,
            cells,
        })
    }

    /// Whether `a` and `b` do the same to the tiles.
    fn same(&mut self, a: Word, b: Word, scratch: &mut (Vec<u8>, Vec<u8>)) -> bool {
        self.play(a, Some(&mut scratch.0));
        self.play(b, Some(&mut scratch.1));
        scratch.0 == scratch.1
    }
}

/// A 64-bit mixing step (the finaliser of MurmurHash3).
fn mix(mut x: u64) -> u64 {
    x = (x ^ x >> 33).wrapping_mul(0xff51_afd7_ed55_8ccd);
    x = (x ^ x >> 33).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ x >> 33
}

/// Hashes keys that are hashes already (fingerprints) or small codes, by
/// one mixing step: the generation probes its sets about 10^8 times.
#[derive(Default)]
struct Mixed(u64);

impl std::hash::Hasher for Mixed {
    fn finish(&self) -> u64 {
        mix(self.0)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)) ^ self.0 >> 56;
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 ^= x;
    }
}

type Build = std::hash::BuildHasherDefault<Mixed>;

/// A kept string: its moves, its cells (as two halves, so that the entry
/// takes 32 bytes: there are millions), and the next kept string with the
/// same fingerprint (`u32::MAX`: none).
struct Kept {
    code: u64,
    cells: [u64; 2],
    next: u32,
    len: u8,
}

impl Kept {
    fn new(word: Word, cells: Cells, next: u32) -> Kept {
        Kept {
            code: word.code,
            cells: [cells as u64, (cells >> 64) as u64],
            next,
            len: word.len,
        }
    }

    fn word(&self) -> Word {
        Word {
            code: self.code,
            len: self.len,
        }
    }

    fn cells(&self) -> Cells {
        u128::from(self.cells[0]) | u128::from(self.cells[1]) << 64
    }
}

/// The forbidden strings up to `depth` moves on a `board` (width,
/// height) of tiles, each as its directions: strings that fit on the board
/// are tried breadth first in the order of the directions; one whose
/// proper suffix is forbidden is dropped (the automaton catches it by that
/// suffix), one an earlier string does the same as, on a subset of its
/// cells, is forbidden, and the others are kept and extended.
fn forbidden(depth: usize, board: (u32, u32)) -> Vec<Vec<u8>> {
    assert!(depth < 32, "a string is two bits a move in 64");
    let mut grid = Grid::new(depth, board);
    let empty = Word { code: 0, len: 0 };
    let played = grid.play(empty, None).expect("the empty string fits");
    let mut kept = vec![Kept::new(empty, played.cells, u32::MAX)];
    let mut first: HashMap<u64, u32, Build> = HashMap::default();
    first.insert(played.fingerprint, 0);
    let mut banned: HashSet<u64, Build> = HashSet::default();
    let key = |w: Word| w.code | u64::from(w.len) << 58;
    let mut out = Vec::new();
    let mut scratch = (Vec::new(), Vec::new());
    let mut layer = 0..1;
    for _ in 0..depth {
        let start = kept.len();
        for i in layer {
            let t = kept[i].word();
            for dir in 0..4u8 {
                let s = t.push(dir);
                if (2..s.len).any(|j| banned.contains(&key(s.suffix(j)))) {
                    continue;
                }
                let Some(p) = grid.play(s, None) else {
                    continue;
                };
                let head = first.entry(p.fingerprint).or_insert(u32::MAX);
                let mut at = *head;
                let mut earlier = false;
                while at != u32::MAX && !earlier {
                    let e = &kept[at as usize];
                    earlier = e.cells() & !p.cells == 0 && grid.same(e.word(), s, &mut scratch);
                    at = e.next;
                }
                if earlier {
                    banned.insert(key(s));
                    out.push((0..s.len).map(|i| s.dir(i)).collect());
                } else {
                    kept.push(Kept::new(s, p.cells, *head));
                    *head = kept.len() as u32 - 1;
                }
            }
        }
        layer = start..kept.len();
    }
    out
}

/// The automaton matching `strings` anywhere in a string of directions.
fn aho_corasick(strings: &[Vec<u8>]) -> Automaton {
    const NO: u32 = u32::MAX;
    let mut goto: Vec<[u32; 4]> = vec![[NO; 4]];
    let mut end = vec![false];
    for s in strings {
        let mut at = 0usize;
        for &d in s {
            if goto[at][d as usize] == NO {
                goto[at][d as usize] = goto.len() as u32;
                goto.push([NO; 4]);
                end.push(false);
            }
            at = goto[at][d as usize] as usize;
        }
        end[at] = true;
    }
    // Breadth first: a state's fall-back (its longest proper suffix that
    // is a prefix) is settled before the state, and the dense transitions
    // of the fall-back before those of the state.
    let mut next = vec![[0u32; 4]; goto.len()];
    let mut fail = vec![0u32; goto.len()];
    let mut queue = VecDeque::new();
    for d in 0..4 {
        match goto[0][d] {
            NO => next[0][d] = 0,
            c => {
                next[0][d] = c;
                queue.push_back(c);
            }
        }
    }
    while let Some(s) = queue.pop_front() {
        let s = s as usize;
        end[s] |= end[fail[s] as usize];
        for d in 0..4 {
            match goto[s][d] {
                NO => next[s][d] = next[fail[s] as usize][d],
                c => {
                    fail[c as usize] = next[fail[s] as usize][d];
                    next[s][d] = c;
                    queue.push_back(c);
                }
            }
        }
    }
    for row in &mut next {
        for t in row.iter_mut() {
            if end[*t as usize] {
                *t = DEAD;
            }
        }
    }
    Automaton { next, forbidden: 0 }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// Up, down, left, right as [`STEPS`] numbers them.
    const U: u8 = 0;
    const D: u8 = 1;
    const L: u8 = 2;
    const R: u8 = 3;

    #[test]
    fn the_shortest_forbidden_strings_are_steps_back_and_half_turns_round_a_square() {
        let mut two = forbidden(2, (5, 5));
        two.sort();
        assert_eq!(two, vec![vec![U, D], vec![D, U], vec![L, R], vec![R, L]]);
        let six = forbidden(6, (5, 5));
        // Round the square below and right of the blank: clockwise and
        // anticlockwise half way turn the same three tiles; the one that
        // starts down comes first and stays.
        assert!(six.contains(&vec![R, D, L, U, R, D]));
        assert!(!six.contains(&vec![D, R, U, L, D, R]));
        assert_eq!(
            six.len(),
            8,
            "four squares round the blank, two ways each: {six:?}"
        );
        // A board one row high has no square to turn round.
        assert_eq!(forbidden(6, (5, 1)).len(), 2);
    }

    /// A wall in [`distances`]' positions.
    const WALL: u8 = u8::MAX;

    /// The positions of a `width` x `height` tile puzzle with `walls`
    /// within `depth` moves of the solved one and their distances, breadth
    /// first; with an automaton, only along strings it lets through.
    fn distances(
        (width, height): (usize, usize),
        walls: &[usize],
        depth: usize,
        automaton: Option<&Automaton>,
    ) -> HashMap<Vec<u8>, usize> {
        let mut start: Vec<u8> = (0..(width * height) as u8).collect();
        for &w in walls {
            start[w] = WALL;
        }
        let mut distance = HashMap::from([(start.clone(), 0)]);
        let mut layer = vec![(start, 0u32)];
        for d in 1..=depth {
            let mut next = Vec::new();
            for (tiles, state) in &layer {
                let blank = tiles.iter().position(|&t| t == 0).unwrap();
                let (r, c) = ((blank / width) as i32, (blank % width) as i32);
                for (dir, (dr, dc)) in STEPS.iter().enumerate() {
                    let (r, c) = (r + dr, c + dc);
                    if r < 0 || c < 0 || r >= height as i32 || c >= width as i32 {
                        continue;
                    }
                    let state = match automaton {
                        Some(a) => match a.step(*state, dir as u8) {
                            DEAD => continue,
                            s => s,
                        },
                        None => 0,
                    };
                    let to = r as usize * width + c as usize;
                    if tiles[to] == WALL {
                        continue;
                    }
                    let mut child = tiles.clone();
                    child.swap(blank, to);
                    let known = distance.get(&child).copied();
                    if known.is_none_or(|k| k == d) {
                        distance.entry(child.clone()).or_insert(d);
                        next.push((child, state));
                    }
                }
            }
            next.sort_unstable();
            next.dedup();
            layer = next;
        }
        distance
    }

    /// The pruning loses no position and lengthens no shortest path: every
    /// position within reach of the solved one is still reached, at its
    /// distance, on boards from one row high to 4 x 4, with walls and
    /// without (where a string's twin may step on a wall it does not).
    #[test]
    fn the_forbidden_strings_keep_a_shortest_path_to_every_position() {
        // Width and height, walls, the strings' depth, the positions' depth.
        type Board = ((usize, usize), &'static [usize], usize, usize);
        let boards: [Board; 7] = [
            ((3, 3), &[], 12, 31),
            ((4, 2), &[], 12, 36),
            ((3, 2), &[], 12, 21),
            ((5, 1), &[], 8, 8),
            ((4, 4), &[], 12, 14),
            ((4, 4), &[5], 12, 16),
            ((4, 3), &[6], 12, 24),
        ];
        for (board, walls, depth, reach) in boards {
            let automaton = Automaton::build(depth, (board.0 as u32, board.1 as u32));
            assert!(automaton.forbidden() > 2 || board.1 == 1);
            // The start and a state per first move that is not a step back.
            assert!(automaton.states() > 2, "{board:?}");
            assert_eq!(automaton.bytes(), 16 * automaton.states() as u64);
            let all = distances(board, walls, reach, None);
            let pruned = distances(board, walls, reach, Some(&automaton));
            assert_eq!(pruned.len(), all.len(), "{board:?}");
            assert!(
                all.iter().all(|(p, d)| pruned.get(p) == Some(d)),
                "{board:?}"
            );
        }
    }
}
