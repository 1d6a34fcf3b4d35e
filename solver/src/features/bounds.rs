//! Upper bounds on the search space (thesis §1.2.1, §7.1.5): the
//! combinatorial bound (the multinomial coefficient of the blocks and spaces)
//! and the packing bound (the number of ways to pack every block on the
//! board), plus the small unsigned big integer both need.
//!
//! The packing bound is counted by backtracking over the open cells in
//! row-major order: the first empty cell is either left empty (a space) or is
//! the anchor (first cell in row-major order) of a block of some type with
//! instances left, so every packing is found exactly once. Occupancy is a
//! `Vec<bool>` over the board: no fixed-width mask limits the board or block
//! size (the thesis's 64-bit mask crashed on a large block, §8.4). The count
//! is budgeted in calls; when the budget runs out the caller falls back to
//! the combinatorial bound.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use crate::encoding::words;
use crate::model::{Axis, CellKind, Puzzle};

/// An unsigned integer of any size: little-endian `u64` words without
/// trailing zero words (zero has no words).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Big {
    words: Vec<u64>,
}

impl Big {
    pub fn zero() -> Big {
        Big { words: Vec::new() }
    }

    pub fn from_u64(x: u64) -> Big {
        Big::from_words(&[x])
    }

    pub fn from_u128(x: u128) -> Big {
        Big::from_words(&[x as u64, (x >> 64) as u64])
    }

    /// From little-endian words (trailing zero words allowed).
    pub fn from_words(w: &[u64]) -> Big {
        let mut b = Big { words: w.to_vec() };
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.words.last() == Some(&0) {
            self.words.pop();
        }
    }

    pub fn is_zero(&self) -> bool {
        self.words.is_empty()
    }

    /// `self += other`.
    pub fn add(&mut self, other: &Big) {
        let n = self.words.len().max(other.words.len()) + 1;
        self.words.resize(n, 0);
        let mut o = other.words.clone();
        o.resize(n, 0);
        words::add(&mut self.words, &o);
        self.trim();
    }

    /// `self *= m`.
    pub fn mul_small(&mut self, m: u64) {
        let carry = words::mul_small(&mut self.words, m);
        if carry != 0 {
            self.words.push(carry);
        }
        self.trim();
    }

    /// `self /= d`; returns the remainder.
    pub fn div_small(&mut self, d: u64) -> u64 {
        let r = words::div_small(&mut self.words, d);
        self.trim();
        r
    }

    /// Number of significant bits.
    pub fn bits(&self) -> u32 {
        words::bit_length(&self.words)
    }

    /// The value when it fits 128 bits.
    pub fn to_u128(&self) -> Option<u128> {
        match self.words.len() {
            0 => Some(0),
            1 => Some(self.words[0] as u128),
            2 => Some(self.words[0] as u128 | (self.words[1] as u128) << 64),
            _ => None,
        }
    }

    /// The nearest `f64` (infinite beyond `f64::MAX`).
    pub fn to_f64(&self) -> f64 {
        match self.to_u128() {
            Some(x) => x as f64,
            // Parsing the decimal digits rounds correctly and overflows to inf.
            None => self.to_decimal().parse().unwrap_or(f64::INFINITY),
        }
    }

    /// Base-10 logarithm (negative infinity for zero), accurate to about
    /// 1e-15 relative: from the top 128 bits and the word count.
    pub fn log10(&self) -> f64 {
        let n = self.words.len();
        if n <= 2 {
            return (self.to_u128().unwrap_or(0) as f64).log10();
        }
        let top = (self.words[n - 1] as u128) << 64 | self.words[n - 2] as u128;
        (top as f64).log10() + (64 * (n - 2)) as f64 * std::f64::consts::LOG10_2
    }

    /// Decimal digits.
    pub fn to_decimal(&self) -> String {
        if self.is_zero() {
            return "0".to_string();
        }
        const CHUNK: u64 = 10_000_000_000_000_000_000; // 10^19
        let mut x = self.clone();
        let mut chunks = Vec::new();
        while !x.is_zero() {
            chunks.push(x.div_small(CHUNK));
        }
        let mut s = chunks.pop().map(|c| c.to_string()).unwrap_or_default();
        for c in chunks.iter().rev() {
            s.push_str(&format!("{c:019}"));
        }
        s
    }
}

impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Big) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Big {
    fn cmp(&self, other: &Big) -> Ordering {
        self.words
            .len()
            .cmp(&other.words.len())
            .then_with(|| words::cmp(&self.words, &other.words))
    }
}

/// The multinomial coefficient `(sum c)! / prod(c!)`: the number of distinct
/// strings over symbols occurring `c` times each. Built as a product of
/// binomials so every division is exact.
pub fn multinomial(counts: &[u32]) -> Big {
    let mut x = Big::from_u64(1);
    let mut n = 0u64;
    for &c in counts {
        for k in 1..=c as u64 {
            n += 1;
            x.mul_small(n);
            let r = x.div_small(k);
            debug_assert_eq!(r, 0);
        }
    }
    x
}

/// Symbol counts of the combinatorial bound: instances per type, then the
/// empty cells (open cells, doors included, minus the cells the blocks cover).
pub fn symbol_counts(puzzle: &Puzzle) -> Vec<u32> {
    let mut counts: Vec<u32> = puzzle.counts.iter().map(|&c| c as u32).collect();
    let covered: usize = (0..puzzle.types.len())
        .map(|t| puzzle.counts[t] * puzzle.types[t].shape.size())
        .sum();
    counts.push(puzzle.board.open_cells().saturating_sub(covered) as u32);
    counts
}

/// How a packing count ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Packing {
    /// Every packing was counted, in `calls` calls.
    Counted { value: Big, calls: u64 },
    /// The call budget ran out after `calls` calls.
    GaveUp { calls: u64 },
}

/// One block type as the packing count sees it.
struct PackType {
    offsets: Vec<(i32, i32)>,
    /// `(min_col, max_col, max_row)` of the offsets, for a quick bounds test.
    extent: (i32, i32, i32),
    is_master: bool,
    /// 1x1 and not a slider: the tail shortcut applies to it.
    plain_unit: bool,
    /// Sliders: `allowed[row]` (horizontal) or `allowed[col]` (vertical) for
    /// the lines its instances start on; they never leave them.
    line: Option<(Axis, Vec<bool>)>,
    /// Last open index where it fits on the empty board (`None`: nowhere).
    last: Option<usize>,
}

/// Counts the packings of `puzzle`: placements of all its blocks on the
/// board, each instance where its shape fits the empty board (the master may
/// use doors, the others not), no two overlapping, interchangeable instances
/// unordered, sliders on the lines they start on (they can never leave them,
/// so this is still an upper bound on the reachable positions). Gives up
/// after `max_calls` recursive calls, or after `64 * max_calls` elementary
/// steps (types scanned plus cells checked), which bounds the time even for
/// thousands of types or huge shapes.
///
/// Three cuts keep the tree small without changing the count: a branch ends
/// as soon as the cursor has passed the last anchor of a type that still has
/// blocks to place; a subtree whose remaining blocks are all plain 1x1
/// blocks allowed on every remaining cell is counted in one step as the
/// multinomial of the remaining symbols (charged one call per symbol when
/// first computed, then remembered); and the count of every finished
/// subtree is remembered by what determines it (the cells already decided,
/// which imply the cursor, and the symbols left), so equal subtrees reached
/// by different packings of the cells behind the cursor are counted once: a
/// dynamic programme over the frontier, up to 2^18 subtrees kept. States are
/// told apart by a 128-bit hash (Zobrist values of the decided cells, plus
/// the symbols left times random odd multipliers); two states colliding has
/// a probability near 2^-128 per pair, below 10^-26 within any budget.
pub fn packing_bound(puzzle: &Puzzle, max_calls: u64) -> Packing {
    count_packings(puzzle, max_calls, true)
}

/// [`packing_bound`], optionally without remembering subtrees (plain
/// backtracking: the reference the tests compare the memo against).
fn count_packings(puzzle: &Puzzle, max_calls: u64, remember: bool) -> Packing {
    let mut packer = Packer::new(puzzle, max_calls);
    packer.remember = remember;
    match packer.run() {
        Ok(()) => Packing::Counted {
            value: packer.total,
            calls: packer.calls,
        },
        Err(GaveUp) => Packing::GaveUp {
            calls: packer.calls,
        },
    }
}

struct GaveUp;

/// One open cell being decided: the choice to try next and the one applied.
struct Frame {
    p: usize,
    next: usize,
    /// The applied choice and where its cells start in [`Packer::placed`].
    applied: Option<(usize, usize)>,
    /// Packings counted in this subtree so far.
    subtotal: Big,
    /// The subtree's memo key.
    key: u128,
}

/// Subtree counts remembered at most (a few dozen bytes each).
const MEMO_ENTRIES: usize = 1 << 18;

/// Fixed pseudo-random 128-bit values (SplitMix64 from a fixed seed), so the
/// hashes, and with them the whole count, are the same on every run.
fn random_u128s(n: usize, seed: u64) -> Vec<u128> {
    let mut x = seed;
    let mut next = || {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    (0..n)
        .map(|_| (next() as u128) << 64 | next() as u128)
        .collect()
}

/// Hashes keys that are already uniformly random 128-bit values: their low
/// 64 bits.
#[derive(Default)]
struct RandomKeyHasher(u64);

impl Hasher for RandomKeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u128(&mut self, x: u128) {
        self.0 = x as u64;
    }
}

type RandomKeyMap<V> = HashMap<u128, V, BuildHasherDefault<RandomKeyHasher>>;

struct Packer<'a> {
    puzzle: &'a Puzzle,
    types: Vec<PackType>,
    /// Open cells, row-major.
    open: Vec<usize>,
    /// `doors_from[p]`: door cells among `open[p..]`.
    doors_from: Vec<usize>,
    /// Instances left per type, then spaces left.
    remaining: Vec<u32>,
    occupied: Vec<bool>,
    /// Over the types with blocks left: how many are not plain 1x1, how many
    /// are not the master, and their `last` anchors (with multiplicity).
    irregular_left: usize,
    non_master_left: usize,
    lasts_left: BTreeMap<usize, usize>,
    /// Multinomials of the tail shortcut, by the hash of the symbols left.
    tails: RandomKeyMap<Big>,
    /// Counts of finished subtrees, by the hash of their state.
    subtrees: RandomKeyMap<Big>,
    remember: bool,
    /// Random values per cell and per symbol kind, and the state's hash:
    /// the XOR of the values of the decided cells plus the sum of the
    /// symbols left times their kind's value.
    cell_keys: Vec<u128>,
    symbol_keys: Vec<u128>,
    decided_hash: u128,
    left_hash: u128,
    total: Big,
    calls: u64,
    steps: u64,
    max_calls: u64,
    max_steps: u64,
    stack: Vec<Frame>,
    /// Cells of the applied choices, innermost last.
    placed: Vec<usize>,
    scratch: Vec<usize>,
}

/// The packer's view of each block type: its shape, and for a slider the
/// lines (rows or columns) its blocks start on, the only ones it can reach.
fn pack_types(puzzle: &Puzzle) -> Vec<PackType> {
    let board = &puzzle.board;
    puzzle
        .types
        .iter()
        .enumerate()
        .map(|(t, ty)| PackType {
            offsets: ty.shape.offsets().to_vec(),
            extent: ty.shape.extent(),
            is_master: ty.is_master,
            plain_unit: ty.shape.size() == 1 && ty.slider.is_none(),
            line: ty.slider.map(|axis| {
                let side = match axis {
                    Axis::Horizontal => board.height(),
                    Axis::Vertical => board.width(),
                };
                let mut allowed = vec![false; side];
                for &a in &puzzle.start.anchors[puzzle.type_range(t)] {
                    let (r, c) = board.coordinates(a as usize);
                    allowed[if axis == Axis::Horizontal { r } else { c }] = true;
                }
                (axis, allowed)
            }),
            last: None,
        })
        .collect()
}

impl<'a> Packer<'a> {
    fn new(puzzle: &'a Puzzle, max_calls: u64) -> Packer<'a> {
        let board = &puzzle.board;
        let open: Vec<usize> = (0..board.len())
            .filter(|&c| board.kind(c) != CellKind::Wall)
            .collect();
        let mut doors_from = vec![0usize; open.len() + 1];
        for p in (0..open.len()).rev() {
            doors_from[p] = doors_from[p + 1] + (board.kind(open[p]) == CellKind::Door) as usize;
        }
        let occupied: Vec<bool> = board.cells().iter().map(|k| *k == CellKind::Wall).collect();
        let types = pack_types(puzzle);
        let remaining = symbol_counts(puzzle);
        // Odd multipliers, so no count difference below 2^128 vanishes for all.
        let symbol_keys: Vec<u128> = random_u128s(remaining.len(), 1)
            .into_iter()
            .map(|k| k | 1)
            .collect();
        let left_hash = remaining
            .iter()
            .zip(&symbol_keys)
            .fold(0u128, |h, (&c, &k)| {
                h.wrapping_add(k.wrapping_mul(c as u128))
            });
        let mut packer = Packer {
            puzzle,
            types,
            open,
            doors_from,
            remaining,
            occupied,
            irregular_left: 0,
            non_master_left: 0,
            lasts_left: BTreeMap::new(),
            tails: RandomKeyMap::default(),
            subtrees: RandomKeyMap::default(),
            remember: true,
            cell_keys: random_u128s(board.len(), 2),
            symbol_keys,
            decided_hash: 0,
            left_hash,
            total: Big::zero(),
            calls: 0,
            steps: 0,
            max_calls,
            max_steps: max_calls.saturating_mul(64),
            stack: Vec::new(),
            placed: Vec::new(),
            scratch: Vec::new(),
        };
        for t in 0..packer.types.len() {
            let mut cells = Vec::new();
            packer.types[t].last = (0..packer.open.len())
                .rev()
                .find(|&p| packer.cells_if_fits(t, packer.open[p], &mut cells));
            if packer.remaining[t] > 0 {
                packer.track(t, true);
            }
        }
        packer
    }

    /// Updates the counters when type `t` gets its first block left (`true`)
    /// or loses its last one (`false`).
    fn track(&mut self, t: usize, left: bool) {
        let ty = &self.types[t];
        let key = ty.last.map_or(0, |l| l + 1);
        let (irregular, non_master) = (!ty.plain_unit as usize, !ty.is_master as usize);
        if left {
            self.irregular_left += irregular;
            self.non_master_left += non_master;
            *self.lasts_left.entry(key).or_insert(0) += 1;
        } else {
            self.irregular_left -= irregular;
            self.non_master_left -= non_master;
            if let Some(n) = self.lasts_left.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    self.lasts_left.remove(&key);
                }
            }
        }
    }

    /// True (and the cells in `out`) when type `t` anchored at `cell` lies on
    /// the board, on cells it may use that are not occupied, on its line.
    fn cells_if_fits(&self, t: usize, cell: usize, out: &mut Vec<usize>) -> bool {
        let board = &self.puzzle.board;
        let ty = &self.types[t];
        let (w, h) = (board.width() as i32, board.height() as i32);
        let (r, c) = board.coordinates(cell);
        let (r, c) = (r as i32, c as i32);
        let (min_c, max_c, max_r) = ty.extent;
        if c + min_c < 0 || c + max_c >= w || r + max_r >= h {
            return false;
        }
        if let Some((axis, allowed)) = &ty.line {
            if !allowed[if *axis == Axis::Horizontal { r } else { c } as usize] {
                return false;
            }
        }
        out.clear();
        for &(dr, dc) in &ty.offsets {
            let x = ((r + dr) * w + c + dc) as usize;
            if self.occupied[x] || !board.allows(x, ty.is_master) {
                return false;
            }
            out.push(x);
        }
        true
    }

    fn charge(&mut self, calls: u64, steps: u64) -> Result<(), GaveUp> {
        self.calls += calls;
        self.steps += steps;
        if self.calls > self.max_calls || self.steps > self.max_steps {
            Err(GaveUp)
        } else {
            Ok(())
        }
    }

    /// Adds `v` to the innermost open subtree (or the total).
    fn credit(stack: &mut [Frame], total: &mut Big, v: &Big) {
        match stack.last_mut() {
            Some(frame) => frame.subtotal.add(v),
            None => total.add(v),
        }
    }

    /// Enters the subtree whose first undecided open cell is at or after
    /// `from`: counts it at once or pushes a frame for it.
    fn enter(&mut self, from: usize) -> Result<(), GaveUp> {
        self.charge(1, 1)?;
        let mut p = from;
        while p < self.open.len() && self.occupied[self.open[p]] {
            p += 1;
        }
        if p == self.open.len() {
            // Every cell is decided, so every symbol is used.
            Self::credit(&mut self.stack, &mut self.total, &Big::from_u64(1));
            return Ok(());
        }
        if self.lasts_left.keys().next().is_some_and(|&k| k < p + 1) {
            return Ok(()); // a block left can no longer be anchored
        }
        if self.irregular_left == 0 && (self.non_master_left == 0 || self.doors_from[p] == 0) {
            if !self.tails.contains_key(&self.left_hash) {
                let n: u64 = self.remaining.iter().map(|&c| c as u64).sum();
                self.charge(n, n)?;
                self.tails
                    .insert(self.left_hash, multinomial(&self.remaining));
            }
            Self::credit(
                &mut self.stack,
                &mut self.total,
                &self.tails[&self.left_hash],
            );
            return Ok(());
        }
        // The cursor is implied by the decided cells (all open cells before
        // it are decided), so the two hashes identify the subtree.
        let key = self.decided_hash ^ self.left_hash.rotate_left(64);
        if let Some(v) = self.subtrees.get(&key) {
            Self::credit(&mut self.stack, &mut self.total, v);
            return Ok(());
        }
        self.stack.push(Frame {
            p,
            next: 0,
            applied: None,
            subtotal: Big::zero(),
            key,
        });
        Ok(())
    }

    /// Uses (`take`) or gives back a symbol and marks its cells, the last
    /// ones in `placed`, decided or undecided.
    fn apply(&mut self, choice: usize, start: usize, take: bool) {
        let space = self.types.len();
        if take {
            self.remaining[choice] -= 1;
            self.left_hash = self.left_hash.wrapping_sub(self.symbol_keys[choice]);
            if choice < space && self.remaining[choice] == 0 {
                self.track(choice, false);
            }
        } else {
            self.remaining[choice] += 1;
            self.left_hash = self.left_hash.wrapping_add(self.symbol_keys[choice]);
            if choice < space && self.remaining[choice] == 1 {
                self.track(choice, true);
            }
        }
        for &x in &self.placed[start..] {
            self.occupied[x] = take;
            self.decided_hash ^= self.cell_keys[x];
        }
    }

    fn run(&mut self) -> Result<(), GaveUp> {
        let space = self.types.len();
        self.enter(0)?;
        while let Some(mut frame) = self.stack.pop() {
            if let Some((choice, start)) = frame.applied.take() {
                self.apply(choice, start, false);
                self.placed.truncate(start);
            }
            let cell = self.open[frame.p];
            let mut chosen = None;
            let mut scratch = std::mem::take(&mut self.scratch);
            let mut steps = 0;
            while frame.next <= space {
                let choice = frame.next;
                frame.next += 1;
                steps += 1;
                if self.remaining[choice] == 0 {
                    continue;
                }
                if choice == space {
                    scratch.clear();
                    scratch.push(cell);
                    chosen = Some(choice);
                    break;
                }
                steps += self.types[choice].offsets.len() as u64;
                if self.cells_if_fits(choice, cell, &mut scratch) {
                    chosen = Some(choice);
                    break;
                }
            }
            let start = self.placed.len();
            self.placed.extend_from_slice(&scratch);
            self.scratch = scratch;
            self.charge(0, steps)?;
            let Some(choice) = chosen else {
                // Every choice tried: the subtree is counted.
                Self::credit(&mut self.stack, &mut self.total, &frame.subtotal);
                if self.remember && self.subtrees.len() < MEMO_ENTRIES {
                    self.subtrees.insert(frame.key, frame.subtotal);
                }
                self.placed.truncate(start);
                continue;
            };
            self.apply(choice, start, true);
            let next_cell = frame.p + 1;
            frame.applied = Some((choice, start));
            self.stack.push(frame);
            self.enter(next_cell)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;

    fn puzzle(text: &str) -> Puzzle {
        native::parse(text, "test").expect("test puzzle parses")
    }

    #[test]
    fn big_arithmetic_and_printing() {
        let mut x = Big::from_u64(1);
        for k in 1..=30u64 {
            x.mul_small(k);
        }
        assert_eq!(x.to_decimal(), "265252859812191058636308480000000");
        assert_eq!(x.to_u128(), Some(265252859812191058636308480000000));
        assert!((x.log10() - 32.42366007492572).abs() < 1e-12);
        let mut y = x.clone();
        y.add(&x);
        assert_eq!(y.to_decimal(), "530505719624382117272616960000000");
        assert!(y > x);
        for k in 31..=60u64 {
            y.mul_small(k);
        }
        assert_eq!(y.to_u128(), None);
        // 2 * 60!
        assert_eq!(
            y.to_decimal(),
            "16641974225482780288552682366446728761508345212722491904898555392819200000000000000"
        );
        assert!((y.log10() - 82.22120484505417).abs() < 1e-12);
        assert_eq!(y.to_f64(), 1.664197422548278e82);
        assert_eq!(Big::zero().to_decimal(), "0");
    }

    #[test]
    fn multinomial_small_cases() {
        assert_eq!(multinomial(&[2, 2]).to_u128(), Some(6));
        assert_eq!(multinomial(&[1, 1, 1]).to_u128(), Some(6));
        assert_eq!(multinomial(&[0, 5]).to_u128(), Some(1));
        // 16! for the 15-puzzle's sixteen distinct symbols.
        assert_eq!(multinomial(&[1; 16]).to_u128(), Some(20_922_789_888_000));
    }

    const KLOTSKI: &str = include_str!("../../../puzzles/klotski/classic.txt");

    #[test]
    fn combinatorial_bound_matches_the_rank_encoding() {
        let p = puzzle(KLOTSKI);
        let moves = crate::moves::MoveGenerator::new(&p, crate::params::Metric::Steps, &[]);
        let rank = crate::encoding::RankEncoding::new(&p, moves.shapes());
        let mine = multinomial(&symbol_counts(&p));
        assert_eq!(Big::from_words(rank.bound()), mine);
        // 12 symbols: @, h, four v, four o, two spaces: 12! / (4! 4! 2!).
        assert_eq!(mine.to_u128(), Some(415_800));
    }

    #[test]
    fn klotski_packing_bound_lies_between_reachable_and_combinatorial() {
        let p = puzzle(KLOTSKI);
        let Packing::Counted { value, calls } = packing_bound(&p, 10_000_000) else {
            panic!("Klotski's packings are few");
        };
        let v = value.to_u128().unwrap();
        assert_eq!(v, 65_880);
        assert!(v >= 25_955, "packing {v} below the reachable count");
        assert!(v < 415_800, "packing {v} not below the combinatorial bound");
        assert!(calls > 0);
        assert!(matches!(packing_bound(&p, 10), Packing::GaveUp { calls } if calls > 10));
    }

    #[test]
    fn packing_by_hand_on_a_tiny_board() {
        // A 2x3 board: one 2x1 vertical domino `@` (the master), one 1x1 `o`.
        // Domino anchors: 3 columns; the 1x1 then has 4 cells: 12 packings,
        // while the combinatorial bound counts 5!/(3!) = 20 strings.
        let p = puzzle(
            "!\n@ 0,1\no\n!\n#####\n#@o #\n#@  #\n#####\n!\n#####\n#  @#\n#  @#\n#####\n!\n",
        );
        let Packing::Counted { value, .. } = packing_bound(&p, 1000) else {
            panic!("budget too small")
        };
        assert_eq!(value.to_u128(), Some(12));
        assert_eq!(multinomial(&symbol_counts(&p)).to_u128(), Some(20));
    }

    #[test]
    fn sliders_stay_on_their_lines_and_doors_admit_only_the_master() {
        // Horizontal slider `a` (1x2) on row 0 of a 2x3 board: 2 anchors; the
        // 1x1 master anywhere else: 4 cells; 8 packings, while an unrestricted
        // domino would have 4 anchors.
        let p = puzzle(
            "!\n@\na = 1,0\n!\n#####\n#aa #\n#@  #\n#####\n!\n#####\n#  @#\n#   #\n#####\n!\n",
        );
        let Packing::Counted { value, .. } = packing_bound(&p, 1000) else {
            panic!()
        };
        assert_eq!(value.to_u128(), Some(8));
        // A door cell `-`: only the master may stand there.
        let p = puzzle("!\n@\no\n!\n######\n#@o -#\n######\n!\n######\n#  @ #\n######\n!\n");
        let Packing::Counted { value, .. } = packing_bound(&p, 1000) else {
            panic!()
        };
        // Cells: 3 free + 1 door; @ on the door: o has 3 cells; @ on a free
        // cell (3 ways): o has 2 free cells: 3 + 6 = 9.
        assert_eq!(value.to_u128(), Some(9));
    }

    /// A puzzle on an `n` x `n` open board with a `k` x `k` block `B` in the
    /// top left corner and a 1x1 master in the bottom right one.
    pub(crate) fn big_block(n: usize, k: usize) -> String {
        let mut text = String::from("!\n@\nB");
        for r in 0..k {
            for c in 0..k {
                if (r, c) != (0, 0) {
                    text.push_str(&format!(" {c},{r}"));
                }
            }
        }
        text.push_str("\n!\n");
        let wall = "#".repeat(n + 2);
        let mut start = vec![wall.clone()];
        let mut goal = vec![wall.clone()];
        for r in 0..n {
            let row: String = (0..n)
                .map(|c| match (r, c) {
                    _ if r < k && c < k => 'B',
                    _ if (r, c) == (n - 1, n - 1) => '@',
                    _ => ' ',
                })
                .collect();
            start.push(format!("#{row}#"));
            let g: String = (0..n)
                .map(|c| if (r, c) == (n - 1, 0) { '@' } else { ' ' })
                .collect();
            goal.push(format!("#{g}#"));
        }
        start.push(wall.clone());
        goal.push(wall);
        format!("{text}{}\n!\n{}\n!\n", start.join("\n"), goal.join("\n"))
    }

    #[test]
    fn blocks_wider_than_64_cells_are_counted() {
        // A 10x10 block (100 cells: the thesis's 64-bit mask crashed on such a
        // block, §8.4) on a 12x12 board: 9 anchors, then 44 cells for the master.
        let p = puzzle(&big_block(12, 10));
        let Packing::Counted { value, .. } = packing_bound(&p, 1_000_000) else {
            panic!("budget too small")
        };
        assert_eq!(value.to_u128(), Some(9 * 44));
    }

    #[test]
    fn huge_blocks_on_a_128x128_board_are_counted() {
        // A 118x118 block on the largest board (128x128 with its frame).
        let p = puzzle(&big_block(126, 118));
        let Packing::Counted { value, .. } = packing_bound(&p, 1_000_000) else {
            panic!("budget too small")
        };
        assert_eq!(value.to_u128(), Some(81 * (126 * 126 - 118 * 118)));
    }

    #[test]
    fn remembering_subtrees_never_changes_the_count() {
        // Klotski, a door with sliders and free blocks, and mixed shapes.
        let texts = [
            KLOTSKI.to_string(),
            "!\n@ 1,0\na = 1,0\nv | 0,1\no\n!\n#######\n#aa o #\n#v @@ -\n#v  o #\n#######\n!\n#######\n#     #\n#    @@\n#     #\n#######\n!\n".to_string(),
            big_block(6, 2),
        ];
        for text in &texts {
            let p = puzzle(text);
            let plain = count_packings(&p, 100_000_000, false);
            let remembered = count_packings(&p, 100_000_000, true);
            match (plain, remembered) {
                (
                    Packing::Counted {
                        value: a,
                        calls: ca,
                    },
                    Packing::Counted {
                        value: b,
                        calls: cb,
                    },
                ) => {
                    assert_eq!(a, b);
                    assert!(cb <= ca);
                }
                other => panic!("budget too small: {other:?}"),
            }
        }
    }
}
