//! The `solver` binary: parses the command line and hands it to the library.

use clap::Parser;

fn main() {
    tune_allocator();
    if let Some(hint) = file_for_command() {
        eprintln!("error: {hint}");
        std::process::exit(2);
    }
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
    // SIGINT or SIGTERM stopped the command (after its summary): the exit
    // code a shell gives a process the signal ended.
    if let Some(signal) = solver::search::interrupted() {
        std::process::exit(128 + signal);
    }
    std::process::exit(code);
}

/// A hint when the first argument names a file rather than a command
/// (`solver classic.txt`), where clap would only say that the subcommand
/// is unknown.
fn file_for_command() -> Option<String> {
    use clap::CommandFactory;
    let first = std::env::args_os().nth(1)?;
    let name = first.to_str()?;
    let command = solver::cli::Cli::command();
    let known = command
        .get_subcommands()
        .any(|c| c.get_name() == name || c.get_all_aliases().any(|a| a == name));
    (!known && !name.starts_with('-') && std::path::Path::new(name).is_file()).then(|| {
        format!(
            "'{name}' is a file, not a command: to solve the puzzle in it, run `solver solve {name}` (`solver --help` lists the commands: count, show, render, verify...)"
        )
    })
}

/// Under `--max-memory`, has glibc's allocator keep one arena for all
/// threads (`M_ARENA_MAX`; unless the user tunes malloc through
/// `GLIBC_TUNABLES`). With an arena a thread, the shards a BFS helper
/// thread grows are freed into that thread's arena, where the main thread's
/// later arrays cannot reuse them, and that memory is not what the search
/// counts against the limit: the 10^7 bench under `--max-memory 64M` on two
/// threads peaked at 82 MB resident, 64.5 MB with one arena (one thread: 62
/// MB either way). Not without a limit: on small puzzles searched two at a
/// time (`--jobs 2`), whose threads allocate at every puzzle, one arena
/// made the 95 Rush Hour dev boards take 0.087 s instead of 0.073 s.
fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let limited = std::env::args_os()
            .filter_map(|a| a.into_string().ok())
            .any(|a| a == "--max-memory" || a.starts_with("--max-memory="));
        if !limited || std::env::var("GLIBC_TUNABLES").is_ok_and(|t| t.contains("malloc")) {
            return;
        }
        // SAFETY: mallopt only sets allocator parameters; it is called
        // before any other thread exists.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
    }
}
