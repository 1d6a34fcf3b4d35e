//! Cell marks that are all cleared at once: each cell holds the number of
//! the round that marked it, and a new round makes every mark stale
//! without touching the cells (they are zeroed only when the count wraps).
//! The `--metric moves` flood marks the anchors it has reached; under
//! `--metric steps` the commuting-step check marks the cells the last step
//! vacated (one generator serves one metric, so they share one set).

#[derive(Clone, Debug)]
pub(super) struct Stamps {
    stamp: Vec<u32>,
    round: u32,
}

impl Stamps {
    /// No cell marked, on a board of `cells` cells.
    pub fn new(cells: usize) -> Stamps {
        Stamps {
            stamp: vec![0; cells],
            round: 0,
        }
    }

    /// Clears every mark.
    #[inline]
    pub fn clear(&mut self) {
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.stamp.fill(0);
            self.round = 1;
        }
    }

    #[inline(always)]
    pub fn mark(&mut self, cell: usize) {
        self.stamp[cell] = self.round;
    }

    #[inline(always)]
    pub fn marked(&self, cell: usize) -> bool {
        self.stamp[cell] == self.round
    }
}
