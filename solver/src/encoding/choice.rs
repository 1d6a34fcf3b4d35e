//! `--encoding auto`: the fastest encoding whose table fits the memory
//! budget (packed, then sets where it is narrower, then the rank), and a
//! sentence saying which and why (the JSON result's `encoding_reason`).
//! For a BFS where a table of keys might crowd the memory out, the dense
//! array over the rank comes first (see `DENSE_TABLE_SHARE`).
//!
//! The packed encoding costs a shift and a mask per block where the rank
//! costs a multiplication per cell, so a search runs about twice as fast
//! with it; its keys are often wider, though. Auto takes it when its table
//! slots take no more bytes (the table stores whole bytes), and otherwise estimates the
//! bytes the packed visited set would need for every position the search
//! may store (the smaller of the rank's bound, the number of permutations of
//! the board's symbols, and the packed encoding's placements of each type on
//! its own anchors, which counts the rails blocks run on and the order of
//! bars on one track; fewer under
//! `--max-positions`) and takes packed when that fits the budget:
//! `--max-memory`, else the machine's available memory.
//!
//! That bound is for the worst case, a position with a step into every
//! empty cell from every side, and it is far off where the empty cells are
//! many: Sunshine's 100 (85 of them doors beyond the frame) bound 5M
//! expansions at 2 billion positions, where 7 million are stored. So under
//! `--max-positions` auto also takes packed when the positions to be
//! expected fit: the expansions times [`EXPECTED_MARGIN`] times the moves
//! of the start position. The search then holds to the budget as a memory
//! limit ([`Choice::memory_guard`]), so that a search that stores more than
//! expected stops at the limit, as `--max-memory` stops it, instead of
//! running the machine out of memory. On Sunshine a reasoner attempt of 5M
//! positions took 117 CPU s with the rank this chose before, and takes
//! 13 s with packed (the same 7.2M positions stored, 1.24 GB).
//!
//! A BFS that may spill (`--spill DIR`) needs no table that fits in memory:
//! what does not fit goes to disk. There packed is taken when its keys fit
//! the disk's free space, or when neither the rank's keys there nor the
//! rank's table in memory would fit ([`spills`]).

use std::sync::OnceLock;

use super::{Encoding, PackedEncoding, PositionEncoding, RankEncoding};
use crate::model::{Axis, Puzzle};
use crate::moves::{MoveGenerator, State};
use crate::params::EncodingKind;
use crate::store::MAX_KEY_BITS;

/// Bytes a visited set holds per stored position for each byte of slot:
/// a large table is 54-81% full (a small one, after its x4 growth, down to
/// a fifth: an estimate, the hard memory check is the table's own), plus a
/// share of frontier.
const BYTES_PER_SLOT_BYTE: f64 = 3.0;

/// The same for slots over 16 bytes, whose keys the table keeps apart from
/// 8-byte slots, so that empty slots cost 8 bytes and not a key's: Sunshine
/// (68-byte slots) measured 1.7 (BFS, 4M positions, 671 MB for 5.7M
/// stored) and 1.4 (A*, 5M expanded, 701 MB for 7.2M stored).
const BYTES_PER_WIDE_SLOT_BYTE: f64 = 2.0;

/// Bytes per stored position for each byte of a slot of `slot_bytes`.
fn bytes_per_slot_byte(slot_bytes: u32) -> f64 {
    if slot_bytes > 16 {
        BYTES_PER_WIDE_SLOT_BYTE
    } else {
        BYTES_PER_SLOT_BYTE
    }
}

/// Stored positions expected per expansion, per move of the start
/// position: an expansion adds at most its moves, far fewer where they
/// lead back to stored positions (1.4 to 1.5 on Sunshine, whose start has
/// 9 moves); the margin covers positions with more moves than the start.
const EXPECTED_MARGIN: f64 = 2.0;

/// What bounds the memory of the search the encoding is chosen for.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    /// `--max-memory` (what is left of it), if given.
    pub max_memory: Option<u64>,
    /// `--max-positions`, if given.
    pub max_positions: Option<u64>,
    /// When the search may spill (a BFS with `--spill DIR`): the bytes
    /// free on DIR's disk.
    pub spill_free: Option<u64>,
    /// The search can keep a dense array instead of a table
    /// (`search/bfs/dense.rs`: a BFS or count that walks back through
    /// depths mod 3 and hands no visited set on).
    pub dense: bool,
    /// The search is a BFS the tile kernel serves (`search/bfs/tiles.rs`:
    /// a word per position, the packed key, in one table), where packed
    /// keys are both the faster and the smaller.
    pub tiles: bool,
}

/// An encoding and why it was chosen.
#[derive(Clone, Debug)]
pub struct Choice {
    pub encoding: Encoding,
    pub reason: String,
    /// A memory limit (bytes) the search must stop at, when the choice
    /// counted on the positions to be expected rather than on a bound.
    pub memory_guard: Option<u64>,
    /// The encoding to search with again when this one runs out of memory
    /// (the search stops at the budget): set when auto took a faster
    /// encoding on the chance that the search stores far fewer positions
    /// than the bound, as nearly every search does.
    pub fallback: Option<EncodingKind>,
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
        memory_guard: None,
        fallback: None,
    };
    match kind {
        EncodingKind::Rank => asked(Encoding::Rank(RankEncoding::new(puzzle, moves.shapes()))),
        EncodingKind::Packed => asked(Encoding::Packed(PackedEncoding::new(puzzle, moves))),
        EncodingKind::Sets => asked(Encoding::Packed(PackedEncoding::sets(puzzle, moves))),
        EncodingKind::Dense => asked(Encoding::Dense(RankEncoding::new(puzzle, moves.shapes()))),
        EncodingKind::Auto => auto(puzzle, moves, budget),
    }
}

/// `--encoding auto`: packed where its slots are no wider than the rank's,
/// else the first faster encoding whose table fits (see the module), else
/// the narrowest.
fn auto(puzzle: &Puzzle, moves: &MoveGenerator, budget: Budget) -> Choice {
    let packed = PackedEncoding::new(puzzle, moves);
    let rank = RankEncoding::new(puzzle, moves.shapes());
    let (pb, rb) = (packed.key_bits(), rank.key_bits());
    let positions =
        stored_bound(puzzle, &rank, budget.max_positions).min(placements(puzzle, moves));
    let (limit, source) = match budget.max_memory {
        Some(m) => (m, "--max-memory"),
        None => (available_memory(), "available memory"),
    };
    if budget.dense && budget.spill_free.is_none() {
        let expected = budget.max_positions.map(|examined| {
            let per = start_moves(puzzle, moves).max(1) as f64 * EXPECTED_MARGIN;
            (examined as f64 * per + 1.0).min(positions)
        });
        let table = table_bytes(pb.min(rb));
        if let Some(reason) = dense(puzzle, &rank, positions, expected, table, limit) {
            return Choice {
                reason,
                encoding: Encoding::Dense(rank),
                memory_guard: None,
                fallback: None,
            };
        }
    }
    if budget.tiles && budget.spill_free.is_none() {
        let reason = format!(
            "packed: the tile puzzle's BFS keeps one word per position ({pb} bits, about 9 bytes a stored position), less than a table of rank keys and faster"
        );
        return taken(packed, reason, None);
    }
    if slot(pb) <= slot(rb) {
        let reason = format!(
            "packed: faster, and its table slots take no more bytes than the rank's ({pb} bits against {rb})"
        );
        return taken(packed, reason, None);
    }
    if let Some(free) = budget.spill_free {
        let rank_fits = positions * table_bytes(rb) <= limit as f64;
        if let Some(reason) = spills(pb, rb, positions, free, rank_fits) {
            return taken(packed, reason, None);
        }
    }
    // The faster encodings in turn: packed, then sets where narrower.
    let sets = PackedEncoding::sets(puzzle, moves);
    let sb = sets.key_bits();
    let mut tried = Vec::new();
    let mut candidates = vec![packed];
    if slot(sb) < slot(pb) {
        candidates.push(sets.clone());
    }
    // Positions expected per expansion, counted once when first needed.
    let mut per = None;
    for encoding in candidates {
        let (name, bits) = (encoding.name(), encoding.key_bits());
        if bits > MAX_KEY_BITS {
            tried.push(format!(
                "; {name} keys are too wide for the visited set ({bits} bits, at most {MAX_KEY_BITS})"
            ));
            continue;
        }
        let need = positions * table_bytes(bits);
        let sizes = format!(
            "{} for up to {} positions, budget {} ({source})",
            size(need),
            count(positions),
            size(limit as f64)
        );
        let before = tried.concat();
        if need <= limit as f64 {
            let reason = format!("{name}: faster, and its table fits ({sizes}){before}; rank would take {rb} bits against {bits}");
            return taken(encoding, reason, None);
        }
        if let Some(examined) = budget.max_positions {
            let per = *per
                .get_or_insert_with(|| start_moves(puzzle, moves).max(1) as f64 * EXPECTED_MARGIN);
            let expected = (examined as f64 * per + 1.0).min(positions);
            let need = expected * table_bytes(bits);
            if need <= limit as f64 {
                let reason = format!(
                    "{name}: faster; its table fits for the {} positions to be expected ({} for {per:.0} per expansion: the start's moves times {EXPECTED_MARGIN}), though not for the worst case ({sizes}), so the search stops at {} rather than run out of memory{before}; rank would take {rb} bits against {bits}",
                    count(expected),
                    size(need),
                    size(limit as f64)
                );
                return taken(encoding, reason, Some(limit));
            }
        }
        if budget.max_positions.is_none() && budget.spill_free.is_none() {
            let narrow = narrowest(sets.clone(), rank.clone(), [pb, sb, rb], "");
            if slot(narrow.encoding.key_bits()) < slot(bits) {
                return optimistic(encoding, narrow, &sizes, limit);
            }
        }
        tried.push(format!("; the {name} table might not fit ({sizes})"));
    }
    narrowest(sets, rank, [pb, sb, rb], &tried.concat())
}

/// A search without `--max-positions` whose faster `encoding`'s table
/// might not fit in the worst case (`sizes`): it starts with that encoding
/// anyway, since the bound counts every way the blocks can stand where a
/// search stores a small share of them (The Time Machine: a bound of 12.9
/// billion positions, 28 million stored; packed solves it twice as fast as
/// the rank). It stops at the budget (`limit`) and the search is run again
/// with the narrow encoding (`narrow`), so a search that does need the
/// narrower keys loses at most the time the faster one took to fill it.
fn optimistic(encoding: PackedEncoding, narrow: Choice, sizes: &str, limit: u64) -> Choice {
    let (name, other) = (encoding.name(), narrow.encoding.name());
    let fallback = match narrow.encoding {
        Encoding::Rank(_) | Encoding::Dense(_) => EncodingKind::Rank,
        Encoding::Packed(_) => EncodingKind::Sets,
    };
    let reason = format!(
        "{name}: faster; its table might not fit in the worst case ({sizes}), but a search stores far fewer positions than that bound, so it starts with {name}, stops at {}, and is run again with {other} ({} bits against {}) if it gets there",
        size(limit as f64),
        narrow.encoding.key_bits(),
        encoding.key_bits()
    );
    Choice {
        memory_guard: Some(limit),
        fallback: Some(fallback),
        ..taken(encoding, reason, None)
    }
}

/// The packed (or sets) encoding `encoding`, taken for `reason`.
fn taken(encoding: PackedEncoding, reason: String, memory_guard: Option<u64>) -> Choice {
    Choice {
        reason,
        encoding: Encoding::Packed(encoding),
        memory_guard,
        fallback: None,
    }
}

/// Disk bytes a spilled search may hold per key byte of every position it
/// may store: a solve keeps every layer, and the sorted runs of the layer
/// being merged still hold repeats.
const DISK_PER_KEY_BYTE: f64 = 2.0;

/// Ranks below which the dense array may be taken whatever share of them
/// are positions: 2^26 ranks take 24 MiB, and a layer's scan of their
/// frontier bits 8 MiB of reads.
const DENSE_SMALL_RANKS: f64 = (1u64 << 26) as f64;

/// Share of the memory budget a table of keys may take, in the worst case,
/// before the dense array is taken instead. The array saves memory, not
/// time: it ranks every successor (a multiplication per cell of the
/// cells the move spans) where packed shifts a field, so the 10^7 bench
/// counts in 2.9 s with it against 2.6 s (10 MB against 92 MB), Layton's
/// Four Balls in 2.8 s against 1.3 s (21 MB against 60 MB). It is taken where the table
/// might crowd the memory out: the 10^9 bench, whose table would take
/// 12 GB, counts in 377 MB.
const DENSE_TABLE_SHARE: f64 = 0.25;

/// Why the dense array is taken for a BFS, if it is: it fits `limit`; a
/// table of keys (`table` bytes per position) for every position the
/// search may store (`positions`; under `--max-positions`, those to be
/// expected: `expected`) could take more than [`DENSE_TABLE_SHARE`] of
/// `limit`, and more than the array; and most ranks are positions: every
/// block is a single cell (tile puzzles, where every rank is a placement)
/// or the ranks are few.
fn dense(
    puzzle: &Puzzle,
    rank: &RankEncoding,
    positions: f64,
    expected: Option<f64>,
    table: f64,
    limit: u64,
) -> Option<String> {
    let ranks = rank.bound_f64();
    let need = crate::search::dense_bytes(ranks);
    let single = puzzle.types.iter().all(|t| t.shape.size() == 1);
    let stored = expected.unwrap_or(positions) * table;
    let crowded = stored > limit as f64 * DENSE_TABLE_SHARE && stored > need;
    let fits = need <= limit as f64;
    (fits && crowded && (single || ranks <= DENSE_SMALL_RANKS)).then(|| {
        let why = match single {
            true => "every block is one cell, so every rank is a placement",
            false => "the ranks are few",
        };
        format!(
            "dense: a table of keys might take {} (up to {} positions, {table:.0} bytes each), over a quarter of the budget of {}, where {} ranks at 3 bits each take {}, and {why}",
            size(stored),
            count(expected.unwrap_or(positions)),
            size(limit as f64),
            count(ranks),
            size(need)
        )
    })
}

/// Why packed is taken for a search that may spill, if it is: its table
/// need not fit in memory (what does not fit goes to disk), and the spilled
/// search runs about three times as fast with it (the 10^7 bench counted
/// under `--max-memory 32M`: 2.2 s against 6.6 s with the rank, which
/// encodes a position with a multiplication per cell). Its keys take more
/// of the disk, so it is taken when its keys for every position it may
/// store (`positions`, with [`DISK_PER_KEY_BYTE`]'s headroom) fit in `free`
/// bytes, or when the rank's would not fit either and the rank's table
/// would not fit in memory (`rank_fits`) either, so that the search would
/// spill with the rank too. Otherwise the memory rule decides.
fn spills(pb: u32, rb: u32, positions: f64, free: u64, rank_fits: bool) -> Option<String> {
    let bytes = |bits: u32| positions * bits.div_ceil(8) as f64 * DISK_PER_KEY_BYTE;
    let (need, need_rank) = (bytes(pb), bytes(rb));
    let room = format!(
        "about {} for up to {} positions, {} free there",
        size(need),
        count(positions),
        size(free as f64)
    );
    let why = if need <= free as f64 {
        format!("its keys on disk fit ({room})")
    } else if need_rank > free as f64 && !rank_fits {
        format!(
            "in the worst case neither its keys on disk nor the rank's fit ({room}; the rank's about {}), nor the rank's table in memory",
            size(need_rank)
        )
    } else {
        return None;
    };
    (pb <= MAX_KEY_BITS).then(|| {
        format!("packed: faster; the search may spill to disk (--spill), so its table need not fit in memory, and {why}; rank would take {rb} bits against {pb}")
    })
}

/// The choice when no faster encoding's table fits: the narrowest, sets
/// where its slots are no wider than the rank's (its places are counted on
/// each type's own anchors, the rank's on every cell), else the rank.
/// `bits`: packed's, the sets' and the rank's key bits; `tried`: why the
/// faster ones were not taken, for the reason.
fn narrowest(sets: PackedEncoding, rank: RankEncoding, bits: [u32; 3], tried: &str) -> Choice {
    let [pb, sb, rb] = bits;
    if slot(sb) <= slot(rb) && sb <= MAX_KEY_BITS {
        return Choice {
            reason: format!(
                "sets: narrowest ({sb} bits against the rank's {rb} and packed's {pb}){tried}"
            ),
            encoding: Encoding::Packed(sets),
            memory_guard: None,
            fallback: None,
        };
    }
    Choice {
        reason: format!("rank: narrower ({rb} bits against {pb}){tried}"),
        encoding: Encoding::Rank(rank),
        memory_guard: None,
        fallback: None,
    }
}

/// Bytes of a table slot for a key of `bits` bits: the table stores whole
/// bytes, and two payload bits (the depth mod 3) share its slot with the
/// key.
fn slot(bits: u32) -> u32 {
    (bits + 2).div_ceil(8)
}

/// Bytes a visited set holds per stored position for keys of `bits` bits.
fn table_bytes(bits: u32) -> f64 {
    slot(bits) as f64 * bytes_per_slot_byte(slot(bits))
}

/// The moves of the start position.
fn start_moves(puzzle: &Puzzle, moves: &MoveGenerator) -> usize {
    let mut moves = moves.clone();
    let mut state = State::new(puzzle);
    state.load(&puzzle.start, moves.shapes());
    let mut list = Vec::new();
    moves.generate(&state, &mut list);
    list.len()
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
    let all = rank.bound_f64();
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
/// instances' starts (overlaps between blocks ignored, but for the bars
/// below). Far below the rank's bound where blocks run on rails: a Rush
/// Hour car has 4 or 5 places, not the whole board.
///
/// Sliders that are one-cell-wide bars along their axis (Rush Hour's cars
/// and trucks) are counted by track, the cells their rails cover: bars on
/// one track cannot pass each other, so `k` of them, `s` cells long in
/// all, stand on a track of `l` cells in C(l - s + k, k) ways, not in the
/// product of their places (a car and a truck in one row of 6: 3, not
/// 5 x 4). Every Rush Hour position's packed table then fits where the
/// product chose the slower rank for the largest puzzles.
fn placements(puzzle: &Puzzle, moves: &MoveGenerator) -> f64 {
    let mut tracks: std::collections::BTreeMap<Vec<usize>, (usize, usize)> = Default::default();
    let mut ln = 0.0;
    for t in 0..puzzle.types.len() {
        let Some(axis) = puzzle.types[t].slider else {
            ln += ln_choose(moves.domain(t).count(), puzzle.counts[t]);
            continue;
        };
        let shape = &puzzle.types[t].shape;
        let bar = match axis {
            Axis::Vertical => shape.bounding_box().1 == 1,
            Axis::Horizontal => shape.bounding_box().0 == 1,
        };
        let mut rails = std::collections::BTreeSet::new();
        for i in puzzle.type_range(t) {
            let rail = rail(moves, t, puzzle.start.anchors[i] as usize);
            if bar {
                let track: std::collections::BTreeSet<usize> = rail
                    .iter()
                    .flat_map(|&a| {
                        moves
                            .shapes()
                            .cells(t)
                            .iter()
                            .map(move |&off| (a as i32 + off) as usize)
                    })
                    .collect();
                let group = tracks.entry(track.into_iter().collect()).or_default();
                *group = (group.0 + 1, group.1 + shape.size());
            } else {
                rails.extend(rail);
            }
        }
        if !bar {
            ln += ln_choose(rails.len(), puzzle.counts[t]);
        }
    }
    for (track, (k, cells)) in &tracks {
        ln += ln_choose((track.len() + k).saturating_sub(*cells), *k);
    }
    ln.exp()
}

/// ln C(n, k).
fn ln_choose(n: usize, k: usize) -> f64 {
    (0..k.min(n))
        .map(|i| ((n - i) as f64 / (i + 1) as f64).ln())
        .sum()
}

/// The anchors a slider of type `t` reaches from `start` on the empty
/// board (its steps are along its axis only), `start` included.
fn rail(moves: &MoveGenerator, t: usize, start: usize) -> Vec<usize> {
    let mut rail = vec![start];
    for d in 0..4 {
        let mut at = start;
        while let Some(x) = moves.empty_step(t, at, d) {
            rail.push(x);
            at = x;
        }
    }
    rail
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

    /// Asserts that the choice's reason says `text`.
    fn says(c: &Choice, text: &str) {
        assert!(c.reason.contains(text), "{}", c.reason);
    }

    fn choice(file: &str, budget: Budget) -> Choice {
        let puzzle = &formats::bundled(file);
        let moves = MoveGenerator::new(puzzle, Metric::Steps, &[]);
        choose(puzzle, &moves, EncodingKind::Auto, budget)
    }

    /// A search that may spill takes packed though its table does not fit
    /// in memory, unless only the rank's keys fit on the disk, or the rank's
    /// table fits in memory. The 10^7 bench: 9,979,200 positions, packed 44
    /// bits (about 114 MiB on disk with the headroom), rank 24 (57 MiB);
    /// its table does not fit 32 MiB with either.
    #[test]
    fn auto_takes_packed_for_a_search_that_may_spill_where_its_keys_fit_the_disk() {
        let budget = |spill_free| Budget {
            max_memory: Some(32 << 20),
            max_positions: None,
            spill_free,
            dense: false,
            tiles: false,
        };
        let chosen = |free| choice("bench/bench_1e7.txt", budget(free));
        // Without --spill: packed first, the rank if it runs out of memory.
        let c = chosen(None);
        assert_eq!(c.encoding.name(), "packed", "{}", c.reason);
        assert_eq!(c.fallback, Some(EncodingKind::Rank), "{}", c.reason);
        let c = chosen(Some(1 << 30));
        assert_eq!(c.encoding.name(), "packed", "{}", c.reason);
        says(&c, "may spill");
        says(&c, "its keys on disk fit");
        assert_eq!(c.memory_guard, None);
        // Room for the rank's keys only (about 57 MiB against 114): the
        // memory rule, the rank.
        let c = chosen(Some(80 << 20));
        assert_eq!(c.encoding.name(), "rank", "{}", c.reason);
        // Room for neither, and the rank's table (about 114 MiB) does not
        // fit the memory either: the faster.
        let c = chosen(Some(1 << 20));
        assert_eq!(c.encoding.name(), "packed", "{}", c.reason);
        says(&c, "neither");
        // Room for neither, but the rank's table (114 MiB) fits the memory
        // where packed's (171 MiB) and the sets' (143 MiB) do not: the
        // rank, in memory.
        let roomier = Budget {
            max_memory: Some(130 << 20),
            ..budget(Some(1 << 20))
        };
        let c = choice("bench/bench_1e7.txt", roomier);
        assert_eq!(c.encoding.name(), "rank", "{}", c.reason);
    }

    #[test]
    fn auto_takes_packed_when_its_table_fits_and_rank_when_it_does_not() {
        // Korf's 15-puzzle: packed 60 bits, rank 45, bound 2^45 positions.
        let roomy = Budget {
            max_memory: Some(1 << 30),
            max_positions: Some(1_000_000),
            spill_free: None,
            dense: false,
            tiles: false,
        };
        let c = choice("tiles/korf_01.txt", roomy);
        assert_eq!(c.encoding.name(), "packed", "{}", c.reason);
        says(&c, "--max-memory");
        let tight = Budget {
            max_memory: Some(1 << 30),
            max_positions: None,
            spill_free: None,
            dense: false,
            tiles: false,
        };
        let c = choice("tiles/korf_01.txt", tight);
        assert_eq!(c.encoding.name(), "packed", "{}", c.reason);
        says(&c, "might not fit in the worst case");
        assert_eq!(c.memory_guard, Some(1 << 30), "{}", c.reason);
        assert_eq!(c.fallback, Some(EncodingKind::Rank), "{}", c.reason);
        // Under --max-positions the bound is that many expansions, and the
        // rank is taken where even the positions to be expected do not fit.
        let bounded = Budget {
            max_positions: Some(100_000_000),
            ..tight
        };
        let c = choice("tiles/korf_01.txt", bounded);
        assert_eq!(c.encoding.name(), "rank", "{}", c.reason);
        says(&c, "might not fit");
        assert_eq!(c.fallback, None, "{}", c.reason);
    }

    #[test]
    fn auto_leaves_out_keys_wider_than_the_visited_set_stores() {
        // The thesis's 100x100 board of unit squares: packed keys of
        // 139,986 bits (and sets the same: a rank of the 9,998 squares
        // would need a 1.6 GB table), the rank 27 bits.
        let c = choice("special/huge_1x1.txt", Budget::default());
        assert_eq!(c.encoding.name(), "rank", "{}", c.reason);
        assert_eq!(c.encoding.key_bits(), 27, "{}", c.reason);
        says(&c, "too wide for the visited set");
    }

    #[test]
    fn auto_takes_sets_where_nothing_fits_and_it_is_the_narrowest() {
        // (Under --max-positions: without it auto starts with the faster
        // encoding and falls back to this one.) Daisy: packed 63 bits, the rank 36, sets 30 (its unit squares'
        // set over their own anchors); 16 bytes hold none of them.
        let tiny = Budget {
            max_memory: Some(16),
            max_positions: Some(1_000),
            spill_free: None,
            dense: false,
            tiles: false,
        };
        let c = choice("klotski/daisy.txt", tiny);
        assert_eq!(c.encoding.name(), "sets", "{}", c.reason);
        assert_eq!(c.encoding.key_bits(), 30, "{}", c.reason);
        says(&c, "narrowest");
        // Korf's 15-puzzle has no interchangeable tiles: the rank.
        let c = choice("tiles/korf_01.txt", tiny);
        assert_eq!(c.encoding.name(), "rank", "{}", c.reason);
    }

    #[test]
    fn auto_counts_the_rails_of_rush_hour_cars() {
        // Rush Hour: the rank's bound (cars anywhere on the board) is over
        // 2^40, but each car has at most 5 places on its rail: 12 cars,
        // at most 5^12 positions, whose packed table fits 8 GiB.
        let budget = Budget {
            max_memory: Some(8 << 30),
            max_positions: None,
            spill_free: None,
            dense: false,
            tiles: false,
        };
        let c = choice("rushhour/rush_30.txt", budget);
        assert_eq!(c.encoding.name(), "packed", "{}", c.reason);
        says(&c, "fits");
    }

    #[test]
    fn auto_counts_rush_hour_bars_by_track() {
        // A 7,180-position Rush Hour board (line 84 of the dev set): the
        // product of its 13 vehicles' places bounds 3.9 billion positions,
        // whose 9-byte packed slots would not fit 23 GiB, so auto took the
        // rank at half the speed; bars on one track keep their order, and
        // the bound by track is 54 million.
        let puzzle =
            crate::formats::rush::parse_line("HoBBBMHCCJLMAAIJLNDDIKLNoooKEEoFFGGo", 1, "test")
                .expect("a Rush Hour line");
        let moves = MoveGenerator::new(&puzzle, Metric::Moves, &[]);
        let bound = placements(&puzzle, &moves);
        assert!((bound - 54e6).abs() < 1.0, "{bound}");
        let budget = Budget {
            max_memory: Some(23 << 30),
            max_positions: None,
            spill_free: None,
            dense: false,
            tiles: false,
        };
        let c = choose(&puzzle, &moves, EncodingKind::Auto, budget);
        assert_eq!(c.encoding.name(), "packed", "{}", c.reason);
    }

    #[test]
    fn auto_takes_packed_or_sets_for_the_expected_positions_and_guards_the_memory() {
        // Sunshine: 542 packed bits against 278; 100 empty cells bound 5M
        // expansions at 2 billion positions, the start has 12 moves.
        let budget = |memory: u64| Budget {
            max_memory: Some(memory),
            max_positions: Some(5_000_000),
            spill_free: None,
            dense: false,
            tiles: false,
        };
        let c = choice("klotski/sunshine.txt", budget(22 << 30));
        assert_eq!(c.encoding.name(), "packed", "{}", c.reason);
        assert_eq!(c.memory_guard, Some(22 << 30), "{}", c.reason);
        says(&c, "to be expected");
        // 120M expected positions of 68-byte slots (16.5 GB) do not fit
        // 12 GiB; with sets' 41-byte slots (9.9 GB) they do.
        let c = choice("klotski/sunshine.txt", budget(12 << 30));
        assert_eq!(c.encoding.name(), "sets", "{}", c.reason);
        assert_eq!(c.encoding.key_bits(), 319, "{}", c.reason);
        says(&c, "the packed table might not fit");
        assert_eq!(c.memory_guard, Some(12 << 30), "{}", c.reason);
        // Neither fits 4 GiB: the rank.
        let c = choice("klotski/sunshine.txt", budget(4 << 30));
        assert_eq!(c.encoding.name(), "rank", "{}", c.reason);
        says(&c, "the sets table might not fit");
        assert_eq!(c.memory_guard, None);
        // Where the worst case fits, no guard is needed.
        let c = choice(
            "tiles/korf_01.txt",
            Budget {
                max_memory: Some(1 << 30),
                max_positions: Some(1_000_000),
                spill_free: None,
                dense: false,
                tiles: false,
            },
        );
        assert_eq!(c.encoding.name(), "packed", "{}", c.reason);
        assert_eq!(c.memory_guard, None);
    }
}
