//! `solver show PUZZLE`: the start position and goals as text.

use clap::Args;

use super::{Failure, PuzzleInput};
use crate::model::{Axis, CellKind, Puzzle};

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub input: PuzzleInput,
}

pub fn run(args: &ShowArgs) -> Result<i32, Failure> {
    let puzzles = args.input.load()?;
    let mut out = String::new();
    for (i, p) in puzzles.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if let Some(name) = &p.name {
            out.push_str(&format!("{name}\n"));
        }
        out.push_str(&format!(
            "{}x{} board, {} block(s) of {} type(s)\nstart:\n",
            p.board.width(),
            p.board.height(),
            p.instances(),
            p.types.len()
        ));
        out.push_str(&p.render(&p.start));
        for (g, goal) in p.goals.iter().enumerate() {
            let label = if g + 1 == p.goals.len() {
                "goal".to_string()
            } else {
                format!("subgoal {}", g + 1)
            };
            out.push_str(&format!("{label}:\n"));
            out.push_str(&p.render_goal(goal));
        }
        out.push_str(&legend(p));
    }
    super::output::text(&out)?;
    Ok(0)
}

/// The key to the grids: the board's cell kinds, the master, and each
/// other block type's letter with what sets it apart (sliders' axes,
/// several interchangeable blocks of one type).
fn legend(p: &Puzzle) -> String {
    let mut board = vec!["# wall", "space free"];
    let cells = 0..p.board.len();
    if cells.clone().any(|c| p.board.kind(c) == CellKind::Door) {
        board.push("- door (the master only)");
    }
    let mut key = format!("key: {}", board.join(", "));
    for (t, kind) in p.types.iter().enumerate() {
        let mut about = Vec::new();
        if kind.is_master {
            about.push("the master".to_string());
        }
        match kind.slider {
            Some(Axis::Vertical) => about.push("slides up and down only".to_string()),
            Some(Axis::Horizontal) => about.push("slides left and right only".to_string()),
            None => {}
        }
        if p.counts[t] > 1 {
            about.push(format!("{} interchangeable", p.counts[t]));
        }
        if !about.is_empty() {
            key.push_str(&format!("; {} {}", kind.id, about.join(", ")));
        }
    }
    key.push_str("; other letters: one block each\n");
    key
}
