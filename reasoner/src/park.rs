//! The parking phase (issue 15): when the limited attempts have not solved
//! the puzzle (it runs before the variant and restart phases), the
//! position nearest the goal that the
//! nearest attempt stored shows which block stands on the master's way.
//! `solver variant --park` gives it a parking place off the master's route
//! and writes the puzzle with that place as a goal section before the final
//! goal; the nearest attempt's parameters solve that puzzle from the start.
//! If it stalls again, its own nearest position parks the next block (the
//! places found so far kept), round after round (`--parks`), as long as
//! each round's stall reaches one more goal section than the last. Chains
//! park two blocks a round, then one (`--park-blocks`). American Pie,
//! which no single setting solves within 5 million positions, is solved in
//! the second round of the two-block chain (`j` and `a`, then `v` parked).
//!
//! A solution of a parked puzzle is one of the original (same start, same
//! final goal): it is replayed against the original by `solver verify`
//! before it counts.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::cycle::CycleConfig;
use crate::params::{Algorithm, Heuristic, ParamSet, Value};
use crate::plan::{Phase, Planned};
use crate::restart::{best_file, best_out_args, nearest_stall, read_best, stalled};
use crate::runner::{AttemptResult, RunStatus, Runner};
use crate::variant::{tool, Context};

/// The setting the phase parks with first: A* with weight 5 on `path`, the
/// heuristic that steers the master along its route, off which the blocks
/// are parked. On American Pie it solved where the chains with A* w3 on
/// `path` and A* w5 on `h0` stalled (experiments/README.md).
pub fn park_setting() -> ParamSet {
    ParamSet {
        algorithm: Algorithm::Astar,
        heuristic: Heuristic::new("path"),
        weight: 5.0,
        ..ParamSet::default()
    }
    .with("resting", Value::Text("off".into()))
}

/// One chain of rounds: its parameters, the best positions it starts
/// from (`None`: a first run of its own finds them), the attempt they
/// came from, and how many blocks each round parks (`--park-blocks`).
struct Chain {
    params: ParamSet,
    best: Option<PathBuf>,
    from: Option<usize>,
    blocks: usize,
}

/// Runs the phase after the attempts `done`: chains with [`park_setting`]
/// parking two blocks a round, then one, then a chain with the parameters
/// of the attempt that came nearest the goal, one block a round. Which
/// count works depends on the stall: on American Pie, from the stall that
/// the nearest positions' encoding-independent order gives, two a round
/// solved in the second round and one a round needed five
/// (experiments/README.md §5). Returns its report rows, numbered from `first`, the
/// last one solved when a round worked.
pub async fn phase(
    runner: &Arc<Runner>,
    puzzle: &Path,
    ctx: &Context<'_>,
    done: &[(Planned, AttemptResult)],
    first: usize,
) -> Vec<(Planned, AttemptResult)> {
    let mut rows = Vec::new();
    if ctx.config.parks == 0 {
        return rows;
    }
    // Parking starts from a stall: an attempt stopped by its limit that
    // left its nearest positions (a solver without `--best-out`, or
    // attempts that all failed, leave the phase out).
    let left_best = |p: &Planned| best_file(runner, puzzle, p.index).exists();
    let Some((near, _)) = nearest_stall(done, left_best) else {
        return rows;
    };
    let setting = ctx.space.normalized(park_setting());
    let own = done
        .iter()
        .find(|(p, r)| stalled(p, r) && ctx.space.normalized(p.params.clone()) == setting);
    let mut chains: Vec<Chain> = [2, 1]
        .into_iter()
        .map(|blocks| Chain {
            params: park_setting(),
            best: own.map(|(p, _)| best_file(runner, puzzle, p.index)),
            from: own.map(|(p, _)| p.index),
            blocks,
        })
        .collect();
    // A fluid attempt's parameters park as A* (a parked unit would be named
    // by a goal section, which the fluid search refuses).
    let near_params = near.params.clone().on_positions();
    if ctx.space.normalized(near_params.clone()) != setting {
        chains.push(Chain {
            params: near_params,
            best: Some(best_file(runner, puzzle, near.index)),
            from: Some(near.index),
            blocks: 1,
        });
    }
    for chain in chains {
        if ctx.config.budget.exhausted().is_some()
            || run_chain(runner, puzzle, ctx, chain, first, &mut rows).await
        {
            break;
        }
    }
    rows
}

/// One chain: its first run when it has no best positions yet, then
/// `--parks` rounds, each parking one more block from the last stall.
/// True when a run solved the puzzle (verified on the original).
async fn run_chain(
    runner: &Arc<Runner>,
    puzzle: &Path,
    ctx: &Context<'_>,
    chain: Chain,
    first: usize,
    rows: &mut Vec<(Planned, AttemptResult)>,
) -> bool {
    let config = ctx.config;
    let Chain {
        params,
        best,
        from,
        blocks,
    } = chain;
    let mut best = match best {
        Some(b) => b,
        None => match first_run(runner, puzzle, config, &params, from, first, rows).await {
            Some(b) => b,
            None => return true,
        },
    };
    let mut current = puzzle.to_path_buf();
    let mut reached = goals_reached(&best);
    for _ in 0..config.parks {
        if config.budget.exhausted().is_some() {
            break;
        }
        let index = first + rows.len();
        let parked = match park(runner, &current, &best, blocks, index, ctx).await {
            Ok(p) => p,
            Err(e) => {
                // Nothing (more) to park is the usual end: a row says why.
                rows.push((
                    row(index, "no parking", from, &params),
                    AttemptResult::failed(e, 0),
                ));
                return false;
            }
        };
        let r = solve(runner, puzzle, config, &params, &parked, index).await;
        let solved = r.status == RunStatus::Solved;
        rows.push((row(index, &described(&parked), from, &params), r));
        if solved {
            return true;
        }
        best = best_file(runner, &parked, index);
        current = parked;
        // A round whose stall reached no more goal sections than the last
        // one's did not get its own parking place done: more places on top
        // of it only lengthen the way (American Pie's failing chains stall
        // so), so the chain ends and leaves the budget to the other phases.
        let now = goals_reached(&best);
        if now <= reached {
            return false;
        }
        reached = now;
    }
    false
}

/// The first run of a chain that has no best positions of its own: its
/// parameters on the original puzzle, its row pushed. Returns the best
/// positions it left to park from, `None` when it solved the puzzle.
async fn first_run(
    runner: &Arc<Runner>,
    puzzle: &Path,
    config: &CycleConfig,
    params: &ParamSet,
    from: Option<usize>,
    first: usize,
    rows: &mut Vec<(Planned, AttemptResult)>,
) -> Option<PathBuf> {
    let index = first + rows.len();
    let r = solve(runner, puzzle, config, params, puzzle, index).await;
    let solved = r.status == RunStatus::Solved;
    rows.push((
        row(index, "the parking setting's first run", from, params),
        r,
    ));
    if solved {
        return None;
    }
    Some(best_file(runner, puzzle, index))
}

/// One run of a chain: `params` on `file` (the original `puzzle` or a
/// parked one) as attempt `index`, keeping its nearest positions
/// (`--best-out`) for the next round.
async fn solve(
    runner: &Arc<Runner>,
    puzzle: &Path,
    config: &CycleConfig,
    params: &ParamSet,
    file: &Path,
    index: usize,
) -> AttemptResult {
    let extra = best_out_args(runner, file, index);
    let r = runner
        .solve_with(
            file,
            params,
            &config.budget.limit(config.phase_limits(), 1),
            index,
            &extra,
        )
        .await;
    // Charged now, so that the next round's limits see it (the
    // cycle does not charge the phase's rows again).
    config.budget.charge(r.positions_examined.unwrap_or(0));
    // Solved on a parked puzzle: it must solve the original as well.
    runner
        .check_claim(puzzle, r, index, config.attempt_timeout)
        .await
}

/// Goal sections the nearest position of a `--best-out` file had reached
/// (`None` when there is no file or no position).
fn goals_reached(best: &Path) -> Option<usize> {
    read_best(best)?.positions.first().map(|p| p.goals_reached)
}

/// `solver variant CURRENT --park BEST --park-blocks BLOCKS`: the parked
/// puzzle's path.
async fn park(
    runner: &Runner,
    current: &Path,
    best: &Path,
    blocks: usize,
    index: usize,
    ctx: &Context<'_>,
) -> Result<PathBuf, String> {
    if !best.exists() {
        return Err("the nearest attempt left no best positions to park from".to_string());
    }
    let out = runner.scratch_file(&format!("parked-{index}.txt"));
    let (b, o) = (best.display().to_string(), out.display().to_string());
    // The reason only, without the scratch paths the solver names (the
    // report is the same whatever the scratch directory).
    let reason = |e: String| match e.rsplit_once(&format!("--park {b}: ")) {
        Some((_, why)) => why.to_string(),
        None => e,
    };
    let n = blocks.to_string();
    tool(
        runner,
        current,
        &["--park", &b, "--park-blocks", &n, "-o", &o],
        ctx,
    )
    .await
    .map_err(reason)?;
    Ok(out)
}

/// What the parked puzzle's last `% parked:` line says (the round and the
/// places), for the report.
fn described(parked: &Path) -> String {
    let text = std::fs::read_to_string(parked).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.strip_prefix("% parked:"))
        .next_back()
        .map(|s| format!("parked {}", s.trim()))
        .unwrap_or_else(|| "parked".to_string())
}

/// A report row of the phase.
fn row(index: usize, note: &str, from: Option<usize>, params: &ParamSet) -> Planned {
    Planned {
        index,
        phase: Phase::Park,
        case: Some(note.to_string()),
        from,
        params: params.clone(),
    }
}
