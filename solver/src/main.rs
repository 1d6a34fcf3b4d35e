//! The `solver` binary: parses the command line and hands it to the library.

use clap::Parser;

fn main() {
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
