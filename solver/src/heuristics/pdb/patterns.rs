//! Which pattern databases to build for a puzzle and goal.
//!
//! - Tile puzzles (every block a unique 1x1 block with its own goal cell, no
//!   sliders): statically partitioned additive patterns, the other tiles
//!   merged into uncounted interchangeable tiles. Automatically, groups of k
//!   tiles with k as large as `--pdb-memory` (4 bits per entry),
//!   [`AUTO_TILE_ENTRIES`] and [`MAX_FAST_TILES`] allow: the n mod k tiles
//!   first in goal order (the top row), the rest in bands two goal columns
//!   wide, top to bottom, so that each group is a compact block of the
//!   board, then tiles swapped between groups while that makes them more
//!   compact ([`tighten`]). On the 15-puzzle that is Korf and Felner's 7-8
//!   (1-7 and 8-15, 288 MB) within the default 512M, 1-7-7 from 58 MB, and
//!   their 6-6-3 (1-3, 4,5,8,9,12,13 and 6,7,10,11,14,15; 5.8 MB) below; on
//!   the 24-puzzle their 6-6-6-6 (255 MB, mirrored through the diagonal);
//!   one group of 8 on the 8-puzzle.
//! - Any other puzzle: abstractions that keep the goal blocks and a subset of
//!   the others, combined by maximum. Automatically two, each within half of
//!   `--pdb-memory`: the blocks nearest the goal first, then the blocks the
//!   first left out.
//!
//! Under `--max-memory` the tables get a share of the search's memory
//! ([`crate::search::Engine::table_memory`]): what building them holds at
//! its peak ([`peak_bytes`]: a table's builder holds several times the
//! finished table) must fit it. Automatic patterns shrink until they fit;
//! `--pdb` groups that do not are refused, naming both sizes (a 7-8 plan
//! built under `--max-memory 16M` reached 865 MB).
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
/// `spec` (`--pdb`) or automatically: the tables within `memory` bytes
/// (`--pdb-memory`), their builds' peak within `cap` bytes (the share of
/// `--max-memory`, when there is one).
pub fn plan(
    puzzle: &Puzzle,
    geometry: &Geometry,
    spec: Option<&str>,
    (memory, cap): (u64, Option<u64>),
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
        (None, Some(order)) => auto_tiles(puzzle, geometry, order, (memory, cap)),
        (None, None) => auto_blocks(puzzle, geometry, (memory, cap)),
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
    let shown = |bytes: u64| match bytes {
        u64::MAX => "over 4G".to_string(),
        b => b.to_string(),
    };
    if total > memory {
        return Err(format!(
            "the pattern databases need {} bytes, more than --pdb-memory {memory}: use smaller \
             --pdb groups or raise --pdb-memory",
            shown(total)
        ));
    }
    let peak = peak_bytes(puzzle, geometry, &plan).unwrap_or(u64::MAX);
    if let Some(cap) = cap.filter(|&c| peak > c) {
        return Err(format!(
            "the pattern databases take {} bytes and {} while they are built, more than the \
             {cap} bytes --max-memory leaves them (half of what the search may hold, after \
             what the process holds already): use smaller --pdb groups, leave --pdb out to \
             have them chosen within the limit, or raise --max-memory",
            shown(total),
            shown(peak)
        ));
    }
    Ok(plan)
}

/// Bytes a one-blank tile puzzle's fast builder holds per entry at its
/// peak ([`super::tiles::layers`]): a byte per entry, the visited and
/// frontier bits of every (cell set, blank region) block, then the 4-bit
/// table beside the bytes; measured 1.65 on the 15-puzzle's 8-tile table
/// (855 MB for 518,918,400 entries), rounded up.
const TILE_BUILD_PER_ENTRY: f64 = 1.75;

/// Bytes an abstraction's builder holds per entry at its peak
/// ([`super::build`]): a byte per entry and the queues of a layer, four
/// bytes per queued rank.
const BLOCK_BUILD_PER_ENTRY: u64 = 3;

/// The most bytes building the tables of `plan` holds at once: each table
/// built in turn (a tile puzzle's largest first, as [`super::tiles::load`]
/// builds them; abstractions in the plan's order) beside the ones finished
/// before it. Counted as if none were in the cache (reading a table holds
/// only its size). `None` for a table past 4G entries.
pub fn peak_bytes(puzzle: &Puzzle, geometry: &Geometry, plan: &Plan) -> Option<u64> {
    let board = TileBoard::new(puzzle, geometry);
    let mut tables: Vec<(u64, u64)> = Vec::new();
    for pattern in plan.groups.iter().flatten() {
        let size = table_bytes(puzzle, geometry, pattern)?;
        let build = match &board {
            Some(b) => {
                let entries = tile_entries(puzzle, geometry, pattern)?;
                match pattern.counted.len() {
                    2..=MAX_FAST_TILES => (entries as f64 * TILE_BUILD_PER_ENTRY) as u64,
                    // The reference builder: a byte and a bit per blank cell per entry.
                    _ => entries.saturating_mul(2 + u64::from(b.n) / 8),
                }
            }
            None => size.saturating_mul(BLOCK_BUILD_PER_ENTRY),
        };
        tables.push((size, build));
    }
    if board.is_some() {
        tables.sort_by_key(|&(size, _)| std::cmp::Reverse(size));
    }
    let (mut held, mut peak) = (0u64, 0u64);
    for (size, build) in tables {
        peak = peak.max(held.saturating_add(build));
        held = held.saturating_add(size);
    }
    Some(peak.max(held))
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

/// The instances of the goal's types.
fn goal_instances(puzzle: &Puzzle, geometry: &Geometry) -> Vec<usize> {
    let mut goal: Vec<usize> = geometry
        .targets()
        .iter()
        .flat_map(|(range, _)| puzzle.type_range(puzzle.instance_type(range.start)))
        .collect();
    goal.sort_unstable();
    goal.dedup();
    goal
}

/// A block abstraction: `kept` kept, the rest deleted; when `kept` holds
/// none of the goal's blocks, the goal's types are kept too (`--pdb v,o`
/// on Klotski: the master and those two). A pattern that names some goal
/// blocks keeps only those: where the goal fixes every block (The Time
/// Machine) a table over all of them would be the whole puzzle, and the
/// abstract goal asks only for the kept ones, so its distances stay lower
/// bounds.
fn block_pattern(puzzle: &Puzzle, geometry: &Geometry, mut kept: Vec<usize>) -> Pattern {
    let goal = goal_instances(puzzle, geometry);
    if !kept.iter().any(|i| goal.contains(i)) {
        kept.extend(goal);
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

/// Groups of k tiles (see the module's comment), k as large as `memory`,
/// `cap` (the builds' peak) and [`AUTO_TILE_ENTRIES`] allow; none when
/// even single tiles do not fit.
fn auto_tiles(
    puzzle: &Puzzle,
    geometry: &Geometry,
    order: &[usize],
    (memory, cap): (u64, Option<u64>),
) -> Plan {
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
        let plan = Plan {
            groups: vec![patterns],
        };
        let fits =
            || cap.is_none_or(|c| peak_bytes(puzzle, geometry, &plan).is_some_and(|p| p <= c));
        if small && bytes.is_some_and(|b| b <= memory) && fits() {
            return plan;
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
    let mut cell = vec![(0, 0); order.iter().max().map_or(0, |&m| m + 1)];
    for &i in order {
        cell[i] = (geometry.row(goal(i)), geometry.col(goal(i)));
    }
    tighten(&mut groups, |a, b| {
        let ((ra, ca), (rb, cb)) = (cell[a], cell[b]);
        (ra - rb).abs() + (ca - cb).abs() == 1
    });
    groups
}

/// Restarts of [`tighten`] from shuffled groups.
const TIGHTEN_RESTARTS: u64 = 64;

/// Makes the groups compact: the partition with the most goal-cell
/// neighbours inside groups (`adjacent`) that swapping tiles between
/// groups reaches from `groups` and from [`TIGHTEN_RESTARTS`] seeded
/// shuffles of them, the first found on a tie (so `groups` stays where it
/// is as good). A table captures the interactions of its own tiles only,
/// and neighbouring goals interact most: compact groups give the larger
/// sums. The bands of [`compact_groups`] are compact on the 15-puzzle
/// already (its 7-8 and 6-6-3 stay as they are); on the 24-puzzle they cut
/// 6-tile groups across bands, and this finds Korf and Felner's 6-6-6-6
/// shape (three 2x3 blocks and the blank's corner).
fn tighten(groups: &mut Vec<Vec<usize>>, adjacent: impl Fn(usize, usize) -> bool) {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let score = |groups: &[Vec<usize>]| -> usize {
        let pairs = groups.iter().map(|g| {
            let linked =
                |(i, &a): (usize, &usize)| g[i + 1..].iter().filter(|&&b| adjacent(a, b)).count();
            g.iter().enumerate().map(linked).sum::<usize>()
        });
        pairs.sum()
    };
    let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
    let mut tiles: Vec<usize> = groups.concat();
    let mut best = groups.clone();
    climb(&mut best, &adjacent);
    let mut best_score = score(&best);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    for _ in 0..TIGHTEN_RESTARTS {
        tiles.shuffle(&mut rng);
        let mut rest = &tiles[..];
        let mut trial: Vec<Vec<usize>> = sizes
            .iter()
            .map(|&n| {
                let (group, tail) = rest.split_at(n);
                rest = tail;
                group.to_vec()
            })
            .collect();
        climb(&mut trial, &adjacent);
        let trial_score = score(&trial);
        if trial_score > best_score {
            (best, best_score) = (trial, trial_score);
        }
    }
    for g in &mut best {
        g.sort_unstable();
    }
    *groups = best;
}

/// Swaps tiles between groups while a swap adds neighbours inside groups,
/// first improvement in a fixed order.
fn climb(groups: &mut [Vec<usize>], adjacent: &impl Fn(usize, usize) -> bool) {
    let links = |group: &[usize], tile: usize, without: usize| {
        let others = group.iter().filter(|&&t| t != tile && t != without);
        others.filter(|&&t| adjacent(t, tile)).count()
    };
    let mut improved = true;
    while improved {
        improved = false;
        for x in 0..groups.len() {
            for y in x + 1..groups.len() {
                for i in 0..groups[x].len() {
                    for j in 0..groups[y].len() {
                        let (a, b) = (groups[x][i], groups[y][j]);
                        let before = links(&groups[x], a, a) + links(&groups[y], b, b);
                        let after = links(&groups[x], b, a) + links(&groups[y], a, b);
                        if after > before {
                            groups[x][i] = b;
                            groups[y][j] = a;
                            improved = true;
                        }
                    }
                }
            }
        }
    }
}

/// Two abstractions within half of `memory` each (one if it keeps every
/// block), and small enough that building the second beside the first
/// stays within `cap`.
fn auto_blocks(puzzle: &Puzzle, geometry: &Geometry, (memory, cap): (u64, Option<u64>)) -> Plan {
    let goal = goal_instances(puzzle, geometry);
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
    let budget = (memory / 2).min(cap.map_or(u64::MAX, |c| c / (1 + BLOCK_BUILD_PER_ENTRY)));
    let whole_goal = block_pattern(puzzle, geometry, goal.clone());
    if Abstraction::size(puzzle, geometry, &whole_goal).is_none_or(|size| size > budget) {
        return goal_subsets(puzzle, geometry, &goal, budget);
    }
    two_tables(puzzle, geometry, &goal, &others, budget)
}

/// Where even the goal's blocks alone do not fit `budget` (a goal fixing
/// every block): two tables over goal blocks only, taken farthest from
/// their targets first.
fn goal_subsets(puzzle: &Puzzle, geometry: &Geometry, goal: &[usize], budget: u64) -> Plan {
    let target = |i: usize| {
        geometry
            .targets()
            .iter()
            .find(|(range, _)| puzzle.instance_type(range.start) == puzzle.instance_type(i))
            .map_or(0, |(_, anchors)| {
                anchors
                    .iter()
                    .map(|&g| geometry.manhattan(puzzle.start.anchors[i] as usize, g as usize))
                    .min()
                    .unwrap_or(0)
            })
    };
    let mut order = goal.to_vec();
    order.sort_by_key(|&i| (std::cmp::Reverse(target(i)), i));
    two_tables(puzzle, geometry, &[], &order, budget)
}

/// The automatic plan's two tables, combined by maximum: [`greedy`] over
/// `base` plus `order`, then, unless the first keeps every block (exact
/// alone), over `base` plus the candidates it left out first and the rest
/// after them; the second only where it differs from the first.
fn two_tables(
    puzzle: &Puzzle,
    geometry: &Geometry,
    base: &[usize],
    order: &[usize],
    budget: u64,
) -> Plan {
    let first = greedy(puzzle, geometry, base, order, budget);
    let mut groups = vec![vec![first.clone()]];
    if first.counted.len() < puzzle.instances() {
        let mut rest: Vec<usize> = order
            .iter()
            .copied()
            .filter(|i| !first.counted.contains(i))
            .collect();
        rest.extend(order.iter().filter(|i| first.counted.contains(i)));
        let second = greedy(puzzle, geometry, base, &rest, budget);
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
    if kept.is_empty() {
        // Not even one block fits: the first, so that the plan's size check
        // says by how much.
        kept.extend(candidates.first());
    }
    block_pattern(puzzle, geometry, kept)
}
