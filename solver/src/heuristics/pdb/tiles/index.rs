//! The perfect hash of a tile pattern's table: a placement of the pattern's
//! k tiles on the n open cells is numbered by the set of cells they occupy
//! (its rank among the k-subsets in colex order, below C(n, k)) times k!
//! plus the order of the tiles on those cells (the Lehmer rank of each
//! tile's position within the set, below k!): n!/(n-k)! numbers in all, the
//! same count as a plain k-permutation rank.
//!
//! Why this order: the free cells, and so the blank's regions, depend only
//! on the set, so the fast builder ([`super::layers`]) works on whole
//! blocks of k! entries that share a set. A move changes the set and shifts
//! the positions of the tiles between its two cells the same way for every
//! entry of a block, so it maps a block onto a block through one table.

use super::rank::{entries, rank};

/// The most tiles a pattern may have (larger tables do not fit memory).
pub const MAX_TILES: usize = 16;

/// Numbers placements of k tiles on a board's open cells.
#[derive(Clone, Debug)]
pub struct PatternIndex {
    open: u64,
    k: usize,
    /// k!: entries per set.
    perms: u64,
    /// C(n, k): the number of sets.
    sets: u64,
    /// `binom[p][j]` = C(p, j), for p up to 64 and j up to k.
    binom: Vec<[u64; MAX_TILES + 1]>,
}

impl PatternIndex {
    /// The index of `k` tiles on the `open` cells; `None` when the table
    /// would have more than `u64` entries or k is above [`MAX_TILES`].
    pub fn new(open: u64, k: usize) -> Option<PatternIndex> {
        let n = open.count_ones();
        if k > MAX_TILES || k as u32 > n {
            return None;
        }
        let perms = entries(k as u32, k as u32)?;
        let mut binom = vec![[0u64; MAX_TILES + 1]; 65];
        for p in 0..=64 {
            binom[p][0] = 1;
            for j in 1..=k.min(p) {
                binom[p][j] =
                    binom[p - 1][j - 1].saturating_add(if j < p { binom[p - 1][j] } else { 0 });
            }
        }
        let sets = binom[n as usize][k];
        sets.checked_mul(perms)?;
        Some(PatternIndex {
            open,
            k,
            perms,
            sets,
            binom,
        })
    }

    /// Number of entries: C(n, k) k! = n!/(n-k)!.
    pub fn len(&self) -> u64 {
        self.sets * self.perms
    }

    /// True for a table without entries (never: k <= n).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of cell sets, C(n, k).
    pub fn sets(&self) -> u64 {
        self.sets
    }

    /// Entries per set, k!.
    pub fn perms(&self) -> u64 {
        self.perms
    }

    /// The index of tiles 0..k at `cells` (board cells, distinct, open).
    #[inline]
    pub fn index(&self, cells: &[u32]) -> u64 {
        let mut set = 0u64;
        for &c in cells {
            set |= 1 << c;
        }
        self.set_rank(set) * self.perms + self.order_rank(set, cells)
    }

    /// The colex rank of a set of `k` open board cells.
    #[inline]
    pub fn set_rank(&self, set: u64) -> u64 {
        let (mut rest, mut r, mut j) = (set, 0u64, 1usize);
        while rest != 0 {
            let c = rest.trailing_zeros();
            r += self.binom[self.open_index(c) as usize][j];
            rest &= rest - 1;
            j += 1;
        }
        r
    }

    /// The rank of the order of the tiles at `cells` on their set `set`:
    /// the Lehmer rank of each tile's position among the set's cells.
    #[inline]
    pub fn order_rank(&self, set: u64, cells: &[u32]) -> u64 {
        let positions = cells
            .iter()
            .map(|&c| (set & ((1u64 << c) - 1)).count_ones());
        rank(positions, (1u64 << self.k) - 1, self.k as u32)
    }

    /// The set of open board cells of colex rank `r`.
    pub fn set_of(&self, mut r: u64) -> u64 {
        let n = self.open.count_ones() as usize;
        let mut open_bits = 0u64;
        let mut top = n;
        for j in (1..=self.k).rev() {
            let mut p = top - 1;
            while self.binom[p][j] > r {
                p -= 1;
            }
            r -= self.binom[p][j];
            open_bits |= 1 << p;
            top = p;
        }
        deposit(open_bits, self.open)
    }

    /// The cells of tiles 0..k at `index`, written into `cells`.
    pub fn cells(&self, index: u64, cells: &mut [u32]) {
        let set = self.set_of(index / self.perms);
        let mut positions = [0u32; MAX_TILES];
        super::rank::unrank(
            index % self.perms,
            self.k,
            (1u64 << self.k) - 1,
            self.k as u32,
            &mut positions[..self.k],
        );
        for (c, &p) in cells.iter_mut().zip(&positions[..self.k]) {
            *c = bits(set).nth(p as usize).unwrap_or(0);
        }
    }

    /// The position of `cell` among the open cells.
    #[inline]
    fn open_index(&self, cell: u32) -> u32 {
        (self.open & ((1u64 << cell) - 1)).count_ones()
    }
}

/// The bits of `compact` (bit i for the i-th set bit of `mask`) spread onto `mask`.
fn deposit(mut compact: u64, mask: u64) -> u64 {
    let mut out = 0u64;
    for c in bits(mask) {
        if compact & 1 == 1 {
            out |= 1 << c;
        }
        compact >>= 1;
    }
    out
}

/// The set bits of a bitboard, lowest first.
#[inline]
pub fn bits(mut set: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros();
            set &= set - 1;
            c
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_cells_are_inverse_and_dense_with_walls() {
        // Open cells 1, 2, 4, 5, 7, 9 (a wall at 3, 6 and 8), 3 tiles: 120 entries.
        let open = 0b10_1011_0110u64;
        let index = PatternIndex::new(open, 3).expect("small");
        assert_eq!((index.len(), index.sets(), index.perms()), (120, 20, 6));
        let mut seen = [false; 120];
        let mut cells = [0u32; 3];
        for i in 0..120 {
            index.cells(i, &mut cells);
            assert!(cells.iter().all(|&c| open >> c & 1 == 1), "{cells:?}");
            assert_eq!(index.index(&cells), i);
            assert!(!std::mem::replace(&mut seen[i as usize], true));
        }
        // A block of k! entries shares its set.
        let set = |i| {
            let mut cells = [0u32; 3];
            index.cells(i, &mut cells);
            cells.iter().fold(0u64, |m, &c| m | 1 << c)
        };
        assert!((0..6).all(|i| set(i) == set(0)) && set(6) != set(0));
        assert_eq!(
            PatternIndex::new(0xFFFF, 8).map(|i| i.len()),
            Some(518_918_400)
        );
        assert!(PatternIndex::new(0b111, 4).is_none());
    }
}
