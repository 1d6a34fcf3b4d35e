//! Shortening a solution (`solver improve`): the solution becomes the path of
//! positions it passes through (one per step, or per move with `--metric
//! moves`), and windows of the path are replaced by breadth-first shortcuts
//! between their end positions ([`shortcut`]). Windows grow (4, 8, 16, ...
//! up to `--window`) so cheap shortcuts are taken first; a shortcut is taken
//! only when it is strictly shorter, and never skips a goal section of a
//! subgoal sequence, so the result is never longer than the input. Rounds
//! repeat until one takes no shortcut (or the time is up). First, every
//! loop (the path back at a position it passed, within one goal section)
//! is cut out, in one pass: the fluid searches' refined plans hold many.
//!
//! Aggressive settings (weighted A*, prunings) find long solutions fast; this
//! brings them towards the optimum at a small fraction of a full BFS's cost,
//! since each search only covers the neighbourhood of one window. The
//! result is replayed by the independent verifier before it is returned.

pub mod optimal;
mod shortcut;

use crate::clock::Instant;
use std::collections::HashMap;
use std::time::Duration;

use crate::encoding::PositionEncoding;
use crate::model::Puzzle;
use crate::moves::State;
use crate::params::{Limits, Metric, SearchParams};
use crate::search::{path, Engine, Progress};
use crate::solution::SolutionMove;
use crate::verify::{replay, replay_observed, Replay};

/// How hard to try.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// What one action is: shortcuts are shortest in this metric.
    pub metric: Metric,
    /// Longest window (in actions) a shortcut may replace.
    pub window: usize,
    /// Positions one shortcut search may expand.
    pub max_positions: u64,
    /// Positions all shortcut searches together may expand.
    pub max_total: Option<u64>,
    /// Seconds the whole improvement may take.
    pub time_limit: Option<f64>,
}

/// The result of an improvement.
pub struct Improved {
    /// The shortened solution (the input when nothing was shorter).
    pub moves: Vec<SolutionMove>,
    /// The input's replay.
    pub first: Replay,
    /// The result's replay (solved, never longer than `first`).
    pub last: Replay,
    /// Shortcuts taken.
    pub shortcuts: usize,
    /// Positions expanded by all shortcut searches.
    pub examined: u64,
    /// The time limit or `max_total` stopped it before a round without
    /// shortcuts.
    pub limit_reached: bool,
}

/// Why a solution cannot be improved.
#[derive(Debug)]
pub enum ImproveError {
    /// The solution is illegal or does not reach every goal section.
    NotASolution(String),
    /// The shortened path did not replay: a bug, please report it.
    Internal(String),
}

/// The path's positions and, per position, the goal sections reached.
struct PathState {
    states: Vec<State>,
    reached: Vec<usize>,
    keys: Vec<Vec<u64>>,
}

/// Shortens `moves`, a valid solution of `puzzle`.
pub fn improve(
    puzzle: &Puzzle,
    moves: &[SolutionMove],
    options: &Options,
) -> Result<Improved, ImproveError> {
    let first = match replay(puzzle, moves) {
        Ok(r) if r.solved => r,
        Ok(r) => return Err(ImproveError::NotASolution(r.shortfall(puzzle.goals.len()))),
        Err(e) => return Err(ImproveError::NotASolution(e.to_string())),
    };
    let started = Instant::now();
    let deadline = options
        .time_limit
        .and_then(|s| Duration::try_from_secs_f64(s.max(0.0)).ok())
        .and_then(|d| started.checked_add(d));
    let params = SearchParams {
        metric: options.metric,
        ..SearchParams::default()
    };
    let goal = puzzle.goals.last().expect("a solved puzzle has a goal");
    let limits = Limits::default();
    let mut e = Engine::new(
        puzzle,
        goal,
        &params,
        &limits,
        &[],
        Progress::disabled(),
        None,
    );
    let mut path = PathState::new(&mut e, moves);
    let mut result = Improved {
        moves: Vec::new(),
        first: first.clone(),
        last: first,
        shortcuts: path.cut_loops(),
        examined: 0,
        limit_reached: false,
    };
    loop {
        let before = result.shortcuts;
        for window in windows(options.window) {
            sweep(&mut e, &mut path, window, options, deadline, &mut result);
        }
        if result.shortcuts == before || result.limit_reached {
            break;
        }
    }
    finish(&mut e, &path, moves, result)
}

/// Window lengths of one round: 4, 8, 16, ... then `max` itself.
fn windows(max: usize) -> Vec<usize> {
    let mut w: Vec<usize> = std::iter::successors(Some(4usize), |w| w.checked_mul(2))
        .take_while(|&w| w < max)
        .collect();
    w.push(max.max(1));
    w
}

/// One pass over the path with windows of `window` actions.
fn sweep(
    e: &mut Engine,
    path: &mut PathState,
    window: usize,
    options: &Options,
    deadline: Option<Instant>,
    result: &mut Improved,
) {
    let mut at = 0;
    while at + 1 < path.states.len() && !result.limit_reached {
        let end = (at + window).min(path.states.len() - 1);
        // Later positions of the same goal section; the latest copy of a
        // position that the path visits twice wins.
        let mut targets: HashMap<&[u64], usize> = HashMap::new();
        for j in at + 1..=end {
            if path.reached[j] == path.reached[at] {
                targets.insert(&path.keys[j], j);
            }
        }
        let left = options
            .max_total
            .map_or(u64::MAX, |t| t.saturating_sub(result.examined));
        if left == 0 {
            result.limit_reached = true;
            break;
        }
        let bounds = shortcut::Bounds {
            max_depth: window.saturating_sub(1),
            max_positions: options.max_positions.min(left),
            deadline,
        };
        let found = shortcut::search(e, &path.states[at], at, &targets, bounds);
        result.examined += found.examined;
        result.limit_reached = found.out_of_time;
        match found.shortcut {
            Some(s) => {
                path.splice(e, at, s);
                result.shortcuts += 1;
            }
            None => at += 1,
        }
    }
}

/// The solution lines of the final path, replayed: never longer than the
/// input, or the input itself.
fn finish(
    e: &mut Engine,
    path: &PathState,
    input: &[SolutionMove],
    mut result: Improved,
) -> Result<Improved, ImproveError> {
    if result.shortcuts == 0 {
        result.moves = input.to_vec();
        return Ok(result);
    }
    let moves = path::lines(e, &path.states);
    let last = replay(e.puzzle, &moves).map_err(|err| {
        ImproveError::Internal(format!("the shortened solution is illegal: {err}"))
    })?;
    let length = |r: &Replay| match e.params.metric {
        Metric::Steps => r.steps,
        Metric::Moves => r.moves,
    };
    if !last.solved || length(&last) > length(&result.first) {
        return Err(ImproveError::Internal(format!(
            "the shortened solution does not solve the puzzle or is longer ({} against {})",
            length(&last),
            length(&result.first)
        )));
    }
    result.moves = moves;
    result.last = last;
    Ok(result)
}

impl PathState {
    /// The positions `moves` passes through: after each step, or with the
    /// moves metric after each run of one block's lines.
    fn new(e: &mut Engine, moves: &[SolutionMove]) -> PathState {
        let puzzle = e.puzzle;
        let mut unit: Vec<SolutionMove> = Vec::new();
        for m in moves {
            let (mut r, mut c) = (m.row as i32, m.col as i32);
            for &d in &m.steps {
                unit.push(SolutionMove {
                    id: m.id,
                    row: r as usize,
                    col: c as usize,
                    steps: vec![d],
                });
                let (dr, dc) = d.delta();
                (r, c) = (r + dr, c + dc);
            }
        }
        let mut anchors: Vec<Vec<u16>> = vec![puzzle.start.anchors.clone()];
        let mut moved: Vec<usize> = Vec::new();
        replay_observed(puzzle, &unit, |_, a| {
            let a: Vec<u16> = a.iter().map(|&x| x as u16).collect();
            let prev = anchors.last().expect("the start");
            moved.push((0..a.len()).find(|&i| a[i] != prev[i]).unwrap_or(0));
            anchors.push(a);
        })
        .expect("replayed before");
        let keep = |k: usize| {
            e.params.metric == Metric::Steps || k == moved.len() || moved[k - 1] != moved[k]
        };
        let shapes = e.moves.shapes().clone();
        let states: Vec<State> = (0..anchors.len())
            .filter(|&k| k == 0 || keep(k))
            .map(|k| {
                let mut s = State::new(puzzle);
                s.anchors.copy_from_slice(&anchors[k]);
                s.rebuild_owner(&shapes);
                s
            })
            .collect();
        let mut path = PathState {
            states,
            reached: Vec::new(),
            keys: Vec::new(),
        };
        path.refresh(e);
        path
    }

    /// Replaces the positions after `at` up to the shortcut's end. Only the
    /// new positions are encoded, unless one of them reaches a goal section
    /// early (then every later count changes, and all are recomputed).
    fn splice(&mut self, e: &mut Engine, at: usize, s: shortcut::Shortcut) {
        let (keys, reached) = self.describe(e, &s.states, self.reached[at]);
        if reached.last() != Some(&self.reached[s.to]) {
            self.states.splice(at + 1..=s.to, s.states);
            self.refresh(e);
            return;
        }
        self.states.splice(at + 1..=s.to, s.states);
        self.keys.splice(at + 1..=s.to, keys);
        self.reached.splice(at + 1..=s.to, reached);
    }

    /// Cuts out every stretch between two visits of one position within
    /// one goal section, in one pass; returns how many were cut.
    fn cut_loops(&mut self) -> usize {
        let (kept, cuts) = self.without_loops();
        if cuts > 0 {
            self.states = kept.iter().map(|&i| self.states[i].clone()).collect();
            self.keys = kept.iter().map(|&i| self.keys[i].clone()).collect();
            self.reached = kept.iter().map(|&i| self.reached[i]).collect();
        }
        cuts
    }

    /// The indices of the positions the path keeps once its loops are cut,
    /// and how many loops that cuts.
    fn without_loops(&self) -> (Vec<usize>, usize) {
        let mut at: HashMap<&[u64], usize> = HashMap::new();
        let mut kept: Vec<usize> = Vec::with_capacity(self.states.len());
        let mut cuts = 0;
        for (i, key) in self.keys.iter().enumerate() {
            if let Some(&k) = at.get(key.as_slice()) {
                if self.reached[kept[k]] == self.reached[i] {
                    for &gone in &kept[k + 1..] {
                        at.remove(self.keys[gone].as_slice());
                    }
                    kept.truncate(k + 1);
                    cuts += 1;
                    continue;
                }
            }
            at.insert(key, kept.len());
            kept.push(i);
        }
        (kept, cuts)
    }

    /// Recomputes the keys and the goal sections reached at each position.
    fn refresh(&mut self, e: &mut Engine) {
        let states = std::mem::take(&mut self.states);
        (self.keys, self.reached) = self.describe(e, &states, 0);
        self.states = states;
    }

    /// The keys of `states` and the goal sections reached at each, counting
    /// on from `reached` before the first.
    fn describe(
        &self,
        e: &mut Engine,
        states: &[State],
        mut reached: usize,
    ) -> (Vec<Vec<u64>>, Vec<usize>) {
        let puzzle = e.puzzle;
        let words = e.key_words();
        let keys = states
            .iter()
            .map(|s| {
                let mut k = vec![0u64; words];
                e.encoding.encode(s, &mut k);
                k
            })
            .collect();
        let counts = states
            .iter()
            .map(|s| {
                let p = s.to_position(puzzle);
                while reached < puzzle.goals.len() && puzzle.satisfies(&p, &puzzle.goals[reached]) {
                    reached += 1;
                }
                reached
            })
            .collect();
        (keys, counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;
    use crate::solution::Direction;

    const SMALL: &str = "\
!
@ 1,0 0,1 1,1
a
!
######
#@@a #
#@@  #
#    #
######
!
######
#    #
#  @@#
#  @@#
######
!
";

    fn options(metric: Metric) -> Options {
        Options {
            metric,
            window: 32,
            max_positions: 100_000,
            max_total: None,
            time_limit: None,
        }
    }

    #[test]
    fn a_detour_is_removed() {
        let p = native::parse(SMALL, "t").unwrap();
        // 'a' right and back (a detour of 2 steps), then the master's 3 steps
        // (the optimum).
        let text = "a 1,3 R\na 1,4 L\n@ 1,1 D\n@ 2,1 R\n@ 2,2 R\n";
        let moves = crate::solution::parse(text, "s").unwrap();
        let out = improve(&p, &moves, &options(Metric::Steps)).unwrap();
        assert_eq!(out.first.steps, 5);
        assert!(out.last.solved);
        assert_eq!(out.last.steps, 3, "{:?}", out.moves);
        assert!(out.shortcuts >= 1);
        let replayed = replay(&p, &out.moves).unwrap();
        assert!(replayed.solved);
        assert_eq!(replayed.steps, 3);
        // In moves: 2 (a right and back is one run of one block) become 1.
        let out = improve(&p, &moves, &options(Metric::Moves)).unwrap();
        assert_eq!(out.last.moves, 1, "{:?}", out.moves);
    }

    /// A loop longer than the window (here 4 steps against 2) is cut out
    /// whole: the path comes back to a position it passed.
    #[test]
    fn a_loop_longer_than_the_window_is_cut() {
        let p = native::parse(SMALL, "t").unwrap();
        let text = "a 1,3 R\na 1,4 D\na 2,4 L\na 2,3 U\n@ 1,1 DRR\n";
        let moves = crate::solution::parse(text, "s").unwrap();
        let narrow = Options {
            window: 2,
            ..options(Metric::Steps)
        };
        let out = improve(&p, &moves, &narrow).unwrap();
        assert_eq!((out.first.steps, out.last.steps), (7, 3), "{:?}", out.moves);
        assert_eq!(out.shortcuts, 1);
        assert!(replay(&p, &out.moves).unwrap().solved);
    }

    #[test]
    fn an_optimal_solution_is_kept() {
        let p = native::parse(SMALL, "t").unwrap();
        let text = "@ 1,1 DRR\n";
        let moves = crate::solution::parse(text, "s").unwrap();
        let out = improve(&p, &moves, &options(Metric::Steps)).unwrap();
        assert_eq!((out.shortcuts, out.last.steps), (0, 3));
        assert_eq!(out.moves, moves);
        let out = improve(&p, &moves, &options(Metric::Moves)).unwrap();
        assert_eq!((out.shortcuts, out.last.moves), (0, 1));
    }

    #[test]
    fn refuses_what_is_not_a_solution() {
        let p = native::parse(SMALL, "t").unwrap();
        let short = vec![SolutionMove {
            id: 'a',
            row: 1,
            col: 3,
            steps: vec![Direction::Right],
        }];
        let e = improve(&p, &short, &options(Metric::Steps)).err().unwrap();
        assert!(matches!(e, ImproveError::NotASolution(m) if m.contains("0 of 1")));
    }

    #[test]
    fn windows_grow_to_the_maximum() {
        assert_eq!(windows(32), vec![4, 8, 16, 32]);
        assert_eq!(windows(20), vec![4, 8, 16, 20]);
        assert_eq!(windows(2), vec![2]);
    }
}
