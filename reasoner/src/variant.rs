//! The easier-variant phase (thesis §5.1.4, §8.3.4), run when the limited
//! attempts have not solved the puzzle: remove the blocks that obstruct the
//! master most (`solver variant --rank`), solve that variant with the
//! reasoner's own cycle (recursively, with fewer attempts and no variants
//! of its own), turn its solution into a subgoal sequence for the full
//! puzzle (`solver variant --subgoals`), and solve that section by section.
//! The solution, found on the subgoal puzzle, is replayed against the
//! original puzzle by `solver verify` before it counts.
//!
//! A recipe either removes blocks or merges the interchangeable ones
//! (`solver variant --merge`: its solution is given back the full puzzle's
//! ids before it becomes subgoals). Recipes ([`Recipe`]) are tried in order: those of the retrieved cases
//! first (a retained case keeps the recipe that solved it), then
//! [`DEFAULT_RECIPES`], up to `--variants` of them. Each recipe gives two
//! report rows: `variant` (the variant's own cycle, summed) and `subgoals`
//! (the full puzzle with the subgoals, per parameter set tried).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;

use crate::casebase::CaseBase;
use crate::cycle::{self, CycleConfig};
use crate::interrupt::Interrupt;
use crate::params::{Fix, ParamSet, Pick, Recipe};
use crate::plan::{Phase, Planned};
use crate::runner::{AttemptResult, Exit, RunError, RunStatus, Runner};
use crate::similarity::Similarity;
use crate::space::Space;

/// Recipes (pick, remove, every, fix) tried when no retrieved case brings
/// one: the least obstructing block removed with every kept block fixed
/// (our Century experiment's recipe), then the most obstructing ones with
/// the master alone fixed (more often reachable with them back), then the
/// interchangeable blocks merged (`pick = "merge"`: only where the puzzle
/// has distinct types of one shape, e.g. Rush Hour's cars; last, so the
/// default `--variants 3` leaves the phase as it was).
pub const DEFAULT_RECIPES: [(Pick, usize, usize, Fix); 5] = [
    (Pick::Least, 1, 4, Fix::All),
    (Pick::Most, 1, 1, Fix::Master),
    (Pick::Most, 2, 1, Fix::Master),
    (Pick::Least, 1, 1, Fix::Master),
    (Pick::Merge, 0, 5, Fix::All),
];

/// One row of `solver variant --rank --json`.
#[derive(Deserialize)]
struct Ranked {
    row: usize,
    col: usize,
}

/// What the phase needs besides the runner: the case base and similarity
/// for the variant's own cycle, and the cycle's settings.
pub struct Context<'a> {
    pub cb: &'a CaseBase,
    pub sim: &'a dyn Similarity,
    pub config: &'a CycleConfig,
    /// The retrieved cases' parameters, most similar first.
    pub reuse: &'a [(String, ParamSet)],
    /// The solver's parameter space.
    pub space: &'a Space,
}

/// Runs the phase; returns its report rows, numbered from `first`, the
/// last one solved when a recipe worked.
pub async fn phase(
    runner: &Arc<Runner>,
    puzzle: &Path,
    ctx: &Context<'_>,
    first: usize,
) -> Vec<(Planned, AttemptResult)> {
    let mut rows = Vec::new();
    if ctx.config.variants == 0 {
        return rows;
    }
    // A solver without `variant` (or a puzzle it cannot rank) has no variants: no rows.
    let rank: Vec<Ranked> = match tool(runner, puzzle, &["--rank", "--json"], ctx).await {
        Ok(text) => serde_json::from_str(&text).unwrap_or_default(),
        Err(e) => {
            tracing::warn!(error = %e, "no variant phase");
            return rows;
        }
    };
    for recipe in recipes(ctx).into_iter().take(ctx.config.variants) {
        let Some(removal) = variant_args(&recipe, &rank) else {
            continue;
        };
        let solved = try_recipe(runner, puzzle, ctx, &recipe, &removal, first, &mut rows).await;
        if solved {
            break;
        }
    }
    rows
}

/// The `solver variant` arguments that derive `recipe`'s variant: `--merge`,
/// or `--remove` of the blocks it picks from `rank`; `None` when the puzzle
/// has too few blocks for it.
fn variant_args(recipe: &Recipe, rank: &[Ranked]) -> Option<Vec<String>> {
    if recipe.pick == Pick::Merge {
        return Some(vec!["--merge".to_string()]);
    }
    if recipe.remove == 0 || recipe.remove > rank.len() {
        return None;
    }
    let chosen: Vec<&Ranked> = match recipe.pick {
        Pick::Least => rank.iter().rev().take(recipe.remove).collect(),
        _ => rank.iter().take(recipe.remove).collect(),
    };
    let removal = chosen
        .into_iter()
        .flat_map(|r| ["--remove".to_string(), format!("{},{}", r.row, r.col)])
        .collect();
    Some(removal)
}

/// The retrieved cases' recipes, then the defaults, without repeats.
fn recipes(ctx: &Context<'_>) -> Vec<Recipe> {
    let mut out: Vec<Recipe> = Vec::new();
    let defaults = DEFAULT_RECIPES
        .iter()
        .map(|&(pick, remove, every, fix)| Recipe {
            pick,
            remove,
            every,
            fix,
        });
    for r in ctx
        .reuse
        .iter()
        .filter_map(|(_, p)| p.variant.clone())
        .chain(defaults)
    {
        if !out.contains(&r) {
            out.push(r);
        }
    }
    out
}

/// One recipe: the variant's cycle, then the subgoal puzzle with the
/// variant's winning set and plain BFS. True when the puzzle is solved.
async fn try_recipe(
    runner: &Arc<Runner>,
    puzzle: &Path,
    ctx: &Context<'_>,
    recipe: &Recipe,
    removal: &[String],
    first: usize,
    rows: &mut Vec<(Planned, AttemptResult)>,
) -> bool {
    let index = first + rows.len();
    let label = format!("{recipe}");
    let variant = runner.scratch_file(&format!("variant-{index}.txt"));
    let mut args: Vec<&str> = removal.iter().map(String::as_str).collect();
    let out = variant.display().to_string();
    args.extend(["-o", out.as_str()]);
    if let Err(e) = tool(runner, puzzle, &args, ctx).await {
        rows.push((
            plan_row(index, Phase::Variant, &label, None),
            AttemptResult::failed(e, 0),
        ));
        return false;
    }
    let (summary, winner) = solve_variant(runner, &variant, ctx, index).await;
    let shown = ParamSet {
        variant: Some(recipe.clone()),
        ..winner.clone().unwrap_or_default()
    };
    rows.push((
        plan_row(index, Phase::Variant, &label, Some(shown)),
        summary.clone(),
    ));
    let (Some(params), Some(moves)) = (winner, summary.solution) else {
        return false;
    };
    let sub = match subgoal_puzzle(runner, puzzle, ctx, recipe, removal, &moves, index).await {
        Ok(p) => p,
        Err(e) => {
            let row = plan_row(index + 1, Phase::Subgoals, &label, None);
            rows.push((row, AttemptResult::failed(e, 0)));
            return false;
        }
    };
    let limits = ctx.config.phase_limits();
    // The sections may name every type, units too, which the fluid search
    // refuses: its parameters run as A* there.
    let params = params.on_positions();
    let mut sets = vec![params.clone()];
    let space = ctx.space;
    if space.normalized(params.clone()) != space.normalized(ParamSet::default()) {
        sets.push(ParamSet::default());
    }
    for set in sets {
        let index = first + rows.len();
        let set = ParamSet {
            variant: Some(recipe.clone()),
            ..set
        };
        let limits = ctx.config.budget.limit(limits, 1);
        let r = runner.solve(&sub, &set, &limits, index).await;
        // Solved on the subgoal puzzle: it must solve the original as well.
        let r = runner
            .check_claim(puzzle, r, index, ctx.config.attempt_timeout)
            .await;
        let solved = r.status == RunStatus::Solved;
        rows.push((plan_row(index, Phase::Subgoals, &label, Some(set)), r));
        if solved {
            return true;
        }
    }
    false
}

/// The variant: plain BFS first under the position limit (its solution is
/// the shortest, so its subgoals are the closest together), else the
/// variant's own cycle. One row, and the winning set when solved.
async fn solve_variant(
    runner: &Arc<Runner>,
    variant: &Path,
    ctx: &Context<'_>,
    tag: usize,
) -> (AttemptResult, Option<ParamSet>) {
    let limits = ctx.config.phase_limits();
    let bfs = runner
        .solve(
            variant,
            &ParamSet::default(),
            &ctx.config.budget.limit(limits, 1),
            tag,
        )
        .await;
    // The variant's own cycle charges the shared budget itself (its row is
    // not charged again by the cycle); this run is charged here.
    ctx.config
        .budget
        .charge(bfs.positions_examined.unwrap_or(0));
    if bfs.status == RunStatus::Solved {
        return (bfs, Some(ParamSet::default()));
    }
    let (mut r, winner) = variant_cycle(runner, variant, ctx).await;
    r.positions_examined =
        Some(r.positions_examined.unwrap_or(0) + bfs.positions_examined.unwrap_or(0));
    r.elapsed_ms += bfs.elapsed_ms;
    (r, winner)
}

/// The variant's own cycle (no variants of its own, half the attempts, no
/// final run): one summed row, and the winning set when solved.
async fn variant_cycle(
    runner: &Arc<Runner>,
    variant: &Path,
    ctx: &Context<'_>,
) -> (AttemptResult, Option<ParamSet>) {
    let config = CycleConfig {
        attempts: (ctx.config.attempts / 2).max(2),
        variants: 0,
        restarts: 0,
        parks: 0,
        final_run: false,
        progress: false,
        // The variant's solution only gives subgoals: no improve phase.
        improve: false,
        ..ctx.config.clone()
    };
    let started = std::time::Instant::now();
    let report = match Box::pin(cycle::run(
        Arc::clone(runner),
        variant,
        ctx.cb,
        ctx.sim,
        &config,
        &mut Interrupt::never(),
    ))
    .await
    {
        Ok(r) => r,
        Err(e) => return (AttemptResult::failed(e.to_string(), 0), None),
    };
    let winner = report
        .solved_by
        .and_then(|i| report.attempts.iter().find(|a| a.index == i))
        .map(|a| ParamSet {
            variant: None,
            ..a.params.clone()
        });
    let sum = |f: fn(&AttemptResult) -> Option<u64>| {
        report
            .attempts
            .iter()
            .filter_map(|a| f(&a.result))
            .reduce(|a, b| a + b)
    };
    let summary = AttemptResult {
        status: report.status,
        steps: report.steps,
        moves: report.moves,
        positions_examined: sum(|r| r.positions_examined),
        best_distance: report
            .attempts
            .iter()
            .filter_map(|a| a.result.best_distance)
            .min(),
        best_distance_positions: None,
        elapsed_ms: started.elapsed().as_millis() as u64,
        solution: report.solution.clone(),
        error: report.attempts.iter().find_map(|a| a.result.error.clone()),
        position_limit: None,
        optimal_in: None,
        lower_bound: None,
    };
    (summary, winner)
}

/// Writes the variant's solution and the full puzzle with its subgoals.
async fn subgoal_puzzle(
    runner: &Runner,
    puzzle: &Path,
    ctx: &Context<'_>,
    recipe: &Recipe,
    removal: &[String],
    moves: &[String],
    index: usize,
) -> Result<PathBuf, String> {
    let solution = runner.scratch_file(&format!("variant-{index}.sol"));
    std::fs::write(&solution, moves.join("\n") + "\n")
        .map_err(|e| format!("cannot write {}: {e}", solution.display()))?;
    let sub = runner.scratch_file(&format!("subgoals-{index}.txt"));
    let (sol, out, every) = (
        solution.display().to_string(),
        sub.display().to_string(),
        recipe.every.to_string(),
    );
    let mut args: Vec<&str> = removal.iter().map(String::as_str).collect();
    args.extend([
        "--subgoals",
        &sol,
        "--every",
        &every,
        "--fix",
        recipe.fix.name(),
        "-o",
        &out,
    ]);
    tool(runner, puzzle, &args, ctx).await?;
    Ok(sub)
}

/// Runs `solver variant PUZZLE ARGS` to its end; its standard output, or why it failed.
pub(crate) async fn tool(
    runner: &Runner,
    puzzle: &Path,
    args: &[&str],
    ctx: &Context<'_>,
) -> Result<String, String> {
    let mut line = vec![
        runner.solver().display().to_string(),
        "variant".to_string(),
        puzzle.display().to_string(),
    ];
    line.extend(args.iter().map(|a| a.to_string()));
    match runner
        .run(&line, Runner::tool_timeout(ctx.config.attempt_timeout))
        .await
    {
        Ok(done) if matches!(done.exit, Exit::Code(0)) => {
            Ok(String::from_utf8_lossy(&done.stdout).into_owned())
        }
        Ok(done) => Err(format!(
            "`solver variant` failed: {}",
            String::from_utf8_lossy(&done.stderr).trim()
        )),
        Err(RunError::Spawn(e) | RunError::Wait(e)) => {
            Err(format!("`solver variant` did not run: {e}"))
        }
        Err(RunError::Timeout(t)) => Err(format!(
            "`solver variant` timed out after {} s",
            t.as_secs_f64()
        )),
    }
}

/// A report row of the phase: `note` says which recipe.
fn plan_row(index: usize, phase: Phase, note: &str, params: Option<ParamSet>) -> Planned {
    Planned {
        index,
        phase,
        case: Some(note.to_string()),
        from: None,
        params: params.unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recipe(pick: Pick, remove: usize) -> Recipe {
        Recipe {
            pick,
            remove,
            every: 1,
            fix: Fix::All,
        }
    }

    /// Each recipe asks `solver variant` for its own variant: the blocks it
    /// picks from the rank removed, or the interchangeable ones merged.
    #[test]
    fn a_recipe_becomes_the_variant_tools_arguments() {
        let rank = [Ranked { row: 1, col: 2 }, Ranked { row: 3, col: 4 }];
        let args = |r: Recipe| variant_args(&r, &rank);
        assert_eq!(args(recipe(Pick::Most, 1)).unwrap(), ["--remove", "1,2"]);
        assert_eq!(args(recipe(Pick::Least, 1)).unwrap(), ["--remove", "3,4"]);
        assert_eq!(args(recipe(Pick::Most, 3)), None);
        assert_eq!(args(recipe(Pick::Merge, 0)).unwrap(), ["--merge"]);
        assert_eq!(
            recipe(Pick::Merge, 0).to_string(),
            "merge interchangeable blocks, subgoal every 1 fixing all"
        );
        assert!(DEFAULT_RECIPES.iter().any(|r| r.0 == Pick::Merge));
    }
}
