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
    c != MASTER_ID && !RESERVED.contains(&c) && !invisible(c)
}

/// True for a character that draws nothing or changes how others are
/// drawn: whitespace, control characters, and Unicode's format and
/// invisible characters (bidirectional overrides such as U+202E, zero-width
/// joiners such as U+200D, variation selectors, the byte-order mark, tags).
/// None may stand for a block: a board drawn with them would not show what
/// it holds, or would show it reordered.
pub fn invisible(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}' | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}' | '\u{FFA0}' | '\u{FFF0}'..='\u{FFFB}'
            | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}')
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
    fn bidi_zero_width_and_format_characters_are_no_identifiers() {
        for c in [
            '\u{202E}', '\u{200D}', '\u{200B}', '\u{FEFF}', '\u{2066}', '\u{FE0F}', '\t',
        ] {
            assert!(invisible(c) && !usable(c), "U+{:04X}", c as u32);
        }
        for c in ['a', 'Z', '\u{3b1}', '\u{e9}', '*'] {
            assert!(!invisible(c), "{c}");
        }
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
