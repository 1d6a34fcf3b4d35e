//! Restarts from the best (issue 15): every limited attempt runs with
//! `solver solve --best-out` ([`best_out_args`]); when neither the attempts
//! nor the variant phase solved the puzzle, the positions nearest the goal
//! that the nearest attempt stored (several, diverse) become the starting
//! points of the next attempts, with the same parameters, round after round
//! (`--restarts`), each round from the nearest positions the last one left.
//! A restarted puzzle's solution follows the moves that reach its start;
//! the concatenation is replayed against the original puzzle by `solver
//! verify` before it counts.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use sbp_protocol::best::{BestPosition, BestPositions};

use crate::cycle::CycleConfig;
use crate::plan::{Phase, Planned};
use crate::runner::{AttemptResult, RunStatus, Runner};

/// Starting points tried per round: the nearest of the pool.
const PER_ROUND: usize = 2;

/// A place to start from: the puzzle restarted there and the moves to it.
struct Start {
    puzzle: PathBuf,
    prefix: Vec<String>,
    note: String,
}

/// Runs the phase after the attempts `done`; returns its report rows,
/// numbered from `first`, the last one solved when a restart worked.
pub async fn phase(
    runner: &Arc<Runner>,
    puzzle: &Path,
    config: &CycleConfig,
    done: &[(Planned, AttemptResult)],
    first: usize,
) -> Vec<(Planned, AttemptResult)> {
    let mut rows = Vec::new();
    let Some((from, _)) = nearest_stall(done, |_| true) else {
        return rows;
    };
    if config.restarts == 0 {
        return rows;
    }
    let params = from.params.clone();
    let limits = config.phase_limits();
    let mut pool: Vec<Start> = starts(
        runner,
        &best_file(runner, puzzle, from.index),
        &[],
        from.index,
    )
    .into_iter()
    .map(|(_, s)| s)
    .collect();
    for _ in 0..config.restarts {
        let mut next: Vec<(u32, Start)> = Vec::new();
        for start in pool.into_iter().take(PER_ROUND) {
            let index = first + rows.len();
            let extra = best_out_args(runner, &start.puzzle, index);
            let best = best_file(runner, &start.puzzle, index);
            let r = runner
                .solve_with(
                    &start.puzzle,
                    &params,
                    &config.budget.limit(limits, 1),
                    index,
                    &extra,
                )
                .await;
            let r = joined(runner, puzzle, &start.prefix, r, index, config).await;
            let solved = r.status == RunStatus::Solved;
            let row = Planned {
                index,
                phase: Phase::Restart,
                case: Some(start.note.clone()),
                from: Some(from.index),
                params: params.clone(),
            };
            rows.push((row, r));
            if solved {
                return rows;
            }
            next.extend(starts(runner, &best, &start.prefix, index));
        }
        next.sort_by_key(|(d, _)| *d);
        pool = next.into_iter().map(|(_, s)| s).collect();
        if pool.is_empty() {
            break;
        }
    }
    rows
}

/// True for a limited attempt stopped by its limit: a stall whose best
/// positions the later phases start from. Only the limited attempts count:
/// other phases' rows ran on other puzzles (variants, parked puzzles) and
/// their best files are named by those.
pub fn stalled(p: &Planned, r: &AttemptResult) -> bool {
    r.status == RunStatus::LimitReached
        && matches!(p.phase, Phase::Reuse | Phase::General | Phase::Proximity)
}

/// The stalled attempt (and `keep` holds for it) that came nearest the
/// goal, the earliest of equals.
pub fn nearest_stall(
    done: &[(Planned, AttemptResult)],
    keep: impl Fn(&Planned) -> bool,
) -> Option<&(Planned, AttemptResult)> {
    done.iter()
        .filter(|(p, r)| stalled(p, r) && keep(p))
        .min_by_key(|(p, r)| (r.best_distance.unwrap_or(u32::MAX), p.index))
}

/// The positions a `--best-out` file holds, nearest first (`None` when it
/// is missing or does not parse).
pub fn read_best(best: &Path) -> Option<BestPositions> {
    let text = std::fs::read_to_string(best).ok()?;
    serde_json::from_str(&text).ok()
}

/// Where attempt `index` on `puzzle` writes its best positions: named by
/// both, so a variant's own cycle never overwrites the puzzle's files.
pub fn best_file(runner: &Runner, puzzle: &Path, index: usize) -> PathBuf {
    let stem = puzzle
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    runner.scratch_file(&format!("best-{stem}-{index}.json"))
}

/// The solver flags that make attempt `index` on `puzzle` write its best positions.
pub fn best_out_args(runner: &Runner, puzzle: &Path, index: usize) -> Vec<String> {
    vec![
        "--best-out".to_string(),
        best_file(runner, puzzle, index).display().to_string(),
    ]
}

/// A solved restart's solution preceded by the moves to its start, replayed
/// against the original puzzle; other results as they are.
pub(crate) async fn joined(
    runner: &Runner,
    puzzle: &Path,
    prefix: &[String],
    mut r: AttemptResult,
    index: usize,
    config: &CycleConfig,
) -> AttemptResult {
    if r.status != RunStatus::Solved || prefix.is_empty() {
        return r;
    }
    let mut whole = prefix.to_vec();
    whole.extend(r.solution.take().unwrap_or_default());
    r.solution = Some(whole);
    // The steps and moves are the whole solution's: the replay counts them.
    r.steps = None;
    r.moves = None;
    let checked = runner
        .check_claim(puzzle, r, index, config.attempt_timeout)
        .await;
    recount(checked)
}

/// Fills in the steps and moves of a verified whole solution.
fn recount(mut r: AttemptResult) -> AttemptResult {
    if let (RunStatus::Solved, Some(lines)) = (r.status, &r.solution) {
        r.moves = Some(lines.len() as u64);
        r.steps = Some(
            lines
                .iter()
                .map(|l| l.split_whitespace().nth(2).map_or(0, |s| s.len() as u64))
                .sum(),
        );
    }
    r
}

/// The best positions an attempt wrote, as starting points (prefixed by
/// the moves to the attempt's own start), with their goal distances.
fn starts(runner: &Runner, best: &Path, prefix: &[String], index: usize) -> Vec<(u32, Start)> {
    let file = read_best(best);
    let _ = std::fs::remove_file(best);
    let Some(file) = file else {
        return Vec::new();
    };
    file.positions
        .into_iter()
        .enumerate()
        .filter_map(|(k, p): (usize, BestPosition)| {
            let path = runner.scratch_file(&format!("restart-{index}-{k}.txt"));
            std::fs::write(&path, &p.puzzle).ok()?;
            let mut moves = prefix.to_vec();
            moves.extend(p.solution);
            let note = format!(
                "from attempt {index}'s best position {} (distance {}, {} steps in)",
                k + 1,
                p.distance,
                p.steps
            );
            Some((
                p.distance,
                Start {
                    puzzle: path,
                    prefix: moves,
                    note,
                },
            ))
        })
        .collect()
}
