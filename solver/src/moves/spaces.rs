//! Finding the empty cells that have a block beside them, with bit masks.
//!
//! Space-driven generation needs, for each empty open cell next to a block,
//! the blocks beside it. Looking at every open cell and its four neighbours
//! costs most on boards with many spaces that no block touches: Sunshine has
//! 315 open cells, about 95 of them empty, 85 of those door cells beyond the
//! frame whose neighbours are doors and walls. Here the empty and the
//! occupied cells become bit masks (one compare per cell, no branch), the
//! occupied mask is shifted onto each neighbour direction, and only the empty
//! cells with an occupied neighbour are visited, in cell order as before.

use super::{NONE, NO_OWNER};

/// Most cells the masks cover (8 words, so that the per-position arrays
/// stay small); larger boards scan cell by cell.
pub const MAX_CELLS: usize = 8 * 64;

/// The board's fixed masks: open cells, and per direction the cells that
/// have a neighbour there and how far away in cell indices it lies.
#[derive(Clone, Debug)]
pub struct SpaceMasks {
    words: usize,
    open: Vec<u64>,
    has_neighbor: [Vec<u64>; 4],
    /// Per direction, the neighbour's distance in cells as whole words
    /// and the bits left over, so that the occupied cells are shifted onto
    /// the spaces with a load and a funnel shift per word.
    words_away: [isize; 4],
    bits_away: [u32; 4],
    /// Per direction, the neighbour's distance in cells.
    delta: [isize; 4],
    /// The farthest neighbour's distance in cells.
    reach: usize,
}

/// Zero words on each side of the occupied cells' words: a neighbour is at
/// most one row away, and a row of a board that the masks cover is at
/// most [`MAX_CELLS`] cells.
const PAD: usize = MAX_CELLS / 64 + 1;

impl SpaceMasks {
    /// Masks for a board of `cells` cells with these open cells and this
    /// neighbour table; `None` when the board is too large or a direction's
    /// neighbour is not at one fixed index offset (row-major boards always are).
    pub fn new(cells: usize, open: &[u16], neighbor: &[[u16; 4]]) -> Option<SpaceMasks> {
        if cells > MAX_CELLS {
            return None;
        }
        let words = cells.div_ceil(64);
        let mut masks = SpaceMasks {
            words,
            open: vec![0; words],
            has_neighbor: std::array::from_fn(|_| vec![0; words]),
            words_away: [0; 4],
            bits_away: [0; 4],
            delta: [0; 4],
            reach: 0,
        };
        for &c in open {
            set(&mut masks.open, c as usize);
        }
        for k in 0..4 {
            let mut delta = None;
            for (c, n) in neighbor.iter().enumerate() {
                if n[k] == NONE {
                    continue;
                }
                let d = n[k] as isize - c as isize;
                if *delta.get_or_insert(d) != d {
                    return None;
                }
                set(&mut masks.has_neighbor[k], c);
            }
            let delta = delta.unwrap_or(0);
            masks.delta[k] = delta;
            masks.words_away[k] = delta.div_euclid(64);
            masks.bits_away[k] = delta.rem_euclid(64) as u32;
            masks.reach = masks.reach.max(delta.unsigned_abs());
        }
        Some(masks)
    }

    /// Calls `visit(cell)`, in increasing cell order, for every empty open
    /// cell with an occupied cell beside it (with `FROM`, from `first` on);
    /// `owner` is the state's map.
    #[inline]
    pub fn touched_spaces<const FROM: bool>(
        &self,
        owner: &[u16],
        first: usize,
        mut visit: impl FnMut(usize),
    ) {
        let (skipped, empty, occupied) = self.split_from::<FROM>(owner, first);
        let mut touched = [0u64; MAX_CELLS / 64];
        for k in 0..4 {
            let words = self.beside(&empty, &occupied, k, skipped);
            for (t, b) in touched[skipped..].iter_mut().zip(words) {
                *t |= b;
            }
        }
        for (i, &bits) in touched[..self.words].iter().enumerate().skip(skipped) {
            let mut b = bits;
            while b != 0 {
                visit(i * 64 + b.trailing_zeros() as usize);
                b &= b - 1;
            }
        }
    }

    /// Calls `visit(cell, k, vacated)` for every occupied cell with an
    /// empty open cell beside it in direction `k` (an index into
    /// `Direction::ALL`), direction after direction, in increasing order of
    /// the empty cell within one, those in `vacated` (bits) after the rest
    /// of their word and with `vacated` true; with `FROM`, only the empty
    /// cells from `first` on. No look at the neighbour table or the owner
    /// map decides a visit: each is an occupied cell facing a space.
    /// (`FROM` makes two copies: with the words to skip decided at run
    /// time, the whole board's scan cost Ithaca's count 3% more
    /// instructions.)
    #[inline]
    pub fn sides_facing_spaces<const FROM: bool>(
        &self,
        owner: &[u16],
        first: usize,
        vacated: &[u64; MAX_CELLS / 64],
        mut visit: impl FnMut(usize, usize, bool),
    ) {
        let (skipped, empty, occupied) = self.split_from::<FROM>(owner, first);
        for k in 0..4 {
            let delta = self.delta[k];
            // The cell beside the space in direction k faces it the
            // opposite way (Up/Down and Left/Right pair up).
            let mut facing = |mut b: u64, word: usize, into_vacated: bool| {
                while b != 0 {
                    let space = word * 64 + b.trailing_zeros() as usize;
                    b &= b - 1;
                    visit((space as isize + delta) as usize, k ^ 1, into_vacated);
                }
            };
            let words = self.beside(&empty, &occupied, k, skipped);
            for (i, (b, v)) in (skipped..).zip(words.zip(&vacated[skipped..])) {
                facing(b & !v, i, false);
                if b & v != 0 {
                    facing(b & v, i, true);
                }
            }
        }
    }

    /// [`SpaceMasks::split`] for a scan of the empty cells from `first` on
    /// (with `FROM`; else from the first): the first word to scan, the
    /// empty cells from `first` on, and the occupied cells beside them
    /// (those from a neighbour's distance before `first`'s word on).
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    fn split_from<const FROM: bool>(
        &self,
        owner: &[u16],
        first: usize,
    ) -> (
        usize,
        [u64; MAX_CELLS / 64],
        [u64; PAD + MAX_CELLS / 64 + PAD],
    ) {
        let first = if FROM { first } else { 0 };
        let (skipped, bit) = (first / 64, first % 64);
        let (mut empty, occupied) = self.split(owner, first.saturating_sub(self.reach) / 64);
        if let Some(word) = empty.get_mut(skipped) {
            *word &= u64::MAX << bit;
        }
        (skipped, empty, occupied)
    }

    /// The empty open cells, and the occupied ones between zero words
    /// (see [`PAD`]), from word `from` on (the words before it zero).
    #[inline(always)]
    fn split(
        &self,
        owner: &[u16],
        from: usize,
    ) -> ([u64; MAX_CELLS / 64], [u64; PAD + MAX_CELLS / 64 + PAD]) {
        let mut empty = [0u64; MAX_CELLS / 64];
        let mut occupied = [0u64; PAD + MAX_CELLS / 64 + PAD];
        for (i, chunk) in owner.chunks(64).enumerate().skip(from) {
            let free = free_mask(chunk);
            empty[i] = free & self.open[i];
            occupied[PAD + i] = !free & self.open[i];
        }
        (empty, occupied)
    }

    /// The words of the empty cells with an occupied cell beside them in
    /// direction `k`, in order, from word `from` on.
    #[inline(always)]
    fn beside<'a>(
        &'a self,
        empty: &'a [u64; MAX_CELLS / 64],
        occupied: &'a [u64; PAD + MAX_CELLS / 64 + PAD],
        k: usize,
        from: usize,
    ) -> impl Iterator<Item = u64> + 'a {
        let at = (PAD as isize + self.words_away[k]) as usize;
        let r = self.bits_away[k];
        let words = self.words;
        empty[from..words]
            .iter()
            .zip(&self.has_neighbor[k][from..words])
            .zip(occupied[at + from..at + words + 1].windows(2))
            .map(move |((&e, &n), pair)| e & n & shifted(pair, r))
    }
}

/// Bit `j` set where `chunk[j]` (up to 64 cells of an owner map) is
/// empty. On x86_64 sixteen cells at a time with SSE2 (part of every
/// x86_64 processor): a compare, a pack and a byte mask, where the loop of
/// one cell at a time took 2,000 of Sunshine's 17,000 instructions per
/// position (374 cells). The cells after the last whole sixteen are read
/// with the sixteen that end the chunk (some read twice): one at a time,
/// the 14 after the first 16 of a 30-cell board made the small boards'
/// step check (`edges`) slower than the cell looks it replaced.
#[inline]
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
pub(super) fn free_mask(chunk: &[u16]) -> u64 {
    let mut free = 0u64;
    let mut j = 0;
    #[cfg(target_arch = "x86_64")]
    {
        while j + 16 <= chunk.len() {
            free |= free16(&chunk[j..j + 16]) << j;
            j += 16;
        }
        if j < chunk.len() && chunk.len() >= 16 {
            let from = chunk.len() - 16;
            free |= free16(&chunk[from..]) >> (j - from) << j;
            j = chunk.len();
        }
    }
    for (k, &o) in chunk[j..].iter().enumerate() {
        free |= ((o == NO_OWNER) as u64) << (j + k);
    }
    free
}

/// Bit `j` set where `cells[j]` (16 cells) is empty: a compare, a pack and
/// a byte mask with SSE2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn free16(cells: &[u16]) -> u64 {
    use std::arch::x86_64::*;
    assert_eq!(cells.len(), 16);
    // SAFETY: SSE2 is part of the x86_64 baseline; the two loads read the
    // 16 cells of `cells` (checked above), unaligned loads allowed.
    unsafe {
        let none = _mm_set1_epi16(NO_OWNER as i16);
        let p = cells.as_ptr() as *const __m128i;
        let lo = _mm_cmpeq_epi16(_mm_loadu_si128(p), none);
        let hi = _mm_cmpeq_epi16(_mm_loadu_si128(p.add(1)), none);
        _mm_movemask_epi8(_mm_packs_epi16(lo, hi)) as u32 as u64
    }
}

fn set(mask: &mut [u64], c: usize) {
    mask[c / 64] |= 1 << (c % 64);
}

/// Bits `r..r + 64` of the two words `pair` (low word first): a funnel
/// shift. With `pair` the words `i + q` and `i + q + 1` of a mask's words
/// between [`PAD`] zero words each side, word `i` of the mask whose bit `c`
/// is bit `c + d` of it, for `d` of `q` whole words and `r` bits
/// (`d = 64 q + r`, `0 <= r < 64`).
#[inline(always)]
fn shifted(pair: &[u64], r: u32) -> u64 {
    let pair = (pair[1] as u128) << 64 | pair[0] as u128;
    (pair >> r) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_mask_marks_the_empty_cells() {
        for len in [1, 15, 16, 17, 31, 32, 50, 64] {
            let chunk: Vec<u16> = (0..len)
                .map(|j| {
                    if j % 3 == 0 || j == 17 {
                        NO_OWNER
                    } else {
                        j as u16
                    }
                })
                .collect();
            let want = (0..len)
                .filter(|&j| chunk[j] == NO_OWNER)
                .fold(0u64, |m, j| m | 1 << j);
            assert_eq!(free_mask(&chunk), want, "{len} cells");
        }
    }

    #[test]
    fn shifted_reads_bit_c_plus_d() {
        let m = [0b1011u64 << 60, 0b1, 1 << 63];
        let mut padded = [0u64; PAD + MAX_CELLS / 64 + PAD];
        padded[PAD..PAD + m.len()].copy_from_slice(&m);
        for d in [-512isize, -70, -17, -1, 0, 1, 3, 17, 64, 65, 512] {
            let (q, r) = (d.div_euclid(64), d.rem_euclid(64) as u32);
            for c in 0..192isize {
                let want = (0..192).contains(&(c + d)) && {
                    let b = (c + d) as usize;
                    (m[b / 64] >> (b % 64)) & 1 == 1
                };
                let at = (PAD as isize + q + c / 64) as usize;
                let got = (shifted(&padded[at..at + 2], r) >> (c % 64)) & 1 == 1;
                assert_eq!(got, want, "c={c} d={d}");
            }
        }
    }
}
