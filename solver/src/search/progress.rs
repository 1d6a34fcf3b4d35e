//! The progress line on stderr: refreshed about once a second for long
//! searches, silent with `--quiet` or when stderr is not a terminal.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use super::Stats;

pub struct Progress {
    enabled: bool,
    started: Instant,
    last: Instant,
    /// Depth or f-bound, set by the algorithm.
    pub bound: u64,
    shown: bool,
}

impl Progress {
    /// Enabled unless `quiet` or stderr is not a terminal.
    pub fn new(quiet: bool) -> Progress {
        let now = Instant::now();
        Progress {
            enabled: !quiet && std::io::stderr().is_terminal(),
            started: now,
            last: now,
            bound: 0,
            shown: false,
        }
    }

    pub fn disabled() -> Progress {
        Progress::new(true)
    }

    pub fn tick(&mut self, stats: &Stats, memory: u64) {
        if !self.enabled || self.last.elapsed() < Duration::from_secs(1) {
            return;
        }
        self.last = Instant::now();
        let secs = self.started.elapsed().as_secs_f64().max(1e-9);
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r{} positions, depth/bound {}, {:.0} positions/s, {:.1} MiB, best distance {}   ",
            stats.examined,
            self.bound,
            stats.examined as f64 / secs,
            memory as f64 / (1 << 20) as f64,
            stats.best_distance
        );
        let _ = err.flush();
        self.shown = true;
    }

    /// Ends the line if one was drawn.
    pub fn finish(&mut self) {
        if self.shown {
            eprintln!();
            self.shown = false;
        }
    }
}
