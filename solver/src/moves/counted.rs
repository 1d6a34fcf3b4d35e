//! Steps counted per leading edge, on boards with space masks under
//! `--metric steps` where the blocks' leading edges are long (Ithaca's
//! blocks are up to 17 cells long, Sunshine's 5).
//!
//! Each occupied cell facing a space counts one for its block's step that
//! way ([`sides_facing_spaces`]), and a step is legal where the count
//! covers its whole leading edge: the cells it newly covers are then
//! all empty and open (off the board, a wall or a door the block may not
//! enter, [`MoveGenerator::hop`] says no). No cell of a leading edge is
//! looked at again, and no branch asks whether a neighbour is a block.
//!
//! A block's four counts share one word with four more bits, set where a
//! counted cell faces a cell the last step vacated: a step entering one of
//! those does not commute with the last (`commute.rs`), and the bits say so
//! without looking at the step's edge again. The four counts are compared
//! with the four edge lengths at once, as byte lanes of one word.
//!
//! Every step of a block anchored a row or more above the last step's new
//! anchor ranks below the last step, so it is left out unless it enters a
//! vacated cell. A search that reports no branching factor need not count
//! those steps: its scan starts below such blocks, and only their steps
//! into vacated cells are checked, cell by cell
//! ([`MoveGenerator::tally_left_out`]).
//!
//! On Ithaca (callgrind, 200k positions) the generator took 6,280
//! instructions a position with counts and side bits in separate arrays
//! and each left-out candidate's edge looked at cell by cell; 4,550 with
//! the tallies; 2,400 in a search skipping the lower-ranked blocks
//! (`experiments/bench.md`).
//!
//! [`sides_facing_spaces`]: SpaceMasks::sides_facing_spaces

#[cfg(doc)]
use super::spaces::SpaceMasks;
use super::spaces::MAX_CELLS;
use super::{Move, MoveGenerator, Skip, State, NONE};

/// Bit of a tally that says the block's step in direction 0 enters a
/// vacated cell (direction `d`: this bit plus `d`); the counts are its four
/// low bytes.
const ENTERS_VACATED: usize = 32;

/// Longest leading edge the byte lanes hold.
pub(super) const MAX_EDGE: usize = u8::MAX as usize;

/// The four directions' byte lanes of a tally, each holding its high bit,
/// for the direction bits `directions` (bit `d`, direction `d`).
pub(super) fn lanes(directions: u8) -> u32 {
    (0..4)
        .filter(|d| directions >> d & 1 == 1)
        .fold(0, |m, d| m | 0x80 << (8 * d))
}

/// The byte lanes of `x` that are zero, each as its high bit (exact: no
/// borrow crosses from one lane into the next).
#[inline(always)]
fn zero_lanes(x: u32) -> u32 {
    let nonzero = ((x & 0x7f7f_7f7f) + 0x7f7f_7f7f) | x;
    !nonzero & 0x8080_8080
}

impl MoveGenerator {
    /// Space-driven steps on a board with [`MoveGenerator::masks`], counted
    /// per leading edge (the module's comment). The moves come block by
    /// block in the order the blocks are first met, direction after
    /// direction, as [`sides_facing_spaces`] meets them.
    /// Out of line: inlined, it cost the small boards' generation 18
    /// instructions a position (1.6% on the 10^6 bench).
    #[inline(never)]
    pub(super) fn generate_counted(&mut self, state: &State, skip: Skip, out: &mut Vec<Move>) {
        let mut near = std::mem::take(&mut self.near);
        let mut tallies = std::mem::take(&mut self.tallies);
        near.clear();
        let vacated = self.vacated_bits(state, skip);
        // The scan starts a row above the lowest cell of the blocks that
        // may have a step ranking above the last: their tallies need every
        // edge's cells, and an edge lies at most a row off its block.
        let (lowest_anchor, lowest_cell) = self.ranked_scan(state, skip);
        let first_space = lowest_cell.saturating_sub(self.row);
        let masks = self.masks.as_ref().expect("a board with masks");
        let mut count = |cell: usize, toward: usize, enters_vacated: bool| {
            let o = state.owner[cell] as usize;
            let tally = &mut tallies[o];
            if *tally == 0 {
                near.push(o as u16);
            }
            *tally = (*tally + (1 << (8 * toward)))
                | (enters_vacated as u64) << (ENTERS_VACATED + toward);
        };
        match first_space {
            0 => masks.sides_facing_spaces::<false>(&state.owner, 0, &vacated, &mut count),
            first => masks.sides_facing_spaces::<true>(&state.owner, first, &vacated, &mut count),
        }
        let skipped = match skip.directions {
            0b1111 => u32::MAX,
            d => lanes(d),
        };
        for &o in &near {
            let o = o as usize;
            let tally = std::mem::take(&mut tallies[o]);
            let from = state.anchors[o] as usize;
            if from < lowest_anchor {
                self.entering_vacated(state, o, tally, out);
                continue;
            }
            let t = self.shapes.type_of(o);
            let mut legal = zero_lanes(tally as u32 ^ self.edge_lanes[t]) & self.lanes[o];
            if o == skip.instance {
                legal &= !skipped;
            }
            let base = (t * self.cells + from) * 4;
            while legal != 0 {
                let d = (legal.trailing_zeros() / 8) as usize;
                legal &= legal - 1;
                let q = self.hop[base + d];
                if q == NONE {
                    continue;
                }
                if self.commute.ranks_below(o, from, q as usize)
                    && tally >> (ENTERS_VACATED + d) & 1 == 0
                {
                    self.commute.left_out += 1;
                    continue;
                }
                out.push(Move::of(o, from, q as usize));
            }
        }
        self.near = near;
        self.tallies = tallies;
    }

    /// Where a scan of the spaces may start when the steps ranking below
    /// the last need not be counted ([`MoveGenerator::tally_left_out`]
    /// off): the lowest anchor of a block that may have a step ranking
    /// above the last, and the lowest cell of such a block (`(0, 0)`: every
    /// block may). A step lands at most one row below its anchor, so a
    /// block anchored a row above the last step's anchor after has no step
    /// ranking above it; the other blocks' cells lie no higher than their
    /// anchors less the lowest cell of a shape below its anchor, and the
    /// cells the last step vacated (whose neighbours' steps into them do
    /// not commute with it) no higher either. A step ranking above the
    /// last enters cells a row below the lowest cell.
    pub(super) fn ranked_scan(&self, state: &State, skip: Skip) -> (usize, usize) {
        if self.tally_left_out || !skip.commute {
            return (0, 0);
        }
        let row = self.row as isize;
        let to = state.anchors[skip.instance] as isize;
        let lowest_anchor = (to - row).max(0);
        let lowest_cell = (lowest_anchor + self.lowest_offset).max(0);
        (lowest_anchor as usize, lowest_cell as usize)
    }

    /// The steps of instance `o`, all ranking below the last, that enter a
    /// cell the last step vacated (as its `tally` marks them), each checked
    /// cell by cell: the scan may have left out some of its edges' cells.
    #[cold]
    fn entering_vacated(&self, state: &State, o: usize, tally: u64, out: &mut Vec<Move>) {
        let t = self.shapes.type_of(o);
        let from = state.anchors[o] as usize;
        for d in 0..4 {
            let wanted = self.lanes[o] >> (8 * d + 7) & 1 == 1;
            if wanted && tally >> (ENTERS_VACATED + d) & 1 == 1 {
                if let Some(q) = self.step_target(state, o, t, from, d) {
                    out.push(Move::of(o, from, q));
                }
            }
        }
    }

    /// The cells the last step `skip` names vacated, as bits (none when
    /// nothing commutes with it).
    fn vacated_bits(&self, state: &State, skip: Skip) -> [u64; MAX_CELLS / 64] {
        let mut bits = [0; MAX_CELLS / 64];
        if skip.commute {
            let (_, _, to, (t, back)) = self.named_step(state, skip);
            for &off in &self.leading[t][back] {
                let c = (to as i32 + off) as usize;
                bits[c / 64] |= 1 << (c % 64);
            }
        }
        bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_lanes_are_exactly_the_zero_bytes() {
        for x in [
            0u32,
            1,
            0x80,
            0xff,
            0x100,
            0x0100_0000,
            0xff00_ff00,
            0x0001_0100,
            u32::MAX,
        ] {
            let want = (0..4)
                .filter(|d| x >> (8 * d) & 0xff == 0)
                .fold(0, |m, d| m | 0x80 << (8 * d));
            assert_eq!(zero_lanes(x), want, "{x:#x}");
        }
        assert_eq!(lanes(0b1010), 0x8000_8000);
    }
}
