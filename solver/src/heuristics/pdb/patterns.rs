//! Which pattern databases to build for a puzzle and goal.
//!
//! - Tile puzzles (every block a unique 1x1 block with its own goal cell, no
//!   sliders): statically partitioned additive patterns, the other tiles
//!   merged into uncounted interchangeable tiles. Automatically, groups of k
//!   tiles with k as large as `--pdb-memory` (4 bits per entry),
//!   [`AUTO_TILE_ENTRIES`] and [`MAX_FAST_TILES`] allow: the n mod k tiles
//!   first in goal order (the top row), the rest in bands two goal columns
//!   wide, top to bottom, so that each group is a compact block of the
//!   board. On the 15-puzzle that is Korf and Felner's 7-8 (1-7 and 8-15,
//!   288 MB) within the default 512M, 1-7-7 from 58 MB, and their 6-6-3
//!   (1-3, 4,5,8,9,12,13 and 6,7,10,11,14,15; 5.8 MB) below; one group of 8
//!   on the 8-puzzle.
//! - Any other puzzle: abstractions that keep the goal blocks and a subset of
//!   the others, combined by maximum. Automatically two, each within half of
//!   `--pdb-memory`: the blocks nearest the goal first, then the blocks the
//!   first left out.
//!
//! `--pdb 1,2,3/4,5,6` names block ids (numbers from 10 name the tiles
//! importer's `A`, `B`, ..., `a`, ...): for tiles each group is one additive pattern,
//! otherwise each group is one abstraction (plus the goal blocks).

use super::abstraction::{Abstraction, Pattern};
use super::tiles::index::PatternIndex;
use super::tiles::layers::MAX_FAST_TILES;
use super::tiles::values::Values;
use super::tiles::TileBoard;
use crate::geometry::Geometry;
use crate::model::{CellKind, Puzzle};

/// The patterns to build: the sum within each group, the maximum over groups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub groups: Vec<Vec<Pattern>>,
}

/// Chooses the patterns for `puzzle` with the goal of `geometry`, from
/// `spec` (`--pdb`) or automatically within `memory` bytes.
pub fn plan(
    puzzle: &Puzzle,
    geometry: &Geometry,
    spec: Option<&str>,
    memory: u64,
) -> Result<Plan, String> {
    let tiles = tile_goals(puzzle, geometry);
    let plan = match (spec, &tiles) {
        (Some(s), Some(_)) => Plan {
            groups: vec![parse(puzzle, s)?
                .into_iter()
                .map(|group| tile_pattern(puzzle, group))
                .collect()],
        },
        (Some(s), None) => Plan {
            groups: parse(puzzle, s)?
                .into_iter()
                .map(|group| vec![block_pattern(puzzle, geometry, group)])
                .collect(),
        },
        (None, Some(order)) => auto_tiles(puzzle, geometry, order, memory),
        (None, None) => auto_blocks(puzzle, geometry, memory),
    };
    let used: Vec<usize> = plan
        .groups
        .iter()
        .flatten()
        .flat_map(|p| &p.counted)
        .copied()
        .collect();
    if tiles.is_some() && (1..used.len()).any(|k| used[..k].contains(&used[k])) {
        return Err("--pdb: a tile is in two groups; additive patterns must be disjoint".into());
    }
    let total = plan
        .groups
        .iter()
        .flatten()
        .try_fold(0u64, |sum, p| {
            sum.checked_add(table_bytes(puzzle, geometry, p)?)
        })
        .unwrap_or(u64::MAX);
    if total > memory {
        return Err(format!(
            "the pattern databases need {} bytes, more than --pdb-memory {memory}: use smaller \
             --pdb groups or raise --pdb-memory",
            if total == u64::MAX {
                "over 4G".to_string()
            } else {
                total.to_string()
            }
        ));
    }
    Ok(plan)
}

/// For a tile puzzle, its instances in goal-cell order; `None` otherwise.
fn tile_goals(puzzle: &Puzzle, geometry: &Geometry) -> Option<Vec<usize>> {
    let doors = puzzle.board.cells().contains(&CellKind::Door);
    let unit = puzzle.types.iter().zip(&puzzle.counts).all(|(t, &n)| {
        n == 1 && t.shape.size() == 1 && t.slider.is_none() && !(t.is_master && doors)
    });
    let mut goals: Vec<(u16, usize)> = geometry
        .targets()
        .iter()
        .filter(|(r, a)| r.len() == 1 && a.len() == 1)
        .map(|(r, a)| (a[0], r.start))
        .collect();
    if !unit || goals.len() != puzzle.instances() || goals.len() < 2 {
        return None;
    }
    goals.sort_unstable();
    Some(goals.into_iter().map(|(_, i)| i).collect())
}

/// A tile pattern: `counted` kept, every other tile merged.
fn tile_pattern(puzzle: &Puzzle, mut counted: Vec<usize>) -> Pattern {
    counted.sort_unstable();
    counted.dedup();
    let merged = (0..puzzle.instances())
        .filter(|i| !counted.contains(i))
        .collect();
    Pattern { counted, merged }
}

/// A block abstraction: the goal types and `kept` kept, the rest deleted.
fn block_pattern(puzzle: &Puzzle, geometry: &Geometry, mut kept: Vec<usize>) -> Pattern {
    for (range, _) in geometry.targets() {
        let t = puzzle.instance_type(range.start);
        kept.extend(puzzle.type_range(t));
    }
    kept.sort_unstable();
    kept.dedup();
    Pattern {
        counted: kept,
        merged: Vec::new(),
    }
}

/// Parses `--pdb`: groups of block ids, each id every instance of its type.
fn parse(puzzle: &Puzzle, spec: &str) -> Result<Vec<Vec<usize>>, String> {
    spec.split('/')
        .map(|group| {
            let mut instances = Vec::new();
            for item in group.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let id = block_id(item).ok_or_else(|| {
                    format!("--pdb: '{item}' is not a block id (write e.g. --pdb 1,2,3/4,5,6)")
                })?;
                let t = puzzle.type_by_id(id).ok_or_else(|| {
                    format!("--pdb names block '{item}', which the puzzle does not have")
                })?;
                instances.extend(puzzle.type_range(t));
            }
            if instances.is_empty() {
                return Err(format!("--pdb: empty group in '{spec}'"));
            }
            Ok(instances)
        })
        .collect()
}

/// One character, or a tile number from 10 as the tiles importer names it
/// (10-35 `A`-`Z`, 36-61 `a`-`z`).
fn block_id(item: &str) -> Option<char> {
    let mut chars = item.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => match item.parse::<u32>().ok()? {
            n @ 10..=35 => char::from_u32('A' as u32 + n - 10),
            n @ 36..=61 => char::from_u32('a' as u32 + n - 36),
            _ => None,
        },
    }
}

/// The most entries an automatically chosen tile table has, and the most
/// tiles ([`MAX_FAST_TILES`]: the fast builder's, so that building takes
/// seconds): on the 15-puzzle, 8 tiles (518,918,400 entries), so 7-8 when
/// `--pdb-memory` has room for its 288 MB, else 1-7-7 (58 MB), else 6-6-3.
pub const AUTO_TILE_ENTRIES: u64 = 1 << 30;

/// Bytes the table of `pattern` takes: a one-blank tile puzzle's table
/// ranks only the pattern's tiles, 4 bits per entry; an abstraction's, one
/// byte per entry. `None` past 4G entries.
fn table_bytes(puzzle: &Puzzle, geometry: &Geometry, pattern: &Pattern) -> Option<u64> {
    match TileBoard::new(puzzle, geometry) {
        Some(board) => PatternIndex::new(board.open, pattern.counted.len())
            .map(|i| i.len())
            .filter(|&e| e < 1 << 32)
            .map(Values::bytes_for),
        _ => Abstraction::size(puzzle, geometry, pattern),
    }
}

/// Entries of a tile puzzle's table of `pattern`; `None` for other puzzles
/// or past `u64`.
fn tile_entries(puzzle: &Puzzle, geometry: &Geometry, pattern: &Pattern) -> Option<u64> {
    let board = TileBoard::new(puzzle, geometry)?;
    PatternIndex::new(board.open, pattern.counted.len()).map(|i| i.len())
}

/// Groups of k tiles (see the module's comment), k as large as `memory`
/// and [`AUTO_TILE_ENTRIES`] allow.
fn auto_tiles(puzzle: &Puzzle, geometry: &Geometry, order: &[usize], memory: u64) -> Plan {
    for k in (1..=order.len()).rev() {
        let patterns: Vec<Pattern> = compact_groups(geometry, order, k)
            .into_iter()
            .map(|group| tile_pattern(puzzle, group))
            .collect();
        let bytes: Option<u64> = patterns
            .iter()
            .map(|p| table_bytes(puzzle, geometry, p))
            .sum();
        let small = patterns.iter().all(|p| {
            p.counted.len() <= MAX_FAST_TILES
                && tile_entries(puzzle, geometry, p).is_some_and(|e| e <= AUTO_TILE_ENTRIES)
        });
        if small && bytes.is_some_and(|b| b <= memory) {
            return Plan {
                groups: vec![patterns],
            };
        }
    }
    Plan { groups: Vec::new() }
}

/// Tiles (in goal-cell order) cut into groups of `k`: the first n mod k
/// tiles, then the others by bands of two goal columns, each band top to bottom.
fn compact_groups(geometry: &Geometry, order: &[usize], k: usize) -> Vec<Vec<usize>> {
    let (first, rest) = order.split_at(order.len() % k);
    let goal = |i: usize| {
        geometry
            .targets()
            .iter()
            .find(|(r, _)| r.start == i)
            .map_or(0, |(_, a)| a[0] as usize)
    };
    let left = rest
        .iter()
        .map(|&i| geometry.col(goal(i)))
        .min()
        .unwrap_or(0);
    let mut rest = rest.to_vec();
    rest.sort_by_key(|&i| ((geometry.col(goal(i)) - left) / 2, goal(i)));
    let mut groups: Vec<Vec<usize>> = rest.chunks(k).map(<[usize]>::to_vec).collect();
    if !first.is_empty() {
        groups.insert(0, first.to_vec());
    }
    groups
}

/// Two abstractions within half of `memory` each (one if it keeps every block).
fn auto_blocks(puzzle: &Puzzle, geometry: &Geometry, memory: u64) -> Plan {
    let goal = block_pattern(puzzle, geometry, Vec::new()).counted;
    let near = |i: usize| {
        geometry
            .targets()
            .iter()
            .flat_map(|(_, a)| a)
            .map(|&g| geometry.manhattan(puzzle.start.anchors[i] as usize, g as usize))
            .min()
            .unwrap_or(0)
    };
    let mut others: Vec<usize> = (0..puzzle.instances())
        .filter(|i| !goal.contains(i))
        .collect();
    others.sort_by_key(|&i| (near(i), i));
    let budget = memory / 2;
    let first = greedy(puzzle, geometry, &goal, &others, budget);
    let mut groups = vec![vec![first.clone()]];
    if first.counted.len() < puzzle.instances() {
        let mut rest: Vec<usize> = others
            .iter()
            .copied()
            .filter(|i| !first.counted.contains(i))
            .collect();
        rest.extend(others.iter().filter(|i| first.counted.contains(i)));
        let second = greedy(puzzle, geometry, &goal, &rest, budget);
        if second != first {
            groups.push(vec![second]);
        }
    }
    Plan { groups }
}

/// The goal blocks plus `candidates` in order while they fit `budget`: the
/// first that does not fit ends the choice (trying every other one would
/// build an abstraction per block, minutes on a board of 10,000 blocks).
fn greedy(
    puzzle: &Puzzle,
    geometry: &Geometry,
    goal: &[usize],
    candidates: &[usize],
    budget: u64,
) -> Pattern {
    let mut kept = goal.to_vec();
    for &i in candidates {
        let mut trial = kept.clone();
        trial.push(i);
        let pattern = block_pattern(puzzle, geometry, trial.clone());
        if Abstraction::size(puzzle, geometry, &pattern).is_none_or(|size| size > budget) {
            break;
        }
        kept = trial;
    }
    block_pattern(puzzle, geometry, kept)
}
