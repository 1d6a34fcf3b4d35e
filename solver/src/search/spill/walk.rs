//! The solution of a spilled search, recovered without parent pointers:
//! from the goal's parent in layer d, each step back finds a position of
//! layer d-1 among the current position's neighbours (moves can be undone,
//! so its parents are among them). The neighbours' keys are sorted and the
//! layer file, sorted the same way, is scanned once against them.

use std::io;

use super::expand::Disk;
use super::runs::{sort_dedup, KeyReader};
use crate::encoding::PositionEncoding;
use crate::moves::{Move, State};
use crate::search::Engine;

/// The positions from the start to `goal`, where `parent` (in layer `depth`)
/// generated `goal`. `None` only if the layers hold no such path (a bug).
pub fn walk_back(
    e: &mut Engine,
    disk: &Disk,
    depth: usize,
    parent: State,
    goal: State,
) -> io::Result<Option<Vec<State>>> {
    let words = disk.words;
    let mut path = vec![goal, parent.clone()];
    let mut current = parent;
    let mut neighbours: Vec<u64> = Vec::new();
    let mut key = vec![0u64; words];
    let mut list: Vec<Move> = Vec::new();
    for d in (0..depth).rev() {
        neighbours.clear();
        e.moves.generate(&current, &mut list);
        let mut state = current.clone();
        for &m in &list {
            e.moves.apply(&mut state, m);
            e.encoding.encode(&state, &mut key);
            neighbours.extend_from_slice(&key);
            e.moves.undo(&mut state, m);
        }
        sort_dedup(&mut neighbours, words);
        let Some(found) = first_in_layer(&neighbours, words, disk, d, &mut key)? else {
            return Ok(None);
        };
        e.encoding
            .decode(&neighbours[found * words..][..words], &mut state);
        path.push(state.clone());
        current = state;
    }
    path.reverse();
    Ok(Some(path))
}

/// The index of the first of `sorted` keys that layer `d`'s file holds.
fn first_in_layer(
    sorted: &[u64],
    words: usize,
    disk: &Disk,
    d: usize,
    key: &mut [u64],
) -> io::Result<Option<usize>> {
    let mut reader = KeyReader::open(&disk.layers[d].path, disk.key_bytes)?;
    let mut i = 0;
    let n = sorted.len() / words;
    while i < n && reader.next(key)? {
        while i < n && sorted[i * words..(i + 1) * words] < *key {
            i += 1;
        }
        if i < n && sorted[i * words..(i + 1) * words] == *key {
            return Ok(Some(i));
        }
    }
    Ok(None)
}
