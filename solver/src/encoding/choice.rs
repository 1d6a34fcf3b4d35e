//! `--encoding auto`: the faster encoding when its table fits the memory
//! budget, the narrower one otherwise, and a sentence saying which and why
//! (the JSON result's `encoding_reason`).
//!
//! The packed encoding costs a shift and a mask per block where the rank
//! costs a multiplication per cell, so a search runs about twice as fast
//! with it; its keys are often wider, though. Auto takes it when its table
//! slots take no more bytes (the table stores whole bytes), and otherwise estimates the
//! bytes the packed visited set would need for every position the search
//! may store (the smaller of the rank's bound, the number of permutations of
//! the board's symbols, and the packed encoding's placements of each type on
//! its own anchors, which counts the rails blocks run on; fewer under
//! `--max-positions`) and takes packed when that fits the budget:
//! `--max-memory`, else the machine's available memory.

use std::sync::OnceLock;

use super::{Encoding, PackedEncoding, PositionEncoding, RankEncoding};
use crate::model::{Axis, Puzzle};
use crate::moves::MoveGenerator;
use crate::params::EncodingKind;

/// Bytes a visited set holds per stored position for each byte of slot:
/// the table is between 7/16 and 7/8 full, plus a share of frontier.
const BYTES_PER_SLOT_BYTE: f64 = 3.0;

/// What bounds the memory of the search the encoding is chosen for.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    /// `--max-memory` (what is left of it), if given.
    pub max_memory: Option<u64>,
    /// `--max-positions`, if given.
    pub max_positions: Option<u64>,
}

/// An encoding and why it was chosen.
#[derive(Clone, Debug)]
pub struct Choice {
    pub encoding: Encoding,
    pub reason: String,
}

/// Builds the encoding `kind` names; for `Auto`, decides as the module says.
pub fn choose(
    puzzle: &Puzzle,
    moves: &MoveGenerator,
    kind: EncodingKind,
    budget: Budget,
) -> Choice {
    let asked = |encoding: Encoding| Choice {
        reason: format!("{} (asked for)", encoding.name()),
        encoding,
    };
    match kind {
        EncodingKind::Rank => asked(Encoding::Rank(RankEncoding::new(puzzle, moves.shapes()))),
        EncodingKind::Packed => asked(Encoding::Packed(PackedEncoding::new(puzzle, moves))),
        EncodingKind::Auto => auto(puzzle, moves, budget),
    }
}

fn auto(puzzle: &Puzzle, moves: &MoveGenerator, budget: Budget) -> Choice {
    let packed = PackedEncoding::new(puzzle, moves);
    let rank = RankEncoding::new(puzzle, moves.shapes());
    let (pb, rb) = (packed.key_bits(), rank.key_bits());
    // The table stores whole bytes, and two payload bits (the depth mod 3)
    // share its slot with the key.
    let slot = |bits: u32| (bits + 2).div_ceil(8);
    if slot(pb) <= slot(rb) {
        return Choice {
            reason: format!(
                "packed: faster, and its table slots take no more bytes than the rank's ({pb} bits against {rb})"
            ),
            encoding: Encoding::Packed(packed),
        };
    }
    let positions =
        stored_bound(puzzle, &rank, budget.max_positions).min(placements(puzzle, moves));
    let slot_bytes = slot(pb) as f64;
    let need = positions * slot_bytes * BYTES_PER_SLOT_BYTE;
    let (limit, source) = match budget.max_memory {
        Some(m) => (m, "--max-memory"),
        None => (available_memory(), "available memory"),
    };
    let sizes = format!(
        "{} for up to {} positions, budget {} ({source})",
        size(need),
        count(positions),
        size(limit as f64)
    );
    if need <= limit as f64 {
        Choice {
            reason: format!("packed: faster, and its table fits ({sizes}); rank would take {rb} bits against {pb}"),
            encoding: Encoding::Packed(packed),
        }
    } else {
        Choice {
            reason: format!(
                "rank: narrower ({rb} bits against {pb}); the packed table might not fit ({sizes})"
            ),
            encoding: Encoding::Rank(rank),
        }
    }
}

/// Bytes for the reason, in MiB or, from 10 GiB, GiB.
fn size(bytes: f64) -> String {
    let mib = bytes / (1u64 << 20) as f64;
    if mib < 10240.0 {
        format!("{mib:.1} MiB")
    } else {
        format!("{:.0} GiB", mib / 1024.0)
    }
}

/// A position count for the reason: whole below 10^12, else as a power of two.
fn count(positions: f64) -> String {
    if positions < 1e12 {
        format!("{positions:.0}")
    } else {
        format!("2^{:.0}", positions.log2())
    }
}

/// Most positions the search may store: the rank's bound, or with
/// `--max-positions` that many expansions times the most steps a position
/// has (each step covers an empty cell from one of four sides, so at most
/// four per empty cell).
fn stored_bound(puzzle: &Puzzle, rank: &RankEncoding, max_positions: Option<u64>) -> f64 {
    let all = rank
        .bound()
        .iter()
        .rev()
        .fold(0.0, |acc, &w| acc * 2f64.powi(64) + w as f64);
    let Some(examined) = max_positions else {
        return all;
    };
    let covered: usize = (0..puzzle.types.len())
        .map(|t| puzzle.counts[t] * puzzle.types[t].shape.size())
        .sum();
    let spaces = puzzle.board.open_cells().saturating_sub(covered).max(1);
    all.min(examined as f64 * (4 * spaces) as f64 + 1.0)
}

/// How many ways the blocks can stand, each type's instances on distinct
/// anchors where the type fits, a slider only on the rails through its
/// instances' starts (overlaps between blocks ignored). Far below the
/// rank's bound where blocks run on rails: a Rush Hour car has 4 or 5
/// places, not the whole board.
fn placements(puzzle: &Puzzle, moves: &MoveGenerator) -> f64 {
    let ln_choose = |n: usize, k: usize| -> f64 {
        (0..k.min(n))
            .map(|i| ((n - i) as f64 / (i + 1) as f64).ln())
            .sum()
    };
    let board = &puzzle.board;
    let ln: f64 = (0..puzzle.types.len())
        .map(|t| {
            let places = match puzzle.types[t].slider {
                None => moves.domain(t).count(),
                Some(axis) => {
                    let (dr, dc) = match axis {
                        Axis::Vertical => (1, 0),
                        Axis::Horizontal => (0, 1),
                    };
                    let mut rails = std::collections::BTreeSet::new();
                    for i in puzzle.type_range(t) {
                        let start = puzzle.start.anchors[i] as usize;
                        for sign in [-1, 1] {
                            let mut at = start;
                            rails.insert(at);
                            while let Some(x) = board.offset(at, sign * dr, sign * dc) {
                                if !moves.fits(t, x) {
                                    break;
                                }
                                rails.insert(x);
                                at = x;
                            }
                        }
                    }
                    rails.len()
                }
            };
            ln_choose(places, puzzle.counts[t])
        })
        .sum();
    ln.exp()
}

/// The machine's available memory (`MemAvailable` of /proc/meminfo), read
/// once per process; unlimited where it cannot be read.
pub fn available_memory() -> u64 {
    static AVAILABLE: OnceLock<u64> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|s| {
                let line = s.lines().find(|l| l.starts_with("MemAvailable:"))?;
                let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
                Some(kib.saturating_mul(1024))
            })
            .unwrap_or(u64::MAX)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats;
    use crate::params::Metric;

    fn choice(file: &str, budget: Budget) -> Choice {
        let puzzle = &formats::bundled(file);
        let moves = MoveGenerator::new(puzzle, Metric::Steps, &[]);
        choose(puzzle, &moves, EncodingKind::Auto, budget)
    }

    #[test]
    fn auto_takes_packed_when_its_table_fits_and_rank_when_it_does_not() {
        // Korf's 15-puzzle: packed 60 bits, rank 45, bound 2^45 positions.
        let roomy = Budget {
            max_memory: Some(1 << 30),
            max_positions: Some(1_000_000),
        };
        let c = choice("tiles/korf_01.txt", roomy);
        assert_eq!(c.encoding.name(), "packed", "{}", c.reason);
        assert!(c.reason.contains("--max-memory"), "{}", c.reason);
        let tight = Budget {
            max_memory: Some(1 << 30),
            max_positions: None,
        };
        let c = choice("tiles/korf_01.txt", tight);
        assert_eq!(c.encoding.name(), "rank", "{}", c.reason);
        assert!(c.reason.contains("might not fit"), "{}", c.reason);
    }

    #[test]
    fn auto_counts_the_rails_of_rush_hour_cars() {
        // Rush Hour: the rank's bound (cars anywhere on the board) is over
        // 2^40, but each car has at most 5 places on its rail: 12 cars,
        // at most 5^12 positions, whose packed table fits 8 GiB.
        let budget = Budget {
            max_memory: Some(8 << 30),
            max_positions: None,
        };
        let c = choice("rushhour/rush_30.txt", budget);
        assert_eq!(c.encoding.name(), "packed", "{}", c.reason);
        assert!(c.reason.contains("fits"), "{}", c.reason);
    }
}
