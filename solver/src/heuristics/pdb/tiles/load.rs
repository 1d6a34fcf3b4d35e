//! Getting a tile puzzle's tables: each read from the disk cache when a
//! table for exactly its board, tiles, goal cells and metric is there, else
//! built ([`super::build`]) and stored. Missing tables are built on up to
//! `--threads` threads at once (largest first), under one progress bar.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::additive::TileTable;
use super::rank::entries;
use super::values::Values;
use super::{build, TileBoard};
use crate::heuristics::pdb::cache;
use crate::params::Metric;

/// The text that determines the table of `tiles` (bump `v1` when the
/// table's layout or meaning changes).
pub fn key(board: &TileBoard, tiles: &[usize], metric: Metric) -> String {
    let goals: Vec<u32> = tiles.iter().map(|&t| board.goal[t]).collect();
    format!(
        "tile table v1\nboard {}x{} open {:#x}\npattern goal cells {goals:?}\nblank goal {}\nmetric {metric:?}\n",
        board.width, board.height, board.open, board.blank_goal
    )
}

/// The tables of `patterns` (tiles each), in that order.
pub fn tables(
    board: &TileBoard,
    patterns: &[Vec<usize>],
    metric: Metric,
    cache_dir: Option<&Path>,
    threads: usize,
) -> Vec<TileTable> {
    let size = |p: &Vec<usize>| entries(board.n, p.len() as u32).unwrap_or(0);
    let mut slots: Vec<Option<TileTable>> = patterns
        .iter()
        .map(|p| {
            let body = cache_dir.and_then(|d| cache::load_body(d, &key(board, p, metric)))?;
            Some(TileTable {
                tiles: p.clone(),
                values: Values::from_file(body, size(p))?,
                build_ms: 0,
                from_cache: true,
            })
        })
        .collect();
    let mut todo: Vec<usize> = (0..patterns.len())
        .filter(|&i| slots[i].is_none())
        .collect();
    todo.sort_by_key(|&i| std::cmp::Reverse(size(&patterns[i])));
    let total = todo.iter().map(|&i| size(&patterns[i])).sum();
    let bar = super::super::build_bar(std::io::IsTerminal::is_terminal(&std::io::stderr()), total);
    let next = AtomicUsize::new(0);
    let built = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, todo.len().max(1)) {
            scope.spawn(|| {
                while let Some(&i) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let table = build_one(board, &patterns[i], metric, cache_dir, &bar);
                    built
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((i, table));
                }
            });
        }
    });
    bar.finish_and_clear();
    for (i, table) in built.into_inner().unwrap_or_else(|e| e.into_inner()) {
        slots[i] = Some(table);
    }
    slots.into_iter().flatten().collect()
}

/// Builds one table and stores it in the cache (a cache that cannot be
/// written is reported on stderr and the search goes on).
fn build_one(
    board: &TileBoard,
    tiles: &[usize],
    metric: Metric,
    cache_dir: Option<&Path>,
    bar: &indicatif::ProgressBar,
) -> TileTable {
    let started = Instant::now();
    let mut shown = 0;
    let bytes = build::fill(board, tiles, &mut |reached, depth| {
        bar.inc(reached - shown);
        shown = reached;
        bar.set_message(format!("distance {depth}"));
    });
    let values = Values::pack(bytes);
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
    TileTable {
        tiles: tiles.to_vec(),
        values,
        build_ms,
        from_cache: false,
    }
}
