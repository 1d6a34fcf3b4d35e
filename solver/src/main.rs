//! The `solver` binary: parses the command line and hands it to the library.

use clap::Parser;

fn main() {
    quiet_on_closed_pipe();
    let cli = solver::cli::Cli::parse();
    let code = match solver::cli::run(cli) {
        Ok(code) => code,
        Err(failure) => {
            eprintln!("error: {}", failure.message);
            failure.code
        }
    };
    std::process::exit(code);
}

/// `solver solve ... | head` closes our stdout early; printing then fails.
/// That is the reader's choice, not an error: exit quietly instead of
/// reporting a panic.
fn quiet_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.contains("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}
