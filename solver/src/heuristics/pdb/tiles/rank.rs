//! The perfect hash of a tile pattern's table: the rank of the ordered
//! cells its k tiles occupy among the board's n open cells, a number below
//! n!/(n-k)! (a k-permutation of n, in Lehmer-code order). Cells are board
//! cells (at most 64, so sets of them are `u64` bitboards); a cell's digit is
//! the number of open cells below it that no earlier tile holds, one
//! popcount, so ranking costs k steps and no table.

/// Ranks `cells` (board cells, distinct, all in `open`) among the `n` open cells.
#[inline]
pub fn rank(cells: impl Iterator<Item = u32>, open: u64, n: u32) -> u64 {
    let mut avail = open;
    let mut index = 0u64;
    for (i, c) in cells.enumerate() {
        let below = avail & ((1u64 << c) - 1);
        index = index * u64::from(n - i as u32) + u64::from(below.count_ones());
        avail &= !(1u64 << c);
    }
    index
}

/// The cells of `index` for `k` tiles, written into `cells` (the inverse of [`rank`]).
pub fn unrank(mut index: u64, k: usize, open: u64, n: u32, cells: &mut [u32]) {
    let mut digits = [0u32; 64];
    for i in (0..k).rev() {
        let base = u64::from(n - i as u32);
        digits[i] = (index % base) as u32;
        index /= base;
    }
    let mut avail = open;
    for i in 0..k {
        let mut rest = avail;
        for _ in 0..digits[i] {
            rest &= rest - 1;
        }
        let c = rest.trailing_zeros();
        cells[i] = c;
        avail &= !(1u64 << c);
    }
}

/// Entries of a table of `k` tiles on `n` open cells: n!/(n-k)!, `None`
/// past `u64`.
pub fn entries(n: u32, k: u32) -> Option<u64> {
    if k > n {
        return None;
    }
    (0..k).try_fold(1u64, |acc, i| acc.checked_mul(u64::from(n - i)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse_and_dense() {
        // Open cells 1, 2, 4, 5, 7 (n = 5), k = 3: 60 ranks, each once.
        let open = 0b1011_0110u64;
        let mut seen = vec![false; entries(5, 3).unwrap() as usize];
        let mut cells = [0u32; 3];
        for index in 0..seen.len() as u64 {
            unrank(index, 3, open, 5, &mut cells);
            assert!(cells.iter().all(|&c| open >> c & 1 == 1));
            let back = rank(cells.iter().copied(), open, 5);
            assert_eq!(back, index);
            assert!(!seen[back as usize]);
            seen[back as usize] = true;
        }
        assert_eq!(entries(16, 6), Some(5_765_760));
        assert_eq!(entries(3, 4), None);
    }
}
