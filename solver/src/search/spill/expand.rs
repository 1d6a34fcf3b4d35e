//! The breadth-first search on disk: layer d is read from its file, each
//! position expanded (goal test as successors are generated), the successor
//! keys gathered into sorted runs, and the runs merged against layers d and
//! d-1 into the file of layer d+1 ([`super::merge`]). Every layer file is kept
//! while searching for a goal (the solution is walked back through them) and
//! only the last two while counting.

use std::io;
use std::path::PathBuf;
use std::time::Instant;

use super::dir::SpillDir;
use super::merge::merge_layer;
use super::runs::{sort_dedup, KeyReader, KeyWriter, Source};
use super::walk::walk_back;
use crate::encoding::PositionEncoding;
use crate::moves::{Move, State};
use crate::search::{Ending, Engine, Limit};

/// Parents expanded between two looks at the clock and the progress bar.
const CHECK_EVERY: u64 = 64;

/// One layer's file and the number of keys in it.
pub struct Layer {
    pub path: PathBuf,
    pub keys: u64,
}

/// The files of one spilled search and the buffers it reuses.
pub struct Disk<'d> {
    pub dir: &'d mut SpillDir,
    pub words: usize,
    pub key_bytes: usize,
    /// Keys per run: what the memory budget holds.
    run_keys: usize,
    pub layers: Vec<Layer>,
    runs: Vec<(PathBuf, u64)>,
}

/// How expanding one layer ended.
enum Expanded {
    /// Sorted runs of successor keys, ready for merging.
    Runs(Vec<Source>),
    /// A successor of `parent` (in the layer expanded) is a goal.
    Goal {
        parent: State,
        goal: State,
    },
    Stopped(Limit),
}

/// Breadth-first search from `start` with layers on disk in `dir`, holding
/// about `budget` bytes of keys in memory.
pub fn search(
    e: &mut Engine,
    start: &State,
    dir: &mut SpillDir,
    budget: usize,
) -> io::Result<Ending> {
    let words = e.key_words();
    let mut disk = Disk {
        dir,
        words,
        key_bytes: (e.encoding.key_bits() as usize).div_ceil(8).max(1),
        // Half the budget for the run buffer; the rest for sorting and readers.
        run_keys: (budget / 2 / (8 * words)).max(1 << 12),
        layers: Vec::new(),
        runs: Vec::new(),
    };
    let mut key = vec![0u64; words];
    e.encoding.encode(start, &mut key);
    disk.write_layer(vec![Source::Memory { keys: key, at: 0 }], Vec::new())?;
    e.stats.stored = 1;
    if e.is_goal(start) {
        e.examine(start);
        return Ok(Ending::Found(vec![start.clone()]));
    }
    for depth in 0.. {
        e.progress.bound = depth as u64;
        match expand_layer(e, &mut disk, depth, start)? {
            Expanded::Stopped(limit) => return Ok(Ending::Stopped(limit)),
            Expanded::Goal { parent, goal } => {
                let path = walk_back(e, &disk, depth, parent, goal)?;
                return Ok(path.map_or(Ending::Exhausted, Ending::Found));
            }
            Expanded::Runs(runs) => {
                let older = [depth, depth.wrapping_sub(1)]
                    .iter()
                    .filter_map(|&d| disk.layers.get(d))
                    .map(|l| KeyReader::open(&l.path, disk.key_bytes))
                    .collect::<io::Result<Vec<_>>>()?;
                let added = disk.write_layer(runs, older)?;
                disk.drop_runs();
                if !e.goal_enabled && depth > 0 {
                    disk.forget(depth - 1);
                }
                if added == 0 {
                    return Ok(Ending::Exhausted);
                }
                e.stats.stored += added;
            }
        }
    }
    unreachable!("the layer loop returns")
}

/// Expands every position of layer `depth` into sorted runs of successors.
fn expand_layer(
    e: &mut Engine,
    disk: &mut Disk,
    depth: usize,
    start: &State,
) -> io::Result<Expanded> {
    let words = disk.words;
    let mut reader = KeyReader::open(&disk.layers[depth].path, disk.key_bytes)?;
    let mut key = vec![0u64; words];
    let mut successor = vec![0u64; words];
    let mut state = start.clone();
    let mut list: Vec<Move> = Vec::new();
    let full = disk.run_keys * words;
    let mut buffer: Vec<u64> = Vec::new();
    let mut runs = Vec::new();
    let mut held = reader.bytes() as u64;
    while reader.next(&mut key)? {
        if let Some(limit) = over_limit(e, disk, held) {
            return Ok(Expanded::Stopped(limit));
        }
        e.encoding.decode(&key, &mut state);
        e.examine(&state);
        e.prunings.prepare(&e.moves, &state);
        e.moves.generate(&state, &mut list);
        if grow(&mut buffer, list.len() * words, full) {
            held = (buffer.capacity() * 8 + reader.bytes()) as u64;
            e.stats.peak_memory = e.stats.peak_memory.max(held);
        }
        for &m in &list {
            e.moves.apply(&mut state, m);
            if e.prunings.keep(&e.moves, &state, m) {
                e.stats.generated += 1;
                if e.is_goal(&state) {
                    let goal = state.clone();
                    e.moves.undo(&mut state, m);
                    return Ok(Expanded::Goal {
                        parent: state,
                        goal,
                    });
                }
                e.encoding.encode_successor(&key, m, &state, &mut successor);
                buffer.extend_from_slice(&successor);
            }
            e.moves.undo(&mut state, m);
        }
        if buffer.len() >= full {
            runs.push(disk.write_run(&mut buffer)?);
        }
    }
    sort_dedup(&mut buffer, words);
    runs.push(Source::Memory {
        keys: buffer,
        at: 0,
    });
    Ok(Expanded::Runs(runs))
}

/// Makes room for `more` words in `buffer`, doubling its capacity but not
/// past `full` (the budget's run), so that the buffer takes memory only as the
/// layer needs it; true when it grew.
fn grow(buffer: &mut Vec<u64>, more: usize, full: usize) -> bool {
    let need = buffer.len() + more;
    if need <= buffer.capacity() {
        return false;
    }
    let target = (buffer.capacity() * 2).max(1 << 16).min(full).max(need);
    buffer.reserve_exact(target - buffer.len());
    true
}

/// The position and time limits, checked before each parent; ticks the
/// progress bar now and then.
fn over_limit(e: &mut Engine, disk: &Disk, held: u64) -> Option<Limit> {
    let examined = e.stats.examined;
    if e.limits.max_positions.is_some_and(|m| examined >= m) {
        return Some(Limit::Positions);
    }
    if examined.is_multiple_of(CHECK_EVERY) {
        if e.deadline().is_some_and(|d| Instant::now() >= d) {
            return Some(Limit::Time);
        }
        e.progress.disk = disk.dir.bytes();
        e.progress.tick(&e.stats, held);
    }
    None
}

impl Disk<'_> {
    /// Sorts the buffer into a run file and empties it.
    fn write_run(&mut self, buffer: &mut Vec<u64>) -> io::Result<Source> {
        sort_dedup(buffer, self.words);
        let path = self.dir.file("run");
        let mut w = KeyWriter::create(&path, self.key_bytes)?;
        for k in buffer.chunks_exact(self.words) {
            w.push(k)?;
        }
        let bytes = w.finish()? * self.key_bytes as u64;
        self.dir.grew(bytes);
        buffer.clear();
        self.runs.push((path.clone(), bytes));
        Ok(Source::File(KeyReader::open(&path, self.key_bytes)?))
    }

    /// Merges `runs` minus `older` into the next layer's file; returns its size.
    fn write_layer(&mut self, runs: Vec<Source>, older: Vec<KeyReader>) -> io::Result<u64> {
        let path = self.dir.file("layer");
        let mut w = KeyWriter::create(&path, self.key_bytes)?;
        merge_layer(runs, older, &mut w, self.words)?;
        let keys = w.finish()?;
        self.dir.grew(keys * self.key_bytes as u64);
        self.layers.push(Layer { path, keys });
        Ok(keys)
    }

    /// Deletes this layer's run files.
    fn drop_runs(&mut self) {
        for (path, bytes) in std::mem::take(&mut self.runs) {
            self.dir.remove(&path, bytes);
        }
    }

    /// Deletes layer `depth`'s file (counting needs only the last two).
    fn forget(&mut self, depth: usize) {
        let layer = &self.layers[depth];
        self.dir
            .remove(&layer.path, layer.keys * self.key_bytes as u64);
    }
}
