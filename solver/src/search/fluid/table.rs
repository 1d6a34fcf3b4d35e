//! The fluid search's visited states: keys of varying length (the number of
//! regions varies) stored back to back in one arena, found through an
//! open-addressing index of state ids, with each state's parent and cost.
//! No allocation per state: the arena, the records and the index grow by
//! doubling.

/// A state's parent where it has none (the start).
pub const NO_PARENT: u32 = u32::MAX;

/// Visited abstract states; ids are dense, in the order first stored.
pub struct Table {
    words: Vec<u16>,
    /// `starts[id]..starts[id + 1]` is state `id`'s key in `words`.
    starts: Vec<u64>,
    parent: Vec<u32>,
    cost: Vec<u32>,
    /// Per slot `tag << 32 | (id + 1)`, 0 where empty, the tag the key
    /// hash's high half: a probe compares it before the key, so most
    /// mismatches cost no look into the arena (key comparisons were a third
    /// of the search's time on American Pie). A power of two long.
    slots: Vec<u64>,
}

/// What [`Table::insert`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// Stored anew under this id.
    New(u32),
    /// Already stored under this id, at this cost.
    Present(u32, u32),
}

impl Table {
    pub fn new() -> Table {
        Table {
            words: Vec::new(),
            starts: vec![0],
            parent: Vec::new(),
            cost: Vec::new(),
            slots: vec![0; 1 << 10],
        }
    }

    /// States stored.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    pub fn key(&self, id: u32) -> &[u16] {
        let i = id as usize;
        &self.words[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    pub fn cost(&self, id: u32) -> u32 {
        self.cost[id as usize]
    }

    /// Records a cheaper way to state `id`.
    pub fn improve(&mut self, id: u32, parent: u32, cost: u32) {
        self.parent[id as usize] = parent;
        self.cost[id as usize] = cost;
    }

    /// Stores `key` reached from `parent` at `cost`, unless it is stored.
    pub fn insert(&mut self, key: &[u16], parent: u32, cost: u32) -> Stored {
        if 2 * (self.len() + 1) > self.slots.len() {
            self.grow();
        }
        match self.find(key) {
            Ok(id) => Stored::Present(id, self.cost[id as usize]),
            Err((slot, tag)) => {
                let id = self.len() as u32;
                self.words.extend_from_slice(key);
                self.starts.push(self.words.len() as u64);
                self.parent.push(parent);
                self.cost.push(cost);
                self.slots[slot] = tag | (id as u64 + 1);
                Stored::New(id)
            }
        }
    }

    /// The ids from the start to `id`, both included.
    pub fn path(&self, id: u32) -> Vec<u32> {
        let mut path = vec![id];
        while let Some(&p) = path.last().map(|&x| &self.parent[x as usize]) {
            if p == NO_PARENT {
                break;
            }
            path.push(p);
        }
        path.reverse();
        path
    }

    /// Bytes held, for the memory limit and the report: what the process
    /// holds of them. The arenas and records count by length, not
    /// capacity: a large vector grows by remapping, and the room past its
    /// length is not touched until written (counting capacities over-counted
    /// a BFWS's memory by up to a half). The index counts whole: its slots
    /// are written all over once it is rebuilt.
    pub fn bytes(&self) -> u64 {
        (self.words.len() * 2
            + (self.starts.len() + self.slots.len()) * 8
            + (self.parent.len() + self.cost.len()) * 4) as u64
    }

    /// Bytes the index will take on top of [`Table::bytes`] while it grows
    /// within the next `inserts` insertions (the doubled index beside the
    /// old one, then instead of it), 0 if it does not: a memory check
    /// looks this far ahead, so that a doubling never takes the search past
    /// its limit between two checks.
    pub fn growth_within(&self, inserts: usize) -> u64 {
        if 2 * (self.len() + inserts) > self.slots.len() {
            (self.slots.len() * 2 * 8) as u64
        } else {
            0
        }
    }

    /// The id of `key`, or the empty slot where it belongs and its tag.
    fn find(&self, key: &[u16]) -> Result<u32, (usize, u64)> {
        let mask = self.slots.len() - 1;
        let h = hash(key);
        let tag = h & !0xFFFF_FFFF;
        let mut slot = h as usize & mask;
        loop {
            match self.slots[slot] {
                0 => return Err((slot, tag)),
                s if s & !0xFFFF_FFFF == tag && self.key(s as u32 - 1) == key => {
                    return Ok(s as u32 - 1)
                }
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    /// Doubles the index and places every id again.
    fn grow(&mut self) {
        let slots = self.slots.len() * 2;
        self.slots = vec![0; slots];
        for id in 0..self.len() as u32 {
            let h = hash(self.key(id));
            let mut slot = h as usize & (slots - 1);
            while self.slots[slot] != 0 {
                slot = (slot + 1) & (slots - 1);
            }
            self.slots[slot] = (h & !0xFFFF_FFFF) | (id as u64 + 1);
        }
    }
}

/// A multiplicative hash of a key, mixed so that its low bits index.
fn hash(key: &[u16]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = key.len() as u64;
    for chunk in key.chunks(4) {
        let v = chunk
            .iter()
            .enumerate()
            .fold(0u64, |v, (i, &x)| v | (x as u64) << (16 * i));
        h = (h.rotate_left(23) ^ v).wrapping_mul(K);
    }
    h ^ h >> 29
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_any_length_are_found_again_across_growth() {
        let mut t = Table::new();
        let key =
            |i: u32| -> Vec<u16> { (0..(i % 7) as u16 + 1).map(|x| x * 3 + i as u16).collect() };
        for i in 0..5000u32 {
            assert_eq!(t.insert(&key(i), NO_PARENT, i), Stored::New(i));
        }
        for i in 0..5000u32 {
            assert_eq!(t.insert(&key(i), 0, 0), Stored::Present(i, i));
            assert_eq!(t.key(i), &key(i)[..]);
        }
        assert_eq!(t.len(), 5000);
        t.improve(7, 3, 1);
        t.improve(3, NO_PARENT, 0);
        assert_eq!(t.path(7), vec![3, 7]);
        assert_eq!(t.cost(7), 1);
    }
}
