//! The progress bar on stderr for long searches (indicatif): positions
//! examined (against `--max-positions` when there is one), their rate, the
//! elapsed time, depth or f-bound, memory and the best master distance so far.
//! It appears only after a second, so quick runs print nothing, and never
//! with `--quiet`, `--json` or when stderr is not a terminal. indicatif draws
//! and clears the bar at a bounded rate and formats rates and durations,
//! which a hand-written `\r` line did worse.

use crate::clock::Instant;
use std::io::IsTerminal;
use std::time::Duration;

#[cfg(target_arch = "wasm32")]
use crate::page::indicatif;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::Stats;

/// Wait this long before drawing, so that quick searches stay silent.
const FIRST_DRAW: Duration = Duration::from_secs(1);
/// Update the bar at most this often (the search calls `tick` far more often).
const REFRESH: Duration = Duration::from_millis(200);

/// The search's progress display; cheap to `tick` when disabled.
pub struct Progress {
    enabled: bool,
    started: Instant,
    last: Instant,
    /// The position limit, shown as the bar's length.
    total: Option<u64>,
    bar: Option<ProgressBar>,
    /// Depth or f-bound, set by the algorithm.
    pub bound: u64,
    /// Bytes a spilled BFS holds on disk (shown when not 0).
    pub disk: u64,
    /// Where no bar is drawn (`--json`, stderr not a terminal) but the
    /// person did not ask for quiet: a line on stderr for each new bound of
    /// an iterative search after the first second, so that a long IDA*
    /// (the 24-puzzle) shows it is getting on.
    bound_lines: bool,
}

impl Progress {
    /// Enabled unless `quiet` or stderr is not a terminal.
    pub fn new(quiet: bool) -> Progress {
        let now = Instant::now();
        Progress {
            enabled: !quiet && std::io::stderr().is_terminal(),
            started: now,
            last: now,
            total: None,
            bar: None,
            bound: 0,
            disk: 0,
            bound_lines: false,
        }
    }

    /// Prints [`Progress::new_bound`]'s lines when no bar is drawn.
    pub fn with_bound_lines(mut self, on: bool) -> Progress {
        self.bound_lines = on;
        self
    }

    /// An iterative search starts over with `bound` after `stats`, or stops
    /// within it: the bar shows it; without a bar, one line on stderr (see
    /// `bound_lines`).
    pub fn new_bound(&mut self, bound: u64, stats: &Stats) {
        self.bound = bound;
        let secs = self.started.elapsed().as_secs_f64();
        if self.bound_lines && !self.enabled && secs >= FIRST_DRAW.as_secs_f64() {
            eprintln!(
                "progress: bound {bound}, {} positions examined, {secs:.1} s",
                stats.examined
            );
        }
    }

    /// Never shown (for searches inside other commands).
    pub fn disabled() -> Progress {
        Progress::new(true)
    }

    /// Draws a bar filling up to `max_positions` instead of a counter alone.
    pub fn with_limit(mut self, max_positions: Option<u64>) -> Progress {
        self.total = max_positions;
        self
    }

    /// Called often by the search; redraws at most every [`REFRESH`].
    pub fn tick(&mut self, stats: &Stats, memory: u64) {
        if !self.enabled || self.last.elapsed() < REFRESH || self.started.elapsed() < FIRST_DRAW {
            return;
        }
        self.last = Instant::now();
        let bar = self
            .bar
            .get_or_insert_with(|| new_bar(self.total, self.started));
        bar.set_position(stats.examined);
        let rate = stats.examined as f64 / self.started.elapsed().as_secs_f64();
        let disk = match self.disk {
            0 => String::new(),
            bytes => format!(" + {:.1} MiB on disk", bytes as f64 / (1 << 20) as f64),
        };
        bar.set_message(format!(
            "{rate:.0}/s, depth/bound {}, {:.1} MiB{disk}, best distance {}",
            self.bound,
            memory as f64 / (1 << 20) as f64,
            stats.best_distance
        ));
    }

    /// Whether the bar is drawn.
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// Removes the bar, so the summary that follows starts on a clean line.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// A bar (with a position limit) or a counter, on stderr, timed from `started`.
fn new_bar(total: Option<u64>, started: Instant) -> ProgressBar {
    let template = match total {
        Some(_) => {
            "{spinner} {elapsed_precise} [{bar:30}] {human_pos}/{human_len} positions (limit in {eta}), {msg}"
        }
        None => "{spinner} {elapsed_precise} {human_pos} positions, {msg}",
    };
    let style = ProgressStyle::with_template(template)
        .expect("the progress template is valid")
        .progress_chars("=> ");
    let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr())
        .with_style(style)
        .with_elapsed(started.elapsed());
    bar.enable_steady_tick(REFRESH);
    bar
}
