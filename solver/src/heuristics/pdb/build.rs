//! Filling one pattern database: a backward breadth-first search over the
//! abstract puzzle from every abstract goal position. Moves are reversible
//! (a step or slide back over the cells just vacated), so the reversed moves
//! are the project's move generator's moves. Moves of uncounted (merged)
//! blocks cost 0 and the rest 1: a 0-1 BFS whose zero-cost successors join
//! the current layer. One byte per entry; [`UNSEEN`] marks abstract positions
//! no goal reaches (or farther than 254).

use super::abstraction::Abstraction;
use crate::moves::{State, NO_OWNER};

/// Table value of positions the search did not reach.
pub const UNSEEN: u8 = u8::MAX;

/// Expansions between two calls of the progress callback.
const REPORT_EVERY: u32 = 1 << 16;

/// The distance table of `abs`, one byte per rank. `progress` is called now
/// and then with the entries reached so far and the current distance, so a
/// long build can show how far it is.
pub fn fill(abs: &mut Abstraction, progress: &mut dyn FnMut(u64, u8)) -> Vec<u8> {
    let mut dist = vec![UNSEEN; abs.size as usize];
    let mut current: Vec<u32> = Vec::new();
    let mut state = State::new(&abs.puzzle);
    goal_positions(abs, &mut state, 0, &mut |abs, s| {
        let r = abs.rank(s);
        if dist[r] != 0 {
            dist[r] = 0;
            current.push(r as u32);
        }
    });
    let mut next: Vec<u32> = Vec::new();
    let mut moves = Vec::new();
    let mut d: u8 = 0;
    let mut reached = current.len() as u64;
    let mut since_report = 0u32;
    while !current.is_empty() && d < UNSEEN - 1 {
        let mut k = 0;
        while k < current.len() {
            let r = current[k] as usize;
            k += 1;
            if dist[r] != d {
                continue; // reached more cheaply since it was queued
            }
            since_report += 1;
            if since_report == REPORT_EVERY {
                since_report = 0;
                progress(reached, d);
            }
            abs.unrank(r, &mut state);
            abs.moves.generate(&state, &mut moves);
            for &m in &moves {
                let free = !abs.counted[m.instance as usize];
                let nd = if free { d } else { d + 1 };
                abs.moves.apply(&mut state, m);
                let r2 = abs.rank(&state);
                abs.moves.undo(&mut state, m);
                if dist[r2] > nd {
                    reached += u64::from(dist[r2] == UNSEEN);
                    dist[r2] = nd;
                    if free {
                        current.push(r2 as u32);
                    } else {
                        next.push(r2 as u32);
                    }
                }
            }
        }
        std::mem::swap(&mut current, &mut next);
        next.clear();
        d += 1;
        progress(reached, d);
    }
    dist
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
