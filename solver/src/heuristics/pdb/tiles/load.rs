//! Getting a tile puzzle's tables: each read from the disk cache when a
//! table for exactly its board, tiles, goal cells and metric is there, else
//! built and stored. Missing tables are built one after another, largest
//! first, under one progress bar: patterns of 2 to 8 tiles by
//! [`super::layers`] on `--threads` threads, others by the reference
//! builder [`super::build`] on one. A build told to stop (the search's
//! time limit) is dropped, and so are the builds after it: the tables
//! finished still add up to an admissible estimate.

use crate::clock::Instant;
#[cfg(target_arch = "wasm32")]
use crate::page::indicatif;
use std::path::Path;
use std::sync::Mutex;

use super::additive::TileTable;
use super::index::PatternIndex;
use super::layers::{self, MAX_FAST_TILES};
use super::values::Values;
use super::{build, TileBoard};
use crate::heuristics::pdb::{cache, Stop};
use crate::params::Metric;

/// The text that determines the table of `tiles` (bump `v2` when the
/// table's layout or meaning changes; v2: indexed by cell set then order,
/// always 4 bits).
pub fn key(board: &TileBoard, tiles: &[usize], metric: Metric) -> String {
    let goals: Vec<u32> = tiles.iter().map(|&t| board.goal[t]).collect();
    format!(
        "tile table v2\nboard {}x{} open {:#x}\npattern goal cells {goals:?}\nblank goal {}\nmetric {metric:?}\n",
        board.width, board.height, board.open, board.blank_goal
    )
}

/// The tables of `patterns` (tiles each), in that order, built on
/// `threads` threads until `stop` says so (those not read or built by
/// then left out).
pub fn tables(
    board: &TileBoard,
    patterns: &[Vec<usize>],
    metric: Metric,
    cache_dir: Option<&Path>,
    (threads, stop): (usize, Stop),
) -> Vec<TileTable> {
    let size = |p: &Vec<usize>| PatternIndex::new(board.open, p.len()).map_or(0, |i| i.len());
    let keys: Vec<String> = patterns.iter().map(|p| key(board, p, metric)).collect();
    // Tables the last call read stay in memory while the cache is on (a
    // collection on one board, Korf's 100, reads its 288 MB once, not per
    // puzzle); those this call does not need are dropped before any build.
    // Held to the end: the puzzles of a collection run side by side under
    // --jobs, and the second would otherwise find the first's tables not
    // there yet and read (or build) its own, twice the memory.
    let mut held = cache_dir.map(|_| RECENT.lock().unwrap_or_else(|e| e.into_inner()));
    let recent = held.as_deref_mut().map(std::mem::take).unwrap_or_default();
    let mut slots: Vec<Option<TileTable>> = patterns
        .iter()
        .zip(&keys)
        .map(|(p, key)| {
            let dir = cache_dir?;
            let values = match recent.iter().find(|(k, _)| k == key) {
                Some((_, values)) => values.clone(),
                None => Values::from_file(cache::load_body(dir, key)?, size(p))?,
            };
            Some(TileTable {
                tiles: p.clone(),
                values,
                build_ms: 0,
                from_cache: true,
            })
        })
        .collect();
    drop(recent);
    let mut todo: Vec<usize> = (0..patterns.len())
        .filter(|&i| slots[i].is_none())
        .collect();
    todo.sort_by_key(|&i| std::cmp::Reverse(size(&patterns[i])));
    let total = todo.iter().map(|&i| size(&patterns[i])).sum();
    let bar = super::super::build_bar(std::io::IsTerminal::is_terminal(&std::io::stderr()), total);
    for i in todo {
        slots[i] = build_one(
            board,
            &patterns[i],
            metric,
            cache_dir,
            (threads, stop),
            &bar,
        );
        if slots[i].is_none() {
            break;
        }
    }
    bar.finish_and_clear();
    if let Some(recent) = held.as_deref_mut() {
        let kept = keys.into_iter().zip(&slots);
        let kept = kept.filter_map(|(key, t)| Some((key, t.as_ref()?.values.clone())));
        *recent = kept.collect();
    }
    slots.into_iter().flatten().collect()
}

/// The tables the last [`tables`] call returned, by cache key (their
/// storage is shared, not copied).
static RECENT: Mutex<Vec<(String, Values)>> = Mutex::new(Vec::new());

/// Builds one table and stores it in the cache (a cache that cannot be
/// written is reported on stderr and the search goes on); `None` when
/// `stop` ended the build.
fn build_one(
    board: &TileBoard,
    tiles: &[usize],
    metric: Metric,
    cache_dir: Option<&Path>,
    (threads, stop): (usize, Stop),
    bar: &indicatif::ProgressBar,
) -> Option<TileTable> {
    let started = Instant::now();
    let mut shown = 0;
    let mut progress = |reached: u64, depth: u8| {
        bar.inc(reached - shown);
        shown = reached;
        bar.set_message(format!("distance {depth}"));
    };
    let values = if (2..=MAX_FAST_TILES).contains(&tiles.len()) {
        layers::fill(board, tiles, (threads, stop), &mut progress)?
    } else {
        Values::pack(&build::fill(board, tiles, stop, &mut progress)?)
    };
    let build_ms = started.elapsed().as_millis() as u64;
    if let Some(dir) = cache_dir {
        if let Err(e) = cache::store(dir, &key(board, tiles, metric), &values.to_file()) {
            eprintln!(
                "warning: cannot cache a pattern database in {}: {e} \
                 (pass --pdb-cache DIR with a writable folder)",
                dir.display()
            );
        }
    }
    Some(TileTable {
        tiles: tiles.to_vec(),
        values,
        build_ms,
        from_cache: false,
    })
}
