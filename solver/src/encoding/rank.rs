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
use crate::moves::{ShapeTable, State, NO_OWNER};

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
}

impl RankWord for u64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    #[inline]
    fn scale(self, count: u32, d: ExactDivisor) -> Self {
        d.divide_to_u64(self as u128 * count as u128)
    }
}

impl RankWord for u128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    #[inline]
    fn scale(self, count: u32, d: ExactDivisor) -> Self {
        d.divide(self * count as u128)
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
    fn rank_tail<W: RankWord>(&mut self, state: &State, first: usize, mut n: usize, mut m: W) -> W {
        let mut rank = W::ZERO;
        for k in first..self.open.len() {
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

    fn decode_u64(&mut self, rank: u64, state: &mut State) {
        self.begin_fill(state);
        self.remaining.copy_from_slice(&self.counts);
        let n = self.length;
        self.unrank_tail(state, 0, n, self.bound[0], rank);
    }

    fn decode_u128(&mut self, rank: u128, state: &mut State) {
        self.begin_fill(state);
        self.remaining.copy_from_slice(&self.counts);
        let n = self.length;
        let m = words::low_u128(&self.bound);
        self.unrank_tail(state, 0, n, m, rank);
    }

    /// Places the last `n` symbols from `cursor` on, given their multinomial
    /// `m` and what is left of the rank.
    fn unrank_tail<W: RankWord>(
        &mut self,
        state: &mut State,
        mut cursor: usize,
        mut n: usize,
        mut m: W,
        mut rank: W,
    ) {
        let space = self.space();
        while n > 0 {
            if self.remaining[space] as usize == n {
                break; // only spaces left: the owner map already shows them
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
            self.remaining[sym] -= 1;
            n -= 1;
        }
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
                self.unrank_tail(state, cursor, n as usize, m, rank);
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

    #[inline]
    fn decode(&mut self, key: &[u64], state: &mut State) {
        match self.width {
            Width::U64 => self.decode_u64(key[0], state),
            Width::U128 => self.decode_u128(words::low_u128(key), state),
            Width::Words => self.decode_wide(key, state),
        }
    }
}
