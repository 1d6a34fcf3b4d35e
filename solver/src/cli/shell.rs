//! `solver completions SHELL` and `solver man`: shell completions and the
//! man page, generated from the same clap definitions as the parser
//! (clap_complete, clap_mangen), so they list exactly the commands and flags
//! the solver takes.
//!
//! ```sh
//! solver completions bash > ~/.local/share/bash-completion/completions/solver
//! solver man > ~/.local/share/man/man1/solver.1
//! ```

use clap::{Args, CommandFactory};

use super::{output, Cli, Failure};

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Args, Debug)]
pub struct ManArgs {}

/// Prints the completion script for `args.shell` on standard output.
pub fn completions(args: &CompletionsArgs) -> Result<i32, Failure> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "solver", &mut script);
    output::text(&script)?;
    Ok(0)
}

/// Prints the man page (roff) on standard output: the commands, then each
/// command's options.
pub fn man(_args: &ManArgs) -> Result<i32, Failure> {
    let command = Cli::command();
    let mut page = Vec::new();
    let failed = |e: std::io::Error| Failure::input(format!("cannot write the man page: {e}"));
    clap_mangen::Man::new(command.clone())
        .render(&mut page)
        .map_err(failed)?;
    // Each command's synopsis and options after the main page's list.
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("solver {}", sub.get_name());
        let man = clap_mangen::Man::new(sub.clone().bin_name(name.clone()));
        page.extend_from_slice(format!(".SH \"{}\"\n", name.to_uppercase()).as_bytes());
        man.render_synopsis_section(&mut page).map_err(failed)?;
        man.render_description_section(&mut page).map_err(failed)?;
        man.render_options_section(&mut page).map_err(failed)?;
    }
    output::text(&page)?;
    Ok(0)
}
