//! Block identifiers for the importers: every identifier they hand out must
//! be valid in the native format, so that `solver import` output reads back.

use std::collections::HashSet;

use super::native::{MASTER_ID, RESERVED};

/// The identifiers handed out when a format has none of its own (tiles) or
/// its own character cannot be used: digits 1-9, `A`-`Z`, `a`-`z`, ASCII
/// symbols, then Latin-1 and Greek letters. `0` and `@` never appear.
pub fn fresh_sequence() -> impl Iterator<Item = char> {
    ('1'..='9')
        .chain('A'..='Z')
        .chain('a'..='z')
        .chain("$&*+/:;<>?^_~()[]{}'\"`\\".chars())
        .chain(('\u{c0}'..='\u{ff}').filter(|c| *c != '\u{d7}' && *c != '\u{f7}'))
        .chain(('\u{391}'..='\u{3a9}').filter(|c| *c != '\u{3a2}'))
        .chain('\u{3b1}'..='\u{3c9}')
}

/// How many identifiers [`fresh_sequence`] has.
pub fn fresh_count() -> usize {
    fresh_sequence().count()
}

/// True when `c` may identify a non-master block in the native format.
pub fn usable(c: char) -> bool {
    c != MASTER_ID && !RESERVED.contains(&c) && !c.is_whitespace() && !c.is_control()
}

/// Hands out distinct identifiers.
#[derive(Default)]
pub struct IdPool {
    used: HashSet<char>,
}

impl IdPool {
    pub fn new() -> IdPool {
        IdPool::default()
    }

    /// Marks an identifier as taken (the master's `@`, say).
    pub fn reserve(&mut self, c: char) {
        self.used.insert(c);
    }

    /// `preferred` if it is usable and free, else the first free identifier
    /// of [`fresh_sequence`]; `None` when all are taken.
    pub fn take(&mut self, preferred: Option<char>) -> Option<char> {
        let pick = preferred
            .filter(|c| usable(*c) && !self.used.contains(c))
            .or_else(|| fresh_sequence().find(|c| !self.used.contains(c)))?;
        self.used.insert(pick);
        Some(pick)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_identifiers_are_distinct_and_usable() {
        let all: Vec<char> = fresh_sequence().collect();
        let set: HashSet<char> = all.iter().copied().collect();
        assert_eq!(set.len(), all.len());
        assert!(all.iter().all(|c| usable(*c)));
        assert!(!set.contains(&'0'));
        assert_eq!(fresh_count(), all.len());
        assert!(fresh_count() >= 195, "a 14x14 tile puzzle needs 195");
    }

    #[test]
    fn pool_prefers_the_given_character() {
        let mut pool = IdPool::new();
        assert_eq!(pool.take(Some('b')), Some('b'));
        assert_eq!(pool.take(Some('b')), Some('1'));
        assert_eq!(pool.take(Some('#')), Some('2'));
        assert_eq!(pool.take(Some('@')), Some('3'));
    }
}
