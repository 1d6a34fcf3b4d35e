//! Weighted A* over the abstract states of [`Fluid`]: `f = g +
//! round(weight * h)`, a binary heap (lowest f, then deepest, then first
//! stored), re-opening a state reached with a smaller g. Or, for
//! `--algorithm bfws`, best-first width search: the key is the state's
//! novelty ([`Novelty`]), then h; a state is kept at the first g that
//! reaches it. Each successor is
//! stored and queued as the abstraction emits it, and the time and memory
//! limits are checked every [`CHECK_EVERY`] of them too: one expansion can
//! emit very many (every way to share a split region's units among its
//! pieces).

use crate::clock::Instant;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::model::Fluid;
use super::novelty::Novelty;
use super::refine;
use super::table::{Stored, Table, NO_PARENT};
use crate::heuristics::{self, Heuristic};
use crate::moves::{State, NO_OWNER};
use crate::params::Algorithm;
use crate::search::{Ending, Engine, Limit, SearchError};

/// Successors stored between two checks of the time and memory limits.
const CHECK_EVERY: u64 = 1024;

/// One entry of the open list: lowest `f` first, then the deepest, then
/// the first stored (so that the order, and the plan, is deterministic).
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Open {
    f: Reverse<u64>,
    g: u32,
    id: Reverse<u32>,
}

/// Estimates abstract states on a scratch position that holds their big
/// blocks (anchors and cells); the units' anchors stay as they were and
/// their cells empty, so the heuristic reads the goal blocks and the cells
/// the big blocks cover, as the abstraction keeps them.
struct Estimator {
    heuristic: Box<dyn Heuristic>,
    scratch: State,
    /// The instance of each big index.
    bigs: Vec<usize>,
}

impl Estimator {
    /// The goal distance (for the report) and the estimate of `key`.
    fn estimate(&mut self, e: &Engine, key: &[u16]) -> (u32, u32) {
        let shapes = e.moves.shapes();
        self.scratch.owner.fill(NO_OWNER);
        for (&i, &anchor) in self.bigs.iter().zip(key) {
            self.scratch.anchors[i] = anchor;
            for &off in shapes.cells(shapes.type_of(i)) {
                self.scratch.owner[(anchor as i32 + off) as usize] = i as u16;
            }
        }
        let h = self.heuristic.estimate(&self.scratch);
        (e.geometry.goal_distance(&self.scratch), h)
    }
}

/// How the open list orders states.
enum Order {
    /// `g + round(weight * h)`, re-opening states reached more cheaply.
    Astar { weight: f64 },
    /// Novelty, then h; no re-opening. `mins`: the lowest cell of each
    /// region of the state being expanded.
    Width {
        novelty: Box<Novelty>,
        mins: Vec<u16>,
    },
}

impl Order {
    /// The open list's key of a state with estimate `h` reached at cost
    /// `g`; for BFWS its `key` and regions' lowest cells `mins` join the
    /// novelty tables.
    fn priority(&mut self, h: u32, g: u32, key: &[u16], mins: &[u16]) -> u64 {
        match self {
            Order::Astar { weight } => g as u64 + (*weight * h as f64).round().max(0.0) as u64,
            Order::Width { novelty, .. } => {
                ((novelty.evaluate(h, key, mins) as u64) << 32) | h as u64
            }
        }
    }

    /// What the progress line shows of a key: f, or BFWS's h.
    fn bound(&self, key: u64) -> u64 {
        match self {
            Order::Astar { .. } => key,
            Order::Width { .. } => key & u64::from(u32::MAX),
        }
    }

    /// Bytes the novelty tables hold.
    fn bytes(&self) -> u64 {
        match self {
            Order::Astar { .. } => 0,
            Order::Width { novelty, .. } => novelty.bytes(),
        }
    }
}

/// What the search keeps: the visited states, the open list, the
/// estimator, and the first states examined at the least goal distance,
/// none farther than the start and the start excluded, up to `wanted`, for
/// `--best-out`.
struct Search {
    table: Table,
    open: BinaryHeap<Open>,
    estimator: Estimator,
    order: Order,
    best: (u32, Vec<u32>),
    wanted: usize,
}

/// Plans on the abstraction with `unit`'s blocks as the fluid from
/// `start`, and refines the plan into the positions from `start` to a
/// goal position.
pub fn search(e: &mut Engine, start: &State, unit: usize) -> Ending {
    let mut fluid = Fluid::new(e.puzzle, unit);
    let mut s = Search::new(e, &mut fluid, start);
    let mut key = Vec::new();
    let ending = loop {
        let Some(Open { f, g, id }) = s.open.pop() else {
            break Ending::Exhausted;
        };
        if s.table.cost(id.0) < g {
            continue; // reached more cheaply since
        }
        key.clear();
        key.extend_from_slice(s.table.key(id.0));
        let (h, _) = s.estimator.estimate(e, &key);
        e.progress.bound = s.order.bound(f.0);
        e.examine_at(h);
        s.note_best(h, id.0);
        if let Some(limit) = e.over_limit(s.memory()) {
            break Ending::Stopped(limit);
        }
        if e.is_goal(&s.estimator.scratch) {
            break match s.refined(e, &mut fluid, start, id.0) {
                Ok(path) => Ending::Found(path),
                Err(why) => Ending::Failed(SearchError::Fluid(why)),
            };
        }
        if let Some(limit) = s.expand(e, &mut fluid, &key, (id.0, g)) {
            break Ending::Stopped(limit);
        }
    };
    if e.keep_for_best() && !matches!(ending, Ending::Found(_)) {
        // Refined until the grace deadline, as `best::nearest` scans.
        let grace = e.grace_deadline();
        let best = std::mem::take(&mut s.best.1);
        e.best_paths = best
            .into_iter()
            .take_while(|_| grace.is_none_or(|d| Instant::now() < d))
            .filter_map(|id| s.refined(e, &mut fluid, start, id).ok())
            .collect();
    }
    e.stats.stored = s.table.len() as u64;
    e.stats.peak_memory = e.stats.peak_memory.max(s.memory());
    ending
}

impl Search {
    /// The search with `start` stored and queued.
    fn new(e: &Engine, fluid: &mut Fluid, start: &State) -> Search {
        let mut key = Vec::new();
        fluid.key_of(&e.moves, start, &mut key);
        let mut estimator = Estimator {
            heuristic: heuristics::build(&e.params, e.puzzle, &e.geometry, e.table_memory(1)),
            scratch: start.clone(),
            bigs: (0..fluid.bigs()).map(|j| fluid.instance(j)).collect(),
        };
        let (distance, h) = estimator.estimate(e, &key);
        let mut order = match e.params.algorithm {
            Algorithm::Bfws => Order::Width {
                novelty: Box::new(Novelty::new(
                    fluid.cells(),
                    fluid.big_types(),
                    fluid.units(),
                )),
                mins: Vec::new(),
            },
            _ => Order::Astar {
                weight: e.params.weight,
            },
        };
        // `key_of` left the start loaded: its regions' lowest cells name
        // them in BFWS's atoms.
        let mut start_mins = Vec::new();
        fluid.loaded_mins(&mut start_mins);
        let f = order.priority(h, 0, &key, &start_mins);
        let mut table = Table::new();
        table.insert(&key, NO_PARENT, 0);
        let open = BinaryHeap::from([Open {
            f: Reverse(f),
            g: 0,
            id: Reverse(0),
        }]);
        Search {
            table,
            open,
            estimator,
            order,
            best: (distance, Vec::new()),
            wanted: e.best_count,
        }
    }

    /// Bytes held: the table, the open list, the novelty tables and the
    /// heuristic's tables (pattern databases).
    fn memory(&self) -> u64 {
        held(&self.table, &self.open) + self.order.bytes() + self.estimator.heuristic.memory_bytes()
    }

    /// Keeps `id`, examined at goal distance `h`, among the best states.
    fn note_best(&mut self, h: u32, id: u32) {
        if id == 0 {
            return; // the start: nothing to restart from
        }
        if h < self.best.0 {
            self.best = (h, vec![id]);
        } else if h == self.best.0 && self.best.1.len() < self.wanted {
            self.best.1.push(id);
        }
    }

    /// The positions from `start` to the state `id`, refined.
    fn refined(
        &self,
        e: &Engine,
        fluid: &mut Fluid,
        start: &State,
        id: u32,
    ) -> Result<Vec<State>, String> {
        let plan: Vec<&[u16]> = self
            .table
            .path(id)
            .iter()
            .map(|&s| self.table.key(s))
            .collect();
        refine::refine(e, fluid, start, &plan)
    }

    /// Stores and queues the successors of state `id` (`key`, reached at
    /// cost `g`); a limit reached on the way stops the expansion.
    fn expand(
        &mut self,
        e: &mut Engine,
        fluid: &mut Fluid,
        key: &[u16],
        (id, g): (u32, u32),
    ) -> Option<Limit> {
        fluid.load(&e.moves, &key[..fluid.bigs()]);
        if let Order::Width { novelty, mins } = &mut self.order {
            fluid.loaded_mins(mins);
            novelty.set_parent(Some((key, mins)));
        }
        let reopen = matches!(self.order, Order::Astar { .. });
        let (table, open) = (&mut self.table, &mut self.open);
        let (estimator, order) = (&mut self.estimator, &mut self.order);
        let engine: &Engine = e;
        let tables = estimator.heuristic.memory_bytes();
        let (mut generated, mut stop) = (0u64, None);
        fluid.successors(&engine.moves, key, &mut |s, mins| {
            generated += 1;
            // At the first successor and every CHECK_EVERY after, looking
            // ahead to the index's next doubling.
            if generated % CHECK_EVERY == 1 {
                let ahead = table.growth_within(CHECK_EVERY as usize);
                let now = held(table, open) + order.bytes() + tables;
                stop = out_of_room(engine, now + ahead);
                if stop.is_some() {
                    return true;
                }
            }
            let next = match table.insert(s, id, g + 1) {
                Stored::New(next) => next,
                Stored::Present(next, cost) if reopen && g + 1 < cost => {
                    table.improve(next, id, g + 1);
                    next
                }
                Stored::Present(..) => return false,
            };
            let (_, h) = estimator.estimate(engine, s);
            open.push(Open {
                f: Reverse(order.priority(h, g + 1, s, mins)),
                g: g + 1,
                id: Reverse(next),
            });
            false
        });
        e.stats.generated += generated;
        stop
    }
}

/// Bytes `table` and `open` hold (for the memory limit and the report;
/// the open list by length, as [`Table::bytes`] counts its records).
fn held(table: &Table, open: &BinaryHeap<Open>) -> u64 {
    table.bytes() + (open.len() * std::mem::size_of::<Open>()) as u64
}

/// The memory or time limit, if `held` bytes or the clock is past it.
fn out_of_room(e: &Engine, held: u64) -> Option<Limit> {
    if e.limits.max_memory.is_some_and(|m| held > m) {
        return Some(Limit::Memory);
    }
    e.deadline()
        .is_some_and(|d| Instant::now() >= d)
        .then_some(Limit::Time)
}
