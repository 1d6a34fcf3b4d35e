//! Bit-packed positions: each block's anchor as its index among the anchors
//! its type can take on the empty board (its domain), in just enough bits;
//! instances of a type are written in sorted order so interchangeable blocks
//! encode identically. Faster than the rank, usually a little wider. The
//! `sets` encoding is the same but for the types of several blocks: each
//! takes one field for them all, the rank of their set ([`Combo`]).

use super::combo::{self, Combo};
use super::PositionEncoding;
use crate::model::Puzzle;
use crate::moves::{Move, MoveGenerator, State, NO_OWNER};

#[derive(Clone, Debug)]
pub struct PackedEncoding {
    /// Per type: anchor → index in the domain (or u16::MAX).
    index_of: Vec<Vec<u16>>,
    /// Per type: bits per instance.
    field_bits: Vec<u32>,
    type_ranges: Vec<std::ops::Range<usize>>,
    /// Per type: the bit where its first instance's field starts.
    type_offsets: Vec<usize>,
    shapes: crate::moves::ShapeTable,
    bits: u32,
    /// Domain indices of one type's instances, sorted before packing.
    scratch: Vec<u16>,
    /// Per instance, in key order: where its field is and where its type's
    /// domain starts in `flat_anchors`, so that decoding is one flat loop
    /// (the nested per-type loop with its lookups cost about 550
    /// instructions a position on the 10^6 bench, a sixth of expanding it).
    fields: Vec<Field>,
    /// Every type's domain (domain index to anchor), one after another.
    flat_anchors: Vec<u16>,
    /// Scratch of [`PositionEncoding::decode_after`]: the instances whose
    /// fields changed.
    changed: Vec<u16>,
    /// Per key bit: the instance whose field holds it, or [`COMBO`] plus
    /// the index of the combo.
    field_of_bit: Vec<u16>,
    /// The types kept as one rank each, and per type its combo's index
    /// (or `u16::MAX`).
    combos: Vec<Combo>,
    combo_of_type: Vec<u16>,
    /// Scratch of [`PositionEncoding::decode_after`]: the instances that
    /// move, with their new anchors.
    moving: Vec<(u16, u16)>,
    /// `packed`, or `sets` when built with combos.
    name: &'static str,
    /// Scratch of [`PositionEncoding::decode`]: the combos' blocks' places
    /// before decoding, the hints of their unranking.
    held: Vec<u16>,
}

/// Marks a combo's bits in [`PackedEncoding::field_of_bit`].
const COMBO: u16 = 1 << 15;

/// One instance's field in a key: at bit `at`, `mask` wide (0 for a type
/// with one place), its value an index into the domain at `base`.
#[derive(Clone, Copy, Debug)]
struct Field {
    at: u32,
    /// The bit after the field.
    end: u32,
    mask: u64,
    base: u32,
}

impl Field {
    /// The field's value (a domain index) in `key`.
    #[inline(always)]
    fn value<K: Fields + ?Sized>(&self, key: &K) -> usize {
        let (at, end) = (self.at as usize, self.end as usize);
        key.bits(at, end - at, self.mask) as usize
    }
}

impl PackedEncoding {
    /// A field per block.
    pub fn new(puzzle: &Puzzle, moves: &MoveGenerator) -> PackedEncoding {
        Self::build(puzzle, moves, false)
    }

    /// The `sets` encoding: a field per type of several blocks, the rank
    /// of the set of their places ([`Combo`]), a field per other block.
    pub fn sets(puzzle: &Puzzle, moves: &MoveGenerator) -> PackedEncoding {
        Self::build(puzzle, moves, true)
    }

    fn build(puzzle: &Puzzle, moves: &MoveGenerator, sets: bool) -> PackedEncoding {
        let cells = puzzle.board.len();
        let mut index_of = Vec::new();
        let mut anchor_of = Vec::new();
        let mut field_bits = Vec::new();
        let mut bits = 0;
        for t in 0..puzzle.types.len() {
            let domain: Vec<u16> = moves.domain(t).map(|a| a as u16).collect();
            let mut idx = vec![u16::MAX; cells];
            for (k, &a) in domain.iter().enumerate() {
                idx[a as usize] = k as u16;
            }
            let b = if domain.len() <= 1 {
                0
            } else {
                32 - (domain.len() as u32 - 1).leading_zeros()
            };
            bits += b * puzzle.counts[t] as u32;
            field_bits.push(b);
            index_of.push(idx);
            anchor_of.push(domain);
        }
        let type_ranges: Vec<std::ops::Range<usize>> = (0..puzzle.types.len())
            .map(|t| puzzle.type_range(t))
            .collect();
        let mut combo_of_type = vec![u16::MAX; type_ranges.len()];
        let mut combos = Vec::new();
        // Instance numbers share `field_of_bit` with the combo flag.
        if sets && puzzle.instances() < COMBO as usize {
            for (t, r) in type_ranges.iter().enumerate() {
                if let Some(c) = Combo::new(r.start, r.len(), anchor_of[t].len(), field_bits[t]) {
                    bits -= field_bits[t] * r.len() as u32 - c.bits;
                    combo_of_type[t] = combos.len() as u16;
                    combos.push(c);
                }
            }
        }
        let mut encoding = PackedEncoding {
            field_of_bit: Vec::new(),
            changed: Vec::new(),
            fields: Vec::new(),
            flat_anchors: Vec::new(),
            index_of,
            field_bits,
            type_ranges,
            type_offsets: Vec::new(),
            shapes: moves.shapes().clone(),
            bits: bits.max(1),
            scratch: vec![0; puzzle.counts.iter().copied().max().unwrap_or(0)],
            combos,
            combo_of_type,
            moving: Vec::new(),
            name: if sets { "sets" } else { "packed" },
            held: Vec::new(),
        };
        encoding.lay_out(&anchor_of);
        encoding
    }

    /// Places the types' fields one after another (a combo's where its
    /// instances' would be), with the flat tables decoding reads:
    /// `type_offsets`, `fields`, `flat_anchors` (from each type's domain in
    /// `anchor_of`) and `field_of_bit`.
    fn lay_out(&mut self, anchor_of: &[Vec<u16>]) {
        let width = |t: usize| match self.combo_of_type[t] {
            u16::MAX => self.type_ranges[t].len() * self.field_bits[t] as usize,
            c => self.combos[c as usize].bits as usize,
        };
        self.type_offsets = (0..self.type_ranges.len())
            .scan(0, |at, t| {
                let start = *at;
                *at += width(t);
                Some(start)
            })
            .collect();
        for (t, r) in self.type_ranges.iter().enumerate() {
            let offset = self.type_offsets[t];
            // A combo's instances get fields of no bits (decoding fills
            // them in from the rank).
            let b = match self.combo_of_type[t] {
                u16::MAX => self.field_bits[t] as usize,
                c => {
                    self.combos[c as usize].at = offset as u32;
                    0
                }
            };
            for k in 0..r.len() {
                self.fields.push(Field {
                    at: (offset + k * b) as u32,
                    end: (offset + (k + 1) * b) as u32,
                    mask: if b == 0 { 0 } else { field_mask(b) },
                    base: self.flat_anchors.len() as u32,
                });
            }
            self.flat_anchors.extend_from_slice(&anchor_of[t]);
        }
        let bits = self.bits as usize;
        self.field_of_bit = vec![0u16; bits.div_ceil(64).max(1) * 64];
        for (i, f) in self.fields.iter().enumerate() {
            self.field_of_bit[f.at as usize..f.end as usize].fill(i as u16);
        }
        for (c, combo) in self.combos.iter().enumerate() {
            let at = combo.at as usize;
            self.field_of_bit[at..at + combo.bits as usize].fill(COMBO | c as u16);
        }
        self.changed = Vec::with_capacity(self.fields.len());
    }
}

/// The low `b` bits set (b from 1 to 64).
#[inline]
fn field_mask(b: usize) -> u64 {
    u64::MAX >> (64 - b)
}

/// The `b` bits at bit `at` of `key`, `mask` their low `b` bits set (0
/// for no bits: then 0).
#[inline(always)]
fn read_bits(key: &[u64], at: usize, b: usize, mask: u64) -> u64 {
    let (w, s) = (at / 64, at % 64);
    let mut v = key[w] >> s;
    // Across a word boundary: the rest from the next word (`s > 0` there,
    // so the shift stays below 64).
    if s + b > 64 {
        v |= key[w + 1] << (64 - s);
    }
    v & mask
}

/// Overwrites the `b`-bit field at bit `at` of `key` with `v`.
#[inline]
fn write_field(key: &mut [u64], at: usize, b: usize, v: u64) {
    let (w, s) = (at / 64, at % 64);
    key[w] = (key[w] & !(field_mask(b) << s)) | (v << s);
    if s + b > 64 {
        key[w + 1] = (key[w + 1] & !(field_mask(b) >> (64 - s))) | (v >> (64 - s));
    }
}

/// Fields of `b` bits at bit offsets: one key word in a register, or the
/// key's words.
trait Fields {
    /// The `b` bits at bit `at`, `mask` their low `b` bits set.
    fn bits(&self, at: usize, b: usize, mask: u64) -> u64;
    #[inline(always)]
    fn get(&self, at: usize, b: usize) -> u16 {
        self.bits(at, b, field_mask(b)) as u16
    }
    fn set(&mut self, at: usize, b: usize, v: u16);
}

impl Fields for u64 {
    #[inline(always)]
    fn bits(&self, at: usize, _: usize, mask: u64) -> u64 {
        // A field of no bits (a type with one place) may stand at bit 64
        // of a full word: its mask is 0, and the shift must not overflow.
        (*self >> (at & 63)) & mask
    }
    #[inline(always)]
    fn set(&mut self, at: usize, b: usize, v: u16) {
        *self = (*self & !(field_mask(b) << at)) | ((v as u64) << at);
    }
}

impl Fields for [u64] {
    #[inline(always)]
    fn bits(&self, at: usize, b: usize, mask: u64) -> u64 {
        read_bits(self, at, b, mask)
    }
    #[inline(always)]
    fn set(&mut self, at: usize, b: usize, v: u16) {
        write_field(self, at, b, v as u64);
    }
}

/// One move of a block in a type's sorted fields: the `n` fields of `b`
/// bits from bit `base` hold the type's domain indices sorted, and the
/// block's index goes from `old` to `new`, so the fields between its old
/// and new rank shift by one place (for a one-cell step, few or none)
/// instead of the type's indices being gathered and sorted again.
struct SortedField {
    base: usize,
    b: usize,
    n: usize,
    /// Where `old` is looked for first: a parent decoded from its key
    /// (every BFS parent) holds a type's instances in the order of their
    /// sorted fields, so the moved instance's own field; a state moved
    /// since (IDA*'s path) is searched.
    hint: usize,
    old: u16,
    new: u16,
}

impl SortedField {
    #[inline(always)]
    fn replace<K: Fields + ?Sized>(&self, key: &mut K) {
        let (base, b, n, old, new) = (self.base, self.b, self.n, self.old, self.new);
        let field = |k: &K, j: usize| k.get(base + j * b, b);
        let mut j = if field(key, self.hint) == old {
            self.hint
        } else {
            // The fields are sorted and distinct.
            let (mut lo, mut hi) = (0, n);
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                if field(key, mid) <= old {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            lo
        };
        debug_assert_eq!(field(key, j), old, "the parent's key lacks the moved block");
        if new > old {
            while j + 1 < n && field(key, j + 1) < new {
                let next = field(key, j + 1);
                key.set(base + j * b, b, next);
                j += 1;
            }
        } else {
            while j > 0 && field(key, j - 1) > new {
                let prev = field(key, j - 1);
                key.set(base + j * b, b, prev);
                j -= 1;
            }
        }
        key.set(base + j * b, b, new);
    }
}

impl PackedEncoding {
    /// Every instance's anchor from its field.
    #[inline(always)]
    fn decode_anchors<K: Fields + ?Sized>(&self, key: &K, state: &mut State) {
        for (anchor, f) in state.anchors.iter_mut().zip(&self.fields) {
            *anchor = self.flat_anchors[f.base as usize + f.value(key)];
        }
    }

    /// Writes type `t`'s fields (its instances' domain indices, sorted) into
    /// `key`.
    #[inline]
    fn write_type(&mut self, t: usize, state: &State, key: &mut [u64]) {
        let b = self.field_bits[t] as usize;
        if b == 0 {
            return;
        }
        let r = self.type_ranges[t].clone();
        let index = &self.index_of[t];
        let mut at = self.type_offsets[t];
        if r.len() == 1 {
            write_field(key, at, b, index[state.anchors[r.start] as usize] as u64);
            return;
        }
        let values = &mut self.scratch[..r.len()];
        for (v, &a) in values.iter_mut().zip(&state.anchors[r]) {
            *v = index[a as usize];
        }
        values.sort_unstable();
        if let Some(c) = self.combos.get(self.combo_of_type[t] as usize) {
            combo::write_wide(key, c.at as usize, c.bits as usize, c.rank(values));
            return;
        }
        for &v in values.iter() {
            write_field(key, at, b, v as u64);
            at += b;
        }
    }
}

impl PositionEncoding for PackedEncoding {
    fn name(&self) -> &'static str {
        self.name
    }

    fn key_bits(&self) -> u32 {
        self.bits
    }

    /// The successor's key comes from the parent's and the move alone.
    fn successor_reads_owner(&self) -> bool {
        false
    }

    fn encode(&mut self, state: &State, key: &mut [u64]) {
        key.fill(0);
        for t in 0..self.type_ranges.len() {
            self.write_type(t, state, key);
        }
    }

    /// Copies the parent's key and rewrites the fields of the moved type
    /// only (see [`SortedField`]).
    #[inline]
    fn encode_successor(&mut self, parent: &[u64], m: Move, state: &State, key: &mut [u64]) {
        let t = self.shapes.type_of(m.instance as usize);
        if self.combo_of_type[t] != u16::MAX {
            key.copy_from_slice(&parent[..key.len()]);
            return self.move_in_combo(t, m, state, key);
        }
        let b = self.field_bits[t] as usize;
        let r = &self.type_ranges[t];
        let index = &self.index_of[t];
        let field = SortedField {
            base: self.type_offsets[t],
            b,
            n: r.len(),
            // The moved instance's place among its type's.
            hint: m.instance as usize - r.start,
            old: index[m.from as usize],
            new: index[m.to as usize],
        };
        match key {
            // One word (most keys): the fields read and written in a
            // register, without the word index and the straddle check.
            [word] => {
                let mut k = parent[0];
                if b > 0 {
                    field.replace(&mut k);
                }
                *word = k;
            }
            _ => {
                key.copy_from_slice(&parent[..key.len()]);
                if b > 0 {
                    field.replace(key);
                }
            }
        }
    }

    fn decode(&mut self, key: &[u64], state: &mut State) {
        // A combo's blocks keep the places the state held (of the position
        // decoded before, often near: A* decodes every node it expands) as
        // the hints of their unranking; the fields' loop overwrites them.
        let mut held = std::mem::take(&mut self.held);
        held.clear();
        for c in &self.combos {
            held.extend_from_slice(&state.anchors[c.first..c.first + c.k]);
        }
        match key {
            // One word: its fields read from a register.
            [word] => self.decode_anchors(word, state),
            _ => self.decode_anchors(key, state),
        }
        let mut at = 0;
        for c in 0..self.combos.len() {
            let (first, k) = (self.combos[c].first, self.combos[c].k);
            state.anchors[first..first + k].copy_from_slice(&held[at..at + k]);
            at += k;
            self.unrank_into(c, key, None, state);
        }
        self.held = held;
        state.rebuild_owner(&self.shapes);
    }

    /// Moves only the instances whose fields differ from `previous`'s
    /// (all of them vacate their old cells first, then take their new
    /// ones, since one's new cells may be another's old). With more than
    /// half the fields changed, the whole position is decoded instead.
    fn decode_after(&mut self, previous: &[u64], key: &[u64], state: &mut State) {
        let mut changed = std::mem::take(&mut self.changed);
        changed.clear();
        // The changed fields from the set bits of the words' differences,
        // each field once (one that spans two words shows in both).
        for (w, (a, b)) in key.iter().zip(previous).enumerate() {
            let mut x = a ^ b;
            while x != 0 {
                let i = self.field_of_bit[w * 64 + x.trailing_zeros() as usize];
                if changed.last() != Some(&i) {
                    changed.push(i);
                }
                let end = match i & COMBO {
                    0 => self.fields[i as usize].end as usize,
                    _ => {
                        let c = &self.combos[(i & !COMBO) as usize];
                        (c.at + c.bits) as usize
                    }
                };
                x = if end >= (w + 1) * 64 {
                    0
                } else {
                    x & (u64::MAX << (end - w * 64))
                };
            }
        }
        if changed.len() * 2 > self.fields.len() {
            self.changed = changed;
            return self.decode(key, state);
        }
        // The blocks that move, with their new anchors: all vacate their
        // old cells first, then take their new ones, since one's new cells
        // may be another's old.
        self.moving.clear();
        for &i in &changed {
            if i & COMBO != 0 {
                // Only the instances whose anchors the rank changes.
                self.unrank_into((i & !COMBO) as usize, key, Some(previous), state);
                continue;
            }
            let f = self.fields[i as usize];
            let at = self.flat_anchors[f.base as usize + f.value(key)];
            self.moving.push((i, at));
        }
        for &(i, _) in &self.moving {
            let (i, t) = (i as usize, self.shapes.type_of(i as usize));
            let at = state.anchors[i] as i32;
            for &off in self.shapes.cells(t) {
                state.owner[(at + off) as usize] = NO_OWNER;
            }
        }
        for &(i, at) in &self.moving {
            let (i, t) = (i as usize, self.shapes.type_of(i as usize));
            state.anchors[i] = at;
            for &off in self.shapes.cells(t) {
                state.owner[(at as i32 + off) as usize] = i as u16;
            }
        }
        self.changed = changed;
    }
}

impl PackedEncoding {
    /// The anchors of combo `c`'s instances from its rank in `key`, the
    /// state's own taken as hints. Without `previous` they are written into
    /// `state`; with it (the key whose position `state` holds) those that
    /// differ are pushed onto `self.moving` with their new anchors.
    fn unrank_into(&mut self, c: usize, key: &[u64], previous: Option<&[u64]>, state: &mut State) {
        let combo = &self.combos[c];
        let (first, at, bits) = (combo.first, combo.at as usize, combo.bits as usize);
        let index = &self.index_of[self.shapes.type_of(first)];
        let (base, anchors) = (self.fields[first].base as usize, &self.flat_anchors);
        let rank = combo::read_wide(key, at, bits);
        let previous = previous.map(|p| combo::read_wide(p, at, bits));
        let hint = |j: usize| index[state.anchors[first + j] as usize];
        match previous {
            Some(_) => {
                let moving = &mut self.moving;
                combo.unrank_from(rank, previous, hint, |j, v| {
                    moving.push(((first + j) as u16, anchors[base + v as usize]))
                });
            }
            None => {
                let values = &mut self.scratch[..combo.k];
                combo.unrank_from(rank, None, hint, |j, v| values[j] = v);
                for (a, &v) in state.anchors[first..].iter_mut().zip(values.iter()) {
                    *a = anchors[base + v as usize];
                }
            }
        }
    }

    /// Writes into `key` (a copy of the parent's) the rank of type `t`,
    /// a combo, after move `m`; `state` is the parent as decoded, `m`
    /// applied: its other instances of `t` hold their places in sorted
    /// order, as decoding leaves them.
    #[inline]
    fn move_in_combo(&mut self, t: usize, m: Move, state: &State, key: &mut [u64]) {
        let combo = &self.combos[self.combo_of_type[t] as usize];
        let index = &self.index_of[t];
        let (first, p) = (combo.first, m.instance as usize - combo.first);
        let (old, new) = (index[m.from as usize], index[m.to as usize]);
        let value = |i: usize| index[state.anchors[first + i] as usize];
        debug_assert!(
            (0..combo.k)
                .map(|i| if i == p { old } else { value(i) })
                .collect::<Vec<_>>()
                .windows(2)
                .all(|w| w[0] < w[1]),
            "the parent's blocks of a combo in sorted order"
        );
        // In every build, the moved block between its neighbours (two
        // looks): a caller that moved the state itself (as IDA*'s path
        // does) would otherwise get a wrong key without a word.
        assert!(
            (p == 0 || value(p - 1) < old) && (p + 1 == combo.k || old < value(p + 1)),
            "sets: encode_successor needs the parent as decoded, then the move"
        );
        let (at, bits) = (combo.at as usize, combo.bits as usize);
        let rank = combo.moved(combo::read_wide(key, at, bits), p, old, new, value);
        combo::write_wide(key, at, bits, rank);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats;
    use crate::params::Metric;

    /// A field of no bits at bit 64 of a one-word key reads 0 (a type with
    /// one place after fields that fill the word), without a shift overflow.
    #[test]
    fn a_field_of_no_bits_at_the_end_of_a_full_word_reads_zero() {
        let word = u64::MAX;
        assert_eq!(word.bits(64, 0, field_mask_or_zero(0)), 0);
        assert_eq!(word.bits(60, 4, field_mask_or_zero(4)), 0xF);
        assert_eq!([word][..].bits(60, 4, field_mask_or_zero(4)), 0xF);
    }

    fn field_mask_or_zero(b: usize) -> u64 {
        if b == 0 {
            0
        } else {
            field_mask(b)
        }
    }

    /// Along a walk through each puzzle, every successor's key written from
    /// its parent's equals the key encoded from scratch, and decodes back.
    #[test]
    fn successor_keys_from_the_parent_equal_keys_from_scratch() {
        for file in [
            "klotski/classic.txt",
            "bench/bench_1e7.txt",
            "tiles/korf_01.txt",
            "rushhour/rush_30.txt",
            "klotski/sunshine.txt",
            "klotski/ithaca.txt",
            "klotski/american_pie.txt",
        ] {
            let puzzle = &formats::bundled(file);
            for (metric, sets) in [
                (Metric::Steps, false),
                (Metric::Moves, false),
                (Metric::Steps, true),
                (Metric::Moves, true),
            ] {
                let mut moves = MoveGenerator::new(puzzle, metric, &[]);
                let mut enc = PackedEncoding::build(puzzle, &moves, sets);
                let words = enc.words();
                let mut state = State::new(puzzle);
                state.load(&puzzle.start, moves.shapes());
                let (mut parent, mut fresh, mut inc) =
                    (vec![0; words], vec![0; words], vec![0; words]);
                let mut back = state.clone();
                let mut list = Vec::new();
                for step in 0..300 {
                    // Every caller expands a parent as decoded from its key
                    // (a combo's blocks then stand in sorted order).
                    enc.encode(&state, &mut parent);
                    enc.decode(&parent, &mut state);
                    moves.generate(&state, &mut list);
                    for &m in &list {
                        moves.apply(&mut state, m);
                        enc.encode(&state, &mut fresh);
                        enc.encode_successor(&parent, m, &state, &mut inc);
                        assert_eq!(inc, fresh, "{file} {metric:?} {} step {step}", enc.name());
                        enc.decode(&inc, &mut back);
                        assert_eq!(back.to_position(puzzle), state.to_position(puzzle));
                        moves.undo(&mut state, m);
                    }
                    let m = list[(step * 7 + 3) % list.len()];
                    moves.apply(&mut state, m);
                }
            }
        }
    }

    /// Decoding a key from the state of the key decoded before it gives
    /// the state decoding from scratch gives (owner map included), for
    /// siblings, which differ in a block or two, and for positions far
    /// apart, where it decodes the whole key.
    #[test]
    fn decoding_from_the_previous_key_equals_decoding_from_scratch() {
        for file in [
            "klotski/classic.txt",
            "bench/bench_1e6.txt",
            "rushhour/rush_30.txt",
            "klotski/sunshine.txt",
            "klotski/ithaca.txt",
        ] {
            let puzzle = &formats::bundled(file);
            for sets in [false, true] {
                decode_after_walk(puzzle, file, sets);
            }
        }
    }

    /// Decodes siblings and far jumps of a walk from `puzzle`'s start, each
    /// from the previous key and from scratch, and compares.
    fn decode_after_walk(puzzle: &crate::model::Puzzle, file: &str, sets: bool) {
        let mut moves = MoveGenerator::new(puzzle, Metric::Steps, &[]);
        let mut enc = PackedEncoding::build(puzzle, &moves, sets);
        let words = enc.words();
        let mut state = State::new(puzzle);
        state.load(&puzzle.start, moves.shapes());
        let (mut keys, mut key, mut list) = (Vec::new(), vec![0; words], Vec::new());
        for step in 0..200 {
            moves.generate(&state, &mut list);
            for &m in &list {
                moves.apply(&mut state, m);
                enc.encode(&state, &mut key);
                keys.push(key.clone());
                moves.undo(&mut state, m);
            }
            let m = list[(step * 7 + 3) % list.len()];
            moves.apply(&mut state, m);
        }
        // Siblings in order, then a jump far back after each.
        let mut order: Vec<usize> = (0..keys.len()).collect();
        order.extend((0..keys.len()).rev().step_by(7));
        let (mut incremental, mut whole) = (State::new(puzzle), State::new(puzzle));
        enc.decode(&keys[order[0]], &mut incremental);
        for pair in order.windows(2) {
            let (previous, key) = (&keys[pair[0]], &keys[pair[1]]);
            enc.decode_after(previous, key, &mut incremental);
            enc.decode(key, &mut whole);
            assert_eq!(
                incremental,
                whole,
                "{file} {}: key {} after {}",
                enc.name(),
                pair[1],
                pair[0]
            );
        }
    }
}
