//! Fixed-width unsigned arithmetic on little-endian `u64` words: just what
//! multi-word permutation ranks need (multiply and divide by small numbers,
//! add, subtract, compare), without heap allocation.

use std::cmp::Ordering;

/// `a *= m`; returns the carry out of the top word.
pub fn mul_small(a: &mut [u64], m: u64) -> u64 {
    let mut carry = 0u128;
    for w in a.iter_mut() {
        let x = *w as u128 * m as u128 + carry;
        *w = x as u64;
        carry = x >> 64;
    }
    carry as u64
}

/// `a /= d`; returns the remainder.
pub fn div_small(a: &mut [u64], d: u64) -> u64 {
    let mut rem = 0u128;
    for w in a.iter_mut().rev() {
        let x = (rem << 64) | *w as u128;
        *w = (x / d as u128) as u64;
        rem = x % d as u128;
    }
    rem as u64
}

/// `a += b` for `b` no longer than `a` (the carry runs on through `a`);
/// returns the carry out of the top word.
pub fn add(a: &mut [u64], b: &[u64]) -> bool {
    let mut carry = false;
    for (i, x) in a.iter_mut().enumerate() {
        let y = match b.get(i) {
            Some(&y) => y,
            None if carry => 0,
            None => break,
        };
        let (s1, c1) = x.overflowing_add(y);
        let (s2, c2) = s1.overflowing_add(carry as u64);
        *x = s2;
        carry = c1 || c2;
    }
    carry
}

/// `a -= b` (same length, `a >= b`).
pub fn sub(a: &mut [u64], b: &[u64]) {
    let mut borrow = false;
    for (x, &y) in a.iter_mut().zip(b) {
        let (d1, b1) = x.overflowing_sub(y);
        let (d2, b2) = d1.overflowing_sub(borrow as u64);
        *x = d2;
        borrow = b1 || b2;
    }
}

/// Compares two numbers of the same length.
pub fn cmp(a: &[u64], b: &[u64]) -> Ordering {
    for (x, y) in a.iter().rev().zip(b.iter().rev()) {
        match x.cmp(y) {
            Ordering::Equal => continue,
            o => return o,
        }
    }
    Ordering::Equal
}

/// The low two words as one `u128`.
#[inline]
pub fn low_u128(a: &[u64]) -> u128 {
    a[0] as u128 | (a[1] as u128) << 64
}

/// Number of significant bits.
pub fn bit_length(a: &[u64]) -> u32 {
    for (i, &w) in a.iter().enumerate().rev() {
        if w != 0 {
            return i as u32 * 64 + (64 - w.leading_zeros());
        }
    }
    0
}

/// Multiplicative inverse of an odd number modulo 2^128 (Newton's iteration).
pub fn inverse_mod_2_128(odd: u128) -> u128 {
    debug_assert!(odd & 1 == 1);
    let mut x = odd; // correct to 3 bits
    for _ in 0..7 {
        x = x.wrapping_mul(2u128.wrapping_sub(odd.wrapping_mul(x)));
    }
    x
}

/// Exact division by small constants via multiplication: `x / d` for any `x`
/// that `d` divides and that fits 128 bits.
#[derive(Clone, Copy, Debug)]
pub struct ExactDivisor {
    shift: u32,
    odd: u64,
    inverse: u128,
}

impl ExactDivisor {
    pub fn new(d: u64) -> ExactDivisor {
        assert!(d > 0);
        let shift = d.trailing_zeros();
        ExactDivisor {
            shift,
            odd: d >> shift,
            inverse: inverse_mod_2_128((d >> shift) as u128),
        }
    }

    #[inline]
    pub fn divide(self, x: u128) -> u128 {
        (x >> self.shift).wrapping_mul(self.inverse)
    }

    /// `x / d` when the quotient is known to fit 64 bits: the congruence
    /// modulo 2^64 then fixes it, so one 64-bit multiplication suffices.
    #[inline]
    pub fn divide_to_u64(self, x: u128) -> u64 {
        ((x >> self.shift) as u64).wrapping_mul(self.inverse as u64)
    }
}

/// `a /= d` for a multi-word `a` that `d` divides: a shift, then one
/// multiplication by the odd part's inverse per word (the borrow carries the
/// high half of `quotient word * odd` upwards), no hardware division.
pub fn div_exact(a: &mut [u64], d: ExactDivisor) {
    if d.shift > 0 {
        for i in 0..a.len() {
            let high = a.get(i + 1).map_or(0, |&w| w << (64 - d.shift));
            a[i] = (a[i] >> d.shift) | high;
        }
    }
    let inverse = d.inverse as u64;
    let mut borrow = 0u64;
    for w in a.iter_mut() {
        let (x, under) = w.overflowing_sub(borrow);
        let q = x.wrapping_mul(inverse);
        *w = q;
        borrow = ((q as u128 * d.odd as u128) >> 64) as u64 + under as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_division_matches_plain_division() {
        for d in 1..200u64 {
            let e = ExactDivisor::new(d);
            for q in [
                0u128,
                1,
                7,
                12345678901234567,
                u64::MAX as u128,
                (1u128 << 100) + 3,
            ] {
                assert_eq!(e.divide(q * d as u128), q, "d={d} q={q}");
                if q <= u64::MAX as u128 {
                    assert_eq!(e.divide_to_u64(q * d as u128) as u128, q, "d={d} q={q}");
                }
            }
        }
    }

    #[test]
    fn exact_multiword_division_matches_long_division() {
        for d in 1..130u64 {
            let e = ExactDivisor::new(d);
            for q in [
                [0u64, 0, 0],
                [1, 0, 0],
                [u64::MAX, 3, 0],
                [7, u64::MAX, 1 << 40],
            ] {
                let mut a = q;
                assert_eq!(mul_small(&mut a, d), 0);
                let mut b = a;
                div_exact(&mut a, e);
                assert_eq!(div_small(&mut b, d), 0);
                assert_eq!(a, q, "d={d}");
                assert_eq!(b, q, "d={d}");
            }
        }
    }

    #[test]
    fn multiword_arithmetic_round_trips() {
        let mut a = [u64::MAX, 5, 0];
        let orig = a;
        assert_eq!(mul_small(&mut a, 1000), 0);
        assert_eq!(div_small(&mut a, 1000), 0);
        assert_eq!(a, orig);
        let mut b = [1u64, 0, 0];
        add(&mut b, &orig);
        assert_eq!(cmp(&b, &orig), Ordering::Greater);
        sub(&mut b, &[1, 0, 0]);
        assert_eq!(b, orig);
        assert_eq!(bit_length(&[0, 1, 0]), 65);
    }
}
