//! The clock behind time limits and rates. Natively it is the standard
//! library's [`Instant`]; in the WebAssembly build, where
//! `std::time::Instant::now` panics, it is the page's `performance.now()`,
//! imported as `env.sbp_now_ms` (the page's script provides it).

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use page::Instant;

#[cfg(target_arch = "wasm32")]
mod page {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    extern "C" {
        /// Milliseconds since the page loaded (`performance.now()`).
        fn sbp_now_ms() -> f64;
    }

    /// A moment, in milliseconds of the page's clock.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        pub fn now() -> Instant {
            // SAFETY: a plain function of the page's script, no arguments.
            Instant(unsafe { sbp_now_ms() })
        }

        pub fn elapsed(&self) -> Duration {
            Instant::now() - *self
        }

        pub fn duration_since(&self, earlier: Instant) -> Duration {
            *self - earlier
        }

        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            *self - earlier
        }

        pub fn checked_add(&self, d: Duration) -> Option<Instant> {
            Some(*self + d)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1000.0)
        }
    }

    impl Sub for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }
    }
}
