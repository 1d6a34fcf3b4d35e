//! One block type's places as a single number: the rank of the set of its
//! instances' domain indices among all sets of that size (the
//! combinatorial number system: for sorted `c_0 < c_1 < ... < c_{k-1}`,
//! the rank is `C(c_0, 1) + C(c_1, 2) + ... + C(c_{k-1}, k)`). Where a
//! type has many interchangeable blocks this is far narrower than a field
//! per block: Sunshine's 29 unit squares over 225 cells take 122 bits
//! instead of 232, and its key 5 words instead of 9.
//!
//! A move changes one index, so a successor's rank is the parent's plus a
//! few terms: those of the moved block and of the blocks it passes in the
//! sorted order (a one-cell step passes few). Unranking takes each index
//! from the previous position's when it still fits (siblings differ in a
//! block or two), and searches from there otherwise.

/// Most entries of a combo's binomial table (1 MiB): a type of 9,998
/// blocks over 10,000 places (the thesis's 100x100 board of unit squares)
/// would need 1.6 GB; such types keep a field per block.
const MAX_TABLE: usize = 1 << 16;

/// A type whose places are kept as one rank, at bit `at` of the key.
#[derive(Clone, Debug)]
pub(super) struct Combo {
    /// Its first instance; the type has `k` instances.
    pub first: usize,
    pub k: usize,
    /// Where its rank starts in the key, and its width (at most 128).
    pub at: u32,
    pub bits: u32,
    /// `binom[j * (n + 1) + c]` = C(c, j) for j up to `k`, c up to the
    /// domain size `n`, saturating at `u128::MAX` (only comparisons reach
    /// those: every term of a rank is below C(n, k)). Shared by the
    /// encoding's clones (one per search thread).
    binom: std::sync::Arc<[u128]>,
    n: usize,
}

impl Combo {
    /// A rank for `k` instances over a domain of `n` places when it fits
    /// 128 bits, takes at least one bit, is narrower than `k` fields of
    /// `field_bits` and its table has at most [`MAX_TABLE`] entries; else
    /// `None`.
    pub fn new(first: usize, k: usize, n: usize, field_bits: u32) -> Option<Combo> {
        if k < 2 || k > n || (k + 1) * (n + 1) > MAX_TABLE {
            return None;
        }
        let mut binom = vec![0u128; (k + 1) * (n + 1)];
        // C(c, 0) = 1.
        binom[..=n].fill(1);
        for j in 1..=k {
            for c in 1..=n {
                let (a, b) = (binom[(j - 1) * (n + 1) + c - 1], binom[j * (n + 1) + c - 1]);
                binom[j * (n + 1) + c] = a.saturating_add(b);
            }
        }
        let total = binom[k * (n + 1) + n];
        // One set only (the blocks fill their places): no bits to keep.
        if total == u128::MAX || total == 1 {
            return None;
        }
        let bits = 128 - (total - 1).leading_zeros();
        (bits < k as u32 * field_bits).then_some(Combo {
            first,
            k,
            at: 0,
            bits,
            binom: binom.into(),
            n,
        })
    }

    /// C(c, j).
    #[inline(always)]
    fn c(&self, c: usize, j: usize) -> u128 {
        self.binom[j * (self.n + 1) + c]
    }

    /// The rank of the sorted, distinct `values`.
    pub fn rank(&self, values: &[u16]) -> u128 {
        values
            .iter()
            .enumerate()
            .map(|(j, &v)| self.c(v as usize, j + 1))
            .sum()
    }

    /// The rank after the value at sorted place `p` of `values` (the
    /// parent's, sorted) changes from `old` to `new`, from the parent's
    /// `rank`: the moved value's term and those of the values it passes,
    /// which shift one place. `value(i)` reads the parent's `i`-th value.
    #[inline]
    pub fn moved(
        &self,
        rank: u128,
        p: usize,
        old: u16,
        new: u16,
        value: impl Fn(usize) -> u16,
    ) -> u128 {
        let mut r = rank - self.c(old as usize, p + 1);
        let mut q = p;
        if new > old {
            while q + 1 < self.k {
                let v = value(q + 1) as usize;
                if v >= new as usize {
                    break;
                }
                // From place q + 1 to q.
                r = r - self.c(v, q + 2) + self.c(v, q + 1);
                q += 1;
            }
        } else {
            while q > 0 {
                let v = value(q - 1) as usize;
                if v <= new as usize {
                    break;
                }
                // From place q - 1 to q.
                r = r - self.c(v, q) + self.c(v, q + 1);
                q -= 1;
            }
        }
        r + self.c(new as usize, q + 1)
    }

    /// The largest c in `j..above` with C(c, j + 1) <= `rank`, by binary
    /// search on the side of `hint` where it lies.
    fn search(&self, j: usize, hint: usize, above: usize, rank: u128) -> usize {
        let (mut lo, hi) = if self.c(hint, j + 1) > rank {
            (j, hint)
        } else {
            (hint, above)
        };
        // Invariant: C(lo, j + 1) <= rank, and C(lo + len, j + 1) > rank
        // or lo + len = above. Without a branch on the compare (a move's
        // new place is anywhere in the range, so a branch mispredicts half
        // the time): a conditional move.
        let mut len = hi - lo;
        while len > 1 {
            let half = len / 2;
            let mid = lo + half;
            lo = if self.c(mid, j + 1) <= rank { mid } else { lo };
            len -= half;
        }
        lo
    }

    /// The sorted values of `rank` into `out` (`k` of them), each tried
    /// first at what `out` holds.
    #[cfg(test)]
    pub fn unrank(&self, rank: u128, out: &mut [u16]) {
        debug_assert_eq!(out.len(), self.k);
        let hints: Vec<u16> = out.to_vec();
        self.unrank_from(rank, None, |j| hints[j], |j, c| out[j] = c);
    }

    /// The sorted values of `rank`, each tried first at `hint(j)`, passed
    /// to `set(j, value)`. With `previous`, the rank whose values the hints
    /// are, only the values that differ are passed, and the walk from the
    /// top stops where the rest of both ranks agree: every value below is
    /// the same (a sibling's rank differs in the places one block passed).
    #[inline]
    pub fn unrank_from(
        &self,
        mut rank: u128,
        previous: Option<u128>,
        hint: impl Fn(usize) -> u16,
        mut set: impl FnMut(usize, u16),
    ) {
        let mut above = self.n;
        let mut rest = previous;
        for j in (0..self.k).rev() {
            let h = hint(j) as usize;
            if let Some(p) = rest.as_mut() {
                if *p == rank {
                    return;
                }
                *p -= self.c(h, j + 1);
            }
            // The largest c in j..above with C(c, j + 1) <= rank (C(j, j +
            // 1) = 0 is).
            let fits = |c: usize| {
                c < above
                    && self.c(c, j + 1) <= rank
                    && (c + 1 == above || self.c(c + 1, j + 1) > rank)
            };
            let c = if fits(h) {
                h
            } else {
                // A value that a moved block passed keeps its value one
                // place up or down.
                let down = (j > 0).then(|| hint(j - 1) as usize);
                let up = (j + 1 < self.k).then(|| hint(j + 1) as usize);
                match (down, up) {
                    (Some(d), _) if fits(d) => d,
                    (_, Some(u)) if fits(u) => u,
                    _ => self.search(j, h.clamp(j, above - 1), above, rank),
                }
            };
            rank -= self.c(c, j + 1);
            if rest.is_none() || c != h {
                set(j, c as u16);
            }
            above = c;
        }
    }
}

/// The `bits` bits (at most 128) at bit `at` of `key` (0 for no bits,
/// which may stand at the key's end).
#[inline]
pub(super) fn read_wide(key: &[u64], at: usize, bits: usize) -> u128 {
    if bits == 0 {
        return 0;
    }
    let (w, s) = (at / 64, at % 64);
    let mut v = (key[w] >> s) as u128;
    let (mut got, mut i) = (64 - s, w + 1);
    while got < bits {
        v |= (key[i] as u128) << got;
        got += 64;
        i += 1;
    }
    if bits == 128 {
        v
    } else {
        v & ((1u128 << bits) - 1)
    }
}

/// Overwrites the `bits` bits (at most 128) at bit `at` of `key` with `v`.
#[inline]
pub(super) fn write_wide(key: &mut [u64], at: usize, bits: usize, v: u128) {
    let mut done = 0;
    while done < bits {
        let (w, s) = ((at + done) / 64, (at + done) % 64);
        let n = (64 - s).min(bits - done);
        let mask = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let part = (v >> done) as u64 & mask;
        key[w] = (key[w] & !(mask << s)) | (part << s);
        done += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every 3-subset of 0..9 ranks to a distinct number below C(9, 3)
    /// and unranks back, from any previous values.
    #[test]
    fn ranks_are_dense_and_unrank_back() {
        let combo = Combo::new(0, 3, 9, 4).expect("84 < 2^12");
        let mut seen = [false; 84];
        let mut out = [8, 0, 4];
        for a in 0..9u16 {
            for b in a + 1..9 {
                for c in b + 1..9 {
                    let r = combo.rank(&[a, b, c]);
                    assert!(!seen[r as usize], "{a} {b} {c}");
                    seen[r as usize] = true;
                    combo.unrank(r, &mut out);
                    assert_eq!(out, [a, b, c]);
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(combo.bits, 7);
    }

    /// Moving one value, past others or not, gives the rank of the new
    /// sorted set.
    #[test]
    fn a_moved_value_changes_the_rank_by_its_terms() {
        let combo = Combo::new(0, 4, 20, 5).unwrap();
        let parent = [2u16, 5, 9, 14];
        let r = combo.rank(&parent);
        for p in 0..4 {
            for new in 0..20u16 {
                if parent.contains(&new) {
                    continue;
                }
                let mut child = parent;
                child[p] = new;
                child.sort_unstable();
                let got = combo.moved(r, p, parent[p], new, |i| parent[i]);
                assert_eq!(got, combo.rank(&child), "place {p} to {new}");
            }
        }
    }

    /// A rank takes just enough bits for C(n, k) values, and none wider
    /// than 128 bits (or for one block) is taken.
    #[test]
    fn ranks_take_just_enough_bits_up_to_128() {
        // C(4, 2) = 6 values: 3 bits, against 2 fields of 2 bits.
        assert_eq!(Combo::new(0, 2, 4, 2).unwrap().bits, 3);
        // C(8, 4) = 70: 7 bits.
        assert_eq!(Combo::new(0, 4, 8, 3).unwrap().bits, 7);
        assert!(Combo::new(0, 1, 8, 3).is_none());
        // C(1000, 100) is about 2^464.
        assert!(Combo::new(0, 100, 1000, 10).is_none());
        // Blocks that fill their places: one set, no bits.
        assert!(Combo::new(0, 3, 3, 2).is_none());
        // The thesis's 100x100 board of unit squares: a 1.6 GB table.
        assert!(Combo::new(0, 9998, 10_000, 14).is_none());
        assert_eq!(Combo::new(0, 29, 225, 8).unwrap().bits, 122);
    }

    /// Wide fields straddling words read back what was written and leave
    /// the bits around them alone.
    #[test]
    fn wide_fields_round_trip_across_words() {
        for (at, bits) in [(0, 128), (5, 121), (60, 70), (63, 2), (100, 128), (64, 64)] {
            let mut key = vec![u64::MAX; 5];
            let v = 0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210u128
                & if bits == 128 {
                    u128::MAX
                } else {
                    (1 << bits) - 1
                };
            write_wide(&mut key, at, bits, v);
            assert_eq!(read_wide(&key, at, bits), v, "{at} {bits}");
            // The bits before and after are still set.
            if at > 0 {
                assert_eq!(read_wide(&key, 0, at), (1u128 << at) - 1);
            }
            assert_eq!(read_wide(&key, at + bits, 8), 0xFF);
        }
    }
}
