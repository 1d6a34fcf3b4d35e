//! `solver solve --best-out FILE`: writes the best positions of a search
//! that found no solution (JSON, [`sbp_protocol::best::BestPositions`]):
//! each with its path from the start and the puzzle restarted from it, the
//! goal sections not yet reached kept. A solved puzzle writes an empty list,
//! so the file never holds another run's positions.

use sbp_protocol::best::{BestPosition, BestPositions};

use super::{write_file, Failure};
use crate::formats::native;
use crate::model::Puzzle;
use crate::search::SolveOutput;

/// Writes `out`'s best positions for `puzzle` (read from `file`) to `path`.
pub fn write(path: &str, file: &str, puzzle: &Puzzle, out: &SolveOutput) -> Result<(), Failure> {
    let positions = out
        .best
        .iter()
        .map(|b| {
            let mut restarted = puzzle.clone();
            restarted.start = b.position.clone();
            restarted.goals = puzzle.goals[b.goals_reached..].to_vec();
            let steps: u64 = b.lines.iter().map(|m| m.steps.len() as u64).sum();
            restarted
                .metadata
                .retain(|(k, _)| !k.eq_ignore_ascii_case("optimum"));
            restarted.metadata.push((
                "restart".to_string(),
                format!(
                    "from a position at goal distance {} after {steps} steps",
                    b.distance
                ),
            ));
            BestPosition {
                distance: b.distance,
                steps,
                goals_reached: b.goals_reached,
                solution: b.lines.iter().map(|m| m.to_string()).collect(),
                puzzle: native::write(&restarted),
            }
        })
        .collect();
    let best = BestPositions {
        puzzle: file.to_string(),
        positions,
    };
    let text = serde_json::to_string_pretty(&best)
        .map_err(|e| Failure::input(format!("cannot write {path}: {e}")))?;
    write_file("--best-out", path, (text + "\n").as_bytes())
}
