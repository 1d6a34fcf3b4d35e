//! Novelty of abstract states, for `--algorithm bfws`: Best-First Width
//! Search (Lipovetzky and Geffner, AAAI 2017) over the fluid abstraction.
//! The open list takes states by their novelty first and their estimate
//! second, so that on a plateau of the estimate (the master blocked for
//! hundreds of steps while the blocks around it rearrange) the search
//! spreads over new arrangements instead of deepening one.
//!
//! Atoms of an abstract state (nothing puzzle-specific):
//! - per big block: (its type, its anchor cell);
//! - per region of free cells: (the region's lowest cell, its units).
//!
//! Novelty is measured among the states generated so far with the same
//! estimate: 1 when the state makes some atom true for the first time
//! there, 2 when it makes some pair of atoms true for the first time (of
//! the pairs with at least one atom its parent lacked: the usual shortcut,
//! which keeps the cost to the changed atoms; the other pairs were recorded
//! with the parent, under the parent's estimate), else 3. The tables are bitsets per estimate
//! value, made when the value is first met: one bit per atom and one per
//! unordered pair of atoms, unless the pairs of one value would take more
//! than [`PAIR_TABLE_BYTES`]; then novelty is 1 or 3.
//!
//! A pair table is allocated zeroed, which the system maps lazily: only the
//! pages a bit was set in take memory. Counting the whole table (Sunshine:
//! 10.7 MB a value) over-counted the search's memory 3-14 times, and
//! `--max-memory 256M` stopped it at 18 MB resident; so the bytes counted
//! are the pages written ([`PAGE_WORDS`] words each, one bit per page in
//! `touched`), which is what the process holds.

use super::model::NONE;

/// Most bytes the pair table of one estimate value may take (Sunshine's
/// 13,090 atoms take 10.7 MB a value).
pub const PAIR_TABLE_BYTES: u64 = 64 << 20;

/// Words of a pair table in one page of memory (4 KiB pages).
const PAGE_WORDS: usize = 4096 / 8;

/// The novelty tables and the scratch lists of one search.
pub struct Novelty {
    cells: u32,
    /// Per big index, its type's number among the big types.
    big_kind: Vec<u32>,
    /// Atoms of the big blocks: types times cells.
    big_atoms: u32,
    /// Unit counts a region may hold: units + 1.
    counts: u32,
    atoms: usize,
    pairs: bool,
    /// Per estimate value: its atom bits, pair bits, and a bit per page
    /// of the pair bits written to.
    tables: Vec<Option<Tables>>,
    /// Sorted atoms of the state being expanded and of the successor, and
    /// the successor's atoms the parent lacks.
    parent: Vec<u32>,
    child: Vec<u32>,
    changed: Vec<u32>,
    bytes: u64,
}

/// The bitsets of one estimate value.
struct Tables {
    single: Vec<u64>,
    pairs: Vec<u64>,
    /// One bit per page of `pairs`: set once a bit in that page is.
    touched: Vec<u64>,
}

/// Sets bit `i` of `bits`; whether it was clear.
fn first_time(bits: &mut [u64], i: usize) -> bool {
    let (w, b) = (i >> 6, 1u64 << (i & 63));
    let new = bits[w] & b == 0;
    bits[w] |= b;
    new
}

/// Sets pair bit `i` (see [`first_time`]), counting in `bytes` the page it
/// lies in when it is the page's first; whether the bit was clear.
fn first_pair(t: &mut Tables, i: usize, bytes: &mut u64) -> bool {
    let new = t.pairs[i >> 6] & (1u64 << (i & 63)) == 0;
    if new {
        t.pairs[i >> 6] |= 1u64 << (i & 63);
        if first_time(&mut t.touched, (i >> 6) / PAGE_WORDS) {
            *bytes += PAGE_WORDS as u64 * 8;
        }
    }
    new
}

impl Novelty {
    /// The tables for a board of `cells` cells, big blocks of the types
    /// `big_type` (per big index) and `units` units.
    pub fn new(cells: usize, big_type: &[usize], units: usize) -> Novelty {
        let mut kinds: Vec<usize> = Vec::new();
        let big_kind = big_type
            .iter()
            .map(|t| match kinds.iter().position(|x| x == t) {
                Some(k) => k as u32,
                None => {
                    kinds.push(*t);
                    (kinds.len() - 1) as u32
                }
            })
            .collect();
        let big_atoms = (kinds.len() * cells) as u32;
        let atoms = big_atoms as usize + cells * (units + 1);
        let pair_bytes = (atoms as u64 * (atoms as u64).saturating_sub(1) / 2).div_ceil(8);
        Novelty {
            cells: cells as u32,
            big_kind,
            big_atoms,
            counts: units as u32 + 1,
            atoms,
            pairs: pair_bytes <= PAIR_TABLE_BYTES,
            tables: Vec::new(),
            parent: Vec::new(),
            child: Vec::new(),
            changed: Vec::new(),
            bytes: 0,
        }
    }

    /// Bytes the tables hold: the atom bits, and the pages of pair bits
    /// written to.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Writes the sorted atoms of the state `key` (its big blocks' anchors,
    /// then one unit count per region) into `out`; `mins[r]` is region
    /// `r`'s lowest cell.
    fn atoms_of(&self, key: &[u16], mins: &[u16], out: &mut Vec<u32>) {
        out.clear();
        let b = self.big_kind.len();
        let bigs = key[..b].iter().zip(&self.big_kind);
        out.extend(bigs.map(|(&a, &k)| k * self.cells + a as u32));
        for (&count, &min) in key[b..].iter().zip(mins) {
            debug_assert!(min != NONE, "every region has a lowest cell");
            out.push(self.big_atoms + min as u32 * self.counts + count as u32);
        }
        out.sort_unstable();
        out.dedup();
    }

    /// Sets the parent, the state whose successors are evaluated next, to
    /// `key` (regions' lowest cells `mins`); `None` for the start, all of
    /// whose atoms are new.
    pub fn set_parent(&mut self, parent: Option<(&[u16], &[u16])>) {
        let mut p = std::mem::take(&mut self.parent);
        match parent {
            Some((key, mins)) => self.atoms_of(key, mins, &mut p),
            None => p.clear(),
        }
        self.parent = p;
    }

    /// The novelty (1, 2 or 3) of the state `key` (regions' lowest cells
    /// `mins`) among the states with estimate `h`, whose tables it joins.
    pub fn evaluate(&mut self, h: u32, key: &[u16], mins: &[u16]) -> u8 {
        let mut child = std::mem::take(&mut self.child);
        self.atoms_of(key, mins, &mut child);
        self.changed.clear();
        let mut parent = self.parent.iter().peekable();
        for &a in &child {
            while parent.next_if(|&&p| p < a).is_some() {}
            if parent.next_if_eq(&&a).is_none() {
                self.changed.push(a);
            }
        }
        let changed = std::mem::take(&mut self.changed);
        let mut bytes = self.bytes;
        let t = self.tables_of(h, &mut bytes);
        let mut new1 = false;
        for &a in &child {
            new1 |= first_time(&mut t.single, a as usize);
        }
        let mut new2 = false;
        if !t.pairs.is_empty() {
            for &c in &changed {
                for &a in child.iter().filter(|&&a| a != c) {
                    let (lo, hi) = (a.min(c) as usize, a.max(c) as usize);
                    new2 |= first_pair(t, hi * (hi - 1) / 2 + lo, &mut bytes);
                }
            }
        }
        self.bytes = bytes;
        (self.child, self.changed) = (child, changed);
        match (new1, new2) {
            (true, _) => 1,
            (false, true) => 2,
            _ => 3,
        }
    }

    /// The bitsets of estimate value `h`, made when first met (their
    /// atom bits and page bits counted in `bytes`; the pair bits count
    /// as their pages are written, [`first_pair`]).
    fn tables_of(&mut self, h: u32, bytes: &mut u64) -> &mut Tables {
        let h = h as usize;
        if self.tables.len() <= h {
            self.tables.resize_with(h + 1, || None);
        }
        let (atoms, pairs) = (self.atoms, self.pairs);
        self.tables[h].get_or_insert_with(|| {
            let pair_bits = if pairs { atoms * (atoms - 1) / 2 } else { 0 };
            let words = pair_bits.div_ceil(64);
            let t = Tables {
                single: vec![0; atoms.div_ceil(64)],
                pairs: vec![0; words],
                touched: vec![0; words.div_ceil(PAGE_WORDS).div_ceil(64)],
            };
            *bytes += (t.single.len() + t.touched.len()) as u64 * 8;
            t
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two big blocks of one type and two regions on a 10-cell board: the
    /// start is new; a successor that moves a block to a new cell is new
    /// in atoms; one that recombines two atoms seen apart is new in pairs;
    /// a repeat is not new; another estimate value is a fresh table.
    #[test]
    fn novelty_is_one_two_or_three() {
        let mut n = Novelty::new(10, &[4, 4], 3);
        let mins = [0, 5];
        let a = [1u16, 2, 3, 0];
        n.set_parent(None);
        assert_eq!(n.evaluate(7, &a, &mins), 1);
        n.set_parent(Some((&a, &mins)));
        assert_eq!(n.evaluate(7, &[1, 6, 3, 0], &mins), 1);
        assert_eq!(n.evaluate(7, &[1, 2, 2, 1], &mins), 1);
        n.set_parent(Some((&[1, 6, 3, 0], &mins)));
        // Block at 6 with region 0 holding 2 units: both atoms seen, the pair not.
        assert_eq!(n.evaluate(7, &[1, 6, 2, 1], &mins), 2);
        assert_eq!(n.evaluate(7, &[1, 6, 2, 1], &mins), 3);
        assert_eq!(n.evaluate(8, &[1, 6, 2, 1], &mins), 1);
        assert!(n.bytes() > 0);
    }

    /// Only the pages of pair bits written count (what the process holds
    /// of a lazily mapped zeroed table): one state's few pairs touch a few
    /// pages of a 2.2 MB table; a repeat writes none.
    #[test]
    fn pair_tables_count_the_pages_written_not_the_whole_table() {
        let mut n = Novelty::new(400, &[4, 4, 5], 10);
        let atoms = n.atoms as u64;
        let whole = atoms * (atoms - 1) / 2 / 8;
        let mins = [0, 200];
        let key = [1u16, 2, 3, 4, 5];
        n.set_parent(None);
        assert_eq!(n.evaluate(3, &key, &mins), 1);
        let written = n.bytes();
        assert!(written > 0 && written < whole / 20, "{written} of {whole}");
        assert_eq!(n.evaluate(3, &key, &mins), 3);
        assert_eq!(n.bytes(), written, "a repeat writes no new page");
    }
}
