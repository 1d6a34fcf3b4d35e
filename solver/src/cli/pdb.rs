//! `solver pdb build|info PUZZLE`: builds the pattern databases
//! `--heuristic pdb` would use (into the cache, ahead of a search) and prints
//! their patterns, sizes, build times, mean values and the start's estimate.

use clap::{Args, Subcommand};

use super::search_args::SearchArgs;
use super::{Failure, PuzzleInput};
use crate::geometry::Geometry;
use crate::heuristics::pdb::tiles::additive::TileDatabases;
use crate::heuristics::pdb::{self, patterns, Databases, Table};
use crate::model::Puzzle;
use crate::moves::State;
use crate::params::Heuristic as Kind;

#[derive(Args, Debug)]
pub struct PdbArgs {
    #[command(subcommand)]
    pub action: PdbAction,
}

#[derive(Subcommand, Debug)]
pub enum PdbAction {
    /// Build the tables (or find them in the cache) and store them in the cache.
    Build(PdbCommandArgs),
    /// Print the tables' patterns, sizes, build times and mean values (building missing ones).
    Info(PdbCommandArgs),
}

#[derive(Args, Debug)]
pub struct PdbCommandArgs {
    #[command(flatten)]
    pub input: PuzzleInput,
    #[command(flatten)]
    pub search: SearchArgs,
}

pub fn run(args: &PdbArgs) -> Result<i32, Failure> {
    let (PdbAction::Build(a) | PdbAction::Info(a)) = &args.action;
    let build = matches!(args.action, PdbAction::Build(_));
    let puzzles = a.input.load_with_goals()?;
    let mut params = a.search.params();
    params.heuristic = Kind::new(pdb::SPEC.name);
    let dir = pdb::cache_dir(&params);
    if build && dir.is_none() {
        return Err(Failure::input(
            "solver pdb build stores the tables in the cache, and --pdb-cache is off (and no \
             default folder: neither XDG_CACHE_HOME nor HOME is set): pass --pdb-cache DIR",
        ));
    }
    for p in &puzzles {
        // The start estimate is the first goal's: its tables are kept from
        // the loop instead of being planned and loaded a second time.
        let mut first = None;
        for (k, goal) in p.goals.iter().enumerate() {
            let geometry = Geometry::new(p, Some(goal));
            let spec = pdb::PATTERNS.text(&params);
            let plan = patterns::plan(p, &geometry, spec, (pdb::MEMORY.whole(&params), None))
                .map_err(|m| Failure::input(format!("{}: {m}", a.input.puzzle)))?;
            let databases = pdb::load_plan(p, &geometry, &plan, &params);
            if let Some(dir) = dir.as_deref().filter(|_| build) {
                check_stored(p, &geometry, &databases, &params, dir)?;
            }
            let name = p.name.as_deref().unwrap_or(&a.input.puzzle);
            outln!("{name}, goal {} of {}:", k + 1, p.goals.len());
            match &databases {
                Databases::Tiles(t) => print_tile_tables(p, t)?,
                Databases::Blocks(b) => print_tables(p, b.tables())?,
            }
            if k == 0 {
                first = Some(databases);
            }
        }
        if let Some(databases) = first {
            let mut h = databases.into_heuristic();
            let mut start = State::new(p);
            start.load(&p.start, &crate::moves::ShapeTable::new(p));
            outln!("start estimate: {}", h.estimate(&start));
        }
    }
    match &dir {
        Some(d) => outln!("cache: {}", d.display()),
        None => outln!("cache: off"),
    }
    Ok(0)
}

/// Fails unless every table of `databases` is in the cache folder `dir`
/// (read from it, or stored there by the build): `solver pdb build` exited
/// 0 when it stored nothing (a cache path under a file, a full disk), the
/// store's error only a warning on stderr.
fn check_stored(
    puzzle: &Puzzle,
    geometry: &Geometry,
    databases: &Databases,
    params: &crate::params::SearchParams,
    dir: &std::path::Path,
) -> Result<(), Failure> {
    let stored = match databases {
        Databases::Tiles(t) => {
            let board = pdb::tiles::TileBoard::new(puzzle, geometry)
                .ok_or_else(|| Failure::input("a tile puzzle's tables without its board"))?;
            t.tables().iter().all(|table| {
                let key = pdb::tiles::load::key(&board, &table.tiles, params.metric);
                pdb::cache::holds(dir, &key, 1 + table.values.bytes())
            })
        }
        Databases::Blocks(b) => b.tables().iter().flatten().all(|table| {
            let key = pdb::cache::key(&table.abstraction, params.metric);
            pdb::cache::holds(dir, &key, table.values.len() as u64)
        }),
    };
    if stored {
        return Ok(());
    }
    Err(Failure::input(format!(
        "the pattern databases could not be stored in {}: pass --pdb-cache DIR with a \
         writable folder (with room for the tables)",
        dir.display()
    )))
}

/// One line per tile table: its tiles, entries, storage, source and mean
/// value; then whether the tables are read through the reflection too.
fn print_tile_tables(puzzle: &Puzzle, h: &TileDatabases) -> Result<(), Failure> {
    for (t, table) in h.tables().iter().enumerate() {
        let ids: Vec<String> = table
            .tiles
            .iter()
            .map(|&i| puzzle.types[puzzle.instance_type(i)].id.to_string())
            .collect();
        let source = source(table.from_cache, table.build_ms);
        outln!(
            "  tiles {} (added): {} entries, {} bits each ({} bytes), {source}, mean value {:.2}",
            ids.join(","),
            table.values.len(),
            table.values.bits(),
            table.values.bytes(),
            h.mean(t)
        );
    }
    if h.reflected() {
        outln!("  every table read again through the main diagonal; the larger sum is taken");
    } else {
        outln!("  no reflection: board or goal not symmetric about the main diagonal");
    }
    Ok(())
}

/// One line per table: its group, blocks, entries, source and mean value.
fn print_tables(puzzle: &Puzzle, groups: &[Vec<Table>]) -> Result<(), Failure> {
    for (g, group) in groups.iter().enumerate() {
        for t in group {
            let abs = &t.abstraction;
            let ids: Vec<String> = abs
                .puzzle
                .types
                .iter()
                .zip(&abs.puzzle.counts)
                .filter(|(ty, _)| puzzle.type_by_id(ty.id).is_some())
                .map(|(ty, &n)| {
                    if n > 1 {
                        format!("{}x{n}", ty.id)
                    } else {
                        ty.id.to_string()
                    }
                })
                .collect();
            let merged = abs.puzzle.types.len() > ids.len();
            let source = source(t.from_cache, t.build_ms);
            outln!(
                "  group {} ({}): blocks {}{}; {} entries ({} bytes), {source}, mean value {:.2}",
                g + 1,
                if group.len() > 1 { "added" } else { "alone" },
                ids.join(","),
                if merged {
                    ", the other tiles merged"
                } else {
                    ""
                },
                abs.size,
                t.values.len(),
                t.mean()
            );
        }
    }
    Ok(())
}

/// Where a table came from: the cache, or a build of `build_ms` milliseconds.
fn source(from_cache: bool, build_ms: u64) -> String {
    if from_cache {
        "read from the cache".to_string()
    } else {
        format!("built in {build_ms} ms")
    }
}
