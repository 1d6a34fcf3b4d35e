//! Turns a plan of the fluid search into positions, one step apart. Per
//! planned step: the units of each region the step touches are moved,
//! inside their region, so that the cells the big block is about to cover
//! are empty and each part the region splits into holds the number of
//! units the next state says; then the big block steps. A unit is carried
//! to an empty cell along a shortest path by moving, from the far end back,
//! the unit nearest before it on the path: the cells between keep what they
//! hold, so only the two ends change.

use super::model::{each_share, Fluid, NONE};
use crate::moves::{Move, State, NO_OWNER};
use crate::search::Engine;

/// The positions from `start` through the `plan`'s states (abstract keys,
/// the first `start`'s), one step apart.
pub fn refine(
    e: &Engine,
    fluid: &mut Fluid,
    start: &State,
    plan: &[&[u16]],
) -> Result<Vec<State>, String> {
    let mut refiner = Refiner {
        e,
        state: start.clone(),
        path: vec![start.clone()],
        key: Vec::new(),
    };
    for (k, pair) in plan.windows(2).enumerate() {
        refiner.step(fluid, pair[0], pair[1]).map_err(|why| {
            format!(
                "the fluid plan's step {} could not be refined: {why}",
                k + 1
            )
        })?;
    }
    Ok(refiner.path)
}

struct Refiner<'a, 'e> {
    e: &'a Engine<'e>,
    state: State,
    path: Vec<State>,
    /// Scratch for the current position's abstract state.
    key: Vec<u16>,
}

impl Refiner<'_, '_> {
    /// From the position of abstract state `now` to one of `next`.
    fn step(&mut self, fluid: &mut Fluid, now: &[u16], next: &[u16]) -> Result<(), String> {
        let moves = &self.e.moves;
        let b = fluid.bigs();
        let (j, from, to) = self.moved(fluid, &now[..b], &next[..b])?;
        let mut key = std::mem::take(&mut self.key);
        fluid.key_of(moves, &self.state, &mut key);
        if key != now {
            return Err("the blocks or the units are not where the plan has them".into());
        }
        let have = key[b..].to_vec();
        self.key = key;
        let regions = fluid.step_pieces(moves, (j, from, to), &have);
        fluid.unstep(moves, (j, from, to));
        let target = &next[b..];
        if regions != target.len() {
            return Err("the plan's regions after the step differ".into());
        }
        let pieces = fluid.pieces.clone();
        let mut chosen = None;
        let (mut totals, mut amounts) = (vec![0; regions], Vec::new());
        each_share(&pieces, &have, &mut totals, &mut amounts, &mut |t, a| {
            let hit = t == target;
            if hit {
                chosen = Some(a.to_vec());
            }
            hit
        });
        let chosen = chosen.ok_or("no share of the units gives the next state")?;
        let mut p = 0;
        while p < pieces.len() {
            let old = pieces[p].old;
            let end = p + pieces[p..].iter().take_while(|q| q.old == old).count();
            // The region's units about to be covered must go, and those
            // beyond what a part is to hold; they fill the parts short of it.
            let mut spare = self.units_where(fluid, old, NONE);
            let mut short = Vec::new();
            for (piece, &amount) in pieces[p..end].iter().zip(&chosen[p..end]) {
                let held = self.units_where(fluid, old, piece.new);
                let amount = amount as usize;
                spare.extend(held.iter().skip(amount));
                short.extend((held.len()..amount).map(|_| piece.new));
            }
            for new in short {
                let src = spare
                    .pop()
                    .ok_or("fewer units to move than places to fill")?;
                self.carry(fluid, src, old, new)?;
            }
            if !spare.is_empty() {
                return Err("units left where the step covers".into());
            }
            p = end;
        }
        let instance = fluid.instance(j);
        self.apply(Move {
            instance: instance as u16,
            from: from as u16,
            to: to as u16,
        });
        Ok(())
    }

    /// The big block that moves from `now` to `next`: its big index in the
    /// current position, its anchor before and after.
    fn moved(
        &self,
        fluid: &Fluid,
        now: &[u16],
        next: &[u16],
    ) -> Result<(usize, usize, usize), String> {
        let first = (0..now.len())
            .find(|&j| now[j] != next[j])
            .ok_or("no big block moves")?;
        let group = fluid.group(first);
        let (a, b) = (&now[group.clone()], &next[group.clone()]);
        let from = *a.iter().find(|x| !b.contains(x)).ok_or("no block left")?;
        let to = *b.iter().find(|x| !a.contains(x)).ok_or("no block came")?;
        let j = group
            .clone()
            .find(|&j| self.state.anchors[fluid.instance(j)] == from)
            .ok_or("the moving block is not in the position")?;
        Ok((j, from as usize, to as usize))
    }

    /// Cells of region `old` (before the step) in region `new` after it
    /// ([`NONE`]: the cells the step covers) that hold a unit.
    fn units_where(&self, fluid: &Fluid, old: u16, new: u16) -> Vec<usize> {
        (0..fluid.region.len())
            .filter(|&x| fluid.region[x] == old && fluid.after[x] == new && self.unit_at(fluid, x))
            .collect()
    }

    fn unit_at(&self, fluid: &Fluid, cell: usize) -> bool {
        let o = self.state.owner[cell];
        o != NO_OWNER && fluid.units.contains(&(o as usize))
    }

    /// Carries the unit at `src` to the nearest empty cell of region `old`
    /// that lies in region `new` after the step, inside region `old`.
    fn carry(&mut self, fluid: &Fluid, src: usize, old: u16, new: u16) -> Result<(), String> {
        let cells = fluid.region.len();
        let mut parent = vec![NONE; cells];
        let mut queue = std::collections::VecDeque::from([src]);
        parent[src] = src as u16;
        let dst = loop {
            let x = queue
                .pop_front()
                .ok_or("no empty cell to carry a unit to")?;
            if fluid.after[x] == new && !self.unit_at(fluid, x) {
                break x;
            }
            for y in fluid.neighbors(x) {
                let y = y as usize;
                if y != NONE as usize && fluid.region[y] == old && parent[y] == NONE {
                    parent[y] = x as u16;
                    queue.push_back(y);
                }
            }
        };
        let mut path = vec![dst];
        while *path.last().unwrap_or(&src) != src {
            path.push(parent[path[path.len() - 1]] as usize);
        }
        path.reverse();
        let mut end = path.len() - 1;
        while end > 0 {
            let j = (0..end)
                .rev()
                .find(|&i| self.unit_at(fluid, path[i]))
                .ok_or("no unit on the carrying path")?;
            for i in j..end {
                let unit = self.state.owner[path[i]];
                self.apply(Move {
                    instance: unit,
                    from: path[i] as u16,
                    to: path[i + 1] as u16,
                });
            }
            end = j;
        }
        Ok(())
    }

    /// Plays `m` and records the position it gives.
    fn apply(&mut self, m: Move) {
        self.e.moves.apply(&mut self.state, m);
        self.path.push(self.state.clone());
    }
}
