//! `solver show PUZZLE`: the start position and goals as text.

use clap::Args;

use super::{Failure, PuzzleInput};

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
    }
    super::output::text(&out)?;
    Ok(0)
}
