//! A* successors' estimates, on several threads where they cost enough.
//!
//! On the hard GNOME levels A* spends most of its time in the heuristic
//! (`path`: 57% on Ithaca at weight 5), and a node's successors are
//! estimated independently of each other. With
//! `--threads N` the estimates of a node's successors are shared out over a
//! crew of N threads, each with a heuristic of its own, and the successors go
//! into the open list afterwards in the order they were generated: the same
//! values in the same order, so the search is the one of one thread.
//!
//! Handing a node to the crew costs about 4 microseconds (measured on
//! Ithaca), more than a cheap heuristic (h0, manhattan) spends on all of a
//! node's successors. With more than one thread the estimates of the first
//! [`CALIBRATE`] nodes are timed on the search's own thread, and the crew
//! takes over only when they average [`COSTLY`] a node or more (`path` on
//! Ithaca: about 1.2 microseconds an estimate, 15 a node). Otherwise, and
//! on one thread from the start, estimates are made inline as successors
//! come. A heuristic with tables (pattern databases) stays on one thread: a
//! copy per thread would multiply its memory.
//!
//! The crew is timed too, [`RECHECK`] nodes at a time, and sent away for
//! good when a node takes it longer than the timed nodes took this thread
//! alone, [`SLOW_CHECKS`] checks in a row. On a machine whose other work
//! keeps a core busy, a helper that is not scheduled holds every node up:
//! Ithaca at weight 5 with `--threads 2` took 13.3 s against 3.3 s on one
//! thread in such a spell; with a busy loop on the other core, now 2.03-2.11
//! s against 2.06 s (1.39-1.43 s against 1.81-1.84 s with the core free).

use crate::clock::Instant;
use std::time::Duration;

use super::crew::Crew;
use super::Engine;
use crate::heuristics::{self, Heuristic};
use crate::moves::State;

/// Nodes whose estimates are timed before deciding whether the crew takes
/// over.
const CALIBRATE: u32 = 64;

/// Mean time of a node's estimates from which the crew pays.
const COSTLY: Duration = Duration::from_micros(8);

/// Nodes the crew is timed over before it is judged against one thread.
const RECHECK: u32 = 256;

/// Checks in a row in which the crew must be slower than one thread before
/// it goes: one check can catch a passing stall (the first on Ithaca once
/// took 87 microseconds a node, the next ones 5-11, against 15 alone).
const SLOW_CHECKS: u32 = 3;

/// The estimates of a search, queued a node's successors at a time.
pub(super) struct Estimator {
    /// One heuristic per thread with its output; part 0 is the search's
    /// own thread's (the only one until the crew takes over).
    parts: Vec<Part>,
    /// The crew, from the decision on.
    crew: Option<Crew>,
    /// Threads asked for (`--threads`).
    threads: usize,
    /// Nodes timed so far (those with estimates to make), and how long
    /// their estimates took.
    timed: (u32, Duration),
    /// The queued successors' positions (kept between nodes, so that a
    /// position is copied into room already there).
    states: Vec<State>,
    queued: usize,
    /// Their estimates, by queue position.
    values: Vec<u32>,
    /// Mean time of a node's estimates from which the crew takes over
    /// ([`COSTLY`]).
    costly: Duration,
    /// Nodes the crew estimated since its last check, and how long they
    /// took from hand-over to the last value ([`RECHECK`]).
    crew_timed: (u32, Duration),
    /// Checks in a row that found the crew slower ([`SLOW_CHECKS`]).
    slow_checks: u32,
}

/// One thread's heuristic, and the estimates it made of a node's
/// successors (kept between nodes: no allocation per node).
struct Part {
    heuristic: Box<dyn Heuristic>,
    out: Vec<u32>,
}

impl Estimator {
    /// The heuristic of `e`'s parameters, on `--threads` threads once it
    /// proves costly enough.
    pub fn new(e: &Engine) -> Estimator {
        Estimator {
            parts: vec![Part {
                heuristic: heuristics::build(&e.params, e.puzzle, &e.geometry, e.table_memory(1)),
                out: Vec::new(),
            }],
            crew: None,
            threads: e.params.threads.max(1),
            timed: (0, Duration::ZERO),
            states: Vec::new(),
            queued: 0,
            values: Vec::new(),
            costly: COSTLY,
            crew_timed: (0, Duration::ZERO),
            slow_checks: 0,
        }
    }

    /// Bytes of precomputed tables the heuristic holds.
    pub fn memory_bytes(&self) -> u64 {
        self.parts[0].heuristic.memory_bytes()
    }

    /// The estimate of `state`, on this thread.
    pub fn estimate(&mut self, state: &State) -> u32 {
        self.parts[0].heuristic.estimate(state)
    }

    /// Queues `state` (a successor of the node being expanded) for
    /// [`Estimator::run`].
    pub fn queue(&mut self, state: &State) {
        match self.states.get_mut(self.queued) {
            Some(room) => room.clone_from(state),
            None => self.states.push(state.clone()),
        }
        self.queued += 1;
    }

    /// True when estimates are made as successors come, on this thread,
    /// without queueing: on one thread, and once the timing has kept the
    /// crew away (then the search is the one-thread loop, no copy, no clock).
    pub fn inline(&self) -> bool {
        self.crew.is_none() && (self.threads == 1 || self.timed.0 >= CALIBRATE)
    }

    /// The estimates of the queued positions, in queue order; the queue is
    /// then empty. Nothing queued: nothing handed over or timed.
    pub fn run(&mut self, e: &Engine) -> &[u32] {
        let n = std::mem::take(&mut self.queued);
        self.values.clear();
        if n == 0 {
            return &self.values;
        }
        let states = &self.states[..n];
        match &self.crew {
            Some(crew) => {
                let started = Instant::now();
                let threads = self.parts.len();
                crew.each(&mut self.parts, |k, part| {
                    part.out.clear();
                    let mine = states.iter().skip(k).step_by(threads);
                    part.out.extend(mine.map(|s| part.heuristic.estimate(s)));
                });
                let parts = &self.parts;
                self.values
                    .extend((0..n).map(|j| parts[j % threads].out[j / threads]));
                self.crew_timed.0 += 1;
                self.crew_timed.1 += started.elapsed();
                if self.crew_timed.0 == RECHECK {
                    self.recheck();
                }
            }
            None => {
                // Queued only while the first nodes are timed.
                let started = Instant::now();
                let own = &mut self.parts[0].heuristic;
                self.values.extend(states.iter().map(|s| own.estimate(s)));
                self.timed.0 += 1;
                self.timed.1 += started.elapsed();
                if self.timed.0 == CALIBRATE {
                    self.decide(e);
                }
            }
        }
        &self.values
    }

    /// After [`RECHECK`] nodes on the crew: the crew goes (the threads
    /// end, estimates are made inline from now on) when its nodes took
    /// longer than the calibration's on this thread alone, [`SLOW_CHECKS`]
    /// checks in a row.
    fn recheck(&mut self) {
        let crew = self.crew_timed.1 / self.crew_timed.0.max(1);
        let alone = self.timed.1 / self.timed.0.max(1);
        self.crew_timed = (0, Duration::ZERO);
        self.slow_checks = if crew > alone {
            self.slow_checks + 1
        } else {
            0
        };
        if self.slow_checks == SLOW_CHECKS {
            self.crew = None;
            self.parts.truncate(1);
        }
    }

    /// After [`CALIBRATE`] nodes: a crew when the heuristic has no tables
    /// and a node's estimates are costly. Reached only with more than one
    /// thread asked for (on one, [`Estimator::inline`] holds from the start
    /// and nothing is queued). The other threads' heuristics are built on
    /// the threads that use them, so that their scratch memory is not
    /// beside this one's.
    fn decide(&mut self, e: &Engine) {
        debug_assert!(self.threads > 1, "one thread estimates inline");
        let mean = self.timed.1 / self.timed.0.max(1);
        if self.memory_bytes() > 0 || mean < self.costly {
            return;
        }
        let crew = Crew::new(self.threads - 1);
        let (params, puzzle, geometry) = (&e.params, e.puzzle, &e.geometry);
        let mut built: Vec<Option<Part>> = (0..self.threads).map(|_| None).collect();
        // Item k on thread k; thread 0 (this one) has its part already.
        crew.each(&mut built, |k, slot| {
            if k > 0 {
                *slot = Some(Part {
                    // No tables (else no crew): nothing to limit.
                    heuristic: heuristics::build(params, puzzle, geometry, None),
                    out: Vec::new(),
                })
            }
        });
        self.parts.extend(built.into_iter().flatten());
        self.crew = Some(crew);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats;
    use crate::moves::MoveGenerator;
    use crate::params::{Limits, Metric, SearchParams};

    /// Walks `nodes` nodes of American Pie with `path` on two threads (the
    /// crew made to take over after the timed estimates, however fast they
    /// were), checking every estimate against a fresh heuristic: queued and
    /// run in order, or made inline once the estimator says so. `before`
    /// sees the estimator ahead of each node. Returns the estimator.
    fn walk(nodes: usize, mut before: impl FnMut(usize, &mut Estimator)) -> Estimator {
        let puzzle = formats::bundled("klotski/american_pie.txt");
        let mut params = SearchParams::default();
        params.heuristic = crate::params::Heuristic::new("path");
        params.threads = 2;
        let e = crate::search::test_engine(&puzzle, &params, &Limits::default());
        let mut estimator = Estimator::new(&e);
        estimator.costly = Duration::ZERO;
        let mut alone = heuristics::build(&params, &puzzle, &e.geometry, None);
        let mut moves = MoveGenerator::new(&puzzle, Metric::Steps, &[]);
        let mut state = State::new(&puzzle);
        state.load(&puzzle.start, moves.shapes());
        let mut list = Vec::new();
        for step in 0..nodes {
            before(step, &mut estimator);
            moves.generate(&state, &mut list);
            let mut expected = Vec::new();
            for &m in &list {
                moves.apply(&mut state, m);
                if estimator.inline() {
                    assert_eq!(estimator.estimate(&state), alone.estimate(&state));
                } else {
                    estimator.queue(&state);
                    expected.push(alone.estimate(&state));
                }
                moves.undo(&mut state, m);
            }
            if !expected.is_empty() {
                assert_eq!(estimator.run(&e), &expected[..], "node {step}");
            }
            moves.apply(&mut state, list[(step * 5 + 1) % list.len()]);
        }
        estimator
    }

    /// On the crew or not, the estimates are the heuristic's, in queue order.
    #[test]
    fn estimates_on_the_crew_are_those_of_one_thread_in_order() {
        let estimator = walk(CALIBRATE as usize + 40, |_, _| {});
        assert!(estimator.crew.is_some(), "the crew took over");
    }

    /// A crew slower than one thread goes, and the estimates stay the
    /// heuristic's: here the calibration is made to say one thread took no
    /// time at all, so the crew is slower at every check and goes.
    #[test]
    fn a_crew_slower_than_one_thread_is_sent_away() {
        let nodes = (CALIBRATE + SLOW_CHECKS * RECHECK + 10) as usize;
        let estimator = walk(nodes, |step, estimator| {
            if step == CALIBRATE as usize {
                assert!(estimator.crew.is_some(), "the crew took over");
                estimator.timed.1 = Duration::ZERO;
            }
        });
        assert!(estimator.crew.is_none(), "the crew was sent away");
        assert!(estimator.inline(), "estimates are made inline after it");
    }
}
