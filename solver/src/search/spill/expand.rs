//! The breadth-first search on disk: layer d is read from its file, each
//! position expanded (goal test as successors are generated), the successor
//! keys gathered into sorted runs, and the runs merged against layers d and
//! d-1 into the file of layer d+1 ([`super::merge`]). Every layer file is kept
//! while searching for a goal (the solution is walked back through them) and
//! only the last two while counting.

use crate::clock::Instant;
use std::io;
use std::path::PathBuf;

use super::dir::SpillDir;
use super::merge::merge_layer;
use super::runs::{sort_dedup, KeyReader, KeyWriter, Source, STREAM_BYTES};
use super::walk::walk_back;
use crate::encoding::PositionEncoding;
use crate::moves::{Move, State};
use crate::search::{Ending, Engine, Limit};

/// Parents expanded between two looks at the clock and the progress bar.
const CHECK_EVERY: u64 = 64;

/// Most runs merged at once (the smallest key is found by a scan of them).
/// A layer with more runs is merged in rounds: groups of this many runs
/// into one longer run each, until the rest fit one merge.
const MAX_FAN_IN: usize = 16;

/// Key files open besides the runs while a layer is merged: the layers d
/// and d-1 read alongside and the new layer's file.
const OTHER_STREAMS: usize = 3;

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
    /// Runs merged at once: what the other half of the budget holds in
    /// reader buffers, so that memory does not grow with a layer's runs.
    fan_in: usize,
    pub layers: Vec<Layer>,
    /// This layer's run files and their bytes, not opened until merged.
    runs: Vec<(PathBuf, u64)>,
    /// The most bytes of buffers a merge held.
    merge_peak: u64,
    /// When `--time-limit` ends the search, also in the middle of a merge.
    deadline: Option<Instant>,
}

/// How expanding one layer ended.
enum Expanded {
    /// The last run of successor keys, sorted, still in memory (the
    /// others are in `Disk::runs`), ready for merging.
    Runs(Vec<u64>),
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
        fan_in: fan_in(budget),
        layers: Vec::new(),
        runs: Vec::new(),
        merge_peak: 0,
        deadline: e.deadline(),
    };
    let mut key = vec![0u64; words];
    e.encoding.encode(start, &mut key);
    disk.write_layer(key, Vec::new())?;
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
            Expanded::Runs(last) => {
                let older = [depth, depth.wrapping_sub(1)]
                    .iter()
                    .filter_map(|&d| disk.layers.get(d))
                    .map(|l| KeyReader::open(&l.path, disk.key_bytes))
                    .collect::<io::Result<Vec<_>>>()?;
                let added = disk.write_layer(last, older)?;
                e.stats.peak_memory = e.stats.peak_memory.max(disk.merge_peak);
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
    let mut held = reader.bytes() as u64;
    while reader.next(&mut key)? {
        if let Some(limit) = over_limit(e, disk, held)? {
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
            disk.write_run(&mut buffer)?;
        }
    }
    sort_dedup(&mut buffer, words);
    Ok(Expanded::Runs(buffer))
}

/// Runs merged at once under `budget`: half of it is the run buffer (the
/// last run stays in memory through the merge), the other half holds the
/// readers' buffers, one per run and [`OTHER_STREAMS`] more; at least two
/// (a merge must shorten the list), at most [`MAX_FAN_IN`].
fn fan_in(budget: usize) -> usize {
    (budget / 2 / STREAM_BYTES)
        .saturating_sub(OTHER_STREAMS)
        .clamp(2, MAX_FAN_IN)
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

/// The position and time limits, checked before each parent; now and then
/// also SIGINT and SIGTERM (an `Interrupted` error) and the progress bar.
fn over_limit(e: &mut Engine, disk: &Disk, held: u64) -> io::Result<Option<Limit>> {
    let examined = e.stats.examined;
    if e.limits.max_positions.is_some_and(|m| examined >= m) {
        return Ok(Some(Limit::Positions));
    }
    if examined.is_multiple_of(CHECK_EVERY) {
        crate::search::interrupt::check()?;
        if e.past_deadline() {
            return Ok(Some(Limit::Time));
        }
        e.progress.disk = disk.dir.bytes();
        e.progress.tick(&e.stats, held);
    }
    Ok(None)
}

impl Disk<'_> {
    /// Sorts the buffer into a run file and empties it.
    fn write_run(&mut self, buffer: &mut Vec<u64>) -> io::Result<()> {
        sort_dedup(buffer, self.words);
        let path = self.dir.file("run");
        let mut w = KeyWriter::create(&path, self.key_bytes)?;
        for k in buffer.chunks_exact(self.words) {
            w.push(k)?;
        }
        let bytes = w.finish()? * self.key_bytes as u64;
        self.dir.grew(bytes);
        buffer.clear();
        self.runs.push((path, bytes));
        Ok(())
    }

    /// Merges the run files and the run `last` (sorted, in memory) minus
    /// `older` into the next layer's file, and deletes the run files;
    /// returns the layer's size. Never more than `fan_in` runs are open.
    fn write_layer(&mut self, last: Vec<u64>, older: Vec<KeyReader>) -> io::Result<u64> {
        while self.runs.len() > self.fan_in {
            self.merge_runs()?;
        }
        let streams = (self.runs.len() + OTHER_STREAMS) * STREAM_BYTES;
        self.merge_peak = self.merge_peak.max((last.capacity() * 8 + streams) as u64);
        let mut sources = self.open_runs(self.runs.len())?;
        sources.push(Source::Memory { keys: last, at: 0 });
        let path = self.dir.file("layer");
        let mut w = KeyWriter::create(&path, self.key_bytes)?;
        merge_layer(sources, older, &mut w, self.words, self.deadline)?;
        let keys = w.finish()?;
        self.dir.grew(keys * self.key_bytes as u64);
        self.layers.push(Layer { path, keys });
        for (path, bytes) in std::mem::take(&mut self.runs) {
            self.dir.remove(&path, bytes);
        }
        Ok(keys)
    }

    /// Merges the first `fan_in` run files into one run at the end of the
    /// list (repeats dropped) and deletes them: one round of a layer with
    /// more runs than one merge may open.
    fn merge_runs(&mut self) -> io::Result<()> {
        let sources = self.open_runs(self.fan_in)?;
        let path = self.dir.file("run");
        let mut w = KeyWriter::create(&path, self.key_bytes)?;
        merge_layer(sources, Vec::new(), &mut w, self.words, self.deadline)?;
        let bytes = w.finish()? * self.key_bytes as u64;
        self.dir.grew(bytes);
        for (done, done_bytes) in self.runs.drain(..self.fan_in).collect::<Vec<_>>() {
            self.dir.remove(&done, done_bytes);
        }
        self.runs.push((path, bytes));
        Ok(())
    }

    /// Readers of the first `n` run files.
    fn open_runs(&self, n: usize) -> io::Result<Vec<Source>> {
        self.runs[..n]
            .iter()
            .map(|(path, _)| KeyReader::open(path, self.key_bytes).map(Source::File))
            .collect()
    }

    /// Deletes layer `depth`'s file (counting needs only the last two).
    fn forget(&mut self, depth: usize) {
        let layer = &self.layers[depth];
        self.dir
            .remove(&layer.path, layer.keys * self.key_bytes as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fan_in_is_what_half_the_budget_holds_in_readers() {
        assert_eq!(
            fan_in(1 << 20),
            5,
            "1 MiB: 8 buffers of 64 KiB, 3 for the rest"
        );
        assert_eq!(fan_in(0), 2, "a merge always shortens the list");
        assert_eq!(fan_in(1 << 30), MAX_FAN_IN);
    }

    /// A layer of more runs than one merge opens is merged in rounds: the
    /// layer holds every key once, in order, and the run files are gone.
    #[test]
    fn a_layer_of_many_runs_is_merged_in_rounds() {
        let parent = tempfile::tempdir().unwrap();
        let mut dir = SpillDir::create(parent.path().to_str().unwrap()).unwrap();
        let mut disk = Disk {
            dir: &mut dir,
            words: 1,
            key_bytes: 3,
            run_keys: 100,
            fan_in: 2,
            layers: Vec::new(),
            runs: Vec::new(),
            merge_peak: 0,
            deadline: None,
        };
        let mut expected = Vec::new();
        for run in 0..7u64 {
            // Overlapping runs, each with repeats.
            let mut buffer: Vec<u64> = (0..50).map(|i| (i * 7 + run * 13) % 300).collect();
            expected.extend_from_slice(&buffer);
            disk.write_run(&mut buffer).unwrap();
        }
        let last = vec![5, 299, 1000];
        expected.extend_from_slice(&last);
        expected.sort_unstable();
        expected.dedup();
        let keys = disk.write_layer(last, Vec::new()).unwrap();
        assert_eq!(keys, expected.len() as u64);
        assert!(disk.runs.is_empty());
        let mut reader = KeyReader::open(&disk.layers[0].path, 3).unwrap();
        let mut key = [0u64];
        let mut got = Vec::new();
        while reader.next(&mut key).unwrap() {
            got.push(key[0]);
        }
        assert_eq!(got, expected);
        assert_eq!(disk.dir.bytes(), keys * 3, "only the layer is left on disk");
        let folder = std::fs::read_dir(parent.path())
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let mut files: Vec<_> = std::fs::read_dir(folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        files.sort();
        assert_eq!(files.len(), 2, "the layer and the lock: {files:?}");
    }
}
