//! The reasoner's progress bar on stderr (indicatif): attempts done of n, the
//! attempts of the wave now running, the best master distance any attempt
//! reached so far and the elapsed time (against `--time-budget` if given). Off with `--quiet` or `--json`, and
//! when stderr is not a terminal; cleared before the report is printed.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::plan::Planned;
use crate::runner::{AttemptResult, RunStatus};

/// Progress over a cycle's attempts; every call is a no-op when disabled.
pub struct WaveProgress {
    bar: Option<ProgressBar>,
    best: Option<u32>,
}

impl WaveProgress {
    /// A bar over `attempts` attempts (the final one is added when it
    /// starts), drawn only if `wanted` and stderr is a terminal; with a
    /// time budget, the elapsed time is shown against it.
    pub fn new(attempts: usize, wanted: bool, budget: Option<Duration>) -> WaveProgress {
        let bar = (wanted && std::io::stderr().is_terminal()).then(|| {
            let of_budget = budget.map_or(String::new(), |b| {
                format!(" of {}", indicatif::HumanDuration(b))
            });
            let template = format!(
                "{{spinner}} {{elapsed_precise}}{of_budget} [{{bar:25}}] {{pos}}/{{len}} attempts done, {{msg}}"
            );
            let style = ProgressStyle::with_template(&template)
            .expect("the progress template is valid")
            .progress_chars("=> ");
            let bar =
                ProgressBar::with_draw_target(Some(attempts as u64), ProgressDrawTarget::stderr())
                    .with_style(style);
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        WaveProgress { bar, best: None }
    }

    /// A wave (or the final attempt) starts.
    pub fn wave(&mut self, wave: &[Planned]) {
        let Some(bar) = &self.bar else { return };
        let (Some(first), Some(last)) = (wave.first(), wave.last()) else {
            return;
        };
        bar.set_length(bar.length().unwrap_or(0).max(last.index as u64));
        let running = if first.index == last.index {
            format!("running attempt {} ({})", first.index, first.phase.name())
        } else {
            format!("running attempts {}-{}", first.index, last.index)
        };
        bar.set_message(format!("{running}, best distance {}", self.best_text()));
    }

    /// An attempt finished.
    pub fn done(&mut self, planned: &Planned, result: &AttemptResult) {
        let Some(bar) = &self.bar else { return };
        if let Some(d) = result.best_distance {
            self.best = Some(self.best.map_or(d, |b| b.min(d)));
        }
        if result.status == RunStatus::Solved {
            self.best = Some(0);
        }
        bar.set_position(planned.index as u64);
        bar.set_message(format!("best distance {}", self.best_text()));
    }

    /// A phase after the attempts (improve's windows and re-runs), so that
    /// the screen does not go blank while it runs.
    pub fn phase(&mut self, what: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!("{what}; best distance {}", self.best_text()));
        }
    }

    /// Removes the bar before the report is printed.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    fn best_text(&self) -> String {
        self.best.map_or("-".to_string(), |d| d.to_string())
    }
}
