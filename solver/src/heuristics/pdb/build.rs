//! Filling one pattern database: a backward breadth-first search over the
//! abstract puzzle from every abstract goal position. Moves are reversible
//! (a step or slide back over the cells just vacated), so the reversed moves
//! are the project's move generator's moves. Moves of uncounted (merged)
//! blocks cost 0 and the rest 1: a 0-1 BFS whose zero-cost successors join
//! the current layer. One byte per entry; [`UNSEEN`] marks abstract positions
//! no goal reaches (or farther than 254).
//!
//! On `--threads` threads: a layer is expanded in rounds, each round's
//! states split among the threads in chunks (each thread with its own copy
//! of the abstraction's move generator and index scratch); an entry is
//! lowered with an atomic minimum, so exactly the thread that lowers it
//! queues it, for the next round of this layer (a zero-cost move) or for
//! the next layer.
//!
//! A build told to stop (the search's `--time-limit` has passed) stops
//! within a round of layer d (each thread asks before each chunk of
//! states) and caps every entry at d: the layers before d
//! are complete, so every entry truly nearer than d holds its distance, and
//! every other entry's true distance is at least d. The cap matters for the
//! entries a counted move of layer d has already set to d + 1, which a
//! zero-cost move later in the layer might have lowered to d, and for those
//! not reached at all. The table stays admissible, only weaker; it is never
//! cached.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed};

use super::abstraction::Abstraction;
use super::Stop;
use crate::moves::{State, NO_OWNER};

/// Table value of positions the search did not reach.
pub const UNSEEN: u8 = u8::MAX;

/// States a thread takes from a round at a time.
const CHUNK: usize = 1 << 12;

/// The distance table of `abs`, one byte per rank, filled on `threads`
/// threads, and whether it is complete (false: `stop` said so before a
/// round or a chunk, see the module's doc). `progress` is called after each round with
/// the entries reached so far and the current distance, so a long build can
/// show how far it is.
pub fn fill(
    abs: &mut Abstraction,
    threads: usize,
    stop: Stop,
    progress: &mut dyn FnMut(u64, u8),
) -> (Vec<u8>, bool) {
    let Some(dist) = super::filled(abs.size, || AtomicU8::new(UNSEEN), stop) else {
        // Every entry capped at distance 0, as a build stopped in layer 0.
        return (vec![0; abs.size as usize], false);
    };
    let mut current: Vec<u32> = Vec::new();
    let mut state = State::new(&abs.puzzle);
    goal_positions(abs, &mut state, 0, &mut |abs, s| {
        let r = abs.rank(s);
        if dist[r].swap(0, Relaxed) != 0 {
            current.push(r as u32);
        }
    });
    let mut workers: Vec<Abstraction> = (0..threads.max(1)).map(|_| abs.clone()).collect();
    let reached = AtomicU64::new(current.len() as u64);
    let mut d: u8 = 0;
    let mut complete = true;
    'layers: while !current.is_empty() && d < UNSEEN - 1 {
        let mut next = Vec::new();
        while !current.is_empty() {
            let (same, later, stopped) = expand(&mut workers, &current, &dist, d, &reached, stop);
            if stopped {
                complete = false;
                break 'layers;
            }
            next.extend(later);
            current = same;
            progress(reached.load(Relaxed), d);
        }
        current = next;
        d += 1;
        progress(reached.load(Relaxed), d);
    }
    let cap = if complete { UNSEEN } else { d };
    let table = dist.into_iter().map(|v| v.into_inner().min(cap)).collect();
    (table, complete)
}

/// Expands the states of `round` still at distance `d`, one thread per
/// worker: the states lowered to `d` (zero-cost moves), those lowered to
/// `d + 1`, and whether `stop` ended the round early (asked before each
/// chunk; the queues are then incomplete and the caller stops).
fn expand(
    workers: &mut [Abstraction],
    round: &[u32],
    dist: &[AtomicU8],
    d: u8,
    reached: &AtomicU64,
    stop: Stop,
) -> (Vec<u32>, Vec<u32>, bool) {
    let next = AtomicUsize::new(0);
    let stopped = AtomicBool::new(false);
    let parts: Vec<(Vec<u32>, Vec<u32>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = workers
            .iter_mut()
            .map(|abs| {
                let (next, stopped) = (&next, &stopped);
                scope.spawn(move || {
                    let (mut same, mut later) = (Vec::new(), Vec::new());
                    let (mut state, mut moves) = (State::new(&abs.puzzle), Vec::new());
                    loop {
                        if stopped.load(Relaxed) || stop() {
                            stopped.store(true, Relaxed);
                            return (same, later);
                        }
                        let start = next.fetch_add(CHUNK, Relaxed);
                        let Some(chunk) = round.get(start..round.len().min(start + CHUNK)) else {
                            return (same, later);
                        };
                        for &r in chunk {
                            if dist[r as usize].load(Relaxed) != d {
                                continue; // reached more cheaply since it was queued
                            }
                            abs.unrank(r as usize, &mut state);
                            abs.moves.generate(&state, &mut moves);
                            for &m in &moves {
                                let free = !abs.counted[m.instance as usize];
                                let nd = if free { d } else { d + 1 };
                                abs.moves.apply(&mut state, m);
                                let r2 = abs.rank(&state);
                                abs.moves.undo(&mut state, m);
                                if dist[r2].load(Relaxed) <= nd {
                                    continue;
                                }
                                let old = dist[r2].fetch_min(nd, Relaxed);
                                if old > nd {
                                    if old == UNSEEN {
                                        reached.fetch_add(1, Relaxed);
                                    }
                                    if free { &mut same } else { &mut later }.push(r2 as u32);
                                }
                            }
                        }
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a table builder thread panicked"))
            .collect()
    });
    let (mut same, mut later) = (Vec::new(), Vec::new());
    for (s, l) in parts {
        same.extend(s);
        later.extend(l);
    }
    (same, later, stopped.into_inner())
}

/// Calls `visit` with every abstract goal position: the blocks placed one
/// instance at a time (interchangeable ones in ascending anchor order, so
/// each position once), unique goal blocks only on their goal anchor.
fn goal_positions(
    abs: &mut Abstraction,
    state: &mut State,
    instance: usize,
    visit: &mut dyn FnMut(&mut Abstraction, &State),
) {
    if instance == state.anchors.len() {
        if abs.geometry.is_goal(state) {
            visit(abs, state);
        }
        return;
    }
    let t = abs.puzzle.instance_type(instance);
    let range = abs.puzzle.type_range(t);
    let fixed = match abs.geometry.targets().iter().find(|(r, _)| *r == range) {
        Some((r, anchors)) if r.len() == 1 => Some(anchors[0] as usize),
        _ => None,
    };
    let lowest = if instance > range.start {
        state.anchors[instance - 1] as usize + 1
    } else {
        0
    };
    let cells = abs.moves.shapes().cells(t).to_vec();
    for a in lowest..abs.puzzle.board.len() {
        if fixed.is_some_and(|g| g != a) || !abs.moves.fits(t, a) {
            continue;
        }
        let free = cells
            .iter()
            .all(|&off| state.owner[(a as i32 + off) as usize] == NO_OWNER);
        if !free {
            continue;
        }
        for &off in &cells {
            state.owner[(a as i32 + off) as usize] = instance as u16;
        }
        state.anchors[instance] = a as u16;
        goal_positions(abs, state, instance + 1, visit);
        for &off in &cells {
            state.owner[(a as i32 + off) as usize] = NO_OWNER;
        }
    }
}
