//! Stand-ins for what the WebAssembly build (the browser page's solver,
//! `solver/web`) has no use for: it draws no progress bars. Each keeps the
//! shape of the native crate's items that the library calls, and does
//! nothing, so the search code is the same in both builds.

/// The calls the library makes on `indicatif`; nothing is drawn.
pub mod indicatif {
    use std::time::Duration;

    /// A bar that is never shown.
    pub struct ProgressBar;

    /// A bar's look, ignored.
    pub struct ProgressStyle;

    /// Where a bar would be drawn, ignored.
    pub struct ProgressDrawTarget;

    impl ProgressBar {
        pub fn hidden() -> ProgressBar {
            ProgressBar
        }
        pub fn new(_len: u64) -> ProgressBar {
            ProgressBar
        }
        pub fn with_draw_target(_len: Option<u64>, _to: ProgressDrawTarget) -> ProgressBar {
            ProgressBar
        }
        pub fn with_style(self, _style: ProgressStyle) -> ProgressBar {
            self
        }
        pub fn with_elapsed(self, _elapsed: Duration) -> ProgressBar {
            self
        }
        pub fn set_style(&self, _style: ProgressStyle) {}
        pub fn set_position(&self, _pos: u64) {}
        pub fn inc(&self, _delta: u64) {}
        pub fn set_message(&self, _msg: String) {}
        pub fn enable_steady_tick(&self, _every: Duration) {}
        pub fn finish_and_clear(&self) {}
    }

    impl ProgressStyle {
        pub fn with_template(_template: &str) -> Result<ProgressStyle, std::fmt::Error> {
            Ok(ProgressStyle)
        }
        pub fn default_bar() -> ProgressStyle {
            ProgressStyle
        }
        pub fn progress_chars(self, _chars: &str) -> ProgressStyle {
            self
        }
    }

    impl ProgressDrawTarget {
        pub fn stderr() -> ProgressDrawTarget {
            ProgressDrawTarget
        }
    }
}
