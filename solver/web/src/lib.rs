//! The solver in the browser: the WebAssembly module that the page written
//! by `solver render PUZZLE -o play.html` loads, so that a person can play
//! the puzzle under its own rules and ask for hints from the position they
//! reached. Nothing here judges a move or searches by itself: a person's
//! moves are replayed by the solver's verifier ([`solver::verify`]), and a
//! hint is the solver's own search ([`solver::search::solve`]) from that
//! position, within a position limit.
//!
//! The page talks to it in JSON, one request and one reply at a time
//! ([`handle`]; `docs/render.md` lists the requests). The position is never
//! sent: a request carries the puzzle's native text and the person's moves
//! from the start, in the solution format, and every reply is computed from
//! those, so the page keeps no rules of its own and cannot drift from the
//! solver's.

mod exports;
mod hint;

use serde::Deserialize;
use serde_json::{json, Value};
use solver::formats::native;
use solver::model::Puzzle;
use solver::params::Metric;
use solver::render::{svg, Frames};
use solver::solution::{self, Direction, SolutionMove};
use solver::verify::{self, Replay};

/// Positions a hint may examine when the request names no limit: enough for
/// Klotski and Rush Hour by BFS in a second or two in the page.
pub const DEFAULT_HINT_POSITIONS: u64 = 2_000_000;

/// One request of the page.
#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
enum Request {
    /// Parse a puzzle: its picture and start, or where its text is wrong.
    Open { puzzle: String },
    /// Replay the person's moves: where every block is now.
    Play {
        puzzle: String,
        #[serde(default)]
        moves: String,
    },
    /// One unit step of block instance `instance` after `moves`: the line
    /// that says it, when it is legal, and the position after it.
    Step {
        puzzle: String,
        #[serde(default)]
        moves: String,
        instance: usize,
        direction: char,
    },
    /// Every position along `moves` from the start (`solver render`'s
    /// frames): how the page shows a hint's solution.
    Frames {
        puzzle: String,
        #[serde(default)]
        moves: String,
    },
    /// The solver's solution from the position after `moves`.
    Hint {
        puzzle: String,
        #[serde(default)]
        moves: String,
        #[serde(default)]
        metric: Metric,
        max_positions: Option<u64>,
    },
}

/// The reply to one JSON request, as JSON: `{"ok": true, ...}` or
/// `{"ok": false, "error": "..."}`. Never panics on any input (a request
/// that is not JSON, a puzzle that does not parse, an illegal move).
pub fn handle(request: &str) -> String {
    let reply = match serde_json::from_str::<Request>(request) {
        Ok(r) => answer(r),
        Err(e) => Err(format!("the page's request is not understood: {e}")),
    };
    match reply {
        Ok(mut v) => {
            v["ok"] = Value::Bool(true);
            v.to_string()
        }
        Err(error) => json!({ "ok": false, "error": error }).to_string(),
    }
}

fn answer(request: Request) -> Result<Value, String> {
    match request {
        Request::Open { puzzle } => open(&puzzle),
        Request::Play { puzzle, moves } => {
            let p = parse(&puzzle)?;
            let lines = parse_moves(&moves)?;
            Ok(played(&p, &lines)?.json())
        }
        Request::Step {
            puzzle,
            moves,
            instance,
            direction,
        } => step(&puzzle, &moves, instance, direction),
        Request::Frames { puzzle, moves } => {
            let p = parse(&puzzle)?;
            let frames = Frames::replay(&p, &parse_moves(&moves)?)?;
            Ok(json!({ "frames": frames.anchors, "solved": frames.solved }))
        }
        Request::Hint {
            puzzle,
            moves,
            metric,
            max_positions,
        } => {
            let p = parse(&puzzle)?;
            let lines = parse_moves(&moves)?;
            let now = played(&p, &lines)?;
            let limit = max_positions.unwrap_or(DEFAULT_HINT_POSITIONS);
            hint::from(&p, &now, metric, limit)
        }
    }
}

/// The puzzle of a request (native text only: the page holds the text
/// `solver render` wrote, or the one its editor made).
fn parse(text: &str) -> Result<Puzzle, String> {
    native::parse(text, "puzzle").map_err(|e| e.to_string())
}

fn parse_moves(text: &str) -> Result<Vec<SolutionMove>, String> {
    solution::parse(text, "moves").map_err(|e| e.to_string())
}

/// The picture and start of a puzzle, for the page to draw.
fn open(text: &str) -> Result<Value, String> {
    let p = parse(text)?;
    let anchors: Vec<usize> = p.start.anchors.iter().map(|&a| a as usize).collect();
    let style = svg::Style::of(&p);
    Ok(json!({
        "svg": svg::document(&p, &style, &anchors),
        "cols": p.board.width(),
        "cell": svg::CELL,
        "margin": svg::MARGIN,
        "anchors": anchors,
        "goals": p.goals.len(),
        "text": native::write(&p),
    }))
}

/// Where a person's moves lead: the verifier's replay and every instance's
/// anchor (instances keep their identity, so the page can follow a block).
pub(crate) struct Played {
    replay: Replay,
    anchors: Vec<usize>,
}

impl Played {
    fn json(&self) -> Value {
        json!({
            "anchors": self.anchors,
            "steps": self.replay.steps,
            "moves": self.replay.moves,
            "goals_reached": self.replay.goals_reached,
            "solved": self.replay.solved,
        })
    }
}

fn played(p: &Puzzle, lines: &[SolutionMove]) -> Result<Played, String> {
    let mut anchors: Vec<usize> = p.start.anchors.iter().map(|&a| a as usize).collect();
    let replay = verify::replay_observed(p, lines, |_, now| anchors = now.to_vec())
        .map_err(|e| e.describe(None))?;
    Ok(Played { replay, anchors })
}

/// One unit step of `instance` in `direction` (`U`, `D`, `L`, `R`): legal
/// when the verifier replays it after `moves`.
fn step(text: &str, moves: &str, instance: usize, direction: char) -> Result<Value, String> {
    let p = parse(text)?;
    let mut lines = parse_moves(moves)?;
    let now = played(&p, &lines)?;
    let Some(&anchor) = now.anchors.get(instance) else {
        return Err(format!(
            "there is no block {instance}: the puzzle has {}",
            now.anchors.len()
        ));
    };
    let dir = Direction::from_letter(direction)
        .ok_or_else(|| format!("{direction:?} is not a direction: U, D, L or R"))?;
    let width = p.board.width();
    let line = SolutionMove {
        id: p.types[p.instance_type(instance)].id,
        row: anchor / width,
        col: anchor % width,
        steps: vec![dir],
    };
    lines.push(line.clone());
    let after = played(&p, &lines)?;
    let mut reply = after.json();
    reply["line"] = Value::String(line.to_string());
    Ok(reply)
}

#[cfg(test)]
mod tests;
