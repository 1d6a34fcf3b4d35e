//! The `solver` binary: parses the command line and hands it to the library.

use clap::Parser;

fn main() {
    keep_small_frees();
    let cli = solver::cli::Cli::parse();
    let code = match solver::cli::run(cli) {
        Ok(code) => code,
        Err(failure) => {
            // A closed pipe ends quietly: the message is empty.
            if !failure.message.is_empty() {
                eprintln!("error: {}", failure.message);
            }
            failure.code
        }
    };
    std::process::exit(code);
}

/// Has glibc's allocator keep freed memory of up to 16 MiB at the top of
/// its heap (instead of 128 KiB) and serve allocations of up to 4 MiB from
/// the heap (instead of a threshold that starts at 128 KiB), so that a
/// collection of small puzzles reuses one puzzle's tables for the next.
/// By default each puzzle's 64 visited-set shards and queues were mapped
/// and unmapped or trimmed anew: on the 95 Rush Hour dev boards repeated
/// twenty times and stopped after one position each, a fifth of the time
/// went to `brk`, `munmap` and page faults (56 -> 42 microseconds of
/// setup a puzzle). Larger arrays (a big search's tables) are still
/// mapped and returned whole; peak memory of the 15-puzzle and the 10^7
/// bench is unchanged.
fn keep_small_frees() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets allocator parameters; it is called before
    // any other thread exists.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 16 << 20);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 4 << 20);
    }
}
