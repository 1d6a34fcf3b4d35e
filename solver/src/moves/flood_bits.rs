//! `--metric moves` on boards of up to 64 cells: a block's reachable
//! anchors found a whole frontier at a time with bit operations, instead
//! of a queue of anchors each stepped in four directions with a look at
//! every leading-edge cell.
//!
//! With the other blocks fixed, the block fits at an anchor when the type
//! fits there on the empty board and each of its cells, offset from that
//! anchor, is empty or its own: one AND of the free cells shifted by each
//! offset. A step from an anchor in a direction is legal exactly where the
//! anchor has a neighbour that way on the empty board (the hop table) and
//! the block fits at the neighbour. So each round shifts the frontier's
//! anchors that have a neighbour each way by that way's cell offset, keeps
//! those where the block fits and that are new, and repeats until nothing
//! is new: a breadth-first flood over the anchors, a layer per round.

use super::NONE;

/// Per type the anchors where it fits on the empty board, per type and
/// direction those with a neighbour that way, and each direction's cell
/// offset.
#[derive(Clone, Debug)]
pub(super) struct FloodBits {
    fit: Vec<u64>,
    /// `hops[t * 4 + d]`.
    hops: Vec<u64>,
    delta: [i32; 4],
}

/// `x` with bit `c` moved to bit `c + by` (bits moved past either end are lost).
#[inline(always)]
fn shift(x: u64, by: i32) -> u64 {
    if by >= 0 {
        x << by
    } else {
        x >> -by
    }
}

impl FloodBits {
    /// The tables of a board of `cells` cells (at most 64) from the hop
    /// table (`(t * cells + anchor) * 4 + d`: the anchor after a step, or
    /// [`NONE`]) and the fit table; `None` on a larger board, or where a
    /// direction's steps do not all move an anchor by the same offset.
    pub fn new(hop: &[u16], fits: &[bool], cells: usize) -> Option<FloodBits> {
        if cells > 64 || cells == 0 {
            return None;
        }
        let types = fits.len() / cells;
        let mut delta: [Option<i32>; 4] = [None; 4];
        let mut hops = vec![0u64; types * 4];
        for (k, &q) in hop.iter().enumerate() {
            if q == NONE {
                continue;
            }
            let (t, at, d) = (k / (cells * 4), k / 4 % cells, k % 4);
            let by = q as i32 - at as i32;
            if *delta[d].get_or_insert(by) != by {
                return None;
            }
            hops[t * 4 + d] |= 1 << at;
        }
        let fit = (0..types)
            .map(|t| {
                (0..cells)
                    .filter(|&a| fits[t * cells + a])
                    .fold(0u64, |m, a| m | 1 << a)
            })
            .collect();
        Some(FloodBits {
            fit,
            hops,
            delta: delta.map(|d| d.unwrap_or(0)),
        })
    }

    /// Visits every anchor other than `from` that a block of type `t`
    /// (cells at `offsets` from its anchor, moving in `directions`) reaches
    /// from `from`, where `free` marks the cells empty or its own; layer by
    /// layer, each in cell order.
    #[inline]
    pub fn flood(
        &self,
        t: usize,
        offsets: &[i32],
        directions: &[usize],
        (from, free): (usize, u64),
        mut visit: impl FnMut(usize),
    ) {
        let fits = offsets
            .iter()
            .fold(self.fit[t], |m, &off| m & shift(free, -off));
        let mut reached = 1u64 << from;
        let mut frontier = reached;
        while frontier != 0 {
            let mut next = 0;
            for &d in directions {
                next |= shift(frontier & self.hops[t * 4 + d], self.delta[d]);
            }
            next &= fits & !reached;
            reached |= next;
            frontier = next;
            while next != 0 {
                visit(next.trailing_zeros() as usize);
                next &= next - 1;
            }
        }
    }
}
