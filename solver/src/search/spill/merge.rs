//! Delayed duplicate detection, as in Korf's disk-based BFS: the sorted runs
//! of the next layer's successors are merged into one sorted stream without
//! repeats, and every key also found in the current or the previous layer
//! (sorted files too, read alongside) is dropped. In an undirected search
//! graph a successor of layer d lies in layer d-1, d or d+1, so no older layer
//! needs reading; what is left is exactly layer d+1.

use std::cmp::Ordering;
use std::io;

use super::runs::{KeyReader, KeyWriter, Source};

/// Keys merged between two looks for SIGINT or SIGTERM.
const CHECK_EVERY: u64 = 1 << 16;

/// One sorted input and its current key.
struct Head {
    source: Source,
    key: Vec<u64>,
    live: bool,
}

impl Head {
    fn new(mut source: Source, words: usize) -> io::Result<Head> {
        let mut key = vec![0; words];
        let live = source.next(&mut key)?;
        Ok(Head { source, key, live })
    }

    fn advance(&mut self) -> io::Result<()> {
        self.live = self.source.next(&mut self.key)?;
        Ok(())
    }

    /// Moves past every key below `key`; true when `key` itself is here.
    fn holds(&mut self, key: &[u64]) -> io::Result<bool> {
        while self.live {
            match self.key.as_slice().cmp(key) {
                Ordering::Less => self.advance()?,
                Ordering::Equal => return Ok(true),
                Ordering::Greater => return Ok(false),
            }
        }
        Ok(false)
    }
}

/// The error of a merge stopped at `--time-limit`: a type of its own, so
/// that a disk's own timeout (ETIMEDOUT on a soft NFS mount) stays a disk
/// failure and is not taken for the limit.
#[derive(Debug)]
pub struct DeadlinePassed;

impl std::fmt::Display for DeadlinePassed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the time limit passed during a merge")
    }
}

impl std::error::Error for DeadlinePassed {}

impl DeadlinePassed {
    /// Whether `err` is this error.
    pub fn is(err: &io::Error) -> bool {
        err.get_ref().is_some_and(|e| e.is::<DeadlinePassed>())
    }
}

/// Writes to `out` every key of `runs` (each sorted, without repeats) that is
/// in none of `older` (sorted layer files), once each, in order. Returns the
/// number written. A merge of a large layer takes minutes, so it looks at
/// the `deadline` (`--time-limit`) as often as at the signals, and past it
/// fails with a [`DeadlinePassed`] error.
pub fn merge_layer(
    runs: Vec<Source>,
    older: Vec<KeyReader>,
    out: &mut KeyWriter,
    words: usize,
    deadline: Option<crate::clock::Instant>,
) -> io::Result<u64> {
    let mut heads = runs
        .into_iter()
        .map(|s| Head::new(s, words))
        .collect::<io::Result<Vec<_>>>()?;
    let mut older = older
        .into_iter()
        .map(|r| Head::new(Source::File(r), words))
        .collect::<io::Result<Vec<_>>>()?;
    let mut last = vec![0u64; words];
    let mut any = false;
    let mut written = 0;
    let mut read = 0u64;
    // At most `expand::MAX_FAN_IN` runs are merged at once, so the smallest
    // head is found by a scan rather than a heap.
    while let Some(min) = smallest(&heads) {
        read += 1;
        if read.is_multiple_of(CHECK_EVERY) {
            crate::search::interrupt::check()?;
            if deadline.is_some_and(|d| crate::clock::Instant::now() >= d) {
                return Err(io::Error::other(DeadlinePassed));
            }
        }
        let fresh = !any || heads[min].key != last;
        if fresh {
            last.copy_from_slice(&heads[min].key);
            any = true;
            let mut seen = false;
            for layer in &mut older {
                seen |= layer.holds(&last)?;
            }
            if !seen {
                out.push(&last)?;
                written += 1;
            }
        }
        heads[min].advance()?;
    }
    Ok(written)
}

/// The index of the live head with the smallest key.
fn smallest(heads: &[Head]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, h) in heads.iter().enumerate() {
        if h.live && best.is_none_or(|b| h.key < heads[b].key) {
            best = Some(i);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(dir: &std::path::Path, name: &str, keys: &[u64]) -> KeyReader {
        let path = dir.join(name);
        let mut w = KeyWriter::create(&path, 3).unwrap();
        for k in keys {
            w.push(&[*k]).unwrap();
        }
        w.finish().unwrap();
        KeyReader::open(&path, 3).unwrap()
    }

    #[test]
    fn repeats_and_keys_of_older_layers_are_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let runs = vec![
            Source::File(file(dir.path(), "a", &[1, 4, 7, 9, 12])),
            Source::Memory {
                keys: vec![2, 4, 8, 12, 30],
                at: 0,
            },
        ];
        let older = vec![
            file(dir.path(), "d", &[3, 7, 30]),
            file(dir.path(), "e", &[0, 2, 13]),
        ];
        let path = dir.path().join("out");
        let mut out = KeyWriter::create(&path, 3).unwrap();
        let n = merge_layer(runs, older, &mut out, 1, None).unwrap();
        out.finish().unwrap();
        assert_eq!(n, 5);
        let mut r = KeyReader::open(&path, 3).unwrap();
        let mut k = [0u64];
        let mut got = Vec::new();
        while r.next(&mut k).unwrap() {
            got.push(k[0]);
        }
        assert_eq!(got, vec![1, 4, 8, 9, 12]);
    }

    /// A merge past the time limit stops within its next check (the limit
    /// was only looked at between layers, so a merge of gigabytes ran on
    /// minutes past it); without a limit the same merge completes.
    #[test]
    fn a_merge_stops_at_the_deadline() {
        let dir = tempfile::tempdir().unwrap();
        let keys: Vec<u64> = (0..3 * CHECK_EVERY).collect();
        let merge = |deadline| {
            let runs = vec![Source::Memory {
                keys: keys.clone(),
                at: 0,
            }];
            let mut out = KeyWriter::create(&dir.path().join("out"), 3).unwrap();
            merge_layer(runs, Vec::new(), &mut out, 1, deadline)
        };
        let past = crate::clock::Instant::now();
        let err = merge(Some(past)).unwrap_err();
        assert!(DeadlinePassed::is(&err), "{err}");
        assert_eq!(merge(None).unwrap(), keys.len() as u64);
    }
}
