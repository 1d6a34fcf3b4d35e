//! The thesis's permutation rank (§7.1.4). Scanning the open cells row-major,
//! each cell that starts a block (its anchor) contributes the block's type and
//! each empty cell a "space"; covered cells contribute nothing. This string is
//! a permutation of a fixed multiset, and its lexicographic rank among all
//! permutations is the key. Unranking refills the board: each symbol goes to
//! the first cell not yet filled.
//!
//! The multinomial of the remaining symbols, `M`, is updated as
//! `M * count / n` — always an exact division, done by multiplying with a
//! precomputed inverse when ranks fit 64 bits (no hardware division in the hot
//! loop), and by multi-word arithmetic otherwise.

use super::words::{self, ExactDivisor};
use super::PositionEncoding;
use crate::model::{CellKind, Puzzle};
use crate::moves::{Move, ShapeTable, State, NO_OWNER};

/// The narrowest arithmetic that holds every intermediate product
/// `M * count` of a puzzle's rank: one machine word, two, or many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Width {
    U64,
    U128,
    Words,
}

/// One- or two-word arithmetic for the rank's narrow paths.
trait RankWord: Copy + Ord + std::ops::AddAssign + std::ops::SubAssign {
    const ZERO: Self;
    const ONE: Self;
    /// `self * count / n` with `d` dividing by `n`, for a product that `n`
    /// divides and a quotient (a multinomial no larger than the bound) that fits.
    fn scale(self, count: u32, d: ExactDivisor) -> Self;
    /// The low 64 bits (the whole value for `u64`).
    fn low(self) -> u64;
}

impl RankWord for u64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    #[inline]
    fn scale(self, count: u32, d: ExactDivisor) -> Self {
        d.divide_to_u64(self as u128 * count as u128)
    }
    #[inline]
    fn low(self) -> u64 {
        self
    }
}

impl RankWord for u128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    #[inline]
    fn scale(self, count: u32, d: ExactDivisor) -> Self {
        d.divide(self * count as u128)
    }
    #[inline]
    fn low(self) -> u64 {
        self as u64
    }
}

#[derive(Clone, Debug)]
pub struct RankEncoding {
    /// Non-wall cells in row-major order.
    open: Vec<u16>,
    /// Count of each symbol (the block types and the space, most frequent first).
    counts: Vec<u32>,
    /// The space's symbol.
    space: usize,
    /// Cell offsets per symbol (none for the space).
    shapes: Vec<Vec<i32>>,
    /// First instance of each symbol's type.
    type_starts: Vec<usize>,
    /// Symbol of each instance.
    instance_symbols: Vec<u16>,
    /// Number of permutations (the combinatorial bound), little-endian words.
    bound: Vec<u64>,
    bits: u32,
    /// Which arithmetic the rank needs: see [`Width`].
    width: Width,
    /// Number of symbols (blocks and spaces) in every position.
    length: usize,
    /// Bits of `length`: the headroom `M * count` needs.
    length_bits: u32,
    /// `divisors[n]` divides exactly by n.
    divisors: Vec<ExactDivisor>,
    // Scratch, reused for every call.
    remaining: Vec<u32>,
    m: Vec<u64>,
    tmp: Vec<u64>,
    rest: Vec<u64>,
    next_instance: Vec<usize>,
    filled: Vec<u32>,
    generation: u32,
    /// The last one-word rank decoded, cell by cell, for ranking its
    /// successors from it ([`Trail`]).
    trail: Trail,
    /// Index of each cell in `open` (walls: unused).
    open_index: Vec<u16>,
}

/// What decoding a one-word rank passed through: before the `j`-th symbol
/// placed, the rank of the cells before it (`before[j]`), the multinomial
/// of the symbols left (`m[j]`) and their counts (row `j` of `left`); and
/// for each open cell the first symbol placed at or after it (`at`). A
/// move changes the symbols of the cells from the first it touches to the
/// last only, and leaves the multiset of those cells' symbols as it was,
/// so a successor's rank is the parent's less those cells' terms plus
/// their new terms, computed from the trail's state at the first:
/// [`RankEncoding::rank_successor`].
#[derive(Clone, Debug, Default)]
struct Trail {
    /// The rank the trail is of (`None`: no trail).
    key: Option<u64>,
    before: Vec<u64>,
    m: Vec<u64>,
    left: Vec<u16>,
    at: Vec<u16>,
    /// The open cell each symbol was placed on (`placed[last]`: the first
    /// cell after the last one placed).
    placed: Vec<u16>,
    /// Symbols placed before only spaces were left.
    last: usize,
}

/// The number of permutations of a multiset with these `counts`,
/// `length! / prod(count!)`, computed as a product of binomials in
/// [`multinomial_words`] words, and the bits its ranks need (those of
/// `bound - 1`, at least 1).
fn multiset_bound(counts: &[u32]) -> (Vec<u64>, u32) {
    let words = multinomial_words(counts);
    let mut bound = vec![0u64; words];
    bound[0] = 1;
    let mut n = 0u64;
    for &c in counts {
        for k in 1..=c as u64 {
            n += 1;
            words::mul_small(&mut bound, n);
            words::div_small(&mut bound, k);
        }
    }
    let mut minus_one = bound.clone();
    let mut one = vec![0u64; words];
    one[0] = 1;
    words::sub(&mut minus_one, &one);
    let bits = words::bit_length(&minus_one).max(1);
    (bound, bits)
}

impl RankEncoding {
    pub fn new(puzzle: &Puzzle, shapes: &ShapeTable) -> RankEncoding {
        let board = &puzzle.board;
        let open: Vec<u16> = (0..board.len())
            .filter(|&c| board.kind(c) != CellKind::Wall)
            .map(|c| c as u16)
            .collect();
        let types = puzzle.types.len();
        let mut counts: Vec<u32> = puzzle.counts.iter().map(|&c| c as u32).collect();
        let covered: usize = (0..types)
            .map(|t| puzzle.counts[t] * puzzle.types[t].shape.size())
            .sum();
        counts.push((open.len() - covered) as u32);
        // Symbols: the types and the space (index `types`), most frequent
        // first. A cell holding symbol 0 adds nothing to the rank, so the
        // common symbol, usually the space, then costs half the arithmetic.
        let mut order: Vec<usize> = (0..=types).collect();
        order.sort_by_key(|&x| std::cmp::Reverse(counts[x]));
        let mut symbol_of = vec![0usize; types + 1];
        for (sym, &x) in order.iter().enumerate() {
            symbol_of[x] = sym;
        }
        let counts: Vec<u32> = order.iter().map(|&x| counts[x]).collect();
        let length: u32 = counts.iter().sum();
        let (bound, bits) = multiset_bound(&counts);
        let words = bound.len();
        let divisors = (0..=length as u64)
            .map(|d| ExactDivisor::new(d.max(1)))
            .collect();
        // M * count <= bound * length must fit for the 128-bit path.
        let length_bits = 32 - length.leading_zeros();
        let width = if bound[1..].iter().all(|&w| w == 0) {
            Width::U64
        } else if bits + length_bits <= 128 {
            Width::U128
        } else {
            Width::Words
        };
        let type_of = |sym: usize| order[sym];
        let type_starts = (0..=types)
            .map(|sym| match type_of(sym) {
                t if t == types => 0,
                t => puzzle.type_range(t).start,
            })
            .collect();
        let instance_symbols = (0..puzzle.instances())
            .map(|i| symbol_of[puzzle.instance_type(i)] as u16)
            .collect();
        // A trail for one-word ranks on boards whose cells and symbols
        // count in 16 bits (see `decode_u64`); none otherwise.
        let trail = if width != Width::U64 || open.len() >= u16::MAX as usize {
            Trail::default()
        } else {
            Trail {
                key: None,
                before: vec![0; length as usize + 1],
                m: vec![0; length as usize + 1],
                left: vec![0; (length as usize + 1) * (types + 1)],
                at: vec![0; open.len() + 1],
                placed: vec![0; length as usize + 1],
                last: 0,
            }
        };
        let mut open_index = vec![0u16; board.len()];
        for (k, &c) in open.iter().enumerate() {
            open_index[c as usize] = k as u16;
        }
        RankEncoding {
            open,
            counts: counts.clone(),
            space: symbol_of[types],
            shapes: (0..=types)
                .map(|sym| match type_of(sym) {
                    t if t == types => Vec::new(),
                    t => shapes.cells(t).to_vec(),
                })
                .collect(),
            type_starts,
            instance_symbols,
            bound,
            bits,
            width,
            length: length as usize,
            length_bits,
            divisors,
            remaining: counts,
            m: vec![0; words + 1],
            tmp: vec![0; words + 1],
            rest: vec![0; words + 1],
            next_instance: vec![0; types + 1],
            filled: vec![0; board.len()],
            generation: 0,
            trail,
            open_index,
        }
    }

    /// The combinatorial bound: the number of permutations of the multiset of
    /// blocks and spaces (thesis §1.2.1), as little-endian words.
    pub fn bound(&self) -> &[u64] {
        &self.bound
    }

    /// The bound as a real number (rounded where it passes 2^53).
    pub fn bound_f64(&self) -> f64 {
        (self.bound.iter().rev()).fold(0.0, |acc, &w| acc * 2f64.powi(64) + w as f64)
    }

    fn space(&self) -> usize {
        self.space
    }

    #[inline]
    fn symbol_at(&self, state: &State, cell: usize) -> Option<usize> {
        let o = state.owner[cell];
        if o == NO_OWNER {
            Some(self.space())
        } else if state.anchors[o as usize] as usize == cell {
            Some(self.instance_symbols[o as usize] as usize)
        } else {
            None
        }
    }

    fn encode_u64(&mut self, state: &State) -> u64 {
        self.remaining.copy_from_slice(&self.counts);
        let n = self.length;
        self.rank_tail(state, 0, n, self.bound[0])
    }

    /// As [`Self::encode_u64`] for ranks of 65 to about 120 bits: `u128`
    /// arithmetic with exact division by multiplication, no multi-word loops.
    fn encode_u128(&mut self, state: &State) -> u128 {
        self.remaining.copy_from_slice(&self.counts);
        let n = self.length;
        let m = words::low_u128(&self.bound);
        self.rank_tail(state, 0, n, m)
    }

    /// True when `m` (its low `significant` words) times any count of
    /// symbols fits 128 bits: the rest of a rank can then be done in `u128`.
    fn fits_u128(&self, m: &[u64], significant: usize) -> bool {
        significant <= 2 && words::bit_length(&m[..significant]) + self.length_bits <= 128
    }

    /// The part of the rank contributed by the open cells from `first` on,
    /// given `m`, the multinomial of the `n` symbols still to place.
    fn rank_tail<W: RankWord>(&mut self, state: &State, first: usize, n: usize, m: W) -> W {
        self.rank_cells(state, first..self.open.len(), n, m)
    }

    /// The terms of the open cells `cells` (indices into `open`), given
    /// `m`, the multinomial of the `n` symbols still to place before the
    /// first, and their counts in `remaining` (which it uses up).
    fn rank_cells<W: RankWord>(
        &mut self,
        state: &State,
        cells: std::ops::Range<usize>,
        mut n: usize,
        mut m: W,
    ) -> W {
        let mut rank = W::ZERO;
        for k in cells {
            if m == W::ONE {
                break; // one kind of symbol left: it adds nothing to the rank
            }
            let cell = self.open[k] as usize;
            let Some(sym) = self.symbol_at(state, cell) else {
                continue;
            };
            let prefix: u32 = self.remaining[..sym].iter().sum();
            let d = self.divisors[n];
            rank += m.scale(prefix, d);
            m = m.scale(self.remaining[sym], d);
            self.remaining[sym] -= 1;
            n -= 1;
        }
        rank
    }

    /// Starts a multi-word ranking or unranking: every symbol remaining, `m`
    /// at the bound, `rest` zero. Returns the number of cells to place.
    #[inline]
    fn reset_wide(&mut self) -> u64 {
        self.remaining.copy_from_slice(&self.counts);
        let w = self.bound.len();
        self.m[..w].copy_from_slice(&self.bound);
        self.m[w] = 0;
        self.rest.fill(0);
        self.length as u64
    }

    /// Multi-word ranking. `m` shrinks cell by cell, so the arithmetic runs
    /// over its significant words only, and once `m` fits the 128-bit path
    /// the rest of the board is ranked there.
    fn encode_wide(&mut self, state: &State, key: &mut [u64]) {
        let mut n = self.reset_wide();
        let w = self.bound.len();
        let mut significant = w;
        for k in 0..self.open.len() {
            if self.fits_u128(&self.m, significant) {
                let m = words::low_u128(&self.m);
                let tail = self.rank_tail(state, k, n as usize, m);
                words::add(&mut self.rest, &[tail as u64, (tail >> 64) as u64]);
                break;
            }
            let cell = self.open[k] as usize;
            let Some(sym) = self.symbol_at(state, cell) else {
                continue;
            };
            let prefix: u32 = self.remaining[..sym].iter().sum();
            let d = self.divisors[n as usize];
            let len = (significant + 1).min(self.m.len());
            if prefix > 0 {
                self.tmp[..len].copy_from_slice(&self.m[..len]);
                words::mul_small(&mut self.tmp[..len], prefix as u64);
                words::div_exact(&mut self.tmp[..len], d);
                words::add(&mut self.rest, &self.tmp[..len]);
            }
            words::mul_small(&mut self.m[..len], self.remaining[sym] as u64);
            words::div_exact(&mut self.m[..len], d);
            significant = significant_words(&self.m[..len]);
            self.remaining[sym] -= 1;
            n -= 1;
        }
        let kw = key.len();
        key.copy_from_slice(&self.rest[..kw]);
    }

    /// Starts a refill of the board: clears the owner map and fill marks.
    fn begin_fill(&mut self, state: &mut State) {
        state.owner.fill(NO_OWNER);
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.filled.fill(0);
            self.generation = 1;
        }
        self.next_instance.copy_from_slice(&self.type_starts);
    }

    /// Puts `sym` on the first unfilled open cell at or after `cursor`.
    #[inline]
    fn place(&mut self, state: &mut State, cursor: &mut usize, sym: usize) {
        let g = self.generation;
        while self.filled[self.open[*cursor] as usize] == g {
            *cursor += 1;
        }
        let cell = self.open[*cursor] as usize;
        if sym == self.space() {
            self.filled[cell] = g;
        } else {
            let i = self.next_instance[sym];
            self.next_instance[sym] += 1;
            state.anchors[i] = cell as u16;
            for &off in &self.shapes[sym] {
                let c = (cell as i32 + off) as usize;
                self.filled[c] = g;
                state.owner[c] = i as u16;
            }
        }
    }

    /// Decodes a one-word rank, leaving its [`Trail`] for its successors.
    fn decode_u64(&mut self, rank: u64, state: &mut State) {
        self.begin_fill(state);
        self.remaining.copy_from_slice(&self.counts);
        let n = self.length;
        self.trail.key = None;
        if self.trail.at.is_empty() {
            // No trail (its cells and symbols are 16-bit: none on a board
            // of 65,535 open cells or more).
            self.unrank_tail::<u64, false>(state, 0, n, self.bound[0], rank, rank);
            return;
        }
        self.unrank_tail::<u64, true>(state, 0, n, self.bound[0], rank, rank);
        self.trail.key = Some(rank);
    }

    fn decode_u128(&mut self, rank: u128, state: &mut State) {
        self.begin_fill(state);
        self.remaining.copy_from_slice(&self.counts);
        let n = self.length;
        let m = words::low_u128(&self.bound);
        self.unrank_tail::<u128, false>(state, 0, n, m, rank, 0);
    }

    /// Writes the trail's entry for the `j`-th symbol placed (`left` of
    /// the rank still to place, `m` the multinomial of the symbols left).
    #[inline]
    fn mark_trail(&mut self, j: usize, key: u64, left: u64, m: u64) {
        let symbols = self.counts.len();
        let t = &mut self.trail;
        t.before[j] = key - left;
        t.m[j] = m;
        for (to, &from) in t.left[j * symbols..(j + 1) * symbols]
            .iter_mut()
            .zip(&self.remaining)
        {
            *to = from as u16;
        }
    }

    /// Sets `remaining` to the counts the trail holds before its `j`-th
    /// symbol placed.
    fn restore_left(&mut self, j: usize) {
        let symbols = self.counts.len();
        let row = &self.trail.left[j * symbols..(j + 1) * symbols];
        for (to, &from) in self.remaining.iter_mut().zip(row) {
            *to = from as u32;
        }
    }

    /// Places the last `n` symbols from `cursor` on, given their multinomial
    /// `m` and what is left of the rank; with `TRAIL` (one-word ranks)
    /// writes the [`Trail`] of the whole rank `key` as it goes.
    fn unrank_tail<W: RankWord, const TRAIL: bool>(
        &mut self,
        state: &mut State,
        mut cursor: usize,
        mut n: usize,
        mut m: W,
        mut rank: W,
        key: u64,
    ) {
        let space = self.space();
        let mut unmarked = cursor;
        while n > 0 {
            if self.remaining[space] as usize == n {
                break; // only spaces left: the owner map already shows them
            }
            if TRAIL {
                self.mark_trail(self.length - n, key, rank.low(), m.low());
            }
            let d = self.divisors[n];
            let mut sym = 0;
            loop {
                let c = self.remaining[sym];
                if c > 0 {
                    let block = m.scale(c, d);
                    if rank < block {
                        m = block;
                        break;
                    }
                    rank -= block;
                }
                sym += 1;
            }
            self.place(state, &mut cursor, sym);
            if TRAIL {
                let j = self.length - n;
                self.trail.at[unmarked..=cursor].fill(j as u16);
                self.trail.placed[j] = cursor as u16;
                unmarked = cursor + 1;
            }
            self.remaining[sym] -= 1;
            n -= 1;
        }
        if TRAIL {
            let j = self.length - n;
            self.mark_trail(j, key, rank.low(), m.low());
            self.trail.at[unmarked..].fill(j as u16);
            self.trail.placed[j] = unmarked as u16;
            self.trail.last = j;
        }
    }

    /// Decodes one-word `rank` into `state`, which holds the position of
    /// the trail's rank: the symbols both ranks start with stay where they
    /// are, the rest are taken off and placed again from the trail's state
    /// before the first that differs. A BFS layer's parents (siblings, or
    /// the dense array's ranks in order) share long starts.
    fn decode_from_trail(&mut self, rank: u64, state: &mut State) {
        let t = &self.trail;
        let mut j = 0;
        while j < t.last && rank.wrapping_sub(t.before[j + 1]) < t.m[j + 1] {
            j += 1;
        }
        if j * 2 < t.last {
            // A short common start: taking the rest off costs more than a
            // whole decode (the hash BFS's siblings: Four Balls 2.6 s
            // against 2.4 s).
            return self.decode_u64(rank, state);
        }
        let (k, g) = (t.placed[j] as usize, self.generation);
        // Off the board: the blocks placed from cell k on, then the spaces.
        for (i, &anchor) in state.anchors.iter().enumerate() {
            if self.open_index[anchor as usize] as usize >= k {
                for &off in &self.shapes[self.instance_symbols[i] as usize] {
                    let c = (anchor as i32 + off) as usize;
                    state.owner[c] = NO_OWNER;
                    self.filled[c] = g.wrapping_sub(1);
                }
            }
        }
        for &c in &self.open[k..] {
            if state.owner[c as usize] == NO_OWNER {
                self.filled[c as usize] = g.wrapping_sub(1);
            }
        }
        self.restore_left(j);
        for sym in 0..self.counts.len() {
            let placed = (self.counts[sym] - self.remaining[sym]) as usize;
            self.next_instance[sym] = self.type_starts[sym] + placed;
        }
        let (m, before) = (self.trail.m[j], self.trail.before[j]);
        self.trail.key = None;
        self.unrank_tail::<u64, true>(state, k, self.length - j, m, rank - before, rank);
        self.trail.key = Some(rank);
    }

    /// The rank of `state`, which is the position of `parent` after move
    /// `mv`, from the parent's [`Trail`]: the cells from the first the move
    /// touches to the last are ranked again, from the trail's state at the
    /// first; the others keep their terms. `None` when the trail is not
    /// the parent's.
    fn rank_successor(&mut self, parent: u64, mv: Move, state: &State) -> Option<u64> {
        if self.trail.key != Some(parent) {
            return None;
        }
        let sym = self.instance_symbols[mv.instance as usize] as usize;
        let (mut lo, mut hi) = (usize::MAX, 0);
        for anchor in [mv.from, mv.to] {
            for &off in &self.shapes[sym] {
                let k = self.open_index[(anchor as i32 + off) as usize] as usize;
                (lo, hi) = (lo.min(k), hi.max(k));
            }
        }
        let (j, end) = (self.trail.at[lo] as usize, self.trail.at[hi + 1] as usize);
        self.restore_left(j);
        let terms = self.rank_cells(state, lo..hi + 1, self.length - j, self.trail.m[j]);
        // Past the last symbol decoding placed (only spaces were left) the
        // trail's entries are all that last one's: every term there is 0.
        let t = &self.trail;
        Some(parent - (t.before[end] - t.before[j]) + terms)
    }

    fn decode_wide(&mut self, key: &[u64], state: &mut State) {
        self.begin_fill(state);
        let mut n = self.reset_wide();
        let w = self.bound.len();
        self.rest[..key.len()].copy_from_slice(key);
        let mut cursor = 0;
        let space = self.space();
        // As in `encode_wide`: significant words only, then the 128-bit
        // path. The rest of the rank is below `m`, so it fits wherever `m` does.
        let mut significant = w;
        while n > 0 {
            if self.remaining[space] as u64 == n {
                break;
            }
            if self.fits_u128(&self.m, significant) {
                let m = words::low_u128(&self.m);
                let rank = words::low_u128(&self.rest);
                self.unrank_tail::<u128, false>(state, cursor, n as usize, m, rank, 0);
                return;
            }
            let d = self.divisors[n as usize];
            let len = (significant + 1).min(self.m.len());
            let mut sym = 0;
            loop {
                let c = self.remaining[sym];
                if c > 0 {
                    self.tmp[..len].copy_from_slice(&self.m[..len]);
                    words::mul_small(&mut self.tmp[..len], c as u64);
                    words::div_exact(&mut self.tmp[..len], d);
                    if words::cmp(&self.rest[..len], &self.tmp[..len]).is_lt() {
                        std::mem::swap(&mut self.m, &mut self.tmp);
                        significant = significant_words(&self.m[..len]);
                        break;
                    }
                    words::sub(&mut self.rest[..len], &self.tmp[..len]);
                }
                sym += 1;
            }
            self.place(state, &mut cursor, sym);
            self.remaining[sym] -= 1;
            n -= 1;
        }
    }
}

/// Words up to the highest non-zero one (at least one).
fn significant_words(a: &[u64]) -> usize {
    a.iter().rposition(|&w| w != 0).map_or(1, |i| i + 1)
}

/// Words needed to hold the multinomial of `counts` (with a little headroom).
fn multinomial_words(counts: &[u32]) -> usize {
    // log2(n!/prod c!) <= sum over symbols of c * log2(n / c) + 1.
    let n: f64 = counts.iter().map(|&c| c as f64).sum();
    let bits: f64 = counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| c as f64 * (n / c as f64).log2())
        .sum();
    ((bits as usize + 2) / 64) + 1
}

impl PositionEncoding for RankEncoding {
    fn name(&self) -> &'static str {
        "rank"
    }

    fn key_bits(&self) -> u32 {
        self.bits
    }

    #[inline]
    fn encode(&mut self, state: &State, key: &mut [u64]) {
        match self.width {
            Width::U64 => key[0] = self.encode_u64(state),
            Width::U128 => {
                let rank = self.encode_u128(state);
                key[0] = rank as u64;
                key[1] = (rank >> 64) as u64;
            }
            Width::Words => self.encode_wide(state, key),
        }
    }

    /// One-word ranks from the parent's [`Trail`] (the cells the move
    /// touches, and those between, ranked again: the 10^7 bench's
    /// successors rank 5 of 12 cells at most); others from scratch.
    #[inline]
    fn encode_successor(&mut self, parent: &[u64], m: Move, state: &State, key: &mut [u64]) {
        if self.width == Width::U64 {
            if let Some(rank) = self.rank_successor(parent[0], m, state) {
                debug_assert_eq!(rank, self.encode_u64(state), "{m:?}");
                key[0] = rank;
                return;
            }
        }
        self.encode(state, key);
    }

    /// One-word ranks from the trail of `previous` (the symbols both start
    /// with kept); others from scratch.
    #[inline]
    fn decode_after(&mut self, previous: &[u64], key: &[u64], state: &mut State) {
        if self.width == Width::U64 && self.trail.key == Some(previous[0]) {
            self.decode_from_trail(key[0], state);
        } else {
            self.decode(key, state);
        }
    }

    #[inline]
    fn decode(&mut self, key: &[u64], state: &mut State) {
        match self.width {
            Width::U64 => self.decode_u64(key[0], state),
            Width::U128 => self.decode_u128(words::low_u128(key), state),
            Width::Words => self.decode_wide(key, state),
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::moves::MoveGenerator;
    use crate::params::Metric;

    /// A successor's rank from the parent's trail equals its rank from
    /// scratch, and a key decoded from the trail of the one before equals
    /// its decode from scratch: along random walks, in both metrics, on
    /// tile and block boards (the bench, Klotski, Layton's Four Balls, the
    /// 15-puzzle) and random boxes; at most 64 successors a step.
    #[test]
    fn the_trail_ranks_and_decodes_as_from_scratch() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let files = [
            "bench/bench_1e7.txt",
            "klotski/classic.txt",
            "klotski/red_donkey.txt",
            "layton/four_balls.txt",
            "tiles/korf_01.txt",
        ];
        let puzzles = crate::search::test_boxes::bundled_and_boxes(&files, 30, &mut rng);
        let mut checked = 0;
        for puzzle in &puzzles {
            for metric in [Metric::Steps, Metric::Moves] {
                let mut moves = MoveGenerator::new(puzzle, metric, &[]);
                let mut trail = RankEncoding::new(puzzle, moves.shapes());
                if trail.width != Width::U64 {
                    continue;
                }
                let mut scratch = trail.clone();
                let mut state = State::new(puzzle);
                state.load(&puzzle.start, moves.shapes());
                let (mut key, mut child, mut whole) = ([0u64], [0u64], [0u64]);
                trail.encode(&state, &mut key);
                let mut decoded = state.clone();
                trail.decode(&key, &mut decoded);
                let mut list = Vec::new();
                for _ in 0..150 {
                    moves.generate(&decoded, &mut list);
                    if list.is_empty() {
                        break;
                    }
                    for &m in list.iter().take(64) {
                        moves.apply(&mut decoded, m);
                        trail.encode_successor(&key, m, &decoded, &mut child);
                        scratch.encode(&decoded, &mut whole);
                        assert_eq!(child, whole, "{m:?} in {puzzle:?}");
                        moves.undo(&mut decoded, m);
                        checked += 1;
                    }
                    let m = list[rng.gen_range(0..list.len())];
                    moves.apply(&mut decoded, m);
                    scratch.encode(&decoded, &mut child);
                    moves.undo(&mut decoded, m);
                    let previous = key;
                    trail.decode_after(&previous, &child, &mut decoded);
                    let mut fresh = decoded.clone();
                    scratch.decode(&child, &mut fresh);
                    assert_eq!(decoded, fresh, "decoded after {previous:?} in {puzzle:?}");
                    key = child;
                }
            }
        }
        assert!(checked > 50_000, "{checked} successors checked");
    }
}
