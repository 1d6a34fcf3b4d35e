//! Position encodings behind one interface: a position becomes a fixed-width
//! key of `key_bits()` bits (in `u64` words) and back. The visited set and the
//! open lists store only keys.
//!
//! - [`RankEncoding`]: the lexicographic multiset-permutation rank of the
//!   thesis (§7.1.4), in 64 bits, 128 bits or any number of words.
//! - [`PackedEncoding`]: each block's index within the anchors its type can
//!   take, bit-packed per instance.
//!
//! `--encoding dense` keeps the rank's keys, but a BFS indexes an array
//! of 3 bits per possible rank with them instead of storing them.
//!
//! `--encoding auto` picks the faster packed encoding when its table fits
//! the memory budget, and the dense array for a BFS where it is smaller
//! (see [`choice`]).

pub mod choice;
mod combo;
mod packed;
mod rank;
pub mod words;

pub use choice::{available_memory, choose, Budget, Choice};
pub use packed::PackedEncoding;
pub use rank::RankEncoding;

use crate::moves::{Move, State};

/// Turns positions into fixed-width keys and back. Interchangeable blocks
/// must encode identically whatever their order in the state.
pub trait PositionEncoding: Clone + Send {
    /// Short name for reports (`rank`, `packed`).
    fn name(&self) -> &'static str;
    /// Significant bits of every key.
    fn key_bits(&self) -> u32;
    /// Writes the key of `state` into `key` (`words()` words).
    fn encode(&mut self, state: &State, key: &mut [u64]);
    /// Sets `state` (anchors and owner map) to the position of `key`.
    fn decode(&mut self, key: &[u64], state: &mut State);
    /// Writes the key of `state`, which is the position of `parent` after
    /// move `m`: `parent` decoded by this encoding, then `m` applied (the
    /// packed encoding reads the other blocks of the moved one's type from
    /// it, in the order decoding left them). Encodings whose key keeps each
    /// type's blocks apart rewrite only the moved block's part (a move
    /// changes few cells); the default encodes from scratch.
    #[inline]
    fn encode_successor(&mut self, parent: &[u64], m: Move, state: &State, key: &mut [u64]) {
        let _ = (parent, m);
        self.encode(state, key);
    }
    /// Sets `state`, which holds the position of `previous` (as decoded or
    /// restored after moves), to the position of `key`. Encodings that keep
    /// each block's place in a field of its own move only the blocks whose
    /// fields differ: a BFS layer holds siblings one after another, which
    /// differ in a block or two. The default decodes from scratch.
    #[inline]
    fn decode_after(&mut self, previous: &[u64], key: &[u64], state: &mut State) {
        let _ = previous;
        self.decode(key, state);
    }
    /// True when [`PositionEncoding::encode_successor`] reads the state's
    /// owner map (a caller that knows it does not may leave the map of the
    /// state after the move unwritten).
    fn successor_reads_owner(&self) -> bool {
        true
    }
    /// Words per key.
    fn words(&self) -> usize {
        (self.key_bits() as usize).div_ceil(64).max(1)
    }
}

/// The encoding chosen for a search.
#[derive(Clone, Debug)]
pub enum Encoding {
    Rank(RankEncoding),
    /// The rank's keys, which a BFS takes as indices into an array of 3
    /// bits per rank (`search/bfs/dense.rs`); other searches store the keys.
    Dense(RankEncoding),
    Packed(PackedEncoding),
}

impl PositionEncoding for Encoding {
    fn name(&self) -> &'static str {
        match self {
            Encoding::Rank(e) => e.name(),
            Encoding::Dense(_) => "dense",
            Encoding::Packed(e) => e.name(),
        }
    }
    fn key_bits(&self) -> u32 {
        match self {
            Encoding::Rank(e) | Encoding::Dense(e) => e.key_bits(),
            Encoding::Packed(e) => e.key_bits(),
        }
    }
    #[inline]
    fn encode(&mut self, state: &State, key: &mut [u64]) {
        match self {
            Encoding::Rank(e) | Encoding::Dense(e) => e.encode(state, key),
            Encoding::Packed(e) => e.encode(state, key),
        }
    }
    #[inline]
    fn encode_successor(&mut self, parent: &[u64], m: Move, state: &State, key: &mut [u64]) {
        match self {
            Encoding::Rank(e) | Encoding::Dense(e) => e.encode_successor(parent, m, state, key),
            Encoding::Packed(e) => e.encode_successor(parent, m, state, key),
        }
    }
    #[inline]
    fn decode(&mut self, key: &[u64], state: &mut State) {
        match self {
            Encoding::Rank(e) | Encoding::Dense(e) => e.decode(key, state),
            Encoding::Packed(e) => e.decode(key, state),
        }
    }
    #[inline]
    fn decode_after(&mut self, previous: &[u64], key: &[u64], state: &mut State) {
        match self {
            Encoding::Rank(e) | Encoding::Dense(e) => e.decode_after(previous, key, state),
            Encoding::Packed(e) => e.decode_after(previous, key, state),
        }
    }
    fn successor_reads_owner(&self) -> bool {
        match self {
            Encoding::Rank(e) | Encoding::Dense(e) => e.successor_reads_owner(),
            Encoding::Packed(e) => e.successor_reads_owner(),
        }
    }
}
