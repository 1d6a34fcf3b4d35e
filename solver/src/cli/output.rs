//! Writing results to standard output without panicking. `println!` panics
//! when the write fails; here a failed write is a [`Failure`]: a closed pipe
//! (`solver ... | head`, the reader's choice) ends quietly with exit 141,
//! recognised by its `io::ErrorKind`, and any other failure is reported.

use std::io::{self, Write};

use super::Failure;

/// Like `println!`, but a failed write returns from the enclosing function
/// with the [`Failure`] that [`failure`] makes of it.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::output::line(format_args!($($arg)*))?
    };
}

/// Writes `text` to standard output as one block and flushes it.
pub fn text(text: impl AsRef<[u8]>) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_ref())
        .and_then(|()| out.flush())
        .map_err(failure)
}

/// Writes `items` as one JSON list on one line: the declarations `solver
/// heuristics --json` and `solver prunings --json` print for the reasoner.
pub fn json_list<T: serde::Serialize>(items: &[T]) -> Result<(), Failure> {
    let text = serde_json::to_string(items)
        .map_err(|e| Failure::input(format!("cannot write the list: {e}")))?;
    line(format_args!("{text}"))
}

/// Writes one formatted line to standard output (see [`outln!`]).
pub fn line(args: std::fmt::Arguments) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    out.write_fmt(args)
        .and_then(|()| out.write_all(b"\n"))
        .map_err(failure)
}

/// The failure for a write to standard output: silent exit 141 (128 +
/// SIGPIPE, what a shell reports for a closed pipe) when the reader went
/// away, exit 1 with the reason otherwise.
pub fn failure(e: io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure {
            message: String::new(),
            code: 141,
        }
    } else {
        Failure {
            message: format!("cannot write to standard output: {e}"),
            code: 1,
        }
    }
}

/// The flags of a command that lists registrations (`solver heuristics`,
/// `solver prunings`).
#[derive(clap::Args, Debug)]
pub struct ListArgs {
    /// Print the declarations as one JSON list: what the reasoner reads to
    /// know its parameter space.
    #[arg(long)]
    pub json: bool,
}

/// Prints `infos` as one JSON list with `--json`, else `lines`, one each.
pub fn list<T: serde::Serialize>(
    args: &ListArgs,
    infos: &[T],
    lines: impl Iterator<Item = String>,
) -> Result<i32, Failure> {
    if args.json {
        json_list(infos)?;
        return Ok(0);
    }
    for l in lines {
        line(format_args!("{l}"))?;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_pipe_is_told_by_its_error_kind() {
        let closed = failure(io::Error::from(io::ErrorKind::BrokenPipe));
        assert_eq!((closed.code, closed.message.as_str()), (141, ""));
        let full = failure(io::Error::other("No space left on device"));
        assert_eq!(full.code, 1);
        assert!(full.message.contains("No space left"), "{}", full.message);
    }
}
